"""The faster paths of the MAT command (issue 41) against the code they replace, on random inputs.

The nesting depth of JSON text (:func:`accord.formats._json._nesting_depth`, run on every MAT JSON document of more
than 200 brackets) takes the brackets outside strings from one ``bytes.translate`` when the text has no backslash;
here it is compared with the regular expressions it replaced (written out below) and with the exact depth by a
cumulative sum, on texts of brackets, quotes, backslashes, letters and characters outside ASCII (a lone surrogate
among them), balanced or not.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats._json import MAX_DEPTH, _exact_depth, _nesting_depth

from .harness import FULL, PROFILE

settings.load_profile(PROFILE)
EXAMPLES = 600 if FULL else 120

_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_OTHER = re.compile(r"[^\[\]{}]+")
_PAIR = re.compile(r"\[\]|\{\}")


def regex_depth(text: str) -> int:
    """The depth as the module measured it before: strings cut out by a regular expression, then the empty pairs
    removed one level a pass."""
    opens = text.count("[") + text.count("{")
    if opens <= MAX_DEPTH:
        return opens
    brackets = _OTHER.sub("", _STRING.sub("", text))
    depth = 0
    while brackets and depth <= MAX_DEPTH:
        fewer = _PAIR.sub("", brackets)
        if len(fewer) == len(brackets):
            break
        brackets = fewer
        depth += 1
    return depth if not brackets else _exact_depth(text)


PIECES = ["[", "]", "{", "}", '"', '"', "\\", "a", "1", ",", ":", " ", "é", "\ud800", "[]", "{}", '"x[y"', '"}"']


@st.composite
def texts(draw: st.DrawFn) -> str:
    """Nested arrays and objects around random pieces, with more than MAX_DEPTH opening brackets."""
    depth = draw(st.integers(0, 260))
    inner = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=60)))
    wide = draw(st.integers(0, 220))
    kind = draw(st.sampled_from(["[", "{", "mixed"]))
    opens = "".join("[" if kind == "[" or (kind == "mixed" and k % 3) else "{" for k in range(depth))
    closes = "".join("]" if c == "[" else "}" for c in reversed(opens))
    if draw(st.booleans()):
        closes = closes[: draw(st.integers(0, len(closes)))]
    return "[" + "[1, 2], " * wide + opens + inner + closes + "]"


@settings(max_examples=EXAMPLES)
@given(texts())
def test_nesting_depth_equals_the_regular_expressions(text: str) -> None:
    assert _nesting_depth(text) == regex_depth(text)


def test_nesting_depth_hand_counts() -> None:
    """Hand counts: 201 arrays in one another; the same with a bracket and a quote in a string (no backslash); and
    with an escaped quote in the string (the old path)."""
    deep = "[" * 201 + "]" * 201
    assert _nesting_depth(deep) == 201
    assert _nesting_depth("[" * 201 + '"]]]"' + "]" * 201) == 201
    assert _nesting_depth("[" * 201 + '"\\"]]]"' + "]" * 201) == 201
    assert _nesting_depth("[" + "[1], " * 250 + '"é{"' + "]") == 2


@st.composite
def mat_sets(draw: st.DrawFn) -> tuple[list[dict], int]:
    """Annotation sets of a MAT JSON document: spanned sets with string, integer and boolean attributes (rows
    short of some values), ids as strings or integers or none, and a spanless set pointing to the spanned ones."""
    length = 40
    asets: list[dict] = []
    ids: list[object] = []
    for k in range(draw(st.integers(0, 3))):
        has_id = draw(st.booleans())
        attrs = draw(st.lists(st.sampled_from([("kind", "string"), ("n", "int"), ("ok", "boolean")]), max_size=3,
                              unique=True))
        rows = []
        for r in range(draw(st.integers(0, 6))):
            start = draw(st.integers(0, length))
            row: list[object] = [start, draw(st.integers(start, length))]
            if has_id:
                ident = draw(st.sampled_from([f"s{k}r{r}", 100 * k + r]))
                ids.append(ident)
                row.append(ident)
            for _, typ in attrs[: draw(st.integers(0, len(attrs)))]:
                row.append(draw({"string": st.sampled_from(["a", "b", None]), "int": st.sampled_from([0, 1, None]),
                                 "boolean": st.sampled_from([True, False, None])}[typ]))
            rows.append(row)
        asets.append({"type": draw(st.sampled_from(["PER", "LOC"])), "hasID": has_id,
                      "attrs": [{"name": n, "type": t, "aggregation": None} for n, t in attrs], "annots": rows})
    if ids and draw(st.booleans()):
        rows = [[draw(st.sampled_from(ids + [None])), draw(st.sampled_from(ids + [None]))]
                for _ in range(draw(st.integers(1, 5)))]
        asets.append({"type": "REL", "hasSpan": False, "attrs": [{"name": "arg1", "type": "annotation"},
                                                                  {"name": "arg2", "type": "annotation"}],
                      "annots": rows})
    return asets, length


@settings(max_examples=EXAMPLES)
@given(mat_sets())
def test_mat_columns_read_as_row_by_row(drawn: tuple[list[dict], int]) -> None:
    """The MAT JSON reader's column path (:func:`_annotations_in_bulk`) against its row-by-row path: the same
    annotations (labels, spans, ids, attribute values, targets by id)."""
    from pathlib import Path

    from accord.formats._refs import build_annotations
    from accord.formats.text.matjson import _annotations_in_bulk, _rows_one_by_one

    asets, length = drawn
    bulk = _annotations_in_bulk(asets, length)
    p = Path("doc.json")
    rows = build_annotations(_rows_one_by_one(asets, "x" * length, p), path=p, doc_id="doc")
    ids = [row[2] for a in asets if a.get("hasID") for row in a["annots"]]
    if len(set(map(str, ids))) != len(ids):
        assert bulk is None      # an id used twice: the row-by-row reader names it
        return
    assert bulk is not None

    def described(anns: tuple) -> list:
        return [(a.label, a.start, a.end, a.id, sorted((k, v.id if type(v).__name__ == "Annotation" else v)
                                                       for k, v in a.attributes.items())) for a in anns]

    assert described(bulk) == described(rows)


@st.composite
def spanless(draw: st.DrawFn) -> list:
    """Spanless annotations pointing to a few spanned ones (names in any order, a target shared, a scalar value
    among the targets now and then, no attribute at all), some of them twice in a row."""
    from accord.model import make_annotation

    targets = [make_annotation(draw(st.sampled_from(["PER", "LOC"])), s, s + draw(st.integers(0, 3)))
               for s in draw(st.lists(st.integers(0, 9), min_size=1, max_size=4))]
    out = []
    for _ in range(draw(st.integers(1, 6))):
        names = draw(st.lists(st.sampled_from(["arg2", "arg1", "b", "a'"]), unique=True, max_size=3))
        attrs: dict = {n: draw(st.sampled_from(targets)) for n in names}
        if names and draw(st.integers(0, 4)) == 0:
            attrs[names[0]] = draw(st.sampled_from(["x", 1, True]))
        a = make_annotation(draw(st.sampled_from(["REL", "EVT"])), attributes=attrs)
        out.extend([a, a] if draw(st.integers(0, 5)) == 0 else [a])
    return out


@settings(max_examples=EXAMPLES)
@given(spanless())
def test_relations_content_keys_are_the_engines(anns: list) -> None:
    """The content keys the relations' batch puts together (:func:`accord.match._bulk_spanless._content_keys`)
    are the engine's ``_content_key``, with the attribute contents kept alike."""
    from accord.match._bulk_spanless import _content_keys
    from accord.match.engine import _content_key, _incoming

    labels = [a.label.lower() for a in anns]
    idx = list(range(len(anns)))
    starts, ends = [3] * len(anns), [7] * len(anns)
    ours: dict = {}
    theirs: dict = {}
    got = _content_keys(anns, labels, idx, starts, ends, _incoming(anns, ours), ours, _content_key, {})
    want = [_content_key(a, lbl, _incoming(anns, theirs), (3, 7), theirs) for a, lbl in zip(anns, labels)]
    assert got == want
    assert {k: v for k, v in ours.items() if k >= 0} == {k: v for k, v in theirs.items() if k >= 0}


