"""MAT's inline XML documents (``xml-inline``) and its lenient SGML-like variant (``fake-xml-inline``).

An annotation is an element around the text it spans; the signal is the text with the markup taken out::

    <_mat:atypes><_mat:atype name="PERSON" hasSpan="yes"><_mat:attr name="nomtype" type="string"
    aggregation="none"/></_mat:atype></_mat:atypes><VISIT agent="1" place="2"/>
    <PERSON _mat:id="1" nomtype="NAM">John F. Kennedy</PERSON> visited <LOCATION _mat:id="2">Guam</LOCATION>.
    <!-- _mat_metadata_ eyJhIjogMX0= -->

* every element is an annotation (MAT's ``xml_translate_all``), but the wrapper ``__top`` and MAT's own
  ``_mat:`` elements (with ``xml_overlay_labels``, MAT's ``xml_input_is_overlay``, only the elements it names: the
  markup of the others is text of the signal); ``<X ...></X>`` spans its text (possibly nothing), the empty element
  ``<X .../>`` is spanless (as MAT writes spanless annotations) unless a declaration says the type has spans;
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
import bisect
import html
import json
import re
import warnings
from collections.abc import Collection
from pathlib import Path
from typing import Any

from ..._support.io import read_text
from ..._support.safe_paths import id_from_file_name
from ...errors import AccordWarning, FormatError
from ...model import Annotation, Attributes, Corpus, Document
from .._refs import (
    RawAnnotation,
    Ref,
    attribute_type,
    build_annotations,
    label_groups,
    ref_id,
    signal_targets,
    writer_ids,
)
from .._registry import Format, file_head, register

__all__ = ["read_xml_inline", "read_fake_xml_inline", "write_xml_inline"]

# A tag is matched where a '<' stands (``pattern.match(text, pos)``), never searched for: the reader walks from one
# '<' to the next, so that every character is looked at a bounded number of times (the old single ``finditer``
# retried ``.*?`` to the end of the file at every '<' of an unterminated comment: quadratic).
_OPEN = re.compile(
    r"<(?P<open>[A-Za-z_][^\s<>/=\"']*)(?P<attrs>(?:\s+[^\s<>/=\"']+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s<>\"']+))?)*)"
    r"\s*(?P<empty>/?)>")
_CLOSE = re.compile(r"</\s*(?P<close>[^\s<>/]+)\s*>")
# the constructs that run to a terminator: (opening, terminator, name in messages)
_DELIMITED = (("<!--", "-->", "comment"), ("<![CDATA[", "]]>", "CDATA section"), ("<?", "?>", "processing instruction"),
              ("<!DOCTYPE", ">", "doctype"))
_ATTR = re.compile(r"([^\s<>/=\"']+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s<>\"']+)))?")
_METADATA = "_mat_metadata_"
_TOP = "__top"


def _doc_id(p: Path) -> str:
    return id_from_file_name(p.name[:-4] if p.name.lower().endswith(".xml") else p.stem)


def read_xml_inline(path: str | Path, *, encoding: str | None = None,
                    xml_overlay_labels: Collection[str] | None = None, **_ignored: Any) -> Corpus:
    """Read one MAT inline-XML document (strict XML: closed elements, quoted values, entities decoded).

    ``xml_overlay_labels`` (MAT's ``xml_input_is_overlay``): only elements of these names are annotations; the
    markup of any other element stays in the signal as it is written (its tags are text, their character
    references decoded like the rest)."""
    return _read(Path(path), encoding, fake=False, overlay=xml_overlay_labels)


def read_fake_xml_inline(path: str | Path, *, encoding: str | None = None,
                         xml_overlay_labels: Collection[str] | None = None, **_ignored: Any) -> Corpus:
    """Read one SGML-like inline document (MAT's ``fake-xml-inline``: see the module's description);
    ``xml_overlay_labels`` as :func:`read_xml_inline`'s."""
    return _read(Path(path), encoding, fake=True, overlay=xml_overlay_labels)


class _Lines:
    """Line numbers of positions in ``text``, by one bisection in newline offsets found on first use."""

    def __init__(self, text: str):
        self._text = text
        self._newlines: list[int] | None = None

    def __call__(self, pos: int) -> int:
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", self._text)]
        return bisect.bisect_left(self._newlines, pos) + 1


class _Finder:
    """``text.find(needle, pos)`` with the answers remembered, so that many searches for a terminator that is
    missing (or far) cost one scan of the text in all, not one each."""

    def __init__(self, text: str):
        self._text = text
        self._last: dict[str, tuple[int, int]] = {}   # needle -> (searched from, found at or -1)

    def find(self, needle: str, pos: int) -> int:
        known = self._last.get(needle)
        if known is not None and known[0] <= pos and (known[1] == -1 or pos <= known[1]):
            return known[1]
        found = self._text.find(needle, pos)
        self._last[needle] = (pos, found)
        return found


def _attributes(raw: str, line: _Lines, pos: int, path: Path, fake: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(raw):
        name = m.group(1)
        value = next((g for g in m.groups()[1:] if g is not None), None)
        if value is None:
            if not fake:
                raise FormatError(f"attribute {name!r} has no value (xml-inline needs name=\"value\"; "
                                  "--format fake-xml-inline accepts bare attributes)", path=path, line=line(pos))
            value = name
        elif m.group(4) is not None and not fake:
            raise FormatError(f"the value of attribute {name!r} is not quoted (--format fake-xml-inline accepts "
                              "unquoted values)", path=path, line=line(pos))
        if name in out:
            raise FormatError(f"attribute {name!r} appears twice in one tag", path=path, line=line(pos))
        out[name] = value if fake else html.unescape(value)
    return out


def _read(p: Path, encoding: str | None, fake: bool, overlay: Collection[str] | None = None) -> Corpus:
    text = read_text(p, encoding)
    line = _Lines(text)
    finder = _Finder(text)
    signal: list[str] = []
    length = 0
    # open elements in file order: name, start, attributes, position in file, still open; a fake-xml-inline close
    # tag finds the innermost open element of its name through ``open_by_name`` (indices in ``open_elements``)
    open_elements: list[list[Any]] = []
    open_by_name: dict[str, list[int]] = {}
    found: list[tuple[str, int | None, int | None, dict[str, str], int]] = []
    declarations: dict[str, tuple[bool, dict[str, tuple[str, str | None]]]] = {}
    declaring: str | None = None
    metadata: dict[str, Any] = {}
    unterminated: dict[str, list[int]] = {}   # fake-xml-inline: construct -> [first position, count]
    at = 0       # start of the text not yet added to the signal
    pos = 0      # where the next '<' is looked for

    def add_text(chunk: str) -> None:
        nonlocal length
        if not chunk:
            return
        if not fake:
            chunk = html.unescape(chunk)
        signal.append(chunk)
        length += len(chunk)

    while True:
        lt = text.find("<", pos)
        if lt < 0:
            break
        delimited = next((d for d in _DELIMITED if text.startswith(d[0], lt)), None)
        if delimited is not None:
            opening, terminator, what = delimited
            end = finder.find(terminator, lt + len(opening))
            if end < 0:
                if not fake:
                    raise FormatError(f"a {what} ({opening!r}) that is never closed: no {terminator!r} after it",
                                      path=p, line=line(lt))
                unterminated.setdefault(opening, [lt, 0])[1] += 1
                pos = lt + 1          # fake-xml-inline: a '<' that starts nothing is text
                continue
            add_text(text[at:lt])
            at = pos = end + len(terminator)
            body = text[lt + len(opening):end]
            if opening == "<![CDATA[":
                signal.append(body)
                length += len(body)
            elif opening == "<!--" and body.strip().startswith(_METADATA):
                metadata = _metadata(body.strip(), p, line(lt))
            continue
        m = _CLOSE.match(text, lt) or _OPEN.match(text, lt)
        if m is None:
            if not fake:
                raise FormatError(f"a '<' that starts no tag ({text[lt:lt + 20]!r}); xml-inline is XML (--format "
                                  "fake-xml-inline reads SGML-like text)", path=p, line=line(lt))
            pos = lt + 1
            continue
        if overlay is not None:
            tag_name = m.group("open") if m.re is _OPEN else m.group("close")
            if tag_name not in overlay and tag_name != _TOP and not tag_name.startswith("_mat:"):
                pos = m.end()     # overlay: markup of no task element is part of the signal
                continue
        add_text(text[at:lt])
        at = pos = m.end()
        opened = m.re is _OPEN
        name = m.group("open") if opened else m.group("close")
        if name.startswith("_mat:"):
            if opened:
                attrs = _attributes(m.group("attrs"), line, lt, p, fake)
                if name == "_mat:atype":
                    declaring = attrs.get("name")
                    if not declaring:
                        raise FormatError("<_mat:atype> without a name", path=p, line=line(lt))
                    declarations[declaring] = (attrs.get("hasSpan", "yes") != "no", {})
                elif name == "_mat:attr":
                    if declaring is None or not attrs.get("name"):
                        raise FormatError("<_mat:attr> needs a name, inside a <_mat:atype>", path=p, line=line(lt))
                    agg = attrs.get("aggregation", "none")
                    declarations[declaring][1][attrs["name"]] = (attrs.get("type", "string"),
                                                                 None if agg in ("none", "") else agg)
            elif name == "_mat:atype":
                declaring = None
            continue
        if name == _TOP:
            continue
        if opened:
            attrs = _attributes(m.group("attrs"), line, lt, p, fake)
            if m.group("empty"):
                spanned = declarations.get(name, (False, {}))[0]
                found.append((name, length if spanned else None, length if spanned else None, attrs, lt))
            else:
                open_by_name.setdefault(name, []).append(len(open_elements))
                open_elements.append([name, length, attrs, lt, True])
            continue
        # a closing tag: XML closes the innermost open element, which must be of its name; fake-xml-inline closes
        # the innermost open element of its name (and skips a closing tag of no open element)
        if not fake:
            if not open_elements:
                raise FormatError(f"</{name}> closes no open element", path=p, line=line(lt))
            if open_elements[-1][0] != name:
                raise FormatError(f"</{name}> closes <{open_elements[-1][0]}> (opened on line "
                                  f"{line(open_elements[-1][3])}); elements must nest", path=p, line=line(lt))
        same = open_by_name.get(name)
        if not same:
            continue
        element = open_elements[same.pop()]
        element[4] = False
        while open_elements and not open_elements[-1][4]:
            open_elements.pop()
        found.append((element[0], element[1], length, element[2], element[3]))
    add_text(text[at:])
    for el_name, start, attrs, el_pos, still_open in open_elements:
        if not still_open:
            continue
        if not fake:
            raise FormatError(f"<{el_name}> is never closed", path=p, line=line(el_pos))
        found.append((el_name, start, length, attrs, el_pos))
    for opening, (first, count) in unterminated.items():
        warnings.warn(AccordWarning(f"{p}:{line(first)}: {count} {opening!r} never closed (the first here); read as "
                                    "text, as fake-xml-inline reads a '<' that starts no tag"), stacklevel=3)
    doc_id = _doc_id(p)
    found.sort(key=lambda f: (f[1] is not None, f[1] or 0, -(f[2] or 0), f[4]))   # spanless first, then by span
    raw = [_raw(name, start, end, attrs, declarations.get(name, (True, {}))[1], p, line(el_pos))
           for name, start, end, attrs, el_pos in found]
    annotations = build_annotations(raw, path=p, doc_id=doc_id)
    return Corpus([Document(doc_id, annotations, "".join(signal), None, None, Attributes(metadata))], name=str(p))


def _metadata(body: str, p: Path, line: int) -> dict[str, Any]:
    try:
        value = json.loads(base64.b64decode(body[len(_METADATA):].strip(), validate=True))
    except (binascii.Error, ValueError):
        raise FormatError(f"the {_METADATA} comment is not base64-encoded JSON", path=p, line=line) from None
    if not isinstance(value, dict):
        raise FormatError(f"the {_METADATA} comment holds {type(value).__name__}, not a JSON object", path=p,
                          line=line)
    return value


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
    spans = sorted((a for a in doc.annotations if a.start is not None), key=lambda a: (a.start, -(a.end or 0)))
    out: list[str] = []
    stack: list[Annotation] = []
    pos = 0
    text = doc.text or ""

    def close_until(limit: int) -> None:
        nonlocal pos
        while stack:
            end = stack[-1].end
            assert end is not None  # only spanned annotations are stacked
            if end > limit:
                break
            a = stack.pop()
            out.append(html.escape(text[pos:end], quote=False))
            pos = end
            out.append(f"</{a.label}>")
    for a in spans:
        if a.fragments is not None:
            raise FormatError(f"document {doc.id!r}: {a!r} is a discontinuous span, which inline XML cannot hold",
                              path=target)
        assert a.start is not None and a.end is not None  # spans holds the spanned annotations
        close_until(a.start)
        if stack and a.end > (stack[-1].end or 0):
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
