"""The code blocks of the documentation (docs/**/*.md), read and run as a reader would run them.

Conventions of the pages (docs/how-it-works/contributing.md says them to writers):

- a fenced block with ``title="PATH"`` in any language but python, console and bash is a file the page writes:
  it is written to PATH (relative to the page's working directory) before the blocks after it run;
- in a ``console`` or ``bash`` block, a line ``$ accord ...`` is a command: it is run and the lines after it, up to
  the next ``$`` line, are its output (standard error, then standard output); ``$ cat FILE`` shows a file the page
  made; any other ``$`` line (``pip install ...``) is shown, not run; a block without ``$`` lines is a syntax
  summary and is not run;
- every ``python`` block runs, in order, in one namespace per page; a ``text`` block right after it (nothing but
  blank lines between) is what it prints; a ``py`` block is shown and not run (code that needs a cluster);
- a page needing an optional package that is not installed (spaCy, datasets, pandas, Dask...) is skipped, saying so.

Each page runs in a fresh temporary directory where ``examples/`` (the project's sample data) is reachable, with a
terminal 100 columns wide. Outputs are compared line by line after trailing spaces, the temporary directory's path
and times (``0.42 s``) are normalised.

``python -m tests.docs.docblocks --update [PAGE ...]`` runs the pages and writes the outputs they show back into
them (after a change of the program's output; read the diff before committing it).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ROOT", "DOCS", "Block", "Command", "Outcome", "pages", "parse", "run_page", "update_page"]

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
WIDTH = "100"
OPTIONAL = ("spacy", "datasets", "pandas", "dask", "distributed", "conllu", "cassis", "rdflib")

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<lang>[\w+-]*)\s*(?P<attrs>.*)$")
_TITLE = re.compile(r'title="(?P<title>[^"]+)"')
_TIME = re.compile(r"\b\d+(?:\.\d+)? ?(?:ms|s)\b")


@dataclass
class Command:
    """One ``$`` line of a console block (continuations joined) and the output the page shows under it."""

    line: int                 # 1-based line of the ``$`` in the page
    text: str
    expected: list[str]
    output_lines: tuple[int, int]   # the page's lines [start, end) holding the output (0-based)


@dataclass
class Block:
    """A fenced block: its language, title, body and (console blocks) commands."""

    lang: str
    title: str | None
    body: list[str]
    start: int                # 0-based line of the opening fence
    end: int                  # 0-based line of the closing fence
    commands: list[Command] = field(default_factory=list)


@dataclass
class Outcome:
    """What running one command or block gave, beside what the page shows."""

    where: str
    expected: list[str] | None
    actual: list[str]
    block: Block
    command: Command | None = None


def pages() -> list[Path]:
    """Every Markdown page of the site's sources."""
    return sorted(p for p in DOCS.rglob("*.md") if not any(part.startswith("_") for part in p.relative_to(DOCS).parts))


def parse(text: str) -> list[Block]:
    """The fenced blocks of a page, in order."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m["indent"], m["fence"]
        title = _TITLE.search(m["attrs"])
        j = i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence) and lines[j].strip().strip(fence[0]) == ""
                                      and lines[j][:len(indent)].strip() == ""):
            j += 1
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:j]]
        block = Block(m["lang"].lower(), title["title"] if title else None, body, i, j)
        if block.lang in ("console", "bash", "shell-session"):
            block.commands = _commands(body, i + 1)
        blocks.append(block)
        i = j + 1
    return blocks


def _commands(body: list[str], offset: int) -> list[Command]:
    commands: list[Command] = []
    k = 0
    while k < len(body):
        if not body[k].startswith("$ "):
            k += 1
            continue
        first = k
        text = body[k][2:]
        while text.endswith("\\") and k + 1 < len(body):
            k += 1
            text = text[:-1] + " " + body[k].lstrip("> ").strip()
        k += 1
        out_start = k
        while k < len(body) and not body[k].startswith("$ "):
            k += 1
        commands.append(Command(offset + first + 1, text, body[out_start:k], (offset + out_start, offset + k)))
    return commands


def normalise(lines: list[str], tmp: str = "") -> list[str]:
    """Lines compared: trailing spaces, the working directory's path and times normalised, outer blank lines cut."""
    out = []
    for line in lines:
        if tmp:
            line = line.replace(tmp + os.sep, "").replace(tmp, ".")
        out.append(_TIME.sub("<time>", line.rstrip()))
    while out and not out[0]:
        out.pop(0)
    while out and not out[-1]:
        out.pop()
    return out


@contextlib.contextmanager
def _workdir() -> Iterator[str]:
    old = os.getcwd()
    saved = {k: os.environ.get(k) for k in ("COLUMNS", "LINES", "NO_COLOR", "TERM")}
    with tempfile.TemporaryDirectory(prefix="accord-docs-") as tmp:
        tmp = os.path.realpath(tmp)
        os.symlink(ROOT / "examples", Path(tmp) / "examples")
        os.chdir(tmp)
        os.environ.update(COLUMNS=WIDTH, LINES="50", NO_COLOR="1", TERM="dumb")
        try:
            yield tmp
        finally:
            os.chdir(old)
            for k, v in saved.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v


