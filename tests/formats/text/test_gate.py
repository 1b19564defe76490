"""GATE XML documents: GATE's own test documents, round trips, typed features, bad input."""

from collections import Counter
from pathlib import Path

import pytest

from accord.errors import AccordError, FormatError
from accord.formats import read, sniff, write
from accord.formats.text.gate import read_gate, read_gate_sets, write_gate
from accord.model import Corpus, Document
from accord.model import make_annotation as A

DATA = Path(__file__).parents[2] / "data" / "gate"


def test_reads_every_set_of_gates_test_document():
    doc, sets = read_gate_sets(DATA / "beijing-opera.xml")
    assert {k: len(v) for k, v in sets.items()} == {"": 0, "Original markups": 2, "ann1": 38, "ann2": 22, "ann3": 23}
    assert Counter(a.label for a in sets["ann1"]) == {"sent": 19, "Location": 14, "Os": 5}
    assert doc.metadata["MimeType"] == "text/xml"
    # node 1 .. 8 encloses "Beijing" (the text starts with a newline between nodes 0 and 1)
    loc = min((a for a in sets["ann1"] if a.label == "Location"), key=lambda a: a.start)
    assert (loc.start, loc.end) == (1, 8) and doc.text[loc.start:loc.end] == "Beijing"
    sent = next(a for a in sets["ann1"] if a.label == "sent" and a.id == "23")
    assert doc.text[sent.start:sent.end] == "Beijing opera features four main types of performers."
    assert {a.attributes.get("Op") for a in sets["ann1"] if a.label == "sent"} <= {"true", "false", "", None}


def test_read_one_set_and_registry():
    assert sniff(DATA / "beijing-opera.xml").name == "gate"
    corpus = read(DATA / "beijing-opera.xml", annotation_set="ann2")
    assert list(corpus) == ["beijing-opera"]
    assert len(corpus["beijing-opera"].annotations) == 22
    assert read_gate(DATA / "beijing-opera.xml").documents[0].annotations == ()   # default set: empty
    with pytest.raises(FormatError, match=r"no annotation set 'ann9'; the document has .*'ann1'"):
        read_gate(DATA / "beijing-opera.xml", annotation_set="ann9")


def test_directory_of_gate_documents(tmp_path):
    for name in ("beijing-opera.xml", "beijing-opera-2.xml"):
        (tmp_path / name).write_bytes((DATA / name).read_bytes())
    corpus = read(tmp_path, annotation_set="ann1")
    assert {d.id: len(d.annotations) for d in corpus.documents} == {"beijing-opera": 38, "beijing-opera-2": 37}


def test_large_html_document_offsets_fit_the_text():
    doc, sets = read_gate_sets(DATA / "in-outlook-09-aug-2001.xml")
    assert Counter(a.label for a in sets[""])["Token"] == 1446
    for a in sets[""]:
        assert 0 <= a.start <= a.end <= len(doc.text)
    words = [a for a in sets[""] if a.label == "Token" and a.attributes.get("kind") == "word"]
    # a Token's string feature is its text: the node map put every offset in place
    assert all(doc.text[a.start:a.end] == a.attributes["string"] for a in words)


def test_round_trip_keeps_types_sets_and_non_bmp_offsets(tmp_path):
    text = "Ünïcode 😀 emoji then Paris."
    anns = (A("Emoji", 8, 9, {"n": 3, "big": 2 ** 40, "conf": 0.5, "ok": True, "s": "1"}, "5"),
            A("Location", 21, 26, {"kind": "city <&>"}, "6"))
    doc = Document("d", anns, text, metadata={"MimeType": "text/plain"})
    out = tmp_path / "d.xml"
    write_gate(Corpus([doc]), out, annotation_set="Key")
    raw = out.read_text(encoding="utf-8")
    assert 'className="java.lang.Long"' in raw and 'className="java.lang.Double"' in raw
    # the emoji is two UTF-16 code units: Paris starts at UTF-16 offset 22, code point 21
    assert '<Node id="22"/>Paris' in raw
    back, sets = read_gate_sets(out)
    assert back.text == text and set(sets) == {"Key"}
    got = sets["Key"]
    assert [(a.label, a.start, a.end, a.id) for a in got] == [("Emoji", 8, 9, "5"), ("Location", 21, 26, "6")]
    attrs = dict(got[0].attributes)
    assert attrs == {"n": 3, "big": 2 ** 40, "conf": 0.5, "ok": True, "s": "1"}
    assert [type(attrs[k]) for k in ("n", "conf", "ok", "s")] == [int, float, bool, str]
    assert got[1].attributes["kind"] == "city <&>"
    assert back.metadata["MimeType"] == "text/plain"


