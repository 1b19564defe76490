"""Dawid-Skene, MACE and the majority vote equal crowd-kit's on data drawn from a known annotator model and on
real annotators' answers.

crowd-kit's loaders download their data sets (no network in CI), so the answers are drawn here from a model with
known confusion (six annotators of accuracy 0.9 down to 0.35 over three classes, each answering 70 % of the items),
and taken from bratiaa's example project in ../shared/corpora (four annotators' entity spans, grouped by accord).
Dawid-Skene starts alike in both (the majority vote's shares), so the same number of rounds must give the same
numbers (to rounding); and run to convergence (our default stopping rule), the result is where crowd-kit's rounds
lead. MACE starts from random parameters in crowd-kit: both run to convergence and must agree to within the EM's
stopping tolerance.

crowd-kit 1.4.2's MACE indexes its per-annotator strategy counts by the sorted names while its parameters follow
the order in which annotators and labels first appear in the data (``pd.factorize``); the rows are sorted here so
that the two orders coincide (otherwise crowd-kit mixes up annotators' strategies and ends elsewhere).
"""

from pathlib import Path

import numpy as np
import pytest

from accord.adjudicate._aggregate import aggregate

crowdkit = pytest.importorskip("crowdkit.aggregation", reason="crowd-kit (the test extra) is not installed")
pd = pytest.importorskip("pandas")

ITEMS, ANNOTATORS, CLASSES = 100, 6, 3
ACCURACY = np.array([0.9, 0.8, 0.7, 0.6, 0.5, 0.35])


@pytest.fixture(scope="module")
def answers():
    rng = np.random.default_rng(7)
    truth = rng.integers(0, CLASSES, ITEMS)
    codes = np.full((ITEMS, ANNOTATORS), -1)
    for i in range(ITEMS):
        for j in range(ANNOTATORS):
            if rng.random() < 0.7:
                codes[i, j] = truth[i] if rng.random() < ACCURACY[j] else rng.integers(0, CLASSES)
        if (codes[i] < 0).all():
            codes[i, 0] = truth[i]
    rows = [(i, j, int(codes[i, j])) for i in range(ITEMS) for j in range(ANNOTATORS) if codes[i, j] >= 0]
    frame = pd.DataFrame(rows, columns=["task", "worker", "label"]).sort_values(["worker", "label", "task"])
    assert list(pd.factorize(frame["worker"])[1]) == list(range(ANNOTATORS))
    assert list(pd.factorize(frame["label"])[1]) == list(range(CLASSES))
    return codes, frame.reset_index(drop=True), truth


def _posteriors(probas):
    return probas.reindex(columns=range(CLASSES)).loc[range(ITEMS)].to_numpy()


def _confusion(errors):
    """crowd-kit's errors_ ((worker, observed) by true) as confusion[worker, true, observed]."""
    return np.array([[[errors.loc[(j, seen), true] for seen in range(CLASSES)] for true in range(CLASSES)]
                     for j in range(ANNOTATORS)])


def test_dawid_skene_equals_crowdkit_round_by_round(answers):
    codes, frame, truth = answers
    ours = aggregate(codes, range(CLASSES), [str(j) for j in range(ANNOTATORS)], method="dawid-skene", tol=-1.0,
                     max_iter=25)
    theirs = crowdkit.DawidSkene(n_iter=25, tol=-1.0).fit(frame)      # tol < 0: every one of the 25 rounds
    assert np.abs(ours.posteriors - _posteriors(theirs.probas_)).max() < 1e-9
    assert ours.labels == theirs.labels_.loc[range(ITEMS)].tolist()
    ours_confusion = np.array([ours.details["confusion"][str(j)] for j in range(ANNOTATORS)])
    assert np.abs(ours_confusion - _confusion(theirs.errors_)).max() < 1e-9
    # the skills: accuracy Σ_k p_k π[k, k] from crowd-kit's priors and errors
    errors = theirs.errors_
    skill = [sum(theirs.priors_[k] * errors.loc[(j, k), k] for k in range(CLASSES)) for j in range(ANNOTATORS)]
    assert [ours.reliability[str(j)] for j in range(ANNOTATORS)] == pytest.approx(skill, abs=1e-9)


def test_dawid_skene_converges_where_crowdkit_leads(answers):
    codes, frame, truth = answers
    names = [str(j) for j in range(ANNOTATORS)]
    ours = aggregate(codes, range(CLASSES), names, method="dawid-skene")       # stops when T moves < 1e-9
    # crowd-kit's rounds from where its 25th left off: our own rounds are crowd-kit's (test above), so run ours
    # far past convergence as the reference
    far = aggregate(codes, range(CLASSES), names, method="dawid-skene", tol=-1.0, max_iter=3000)
    assert np.abs(ours.posteriors - far.posteriors).max() < 1e-7
    assert ours.labels == far.labels
    # the least accurate annotator the model drew (0.35) has the lowest skill, the most accurate two the highest
    order = np.argsort([ours.reliability[n] for n in names]).tolist()
    assert order[0] == 5 and set(order[-2:]) == {0, 1}
    assert np.mean(np.array(ours.labels) == truth) > 0.85


