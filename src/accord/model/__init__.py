"""The data model: annotations, documents and corpora.

Everything here is immutable and cheap to build in bulk. Offsets are half-open,
``[start, end)``, in characters when a document has text and in tokens when it only
has tokens (``Document.unit`` says which).

An :class:`Annotation` has a label, a span or none (a *spanless* annotation, such as a
relation), attributes and an optional id. Attribute values are strings, ints, floats,
booleans or other annotations, singly, as a ``frozenset`` (set aggregation) or a
``tuple`` (list aggregation). An annotation-valued attribute holds the target
:class:`Annotation` object itself: annotations compare and hash by identity, so two
annotations with equal fields stay two annotations.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, KeysView, Mapping, Sequence, ValuesView
from typing import Any, NamedTuple

from ..errors import AccordError

__all__ = [
    "TOKEN_OFFSETS",
    "Attributes",
    "Annotation",
    "Document",
    "Corpus",
    "EMPTY_ATTRIBUTES",
    "SCALAR_TYPES",
    "is_aggregate",
    "make_annotation",
    "normalize_fragments",
    "same_extent",
    "span_key",
    "SpanKey",
    "overlap_length",
    "covered_length",
    "covered_text",
]

TOKEN_OFFSETS = "token_offsets"
"""The metadata key under which a document placed on a text (:mod:`accord.pipeline._offset_units`) keeps its tokens'
``(starts, ends)`` in characters (arrays), so that token scores (MAT's ``--by-token``) still count its tokens."""


class Attributes(dict[str, Any]):
    """A read-only dict of attribute values."""

    __slots__ = ()

    def _readonly(self, *args: Any, **kwargs: Any) -> None:
        raise TypeError("annotation attributes are immutable; build a new Annotation instead")

    # dict's writers are replaced by a refusal on purpose (read-only), so their signatures differ from dict's
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = _readonly  # type: ignore[assignment]
    __ior__ = _readonly  # type: ignore[assignment]

    def __reduce__(self) -> tuple[Any, ...]:
        return (Attributes, (dict(self),))

    def __hash__(self) -> int:  # type: ignore[override]  # dict is unhashable; these hash by identity
        return id(self)


EMPTY_ATTRIBUTES = Attributes()


class Annotation(NamedTuple):
    """One annotation.

    Parameters
    ----------
    label : str
        The true label (for a task with effective labels, e.g. ``ENAMEX``).
    start, end : int or None
        Half-open span; both ``None`` for a spanless annotation.
    attributes : Attributes
        Attribute values (see the module docstring for the value types).
    id : str or None
        The identifier the source format gave it, if any.
    fragments : tuple of (int, int), or None
        A discontinuous span (brat's ``T1 PER 0 4;9 12``): its pieces, sorted, disjoint and not
        touching, two or more; ``start`` and ``end`` are then the extent that covers them.
        ``None`` for a contiguous span. Exactness and overlap are computed on the pieces
        (:func:`same_extent`, :func:`overlap_length`).
    """

    label: str
    start: int | None = None
    end: int | None = None
    attributes: Attributes = EMPTY_ATTRIBUTES
    id: str | None = None
    fragments: tuple[tuple[int, int], ...] | None = None

    @property
    def spanned(self) -> bool:
        """Whether the annotation has a span."""
        return self.start is not None

    def get(self, name: str, default: Any = None) -> Any:
        """The value of attribute ``name`` or ``default``."""
        return self.attributes.get(name, default)

    def referenced(self) -> Iterator[Annotation]:
        """The annotations this one points to through annotation-valued attributes."""
        for value in self.attributes.values():
            if isinstance(value, Annotation):
                yield value
            elif is_aggregate(value):
                for item in value:
                    if isinstance(item, Annotation):
                        yield item

    @property
    def pieces(self) -> tuple[tuple[int, int], ...]:
        """The span as pieces: the fragments of a discontinuous span, the span itself, or none."""
        if self.fragments is not None:
            return self.fragments
        if self.start is None:
            return ()
        assert self.end is not None  # make_annotation: a start comes with an end
        return ((self.start, self.end),)

    def __repr__(self) -> str:
        span = f"[{self.start},{self.end})" if self.start is not None else "spanless"
        if self.fragments is not None:
            span = "[" + ";".join(f"{a},{b}" for a, b in self.fragments) + ")"
        attrs = ""
        if self.attributes:
            attrs = " " + ", ".join(f"{k}={_short(v)}" for k, v in self.attributes.items())
        ident = f" #{self.id}" if self.id is not None else ""
        return f"<{self.label} {span}{attrs}{ident}>"


# identity semantics: an annotation is a thing, not a value. Set after the class, as type checkers take an assignment
# in a NamedTuple's body for a field; object's own methods keep the C slots, so comparing and hashing stay as fast.
for _name in ("__eq__", "__ne__", "__hash__"):
    setattr(Annotation, _name, getattr(object, _name))
del _name

def _short(value: Any) -> str:
    if isinstance(value, Annotation):
        return f"<{value.label}#{value.id}>" if value.id else f"<{value.label}@{value.start}>"
    if is_aggregate(value):
        return "{" + ",".join(sorted(_short(v) for v in value)) + "}"
    return repr(value)


SCALAR_TYPES = frozenset({str, int, float, bool, type(None)})
"""The types of attribute values that are neither annotations nor aggregates (checked with ``type(v) in``)."""


def is_aggregate(value: Any) -> bool:
    """Whether an attribute value is a set (frozenset) or a list (tuple), not a single value.

    Needed because an :class:`Annotation` is itself a tuple.
    """
    return isinstance(value, frozenset) or (isinstance(value, tuple) and not isinstance(value, Annotation))


def make_annotation(
    label: str,
    start: int | None = None,
    end: int | None = None,
    attributes: Mapping[str, Any] | None = None,
    id: str | None = None,
    fragments: Iterable[tuple[int, int]] | None = None,
) -> Annotation:
    """Build an :class:`Annotation`, checking the span and freezing the attributes.

    ``fragments`` (the pieces of a discontinuous span) are sorted and joined where they
    overlap or touch; ``start`` and ``end`` may then be omitted (they become the covering
    extent), and pieces that join into one make a contiguous span.
    """
    frags = None
    if fragments is not None:
        frags = normalize_fragments(fragments, label)
        lo, hi = frags[0][0], frags[-1][1]
        if (start is not None and start != lo) or (end is not None and end != hi):
            raise AccordError(f"annotation {label!r}: span [{start}, {end}) is not the extent of its fragments "
                              f"[{lo}, {hi})")
        start, end = lo, hi
        if len(frags) == 1:
            frags = None
    if (start is None) != (end is None):
        raise AccordError(f"annotation {label!r}: give both start and end, or neither")
    if start is not None and end is not None and (start < 0 or end < start):   # (both or neither: checked above)
        raise AccordError(f"annotation {label!r}: invalid span [{start}, {end})")
    if not attributes:
        return Annotation(label, start, end, EMPTY_ATTRIBUTES, id, frags)
    attrs = Attributes(attributes)
    for k, v in attrs.items():
        if isinstance(v, _MUTABLE) and type(v) is not frozenset:
            dict.__setitem__(attrs, k, _freeze(v))   # replacing a value of a key being iterated is allowed
    return Annotation(label, start, end, attrs, id, frags)


def normalize_fragments(fragments: Iterable[tuple[int, int]], label: str = "") -> tuple[tuple[int, int], ...]:
    """Pieces of a span, sorted, with overlapping or touching pieces joined (at least one)."""
    out: list[list[int]] = []
    for a, b in sorted((int(a), int(b)) for a, b in fragments):
        if a < 0 or b < a:
            raise AccordError(f"annotation {label!r}: invalid fragment [{a}, {b})")
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    if not out:
        raise AccordError(f"annotation {label!r}: a discontinuous span needs at least one fragment")
    return tuple((a, b) for a, b in out)


def same_extent(r: Annotation, h: Annotation) -> bool:
    """Whether two spanned annotations cover exactly the same offsets (fragment by fragment)."""
    return r.start == h.start and r.end == h.end and r.fragments == h.fragments


def overlap_length(r: Annotation, h: Annotation) -> int:
    """How many offsets two spanned annotations share, counted on their pieces."""
    if r.fragments is None and h.fragments is None:
        assert r.start is not None and r.end is not None and h.start is not None and h.end is not None  # spanned
        return max(0, min(r.end, h.end) - max(r.start, h.start))
    total = 0
    for a, b in r.pieces:
        for c, d in h.pieces:
            total += max(0, min(b, d) - max(a, c))
    return total


SpanKey = tuple[int | None, int | None] | tuple[int | None, int | None, tuple[tuple[int, int], ...]]
"""What :func:`span_key` gives: ``(start, end)``, or ``(start, end, pieces)`` for a discontinuous span."""


def span_key(a: Annotation) -> SpanKey:
    """A hashable key equal for annotations with equal extents: ``(start, end)``, with the pieces of a
    discontinuous span added (a contiguous span never equals a discontinuous one)."""
    return (a.start, a.end) if a.fragments is None else (a.start, a.end, a.fragments)


def covered_text(text: str, a: Annotation) -> str:
    """The characters ``a`` covers in ``text``: its pieces joined by a space (as brat quotes a discontinuous span),
    ``""`` for a spanless annotation."""
    return " ".join(text[x:y] for x, y in a.pieces)


def covered_length(a: Annotation) -> int:
    """How many offsets a spanned annotation covers (the sum of its pieces)."""
    return sum(e - s for s, e in a.pieces)


_MUTABLE = (set, frozenset, list)


def _freeze(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return frozenset(value)
    if isinstance(value, list):
        return tuple(value)
    return value


class Document(NamedTuple):
    """A document: an id, its text or tokens, its annotations and metadata.

    Parameters
    ----------
    id : str
        Unique within a corpus; gold and predicted documents are paired by it.
    annotations : tuple of Annotation
    text : str or None
        The signal; spans are character offsets into it when it is present.
    tokens : sequence of str or None
        Token strings; spans are token offsets when ``text`` is absent. A tuple, or, from the
        column-file readers, a :class:`~accord.model._text_fields.TextFields` that makes a token's string
        when it is read and equals the tuple of its strings.
    sentences : tuple of (int, int) or None
        Sentence extents, in the unit of the spans.
    metadata : dict
        Free metadata (e.g. the attributes of a ``<text>`` element, a genre).
    """

    id: str
    annotations: tuple[Annotation, ...] = ()
    text: str | None = None
    tokens: Sequence[str] | None = None
    sentences: tuple[tuple[int, int], ...] | None = None
    metadata: Mapping[str, Any] = EMPTY_ATTRIBUTES

    @property
    def unit(self) -> str:
        """``"char"`` when spans index the text, ``"token"`` when they index tokens."""
        return "char" if self.text is not None or self.tokens is None else "token"

    def surface(self, start: int | None, end: int | None) -> str:
        """The text covered by ``[start, end)``, or ``""`` for no span."""
        if start is None:
            return ""
        if self.text is not None:
            return self.text[start:end]
        if self.tokens is not None:
            return " ".join(self.tokens[start:end])
        return ""

    def replace_annotations(self, annotations: Iterable[Annotation]) -> Document:
        """A copy of this document with other annotations."""
        return self._replace(annotations=tuple(annotations))


class Corpus(Mapping[str, Document]):
    """An ordered collection of documents with unique ids.

    Parameters
    ----------
    documents : iterable of Document
    name : str, optional
        Where the corpus came from (a path), used in messages.
    files : mapping, optional
        The file name of each document (:attr:`files`), as MAT's scorer names files.
    """

    __slots__ = ("_docs", "name", "files")

    def __init__(self, documents: Iterable[Document] = (), name: str | None = None,
                 files: Mapping[str, str] | None = None):
        docs: dict[str, Document] = {}
        for doc in documents:
            if doc.id in docs:
                raise AccordError(f"{name or 'corpus'}: document id {doc.id!r} appears twice")
            docs[doc.id] = doc
        self._docs = docs
        self.name = name
        self.files: dict[str, str] = dict(files or {})
        """The file name (without its folder) each document was read from, by document id, when read from files."""

    def __getitem__(self, key: str) -> Document:
        return self._docs[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._docs)

    def __len__(self) -> int:
        return len(self._docs)

    # the dict's own views and lookups: Mapping's generic ones call __getitem__ once per document
    def __contains__(self, key: object) -> bool:
        return key in self._docs

    def get(self, key: str, default: Any = None) -> Any:
        return self._docs.get(key, default)

    def keys(self) -> KeysView[str]:
        return self._docs.keys()

    def values(self) -> ValuesView[Document]:
        return self._docs.values()

    def items(self) -> ItemsView[str, Document]:
        return self._docs.items()

    @property
    def documents(self) -> list[Document]:
        """The documents in order."""
        return list(self._docs.values())

    def annotation_count(self) -> int:
        """The number of annotations over all documents."""
        return sum(len(d.annotations) for d in self._docs.values())

    def __repr__(self) -> str:
        return f"<Corpus {self.name or ''} {len(self)} documents, {self.annotation_count()} annotations>"
