"""accord.Accumulator for every other mode: the pairs mode's lenient and MAT profiles, SemEval and CLUEval (blocks
scored with accord.score, count tables added), coreference (per-document results added) and agreement (the ratings
kept): random batches over two simulated workers equal accord.score / coref / agree on the whole, checked against
nervaluate, the reference coreference scorer's expected values and statsmodels / krippendorff run here."""

import csv
import json
import pickle
import random
import warnings

import numpy as np
import pytest

import accord
from accord.accumulate import _accumulator
from accord.accumulate._batched import RATINGS_SOURCE, AgreementAccumulator, CorefAccumulator
from accord.accumulate._general import SpanAccumulator
from accord.errors import FormatError, LabelCaseWarning, MergeError, OptionError, RepairWarning, SchemeError

from ..conftest import DATA
from .test_accumulator import _batches, _json, _same_sentences

MODES = [
    ({"profile": "lenient"}, {"profile": "lenient"}),
    ({"profile": "mat"}, {"profile": "mat"}),
    ({"match": "semeval"}, {"match": "semeval"}),
    ({"match": "clueval"}, {"match": "clueval"}),
    ({"match": "clueval", "leniency": 3, "labelled": False}, {"match": "clueval", "leniency": 3, "labelled": False}),
    ({"profile": "lenient", "labels": ["LOC", "PER"]}, {"profile": "lenient", "ignore": ["MISC", "ORG"]}),
    ({"match": "pairs", "equivalence_classes": {"NAME": ["PER", "ORG"]}},
     {"equivalence_classes": {"NAME": ["PER", "ORG"]}}),
]