def _run_accord(argv: list[str]) -> tuple[int, list[str]]:
    from accord.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, err.getvalue().splitlines() + out.getvalue().splitlines()


class Skip(Exception):
    """A page needs an optional package that is not installed."""


def run_page(page: Path, allow_errors: bool = False) -> list[Outcome]:
    """Run a page's blocks in order; every command and every python block that shows output gives an Outcome.

    Raises
    ------
    AssertionError
        A command or block failed (a command's exit status other than 0 when the page shows no error, or a python
        block's exception).
    Skip
        A block needs an optional package that is not installed.
    """
    page = page.resolve()
    text = page.read_text(encoding="utf-8")
    blocks = parse(text)
    outcomes: list[Outcome] = []
    namespace: dict[str, object] = {"__name__": "__docs__"}
    name = page.relative_to(ROOT).as_posix()
    with _workdir() as tmp:
        for n, block in enumerate(blocks):
            where = f"{name}:{block.start + 1}"
            if block.title and block.lang not in ("python", "console", "bash", "shell-session"):
                target = Path(tmp) / block.title
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("\n".join(block.body) + "\n", encoding="utf-8")
            elif block.lang == "python":
                out = io.StringIO()
                try:
                    with contextlib.redirect_stdout(out):
                        exec(compile("\n".join(block.body), where, "exec"), namespace)   # noqa: S102
                except ModuleNotFoundError as exc:
                    if exc.name and exc.name.split(".")[0] in OPTIONAL:
                        raise Skip(f"{where}: needs {exc.name}, not installed") from exc
                    raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
                except Exception as exc:
                    raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
                following = blocks[n + 1] if n + 1 < len(blocks) else None
                expected = None
                if following is not None and following.lang == "text" and following.title is None and \
                        all(not line.strip() for line in text.split("\n")[block.end + 1:following.start]):
                    expected = normalise(following.body)
                outcomes.append(Outcome(where, expected, normalise(out.getvalue().splitlines(), tmp), block))
            for command in block.commands:
                argv = shlex.split(command.text)
                cwhere = f"{name}:{command.line}"
                if argv[:1] == ["accord"]:
                    status, lines = _run_accord(argv[1:])
                    shows_error = any("accord: error:" in line for line in command.expected) or status == 1 and any(
                        line.startswith(("accord: check failed:", "accord: invalid:")) for line in command.expected)
                    if status != 0 and not shows_error and not allow_errors:
                        raise AssertionError(f"{cwhere}: `{command.text}` exited {status}: " + " / ".join(lines[-3:]))
                elif argv[:1] == ["cat"]:
                    lines = []
                    for arg in argv[1:]:
                        lines += (Path(tmp) / arg).read_text(encoding="utf-8").splitlines()
                else:
                    continue
                outcomes.append(Outcome(cwhere, normalise(command.expected), normalise(lines, tmp), block, command))
    return outcomes


def update_page(page: Path) -> int:
    """Write the outputs the page's commands and python blocks give back into the page; the number of changes."""
    page = page.resolve()
    outcomes = run_page(page, allow_errors=True)
    lines = page.read_text(encoding="utf-8").split("\n")
    blocks = parse("\n".join(lines))
    edits: list[tuple[int, int, list[str], str]] = []
    for o in outcomes:
        if o.expected == o.actual:
            continue
        if o.command is not None:
            start, end = o.command.output_lines
            indent = re.match(r"\s*", lines[o.block.start]).group(0)   # type: ignore[union-attr]
            edits.append((start, end, [indent + line if line else "" for line in o.actual], indent))
        elif o.expected is not None:
            n = blocks.index(next(b for b in blocks if b.start == o.block.start))
            following = blocks[n + 1]
            indent = re.match(r"\s*", lines[following.start]).group(0)   # type: ignore[union-attr]
            edits.append((following.start + 1, following.end, [indent + line if line else "" for line in o.actual],
                          indent))
    for start, end, new, _ in sorted(edits, reverse=True):
        lines[start:end] = new
    if edits:
        page.write_text("\n".join(lines), encoding="utf-8")
    return len(edits)


def _main(argv: list[str]) -> int:
    update = "--update" in argv
    chosen = [Path(a).resolve() for a in argv if a != "--update"] or pages()
    failed = 0
    for page in chosen:
        try:
            if update:
                n = update_page(page)
                print(f"{page.relative_to(ROOT)}: {n} output(s) rewritten")
            else:
                bad = [o for o in run_page(page) if o.expected is not None and o.expected != o.actual]
                failed += len(bad)
                for o in bad:
                    print(f"{o.where}: output differs")
        except Skip as exc:
            print(f"skipped: {exc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
