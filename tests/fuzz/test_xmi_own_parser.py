"""accord's own XMI parser against dkpro-cassis on broken and odd files: a small project's XMI (spans with
string, number and boolean features, a relation, a link feature, a chain, an emoji in the text) written by cassis,
then corrupted: bytes (:func:`strategies.corrupt_bytes`) or its structure (a value made junk, an attribute dropped
or added, an element repeated, nested, renamed to a type the type system lacks, the view's members changed).
Whatever the file, every reading (several layers, and the chains) gives the same documents, warnings and error
messages through the own parser as through cassis alone; the own parser handing a file to cassis is allowed."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.formats.text import xmi

from ..formats.text.xmi_paths import both_ways
from .harness import PROFILE
from .strategies import corrupt_bytes

settings.load_profile(PROFILE)
cassis = pytest.importorskip("cassis")

_LAYERS = [None, "Span", "Span:rank", "Span,Rel", "Host,Span", "Rel", "MentionLink", "Span:checked,Host"]
_JUNK_VALUES = ["", "x", "-1", "0", "7", "99999", "1.5", "NaN", "true", "TRUE", " 3", "2 3", "0x10", "1_0", "&amp;",
                "&#10;", "😀", "9" * 30]
_ATTRIBUTE = re.compile(rb' ([\w:]+)="([^"]*)"')


def _project() -> tuple[bytes, str]:
    """The XMI file (one element a line) and its type system."""
    ts = cassis.TypeSystem()
    annotation = "uima.tcas.Annotation"
    span = ts.create_type("webanno.custom.Span", supertypeName=annotation)
    for name, kind in (("value", "String"), ("score", "Double"), ("rank", "Integer"), ("checked", "Boolean")):
        ts.create_feature(span, name, f"uima.cas.{kind}")
    link = ts.create_type("webanno.custom.HostLink", supertypeName="uima.cas.TOP")
    ts.create_feature(link, "role", "uima.cas.String")
    ts.create_feature(link, "target", span.name)
    host = ts.create_type("webanno.custom.Host", supertypeName=annotation)
    ts.create_feature(host, "links", "uima.cas.FSArray", elementType=link.name)
    rel = ts.create_type("webanno.custom.Rel", supertypeName=annotation)
    for name, kind in (("Governor", span.name), ("Dependent", span.name), ("label", "uima.cas.String")):
        ts.create_feature(rel, name, kind)
    mention = ts.create_type("webanno.custom.MentionLink", supertypeName=annotation)
    ts.create_feature(mention, "referenceType", "uima.cas.String")
    ts.create_feature(mention, "next", mention.name)
    chain = ts.create_type("webanno.custom.MentionChain", supertypeName="uima.cas.AnnotationBase")
    ts.create_feature(chain, "first", mention.name)
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = "Ada 😀 met Bob in Rome ."
    a = span(begin=0, end=3, value="PER", score=0.5, rank=2, checked=True)
    b = span(begin=10, end=13, value="PER")
    c = span(begin=17, end=21, value="", rank=-1)
    slots = [link(role="agent", target=a), link(role=None, target=b)]
    third = mention(begin=17, end=21, referenceType="x")
    second = mention(begin=10, end=13, next=third)
    first = mention(begin=0, end=3, next=second)
    for fs in (a, b, c, *slots, host(begin=6, end=9, links=ts.get_type("uima.cas.FSArray")(elements=slots)),
               rel(begin=10, end=13, Governor=b, Dependent=c, label="in"), first, second, third, chain(first=first)):
        cas.add(fs)
    return cas.to_xmi().encode().replace(b"><", b">\n<"), ts.to_xml()


_XMI, _TYPESYSTEM = _project()


@st.composite
def _structure(draw, data: bytes) -> bytes:
    """``data`` with one to three changes of its elements and attributes."""
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        i = draw(st.integers(1, len(lines) - 2))      # not the declaration nor the root's end
        line = lines[i]
        attrs = list(_ATTRIBUTE.finditer(line))
        kind = draw(st.sampled_from(["value", "drop", "add", "repeat", "nest", "rename", "members"]))
        if kind == "value" and attrs:
            m = draw(st.sampled_from(attrs))
            line = line[:m.start(2)] + draw(st.sampled_from(_JUNK_VALUES)).encode() + line[m.end(2):]
        elif kind == "drop" and attrs:
            m = draw(st.sampled_from(attrs))
            line = line[:m.start()] + line[m.end():]
        elif kind == "add" and line.endswith(b"/>"):
            name = draw(st.sampled_from(["value", "rank", "checked", "next", "Governor", "links", "sofa", "begin",
                                         "foo", "self", "type", "xmi:uuid"]))
            line = line[:-2] + f' {name}="{draw(st.sampled_from(_JUNK_VALUES))}"/>'.encode()
        elif kind == "repeat":
            lines.insert(i, line)
        elif kind == "nest" and line.endswith(b"/>"):
            tag = line[1:].split(b" ", 1)[0]
            line = line[:-2] + b"><elements>a</elements></" + tag + b">"
        elif kind == "rename" and line.startswith(b"<custom:"):
            line = b"<custom:Nope" + line[len(line.split(b" ", 1)[0]):]
            line = line.replace(b"</custom:", b"</custom:Nope") if b"</" in line else line
        elif kind == "members" and line.startswith(b"<cas:View"):
            ids = draw(st.lists(st.sampled_from(["0", "1", "2", "3", "5", "8", "9", "12", "13", "x"]), max_size=6))
            line = re.sub(rb'members="[^"]*"', f'members="{" ".join(ids)}"'.encode(), line)
        lines[i] = line
        data = b"\n".join(lines)
    return data


def _compare(data: bytes, layers: list[str | None]) -> None:
    with tempfile.TemporaryDirectory() as d, pytest.MonkeyPatch.context() as mp:
        f = Path(d, "doc.xmi")
        f.write_bytes(data)
        Path(d, "TypeSystem.xml").write_text(_TYPESYSTEM, encoding="utf-8")
        for layer in layers:
            own, through_cassis, _ = both_ways(lambda layer=layer: accord.read(f, layer=layer).documents, mp)
            assert own == through_cassis, layer
        own, through_cassis, _ = both_ways(lambda: xmi.read_coref_xmi(f), mp)
        assert own == through_cassis, "chains"


def test_the_project_file_is_read_by_the_own_parser():
    """The seed itself: read by the own parser (not handed to cassis), equal to cassis, with its features."""
    with tempfile.TemporaryDirectory() as d, pytest.MonkeyPatch.context() as mp:
        f = Path(d, "doc.xmi")
        f.write_bytes(_XMI)
        Path(d, "TypeSystem.xml").write_text(_TYPESYSTEM, encoding="utf-8")
        own, through_cassis, by_own = both_ways(lambda: accord.read(f, layer="Span,Host,Rel").documents, mp)
        assert by_own and own == through_cassis and own[0] == "ok"
        (doc,) = accord.read(f, layer="Span,Host,Rel").documents
        ada = doc.annotations[0]
        assert (ada.label, ada.start, ada.end, dict(ada.attributes)) == (
            "PER", 0, 3, {"score": "0.5", "rank": "2", "checked": "true"})
        host = next(a for a in doc.annotations if a.label == "Host")
        assert host.attributes["links"] == ("agent", "") and [t.start for t in host.attributes["links.targets"]] == [
            0, 10]
    _compare(_XMI, _LAYERS)


@given(st.data())
def test_corrupted_bytes_read_the_same(data):
    _compare(data.draw(corrupt_bytes(_XMI)), data.draw(st.lists(st.sampled_from(_LAYERS), min_size=1, max_size=3)))


@given(st.data())
def test_changed_structure_reads_the_same(data):
    _compare(data.draw(_structure(_XMI)), data.draw(st.lists(st.sampled_from(_LAYERS), min_size=1, max_size=3)))