def _workers(options, gold, pred, seed, interleave=False):
    """Two workers fed random batch sizes, their states pickled (as all_gather_object sends them) and merged."""
    workers = [accord.Accumulator(**options), accord.Accumulator(**options)]
    batches = _batches(len(gold), seed)
    for k, (a, b) in enumerate(batches):
        w = workers[k % 2] if interleave else workers[0 if k < len(batches) // 2 else 1]
        w.update(gold[a:b], pred[a:b])
    gathered = [pickle.loads(pickle.dumps(w)) for w in workers]
    return gathered[0].merge(gathered[1])


@pytest.mark.parametrize(("options", "score_options"), MODES, ids=[json.dumps(m[0]) for m in MODES])
@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_span_modes_two_workers_equal_score_on_the_whole(conll03, options, score_options):
    """CoNLL-2003's system: the merged accumulator's JSON is accord.score's, sentence counts included."""
    gold, pred = conll03
    acc = _workers(options, gold, pred, seed=5)
    assert isinstance(acc, SpanAccumulator)
    result, whole = acc.compute(), accord.score(gold, pred, **score_options)
    assert type(result) is type(whole)
    assert _json(result) == _json(whole)
    for name, m in whole.measures.items():
        x, y = m.table.sentences, result.measures[name].table.sentences
        for field in ("sizes", "unit", "row", "field", "value"):
            assert np.array_equal(getattr(x, field), getattr(y, field)), (name, field)
    if hasattr(whole, "classes"):
        for side, t in whole.classes.items():
            assert np.array_equal(t.values, result.classes[side].values) and t.rows == result.classes[side].rows


@pytest.fixture(scope="module")
def conll03():
    from ..conftest import read_conll_sentences

    gold_path, pred_path = DATA / "conll03" / "gold.conll", DATA / "conll03" / "xlm_flert.conll"
    if not gold_path.exists() or not pred_path.exists():
        pytest.skip("../shared/data/conll03 is absent")
    return read_conll_sentences(gold_path), read_conll_sentences(pred_path)


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_semeval_accumulated_equals_nervaluate(conll03):
    """An independent source: nervaluate (run here) on the same tag lists, its strict, exact and partial schemas."""
    from nervaluate import Evaluator

    gold, pred = conll03
    result = _workers({"match": "semeval"}, gold, pred, seed=9, interleave=True).compute()
    theirs = Evaluator(gold, pred, tags=["LOC", "MISC", "ORG", "PER"], loader="list").evaluate()["overall"]
    for schema in ("strict", "exact", "partial"):
        ours, n = result.measures[schema].totals(), theirs[schema]
        assert (ours["correct"], ours["incorrect"], ours["partial"], ours["missed"], ours["spurious"]) == (
            n.correct, n.incorrect, n.partial, n.missed, n.spurious), schema


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_lenient_bootstrap_resamples_the_same_sentences(conll03):
    gold, pred = conll03
    result = _workers({"profile": "lenient"}, gold, pred, seed=2).compute()
    whole = accord.score(gold, pred, profile="lenient")
    _same_sentences(result, whole)
    a = result.bootstrap(30, seed=4, resample="sentences").to_dict()["totals"]["ci"]
    b = whole.bootstrap(30, seed=4, resample="sentences").to_dict()["totals"]["ci"]
    assert a == b


def _random_tags(rng, n, labels=("PER", "LOC", "ORG")):
    """Sentences with empty ones, invalid transitions (I- after O) and overlapping boundary errors."""
    gold, pred = [], []
    for _ in range(n):
        length = rng.choice([0, 0, 1, 3, 6])
        g = [rng.choice(["O", "O", *(f"{p}-{x}" for p in "BI" for x in labels)]) for _ in range(length)]
        p = [t if rng.random() < 0.6 else rng.choice(["O", "B-PER", "I-PER", "I-LOC", "B-ORG"]) for t in g]
        gold.append(g)
        pred.append(p)
    return gold, pred


@pytest.mark.parametrize("options", [{"profile": "lenient"}, {"match": "semeval"}, {"match": "clueval"},
                                     {"profile": "mat", "repair": "discard"}], ids=str)
def test_empty_sentences_at_block_ends_and_repairs(monkeypatch, options):
    """Tiny flushes, so that blocks end on empty sentences (which start where the next block starts): the same
    sentences, repairs (their places numbered over all batches) and warnings as accord.score on the whole."""
    monkeypatch.setattr(_accumulator, "FLUSH_SIZE", 7)
    rng = random.Random(3)
    gold, pred = _random_tags(rng, 300)
    gold[:3], pred[:3] = [[], [], ["I-PER"]], [[], [], ["O"]]
    gold[-2:], pred[-2:] = [["B-LOC"], []], [["I-LOC"], []]
    score_options = {k: v for k, v in options.items()}
    with warnings.catch_warnings(record=True) as expected:
        warnings.simplefilter("always")
        whole = accord.score(gold, pred, **score_options)
    acc = _workers(options, gold, pred, seed=8)
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        result = acc.compute()
    assert _json(result) == _json(whole)
    assert result.repairs and result.repairs == whole.repairs
    assert sorted(str(w.message) for w in got) == sorted(str(w.message) for w in expected)
    for name, m in whole.measures.items():
        assert m.table.sentences.n_units == result.measures[name].table.sentences.n_units
        assert np.array_equal(m.table.sentences.unit, result.measures[name].table.sentences.unit)


def test_hand_count_lenient():
    """A hand count: gold PER 0-2 and LOC 3; the prediction PER 0-1 (overlaps: lenient match), LOC 2-3 (overlaps
    the LOC), nothing for the second sentence's ORG. Lenient: 2 matches of 3 gold, 2 predictions."""
    acc = accord.Accumulator(profile="lenient")
    acc.update([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "B-LOC", "I-LOC"]])
    acc.update([["B-ORG", "O"]], [["O", "O"]])
    t = acc.compute().totals
    assert (t.gold, t.pred, t.match) == (3, 2, 2)


def test_sentences_false_keeps_only_the_labels():
    gold, pred = _random_tags(random.Random(1), 50)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        acc = accord.Accumulator(match="semeval", sentences=False)
        for k in range(0, 50, 7):
            acc.update(gold[k:k + 7], pred[k:k + 7])
        result, whole = acc.compute(), accord.score(gold, pred, match="semeval")
    assert _json(result) == _json(whole)
    assert all(m.table.sentences is None for m in result.measures.values())


def test_errors_name_the_sentence_over_all_batches():
    acc = accord.Accumulator(profile="lenient", repair="error")
    acc.update([["B-PER"], ["O"]], [["B-PER"], ["O"]])
    with pytest.raises(accord.errors.AccordError, match=r"sentence 4, position 2"):
        acc.update([["O"], ["O", "I-LOC"]], [["O"], ["O", "O"]])
    acc = accord.Accumulator(match="clueval")
    acc.update([["B-PER"]], [["B-PER"]])
    with pytest.raises(SchemeError, match=r"sentence 2, position 1"):
        acc.update([["X-PER"]], [["O"]])
    assert acc.compute().measures["exact"].totals()["gold"] == 1    # the refused batch left the state as it was


def test_label_case_warned_once_at_compute():
    acc = accord.Accumulator(profile="lenient")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        acc.update([["B-PER"]], [["B-PER"]])
        acc.update([["B-per"]], [["B-per"]])
        assert not [w for w in caught if issubclass(w.category, LabelCaseWarning)]
        acc.compute()
    assert len([w for w in caught if issubclass(w.category, LabelCaseWarning)]) == 1


