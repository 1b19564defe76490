"""accord's own XMI parser (:mod:`accord.formats.text._xmi_parser`) against dkpro-cassis, on every XMI file of the
shared data and corpora (INCEpTION's and WebAnno's test suites, cassis's own file): the same documents (ids, text,
spans, labels, attributes, relations, link features), chains, warnings and errors, for every layer the file holds;
and what it refuses that cassis would read (a document type declaration: no DTD, no entities, no network)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.errors import FormatError
from accord.formats.text import xmi

from ...conftest import SHARED
from .xmi_paths import both_ways

cassis = pytest.importorskip("cassis")

_FILES = sorted(p for root in ("data", "corpora") if (SHARED / root).is_dir() for p in (SHARED / root).rglob("*.xmi"))


def _type_systems(f: Path) -> list[str | None]:
    """The type system beside the file (or DKPro Core's), and each project type system in a folder above it."""
    above = [d / n for d in f.parents[1:] for n in ("TypeSystem.xml", "typesystem.xml")]
    return [None, *(str(t) for t in above if t.is_file() and SHARED in t.parents)]


def _layers(f: Path, ts: str | None) -> list[str | None]:
    """The default layer, each annotation type the file holds, and all of them together."""
    try:
        with f.open("rb") as fh:
            cas = cassis.load_cas_from_xmi(fh, typesystem=xmi._type_system(f, ts), lenient=True)
    except Exception:   # a file cassis refuses: the default layer only (the error is compared)
        return [None]
    held = sorted({a.type.name for a in cas.select_all_annotations()})
    return [None, *held, ",".join(held)] if held else [None]


def test_the_shared_xmi_files_are_there():
    if not _FILES:
        pytest.skip(f"no XMI file under {SHARED} (clone the project beside shared/, as CI does)")
    assert len(_FILES) >= 148     # 74 + 73 INCEpTION/WebAnno suite cases, cassis's small_cas.xmi (2026-11-26)


@pytest.mark.parametrize("f", _FILES, ids=[str(f.relative_to(SHARED)) for f in _FILES])
def test_every_shared_xmi_file_reads_the_same_as_through_cassis(f, monkeypatch, recwarn):
    readings = 0
    for ts in _type_systems(f):
        for layer in _layers(f, ts):
            own, through_cassis, by_own = both_ways(
                lambda layer=layer, ts=ts: accord.formats.read(f, "xmi", layer=layer, typesystem=ts), monkeypatch)
            assert own == through_cassis, (ts, layer)
            assert own[0] != "crash"
            # the own parser read it, unless cassis refuses the file too (then cassis words the error)
            assert by_own or through_cassis[0] == "error", (ts, layer)
            readings += by_own
        own, through_cassis, _ = both_ways(lambda ts=ts: xmi.read_coref_xmi(f, ts), monkeypatch)
        assert own == through_cassis, (ts, "chains")
    assert readings


def test_the_suites_chains_links_and_relations_are_read_by_the_own_parser(monkeypatch):
    """Not cassis against itself: with the project's type system, the own parser reads the suite's chains, slots
    and relations (hand count of testStackedChain: two chains, of 3 and 3 links; testSimpleSlotFeature: roles p1
    and p2 pointing to the spans at 5-7 and 8-9)."""
    suite = SHARED / "corpora" / "outside3b" / "webanno"
    if not (suite / "TypeSystem.xml").is_file():
        pytest.skip("INCEpTION's TSV 3 suite is absent")
    ts = str(suite / "TypeSystem.xml")
    chains, _, by_own = both_ways(lambda: xmi.read_coref_xmi(suite / "tsv3-suite" / "testStackedChain" /
                                                             "reference.xmi", ts), monkeypatch)
    assert by_own and chains[0] == "ok"
    assert chains[1] == repr({"reference": [[(0, 3), (5, 6), (8, 8)], [(0, 3), (5, 6), (8, 8)]]})
    f = suite / "tsv3-suite" / "testSimpleSlotFeature" / "reference.xmi"
    (doc,) = accord.read(f, layer="SimpleLinkHost,SimpleSpan", typesystem=ts).documents
    host = next(a for a in doc.annotations if a.label == "SimpleLinkHost")
    assert host.attributes["links"] == ("p1", "p2")
    assert [(t.start, t.end) for t in host.attributes["links.targets"]] == [(5, 7), (8, 9)]


def _xmi(text: str, entities: list[tuple[int, int, str]], head: str = "") -> str:
    """A small XMI file of DKPro Core named entities (offsets in UTF-16 units, as UIMA writes them)."""
    ne = "".join(f'<type:NamedEntity xmi:id="{k + 2}" sofa="1" begin="{b}" end="{e}" value="{v}"/>'
                 for k, (b, e, v) in enumerate(entities))
    members = " ".join(str(k + 2) for k in range(len(entities)))
    return (f'<?xml version="1.0" encoding="UTF-8"?>{head}<xmi:XMI xmlns:xmi="http://www.omg.org/XMI" '
            'xmlns:cas="http:///uima/cas.ecore" xmlns:type="http:///de/tudarmstadt/ukp/dkpro/core/api/ner/type.ecore" '
            f'xmi:version="2.0"><cas:NULL xmi:id="0"/>{ne}<cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" '
            f'mimeType="text" sofaString="{text}"/><cas:View sofa="1" members="{members}"/></xmi:XMI>')


def test_utf16_offsets_are_mapped_only_outside_the_basic_plane(tmp_path, monkeypatch):
    """Hand count: in "a 😀 b é c", UIMA's offsets of "b" are 5-6 (the emoji is two UTF-16 units), Python's 4-5;
    of "é" 7-8 and 6-7. Without the emoji ("a b é c") no mapping: "é" at 4-5 both ways."""
    f = tmp_path / "d.xmi"
    f.write_text(_xmi("a 😀 b é c", [(5, 6, "B"), (7, 8, "E"), (2, 4, "EMO")]), encoding="utf-8")
    own, through_cassis, by_own = both_ways(lambda: accord.read(f).documents, monkeypatch)
    assert by_own and own == through_cassis
    (doc,) = accord.read(f).documents
    assert [(a.label, a.start, a.end, doc.text[a.start:a.end]) for a in doc.annotations] == [
        ("EMO", 2, 3, "😀"), ("B", 4, 5, "b"), ("E", 6, 7, "é")]
    f.write_text(_xmi("a b é c", [(4, 5, "E")]), encoding="utf-8")
    (doc,) = accord.read(f).documents
    assert [(a.start, a.end, doc.text[a.start:a.end]) for a in doc.annotations] == [(4, 5, "é")]


def test_ampersands_and_character_references_in_values(tmp_path, monkeypatch):
    """A label holding ``&amp;``, ``&#38;``, ``&lt;`` and ``&#10;`` is the text they stand for (libxml2 hands a parser
    target ``&#38;`` for ``&`` unless entities are resolved; this failed before that was set)."""
    f = tmp_path / "d.xmi"
    f.write_text(_xmi("x y", [(0, 1, "A&amp;B&#38;C&lt;D&#10;E")]), encoding="utf-8")
    own, through_cassis, by_own = both_ways(lambda: accord.read(f).documents, monkeypatch)
    assert by_own and own == through_cassis
    (doc,) = accord.read(f).documents
    assert doc.annotations[0].label == "A&B&C<D\nE"


_DOCTYPES = {
    "internal entity": '<!DOCTYPE xmi:XMI [<!ENTITY who "Ada">]>',
    "external entity": '<!DOCTYPE xmi:XMI [<!ENTITY who SYSTEM "file:///etc/hostname">]>',
    "external DTD": '<!DOCTYPE xmi:XMI SYSTEM "http://127.0.0.1:9/x.dtd">',
    "billion laughs": '<!DOCTYPE xmi:XMI [<!ENTITY a "aaaaaaaaaa">' + "".join(
        f'<!ENTITY {c} "{("&" + p + ";") * 10}">' for p, c in zip("abcdefgh", "bcdefghi")) + "]>",
}


@pytest.mark.timing
@pytest.mark.parametrize("kind", list(_DOCTYPES))
def test_a_document_type_declaration_is_refused(tmp_path, capsys, kind):
    """Before, cassis (lxml's defaults) read an internal entity into the text: "&who;" became "Ada"."""
    f = tmp_path / "d.xmi"
    text = "&who; met Bob" if kind != "billion laughs" else "&i;"
    f.write_text(_xmi(text, [(0, 3, "PER")], head=_DOCTYPES[kind]), encoding="utf-8")
    start = time.process_time()
    with pytest.raises(FormatError, match="document type declaration"):
        accord.read(f)
    assert time.process_time() - start < 2
    # also when the prolog is longer than the bytes checked before parsing (the parser refuses it)
    f.write_text(_xmi(text, [(0, 3, "PER")], head="<!--" + " " * 70_000 + "-->" + _DOCTYPES[kind]),
                 encoding="utf-8")
    with pytest.raises(FormatError, match="document type declaration"):
        accord.read(f)
    os.chdir(tmp_path)
    assert main(["score", "d.xmi", "d.xmi"]) == 2
    err = capsys.readouterr().err.strip()
    assert "document type declaration" in err and "\n" not in err


def test_a_chain_whose_first_link_is_no_link_is_an_error(tmp_path, monkeypatch):
    """A chain's ``first`` pointing to a span without ``next``: an error naming the chain (before, both readers
    stopped on an AttributeError: a traceback)."""
    ts = cassis.TypeSystem()
    span = ts.create_type("webanno.custom.Span", supertypeName="uima.tcas.Annotation")
    link = ts.create_type("webanno.custom.MentionLink", supertypeName="uima.tcas.Annotation")
    ts.create_feature(link, "next", link.name)
    chain = ts.create_type("webanno.custom.MentionChain", supertypeName="uima.cas.AnnotationBase")
    ts.create_feature(chain, "first", link.name)
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = "Ada met Bob ."
    bob = link(begin=8, end=11)
    for fs in (span(begin=0, end=3), bob, chain(first=bob)):
        cas.add(fs)
    xml = cas.to_xmi()
    first = xml.split('first="')[1].split('"')[0]
    span_id = xml.split("<custom:Span")[1].split('xmi:id="')[1].split('"')[0]
    f = tmp_path / "doc.xmi"
    f.write_text(xml.replace(f'first="{first}"', f'first="{span_id}"'), encoding="utf-8")
    (tmp_path / "TypeSystem.xml").write_text(ts.to_xml(), encoding="utf-8")
    own, through_cassis, by_own = both_ways(lambda: xmi.read_coref_xmi(f), monkeypatch)
    assert by_own and own == through_cassis
    assert own[:2] == ("error", "FormatError") and "is a webanno.custom.Span, not a link" in own[2]
