"""Every command and every python block of the documentation runs, and shows the output it gives.

The conventions are in tests/docs/docblocks.py; after a change of the program's output,
``python -m tests.docs.docblocks --update`` rewrites the pages' outputs (read the diff before committing it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .docblocks import DOCS, Skip, pages, parse, run_page

PAGES = [p for p in pages() if any(b.lang == "python" or b.commands for b in parse(p.read_text(encoding="utf-8")))]


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(DOCS).as_posix() for p in PAGES])
def test_page_runs_and_shows_its_output(page: Path) -> None:
    try:
        outcomes = run_page(page)
    except Skip as exc:
        pytest.skip(str(exc))
    differ = [o for o in outcomes if o.expected is not None and o.expected != o.actual]
    report = "\n\n".join(f"{o.where}: the page shows\n" + "\n".join(o.expected or []) + "\nthe program prints\n"
                         + "\n".join(o.actual) for o in differ)
    assert not differ, report + "\n\n(python -m tests.docs.docblocks --update rewrites them)"


def test_pages_have_commands() -> None:
    """The tutorials run real commands (a page set without any would make the test above vacuous)."""
    assert len(PAGES) >= 10


def test_parser_reads_the_conventions() -> None:
    text = "\n".join([
        "```text title=\"data/a.txt\"", "hello", "```",
        "```console", "$ accord score a b \\", "    --quiet", "out 1", "", "$ pip install accord", "```",
        "```python", "print(1)", "```", "", "```text", "1", "```"])
    blocks = parse(text)
    assert [b.lang for b in blocks] == ["text", "console", "python", "text"]
    assert blocks[0].title == "data/a.txt" and blocks[0].body == ["hello"]
    first, second = blocks[1].commands
    assert first.text == "accord score a b  --quiet" and first.expected == ["out 1", ""]
    assert second.text == "pip install accord" and second.expected == []
