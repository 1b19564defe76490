"""UIMA CAS XMI, as INCEpTION and WebAnno export it: read by accord's own streaming parser
(:mod:`._xmi_parser`, with dkpro-cassis's type system), or by dkpro-cassis for a file that parser hands over (the
same result); written through dkpro-cassis.

Reading needs the type system: the file given as ``typesystem``, else a ``TypeSystem.xml`` (or
``typesystem.xml``) in the XMI file's folder, as INCEpTION's "UIMA CAS XMI" export puts it; without one,
DKPro Core's type system (named entities, tokens...) is used. Offsets are code points of the document text
(cassis converts UIMA's UTF-16 offsets).

``layer`` chooses what is read: one or more annotation types, comma-separated, each ``TYPE`` or
``TYPE:FEATURE`` (the feature that gives the label); a type may be named by its last part
(``NamedEntity``, ``custom.Span``). The default is DKPro Core's ``NamedEntity``. Labels and attributes follow
one rule with the WebAnno TSV reader (:mod:`accord.formats.text._uima`: the label feature is ``value``, else DKPro
Core's tag feature, else the type's only primitive feature; an annotation without a label value takes the
type's short name; primitive features are string attributes as INCEpTION writes them, link features their
roles and targets), so INCEpTION's XMI and TSV of a document read the same. A feature whose value is another
annotation read from the file becomes an annotation-valued attribute (INCEpTION's relation layers:
``Governor``, ``Dependent``); one pointing to a layer not read is left out with a warning naming the option to
add. A type that the type system lacks is an error naming the types it declares; a type without annotations in
the file is a document without such annotations (with a warning when the layer was not chosen and the file
holds other layers).

lxml refuses a text or attribute value over :data:`MAX_XML_TEXT` bytes (the document text is one); the file is
checked for one before it is parsed, so the refusal costs no memory. A document type declaration is refused (no DTD,
no entities, no network). The warnings of cassis and the libraries under it are silenced; accord's own are not.

Writing keeps spans as DKPro Core ``NamedEntity`` annotations with their label in ``value`` and writes the
type system beside the file (``TypeSystem.xml``); a spanless annotation or an attribute is an error.
``dkpro-cassis`` is an optional dependency (``pip install 'accord[xmi]'``).
"""

from __future__ import annotations

import os
import re
import sys
import warnings
from collections import Counter
from functools import lru_cache
from pathlib import Path
from stat import S_ISREG
from typing import Any

from ..._support.collector import collection_paused
from ...errors import AccordWarning, FormatError, OptionError
from ...model import Attributes, Corpus, Document
from .._refs import RawAnnotation, Ref, build_annotations
from .._registry import Format, file_head, register
from ._uima import (
    java_string,
    label_feature,
    match_layer,
    quiet_library,
    targets_attribute,
    warn_unread,
)
from ._xmi_parser import DOCTYPE_REFUSED, doctype_refused, parse_xmi, type_cache

__all__ = ["COREFERENCE_CHAIN", "MAX_XML_TEXT", "NAMED_ENTITY", "chain_types", "read_coref_xmi", "read_xmi",
           "write_xmi"]

MAX_XML_TEXT = 10_000_000
"""Bytes of one text or attribute value that lxml parses without its ``huge_tree`` option."""
_DELIMITERS = (b'"', b"'", b"<", b">")
_NOT_FOUND = re.compile(r"Type with name \[([^\]]+)\] not found")
_PLUMBING = ("uima.", "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.",
             "de.tudarmstadt.ukp.dkpro.core.api.metadata.type.")

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
COREFERENCE_CHAIN = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceChain"
_SKIPPED = {"sofa", "begin", "end"}
_TYPESYSTEM_FILES = ("TypeSystem.xml", "typesystem.xml")


def _cassis() -> Any:
    loaded = sys.modules.get("cassis")   # (once imported: no import machinery a file)
    if loaded is not None:
        return loaded
    try:
        import cassis
    except ImportError:  # pragma: no cover - depends on the environment
        raise OptionError("reading or writing UIMA XMI needs dkpro-cassis: pip install 'accord[xmi]'") from None
    return cassis


