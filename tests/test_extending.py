"""The README's "Extending accord", followed step by step: a format added by one registration is read, sniffed by
its extension and scored; a metric added as a measure kind over the pairs mode's counts reports by label and by
document. Every number is a hand count written here. (A mode: tests/test_modes.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.errors import FormatError
from accord.formats import Format, register
from accord.model import Corpus, Document, make_annotation
from accord.result import Measure, Result
from accord.result._kinds import Kind, ratio

# --- a format: "span lines", one document a block: "# id<TAB>text", then "start<TAB>end<TAB>label" lines --------


def read_span_lines(path: str | Path, **options: object) -> Corpus:
    docs: list[Document] = []
    current: tuple[str, str] | None = None
    spans: list = []
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate([*lines, ""], start=1):
        if line.startswith("# "):
            if current is not None:
                docs.append(Document(current[0], tuple(spans), text=current[1]))
            doc_id, _, text = line[2:].partition("\t")
            current, spans = (doc_id, text), []
        elif line.strip() == "":
            if current is not None:
                docs.append(Document(current[0], tuple(spans), text=current[1]))
                current = None
        else:
            fields = line.split("\t")
            if current is None or len(fields) != 3 or not (fields[0].isdigit() and fields[1].isdigit()):
                raise FormatError(f"line {number}: expected 'start<TAB>end<TAB>label' inside a document",
                                  path=Path(path))
            spans.append(make_annotation(fields[2], int(fields[0]), int(fields[1])))
    return Corpus(docs, name=str(path))


def write_span_lines(corpus: Corpus, path: str | Path, **options: object) -> None:
    out = []
    for doc in corpus.values():
        out.append(f"# {doc.id}\t{doc.text}")
        out += [f"{a.start}\t{a.end}\t{a.label}" for a in doc.annotations]
        out.append("")
    Path(path).write_text("\n".join(out), encoding="utf-8")


@pytest.fixture()
def span_lines():
    from accord.formats import _registry

    register(Format("span-lines", read_span_lines, write_span_lines, (".spans",),
                    description="a test's format: documents of start/end/label lines"))
    try:
        yield
    finally:
        del _registry._FORMATS["span-lines"]


TEXT = "Ada Lovelace met Charles Babbage in London."
GOLD = f"# d1\t{TEXT}\n0\t12\tPER\n17\t32\tPER\n36\t42\tLOC\n"
PRED = f"# d1\t{TEXT}\n0\t12\tPER\n25\t32\tPER\n36\t42\tORG\n"
# by hand: PER 0-12 matches; PER 25-32 is not 17-32 (strict): one missing, one spurious; LOC/ORG at 36-42: missing
# LOC and spurious ORG. Matches 1, gold 3, predicted 3: P = R = F = 1/3.


def test_a_registered_format_is_read_sniffed_and_scored(span_lines, tmp_path):
    (tmp_path / "g.spans").write_text(GOLD, encoding="utf-8")
    (tmp_path / "p.spans").write_text(PRED, encoding="utf-8")
    report = accord.score(tmp_path / "g.spans", tmp_path / "p.spans")     # sniffed by its extension
    assert (report.totals.gold, report.totals.pred, report.totals.match) == (3, 3, 1)
    assert report.f1 == pytest.approx(1 / 3)
    accord.write(accord.read(tmp_path / "g.spans"), tmp_path / "again.spans", format="span-lines")
    spans = [[(a.start, a.end, a.label) for a in accord.read(tmp_path / name)["d1"].annotations]
             for name in ("g.spans", "again.spans")]
    assert spans[0] == spans[1] == [(0, 12, "PER"), (17, 32, "PER"), (36, 42, "LOC")]
    (tmp_path / "bad.spans").write_text("# d1\tx\n0\tone\tPER\n", encoding="utf-8")
    with pytest.raises(FormatError, match="line 2: expected"):
        accord.read(tmp_path / "bad.spans")


# --- a metric: the Jaccard index of the matched items, match / (gold + pred - match), over the pairs counts --------


class JaccardKind(Kind):
    """The share of the items of either side that are matched.

    .. math:: J = match / (gold + pred - match)
    """

    name = "jaccard"
    fields = ("match", "gold_clash", "pred_clash", "missing", "spurious")
    integer = frozenset(fields)
    rate_names = ("jaccard",)

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        match = v[..., 0]
        gold = v[..., 0] + v[..., 1] + v[..., 3]
        pred = v[..., 0] + v[..., 2] + v[..., 4]
        return {"jaccard": ratio(match, gold + pred - match, 0.0)}


def test_a_metric_over_the_pairs_counts_reports_by_label_and_document(span_lines, tmp_path):
    (tmp_path / "g.spans").write_text(GOLD + f"# d2\t{TEXT}\n36\t42\tLOC\n", encoding="utf-8")
    (tmp_path / "p.spans").write_text(PRED + f"# d2\t{TEXT}\n36\t42\tLOC\n", encoding="utf-8")
    report = accord.score(tmp_path / "g.spans", tmp_path / "p.spans")
    table = report.measures["pairs"].table
    jaccard = Result("score", "jaccard", {"jaccard": Measure(JaccardKind(), table)}, nested=False)
    # by hand: matches 2 (PER 0-12, d2's LOC), gold 4, predicted 4: J = 2 / (4 + 4 - 2) = 1/3
    assert jaccard.measures["jaccard"].totals()["jaccard"] == pytest.approx(2 / 6)
    # PER: match 1, gold 2, pred 2 -> 1/3; LOC: match 1, gold 2, pred 1 -> 1/2; ORG: 0 / 1
    by_label = {k: b["jaccard"] for k, b in jaccard.measures["jaccard"].by_label().items()}
    assert by_label == pytest.approx({"PER": 1 / 3, "LOC": 1 / 2, "ORG": 0.0})
    contract = json.loads(jaccard.to_json())
    assert contract["mode"] == "jaccard" and contract["totals"]["jaccard"] == pytest.approx(1 / 3)