@pytest.mark.parametrize(("method", "tolerance"), [("vb", 1e-6), ("em", 1e-3)])
def test_mace_equals_crowdkit(answers, method, tolerance):
    # crowd-kit runs a fixed number of rounds (100 here, 50 by default) from random parameters: after 100, its
    # vb posteriors are still within 1e-6 of the fixed point, its em ones (slower) within 1e-3
    codes, frame, _ = answers
    ours = aggregate(codes, range(CLASSES), [str(j) for j in range(ANNOTATORS)], method="mace", mace_method=method)
    theirs = crowdkit.MACE(n_restarts=1, n_iter=100, method=method).fit(frame)
    assert np.abs(ours.posteriors - _posteriors(theirs.probas_)).max() < tolerance
    assert ours.labels == theirs.labels_.loc[range(ITEMS)].tolist()
    assert [ours.reliability[str(j)] for j in range(ANNOTATORS)] == pytest.approx(theirs.spamming_[:, 1].tolist(),
                                                                                   abs=tolerance)
    # a strategy is seen only through an annotator's few spammed answers: it converges the slowest (annotator 0,
    # accuracy 0.9: within 5e-3 after crowd-kit's 100 em rounds)
    strategy = np.array([ours.details["strategy"][str(j)] for j in range(ANNOTATORS)])
    assert np.abs(strategy - theirs.thetas_).max() < 10 * tolerance


def test_majority_equals_crowdkit(answers):
    codes, frame, _ = answers
    ours = aggregate(codes, range(CLASSES), [str(j) for j in range(ANNOTATORS)], method="majority")
    theirs = crowdkit.MajorityVote().fit(frame)
    untied = [i for i in range(ITEMS) if ours.status[i] != "tie"]
    assert untied and [ours.labels[i] for i in untied] == theirs.labels_.loc[untied].tolist()
    probas = _posteriors(theirs.probas_.fillna(0.0))
    assert np.abs(ours.posteriors - probas).max() < 1e-12


SHARED = Path(__file__).resolve().parents[2].parent / "shared"
BRATIAA = SHARED / "corpora" / "outside3b" / "bratiaa" / "example-project"


@pytest.fixture(scope="module")
def bratiaa():
    """The answers of bratiaa's example project (four annotators' brat folders, seven Spanish CoNLL-2002 documents):
    their entity spans grouped by extent, each annotator's label or nothing per group."""
    if not BRATIAA.is_dir():
        pytest.skip(f"{BRATIAA} is absent (../shared/corpora)")
    import warnings

    import accord
    from accord.adjudicate._spans import aggregate_spans

    names = ["Lisa", "Maria", "Max", "Peter"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpora = [accord.read(BRATIAA / n, format="brat") for n in names]
    agg = aggregate_spans(corpora, names)
    categories = agg.result.categories
    codes = np.array([[categories.index(a) for a in g.answers()] for g in agg.groups])
    rows = [(i, j, int(codes[i, j])) for i in range(len(codes)) for j in range(len(names))]
    frame = pd.DataFrame(rows, columns=["task", "worker", "label"]).sort_values(["worker", "label", "task"])
    assert list(pd.factorize(frame["label"])[1]) == list(range(len(categories)))    # see the module docstring
    return codes, categories, names, frame.reset_index(drop=True)


def test_bratiaa_project_dawid_skene_and_mace_equal_crowdkit(bratiaa):
    codes, categories, names, frame = bratiaa
    items = len(codes)
    assert (items, len(categories)) == (455, 5)          # LOC, MISC, ORG, PER and no span
    ours = aggregate(codes, range(len(categories)), names, method="dawid-skene", tol=-1.0, max_iter=25)
    theirs = crowdkit.DawidSkene(n_iter=25, tol=-1.0).fit(frame)
    probas = theirs.probas_.reindex(columns=range(len(categories))).loc[range(items)].to_numpy()
    assert np.abs(ours.posteriors - probas).max() < 1e-9
    mace = aggregate(codes, range(len(categories)), names, method="mace")
    theirs = crowdkit.MACE(n_restarts=1, n_iter=50, method="vb").fit(frame)
    probas = theirs.probas_.reindex(columns=range(len(categories))).loc[range(items)].to_numpy()
    assert np.abs(mace.posteriors - probas).max() < 1e-6
    assert [mace.reliability[n] for n in names] == pytest.approx(theirs.spamming_[:, 1].tolist(), abs=1e-6)