def _type_system(p: Path, typesystem: Any) -> Any:
    """The type system of ``p``: the file given, else ``TypeSystem.xml`` beside ``p``, else DKPro Core's. Parsed
    once for all the files of a folder (:func:`_parsed_type_system` keeps the last few)."""
    if typesystem:
        candidates = [str(Path(typesystem))]
    else:
        parent = str(p.parent)
        candidates = [os.path.join(parent, name) for name in _TYPESYSTEM_FILES]
    for candidate in candidates:
        try:
            st = os.stat(candidate)     # (one system call: whether it is a file, and the cache's key)
        except OSError:
            continue
        if not S_ISREG(st.st_mode):
            continue
        resolved = os.path.abspath(candidate)   # (the cache's key; no system call, as resolve() makes a few)
        try:
            return _parsed_type_system(resolved, st.st_mtime_ns, st.st_size)
        except FormatError as exc:   # named as the user gave it (the cache knows it by its real path)
            shown = Path(candidate)
            exc.args = (exc.args[0].replace(resolved, str(shown), 1),)
            exc.path = shown
            raise
    if typesystem:
        raise FormatError("no such type system file", path=typesystem)
    return _parsed_type_system(None, 0, 0)


@lru_cache(maxsize=8)
def _parsed_type_system(path: str | None, mtime_ns: int, size: int) -> Any:
    """A type system file parsed (``None``: DKPro Core's); the modification time and size key the cache."""
    cassis = _cassis()
    try:
        with quiet_library():
            if path is None:
                return cassis.load_dkpro_core_typesystem()
            with open(path, "rb") as fh:
                return cassis.load_typesystem(fh)
    except Exception as exc:   # cassis and lxml raise their own classes
        raise FormatError(f"not a UIMA type system ({type(exc).__name__}: {exc})", path=path) from None


def _primitive(ts: Any, t: Any) -> list[str]:
    """The primitive features of type ``t`` (begin, end and sofa left out), in the type system's order."""
    return [f.name for f in t.all_features if f.name not in _SKIPPED and ts.is_primitive(f.rangeType)]


def _layers(spec: str | None, ts: Any, p: Path) -> list[tuple[str, str | None]]:
    """``(full type name, label feature or None)`` for each layer of the ``layer`` option."""
    names = [t.name for t in ts.get_types()]
    out = []
    for item in (spec or NAMED_ENTITY).split(","):
        type_name, _, feature = item.strip().partition(":")
        match = match_layer(type_name, names, p)
        if match is None:
            custom = [n for n in names if not n.startswith(("uima.", "de.tudarmstadt.ukp.dkpro.core."))]
            raise OptionError(f"{p}: no type {type_name!r} in the type system; its own types: "
                              f"{', '.join(custom) or 'none'}")
        t = ts.get_type(match)
        features = {f.name for f in t.all_features}
        if feature and feature not in features:
            raise OptionError(f"{p}: type {match!r} has no feature {feature!r} (features: "
                              f"{', '.join(sorted(features - _SKIPPED))})")
        out.append((match, label_feature(match, feature or None, _primitive(ts, t))))
    return out


def _primitive_label(ts: Any, type_name: str, feature: str | None) -> bool:
    """Whether a layer's label feature (if any) holds a primitive value (accord's own parser reads no other)."""
    if feature is None:
        return True
    f = next((f for f in ts.get_type(type_name).all_features if f.name == feature), None)
    return f is not None and f.name != "sofa" and ts.is_primitive(f.rangeType)


def _chosen_layers(spec: str | None, ts: Any, p: Path) -> tuple[list[tuple[str, str | None]], bool]:
    """:func:`_layers`, and whether accord's own parser reads them; worked out once per type system and option."""
    cache = type_cache(ts)
    key = ("layers", spec)
    found = cache.get(key)
    if found is None:
        layers = _layers(spec, ts, p)
        found = cache[key] = (layers, all(_primitive_label(ts, t, f) for t, f in layers))
    return found


