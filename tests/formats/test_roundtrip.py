"""Readers and writers: round trips and clear errors on bad input."""

import json

import pytest

import accord
from accord.errors import AccordError, FormatError, SchemeError
from accord.formats import read, write
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.model.tagging import decode_tags, encode


def relation_doc():
    text = "John visited Guam in May."
    john, guam = A("PER", 0, 4, {"nomtype": "NAM"}, "T1"), A("LOC", 13, 17, {"tags": {"x", "y"}}, "T2")
    visit = A("VISIT", attributes={"agent": john, "place": guam})
    return Document("doc1", (john, guam, visit), text)


def same(a: Document, b: Document):
    def norm(ann, anns):
        def v(x):
            if isinstance(x, accord.Annotation):
                return ("ref", anns.index(x))
            if isinstance(x, frozenset):
                return frozenset(v(y) for y in x)
            return x
        return (ann.label, ann.start, ann.end, {k: v(x) for k, x in ann.attributes.items()})
    assert [norm(x, list(a.annotations)) for x in a.annotations] == [norm(x, list(b.annotations)) for x in b.annotations]


@pytest.mark.parametrize("fmt,name", [("jsonl", "c.jsonl"), ("mat-json", "doc1.json")])
def test_roundtrip_with_relations(tmp_path, fmt, name):
    doc = relation_doc()
    write(Corpus([doc]), tmp_path / name, fmt)
    back = read(tmp_path / name)
    same(doc, back["doc1"])
    assert back["doc1"].text == doc.text


def test_brat_roundtrip(tmp_path):
    text = "John visited Guam."
    john, guam = A("PER", 0, 4, {"Negated": True}), A("LOC", 13, 17)
    rel = A("Visit", attributes={"Arg1": john, "Arg2": guam})
    write(Corpus([Document("d", (john, guam, rel), text)]), tmp_path / "out", "brat")
    back = read(tmp_path / "out")
    assert back["d"].annotations[0].attributes["Negated"] is True
    assert back["d"].annotations[2].attributes["Arg1"] is back["d"].annotations[0]


def test_brat_equivalences_and_events_write_back(tmp_path):
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "e.txt").write_text("IBM (International Business Machines) hired Ann.")
    (tmp_path / "in" / "e.ann").write_text(
        "T1\tOrg 0 3\tIBM\nT2\tOrg 5 36\tInternational Business Machines\nT3\tHire 38 43\thired\n"
        "T4\tPerson 44 47\tAnn\n*\tEquiv T1 T2\nE1\tHire:T3 Employer:T1 Employee:T4\n")
    first = read(tmp_path / "in")
    write(first, tmp_path / "out", "brat")
    back = read(tmp_path / "out")
    same(first["e"], back["e"])
    equiv = back["e"].annotations[4]
    assert equiv.label == "Equiv" and equiv.attributes["members"] == {back["e"].annotations[0],
                                                                      back["e"].annotations[1]}


def test_brat_reads_events_normalizations_and_refuses_discontinuous(tmp_path):
    (tmp_path / "a.txt").write_text("Mary married John in Paris.")
    (tmp_path / "a.ann").write_text(
        "T1\tPerson 0 4\tMary\nT2\tMarry 5 12\tmarried\nT3\tPerson 13 17\tJohn\n"
        "E1\tMarry:T2 Agent:T1 Spouse:T3\nN1\tReference T1 Wikidata:Q1\tMary\n#1\tAnnotatorNotes T1\tnote\n")
    doc = read(tmp_path / "a.ann")["a"]
    ev = doc.annotations[3]
    assert ev.label == "Marry" and ev.start is None and ev.attributes["trigger"] is doc.annotations[1]
    assert doc.annotations[0].attributes["normalizations"] == frozenset({"Wikidata:Q1"})
    (tmp_path / "b.txt").write_text("New York City")
    (tmp_path / "b.ann").write_text("T1\tLOC 0 3;9 13\tNew City\n")
    with pytest.raises(FormatError, match=r"b\.ann:1:.*discontinuous"):
        read(tmp_path / "b.ann", discontinuous="error")
    kept = read(tmp_path / "b.ann")["b"].annotations[0]       # the default keeps the pieces
    assert (kept.start, kept.end, kept.fragments, dict(kept.attributes)) == (0, 13, ((0, 3), (9, 13)), {})
    merged = read(tmp_path / "b.ann", discontinuous="merge")["b"].annotations[0]
    assert (merged.start, merged.end, merged.attributes["fragments"]) == (0, 13, ("0-3", "9-13"))
    (tmp_path / "c.txt").write_text("abc")
    (tmp_path / "c.ann").write_text("T1\tX 0 2\tzz\n")
    with pytest.raises(FormatError, match=r"c\.ann:1: T1 quotes 'zz'"):
        read(tmp_path / "c.ann")


