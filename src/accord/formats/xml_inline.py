"""MAT's inline XML documents (``xml-inline``) and its lenient SGML-like variant (``fake-xml-inline``).

An annotation is an element around the text it spans; the signal is the text with the markup taken out::

    <_mat:atypes><_mat:atype name="PERSON" hasSpan="yes"><_mat:attr name="nomtype" type="string"
    aggregation="none"/></_mat:atype></_mat:atypes><VISIT agent="1" place="2"/>
    <PERSON _mat:id="1" nomtype="NAM">John F. Kennedy</PERSON> visited <LOCATION _mat:id="2">Guam</LOCATION>.
    <!-- _mat_metadata_ eyJhIjogMX0= -->

* every element is an annotation (MAT's ``xml_translate_all``), but the wrapper ``__top`` and MAT's own
  ``_mat:`` elements; ``<X ...></X>`` spans its text (possibly nothing), the empty element ``<X .../>`` is spanless
  (as MAT writes spanless annotations) unless a declaration says the type has spans;
* attribute values are strings unless ``<_mat:atype>``/``<_mat:attr>`` declarations type them (``int``, ``float``,
  ``boolean`` as ``yes``/``no``, ``annotation`` as the target's ``_mat:id``); ``set`` and ``list`` aggregations are
  comma-separated; ``_mat:id`` is the annotation's id;
* ``<!-- _mat_metadata_ BASE64 -->`` holds the document's metadata as base64-encoded JSON; other comments,
  processing instructions and a doctype are not text; CDATA is text;
* ``xml-inline`` decodes character references and entities in text and values; ``fake-xml-inline`` (MAT's reader
  for SGML-like input) takes the text as it is, accepts unquoted and bare attribute values and a ``<`` or ``&``
  that starts no tag, and may leave elements unclosed at the end of the file (they close there).

The document id is the file name without ``.xml``. The writer writes ``xml-inline`` (spans must nest: crossing
spans are an error naming both, as in MAT).
"""

from __future__ import annotations

import base64
import binascii
import html
import json
import re
from pathlib import Path
from typing import Any

from .._io import read_text
from ..errors import FormatError
from ..model import Annotation, Attributes, Corpus, Document
from ._refs import (RawAnnotation, Ref, attribute_type, build_annotations, label_groups, ref_id, signal_targets,
                    writer_ids)
from ._registry import Format, file_head, register

__all__ = ["read_xml_inline", "read_fake_xml_inline", "write_xml_inline"]

_TOKEN = re.compile(
    r"<!--(?P<comment>.*?)-->"
    r"|<!\[CDATA\[(?P<cdata>.*?)\]\]>"
    r"|<\?.*?\?>"
    r"|<!DOCTYPE[^>]*>"
    r"|</\s*(?P<close>[^\s<>/]+)\s*>"
    r"|<(?P<open>[A-Za-z_][^\s<>/=\"']*)(?P<attrs>(?:\s+[^\s<>/=\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s<>\"']+))?)*)"
    r"\s*(?P<empty>/?)>",
    re.DOTALL)
_ATTR = re.compile(r"([^\s<>/=\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s<>\"']+)))?")
_METADATA = "_mat_metadata_"
_TOP = "__top"


def _doc_id(p: Path) -> str:
    return p.name[:-4] if p.name.lower().endswith(".xml") else p.stem