@collection_paused   # (many small objects, no cycle: the collector would rescan them, a third of a large file)
def read_xmi(path: str | Path, *, layer: str | None = None, typesystem: Any = None, **_ignored: Any) -> Corpus:
    """Read the chosen layers of one XMI file as a document named after the file (see the module docstring)."""
    p = Path(path)
    ts = _type_system(p, typesystem)
    layers, own = _chosen_layers(layer, ts, p)
    cas = _load_cas(p, ts, own=own)
    text = cas.sofa_string or ""
    chosen: list[tuple[Any, str, str | None]] = []
    for type_name, label_feature_name in layers:
        chosen.extend((fs, type_name, label_feature_name) for fs in cas.select(type_name))
    if not chosen and layer is None:
        with quiet_library():
            every = cas.select_all_annotations() if hasattr(cas, "select_all_annotations") else cas.select_all()
        held = sorted({fs.type.name for fs in every} - {t for t, _ in layers})
        held = [t for t in held if not t.startswith(_PLUMBING)]
        if held:
            warnings.warn(AccordWarning(f"{p}: no {', '.join(t.rsplit('.', 1)[-1] for t, _ in layers)} annotation: "
                                        f"read as none; the file holds {', '.join(held)} "
                                        "(choose with --layer: accord score and "
                                        "convert; other commands: accord convert the file with --layer first)"),
                          stacklevel=2)
    ids = {fs.xmiID: str(fs.xmiID) for fs, _, _ in chosen}
    unread: Counter = Counter()
    raw = []
    read: dict[tuple[str, str | None], list[Any]] = {}     # the features read of each type, besides the label
    for fs, type_name, label_feature_name in chosen:
        label = getattr(fs, label_feature_name, None) if label_feature_name else None
        label = java_string(label) if label not in (None, "") else type_name.rsplit(".", 1)[-1]
        attrs: dict[str, Any] = {}
        features = read.get((fs.type.name, label_feature_name))
        if features is None:
            features = read[(fs.type.name, label_feature_name)] = [
                f for f in fs.type.all_features if f.name not in _SKIPPED and f.name != label_feature_name]
        for f in features:
            value = getattr(fs, f.name, None)
            if value is not None:
                _attribute(attrs, fs.type.name, f, value, ids, unread, ts)
        if not 0 <= fs.begin <= fs.end <= len(text):
            raise FormatError(f"annotation {fs.xmiID}: span [{fs.begin}, {fs.end}) does not fit the text", path=p)
        raw.append(RawAnnotation(label, fs.begin, fs.end, attrs, ids[fs.xmiID]))
    warn_unread(p, unread, [t for t, _ in layers])
    anns = build_annotations(raw, path=p, doc_id=p.stem)
    return Corpus([Document(p.stem, anns, text, None, None, Attributes(source=str(p)))], name=str(p))


def _attribute(attrs: dict[str, Any], type_name: str, f: Any, value: Any, ids: dict, unread: Counter,
               ts: Any) -> None:
    """Put feature ``f``'s ``value`` into ``attrs`` by the rule of :mod:`._uima` (a reference not read counted in
    ``unread``)."""
    if isinstance(value, (str, int, float, bool)):
        if value != "":
            attrs[f.name] = java_string(value)
        return
    elements = getattr(value, "elements", None)
    if elements is not None:
        element_type = ts.get_type(f.elementType.name) if getattr(f, "elementType", None) is not None else None
        slots = element_type is not None and {"role", "target"} <= {x.name for x in element_type.all_features}
        if slots and elements:
            attrs[f.name] = tuple("" if getattr(e, "role", None) is None else java_string(e.role) for e in elements)
            targets = [e.target for e in elements if getattr(e, "target", None) is not None]
            if targets and all(t.xmiID in ids for t in targets):
                attrs[targets_attribute(f.name)] = tuple(Ref(ids[t.xmiID]) for t in targets)
            elif targets:
                unread[(type_name, f.name, targets[0].type.name)] += len(targets)
        elif elements and all(isinstance(e, str) for e in elements):
            attrs[f.name] = tuple(elements)
        return
    target = getattr(value, "xmiID", None)
    if target in ids:
        attrs[f.name] = Ref(ids[target])
    elif target is not None and hasattr(value, "begin"):
        unread[(type_name, f.name, value.type.name)] += 1


