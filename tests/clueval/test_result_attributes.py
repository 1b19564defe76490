"""CLUEval's spans "may be annotated with one or more attributes (e.g. information category and risk level)": with
--attributes each attribute of the same spans is scored in the same run, as if it were their label (hand counts)."""

from __future__ import annotations

import pytest

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from tests.result.contract import checked

TOKENS = tuple("abcdefgh")


def corpora() -> tuple[Corpus, Corpus]:
    # three spans on both sides, at the same places (a merged layer: label and risk level)
    # label: PER=PER, LOC vs ORG, ORG=ORG -> 2 of 3 exact; risk: high vs low, low=low, (none) vs high -> 1 of 3
    gold = Document("d", (A("PER", 0, 2, {"risk": "high"}), A("LOC", 4, 5, {"risk": "low"}), A("ORG", 6, 8)),
                    tokens=TOKENS)
    pred = Document("d", (A("PER", 0, 2, {"risk": "low"}), A("ORG", 4, 5, {"risk": "low"}),
                          A("ORG", 6, 8, {"risk": "high"})), tokens=TOKENS)
    return Corpus([gold]), Corpus([pred])


def test_each_attribute_scored_on_the_same_spans():
    g, p = corpora()
    r = accord.score(g, p, match="clueval", attributes=["risk"])
    out = r.to_dict()["measures"]
    assert out["exact"]["totals"]["gold_hits"] == 2                       # the label, as without --attributes
    risk = out["risk:exact"]
    assert (risk["totals"]["gold_hits"], risk["totals"]["pred_hits"]) == (1, 1)
    assert risk["totals"]["recall"] == pytest.approx(1 / 3)
    # by value: gold high 1 (missed), low 1 (hit), (none) 1 (missed)
    assert {k: v["gold_hits"] for k, v in risk["by_label"].items()} == {"high": 0, "low": 1, "(none)": 0}
    assert "risk:exact-unlabelled" not in out                              # the label's, unlabelled
    assert r.options["attributes"] == ["risk"]


def test_an_attribute_no_span_has_is_an_error():
    g, p = corpora()
    with pytest.raises(OptionError, match="attribute 'rsik'"):
        accord.score(g, p, match="clueval", attributes=["rsik"])
    with pytest.raises(OptionError, match="do not apply"):
        accord.score(g, p, match="semeval", attributes=["risk"])


def test_command_line(tmp_path, capsys):
    g, p = corpora()
    accord.write(g, tmp_path / "g.jsonl", format="jsonl")
    accord.write(p, tmp_path / "p.jsonl", format="jsonl")
    args = ["score", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"), "--match", "clueval", "-q"]
    assert main([*args, "--attributes", "risk", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert out["measures"]["risk:exact"]["totals"]["f1"] == pytest.approx(1 / 3)
    assert main([*args, "--attributes", "risk"]) == 0
    assert "risk:exact" in capsys.readouterr().out
    assert main(["score", *args[1:], "--match", "semeval", "--attributes", "risk"]) == 2


def test_errors_of_an_attribute(tmp_path, capsys):
    g, p = corpora()
    accord.write(g, tmp_path / "g.jsonl", format="jsonl")
    accord.write(p, tmp_path / "p.jsonl", format="jsonl")
    args = ["errors", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"), "-q"]
    assert main(args) == 0
    label_rows = capsys.readouterr().out.strip().splitlines()[1:]
    assert len(label_rows) == 2          # LOC missed, ORG spurious at 4-5
    assert main([*args, "--attribute", "risk"]) == 0
    risk_rows = capsys.readouterr().out.strip().splitlines()[1:]
    assert len(risk_rows) == 4           # high and (none) missed; low and high spurious
    assert any("(none)" in row for row in risk_rows)
    assert main([*args, "--attribute", "rsik"]) == 2
