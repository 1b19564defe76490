"""Spans of three annotators grouped and aggregated, counted by hand."""

import warnings

import pytest

from accord.adjudicate._spans import NONE, aggregate_spans, group_spans
from accord.errors import AccordWarning, OptionError, RatingsError
from accord.model import Annotation, Corpus, Document

TEXT = "Ann Lee met Bob in Paris today"
#       0   4   8   12  16 19    25


def corpus(*anns, text=TEXT, doc="d"):
    return Corpus([Document(doc, tuple(Annotation(label, s, e) for label, s, e in anns), text=text)])


A = corpus(("PER", 0, 7), ("PER", 12, 15), ("LOC", 19, 24))
B = corpus(("PER", 0, 7), ("ORG", 12, 15), ("LOC", 19, 24))
C = corpus(("PER", 0, 3), ("LOC", 12, 15), ("LOC", 19, 24), ("MISC", 25, 30))


def rows(agg):
    return [(g.start, g.end, g.answers(), None if gold is None else (gold.label, gold.start, gold.end), status)
            for g, gold, status in zip(agg.groups, agg.gold, agg.result.status)]


def test_strict_majority_by_hand():
    agg = aggregate_spans([A, B, C], ["a", "b", "c"], method="majority")
    # [0,3) c only: none 2-1; [0,7) a, b: PER 2-1; [12,15) PER, ORG, LOC: a tie; [19,24) LOC 3-0; [25,30) c only
    assert rows(agg) == [
        (0, 3, [NONE, NONE, "PER"], None, "decided"),
        (0, 7, ["PER", "PER", NONE], ("PER", 0, 7), "decided"),
        (12, 15, ["PER", "ORG", "LOC"], None, "tie"),
        (19, 24, ["LOC", "LOC", "LOC"], ("LOC", 19, 24), "decided"),
        (25, 30, [NONE, NONE, "MISC"], None, "decided"),
    ]
    assert [(a.label, a.start, a.end) for a in agg.corpus["d"].annotations] == [("PER", 0, 7), ("LOC", 19, 24)]
    assert agg.corpus["d"].text == TEXT
    # agreement with the majority on the 4 untied groups: a 4/4, b 4/4, c 1/4 (only [19,24))
    assert agg.result.reliability == pytest.approx({"a": 1.0, "b": 1.0, "c": 0.25})
    assert agg.disagreements() == [0, 1, 2, 4]


def test_lenient_groups_overlapping_spans():
    agg = aggregate_spans([A, B, C], ["a", "b", "c"], method="majority", measure="lenient")
    # c's [0,3) overlaps a's and b's [0,7): one group, PER 3-0, its span the extent two of three gave
    assert rows(agg)[0] == (0, 7, ["PER", "PER", "PER"], ("PER", 0, 7), "decided")
    assert len(agg.groups) == 4
    assert 0 in agg.disagreements()          # same label, another extent: still a disagreement


def test_min_votes():
    agg = aggregate_spans([A, B, C], ["a", "b", "c"], method="majority", min_votes=3)
    # only [19,24) has its label from all three
    assert [(a.label, a.start) for a in agg.corpus["d"].annotations] == [("LOC", 19)]
    assert agg.result.status == ["short", "short", "tie", "decided", "short"]


def test_min_votes_one_keeps_every_label_with_most_votes():
    agg = aggregate_spans([A, B, C], ["a", "b", "c"], method="majority", min_votes=1)
    assert [(a.label, a.start) for a in agg.corpus["d"].annotations] == [("PER", 0), ("LOC", 19)]


@pytest.mark.parametrize("method", ["dawid-skene", "mace"])
def test_models_run_on_spans(method):
    agg = aggregate_spans([A, B, C], ["a", "b", "c"], method=method)
    assert set(agg.result.reliability) == {"a", "b", "c"}
    # the groups the three agree on, or two of them against the least reliable c, are kept
    kept = {(a.label, a.start, a.end) for a in agg.corpus["d"].annotations}
    assert {("PER", 0, 7), ("LOC", 19, 24)} <= kept
    assert agg.result.reliability["c"] < min(agg.result.reliability["a"], agg.result.reliability["b"])