def _check_size(fh: Any, p: Path) -> None:
    """Refuse, before parsing, a file (open, binary) with a text or attribute value longer than lxml parses (a
    stretch of :data:`MAX_XML_TEXT` bytes without a quote or an angle bracket), or a document type declaration."""
    run = 0
    head = fh.read(1 << 16)
    if doctype_refused(head):
        raise FormatError(DOCTYPE_REFUSED, path=p)
    fh.seek(0)
    while chunk := fh.read(1 << 22):
        found = [i for i in (chunk.find(d) for d in _DELIMITERS) if i >= 0]
        if found:
            run += min(found)
            if run <= MAX_XML_TEXT:
                run = len(chunk) - 1 - max(chunk.rfind(d) for d in _DELIMITERS)
        else:
            run += len(chunk)
        if run > MAX_XML_TEXT:
            raise FormatError(f"a text or attribute value of more than {MAX_XML_TEXT:,} bytes (the document "
                              "text?): over the XML parser's limit for UIMA XMI; refused before parsing "
                              "(split the document)", path=p)


def _load_cas(p: Path, ts: Any, own: bool = True) -> Any:
    """The CAS of one XMI file, read with the type system ``ts``: by accord's own parser
    (:mod:`._xmi_parser`) when ``own`` and the file holds nothing it leaves to cassis, else by cassis."""
    try:
        fh = p.open("rb")
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=p) from None
    cas = None
    with fh:
        _check_size(fh, p)
        if own:
            fh.seek(0)
            try:
                cas = parse_xmi(fh, ts, p)
            except FormatError:
                raise
            except Exception:   # Unsupported, or anything cassis may read (or refuse) in its own words
                cas = None
    if cas is not None:
        said = [f"Type with name [{name}] not found!" for name in cas.missing]
    else:
        cassis = _cassis()
        try:
            with p.open("rb") as fh, warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                cas = cassis.load_cas_from_xmi(fh, typesystem=ts, lenient=True)
        except Exception as exc:   # lxml, cassis: their own classes
            raise FormatError(f"not UIMA CAS XMI ({type(exc).__name__}: {exc})", path=p) from None
        said = [str(w.message) for w in caught]
    # cassis's lenient reading leaves out what the type system lacks, with a warning of its own: said once, here
    missing = sorted({m.group(1) for message in said for m in [_NOT_FOUND.search(message)]
                      if m and not m.group(1).startswith(_PLUMBING)})
    if missing:
        warnings.warn(AccordWarning(f"{p}: annotations of types the type system lacks left out: "
                                    f"{', '.join(missing[:5])}{' ...' if len(missing) > 5 else ''} (put the "
                                    f"project's TypeSystem.xml beside the file)"), stacklevel=3)
    return cas


@collection_paused
def read_coref_xmi(path: str | Path, typesystem: Any = None) -> dict[str, list[list[tuple[int, int]]]]:
    """Coreference chains of XMI files (one file, or a folder of them): DKPro Core's ``CoreferenceChain`` and
    INCEpTION's custom chain layers (:func:`chain_types`), each a list of links from ``first`` along ``next``;
    mentions as inclusive character offsets, the document id the file name without extension (as
    :func:`accord.formats.coref.clusters.read_coref` returns them)."""
    p = Path(path)
    files = sorted(p.glob("*.xmi")) if p.is_dir() else [p]
    if not files:
        raise FormatError("no .xmi file in this folder", path=p)
    out = {}
    for f in files:
        cas = _load_cas(f, _type_system(f, typesystem))
        chains = []
        for chain in (c for t in chain_types(cas.typesystem) for c in cas.select(t)):
            mentions, link, seen = [], chain.first, set()
            while link is not None:
                if id(link) in seen:
                    raise FormatError(f"coreference chain {chain.xmiID}: its links' next features form a cycle",
                                      path=f)
                seen.add(id(link))
                if not (hasattr(link, "next") and hasattr(link, "begin")):
                    raise FormatError(f"coreference chain {chain.xmiID}: its link {link.xmiID} is a "
                                      f"{link.type.name}, not a link (a span with a next feature)", path=f)
                mentions.append((link.begin, link.end - 1))
                link = link.next
            if mentions:
                chains.append(sorted(set(mentions)))
        out[f.stem] = sorted(chains, key=min)
    return out


