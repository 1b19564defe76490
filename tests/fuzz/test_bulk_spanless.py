"""The relations of many documents paired at once (:mod:`accord.match._bulk_spanless`) against the pairing of one
document at a time (``Pairer.bulk_spanless = False``, :meth:`Pairer.align` alone): on random MAT corpora with
relations, every document's pairs (their order, similarities and error tokens) and every item's outcome are the
same, under MAT's default profiles, a task profile with strata, and the strict and lenient similarities.

The corpora are made to hold ties: entities on few positions (equal and overlapping spans, zero-length ones),
relations with equal arguments, relations whose arguments were not found, a set of targets, a relation without
arguments (no implied span: its document goes to the per-document path), and relations pointing to relations in a
later stratum.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.match.engine import Pairer, make_similarity
from accord.model import Document, make_annotation
from accord.model.schema import parse_task

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 400 if FULL else 60

DESCRIPTORS = """<annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/><annotation label='LOC'/><annotation label='ORG'/>
<attribute name='nomtype' of_annotation='PER,LOC,ORG'><choice>NAM</choice><choice>NOM</choice></attribute>
<annotation label='REL' span='no'/>
<attribute name='arg1' of_annotation='REL' type='annotation'><label_restriction label='PER'/></attribute>
<attribute name='arg2' of_annotation='REL' type='annotation'><label_restriction label='LOC'/>
<label_restriction label='ORG'/></attribute>
<attribute name='polarity' of_annotation='REL'><choice>POS</choice><choice>NEG</choice></attribute>
<annotation label='GRP' span='no'/>
<attribute name='members' of_annotation='GRP' type='annotation' aggregation='set'>
<label_restriction label='PER'/></attribute>
{events}</annotation_set_descriptor></annotation_set_descriptors>"""

EVENTS = """<annotation label='EVT' span='no'/>
<attribute name='about' of_annotation='EVT' type='annotation'><label_restriction label='REL'/></attribute>"""

TASK = parse_task(f"<task>{DESCRIPTORS.format(events='')}</task>")
"""MAT's default profiles: entities, then relations and sets in one spanless group."""

LAYERS = parse_task(f"""<task>{DESCRIPTORS.format(events=EVENTS)}<similarity_profile name='layers'>
<stratum true_labels='PER,LOC,ORG'/><stratum true_labels='REL,GRP'/><stratum true_labels='EVT'/>
</similarity_profile></task>""")
"""Three strata: events pointing to relations are the last group."""


@st.composite
def side(draw: st.DrawFn, entities: list[tuple[str, int, int, str]], with_events: bool) -> tuple:
    """One side of a document: a draw of the shared entity places (kept, moved or relabelled) and relations."""
    anns = []
    kept = []
    for label, start, end, nomtype in entities:
        what = draw(st.sampled_from(["keep", "keep", "keep", "move", "relabel", "drop"]))
        if what == "drop":
            continue
        if what == "move":
            start, end = start + draw(st.integers(-1, 1)), end + draw(st.integers(0, 2))
            start = max(start, 0)
            end = max(end, start)
        if what == "relabel":
            label = draw(st.sampled_from(["PER", "LOC", "ORG"]))
        a = make_annotation(label, start, end, {"nomtype": nomtype})
        anns.append(a)
        kept.append(a)
    people = [a for a in kept if a.label == "PER"]
    places = [a for a in kept if a.label != "PER"]
    relations = []
    for _ in range(draw(st.integers(0, 8)) if people and places else 0):
        attrs: dict = {"arg1": draw(st.sampled_from(people))}
        if draw(st.integers(0, 5)):
            attrs["arg2"] = draw(st.sampled_from(places))
        if draw(st.booleans()):
            attrs["polarity"] = draw(st.sampled_from(["POS", "NEG"]))
        relations.append(make_annotation("REL", attributes=attrs))
    if people and draw(st.integers(0, 3)) == 0:
        members = frozenset(draw(st.lists(st.sampled_from(people), min_size=1, max_size=3)))
        relations.append(make_annotation("GRP", attributes={"members": members}))
    if draw(st.integers(0, 9)) == 0:
        relations.append(make_annotation("REL"))     # no argument: no implied span
    events = []
    if with_events:
        rels = [r for r in relations if r.label == "REL" and r.attributes]
        for _ in range(draw(st.integers(0, 3)) if rels else 0):
            events.append(make_annotation("EVT", attributes={"about": draw(st.sampled_from(rels))}))
    anns += relations + events
    order = draw(st.permutations(range(len(anns))))
    return tuple(anns[k] for k in order)


@st.composite
def corpora(draw: st.DrawFn, with_events: bool) -> list[tuple[str, Document, Document]]:
    docs = []
    for d in range(draw(st.integers(1, 4))):
        entities = []
        for _ in range(draw(st.integers(0, 9))):
            start = draw(st.integers(0, 12))
            entities.append((draw(st.sampled_from(["PER", "LOC", "ORG"])), start, start + draw(st.integers(0, 4)),
                             draw(st.sampled_from(["NAM", "NOM"]))))
        text = "x" * 40
        gold = Document(f"d{d}", draw(side(entities, with_events)), text)
        pred = Document(f"d{d}", draw(side(entities, with_events)), text)
        docs.append((f"d{d}", gold, pred))
    return docs


