"""UIMA CAS XMI, as INCEpTION and WebAnno export it, read and written through dkpro-cassis.

Reading needs the type system: the file given as ``typesystem``, else a ``TypeSystem.xml`` (or
``typesystem.xml``) in the XMI file's folder, as INCEpTION's "UIMA CAS XMI" export puts it; without one,
DKPro Core's type system (named entities, tokens...) is used. Offsets are code points of the document text
(cassis converts UIMA's UTF-16 offsets).

``layer`` chooses what is read: one or more annotation types, comma-separated, each ``TYPE`` or
``TYPE:FEATURE`` (the feature that gives the label); a type may be named by its last part
(``NamedEntity``, ``custom.Span``). The default is DKPro Core's ``NamedEntity`` with the label ``value``. An
annotation without a label value takes the type's short name. The type's other features become attributes
(missing values left out); a feature whose value is another annotation read from the file becomes an
annotation-valued attribute (INCEpTION's relation layers: ``Governor``, ``Dependent``). A type that the type
system lacks, or that no annotation has, is an error naming the types the file holds.

Writing keeps spans as DKPro Core ``NamedEntity`` annotations with their label in ``value`` and writes the
type system beside the file (``TypeSystem.xml``); a spanless annotation or an attribute is an error.
``dkpro-cassis`` is an optional dependency (``pip install 'accord[xmi]'``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import FormatError, OptionError
from ..model import Attributes, Corpus, Document
from ._refs import RawAnnotation, Ref, build_annotations
from ._registry import Format, file_head, register

__all__ = ["read_xmi", "write_xmi", "read_coref_xmi", "NAMED_ENTITY", "COREFERENCE_CHAIN"]

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
COREFERENCE_CHAIN = "de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceChain"
_SKIPPED = {"sofa", "begin", "end"}
_TYPESYSTEM_FILES = ("TypeSystem.xml", "typesystem.xml")


def _cassis() -> Any:
    try:
        import cassis
    except ImportError:  # pragma: no cover - depends on the environment
        raise OptionError("reading or writing UIMA XMI needs dkpro-cassis: pip install 'accord[xmi]'") from None
    return cassis


def _type_system(p: Path, typesystem: Any) -> Any:
    """The type system of ``p``: the file given, else ``TypeSystem.xml`` beside ``p``, else DKPro Core's. Parsed
    once for all the files of a folder (:func:`_parsed_type_system` keeps the last few)."""
    candidates = [Path(typesystem)] if typesystem else [p.parent / name for name in _TYPESYSTEM_FILES]
    for candidate in candidates:
        if candidate.is_file():
            stat = candidate.stat()
            return _parsed_type_system(str(candidate.resolve()), stat.st_mtime_ns, stat.st_size)
    if typesystem:
        raise FormatError("no such type system file", path=typesystem)
    return _parsed_type_system(None, 0, 0)


@lru_cache(maxsize=8)
def _parsed_type_system(path: str | None, mtime_ns: int, size: int) -> Any:
    """A type system file parsed (``None``: DKPro Core's); the modification time and size key the cache."""
    cassis = _cassis()
    if path is None:
        return cassis.load_dkpro_core_typesystem()
    try:
        with open(path, "rb") as fh:
            return cassis.load_typesystem(fh)
    except Exception as exc:   # cassis and lxml raise their own classes
        raise FormatError(f"not a UIMA type system ({type(exc).__name__}: {exc})", path=path) from None


def _layers(spec: str | None, ts: Any, p: Path) -> list[tuple[str, str | None]]:
    """``(full type name, label feature or None)`` for each layer of the ``layer`` option."""
    names = [t.name for t in ts.get_types()]
    out = []
    for item in (spec or NAMED_ENTITY).split(","):
        type_name, _, feature = item.strip().partition(":")
        matches = [n for n in names if n == type_name or n.endswith("." + type_name)]
        if len(matches) != 1:
            custom = [n for n in names if not n.startswith(("uima.", "de.tudarmstadt.ukp.dkpro.core."))]
            raise OptionError(f"{p}: {'no' if not matches else 'more than one'} type {type_name!r} in the type "
                              f"system{' (' + ', '.join(matches) + ')' if matches else ''}; its own types: "
                              f"{', '.join(custom) or 'none'}")
        t = ts.get_type(matches[0])
        features = {f.name for f in t.all_features}
        if feature and feature not in features:
            raise OptionError(f"{p}: type {matches[0]!r} has no feature {feature!r} (features: "
                              f"{', '.join(sorted(features - _SKIPPED))})")
        out.append((matches[0], feature or ("value" if "value" in features else None)))
    return out


def read_xmi(path: str | Path, *, layer: str | None = None, typesystem: Any = None, **_ignored: Any) -> Corpus:
    """Read the chosen layers of one XMI file as a document named after the file (see the module docstring)."""
    p = Path(path)
    ts = _type_system(p, typesystem)
    layers = _layers(layer, ts, p)
    cas = _load_cas(p, ts)
    text = cas.sofa_string or ""
    chosen = []
    for type_name, label_feature in layers:
        chosen.extend((fs, type_name, label_feature) for fs in cas.select(type_name))
    if not chosen:
        every = cas.select_all_annotations() if hasattr(cas, "select_all_annotations") else cas.select_all()
        held = sorted({fs.type.name for fs in every})
        raise FormatError(f"no annotation of {', '.join(t for t, _ in layers)} in this file (it holds "
                          f"{', '.join(held) or 'no annotations'}); choose the layer with --layer", path=p)
    ids = {fs.xmiID: str(fs.xmiID) for fs, _, _ in chosen}
    raw = []
    for fs, type_name, label_feature in chosen:
        label = getattr(fs, label_feature) if label_feature else None
        label = str(label) if label not in (None, "") else type_name.rsplit(".", 1)[-1]
        attrs: dict[str, Any] = {}
        for f in fs.type.all_features:
            if f.name in _SKIPPED or f.name == label_feature:
                continue
            value = getattr(fs, f.name, None)
            if value is None:
                continue
            if isinstance(value, (str, int, float, bool)):
                attrs[f.name] = value
            elif getattr(value, "xmiID", None) in ids:
                attrs[f.name] = Ref(ids[value.xmiID])
        if not 0 <= fs.begin <= fs.end <= len(text):
            raise FormatError(f"annotation {fs.xmiID}: span [{fs.begin}, {fs.end}) does not fit the text", path=p)
        raw.append(RawAnnotation(label, fs.begin, fs.end, attrs, ids[fs.xmiID]))
    anns = build_annotations(raw, path=p, doc_id=p.stem)
    return Corpus([Document(p.stem, anns, text, None, None, Attributes(source=str(p)))], name=str(p))


def _load_cas(p: Path, ts: Any) -> Any:
    """The CAS of one XMI file, read with the type system ``ts``."""
    cassis = _cassis()
    try:
        with p.open("rb") as fh:
            return cassis.load_cas_from_xmi(fh, typesystem=ts, lenient=True)
    except Exception as exc:   # lxml, cassis: their own classes
        raise FormatError(f"not UIMA CAS XMI ({type(exc).__name__}: {exc})", path=p) from None


def read_coref_xmi(path: str | Path, typesystem: Any = None) -> dict[str, list[list[tuple[int, int]]]]:
    """Coreference chains of XMI files (one file, or a folder of them): DKPro Core's ``CoreferenceChain``, each
    a list of ``CoreferenceLink`` from ``first`` along ``next``; mentions as inclusive character offsets, the
    document id the file name without extension (as :func:`accord.formats.coref.read_coref` returns them)."""
    p = Path(path)
    files = sorted(p.glob("*.xmi")) if p.is_dir() else [p]
    if not files:
        raise FormatError("no .xmi file in this folder", path=p)
    out = {}
    for f in files:
        cas = _load_cas(f, _type_system(f, typesystem))
        chains = []
        declared = {t.name for t in cas.typesystem.get_types()}
        for chain in cas.select(COREFERENCE_CHAIN) if COREFERENCE_CHAIN in declared else []:
            mentions, link, seen = [], chain.first, set()
            while link is not None:
                if id(link) in seen:
                    raise FormatError(f"coreference chain {chain.xmiID}: its links' next features form a cycle",
                                      path=f)
                seen.add(id(link))
                mentions.append((link.begin, link.end - 1))
                link = link.next
            if mentions:
                chains.append(sorted(set(mentions)))
        out[f.stem] = sorted(chains, key=min)
    return out


def write_xmi(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """One document as XMI (DKPro Core named entities), and ``TypeSystem.xml`` beside it."""
    cassis = _cassis()
    p = Path(path)
    if len(corpus) != 1:
        raise FormatError(f"an XMI file holds one document; this corpus has {len(corpus)} (write them one by one)",
                          path=p)
    (doc,) = corpus.documents
    if doc.text is None:
        raise FormatError(f"document {doc.id!r} has no text; a CAS holds text", path=p)
    ts = cassis.TypeSystem()     # DKPro Core's NamedEntity alone: a small type system, quick to read back
    entity = ts.create_type(NAMED_ENTITY, supertypeName="uima.tcas.Annotation")
    ts.create_feature(entity, "value", "uima.cas.String")
    cas = cassis.Cas(typesystem=ts)
    cas.sofa_string = doc.text
    for a in doc.annotations:
        if a.start is None or a.attributes:
            what = "has no span" if a.start is None else "has attributes"
            raise FormatError(f"document {doc.id!r}: {a.label!r} {what}; accord writes XMI named entities (a span "
                              "and a label) only", path=p)
        cas.add(entity(begin=a.start, end=a.end, value=a.label))
    cas.to_xmi(p)
    ts.to_xml(p.parent / "TypeSystem.xml")


def _sniff(p: Path) -> bool:
    head = file_head(p, 2048)
    return head is not None and "http://www.omg.org/XMI" in head


register(Format("xmi", read_xmi, write_xmi, (".xmi",), _sniff,
                "UIMA CAS XMI (INCEpTION, WebAnno): chosen layers with their features, through dkpro-cassis"))
