"""A judge of generated strings (accord.pipeline._judge, ``--judge``, ``--judge-cache``): consulted only for the
pairs left undecided, its verdicts paired one-to-one optimally, cached so that a rerun needs no judge, and every way
it can go wrong named."""

from __future__ import annotations

import json
import warnings

import pytest

import accord
from accord.cli import main
from accord.errors import AccordWarning, FormatError, OptionError, PluginError
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation


def _gold() -> Corpus:
    text = "Maria Lund works for Aurora Air. Maria met Ola in Oslo."
    spans = (("PER", 0, 10), ("ORG", 21, 31), ("PER", 33, 38), ("PER", 43, 46), ("LOC", 50, 54))
    assert [text[a:b] for _, a, b in spans] == ["Maria Lund", "Aurora Air", "Maria", "Ola", "Oslo"]
    return Corpus([Document("d", tuple(make_annotation(*s) for s in spans), text)])


PRED = records_corpus([{"id": "d", "entities": [
    {"text": "Maria", "label": "PER"},          # strict match: never shown to the judge
    {"text": "M. Lund", "label": "PER"},        # left, PER: gold Maria Lund and Ola are left
    {"text": "Aurora", "label": "ORG"},         # left, ORG: gold Aurora Air
    {"text": "Oslo", "label": "ORG"},           # left, ORG; a label error on Oslo (gold LOC)
    {"text": "Bergen", "label": "MISC"},        # no gold MISC: never shown to the judge
]}])


