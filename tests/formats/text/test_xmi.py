"""UIMA CAS XMI through dkpro-cassis: its own test file, and files built with cassis, against counts by hand."""

import random
import shutil
import time
import tracemalloc
import warnings

import pytest

import accord
from accord.errors import AccordError, AccordWarning, FormatError, OptionError

from ...conftest import DATA

cassis = pytest.importorskip("cassis")

NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"


def test_cassis_test_file_tokens_by_pos(tmp_path):
    """small_cas.xmi (11 tokens with POS tags); a copy with one tag changed ("late" JJ -> RB) scores 10 of 11."""
    gold = tmp_path / "gold"
    pred = tmp_path / "pred"
    shutil.copytree(DATA / "cassis", gold)
    shutil.copytree(DATA / "cassis", pred)
    text = (pred / "small_cas.xmi").read_text()
    (pred / "small_cas.xmi").write_text(text.replace('id="9" pos="JJ"', 'id="9" pos="RB"'))
    corpus = accord.read(gold / "small_cas.xmi", layer="Token:pos")
    (doc,) = corpus.documents
    assert [doc.surface(a.start, a.end) for a in doc.annotations][:4] == ["Joe", "waited", "for", "the"]
    report = accord.score(gold, pred, layer="Token:pos")
    assert (report.totals["gold"], report.totals["match"]) == (11, 10)
    assert report.by_label["JJ"]["missing"] == 1 and report.by_label["RB"]["spurious"] == 1


def _named_entities(path, text, spans):
    ts = cassis.load_dkpro_core_typesystem()
    entity = ts.get_type(NE)
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = text
    for start, end, label in spans:
        cas.add(entity(begin=start, end=end, value=label))
    path.parent.mkdir(exist_ok=True)
    cas.to_xmi(path)
    ts.to_xml(path.parent / "TypeSystem.xml")


@pytest.mark.parametrize("seed", range(5))
def test_named_entities_against_a_set_count(tmp_path, seed):
    """Random entities over a text with an emoji (UIMA counts UTF-16 units; cassis converts): accord's matches
    equal the size of the intersection of the (start, end, label) sets, counted here."""
    rng = random.Random(seed)
    text = "Ada 😀 Lovelace met Charles Babbage in London and Paris in 1833."
    words = [(m.start(), m.end()) for m in __import__("re").finditer(r"\S+", text)]
    gold = {(s, e, rng.choice(["PER", "LOC"])) for s, e in rng.sample(words, 6)}
    pred = {(s, e, lab if rng.random() < 0.7 else "ORG") for s, e, lab in gold if rng.random() < 0.8}
    pred |= {(s, e, "LOC") for s, e in rng.sample(words, 2)} - {(s, e, "LOC") for s, e, _ in gold}
    _named_entities(tmp_path / "g" / "doc.xmi", text, sorted(gold))
    _named_entities(tmp_path / "p" / "doc.xmi", text, sorted(pred))
    report = accord.score(tmp_path / "g", tmp_path / "p")
    assert report.totals["match"] == len(gold & pred)
    assert (report.totals["gold"], report.totals["pred"]) == (len(gold), len(pred))
    read = accord.read(tmp_path / "g" / "doc.xmi").documents[0]
    assert all(text[a.start:a.end] in text.split() for a in read.annotations)


def _span_and_relation_types():
    """A type system of custom.Span (label) and custom.Relation (Governor, Dependent, label), with both types."""
    ts = cassis.TypeSystem()
    span = ts.create_type("custom.Span", supertypeName="uima.tcas.Annotation")
    ts.create_feature(span, "label", "uima.cas.String")
    relation = ts.create_type("custom.Relation", supertypeName="uima.tcas.Annotation")
    ts.create_feature(relation, "Governor", "custom.Span")
    ts.create_feature(relation, "Dependent", "custom.Span")
    ts.create_feature(relation, "label", "uima.cas.String")
    return ts, span, relation


