"""Aggregation of items: majority vote, Dawid-Skene and MACE, counted by hand on small tables."""

import numpy as np
import pytest

from accord.adjudicate._aggregate import aggregate
from accord.adjudicate._dawid_skene import dawid_skene
from accord.adjudicate._mace import mace
from accord.errors import OptionError, RatingsError

# three annotators, five items; categories a=0, b=1, c=2; -1 no answer
CODES = np.array([
    [0, 0, 0],     # a a a: unanimous
    [0, 0, 1],     # a a b: a by 2 of 3
    [0, 1, 2],     # a b c: a three-way tie
    [1, 1, -1],    # b b -: b by 2 of 2
    [2, 0, -1],    # c a -: a tie of two
])


def test_majority_by_hand():
    got = aggregate(CODES, "abc", ["x", "y", "z"], method="majority")
    # the first of tied categories is chosen: item 3 (a, b, c) -> a; item 5 (c, a) -> a
    assert got.labels == ["a", "a", "a", "b", "a"]
    assert got.status == ["decided", "decided", "tie", "decided", "tie"]
    assert got.votes.tolist() == [3, 2, 1, 2, 1]
    assert got.posteriors[1].tolist() == pytest.approx([2 / 3, 1 / 3, 0])
    # agreement with the chosen label on the untied items 1, 2, 4: x 3/3, y 3/3, z 1/2
    assert got.reliability == pytest.approx({"x": 1.0, "y": 1.0, "z": 0.5})


def test_min_votes_makes_items_short():
    got = aggregate(CODES, "abc", ["x", "y", "z"], method="majority", min_votes=3)
    # only the unanimous item has three answers for its label; ties stay ties
    assert got.status == ["decided", "short", "tie", "short", "tie"]


def test_dawid_skene_one_round_by_hand():
    # items (A, A) and (A, B). Start: T = [[1, 0], [.5, .5]]; priors [.75, .25];
    # annotator 1 answered A always: its rows [1, 0] (the floor 1e-10 for 0);
    # annotator 2: row A = [1, .5] / 1.5 = [2/3, 1/3], row B = [0, .5] / .5 = [0, 1].
    # E-step: item 2: A .75 * 1 * 1/3 = .25, B .25 * 1 * 1 = .25 -> [.5, .5]; item 1: A .75 * 1 * 2/3, B ~0.
    fit = dawid_skene(np.array([[0, 0], [0, 1]]), 2, max_iter=1)
    assert fit.posteriors[1].tolist() == pytest.approx([0.5, 0.5])
    assert fit.posteriors[0].tolist() == pytest.approx([1.0, 0.0], abs=1e-9)
    # the M-step after it: priors the mean of T = [.75, .25]
    assert fit.priors.tolist() == pytest.approx([0.75, 0.25])


def test_mace_first_e_step_by_hand():
    # θ = .5, ξ uniform over 2 classes: an answer's probability is .25 when wrong, .75 when right;
    # item (A, A): A .75², B .25² -> A .5625 / .625 = .9
    fit = mace(np.array([[0, 0]]), 2, method="em", max_iter=0)
    assert fit.posteriors[0].tolist() == pytest.approx([0.9, 0.1])


def test_dawid_skene_finds_the_reliable_annotator():
    # annotator 3 always answers the opposite of 1 and 2 on items they agree on: DS learns its confusion
    codes = np.array([[0, 0, 1], [1, 1, 0], [0, 0, 1], [1, 1, 0], [0, 1, 1], [1, 0, 0]])
    got = aggregate(codes, (0, 1), ["a", "b", "c"], method="dawid-skene")
    assert got.labels[:4] == [0, 1, 0, 1]
    conf = np.array(got.details["confusion"]["c"])
    assert conf[0, 1] > 0.9 and conf[1, 0] > 0.9       # c flips


def test_refusals():
    with pytest.raises(OptionError, match="--method must be one of"):
        aggregate(CODES, "abc", ["x", "y", "z"], method="vote")
    with pytest.raises(OptionError, match="--min-votes must be between 1 and the number of annotators"):
        aggregate(CODES, "abc", ["x", "y", "z"], min_votes=4)
    with pytest.raises(RatingsError, match="item 1 .* has no answer"):
        aggregate(np.array([[0, 0], [-1, -1]]), "ab", ["x", "y"])
    with pytest.raises(RatingsError, match="at least two annotators"):
        aggregate(np.array([[0]]), "a", ["x"])


@pytest.mark.parametrize("method", ["dawid-skene", "mace"])
def test_rounds_running_out_is_a_warning(method):
    from accord.errors import AccordWarning

    codes = np.random.default_rng(0).integers(0, 3, (300, 4))
    with pytest.warns(AccordWarning, match=f"{method} stopped after 2 rounds with the posteriors still moving"):
        aggregate(codes, "abc", list("wxyz"), method=method, max_iter=2)