def _outcomes(profile: str | None, with_events: bool, triples: list, bulk: bool) -> list:
    task = LAYERS if with_events else TASK
    pairer = Pairer(make_similarity(profile, task), task)
    pairer.bulk_spanless = bulk
    return [(al.doc_id, al.pairs, al.gold_status.tolist(), al.pred_status.tolist())
            for al in pairer.align_many(triples)]


@settings(max_examples=EXAMPLES)
@given(st.sampled_from([None, "mat", "strict", "lenient"]), st.data())
def test_bulk_pairs_equal_document_by_document(profile: str | None, data: st.DataObject) -> None:
    triples = data.draw(corpora(False))
    assert _outcomes(profile, False, triples, True) == _outcomes(profile, False, triples, False)


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_bulk_pairs_equal_with_a_later_stratum(data: st.DataObject) -> None:
    """Relations in a middle stratum (paired one document at a time) and events pointing to them in the last (the
    group left for all documents at once)."""
    triples = data.draw(corpora(True))
    assert _outcomes("layers", True, triples, True) == _outcomes("layers", True, triples, False)


def test_bulk_path_is_taken() -> None:
    """The corpus above does go through the bulk path (not only the per-document fallback)."""
    import accord.match._bulk_spanless as bulk

    calls = []
    original = bulk._pair_ready
    bulk._pair_ready = lambda *a: (calls.append(len(a[1])), original(*a))[1]   # type: ignore[assignment]
    try:
        per = make_annotation("PER", 0, 3, {"nomtype": "NAM"})
        loc = make_annotation("LOC", 5, 8, {"nomtype": "NAM"})
        rel = make_annotation("REL", attributes={"arg1": per, "arg2": loc})
        per2 = make_annotation("PER", 0, 3, {"nomtype": "NAM"})
        loc2 = make_annotation("LOC", 5, 8, {"nomtype": "NOM"})
        rel2 = make_annotation("REL", attributes={"arg1": per2, "arg2": loc2})
        triples = [("d", Document("d", (per, loc, rel), "x" * 9), Document("d", (per2, loc2, rel2), "x" * 9))]
        got = _outcomes(None, False, triples, True)
    finally:
        bulk._pair_ready = original   # type: ignore[assignment]
    assert calls == [1]
    # hand count: PER matches, LOC clashes (nomtype), the relation clashes through its LOC argument
    (_, pairs, gold_status, pred_status), = got
    assert [p.similarity == 1.0 for p in pairs] == [True, False, False]
    assert gold_status == pred_status == [0, 1, 1]


def _group(data: st.DataObject, doc: Document) -> list:
    """A document's annotations, or its spanless ones, or its relations of annotation values only (the batch's
    fast paths), each choice as often."""
    anns = list(doc.annotations)
    which = data.draw(st.integers(0, 2))
    if which == 1:
        anns = [a for a in anns if a.start is None]
    elif which == 2:
        anns = [a for a in anns if a.start is None and a.attributes
                and all(type(v) is type(a) for v in a.attributes.values())]
    return anns


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_group_spans_are_the_implied_spans(data: st.DataObject) -> None:
    """``_spans`` of a group (a document's annotations with entities, spanless ones with sets, events and a relation
    without arguments, or relations alone) is :func:`~accord.match.similarity.implied_span` of each, or None when
    one has a span or none is implied."""
    from accord.match._bulk_spanless import _spans
    from accord.match.similarity import Context, implied_span

    for _, gold, pred in data.draw(corpora(data.draw(st.booleans()))):
        for doc in (gold, pred):
            anns = _group(data, doc)
            want: list | None = [list(implied_span(a) or (None, None)) for a in anns]
            if any(a.start is not None or implied_span(a) is None for a in anns):
                want = None
            got = _spans(anns, Context(lambda a: a.label).implied)
            assert (None if got is None else got.tolist()) == want


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_group_codes_are_the_shape_codes(data: st.DataObject) -> None:
    """``_group_codes`` gives the codes (and numbers the shapes in the order) that
    :func:`~accord.match.shapes._codes` gives, on groups of relations alone and on groups with other annotations."""
    import numpy as np

    from accord.match._bulk_spanless import _group_codes
    from accord.match.shapes import _codes
    from accord.match.similarity import Context

    triples = data.draw(corpora(data.draw(st.booleans())))
    ours, theirs = Context(lambda a: a.label), Context(lambda a: a.label)
    for _, gold, pred in triples:
        for doc in (gold, pred):
            anns = _group(data, doc)
            labels = [data.draw(st.sampled_from([a.label, "X"])) for a in anns]
            got, want = _group_codes(anns, labels, ours), _codes(anns, labels, theirs)
            assert (got is None) == (want is None)
            assert got is None or np.array_equal(got, want)
            assert ours.shape_codes == theirs.shape_codes