def test_custom_layers_with_relations(tmp_path):
    ts, span, relation = _span_and_relation_types()

    def write(folder, dependent_end):
        cas = cassis.Cas(typesystem=ts)
        cas.sofa_string = "Alice met Bob and Carol."
        a, b = span(begin=0, end=5, label="PER"), span(begin=10, end=dependent_end, label="PER")
        cas.add_all([a, b, relation(begin=10, end=dependent_end, Governor=a, Dependent=b, label="meets")])
        folder.mkdir()
        cas.to_xmi(folder / "doc.xmi")
        ts.to_xml(folder / "TypeSystem.xml")

    write(tmp_path / "g", 13)
    write(tmp_path / "p", 23)          # the dependent spans "Bob and Carol": it and the relation fail (by hand)
    layer = "Span:label,Relation:label"
    (doc,) = accord.read(tmp_path / "g" / "doc.xmi", layer=layer).documents
    meets = [a for a in doc.annotations if a.label == "meets"][0]
    assert meets.get("Governor").label == "PER" and doc.surface(meets.get("Dependent").start, 13) == "Bob"
    report = accord.score(tmp_path / "g", tmp_path / "p", layer=layer)
    assert (report.totals["gold"], report.totals["match"]) == (3, 1)


def test_errors_name_the_types(tmp_path):
    _named_entities(tmp_path / "g" / "doc.xmi", "Alice", [(0, 5, "PER")])
    with pytest.raises(OptionError, match="no type 'Nope'"):
        accord.read(tmp_path / "g" / "doc.xmi", layer="Nope")
    with pytest.raises(OptionError, match="has no feature 'colour'"):
        accord.read(tmp_path / "g" / "doc.xmi", layer="NamedEntity:colour")
    # a type the type system declares but the file does not annotate: a document without such annotations
    assert accord.read(tmp_path / "g" / "doc.xmi", layer="Token").documents[0].annotations == ()
    (tmp_path / "g" / "bad.xmi").write_text("<xmi:XMI xmlns:xmi='http://www.omg.org/XMI'><broken")
    with pytest.raises(AccordError, match="not UIMA CAS XMI"):
        accord.read(tmp_path / "g" / "bad.xmi")


def test_write_and_read_back(tmp_path):
    corpus = accord.read(DATA / "doccano" / "sequence_labeling.jsonl")
    one = accord.Corpus([corpus["1"]])
    accord.write(one, tmp_path / "doc.xmi", "xmi")
    again = accord.read(tmp_path / "doc.xmi")
    assert [(a.label, a.start, a.end) for a in again.documents[0].annotations] == [("ORG", 0, 2), ("MISC", 11, 17)]
    with pytest.raises(AccordError, match="holds one document"):
        accord.write(corpus, tmp_path / "all.xmi", "xmi")


def _coref_cas(path, chains):
    """A CAS of 'Mary saw her dog. It barked at Mary.' with DKPro Core coreference chains of (begin, end) spans."""
    ts = cassis.load_dkpro_core_typesystem()
    chain_type = ts.get_type("de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceChain")
    link_type = ts.get_type("de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = "Mary saw her dog. It barked at Mary.\n"
    for spans in chains:
        links = [link_type(begin=b, end=e) for b, e in spans]
        for link, following in zip(links, links[1:]):
            link.next = following
        cas.add_all(links)
        cas.add(chain_type(first=links[0]))
    path.parent.mkdir(exist_ok=True)
    cas.to_xmi(path)


def test_coreference_chains(tmp_path):
    """The chains of tests/formats/coref/test_from_spans.py as DKPro Core CoreferenceChains: the same MUC by hand."""
    _coref_cas(tmp_path / "g" / "d.xmi", [[(0, 4), (9, 12), (31, 35)], [(9, 16), (18, 20)]])
    _coref_cas(tmp_path / "p" / "d.xmi", [[(0, 4), (9, 12)], [(9, 16), (18, 20), (31, 35)]])
    from accord.formats.coref.clusters import read_coref

    assert read_coref(tmp_path / "g") == {"d": [[(0, 3), (9, 11), (31, 34)], [(9, 15), (18, 19)]]}
    muc = accord.coref(tmp_path / "g", tmp_path / "p").source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 3, 2, 3)


def test_an_empty_document_reads_back(tmp_path, capsys):
    """accord convert writes the XMI of a document without annotations; it reads back as that document (it was
    refused: 'no annotation of NamedEntity'), and scores as one whose gold items are all missing."""
    from accord.cli import main

    (tmp_path / "e.jsonl").write_text('{"id": "d", "text": "Hello world", "annotations": []}\n', encoding="utf-8")
    (tmp_path / "p").mkdir()
    assert main(["convert", str(tmp_path / "e.jsonl"), str(tmp_path / "p" / "d.xmi")]) == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (doc,) = accord.read(tmp_path / "p" / "d.xmi").documents
    assert (doc.text, doc.annotations) == ("Hello world", ())
    _named_entities(tmp_path / "g" / "d.xmi", "Hello world", [(0, 5, "X")])
    report = accord.score(tmp_path / "g", tmp_path / "p")
    assert (report.totals["gold"], report.totals["pred"], report.totals["missing"]) == (1, 0, 1)