@st.composite
def same_names(draw: st.DrawFn) -> list:
    """Relations with one list of attribute names (in one order) pointing to a few spanned annotations (a target
    shared, one listed twice, a relation twice in a row), now and then a scalar value among the targets or an
    annotation pointing to a relation (those keys are made one relation at a time)."""
    from accord.model import make_annotation

    targets = [make_annotation(draw(st.sampled_from(["PER", "LOC", "O'K"])), s, s + draw(st.integers(0, 3)))
               for s in draw(st.lists(st.integers(0, 12), min_size=1, max_size=5))]
    names = draw(st.lists(st.sampled_from(["arg2", "arg1", "b", "a'"]), unique=True, min_size=1, max_size=3))
    out = []
    for _ in range(draw(st.integers(1, 8))):
        attrs: dict = {n: draw(st.sampled_from(targets)) for n in names}
        if draw(st.integers(0, 9)) == 0:
            attrs[names[0]] = draw(st.sampled_from(["x", 1]))
        a = make_annotation("REL", attributes=attrs)
        out.extend([a, a] if draw(st.integers(0, 5)) == 0 else [a])
    if draw(st.integers(0, 5)) == 0:
        out.append(make_annotation("REL", attributes={names[0]: out[0]}))
    return out


@settings(max_examples=EXAMPLES)
@given(same_names(), st.booleans())
def test_same_names_content_keys_are_the_engines(anns: list, pointed_first: bool) -> None:
    """The content keys of a block of relations with the same names, put together a column at a time
    (:func:`accord.match._bulk_spanless._same_relations`), are the engine's ``_content_key``, with the attribute
    contents kept alike (whether or not the engine described the pointers first)."""
    from accord.match._bulk_spanless import _content_keys
    from accord.match.engine import _content_key, _incoming

    labels = [a.label.lower() for a in anns]
    idx = list(range(len(anns)))
    starts, ends = list(range(len(anns))), [9] * len(anns)
    ours: dict = {}
    theirs: dict = {}
    incoming = _incoming(anns, ours)
    if pointed_first:
        for a in anns:
            incoming.get(id(a))
    import accord.match._bulk_spanless as bulk

    least, bulk.SAME_NAMES_FROM = bulk.SAME_NAMES_FROM, 1   # (every block, not only the large ones)
    try:
        got = _content_keys(anns, labels, idx, starts, ends, incoming, ours, _content_key, {})
    finally:
        bulk.SAME_NAMES_FROM = least
    want = [_content_key(a, lbl, _incoming(anns, theirs), (s, 9), theirs) for a, lbl, s in zip(anns, labels, starts)]
    assert got == want
    assert {k: v for k, v in ours.items() if k >= 0} == {k: v for k, v in theirs.items() if k >= 0}


