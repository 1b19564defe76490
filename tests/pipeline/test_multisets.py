"""The layers of generated strings scored without alignment (accord.pipeline._multisets): the strict measure is the
same with or without further layers, a label error stays a label error in each layer, and the layers are measures
like any other (JSON contract, CSV, bootstrap intervals, every span mode)."""

from __future__ import annotations

from collections import Counter

import pytest

import accord
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._multisets import multiset_layers, multisets

from ..result.contract import checked

TEXTS = ["Ada Lovelace met Charles Babbage in London.", "Babbage built the Difference Engine in London."]
GOLD_SPANS = [[("PER", 0, 12), ("PER", 17, 32), ("LOC", 36, 42)], [("PER", 0, 7), ("MISC", 14, 35), ("LOC", 39, 45)]]
PRED = [
    [("Ada", "PER"), ("Charles Babbage", "PER"), ("London", "ORG")],     # relaxed Ada; strict Babbage; label error
    [("Babbage", "PER"), ("Difference Engine", "MISC"), ("London", "LOC"), ("Engine", "LOC")],
]


def _inputs() -> tuple[Corpus, Corpus]:
    docs = []
    for k, (text, spans) in enumerate(zip(TEXTS, GOLD_SPANS)):
        docs.append(Document(f"d{k}", tuple(make_annotation(*s) for s in spans), text))
    assert [[t[a:b] for _, a, b in s] for t, s in zip(TEXTS, GOLD_SPANS)] == [
        ["Ada Lovelace", "Charles Babbage", "London"], ["Babbage", "the Difference Engine", "London"]]
    pred = records_corpus([{"id": f"d{k}", "entities": [{"text": s, "label": lab} for s, lab in ents]}
                           for k, ents in enumerate(PRED)])
    return Corpus(docs), pred


def test_strict_layer_is_the_multiset_count_with_or_without_layers():
    gold, pred = _inputs()
    # strict by hand: d0 Charles Babbage/PER; d1 Babbage/PER, London/LOC: 3
    expected = 0
    for text, spans, ents in zip(TEXTS, GOLD_SPANS, PRED):
        expected += sum((Counter((text[a:b], lab) for lab, a, b in spans) & Counter(ents)).values())
    assert expected == 3
    plain = accord.score(gold, pred, align="none")
    layered = accord.score(gold, pred, align="none", relaxed="token-f1")
    assert plain.totals["match"] == layered.measures["pairs"].totals()["match"] == 3
    assert plain.to_dict()["by_document"] == layered.to_dict()["measures"]["pairs"]["by_document"]
    # relaxed: d0 Ada/Ada Lovelace (token F1 2/3); d1 Difference Engine/the Difference Engine (4/5): 5
    assert layered.measures["relaxed"].totals()["match"] == 5
    g, p, summary = multisets(gold, pred)
    assert summary["gold_strings"] == 6 and summary["strings"] == 7 and len(g) == len(p) == 2


def test_a_label_error_stays_one_in_each_layer():
    gold, pred = _inputs()
    result = accord.score(gold, pred, align="none", relaxed="token-f1", match="semeval")
    # London/ORG against London/LOC shares its span: SemEval's exact schema counts it, strict counts it incorrect;
    # the relaxed layer does not pair different labels, so the same holds there
    assert result.measures["strict"].totals()["incorrect"] == 1
    assert result.measures["relaxed"].totals()["incorrect"] == 1
    assert result.measures["relaxed"].totals()["correct"] == 5


def test_layers_by_document():
    gold, pred = _inputs()
    layers = multiset_layers(gold, pred, relaxed="containment")
    relaxed_gold, relaxed_pred = layers.layers["relaxed"]
    assert [len(d.annotations) for d in relaxed_gold.values()] == [3, 3]
    assert [len(d.annotations) for d in relaxed_pred.values()] == [3, 4]
    # containment: Ada in Ada Lovelace; Difference Engine in the Difference Engine; Engine/LOC has no LOC left
    assert layers.summary["relaxed"]["matched"] == 2