@settings(max_examples=EXAMPLES)
@given(st.sampled_from([None, "mat", "strict", "lenient"]), st.data())
def test_linked_pairs_score_as_one_by_one(profile: str | None, data: st.DataObject) -> None:
    """The linked pairs of a block (a target of the row paired with a target of the column), scored a column of
    keys at a time when the rows and columns have as many single targets each (``_ShapeTable._linked_scores``),
    have the similarity and the error tokens :func:`~accord.match.shapes._linked_score` gives each pair alone."""
    import accord.match._bulk_spanless as bulk
    from accord.match.shapes import _linked_score, _single_targets

    triples = data.draw(corpora(False))
    original = bulk._ShapeTable._linked_scores

    def checked(self, gold, pred, gc, pc, link_x, link_y, apart, m, ctx):    # type: ignore[no-untyped-def]
        tokens = original(self, gold, pred, gc, pc, link_x, link_y, apart, m, ctx)
        for x, y, a in zip(link_x.tolist(), link_y.tolist(), apart.tolist()):
            r_targets, h_targets = _single_targets(gold[x]), _single_targets(pred[y])
            if r_targets is not None and h_targets is not None:    # the memo holds the key _linked_score reads
                link = tuple(ctx.paired.get((id(r), id(h))) for r in r_targets for h in h_targets)
                assert ((int(gc[x]), int(pc[y]), a), link) in self.known
            s, rt, ht = _linked_score(self.sim, gold[x], pred[y], (int(gc[x]), int(pc[y]), a), ctx)
            kept = s > 0 and (self.keep_clash or s >= 1.0)
            assert m[x, y] == (s if kept else 0.0)
            assert tokens.get((x, y)) == ((rt, ht) if kept else None)
        return tokens

    bulk._ShapeTable._linked_scores = checked   # type: ignore[method-assign]
    try:
        _outcomes(profile, False, triples, True)
    finally:
        bulk._ShapeTable._linked_scores = original    # type: ignore[method-assign]


def test_linked_pairs_of_two_arguments_hand_counts() -> None:
    """Two gold relations (PER0, LOC0) and (PER1, LOC1), three predicted ones (PER0, LOC0), (PER0, LOC1) and
    (PER1, LOC0), the entities matched: every pair sharing an argument is linked; sharing both scores 1.0, sharing
    one scores 0.7 with the error token ``annclash`` (MAT's spanless default: the label 0.2, the remainder of other
    attributes 0.2, the arguments 0.6 of which one of two is right: 0.3). The second gold relation takes the first
    of its two ties in content order, (PER0, LOC1)."""
    import accord.match._bulk_spanless as bulk

    per = [make_annotation("PER", 0, 2, {"nomtype": "NAM"}), make_annotation("PER", 10, 12, {"nomtype": "NAM"})]
    loc = [make_annotation("LOC", 4, 6, {"nomtype": "NAM"}), make_annotation("LOC", 14, 16, {"nomtype": "NAM"})]
    per_p = [a._replace() for a in per]
    loc_p = [a._replace() for a in loc]
    gold_rels = [make_annotation("REL", attributes={"arg1": per[k], "arg2": loc[k]}) for k in (0, 1)]
    pred_rels = [make_annotation("REL", attributes={"arg1": per_p[k], "arg2": loc_p[1 - k]}) for k in (0, 1)]
    pred_rels.append(make_annotation("REL", attributes={"arg1": per_p[0], "arg2": loc_p[0]}))
    calls = []
    original = bulk._ShapeTable._linked_scores

    def counted(self, *args):    # type: ignore[no-untyped-def]
        tokens = original(self, *args)
        x, y, m = args[4].tolist(), args[5].tolist(), args[7]
        calls.append((list(zip(x, y)), [float(m[i, j]) for i, j in zip(x, y)], tokens))
        return tokens

    bulk._ShapeTable._linked_scores = counted   # type: ignore[method-assign]
    try:
        text = "x" * 20
        (_, pairs, gold_status, pred_status), = _outcomes(
            None, False, [("d", Document("d", (*per, *loc, *gold_rels), text),
                           Document("d", (*per_p, *loc_p, *pred_rels), text))], True)
    finally:
        bulk._ShapeTable._linked_scores = original    # type: ignore[method-assign]
    # rows: the gold relations; columns in content order: (PER0, LOC0), (PER0, LOC1), (PER1, LOC0)
    clash = (("annclash",), ("annclash",))
    assert calls == [([(0, 0), (0, 1), (0, 2), (1, 1), (1, 2)], [1.0, 0.7, 0.7, 0.7, 0.7],
                      {(0, 0): ((), ()), (0, 1): clash, (0, 2): clash, (1, 1): clash, (1, 2): clash})]
    assert [(p.gold, p.pred, p.similarity) for p in pairs if p.gold >= 4] == [(4, 6, 1.0), (5, 4, 0.7)]
