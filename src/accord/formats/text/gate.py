"""GATE XML documents (``<GateDocument>``, the format GATE saves, version 3).

A document holds its text with ``<Node id=…/>`` markers in ``<TextWithNodes>``, document
features, and annotation sets: one default (no ``Name``) and any number of named ones.
accord reads one set at a time into a :class:`~accord.model.Document` (``annotation_set``:
``None`` or ``""`` for the default set, else its name); :func:`read_gate_sets` gives every
set. Offsets become Python string positions (code points); GATE counts UTF-16 code units,
which the reader maps through the nodes and the writer restores.

Feature values keep their Java type as a Python type, so that values of different types
never compare equal (GATE's guide, 10.2.3): ``java.lang.String`` → ``str``;
``Integer``, ``Long``, ``Short``, ``Byte``, ``BigInteger`` → ``int``; ``Double``,
``Float``, ``BigDecimal`` → ``float``; ``Boolean`` → ``bool`` (true when the text is
"true", any case, as Java's ``Boolean(String)``); any other class (lists, maps, XStream
``ObjectWrapper``) → its text as ``str``. ``Integer`` and ``Long`` both become ``int``
(Java's ``equals`` would tell them apart); the writer writes ``int`` as ``java.lang.Long``
when it does not fit 32 bits, else ``java.lang.Integer``. The XML is parsed with
defusedxml: no external entities, no entity expansion.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ...errors import FormatError, quoted
from ...model import Annotation, Corpus, Document, make_annotation
from .._registry import Format, register

__all__ = ["read_gate", "read_gate_sets", "write_gate", "write_gate_sets"]

_INT = {"java.lang.Integer", "java.lang.Long", "java.lang.Short", "java.lang.Byte", "java.math.BigInteger"}
_FLOAT = {"java.lang.Double", "java.lang.Float", "java.math.BigDecimal"}


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _value(elem: Any, path: Path, where: str) -> Any:
    if elem is None:
        return ""
    text = elem.text or ""
    cls = elem.get("className", "java.lang.String")
    try:
        if cls in _INT:
            return int(text.strip())
        if cls in _FLOAT:
            return float(text.strip())
    except ValueError:
        raise FormatError(f"{where}: {quoted(text)} is not a valid {cls}", path=path) from None
    if cls == "java.lang.Boolean":
        return text.strip().lower() == "true"
    return text


def _features(elem: Any, path: Path, where: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for f in elem:
        if _local(f.tag) != "Feature":
            continue
        name = value = None
        for part in f:
            if _local(part.tag) == "Name":
                name = part
            elif _local(part.tag) == "Value":
                value = part
        if name is None:
            raise FormatError(f"{where}: a <Feature> without <Name>", path=path)
        out[str(name.text or "")] = _value(value, path, f"{where}, feature {name.text!r}")
    return out


def read_gate_sets(path: str | Path) -> tuple[Document, dict[str, tuple[Annotation, ...]]]:
    """Read a GATE XML file: the document (text and features, no annotations) and every
    annotation set by name (``""`` for the default set)."""
    from defusedxml import ElementTree
    from defusedxml.common import DefusedXmlException

    p = Path(path)
    try:
        root = ElementTree.parse(p).getroot()
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror}", path=p) from None
    except ElementTree.ParseError as exc:
        raise FormatError(f"not well-formed XML ({exc})", path=p) from None
    except DefusedXmlException as exc:
        raise FormatError(f"refused unsafe XML ({type(exc).__name__})", path=p) from None
    except (LookupError, UnicodeError, ValueError) as exc:   # an encoding the XML declaration names
        raise FormatError(f"cannot decode the XML: {exc}", path=p) from None
    assert root is not None  # a parsed document has a root element
    if _local(root.tag) != "GateDocument":
        raise FormatError(f"expected a <GateDocument> root element, found <{_local(root.tag)}>", path=p)
    text_parts: list[str] = []
    nodes: dict[str, int] = {}
    metadata: dict[str, Any] = {}
    sets: dict[str, tuple[Annotation, ...]] = {}
    length = 0
    seen_text = False
    for child in root:
        tag = _local(child.tag)
        if tag == "GateDocumentFeatures":
            metadata = _features(child, p, "document features")
        elif tag == "TextWithNodes":
            seen_text = True
            if child.text:
                text_parts.append(child.text)
                length += len(child.text)
            for node in child:
                if _local(node.tag) == "Node":
                    nid = node.get("id")
                    if nid is None:
                        raise FormatError("a <Node> without id", path=p)
                    nodes[nid] = length
                if node.tail:
                    text_parts.append(node.tail)
                    length += len(node.tail)
        elif tag == "AnnotationSet":
            name = child.get("Name", "")
            if name in sets:
                raise FormatError(f"annotation set {name or '(default)'!r} appears twice", path=p)
            sets[name] = _annotations(child, nodes, p, name)
    if not seen_text:
        raise FormatError("no <TextWithNodes> element", path=p)
    doc = Document(p.stem, (), text="".join(text_parts), metadata=metadata)
    return doc, sets


def _annotations(elem: Any, nodes: Mapping[str, int], path: Path, set_name: str) -> tuple[Annotation, ...]:
    out = []
    ids: set[str] = set()
    label = f"annotation set {set_name or '(default)'!r}"
    for a in elem:
        if _local(a.tag) != "Annotation":
            continue
        aid, typ = a.get("Id"), a.get("Type")
        where = f"{label}, annotation {aid if aid is not None else '(no Id)'}"
        if typ is None:
            raise FormatError(f"{where}: no Type", path=path)
        if aid is not None:
            if aid in ids:
                raise FormatError(f"{where}: the Id repeats within the set", path=path)
            ids.add(aid)
        try:
            start, end = nodes[a.get("StartNode", "")], nodes[a.get("EndNode", "")]
        except KeyError:
            raise FormatError(f"{where}: StartNode {a.get('StartNode')!r} or EndNode {a.get('EndNode')!r} is not a "
                              "<Node> of the text", path=path) from None
        if end < start:
            raise FormatError(f"{where}: it ends (node {a.get('EndNode')}) before it starts", path=path)
        out.append(make_annotation(typ, start, end, _features(a, path, where), id=aid))
    return tuple(out)


def read_gate(path: str | Path, *, annotation_set: str | None = None, **_ignored: Any) -> Corpus:
    """Read one annotation set of a GATE XML file (the default set unless named).

    Options meant for other readers (``scheme``, ``repair``...) are ignored, so one set of
    options can serve a corpus of mixed formats.
    """
    doc, sets = read_gate_sets(path)
    name = annotation_set or ""
    if name not in sets:
        if name:
            known = ", ".join(repr(s or "(default)") for s in sets) or "none"
            raise FormatError(f"no annotation set {name!r}; the document has {known}", path=path)
        anns: tuple[Annotation, ...] = ()
    else:
        anns = sets[name]
    if not name:
        named = tuple(s for s, a in sets.items() if s and a)
        if named:
            doc = doc._replace(metadata={**doc.metadata, _NAMED_SETS: named})
    return Corpus([doc._replace(annotations=anns)], name=str(path))


_NAMED_SETS = "gate_named_sets"


def check_default_sets(corpus: Corpus, path: object) -> None:
    """Refuse a corpus read from the default sets when those are empty everywhere and named sets hold
    annotations: scoring it would report nothing as if it were a result."""
    if corpus.annotation_count():
        return
    named = sorted({s for d in corpus.values() for s in (d.metadata or {}).get(_NAMED_SETS, ())})
    if named:
        raise FormatError("the default annotation set is empty in every document, while the named sets "
                          f"{', '.join(map(repr, named))} hold annotations; choose a set (accord score: --gold-set/"
                          "--pred-set; diff, qa, benchmark, adjudicate: --key-set/--response-set; agree: --sets)",
                          path=path)


def _utf16(text: str) -> list[int]:
    """UTF-16 offset of every code-point position (one more entry than the text has characters)."""
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) > 0xFFFF else 1))
    return out


def _feature_xml(name: str, value: Any) -> str:
    if isinstance(value, bool):
        cls, text = "java.lang.Boolean", "true" if value else "false"
    elif isinstance(value, int):
        cls = "java.lang.Integer" if -2 ** 31 <= value < 2 ** 31 else "java.lang.Long"
        text = str(value)
    elif isinstance(value, float):
        cls, text = "java.lang.Double", repr(value)
    else:
        cls, text = "java.lang.String", str(value)
    return (f"<Feature>\n  <Name className=\"java.lang.String\">{escape(name)}</Name>\n"
            f"  <Value className=\"{cls}\">{escape(text)}</Value>\n</Feature>\n")


def write_gate(corpus: Corpus, path: str | Path, *, annotation_set: str | None = None) -> None:
    """Write a corpus as GATE XML, its annotations in one set (default unless named): one document to a file, or
    several (or any number to an existing folder) to a folder of one ``.xml`` file per
    document (named by its id), built beside ``path`` and moved in when complete; several documents to a ``.xml``
    file are an error.

    Spanless annotations and attribute values that are annotations, sets or lists have no
    GATE XML form here and are an error.
    """
    from ..._support.safe_paths import atomic_directory, file_names, inside, staged_file

    p = Path(path)
    folder = p.is_dir() or (len(corpus) != 1 and p.suffix.lower() != ".xml")
    if not folder:
        if len(corpus) != 1:
            raise FormatError(f"a GATE XML file holds one document; the corpus has {len(corpus)}: give a folder "
                              "(one .xml file per document is written in it)", path=p)
        doc = corpus.documents[0]
        with staged_file(p) as staged:
            write_gate_sets(doc, {annotation_set or "": doc.annotations}, staged)
        return
    names = file_names([doc.id for doc in corpus.documents], ".xml")
    with atomic_directory(p) as out:
        for doc in corpus.documents:
            write_gate_sets(doc, {annotation_set or "": doc.annotations}, inside(out, names[doc.id]))


def write_gate_sets(doc: Document, sets: Mapping[str, Sequence[Annotation]], path: str | Path) -> None:
    """Write a document (its text and features) with several annotation sets, by name (``""``: the default set),
    as GATE XML: what :func:`read_gate_sets` reads back. Ids are kept where they are unique numbers within a set."""
    p = Path(path)
    text = doc.text if doc.text is not None else " ".join(doc.tokens or ())
    every = [a for anns in sets.values() for a in anns]
    if doc.text is None and every:
        raise FormatError(f"document {doc.id!r} has tokens, not text: GATE XML needs character offsets", path=p)
    u16 = _utf16(text)
    bounds = sorted({0, len(text)} | {x for a in every for x in (a.start, a.end) if x is not None})
    parts = ["<?xml version='1.0' encoding='UTF-8'?>\n<GateDocument version=\"3\">\n<GateDocumentFeatures>\n"]
    parts.extend(_feature_xml(str(k), v) for k, v in dict(doc.metadata).items())
    parts.append("</GateDocumentFeatures>\n<TextWithNodes>")
    prev = 0
    for b in bounds:
        parts.append(escape(text[prev:b]))
        parts.append(f"<Node id=\"{u16[b]}\"/>")
        prev = b
    parts.append(escape(text[prev:]) + "</TextWithNodes>\n")
    for name, anns in sorted(sets.items(), key=lambda kv: kv[0] != ""):    # the default set first, as GATE
        parts.append(_set_xml(doc, name, anns, u16, p))
    parts.append("</GateDocument>\n")
    p.write_text("".join(parts), encoding="utf-8")


def _set_xml(doc: Document, name: str, anns: Sequence[Annotation], u16: list[int], p: Path) -> str:
    attr = f" Name={quoteattr(name)}" if name else ""
    parts = [f"<AnnotationSet{attr}>\n"]
    given = [str(a.id) if a.id is not None and str(a.id).isdigit() else None for a in anns]
    if len(set(i for i in given if i is not None)) < sum(i is not None for i in given):
        given = [None] * len(given)   # repeated ids: number them all afresh
    fresh = max((int(i) for i in given if i is not None), default=-1) + 1
    for n, a in enumerate(anns):
        if a.start is None:
            raise FormatError(f"document {doc.id!r}: annotation {a.label!r} has no span; GATE annotations have one",
                              path=p)
        assert a.end is not None  # make_annotation: a start comes with an end
        aid = given[n]
        if aid is None:
            aid, fresh = str(fresh), fresh + 1
        parts.append(f"<Annotation Id={quoteattr(aid)} Type={quoteattr(a.label)} StartNode=\"{u16[a.start]}\" "
                     f"EndNode=\"{u16[a.end]}\">\n")
        for k, v in a.attributes.items():
            if not isinstance(v, (str, int, float, bool)):
                raise FormatError(f"document {doc.id!r}: attribute {k!r} of {a.label!r} is a {type(v).__name__}; "
                                  "GATE XML features here are strings, numbers or booleans", path=p)
            parts.append(_feature_xml(k, v))
        parts.append("</Annotation>\n")
    parts.append("</AnnotationSet>\n")
    return "".join(parts)


def _sniff(path: Path) -> bool:
    try:
        with path.open("rb") as fh:
            head = fh.read(2048)
    except OSError:
        return False
    return b"<GateDocument" in head


def _check_corpus(corpus: Corpus, path: Path, options: dict[str, Any]) -> None:
    """The default sets read (no ``annotation_set``): refused when empty while named sets hold annotations."""
    if not options.get("annotation_set"):
        check_default_sets(corpus, path)


register(Format("gate", read_gate, write_gate, (".xml",), _sniff, "GATE XML documents (one annotation set)",
                check=_check_corpus))