@pytest.mark.parametrize("scheme", ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"])
def test_encode_decode_roundtrip_every_scheme(scheme):
    spans = [("PER", 0, 2), ("PER", 2, 3), ("LOC", 4, 5), ("LOC", 5, 8)]
    tags = encode(spans, 9, scheme)
    assert decode_tags([tags], scheme=scheme, repair="error") == [spans]


def test_conll_roundtrip(tmp_path, data_dir):
    corpus = read(data_dir / "conll03" / "gold.conll")
    write(corpus, tmp_path / "g.conll", "conll")
    back = read(tmp_path / "g.conll")
    assert [d.tokens for d in back.values()] == [d.tokens for d in corpus.values()]
    assert [[(a.label, a.start, a.end) for a in d.annotations] for d in back.values()] == \
        [[(a.label, a.start, a.end) for a in d.annotations] for d in corpus.values()]


def test_conll_repair_modes(tmp_path):
    f = tmp_path / "x.conll"
    f.write_text("a O\nb I-PER\nc I-PER\n\nd B-LOC\n")
    assert [(a.label, a.start, a.end) for a in read(f)["1"].annotations] == [("PER", 1, 3), ("LOC", 3, 4)]
    assert [(a.label, a.start, a.end) for a in read(f, repair="discard")["1"].annotations] == [("LOC", 3, 4)]
    with pytest.raises(SchemeError, match=r"x\.conll:2: invalid IOB2 sequence: 'I-PER' between 'O'"):
        read(f, repair="error")


def test_conll_bad_inputs(tmp_path):
    f = tmp_path / "x.conll"
    f.write_text("a O\nb B-PER extra\n")
    with pytest.raises(FormatError, match=r"x\.conll:2: expected 2 columns"):
        read(f)
    f.write_text("a O\nb S-PER\nc X-PER\n")
    with pytest.raises(SchemeError, match=r"x\.conll:3: tag 'X-PER' is not a IOB2 tag"):
        read(f)
    f.write_text("a O\nb S-PER\n")     # read as conlleval reads it, with a warning (tests/model/test_tagging.py)
    with pytest.raises(SchemeError, match=r"x\.conll:2: tag 'S-PER' is not a IOB2 tag"):
        read(f, repair="error")
    g = tmp_path / "g.conll"
    g.write_text("a O\nb B-PER\n")
    p = tmp_path / "p.conll"
    p.write_text("a O\nc B-PER\n")
    with pytest.raises(AccordError, match=r"token 1 differs: 'b' at .*g\.conll:2 but 'c' at .*p\.conll:2"):
        accord.score(g, p)


def test_unpaired_documents(tmp_path):
    for side, ids in (("g", ("a", "b")), ("p", ("a", "c"))):
        (tmp_path / side).mkdir()
        for i in ids:
            (tmp_path / side / f"{i}.conll").write_text("x B-PER\n")
    with pytest.raises(AccordError, match=r"only in the gold side.*'b'.*only in the predicted side.*'c'"):
        accord.score(tmp_path / "g", tmp_path / "p")
    empty = accord.score(tmp_path / "g", tmp_path / "p", allow_missing="empty")
    assert (empty.totals.match, empty.totals.missing, empty.totals.spurious) == (1, 1, 1)
    skip = accord.score(tmp_path / "g", tmp_path / "p", allow_missing="skip")
    assert (skip.totals.match, skip.totals.missing, skip.totals.spurious) == (1, 0, 0)


def test_jsonl_bad_inputs(tmp_path):
    f = tmp_path / "x.jsonl"
    f.write_text('{"id": "a", "annotations": [{"label": "R", "attributes": {"arg": {"ref": "nope"}}}]}\n')
    with pytest.raises(FormatError, match=r"x\.jsonl:1: .*unknown annotation id 'nope'"):
        read(f)
    f.write_text('{"id": "a", "annotations": [{"id": "1", "label": "R", "attributes": {"a": {"ref": "2"}}},'
                 '{"id": "2", "label": "R", "attributes": {"a": {"ref": "1"}}}]}\n')
    with pytest.raises(FormatError, match="cycle"):
        read(f)
    f.write_text('{"id": "a"}\n{"id": "a"}\n')
    with pytest.raises(FormatError, match="appears twice"):
        read(f)
    f.write_text('{"id": "a",\n')
    with pytest.raises(FormatError, match=r"x\.jsonl:1: not valid JSON"):
        read(f)


def test_mat_json_reads_the_documented_example(tmp_path):
    # the example document of MAT's JSON v2 format (../shared/notes/mat-scorer.md, section 4)
    f = tmp_path / "voa.txt.json"
    f.write_text('{"signal": "John F. Kennedy visited Guam.", "metadata": {}, "version": 2, "asets": ['
                 '{"type": "PERSON", "hasID": true, "hasSpan": true, '
                 '"attrs": [{"name": "nomtype", "type": "string", "aggregation": null}], "annots": [[0, 15, "1", "NAM"]]},'
                 '{"type": "LOCATION", "hasID": true, "hasSpan": true, "attrs": [], "annots": [[24, 28, "2"]]},'
                 '{"type": "VISIT", "hasID": false, "hasSpan": false, '
                 '"attrs": [{"name": "agent", "type": "annotation", "aggregation": null},'
                 '{"name": "place", "type": "annotation", "aggregation": null}], "annots": [["1", "2"]]}]}')
    doc = read(f)["voa"]
    person, loc, visit = doc.annotations
    assert doc.surface(person.start, person.end) == "John F. Kennedy" and person.attributes["nomtype"] == "NAM"
    assert doc.surface(loc.start, loc.end) == "Guam"
    assert visit.start is None and visit.attributes["agent"] is person and visit.attributes["place"] is loc
    f.write_text('{"signal": "x", "version": 3, "asets": []}')
    with pytest.raises(FormatError, match="version 3"):
        read(f)


def test_conll_comment_lines_are_skipped_and_kept(tmp_path):
    p = tmp_path / "c.conll"
    p.write_text("# sent_id = 1\n# text = John ran\nJohn B-PER\nran O\n\n"
                 "# id 7f domain=en\n#hashtag B-MISC\nis O\n", encoding="utf-8")
    corpus = read(p, "conll")
    (doc,) = corpus.documents
    assert doc.tokens == ("John", "ran", "#hashtag", "is")
    assert [(a.label, a.start, a.end) for a in doc.annotations] == [("PER", 0, 1), ("MISC", 2, 3)]
    assert doc.metadata["comments"] == ((0, "# sent_id = 1"), (0, "# text = John ran"), (2, "# id 7f domain=en"))


def test_jsonl_fragments_round_trip_and_bad_pieces_are_errors(tmp_path):
    good = {"id": "d", "text": "Ada and Bob", "annotations": [
        {"label": "PER", "start": 0, "end": 11, "fragments": [[8, 11], [0, 3]]}]}
    path = tmp_path / "a.jsonl"
    path.write_text(json.dumps(good) + "\n")
    a = read(path)["d"].annotations[0]
    assert (a.start, a.end, a.fragments) == (0, 11, ((0, 3), (8, 11)))
    write(read(path), tmp_path / "b.jsonl", "jsonl")
    assert json.loads((tmp_path / "b.jsonl").read_text())["annotations"][0]["fragments"] == [[0, 3], [8, 11]]
    for frags, start, end in (([[0, 3], [2, 11]], 0, 11), ([[0, 3], [8, 11]], 0, 12), ([[3, 0]], 0, 3),
                              ([[0, 3]], None, None)):
        bad = {"id": "d", "text": "Ada and Bob", "annotations": [
            {"label": "PER", "start": start, "end": end, "fragments": frags}]}
        path.write_text(json.dumps(bad) + "\n")
        with pytest.raises(FormatError, match=r"a\.jsonl:1: .*fragments must be disjoint pieces"):
            read(path)
