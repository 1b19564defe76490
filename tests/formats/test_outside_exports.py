"""Real exports of doccano and Label Studio (their own example and test files, in ../shared/corpora/outside3b):
every file reads, with the spans a count of the file itself gives, or is refused for a reason that is one."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main

OUTSIDE = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "outside3b"
FILES = sorted(str(p.relative_to(OUTSIDE)) for d in ("doccano", "labelstudio") if (OUTSIDE / d).is_dir()
               for p in (OUTSIDE / d).rglob("*") if p.is_file())

REFUSED = {
    # an import file with custom column names (column_data, column_label), which doccano's import dialog maps
    "doccano/import_sequence_labeling_columns.jsonl": r"not a document of accord's JSON lines .*'column_data'",
    # doccano's tests of malformed imports: a line without its text
    "doccano/test_intent.jsonl": r"test_intent\.jsonl:5: document '5': no 'text' string",
    "doccano/test_sequence_labeling.jsonl": r"test_sequence_labeling\.jsonl:3: document '3': no 'text' string",
    # the example's annotation quotes 'February 22' at offsets where its own text has ' supporters'
    "labelstudio/rich_text_plain/annotations/1.json": r"the text at \[343, 354\) is ' supporters', the result says "
                                                      r"'February 22'",
}
"""Files refused, with the reason (the labelling configurations are refused as such, below)."""


def _expected_spans(path: Path) -> int:
    """The text spans and relations of an export, counted from its JSON (independently of accord's readers)."""
    if path.suffix == ".jsonl":
        text = path.read_text(encoding="utf-8")
        try:
            objs = [json.loads(line) for line in text.splitlines() if line.strip()]
        except json.JSONDecodeError:   # one pretty-printed object
            objs = [json.loads(text)]
        return sum(len(o.get("label") or o.get("labels") or []) + len(o.get("entities") or []) +
                   len(o.get("relations") or []) for o in objs)
    if path.suffix == ".json":
        tasks = json.loads(path.read_text(encoding="utf-8"))
        count = 0
        for task in tasks if isinstance(tasks, list) else [tasks]:
            kept = [a for a in task.get("annotations") or [] if not a.get("was_cancelled")]
            for r in (kept[0]["result"] if kept else []):
                count += len(r["value"]["labels"]) if r.get("type") == "labels" else r.get("type") == "relation"
        return count
    if path.suffix == ".conll":   # one tag per token line: B- tags begin spans
        return sum(1 for line in path.read_text().splitlines() if line.split()[-1:] and line.split()[-1][:2] == "B-")
    raise AssertionError(path)


@pytest.mark.parametrize("name", FILES)
def test_every_export_reads_or_is_refused_for_a_reason(name, capsys, tmp_path):
    path = OUTSIDE / name
    status = main(["score", str(path), str(path), "--output", "json", "-o", str(tmp_path / "out.json")])
    err = capsys.readouterr().err
    assert status in (0, 2) and "internal error" not in err, err
    if name in REFUSED or path.suffix == ".xml":
        reason = REFUSED.get(name, "a Label Studio labelling configuration .<View>., not annotations")
        assert status == 2 and re.search(reason, err), err
        return
    assert status == 0, err
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus = accord.read(path)
    assert corpus.annotation_count() == _expected_spans(path), name
    result = json.loads((tmp_path / "out.json").read_text())
    spans = sum(1 for d in corpus.values() for a in d.annotations if a.start is not None)
    assert result["totals"]["match"] >= spans          # a file against itself: every span matched


def test_the_corpus_is_here():
    if not FILES:
        pytest.skip(f"{OUTSIDE} is not on this machine")
    assert len(FILES) >= 40
