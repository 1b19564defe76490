"""Consensus by votes, counted by hand."""

import pytest

from accord.adjudicate import consensus
from accord.errors import RatingsError
from accord.model import make_annotation as A


def spans(anns):
    return [(a.start, a.end, a.attributes.get("c"), a.attributes["annotators"]) for a in anns]


SETS = [
    [A("E", 0, 2, {"c": "x"}), A("E", 3, 5, {"c": "x"}), A("E", 6, 8, {"c": "y"}), A("T", 0, 2)],
    [A("E", 0, 2, {"c": "x"}), A("E", 3, 5, {"c": "y"}), A("E", 9, 10, {"c": "y"})],
    [A("E", 0, 2, {"c": "y"}), A("E", 3, 5, {"c": "z"}), A("E", 9, 10, {"c": "y"})],
]


def test_majority_of_values():
    got = consensus(SETS, type="E", feature="c", min_votes=2, names=["a", "b", "c"])
    # [0,2): x by a, b; [3,5): x, y, z one each (short); [6,8): a only; [9,10): y by b, c
    assert spans(got) == [(0, 2, "x", "a-b"), (9, 10, "y", "b-c")]


def test_undecided_keeps_spans_every_annotator_marked():
    got = consensus(SETS, type="E", feature="c", min_votes=2, undecided=True)
    assert spans(got) == [(0, 2, "x", "0-1"), (3, 5, None, "0-1-2"), (9, 10, "y", "1-2")]


def test_spans_only_and_one_vote():
    assert [(a.start, a.end) for a in consensus(SETS, type="E", min_votes=3)] == [(0, 2), (3, 5)]
    assert [(a.start, a.end) for a in consensus(SETS, type="E", min_votes=1)] == [(0, 2), (3, 5), (6, 8), (9, 10)]


def test_ties_go_to_the_earliest_annotator():
    sets = [[A("E", 0, 1, {"c": "y"})], [A("E", 0, 1, {"c": "x"})]]
    assert spans(consensus(sets, type="E", feature="c", min_votes=1)) == [(0, 1, "y", "0")]


def test_one_vote_per_annotator_and_span():
    sets = [[A("E", 0, 1, {"c": "x"}), A("E", 0, 1, {"c": "x"})], [A("E", 0, 1, {"c": "y"})]]
    assert consensus(sets, type="E", feature="c", min_votes=2) == []


def test_bad_min_votes():
    with pytest.raises(RatingsError, match="between 1 and the number of annotators"):
        consensus(SETS, type="E", min_votes=4)