def _likes(*anns, label="likes"):
    return Annotation(label, attributes={"arg1": anns[0], "arg2": anns[1]})


def test_relations_on_the_groups_of_their_arguments():
    per, loc = Annotation("PER", 0, 7), Annotation("LOC", 19, 24)
    a = Corpus([Document("d", A["d"].annotations + (_likes(per, loc),), text=TEXT)])
    b = Corpus([Document("d", B["d"].annotations + (_likes(per, loc),), text=TEXT)])
    c = Corpus([Document("d", C["d"].annotations + (_likes(Annotation("LOC", 12, 15), loc, label="near"),),
                         text=TEXT)])
    agg = aggregate_spans([a, b, c], ["a", "b", "c"])
    # items: likes([0,7), [19,24)) by a and b (c: no relation there) -> kept 2-1;
    # near([12,15), [19,24)) by c only -> voted down 2-1 (and its first argument's group is a tie, not in the gold)
    rels = [x for x in agg.corpus["d"].annotations if x.start is None]
    assert [(r.label, r.attributes["arg1"].start, r.attributes["arg2"].start) for r in rels] == [("likes", 0, 19)]
    assert rels[0].attributes["arg1"] in agg.corpus["d"].annotations      # it points to the gold spans
    assert agg.relations is not None and agg.relations.to_dict()["items"] == 2
    assert agg.relations.result.reliability == pytest.approx({"a": 1.0, "b": 1.0, "c": 0.0})
    # all three relate their [12,15) (PER, ORG, LOC: a tie) to [19,24): the relation is decided 3-0 but its
    # first argument is not in the gold: left out, counted, with a warning
    sides = [Corpus([Document("d", s["d"].annotations + (_likes(Annotation(lab, 12, 15), loc, label="near"),),
                              text=TEXT)]) for s, lab in ((A, "PER"), (B, "ORG"), (C, "LOC"))]
    with pytest.warns(AccordWarning, match="1 relation.* left out of the gold: an argument's span is not in it"):
        agg = aggregate_spans(sides, ["a", "b", "c"])
    assert agg.relations is not None and agg.relations.without_arguments == 1
    assert not [x for x in agg.corpus["d"].annotations if x.start is None]


def test_types_and_relations():
    rel = _likes(Annotation("PER", 0, 7), Annotation("LOC", 19, 24))
    a = Corpus([Document("d", A["d"].annotations + (rel,), text=TEXT)])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agg = aggregate_spans([a, B, C], ["a", "b", "c"], types=["LOC"])
    assert not caught                        # the relation is not of the types asked for
    assert [g.answers() for g in agg.groups] == [[NONE, NONE, "LOC"], ["LOC", "LOC", "LOC"]]
    with pytest.warns(AccordWarning, match="1 relation.* left out: an argument is not a span of the types"):
        aggregate_spans([a, B, C], ["a", "b", "c"], types=["LOC", "likes"])
    with pytest.raises(OptionError, match="no annotator has a span of the types NOPE"):
        aggregate_spans([A, B, C], ["a", "b", "c"], types=["NOPE"])


def test_documents_must_match():
    with pytest.raises(RatingsError, match="document 'e' is not in b"):
        aggregate_spans([corpus(doc="e"), corpus(doc="d")], ["a", "b"])