def test_refusals_name_why():
    with pytest.raises(OptionError, match="smatch"):
        accord.Accumulator(match="smatch")
    with pytest.raises(OptionError, match="GATE"):
        accord.Accumulator(match="qa")
    with pytest.raises(OptionError, match="must be one of"):
        accord.Accumulator(match="nope")
    with pytest.raises(OptionError, match="text"):
        accord.Accumulator(profile="lenient", units=["token"])
    with pytest.raises(OptionError, match="ignore"):
        accord.Accumulator(match="semeval", labels=["PER"])
    with pytest.raises(OptionError):
        accord.Accumulator(match="semeval", profile="lenient")     # accord.score refuses it too
    with pytest.raises(accord.errors.ProfileError, match="profile 'nope'"):
        accord.Accumulator(profile="nope")
    with pytest.raises(OptionError, match=r"match='semeval' takes .*; got task \(score the whole with accord.score"):
        accord.Accumulator(match="semeval", task="t.json")
    with pytest.raises(OptionError, match=r"got reference \(score the whole with accord.agree"):
        accord.Accumulator(match="agreement", reference="ann1")
    assert accord.Accumulator(match="coref", preset="corefud").options["preset"] == "corefud"    # files come later
    a, b = accord.Accumulator(profile="lenient"), accord.Accumulator(profile="mat")
    with pytest.raises(MergeError, match="different options"):
        a.merge(b)
    with pytest.raises(MergeError):
        a.merge(accord.Accumulator())
    with pytest.raises(FormatError, match="no sentence"):
        a.compute()


def test_reset_and_repr():
    acc = accord.Accumulator(match="semeval")
    acc.update([], [])
    with pytest.raises(FormatError, match="no sentence"):
        acc.compute()
    acc.update([["B-PER"]], [["B-PER"]])
    acc.update([], [])
    assert "semeval" in repr(acc) and acc.n_sentences == 1
    acc.reset()
    with pytest.raises(FormatError):
        acc.compute()
    acc.update([["B-LOC"]], [["O"]])
    assert acc.compute().measures["strict"].totals()["missed"] == 1


# -- coreference

def _coref_cases():
    path = DATA / "coref" / "reference_cases.json"
    if not path.exists():
        pytest.skip("../shared/data/coref is absent")
    return json.loads(path.read_text())["cases"]


def test_coref_batches_two_workers_equal_coref_and_the_reference_scorer():
    cases = _coref_cases()
    key = {f"d{k:02d}": c["key_clusters"] for k, c in enumerate(cases)}
    resp = {f"d{k:02d}": c["response_clusters"] for k, c in enumerate(cases)}
    ids = list(key)
    workers = [accord.Accumulator(match="coref"), accord.Accumulator(match="coref")]
    rng, k, n = random.Random(4), 0, 0
    while k < len(ids):
        size = rng.randint(1, 6)
        part = ids[k:k + size]
        workers[0 if k < len(ids) // 2 else 1].update({d: key[d] for d in part}, {d: resp[d] for d in part})
        k, n = k + size, n + 1
    assert isinstance(workers[0], CorefAccumulator)
    merged = pickle.loads(pickle.dumps(workers[0])).merge(pickle.loads(pickle.dumps(workers[1])))
    result, whole = merged.compute(), accord.coref(key, resp)
    assert _json(result) == _json(whole)
    assert result.conll_f1() == whole.conll_f1()
    # the reference scorer's values (v8.01, transcribed), document by document
    by_doc = result.to_dict()["measures"]
    checked = 0
    for k, case in enumerate(cases):
        for metric, expected in case["expected"].items():
            got = by_doc[metric]["by_document"][f"d{k:02d}"]
            for rate in ("recall", "precision", "f1"):
                assert got[rate] == pytest.approx(expected[rate], abs=1e-4), (case["id"], metric, rate)
                checked += 1
    assert checked >= 3 * 100


def test_coref_repeated_document_refused():
    acc = accord.Accumulator(match="coref")
    acc.update({"a": [[[0, 1], [3, 3]]]}, {"a": [[[0, 1], [3, 3]]]})
    with pytest.raises(MergeError, match=r"update 2: document 'a' was given in an earlier update"):
        acc.update({"a": [[[0, 1]]], "b": [[[0, 0]]]}, {"a": [[[0, 1]]], "b": [[[0, 0]]]})
    other = accord.Accumulator(match="coref")
    other.update({"a": [[[5, 6]]]}, {"a": [[[5, 6]]]})
    with pytest.raises(MergeError, match="document 'a'"):
        acc.merge(other)
    assert acc.n_documents == 1
    with pytest.raises(MergeError, match="different options"):
        acc.merge(accord.Accumulator(match="coref", metrics=["muc"]))
    with pytest.raises(FormatError, match="no document"):
        accord.Accumulator(match="coref").compute()


# -- agreement

def _ratings(n=240, raters=("ann1", "ann2", "ann3"), seed=0):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, 4, size=n)
    rows = []
    for t in truth:
        row = [str(t if rng.random() < 0.7 else rng.integers(0, 4)) for _ in raters]
        if rng.random() < 0.1:
            row[int(rng.integers(len(raters)))] = ""
        rows.append(row)
    return list(raters), rows