def chain_types(ts: Any) -> list[str]:
    """The chain layers of a type system: DKPro Core's ``CoreferenceChain`` and INCEpTION's custom chain layers
    (``webanno.custom.*Chain``): each type with a feature ``first`` whose type is an annotation with a feature
    ``next`` of that same type, in the type system's order."""
    out = []
    for t in ts.get_types():
        first = next((f for f in t.all_features if f.name == "first"), None)
        if first is None:
            continue
        link = ts.get_type(getattr(first.rangeType, "name", first.rangeType))    # the full type, not the stub
        features = {f.name: f for f in link.all_features}
        following = features.get("next")
        if following is not None and getattr(following.rangeType, "name", following.rangeType) == link.name and \
                {"begin", "end"} <= set(features):
            out.append(t.name)
    return out


def write_xmi(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """XMI (DKPro Core named entities) with its ``TypeSystem.xml``: one document to a file (the type system beside
    it), or several (or any number to an existing folder) to a folder holding one ``.xmi``
    file per document (named by its id) and ``TypeSystem.xml``, as INCEpTION's and accord's readers read a folder,
    built beside ``path`` and moved in when complete; several documents to a ``.xmi`` file are an error."""
    from ..._support.safe_paths import atomic_directory, file_names, inside, is_stdout, staged_file, write_text

    cassis = _cassis()
    p = Path(path)
    with quiet_library():
        folder = p.is_dir() or (len(corpus) != 1 and p.suffix.lower() != ".xmi")
        if not folder:
            if len(corpus) != 1:
                raise FormatError(f"an XMI file holds one document; this corpus has {len(corpus)}: give a folder "
                                  "(one .xmi file per document and TypeSystem.xml are written in it)", path=p)
            ts = _named_entity_types(cassis)
            with staged_file(p) as staged:
                _write(cassis, ts, corpus.documents[0], staged, p)
            if not is_stdout(path):
                write_text(p.parent / "TypeSystem.xml", ts.to_xml())     # whole or not at all; never over an input
            return
        names = file_names([doc.id for doc in corpus.documents], ".xmi")
        with atomic_directory(p) as out:
            ts = _named_entity_types(cassis)
            for doc in corpus.documents:
                _write(cassis, ts, doc, inside(out, names[doc.id]), p)
            (out / "TypeSystem.xml").write_text(ts.to_xml(), encoding="utf-8")


def _named_entity_types(cassis: Any) -> Any:
    """DKPro Core's NamedEntity alone: a small type system, quick to read back."""
    ts = cassis.TypeSystem()
    entity = ts.create_type(NAMED_ENTITY, supertypeName="uima.tcas.Annotation")
    ts.create_feature(entity, "value", "uima.cas.String")
    return ts


def _write(cassis: Any, ts: Any, doc: Any, target: Path, shown: Path) -> None:
    """One document's CAS to ``target`` (``shown``: the output named in errors)."""
    if doc.text is None:
        raise FormatError(f"document {doc.id!r} has no text; a CAS holds text", path=shown)
    entity = ts.get_type(NAMED_ENTITY)
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = doc.text
    for a in doc.annotations:
        if a.start is None or a.attributes:
            what = "has no span" if a.start is None else "has attributes"
            raise FormatError(f"document {doc.id!r}: {a.label!r} {what}; accord writes XMI named entities (a span "
                              "and a label) only", path=shown)
        cas.add(entity(begin=a.start, end=a.end, value=a.label))
    cas.to_xmi(target)


def _sniff(p: Path) -> bool:
    head = file_head(p, 2048)
    return head is not None and "http://www.omg.org/XMI" in head


register(Format("xmi", read_xmi, write_xmi, (".xmi",), _sniff,
                "UIMA CAS XMI (INCEpTION, WebAnno): chosen layers with their features, through dkpro-cassis"))