@pytest.mark.filterwarnings("ignore::accord.errors.StatisticsWarning")     # two documents
def test_outputs_contract_csv_and_intervals():
    gold, pred = _inputs()
    result = accord.score(gold, pred, align="none", relaxed="token-f1", judge=lambda g, p: False)
    out = checked(result.to_json())
    assert list(out["measures"]) == ["pairs", "relaxed", "judge"]
    assert out["options"]["relaxed"] == {"similarity": "token-f1", "threshold": 0.5}
    assert out["options"]["alignment"]["judge"]["matched"] == 0 and out["options"]["judge"]["limit"] == 1000
    assert {line.split(",")[0] for line in result.to_csv().splitlines()[1:]} == {"pairs", "relaxed", "judge"}
    result.bootstrap(200, seed=3, resample="documents")
    checked(result.to_json())
    assert set(result.ci) >= {"pairs", "relaxed", "judge"}


def test_clueval_gets_its_main_measure_again():
    gold, pred = _inputs()
    result = accord.score(gold, pred, align="none", relaxed="token-f1", match="clueval")
    main = next(iter(result.measures))
    assert list(result.measures)[-1] == "relaxed"
    assert type(result.measures["relaxed"].kind) is type(result.measures[main].kind)


def test_two_systems_scored_with_relaxed_rows_compare(tmp_path, monkeypatch, capsys):
    # what a layer found (its matches) differs between systems and is the outcome, not a setting: accord compare
    # takes two systems scored alike (it refused them when the matches were among the settings)
    import json

    from accord.cli import main

    monkeypatch.chdir(tmp_path)
    gold, _ = _inputs()
    with open("gold.jsonl", "w", encoding="utf-8") as f:
        for doc in gold.values():
            f.write(json.dumps({"id": doc.id, "text": doc.text, "annotations": [
                {"label": a.label, "start": a.start, "end": a.end} for a in doc.annotations]}) + "\n")
    for name, ents in (("a", PRED), ("b", [PRED[0][:1], PRED[1][:2]])):
        with open(f"{name}.jsonl", "w", encoding="utf-8") as f:
            for k, doc in enumerate(ents):
                f.write(json.dumps({"id": f"d{k}", "entities": [{"text": s, "label": lab} for s, lab in doc]}) + "\n")
    status = main(["compare", "gold.jsonl", "a.jsonl", "b.jsonl", "--align", "none", "--relaxed", "token-f1",
                   "--output", "json"])
    captured = capsys.readouterr()
    assert status == 0, captured.err
    assert {row["measure"] for row in json.loads(captured.out)["comparisons"]} == {"pairs", "relaxed"}


def test_a_mode_reading_its_own_inputs_refuses_the_layers():
    from accord.errors import OptionError

    gold, pred = _inputs()
    with pytest.raises(OptionError, match="relaxed matching and a judge score generated strings as spans"):
        accord.score(gold, pred, match="coref", relaxed="token-f1")


@pytest.mark.filterwarnings("ignore::accord.errors.StatisticsWarning")     # two documents
def test_the_relaxed_table_shows_its_intervals(tmp_path, monkeypatch, capsys):
    import json

    from accord.cli import main

    monkeypatch.chdir(tmp_path)
    gold, _ = _inputs()
    with open("gold.jsonl", "w", encoding="utf-8") as f:
        for doc in gold.values():
            f.write(json.dumps({"id": doc.id, "text": doc.text, "annotations": [
                {"label": a.label, "start": a.start, "end": a.end} for a in doc.annotations]}) + "\n")
    with open("pred.jsonl", "w", encoding="utf-8") as f:
        for k, doc in enumerate(PRED):
            f.write(json.dumps({"id": f"d{k}", "entities": [{"text": s, "label": lab} for s, lab in doc]}) + "\n")
    assert main(["score", "gold.jsonl", "pred.jsonl", "--align", "none", "--relaxed", "token-f1",
                 "--bootstrap", "100", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    relaxed = out[out.index("relaxed: strict"):]
    # relaxed: 5 matches of 6 gold and 7 predicted strings; its ALL row carries its interval, as the strict one's
    assert any(line.split()[:1] == ["ALL"] and "[" in line for line in relaxed.splitlines())