class Recorder:
    """A judge: a word of the gold string in the predicted one (Lund in M. Lund, Aurora in Aurora)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    def __call__(self, gold: dict, pred: dict) -> bool:
        assert set(gold) == set(pred) == {"document", "text", "label"}
        assert gold["label"] == pred["label"] and gold["document"] == pred["document"] == "d"
        self.calls.append((gold["text"], pred["text"]))
        return bool(set(gold["text"].split()) & set(pred["text"].split()))


def test_the_judge_sees_only_pairs_left_of_one_document_and_label(tmp_path):
    judge = Recorder()
    cache = tmp_path / "verdicts.jsonl"
    result = accord.score(_gold(), PRED, align="none", judge=judge, judge_cache=cache)
    # left: PER gold {Maria Lund, Ola} x pred {M. Lund}; ORG gold {Aurora Air} x pred {Aurora, Oslo}: 4 pairs
    assert sorted(judge.calls) == [("Aurora Air", "Aurora"), ("Aurora Air", "Oslo"), ("Maria Lund", "M. Lund"),
                                   ("Ola", "M. Lund")]
    found = result.options["alignment"]["judge"]
    assert (found["pairs"], found["calls"], found["cached"], found["matched"]) == (4, 4, 0, 2)
    assert sorted((d["gold"], d["pred"], d["score"]) for d in found["decided"]) == [
        ("Aurora Air", "Aurora", 1.0), ("Maria Lund", "M. Lund", 1.0)]
    measures = result.to_dict()["measures"]
    assert measures["pairs"]["totals"]["match"] == 1 and measures["judge"]["totals"]["match"] == 3
    assert [json.loads(line)["score"] for line in cache.read_text().splitlines()].count(1.0) == 2
    # a rerun with the cache alone: the same verdicts, no judge called
    again = accord.score(_gold(), PRED, align="none", judge_cache=cache)
    assert again.options["alignment"]["judge"]["cached"] == 4 and again.options["alignment"]["judge"]["calls"] == 0
    assert again.to_dict()["measures"]["judge"]["totals"] == measures["judge"]["totals"]
    # with the cache and a judge: the judge is not asked again
    judge2 = Recorder()
    accord.score(_gold(), PRED, align="none", judge=judge2, judge_cache=cache)
    assert judge2.calls == []


def test_after_relaxed_matching_the_judge_sees_what_is_still_left():
    judge = Recorder()
    result = accord.score(_gold(), PRED, align="none", relaxed="token-f1", judge=judge)
    # token F1: Aurora/Aurora Air 2/3 and M. Lund/Maria Lund 1/2 (Lund of 2 and 2 tokens) match relaxed; left are
    # PER gold Ola (no PER prediction left) and ORG pred Oslo (no ORG gold left): nothing to ask the judge
    assert judge.calls == []
    assert [result.measures[m].totals()["match"] for m in ("pairs", "relaxed", "judge")] == [1, 3, 3]


def test_optimal_pairing_on_the_verdicts():
    gold = Corpus([Document("d", (make_annotation("X", 0, 1), make_annotation("X", 2, 3)), "A B")])
    pred = records_corpus([{"id": "d", "entities": [{"text": "x", "label": "X"}, {"text": "y", "label": "X"}]}])
    scores = {("A", "x"): 0.9, ("A", "y"): 0.8, ("B", "x"): 0.7, ("B", "y"): 0.1}
    # greedy: A-x (0.9), then B-y (0.1, below 0.5): 1 match; optimal: A-y + B-x = 1.5, both >= 0.5: 2 matches
    result = accord.score(gold, pred, align="none", judge=lambda g, p: scores[g["text"], p["text"]])
    assert result.measures["judge"].totals()["match"] == 2
    decided = result.options["alignment"]["judge"]["decided"]
    assert sorted((d["gold"], d["pred"]) for d in decided) == [("A", "y"), ("B", "x")]


def test_a_judge_named_module_function(tmp_path, monkeypatch):
    (tmp_path / "my_judge_38.py").write_text("def first_word(gold, pred):\n"
                                             "    return gold['text'].split()[0] == pred['text'].split()[0]\n")
    monkeypatch.chdir(tmp_path)
    result = accord.score(_gold(), PRED, align="none", judge="my_judge_38:first_word")
    assert result.options["judge"]["judge"] == "my_judge_38:first_word"
    assert result.options["alignment"]["judge"]["matched"] == 1     # Aurora Air / Aurora; not Maria Lund / M. Lund
    with pytest.raises(PluginError, match="module 'no_such_judge_38' cannot be imported"):
        accord.score(_gold(), PRED, align="none", judge="no_such_judge_38:f")
    with pytest.raises(PluginError, match="has no 'missing'"):
        accord.score(_gold(), PRED, align="none", judge="my_judge_38:missing")
    with pytest.raises(PluginError, match="module:function"):
        accord.score(_gold(), PRED, align="none", judge="my_judge_38")


@pytest.mark.parametrize("verdict", ["yes", 1.5, -0.1, float("nan"), None, [1]])
def test_a_verdict_that_is_not_one_is_named(verdict):
    with pytest.raises(PluginError, match=r"returned .* for document 'd', label '(PER|ORG)': gold '.*', predicted "):
        accord.score(_gold(), PRED, align="none", judge=lambda g, p: verdict)


def test_a_judge_that_fails_is_named():
    def broken(gold, pred):
        raise RuntimeError("the model is down")

    with pytest.raises(PluginError, match="failed on document 'd'.*RuntimeError: the model is down"):
        accord.score(_gold(), PRED, align="none", judge=broken)


def test_the_limit_is_checked_before_the_first_call():
    judge = Recorder()
    with pytest.raises(OptionError, match="more than 3 pairs"):
        accord.score(_gold(), PRED, align="none", judge=judge, judge_limit=3)
    assert judge.calls == []
    result = accord.score(_gold(), PRED, align="none", judge=judge, judge_limit=4)
    assert result.options["alignment"]["judge"]["calls"] == 4
    with pytest.raises(OptionError, match="whole number"):
        accord.score(_gold(), PRED, align="none", judge=judge, judge_limit=-1)
    with pytest.raises(OptionError, match="applies with judge"):
        accord.score(_gold(), PRED, align="none", judge_limit=5)


def test_a_cache_without_a_judge_leaves_the_rest_undecided(tmp_path):
    cache = tmp_path / "c.jsonl"
    line = {"gold": {"document": "d", "text": "Aurora Air", "label": "ORG"},
            "pred": {"document": "d", "text": "Aurora", "label": "ORG"}, "score": True}
    cache.write_text(json.dumps(line))     # no final new line: the next verdict goes on a line of its own
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = accord.score(_gold(), PRED, align="none", judge_cache=cache)
    assert any(issubclass(w.category, AccordWarning) and "3 pair(s)" in str(w.message) for w in caught)
    assert (result.options["alignment"]["judge"]["cached"], result.options["alignment"]["judge"]["undecided"]) == (1, 3)
    assert result.measures["judge"].totals()["match"] == 2
    accord.score(_gold(), PRED, align="none", judge=Recorder(), judge_cache=cache)
    assert len([json.loads(x) for x in cache.read_text().splitlines()]) == 4


@pytest.mark.parametrize(("line", "message"), [
    ("not json", "not a JSON object"),
    ("[1, 2]", "a cached verdict is an object with gold, pred and score"),
    ('{"gold": {"document": "d", "text": "A"}, "pred": {"document": "d", "text": "B", "label": "X"}, "score": 1}',
     "gold.label must be a string"),
    ('{"gold": {"document": "d", "text": "A", "label": "X"}, "pred": {"document": "d", "text": "B", "label": "X"}, '
     '"score": 2}', "score must be true, false or a number from 0 to 1"),
])
def test_a_malformed_cache_line_is_named(tmp_path, line, message):
    cache = tmp_path / "c.jsonl"
    good = ('{"gold": {"document": "d", "text": "A", "label": "X"}, "pred": {"document": "d", "text": "B", '
            '"label": "X"}, "score": 0}')
    cache.write_text(good + "\n" + line + "\n")
    with pytest.raises(FormatError, match=rf"c\.jsonl:2: {message}"):
        accord.score(_gold(), PRED, align="none", judge_cache=cache)


def test_two_different_verdicts_for_one_pair_are_refused(tmp_path):
    cache = tmp_path / "c.jsonl"
    pair = {"gold": {"document": "d", "text": "A", "label": "X"}, "pred": {"document": "d", "text": "B", "label": "X"}}
    cache.write_text(json.dumps({**pair, "score": 1}) + "\n" + json.dumps({**pair, "score": 0}) + "\n")
    with pytest.raises(FormatError, match=r"c\.jsonl:2: a second, different verdict"):
        accord.score(_gold(), PRED, align="none", judge_cache=cache)


def test_a_cache_that_is_not_there_without_a_judge_is_refused(tmp_path):
    with pytest.raises(OptionError, match="no such file, and no judge"):
        accord.score(_gold(), PRED, align="none", judge_cache=tmp_path / "typo.jsonl")


def test_a_cache_that_cannot_be_written_is_named_before_the_judge_is_asked(tmp_path):
    judge = Recorder()
    with pytest.raises(OptionError, match="cannot be written"):
        accord.score(_gold(), PRED, align="none", judge=judge, judge_cache=tmp_path / "no" / "such" / "v.jsonl")
    assert judge.calls == []


def test_the_judge_needs_align_none():
    with pytest.raises(OptionError, match="apply with align='none'"):
        accord.score(_gold(), PRED, judge=Recorder())


def test_command_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "judge_cli_38.py").write_text("def j(gold, pred):\n    return 0.75 if gold['label'] == 'ORG' else 0\n"
                                              "def bad(gold, pred):\n    return 'maybe'\n")
    (tmp_path / "gold.jsonl").write_text(json.dumps({
        "id": "d", "text": "Aurora Air flies.", "annotations": [{"label": "ORG", "start": 0, "end": 10}]}) + "\n")
    (tmp_path / "pred.jsonl").write_text(json.dumps({"id": "d", "entities": [{"text": "Aurora", "label": "ORG"}]})
                                         + "\n")
    argv = ["score", "gold.jsonl", "pred.jsonl", "--align", "none", "--judge", "judge_cli_38:j",
            "--judge-cache", "v.jsonl", "--output", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["measures"]["judge"]["totals"]["match"] == 1
    assert out["options"]["alignment"]["judge"]["decided"][0]["score"] == 0.75
    assert main(["score", "gold.jsonl", "pred.jsonl", "--align", "none", "--judge", "judge_cli_38:bad"]) == 2
    err = capsys.readouterr().err
    assert "judge 'judge_cli_38:bad' returned 'maybe'" in err and len(err.strip().splitlines()) == 1