def test_two_spans_of_one_annotator_in_a_group():
    # b splits [0,10) in two; the others' spans overlap both halves. The pairings are one-to-one per pair of
    # annotators: GATE's greedy one pairs X, W and V each with Z, leaving Y alone;
    # the optimal one pairs X with Y, W with Z and V with Y (or Z), linking both halves into one group where
    # b answers with its first span's label
    anns = [[Annotation("X", 0, 10)], [Annotation("Y", 0, 4), Annotation("Z", 5, 10)], [Annotation("W", 0, 10)],
            [Annotation("V", 4, 6)]]
    gate = group_spans("d", anns, measure="lenient", pairing="gate")
    assert [(g.start, g.end, g.answers()) for g in gate] == [(0, 4, [NONE, "Y", NONE, NONE]),
                                                             (0, 10, ["X", "Z", "W", "V"])]
    (one,) = group_spans("d", anns, measure="lenient", pairing="optimal")
    assert (one.start, one.end, one.answers()) == (0, 10, ["X", "Y", "W", "V"])
    assert [len(m) for m in one.members] == [1, 2, 1, 1]


def test_no_span_at_all_is_an_error():
    empty = [Corpus([Document("d", (), text=TEXT)]) for _ in range(3)]
    with pytest.raises(RatingsError, match="no annotator marked a span in the 1 document"):
        aggregate_spans(empty, ["a", "b", "c"], method="dawid-skene")


def test_document_classes_are_one_item_per_document():
    from accord.adjudicate._queue import apply_span_decisions, span_queue
    from accord.formats._document_labels import labelled_metadata

    def classes(*docs):
        return Corpus([Document(i, tuple(Annotation(c, 0, len(t)) for c in cs), text=t, metadata=labelled_metadata())
                       for i, t, cs in docs])
    a = classes(("1", "good film", ["pos"]), ("2", "bad", ["neg", "sarcasm"]), ("3", "meh", ["neu"]))
    b = classes(("1", "good film", ["pos"]), ("2", "bad", ["sarcasm", "neg"]), ("3", "meh", ["neg"]))
    c = classes(("1", "good film", ["neg"]), ("2", "bad", ["neg"]), ("3", "meh", []))
    agg = aggregate_spans([a, b, c], ["a", "b", "c"])
    # by hand: 1: pos 2-1; 2: the set {neg, sarcasm} 2-1 (against c's {neg}); 3: neu, neg, nothing: a tie
    assert [g.answers() for g in agg.groups] == [["pos", "pos", "neg"], ["neg|sarcasm", "neg|sarcasm", "neg"],
                                                 ["neu", "neg", NONE]]
    assert agg.result.status == ["decided", "decided", "tie"]
    expected = {"1": ["pos"], "2": ["neg", "sarcasm"], "3": []}
    assert {d.id: [x.label for x in d.annotations] for d in agg.corpus.documents} == expected
    assert all(x.start == 0 and x.end == len(d.text) for d in agg.corpus.documents for x in d.annotations)
    assert [r["choice"] for r in span_queue(agg)[1]] == ["pos", "neg|sarcasm", "none"]
    # decisions: the tie settled as neu; the untouched documents keep their sets
    again = apply_span_decisions(agg, {("3", 0, 3): (("neu",), None, None)})
    assert {d.id: [x.label for x in d.annotations] for d in again.documents} == {**expected, "3": ["neu"]}


def test_decisions_keep_relations_whose_arguments_stay():
    from accord.adjudicate._queue import apply_span_decisions

    per, loc = Annotation("PER", 0, 7), Annotation("LOC", 19, 24)
    sides = [Corpus([Document("d", s["d"].annotations + (_likes(per, loc),), text=TEXT)]) for s in (A, B)] + [C]
    agg = aggregate_spans(sides, ["a", "b", "c"])
    # settling the tie keeps likes([0,7), [19,24)), pointing to the new corpus's spans
    kept = apply_span_decisions(agg, {("d", 12, 15): (("ORG",), None, None)})
    rels = [x for x in kept["d"].annotations if x.start is None]
    assert [r.label for r in rels] == ["likes"] and rels[0].attributes["arg1"] in kept["d"].annotations
    # dropping [0,7) drops the relation, with a warning
    with pytest.warns(AccordWarning, match="1 relation.* left out: the decisions removed an argument's span"):
        kept = apply_span_decisions(agg, {("d", 0, 7): ((), None, None)})
    assert [x for x in kept["d"].annotations if x.start is None] == []