def read_xml_inline(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read one MAT inline-XML document (strict XML: closed elements, quoted values, entities decoded)."""
    return _read(Path(path), encoding, fake=False)


def read_fake_xml_inline(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read one SGML-like inline document (MAT's ``fake-xml-inline``: see the module's description)."""
    return _read(Path(path), encoding, fake=True)


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _attributes(raw: str, text: str, pos: int, path: Path, fake: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        name = m.group(1)
        value = next((g for g in m.groups()[1:] if g is not None), None)
        if value is None:
            if not fake:
                raise FormatError(f"attribute {name!r} has no value (xml-inline needs name=\"value\"; "
                                  "--format fake-xml-inline accepts bare attributes)", path=path, line=_line(text, pos))
            value = name
        elif m.group(4) is not None and not fake:
            raise FormatError(f"the value of attribute {name!r} is not quoted (--format fake-xml-inline accepts "
                              "unquoted values)", path=path, line=_line(text, pos))
        if name in out:
            raise FormatError(f"attribute {name!r} appears twice in one tag", path=path, line=_line(text, pos))
        out[name] = value if fake else html.unescape(value)
    return out


def _read(p: Path, encoding: str | None, fake: bool) -> Corpus:
    text = read_text(p, encoding)
    signal: list[str] = []
    length = 0
    open_elements: list[tuple[str, int, dict[str, str], int]] = []   # name, start, attributes, position in file
    found: list[tuple[str, int | None, int | None, dict[str, str], int]] = []
    declarations: dict[str, tuple[bool, dict[str, tuple[str, str | None]]]] = {}
    declaring: str | None = None
    metadata: dict[str, Any] = {}
    at = 0

    def add_text(chunk: str) -> None:
        nonlocal length
        if not chunk:
            return
        if not fake:
            if "<" in chunk:
                k = chunk.index("<")
                raise FormatError(f"a '<' that starts no tag ({chunk[k:k + 20]!r}); xml-inline is XML (--format "
                                  "fake-xml-inline reads SGML-like text)", path=p, line=_line(text, at))
            chunk = html.unescape(chunk)
        signal.append(chunk)
        length += len(chunk)

    for m in _TOKEN.finditer(text):
        add_text(text[at:m.start()])
        at = m.end()
        if m.group("comment") is not None:
            body = m.group("comment").strip()
            if body.startswith(_METADATA):
                try:
                    value = json.loads(base64.b64decode(body[len(_METADATA):].strip(), validate=True))
                except (binascii.Error, ValueError):
                    raise FormatError(f"the {_METADATA} comment is not base64-encoded JSON", path=p,
                                      line=_line(text, m.start())) from None
                if not isinstance(value, dict):
                    raise FormatError(f"the {_METADATA} comment holds {type(value).__name__}, not a JSON object",
                                      path=p, line=_line(text, m.start()))
                metadata = value
            continue
        if m.group("cdata") is not None:
            signal.append(m.group("cdata"))
            length += len(m.group("cdata"))
            continue
        name = m.group("open") or m.group("close")
        if name is None:       # processing instruction or doctype
            continue
        if name.startswith("_mat:"):
            if m.group("open") is not None:
                attrs = _attributes(m.group("attrs"), text, m.start(), p, fake)
                if name == "_mat:atype":
                    declaring = attrs.get("name")
                    if not declaring:
                        raise FormatError("<_mat:atype> without a name", path=p, line=_line(text, m.start()))
                    declarations[declaring] = (attrs.get("hasSpan", "yes") != "no", {})
                elif name == "_mat:attr":
                    if declaring is None or not attrs.get("name"):
                        raise FormatError("<_mat:attr> needs a name, inside a <_mat:atype>", path=p,
                                          line=_line(text, m.start()))
                    agg = attrs.get("aggregation", "none")
                    declarations[declaring][1][attrs["name"]] = (attrs.get("type", "string"),
                                                                 None if agg in ("none", "") else agg)
            elif name == "_mat:atype":
                declaring = None
            continue
        if name == _TOP:
            continue
        if m.group("open") is not None:
            attrs = _attributes(m.group("attrs"), text, m.start(), p, fake)
            if m.group("empty"):
                spanned = declarations.get(name, (False, {}))[0]
                found.append((name, length if spanned else None, length if spanned else None, attrs, m.start()))
            else:
                open_elements.append((name, length, attrs, m.start()))
            continue
        # a closing tag: the innermost open element of that name (XML: the innermost open element)
        k = len(open_elements) - 1
        while k >= 0 and open_elements[k][0] != name:
            if not fake:
                raise FormatError(f"</{name}> closes <{open_elements[k][0]}> (opened on line "
                                  f"{_line(text, open_elements[k][3])}); elements must nest",
                                  path=p, line=_line(text, m.start()))
            k -= 1
        if k < 0:
            if fake:
                continue
            raise FormatError(f"</{name}> closes no open element", path=p, line=_line(text, m.start()))
        el_name, start, attrs, pos = open_elements.pop(k)
        found.append((el_name, start, length, attrs, pos))
    add_text(text[at:])
    for el_name, start, attrs, pos in open_elements:
        if not fake:
            raise FormatError(f"<{el_name}> is never closed", path=p, line=_line(text, pos))
        found.append((el_name, start, length, attrs, pos))
    doc_id = _doc_id(p)
    found.sort(key=lambda f: (f[1] is not None, f[1] or 0, -(f[2] or 0), f[4]))   # spanless first, then by span
    raw = [_raw(name, start, end, attrs, declarations.get(name, (True, {}))[1], p, _line(text, pos))
           for name, start, end, attrs, pos in found]
    annotations = build_annotations(raw, path=p, doc_id=doc_id)
    return Corpus([Document(doc_id, annotations, "".join(signal), None, None, Attributes(metadata))], name=str(p))


def _raw(label: str, start: int | None, end: int | None, attrs: dict[str, str],
         declared: dict[str, tuple[str, str | None]], p: Path, line: int) -> RawAnnotation:
    ann_id = attrs.pop("_mat:id", None)
    values: dict[str, Any] = {}
    for name, value in attrs.items():
        typ, agg = declared.get(name, ("string", None))
        items = [v.strip() for v in value.split(",")] if agg is not None else [value]
        try:
            converted = [_value(v, typ) for v in items if v != "" or agg is None]
        except ValueError:
            raise FormatError(f"<{label}> attribute {name!r}: {value!r} is not a {typ} value (declared by "
                              "<_mat:attr>)", path=p, line=line) from None
        values[name] = (frozenset(converted) if agg == "set" else tuple(converted)) if agg is not None else converted[0]
    return RawAnnotation(label, start, end, values, ann_id, line)


def _value(v: str, typ: str) -> Any:
    if typ == "int":
        return int(v)
    if typ == "float":
        return float(v)
    if typ == "boolean":
        if v not in ("yes", "no"):
            raise ValueError(v)
        return v == "yes"
    if typ == "annotation":
        return Ref(v)
    return v


def _out(v: Any, ids: dict[int, str]) -> str:
    if isinstance(v, Annotation):
        return ref_id(v, ids)
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, frozenset):
        return ",".join(sorted(_out(x, ids) for x in v))
    if isinstance(v, tuple):
        return ",".join(_out(x, ids) for x in v)
    return str(v)


def write_xml_inline(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write each document as MAT inline XML (``path`` is a file for one document, else a directory).

    Raises
    ------
    FormatError
        A document without text, crossing spans, or a discontinuous span.
    """
    for doc, target, staged in signal_targets(corpus, path, ".xml", "inline XML"):
        staged.write_text(_render(doc, target), encoding="utf-8")


def _render(doc: Document, target: Path) -> str:
    ids = writer_ids(doc.annotations, keep_own=True)
    decl = ["<_mat:atypes>"]
    for label, anns in label_groups(doc, target).items():
        spanned = anns[0].start is not None
        decl.append(f'<_mat:atype name="{html.escape(label)}" hasSpan="{"yes" if spanned else "no"}">')
        for n in dict.fromkeys(n for a in anns for n in a.attributes):
            typ, agg = attribute_type([a.attributes[n] for a in anns if a.attributes.get(n) is not None])
            decl.append(f'<_mat:attr name="{html.escape(n)}" type="{typ}" aggregation="{agg or "none"}"/>')
        decl.append("</_mat:atype>")
    decl.append("</_mat:atypes>")

    def tag(a: Annotation, empty: bool) -> str:
        parts = [a.label]
        if id(a) in ids:
            parts.append(f'_mat:id="{html.escape(ids[id(a)])}"')
        parts += [f'{n}="{html.escape(_out(v, ids))}"' for n, v in a.attributes.items() if v is not None]
        return "<" + " ".join(parts) + ("/>" if empty else ">")

    spanless = [tag(a, True) for a in doc.annotations if a.start is None]
    spans = sorted((a for a in doc.annotations if a.start is not None), key=lambda a: (a.start, -a.end))
    out: list[str] = []
    stack: list[Annotation] = []
    pos = 0
    text = doc.text or ""

    def close_until(limit: int) -> None:
        nonlocal pos
        while stack and stack[-1].end <= limit:
            a = stack.pop()
            out.append(html.escape(text[pos:a.end], quote=False))
            pos = a.end
            out.append(f"</{a.label}>")
    for a in spans:
        if a.fragments is not None:
            raise FormatError(f"document {doc.id!r}: {a!r} is a discontinuous span, which inline XML cannot hold",
                              path=target)
        close_until(a.start)
        if stack and a.end > stack[-1].end:
            raise FormatError(f"document {doc.id!r}: {stack[-1]!r} and {a!r} cross (crossing dependencies); inline "
                              "XML needs spans that nest", path=target)
        out.append(html.escape(text[pos:a.start], quote=False))
        pos = a.start
        out.append(tag(a, False))
        stack.append(a)
    close_until(len(text))
    out.append(html.escape(text[pos:], quote=False))
    meta = {k: v for k, v in (doc.metadata or {}).items() if isinstance(v, (str, int, float, bool))}
    tail = f"<!-- {_METADATA} {base64.b64encode(json.dumps(meta).encode()).decode()} -->" if meta else ""
    return f"<{_TOP}>" + "".join(decl) + "".join(spanless) + "".join(out) + f"</{_TOP}>" + tail


def _sniff(p: Path) -> bool:
    head = file_head(p, 4096)
    return head is not None and ("<_mat:" in head or _METADATA in head or f"<{_TOP}>" in head)


register(Format("xml-inline", read_xml_inline, write_xml_inline, (".xml",), _sniff, "MAT inline XML documents"))
register(Format("fake-xml-inline", read_fake_xml_inline, write_xml_inline, (), None,
                "SGML-like inline documents (MAT's fake-xml-inline; written as xml-inline)"))
