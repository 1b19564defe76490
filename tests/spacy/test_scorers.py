"""accord.spacy: the registered scorer, named in a pipeline's config, makes nlp.evaluate and `spacy evaluate` report
accord's numbers; spaCy's own scorer (exact spans) gives the same on the same pipeline."""

import json
import random
import subprocess
import sys

import pytest

spacy = pytest.importorskip("spacy")

from spacy.training import Example  # noqa: E402

import accord  # noqa: E402
import accord.spacy  # noqa: E402,F401  (registers the scorers)

TRAIN = [
    ("Alice Smith lives in Paris.", [(0, 11, "PER"), (21, 26, "LOC")]),
    ("Bob works for Acme Corp in Berlin.", [(0, 3, "PER"), (14, 23, "ORG"), (27, 33, "LOC")]),
    ("Carol visited London with Dave.", [(0, 5, "PER"), (14, 20, "LOC"), (26, 30, "PER")]),
    ("Acme Corp hired Erin in Madrid.", [(0, 9, "ORG"), (16, 20, "PER"), (24, 30, "LOC")]),
    ("Frank moved from Rome to Oslo.", [(0, 5, "PER"), (17, 21, "LOC"), (25, 29, "LOC")]),
    ("Globex and Acme Corp met in Paris.", [(0, 6, "ORG"), (11, 20, "ORG"), (28, 33, "LOC")]),
]
DEV = [
    ("Alice works for Globex in Rome.", [(0, 5, "PER"), (16, 22, "ORG"), (26, 30, "LOC")]),
    ("Dave lives in Berlin.", [(0, 4, "PER"), (14, 20, "LOC")]),
    ("Erin and Bob visited Oslo and Paris.", [(0, 4, "PER"), (9, 12, "PER"), (21, 25, "LOC"), (30, 35, "LOC")]),
    ("Initech bought Acme Corp today.", [(0, 7, "ORG"), (15, 24, "ORG")]),
]


def examples(nlp, data):
    return [Example.from_dict(nlp.make_doc(text), {"entities": ents}) for text, ents in data]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """A blank English pipeline with an ner scored by accord, trained a few iterations on six sentences."""
    spacy.util.fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe("ner", config={"scorer": {"@scorers": "accord.ner_scorer.v1"}})
    train = examples(nlp, TRAIN)
    optimizer = nlp.initialize(lambda: train)
    rng = random.Random(0)
    for _ in range(30):
        rng.shuffle(train)
        nlp.update(train, sgd=optimizer, drop=0.1)
    folder = tmp_path_factory.mktemp("spacy")
    nlp.to_disk(folder / "model")
    return nlp, folder


def test_nlp_evaluate_reports_accords_numbers(trained):
    nlp, _ = trained
    dev = examples(nlp, DEV)
    assert nlp.get_pipe("ner").scorer.__module__ == "accord.spacy._scorers"
    scores = nlp.evaluate(dev)
    predicted = [Example(nlp(eg.reference.text), eg.reference) for eg in dev]
    result = accord.score(predicted)
    assert result.totals.gold == 11 and result.totals.pred > 0    # the pipeline found something
    assert scores["ents_p"] == result.totals.precision
    assert scores["ents_r"] == result.totals.recall
    assert scores["ents_f"] == result.totals.f1
    assert scores["ents_per_type"] == {k: {"p": b.precision, "r": b.recall, "f": b.f1}
                                       for k, b in result.by_label.items()}
    # an independent count: spaCy's own scorer on the same predictions (exact span and label, as accord's strict)
    theirs = spacy.scorer.get_ner_prf(predicted)
    assert theirs["ents_f"] == pytest.approx(scores["ents_f"], abs=1e-12)
    assert theirs["ents_p"] == pytest.approx(scores["ents_p"], abs=1e-12)


def test_spacy_evaluate_command_line(trained, tmp_path):
    """`spacy evaluate` on the saved pipeline (its config names accord's scorer) prints accord's numbers."""
    nlp, folder = trained
    dev = examples(nlp, DEV)
    spacy.tokens.DocBin(docs=[eg.reference for eg in dev]).to_disk(tmp_path / "dev.spacy")
    code = tmp_path / "register.py"
    code.write_text("import accord.spacy\n")
    out = tmp_path / "metrics.json"
    run = subprocess.run([sys.executable, "-m", "spacy", "evaluate", str(folder / "model"), str(tmp_path / "dev.spacy"),
                          "--output", str(out), "--code", str(code)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    metrics = json.loads(out.read_text())
    predicted = [Example(nlp(eg.reference.text), eg.reference) for eg in dev]
    result = accord.score(predicted)
    assert '[components.ner.scorer]\n@scorers = "accord.ner_scorer.v1"' in (folder / "model" / "config.cfg").read_text()
    assert metrics["ents_f"] == pytest.approx(result.totals.f1, abs=1e-9)     # the file keeps 10 decimals
    assert metrics["ents_p"] == pytest.approx(result.totals.precision, abs=1e-9)
    assert metrics["ents_per_type"]["PER"]["f"] == pytest.approx(result.by_label["PER"].f1, abs=1e-9)


def test_no_entity_gives_none_as_spacy_does():
    nlp = spacy.blank("en")
    eg = Example.from_dict(nlp.make_doc("Nothing here."), {"entities": []})
    scorer = spacy.registry.scorers.get("accord.ner_scorer.v1")()
    assert scorer([eg]) == spacy.scorer.get_ner_prf([eg]) == {"ents_p": None, "ents_r": None, "ents_f": None,
                                                               "ents_per_type": None}


def test_spans_scorer():
    nlp = spacy.blank("en")
    gold = nlp.make_doc("Acme Corp in Paris")
    gold.spans["sc"] = [gold.char_span(0, 9, "ORG"), gold.char_span(0, 4, "ORG"), gold.char_span(13, 18, "LOC")]
    pred = nlp.make_doc("Acme Corp in Paris")
    pred.spans["sc"] = [pred.char_span(0, 9, "ORG"), pred.char_span(13, 18, "ORG")]
    scorer = spacy.registry.scorers.get("accord.spans_scorer.v1")()
    got = scorer([Example(pred, gold)], spans_key="sc")
    # by hand: ORG (0, 9) matched; gold ORG (0, 4) and LOC missed; predicted ORG (13, 18) spurious: P 1/2, R 1/3
    assert got["spans_sc_p"] == 0.5 and got["spans_sc_r"] == pytest.approx(1 / 3)
    theirs = spacy.scorer.Scorer.score_spans([Example(pred, gold)], "spans", getter=lambda d, a: d.spans["sc"])
    assert got["spans_sc_f"] == pytest.approx(theirs["spans_f"], abs=1e-12)
