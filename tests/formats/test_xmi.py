"""UIMA CAS XMI through dkpro-cassis: its own test file, and files built with cassis, against counts by hand."""

import random
import shutil

import pytest

import accord
from accord.errors import AccordError, OptionError

from ..conftest import DATA

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


def test_custom_layers_with_relations(tmp_path):
    ts = cassis.TypeSystem()
    span = ts.create_type("custom.Span", supertypeName="uima.tcas.Annotation")
    ts.create_feature(span, "label", "uima.cas.String")
    relation = ts.create_type("custom.Relation", supertypeName="uima.tcas.Annotation")
    ts.create_feature(relation, "Governor", "custom.Span")
    ts.create_feature(relation, "Dependent", "custom.Span")
    ts.create_feature(relation, "label", "uima.cas.String")

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
    with pytest.raises(AccordError, match="no annotation of .*Token"):
        accord.read(tmp_path / "g" / "doc.xmi", layer="Token")
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
    """The chains of tests/formats/test_coref_spans.py as DKPro Core CoreferenceChains: the same MUC by hand."""
    _coref_cas(tmp_path / "g" / "d.xmi", [[(0, 4), (9, 12), (31, 35)], [(9, 16), (18, 20)]])
    _coref_cas(tmp_path / "p" / "d.xmi", [[(0, 4), (9, 12)], [(9, 16), (18, 20), (31, 35)]])
    from accord.formats.coref import read_coref

    assert read_coref(tmp_path / "g") == {"d": [[(0, 3), (9, 11), (31, 34)], [(9, 15), (18, 19)]]}
    muc = accord.coref(tmp_path / "g", tmp_path / "p").source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 3, 2, 3)