def test_gate_document_round_trip_through_the_writer(tmp_path):
    doc, sets = read_gate_sets(DATA / "beijing-opera.xml")
    write_gate(Corpus([doc._replace(annotations=sets["ann1"])]), tmp_path / "b.xml", annotation_set="ann1")
    back, back_sets = read_gate_sets(tmp_path / "b.xml")
    assert back.text == doc.text
    assert [tuple(a) for a in back_sets["ann1"]] == [tuple(a) for a in sets["ann1"]]


def test_repeated_ids_are_renumbered(tmp_path):
    doc = Document("d", (A("X", 0, 1, None, "1"), A("X", 1, 2, None, "1")), "ab")
    write_gate(Corpus([doc]), tmp_path / "d.xml")
    _, sets = read_gate_sets(tmp_path / "d.xml")
    assert sorted(a.id for a in sets[""]) == ["0", "1"]


GOOD_HEAD = '<GateDocument version="3"><TextWithNodes><Node id="0"/>abc<Node id="3"/></TextWithNodes>'


@pytest.mark.parametrize("body,message", [
    ("<GateDocument><TextWithNodes>", "not well-formed XML"),
    ("<Other/>", "expected a <GateDocument> root element, found <Other>"),
    ('<GateDocument version="3"></GateDocument>', "no <TextWithNodes>"),
    (GOOD_HEAD + '<AnnotationSet><Annotation Id="1" Type="X" StartNode="0" EndNode="9"/></AnnotationSet>'
     "</GateDocument>", r"annotation set '\(default\)', annotation 1: StartNode '0' or EndNode '9' is not a <Node>"),
    (GOOD_HEAD + '<AnnotationSet><Annotation Id="1" StartNode="0" EndNode="3"/></AnnotationSet></GateDocument>',
     "annotation 1: no Type"),
    (GOOD_HEAD + '<AnnotationSet Name="K"><Annotation Id="1" Type="X" StartNode="0" EndNode="3"/>'
     '<Annotation Id="1" Type="X" StartNode="0" EndNode="3"/></AnnotationSet></GateDocument>',
     "annotation set 'K', annotation 1: the Id repeats"),
    (GOOD_HEAD + '<AnnotationSet><Annotation Id="1" Type="X" StartNode="3" EndNode="0"/></AnnotationSet>'
     "</GateDocument>", "ends .* before it starts"),
    (GOOD_HEAD + '<AnnotationSet><Annotation Id="1" Type="X" StartNode="0" EndNode="3"><Feature>'
     '<Name className="java.lang.String">n</Name><Value className="java.lang.Integer">x1</Value></Feature>'
     "</Annotation></AnnotationSet></GateDocument>", r"feature 'n': 'x1' is not a valid java.lang.Integer"),
    (GOOD_HEAD + "<AnnotationSet/><AnnotationSet/></GateDocument>", "appears twice"),
])
def test_bad_documents_name_the_file_and_the_fault(tmp_path, body, message):
    f = tmp_path / "bad.xml"
    f.write_text(body, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        read_gate_sets(f)
    assert str(f) in str(info.value)


def test_external_entities_and_entity_expansion_are_refused(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("secret")
    f = tmp_path / "xxe.xml"
    f.write_text(f'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x SYSTEM "file://{secret}">]>'
                 '<GateDocument><TextWithNodes>&x;</TextWithNodes></GateDocument>', encoding="utf-8")
    with pytest.raises(FormatError, match="refused unsafe XML"):
        read_gate_sets(f)
    bomb = tmp_path / "bomb.xml"
    bomb.write_text('<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]>'
                    "<GateDocument><TextWithNodes>&b;</TextWithNodes></GateDocument>", encoding="utf-8")
    with pytest.raises(FormatError, match="refused unsafe XML"):
        read_gate_sets(bomb)


def test_writer_refuses_what_gate_xml_cannot_hold(tmp_path):
    two = Corpus([Document("a", (), "x"), Document("b", (), "y")])
    with pytest.raises(FormatError, match="holds one document; the corpus has 2"):
        write_gate(two, tmp_path / "x.xml")
    spanless = Corpus([Document("a", (A("REL"),), "x")])
    with pytest.raises(FormatError, match="has no span"):
        write_gate(spanless, tmp_path / "x.xml")
    tokens = Corpus([Document("a", (A("X", 0, 1),), None, ("tok",))])
    with pytest.raises(FormatError, match="has tokens, not text"):
        write(tokens, tmp_path / "x.xml", "gate")
    ref = A("X", 0, 1)
    nested = Corpus([Document("a", (ref, A("Y", 0, 1, {"arg": ref})), "x")])
    with pytest.raises(AccordError, match="attribute 'arg' of 'Y' is a Annotation"):
        write_gate(nested, tmp_path / "x.xml")