MAT_DOCUMENT = {"signal": "Ann met Bob.", "metadata": {"a": [1]}, "version": 2, "asets": [
    {"type": "PER", "hasSpan": True, "hasID": True,
     "attrs": ["kind", {"name": "n", "type": "int", "aggregation": None}],
     "annots": [[0, 3, "p1", "x", 1], [8, 11, "p2"]]},
    {"type": "MEET", "hasSpan": False, "attrs": [{"name": "who", "type": "annotation", "aggregation": "none"}],
     "annots": [["p1"]]}]}


@settings(max_examples=EXAMPLES)
@given(st.data())
def test_mat_outline_test_agrees_with_the_shape_check(data: st.DataObject) -> None:
    """The MAT reader's plain test of a document's outline (:func:`_fits_outline`) says yes only where the shape
    check (:data:`_OUTLINE`, which names the fault) passes, on a document with one value replaced by one of
    another type, and yes on the document itself."""
    import pytest

    from accord.errors import FormatError
    from accord.formats._json import check
    from accord.formats.text.matjson import _OUTLINE, _fits_outline

    from .strategies import corrupt_json

    assert _fits_outline(MAT_DOCUMENT)
    obj = data.draw(corrupt_json(MAT_DOCUMENT))
    if _fits_outline(obj):
        check(obj, _OUTLINE)
    else:
        with pytest.raises(FormatError):
            check(obj, _OUTLINE)