@pytest.mark.parametrize("level", ["nominal", "ordinal"])
def test_agreement_batches_equal_agree_on_the_table(tmp_path, level):
    raters, rows = _ratings()
    path = tmp_path / "ratings.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(raters)
        w.writerows(rows)
    whole = accord.agree(str(path), level=level)
    workers = [accord.Accumulator(match="agreement", level=level) for _ in range(2)]
    rng, k = random.Random(6), 0
    while k < len(rows):
        size = rng.randint(1, 40)
        batch = rows[k:k + size]
        workers[0 if k < len(rows) // 2 else 1].update({r: [row[j] for row in batch] for j, r in enumerate(raters)})
        k += size
    assert isinstance(workers[0], AgreementAccumulator)
    merged = pickle.loads(pickle.dumps(workers[0])).merge(pickle.loads(pickle.dumps(workers[1])))
    result = merged.compute()
    assert json.dumps(result.to_dict()) == json.dumps(whole.to_dict()).replace(str(path), RATINGS_SOURCE)
    # independent: Krippendorff's alpha by the krippendorff package on the same table
    krippendorff = pytest.importorskip("krippendorff")
    data = np.array([[float(row[j]) if row[j] != "" else np.nan for row in rows] for j in range(len(raters))])
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement=level)
    assert result.to_dict()["totals"]["coefficients"]["krippendorff_alpha"] == pytest.approx(alpha, abs=1e-9)


def test_agreement_other_raters_refused():
    acc = accord.Accumulator(match="agreement")
    acc.update({"a": ["x", "y"], "b": ["x", "x"]})
    with pytest.raises(FormatError, match=r"update 2: the raters are a, c"):
        acc.update({"a": ["x"], "c": ["y"]})
    with pytest.raises(OptionError, match="one table"):
        acc.update({"a": ["x"]}, {"a": ["x"]})
    with pytest.raises(OptionError, match="level"):
        accord.Accumulator(match="agreement", level="nope")
    with pytest.raises(FormatError, match="no rated item"):
        accord.Accumulator(match="agreement").compute()
    assert acc.n_items == 2
    rows = accord.Accumulator(match="agreement")      # rows of items: the raters are 0, 1, ...
    rows.update([["x", "y"], ["x", None]])
    rows.update(np.array([["y", "y"], ["", "x"]]))      # "" is a missing rating, as in a CSV file
    assert rows.n_items == 4 and rows.compute().to_dict()["totals"]["coefficients"]["observed_agreement"] == 0.5
    # by hand: (x, y) disagree, (x, missing) cannot be paired, (y, y) agree: 1 of 2 pairable items


def test_names_given_are_checked_against_every_batch():
    """An ignored label or an equivalence member absent from one batch is fine (a later batch has it); absent from
    all of them, compute() refuses it as accord.score refuses it on the whole."""
    acc = accord.Accumulator(profile="lenient", ignore=["LOC"], equivalence_classes={"NAME": ["PER", "ORG"]})
    acc.update([["B-PER"]], [["B-PER"]])
    acc.update([["B-LOC", "B-ORG"]], [["O", "B-ORG"]])
    gold, pred = [["B-PER"], ["B-LOC", "B-ORG"]], [["B-PER"], ["O", "B-ORG"]]
    options = {"profile": "lenient", "ignore": ["LOC"], "equivalence_classes": {"NAME": ["PER", "ORG"]}}
    assert _json(acc.compute()) == _json(accord.score(gold, pred, **options))
    acc = accord.Accumulator(profile="lenient", ignore=["LCO"])
    acc.update([["B-LOC"]], [["B-LOC"]])
    with pytest.raises(OptionError) as ours:
        acc.compute()
    with pytest.raises(OptionError) as theirs:
        accord.score([["B-LOC"]], [["B-LOC"]], profile="lenient", ignore=["LCO"])
    assert str(ours.value) == str(theirs.value)
