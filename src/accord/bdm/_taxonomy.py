"""Concept hierarchies for the BDM: a plain taxonomy file, or an OWL/RDF ontology through rdflib."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .._support.io import read_text
from ..errors import FormatError, OntologyError

__all__ = ["Taxonomy", "read_taxonomy", "read_ontology", "read_hierarchy"]


@dataclass(frozen=True)
class Taxonomy:
    """Concepts and their direct superclasses (several allowed: a directed acyclic graph).

    A *top* concept has no superclass; a *leaf* has no subclass. Build one with
    :meth:`from_edges`, :func:`read_taxonomy` or :func:`read_ontology`.
    """

    parents: Mapping[str, tuple[str, ...]]
    children: Mapping[str, tuple[str, ...]] = field(repr=False)

    @classmethod
    def from_edges(cls, edges: Iterable[tuple[str, str | None]]) -> Taxonomy:
        """From ``(concept, superclass)`` pairs; ``(concept, None)`` declares a concept alone.

        Raises :class:`~accord.errors.OntologyError` on a cycle (naming its concepts).
        """
        parents: dict[str, list[str]] = {}
        for child, parent in edges:
            ps = parents.setdefault(child, [])
            if parent is not None:
                parents.setdefault(parent, [])
                if parent == child:
                    raise OntologyError(f"concept {child!r} is declared its own superclass")
                if parent not in ps:
                    ps.append(parent)
        children: dict[str, list[str]] = {c: [] for c in parents}
        for c, ps in parents.items():
            for p in ps:
                children[p].append(c)
        tax = cls({c: tuple(ps) for c, ps in parents.items()}, {c: tuple(cs) for c, cs in children.items()})
        tax._check_acyclic()
        return tax

    def _check_acyclic(self) -> None:
        state: dict[str, int] = {}
        for root in self.parents:
            if root in state:
                continue
            stack = [(root, iter(self.parents[root]))]
            state[root] = 1
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    state[node] = 2
                    stack.pop()
                elif state.get(nxt) == 1:
                    cycle = [n for n, _ in stack][[n for n, _ in stack].index(nxt):]
                    raise OntologyError("the subclass relation has a cycle: " + " -> ".join(cycle + [nxt]))
                elif nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(self.parents[nxt])))

    @property
    def concepts(self) -> list[str]:
        return list(self.parents)

    def __contains__(self, concept: object) -> bool:
        return concept in self.parents


def read_taxonomy(path: str | Path) -> Taxonomy:
    """Read a plain taxonomy: one ``concept<TAB>superclass`` pair per line.

    A line with one name declares a concept (a top concept unless another line gives it a
    superclass); blank lines and lines starting with ``#`` are skipped. Names are taken as
    written (spaces inside a name are kept; the separator is the tab).
    """
    p = Path(path)
    text = read_text(p)
    edges: list[tuple[str, str | None]] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) > 2 or not cells[0] or (len(cells) == 2 and not cells[1]):
            raise FormatError(f"expected 'concept<TAB>superclass' or one concept name, got {line!r}", path=p, line=n)
        edges.append((cells[0], cells[1] if len(cells) == 2 else None))
    if not edges:
        raise FormatError("no concept: expected 'concept<TAB>superclass' lines", path=p)
    try:
        return Taxonomy.from_edges(edges)
    except OntologyError as exc:
        raise FormatError(str(exc), path=p) from None


def _local_name(iri: str) -> str:
    for sep in ("#", "/", ":"):
        if sep in iri.rstrip(sep):
            return iri.rstrip(sep).rsplit(sep, 1)[1]
    return iri


def read_ontology(path: str | Path, *, format: str | None = None) -> Taxonomy:
    """The class hierarchy of an OWL or RDF ontology (``rdfs:subClassOf`` between named classes).

    Needs rdflib (``pip install accord[ontology]``). Classes are the IRIs typed
    ``owl:Class`` or ``rdfs:Class`` or related by ``rdfs:subClassOf``; blank nodes (OWL
    restrictions) and ``owl:Thing`` are left out, so the classes directly under
    ``owl:Thing`` are the top concepts. Concepts are named by their local name (after ``#``
    or the last ``/``), or by the full IRI where two classes share one. ``format`` is an
    rdflib parser name (``xml``, ``turtle``, ``nt``...), guessed from the extension by default.
    """
    try:
        import rdflib
        from rdflib.namespace import OWL, RDF, RDFS
    except ImportError:  # pragma: no cover - rdflib is a declared dependency of the extra
        raise OntologyError("reading OWL/RDF needs rdflib: pip install 'accord[ontology]'") from None
    p = Path(path)
    _refuse_xml_entities(p)
    graph = rdflib.Graph()
    fmt = format or rdflib.util.guess_format(str(p)) or ("xml" if p.suffix.lower() in (".owl", ".rdf") else None)
    try:
        graph.parse(str(p), format=fmt)
    except FileNotFoundError:
        raise FormatError("cannot read: No such file or directory", path=p) from None
    except Exception as exc:  # rdflib raises parser-specific exception types
        raise FormatError(f"not a readable RDF/OWL document ({type(exc).__name__}: {exc})", path=p) from None
    ignored = {OWL.Thing, RDFS.Resource}
    classes: set = set()
    for kind in (OWL.Class, RDFS.Class):
        classes.update(s for s in graph.subjects(RDF.type, kind) if isinstance(s, rdflib.URIRef))
    pairs = []
    for s, o in graph.subject_objects(RDFS.subClassOf):
        if isinstance(s, rdflib.URIRef) and s not in ignored:
            classes.add(s)
            if isinstance(o, rdflib.URIRef) and o not in ignored and o != s:
                classes.add(o)
                pairs.append((s, o))
    classes -= ignored
    if not classes:
        raise FormatError("no class found (expected owl:Class, rdfs:Class or rdfs:subClassOf statements)", path=p)
    local: dict[str, list] = {}
    for c in classes:
        local.setdefault(_local_name(str(c)), []).append(c)
    name = {c: (ln if len(cs) == 1 else str(c)) for ln, cs in local.items() for c in cs}
    edges: list[tuple[str, str | None]] = [(name[c], None) for c in sorted(classes, key=str)]
    edges += sorted((name[s], name[o]) for s, o in pairs)
    try:
        return Taxonomy.from_edges(edges)
    except OntologyError as exc:
        raise FormatError(str(exc), path=p) from None


_MAX_ENTITY = 2048
"""Longest replacement text of an XML entity accepted in an ontology."""


class _Refused(Exception):
    pass


def _refuse_xml_entities(p: Path) -> None:
    """An XML ontology is first scanned with expat: rdflib's parser would expand entities however
    large they grow. Plain internal entities, as Protégé writes for namespaces (``<!ENTITY owl
    "http://www.w3.org/2002/07/owl#">``), are accepted; an entity that refers to another entity,
    a parameter entity, an external entity or one longer than :data:`_MAX_ENTITY` characters is
    refused, so expansion stays linear in the size of the file."""
    try:
        with p.open("rb") as fh:
            head = fh.read(4096).lstrip()
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", path=p) from None
    if not head.startswith((b"<", b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or b"<!ENTITY" not in p.read_bytes():
        return
    from xml.parsers import expat

    def declared(name: str, is_parameter: bool, value: str | None, base: object, system_id: str | None,
                 public_id: str | None, notation: str | None) -> None:
        if is_parameter or value is None:
            raise _Refused(f"the entity {name!r} is a parameter or external entity")
        if "&" in value or "%" in value:
            raise _Refused(f"the entity {name!r} refers to other entities")
        if len(value) > _MAX_ENTITY:
            raise _Refused(f"the entity {name!r} is {len(value)} characters long (at most {_MAX_ENTITY})")

    def external(*_args: object) -> int:
        raise _Refused("an external entity is referenced")

    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.EntityDeclHandler = declared
    parser.ExternalEntityRefHandler = external
    try:
        with p.open("rb") as fh:
            parser.ParseFile(fh)
    except _Refused as exc:
        raise FormatError(f"refused XML: {exc} (accord expands only plain internal entities)", path=p) from None
    except expat.ExpatError as exc:
        raise FormatError(f"not well-formed XML ({expat.errors.messages.get(exc.code, exc)} at line "
                          f"{exc.lineno}, column {exc.offset})", path=p) from None


def read_hierarchy(path: str | Path, *, format: str | None = None) -> Taxonomy:
    """A taxonomy file (``.tsv``, ``.txt`` or ``format="taxonomy"``) or an ontology (anything else)."""
    p = Path(path)
    if format == "taxonomy" or (format is None and p.suffix.lower() in (".tsv", ".txt", ".tax")):
        return read_taxonomy(p)
    return read_ontology(p, format=format)