@pytest.mark.timing
def test_a_text_over_the_parser_limit_is_refused_before_parsing(tmp_path):
    """lxml refuses a text over 10,000,000 bytes, once after 2.9 GB and 6 s: now before parsing, the limit named."""
    ts = tmp_path / "TypeSystem.xml"
    _named_entities(tmp_path / "doc.xmi", "a", [])
    big = tmp_path / "big.xmi"
    big.write_text((tmp_path / "doc.xmi").read_text().replace('sofaString="a"', 'sofaString="' + "a" * 10_000_001 + '"'))
    assert ts.is_file() and big.stat().st_size > 10_000_001
    tracemalloc.start()
    began = time.perf_counter()
    try:
        with pytest.raises(FormatError, match="more than 10,000,000 bytes"):
            accord.read(big)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 30_000_000 and time.perf_counter() - began < 5
    # just under the limit: read
    big.write_text((tmp_path / "doc.xmi").read_text().replace('sofaString="a"', 'sofaString="' + "a" * 1_000_000 + '"'))
    assert len(accord.read(big).documents[0].text) == 1_000_000


def test_library_warnings_stay_quiet(tmp_path, capsys):
    """cassis's own warnings ('open_binary is deprecated' when it loads DKPro Core's type system, 'select_all is
    deprecated') are not accord's: they do not reach the user; accord's warnings do."""
    from accord.cli import main
    from accord.formats.text.xmi import _parsed_type_system

    _named_entities(tmp_path / "doc.xmi", "Alice", [(0, 5, "PER")])
    (tmp_path / "TypeSystem.xml").unlink()          # DKPro Core's type system, from cassis's resources
    _parsed_type_system.cache_clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (doc,) = accord.read(tmp_path / "doc.xmi", layer="Token").documents
        accord.read(tmp_path / "doc.xmi")
    assert doc.annotations == () and [str(w.message) for w in caught] == []
    _parsed_type_system.cache_clear()
    assert main(["convert", str(tmp_path / "doc.xmi"), str(tmp_path / "o.jsonl")]) == 0
    assert "deprecated" not in capsys.readouterr().err


def test_relation_endpoints_not_read_are_counted(tmp_path):
    """A relation layer read alone: its Governor and Dependent point to spans not read; left out with a warning
    counting them and naming the option that reads them (they were dropped without a word)."""
    ts, span, relation = _span_and_relation_types()
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = "Alice met Bob and Carol."
    a, b, c = span(begin=0, end=5, label="PER"), span(begin=10, end=13, label="PER"), span(begin=18, end=23)
    cas.add_all([a, b, c, relation(begin=10, end=13, Governor=a, Dependent=b, label="meets"),
                 relation(begin=18, end=23, Governor=a, Dependent=c, label="meets")])
    cas.to_xmi(tmp_path / "doc.xmi")
    ts.to_xml(tmp_path / "TypeSystem.xml")
    with pytest.warns(AccordWarning, match=r"Relation.Dependent -> Span: 2; Relation.Governor -> Span: 2\); read "
                                           r"them too with --layer Relation,Span"):
        (doc,) = accord.read(tmp_path / "doc.xmi", layer="Relation:label").documents
    assert [(x.label, x.start, dict(x.attributes)) for x in doc.annotations] == [("meets", 10, {}), ("meets", 18, {})]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (doc,) = accord.read(tmp_path / "doc.xmi", layer="Relation,Span").documents
    assert sorted(x.get("Dependent").end for x in doc.annotations if x.label == "meets") == [13, 23]


def test_types_missing_from_the_type_system_are_named(tmp_path):
    """cassis's lenient reading leaves out annotations of types the type system lacks: one warning names them."""
    _named_entities(tmp_path / "doc.xmi", "Alice", [(0, 5, "PER")])
    small = cassis.TypeSystem()
    small.create_type("custom.Other", supertypeName="uima.tcas.Annotation")
    small.to_xml(tmp_path / "TypeSystem.xml")
    with pytest.warns(AccordWarning, match="types the type system lacks left out: .*NamedEntity"):
        (doc,) = accord.read(tmp_path / "doc.xmi", layer="Other").documents
    assert doc.annotations == ()