RELATION_TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/><annotation label='LOC'/><annotation label='ENAMEX'/>
<attribute name='nomtype' of_annotation='PER,LOC'><choice>NAM</choice><choice>NOM</choice></attribute>
<attribute name='n' of_annotation='PER,LOC' type='int'/>
<attribute name='type' of_annotation='ENAMEX'><choice effective_label='PERSON'>PER</choice>
<choice effective_label='PLACE'>LOC</choice></attribute>
<annotation label='REL' span='no'/>
<attribute name='arg1' of_annotation='REL' type='annotation'><label_restriction label='PER'/>
<label_restriction label='PERSON'/></attribute>
<attribute name='arg2' of_annotation='REL' type='annotation'><label_restriction label='LOC'>
<attributes nomtype='NAM'/></label_restriction><label_restriction label='PLACE'/></attribute>
</annotation_set_descriptor></annotation_set_descriptors></task>"""


@st.composite
def relation_corpora(draw: st.DrawFn) -> list:
    """Documents of entities (their attribute objects shared now and then, rarely a value of the wrong type or
    choice) and spanless relations pointing to them (one or two arguments, names in any order, mostly to a target of
    a label the argument allows, a scalar value or a target of another label now and then)."""
    from accord.model import Document, make_annotation

    docs = []
    for d in range(draw(st.integers(1, 3))):
        ents = []
        for s in range(draw(st.integers(1, 5))):
            label = draw(st.sampled_from(["PER", "LOC", "ENAMEX"]))
            if label == "ENAMEX":
                attrs: dict = {"type": draw(st.sampled_from(["PER", "LOC"]))}
            else:
                attrs = {"nomtype": draw(st.sampled_from(["NAM", "NOM", None]))}
                if draw(st.booleans()):
                    attrs["n"] = draw(st.sampled_from([1, 2, 1.0]))
                if draw(st.integers(0, 15)) == 0:     # rarely, as the first invalid entity hides the relations
                    attrs[draw(st.sampled_from(["nomtype", "n"]))] = draw(st.sampled_from(["BAD", True, "1"]))
            ents.append(make_annotation(label, 2 * s, 2 * s + 1, attrs))
            if draw(st.integers(0, 3)) == 0:      # a row sharing the attributes object of the one before
                ents.append(ents[-1]._replace(start=2 * s + 1, end=2 * s + 2))
        rels = []
        for _ in range(draw(st.integers(0, 10))):
            names = draw(st.lists(st.sampled_from(["arg1", "arg2"]), unique=True, min_size=1, max_size=2))
            attrs = {}
            for n in names:     # mostly a target of a label the argument allows, so that the next ones are read
                fits = [e for e in ents if (e.label == "PER" or e.attributes.get("type") == "PER") == (n == "arg1")]
                attrs[n] = draw(st.sampled_from(fits if fits and draw(st.integers(0, 7)) else ents))
            if draw(st.integers(0, 9)) == 0:
                attrs[names[0]] = draw(st.sampled_from(["x", 1]))
            rels.append(make_annotation("REL", attributes=attrs))
        docs.append(Document(f"d{d}", tuple(ents + rels), "x" * 40))
    return docs


@settings(max_examples=4 * EXAMPLES)     # (fewer miss a key that leaves out the targets' values)
@given(relation_corpora())
def test_validate_with_known_kinds_is_annotation_by_annotation(docs: list) -> None:
    """``Task.validate``, which skips an annotation of a kind already found valid (an attributes object seen, a
    relation's key :func:`accord.model.schema._relation_key`, the content key), raises the error that checking
    every annotation in order raises, or none when none does."""
    from accord.errors import ValidationError
    from accord.model import Corpus
    from accord.model.schema import parse_task

    task = parse_task(RELATION_TASK)
    corpus = Corpus(docs, name="c")
    want = None
    try:
        for doc in docs:
            for ann in doc.annotations:
                task._validate(doc, ann, "c")
    except ValidationError as e:
        want = str(e)
    got = None
    try:
        task.validate(corpus)
    except ValidationError as e:
        got = str(e)
    assert got == want


def test_validate_relations_hand_counts() -> None:
    """Hand counts: a relation to a LOC of nomtype NAM is valid; the same relation's shape pointing to a LOC of
    nomtype NOM (a key met before but for the target's values) is refused, naming that relation; an ENAMEX of
    type LOC (effective label PLACE) is a valid second argument."""
    import pytest

    from accord.errors import ValidationError
    from accord.model import Corpus, Document, make_annotation
    from accord.model.schema import parse_task

    task = parse_task(RELATION_TASK)
    per = make_annotation("PER", 0, 1, {"nomtype": "NAM"})
    nam = make_annotation("LOC", 2, 3, {"nomtype": "NAM"})
    nom = make_annotation("LOC", 4, 5, {"nomtype": "NOM"})
    place = make_annotation("ENAMEX", 6, 7, {"type": "LOC"})
    ok = [make_annotation("REL", attributes={"arg1": per, "arg2": t}) for t in (nam, nam, place)]
    task.validate(Corpus([Document("d", (per, nam, nom, place, *ok), "x" * 9)], name="c"))
    bad = make_annotation("REL", attributes={"arg1": per, "arg2": nom})
    with pytest.raises(ValidationError, match=r"document 'd'.*attribute 'arg2' must point to LOC\[nomtype=NAM\], "
                                              r"PLACE; it points to <LOC \[4,5\)"):
        task.validate(Corpus([Document("d", (per, nam, nom, *ok, bad), "x" * 9)], name="c"))


def may_point_one_by_one(anns: list) -> list:
    """The annotations with a value other than a scalar, as the engine found them before: one at a time."""
    from accord.model import SCALAR_TYPES

    return [(k, a) for k, a in enumerate(anns) if a.attributes
            and not SCALAR_TYPES.issuperset(map(type, a.attributes.values()))]


@st.composite
def mixed_annotations(draw: st.DrawFn) -> list:
    """Spanned annotations (no attributes, scalar ones, attribute objects shared between rows) and spanless ones
    pointing to them or holding a set, in any order."""
    from accord.model import make_annotation

    out: list = []
    for s in range(draw(st.integers(0, 8))):
        attrs = draw(st.sampled_from([{}, {"n": 1}, {"t": "a", "b": True}, {"x": None}, {"f": 0.5}]))
        out.append(make_annotation("E", s, s + 1, attrs))
        if out and draw(st.integers(0, 2)) == 0:
            out.append(out[-1]._replace(start=s + 2, end=s + 3))     # the same attributes object
    for _ in range(draw(st.integers(0, 4)) if out else 0):
        value = draw(st.sampled_from([draw(st.sampled_from(out)), frozenset({"a"}), ("a", "b"), 3]))
        out.insert(draw(st.integers(0, len(out))), make_annotation("R", attributes={"arg": value}))
    return out


@settings(max_examples=EXAMPLES)
@given(mixed_annotations())
def test_may_point_is_one_by_one(anns: list) -> None:
    """:func:`accord.match.engine._may_point` (each distinct attributes object looked at once, the annotations
    picked in C) picks what looking at every annotation picks, in the same order."""
    from accord.match.engine import _may_point

    assert _may_point(anns) == may_point_one_by_one(anns)


@settings(max_examples=EXAMPLES)
@given(relation_corpora(), st.sampled_from([{}, {"P": ["PERSON", "PER"]}, {"X": ["PLACE"], "Y": ["REL"]}]),
       st.sampled_from([[], ["LOC"], ["PLACE", "REL"]]))
def test_labelled_is_label_by_annotation(docs: list, classes: dict, ignore: list) -> None:
    """A document's scoring labels (:meth:`Pairer._labelled`: only labels with an effective attribute read the
    annotation) are :meth:`Pairer.label` of each annotation kept, under equivalence classes and ignored labels."""
    from accord.match.engine import Pairer, make_similarity
    from accord.model.schema import parse_task

    task = parse_task(RELATION_TASK)
    equivalences = {m: name for name, members in classes.items() for m in members}
    pairer = Pairer(make_similarity("mat", task), task, equivalences, ignore)
    for doc in docs:
        anns, labels = pairer._labelled(doc)
        want = [(a, pairer.label(a)) for a in doc.annotations if pairer.label(a) not in pairer.ignore]
        assert list(zip(anns, labels)) == want


@st.composite
def pointing_documents(draw: st.DrawFn) -> tuple:
    """A document's annotations (spanned ones, relations between any of them, now and then a set of targets or a
    target from outside the document) and a random group for each."""
    from accord.model import make_annotation

    anns: list = [make_annotation("E", s, s + 1) for s in range(draw(st.integers(1, 5)))]
    outside = make_annotation("E", 0, 1)
    for _ in range(draw(st.integers(0, 6))):
        names = draw(st.lists(st.sampled_from(["arg1", "arg2", "x"]), unique=True, min_size=1, max_size=3))
        attrs: dict = {n: draw(st.sampled_from(anns + [outside])) for n in names}
        if draw(st.integers(0, 6)) == 0:
            attrs[names[0]] = frozenset(draw(st.lists(st.sampled_from(anns), min_size=1, max_size=2)))
        anns.append(make_annotation("R", attributes=attrs))
    order = draw(st.permutations(range(len(anns))))
    anns = [anns[k] for k in order]
    groups = draw(st.lists(st.integers(0, 3), min_size=len(anns), max_size=len(anns)))
    return anns, groups


@settings(max_examples=2 * EXAMPLES)
@given(pointing_documents())
def test_reference_check_is_target_by_target(drawn: tuple) -> None:
    """``Pairer._check_references`` (its index of the annotations made by one ``zip``) raises the error that looking
    at every target in turn raises (the first annotation pointing to one not paired before it), or none when none
    does."""
    import numpy as np

    from accord.errors import PairingError
    from accord.match.engine import Pairer, _may_point, make_similarity

    anns, groups = drawn
    want = None
    for k, a in _may_point(anns):
        bad = [t for t in a.referenced() if any(t is b and groups[j] >= groups[k] for j, b in enumerate(anns))]
        if bad:
            want = f"{a!r} points to {bad[0]!r}"
            break
    got = None
    try:
        Pairer(make_similarity(None, None))._check_references(anns, np.array(groups, dtype=np.int64), "d", "gold")
    except PairingError as e:
        got = str(e)
    assert (got is None) == (want is None), (got, want)
    assert got is None or f"document 'd' (gold): {want}, which is not paired before it" in got
