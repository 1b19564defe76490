"""Annotation Diff of one document and of a corpus: rows of paired annotations and their counts."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import numpy as np

from .._support.names import check_names
from ..errors import OptionError, PairingError, TallyError
from ..match.similarity import implied_span
from ..model import Annotation, Corpus, Document
from ._counts import DiffCounts
from ._pairing import CORRECT, MISMATCH, PAIRINGS, PARTIAL, compatibility, pair
from ._relations import check_target_types, pair_spanless, spanless_depths

__all__ = ["OUTCOMES", "DiffRow", "TypeDiff", "CorpusDiff", "annotation_diff", "diff_corpora", "hide_adjudicated",
           "document_constant", "document_constants"]


class BdmLookup(Protocol):
    """What the BDM credit needs of a :class:`accord.bdm.BdmTable`: the BDM of two concepts."""

    def bdm(self, key: str, response: str) -> float: ...


OUTCOMES = ("correct", "partial", "mismatch", "wrong", "missing", "spurious")
"""Row outcomes; GATE's diff view shows them as ``=``, ``~``, ``<>``, ``?``, ``-?`` and ``?-``."""

_BY_VALUE = {CORRECT: "correct", PARTIAL: "partial", MISMATCH: "mismatch", 0: "wrong"}


class DiffRow(NamedTuple):
    """One line of the diff: a key, a response or both, and what became of them.

    ``mismatch`` (coextensive, features differ) and ``wrong`` (overlapping, features
    differ) pairs count as one missing key and one spurious response.
    """

    key: Annotation | None
    response: Annotation | None
    outcome: str

    @property
    def position(self) -> tuple[int, int]:
        """The span of the row's annotation (key, else response); for a relation or event, the extent of what it
        points to; ``(-1, -1)`` when that is nothing spanned."""
        a = self.key if self.key is not None else self.response
        assert a is not None
        if a.start is not None:
            assert a.end is not None  # make_annotation: a start comes with an end
            return (a.start, a.end)
        return implied_span(a) or (-1, -1)


@dataclass(frozen=True)
class TypeDiff:
    """The diff of the key and response annotations of one type in one document."""

    type: str
    rows: tuple[DiffRow, ...]
    counts: DiffCounts

    def annotations(self, outcome: str, side: str = "key") -> list[Annotation]:
        """The key (or response) annotations of the rows with this outcome."""
        return [getattr(r, side) for r in self.rows if r.outcome == outcome and getattr(r, side) is not None]


def _spanned(anns: Iterable[Annotation], side: str, doc_id: str | None) -> list[Annotation]:
    out = []
    for a in anns:
        if a.start is None:
            raise PairingError(f"document {doc_id!r}: {side} annotation {a.label!r} has no span; the Annotation Diff "
                               "compares spanned annotations (choose spanned types with --type)")
        out.append(a)
    return out


def _without_spanless(pairs: list[tuple[str, Document | None, Document | None]]
                      ) -> list[tuple[str, Document | None, Document | None]]:
    """The paired documents without their spanless annotations (relations, events, equivalences), which the
    Annotation Diff does not compare; a warning counts them by type."""
    import warnings
    from collections import Counter

    from ..errors import AccordWarning

    left_out: Counter[str] = Counter()

    def spanned(doc: Document | None) -> Document | None:
        if doc is None or all(a.start is not None for a in doc.annotations):
            return doc
        left_out.update(a.label for a in doc.annotations if a.start is None)
        return doc._replace(annotations=tuple(a for a in doc.annotations if a.start is not None))

    out = [(doc_id, spanned(k), spanned(r)) for doc_id, k, r in pairs]
    if left_out:
        kinds = ", ".join(f"{label} ({n})" for label, n in sorted(left_out.items()))
        warnings.warn(AccordWarning(f"spanless annotations left out, over both sides: {kinds} (name their types, "
                                    "and those they point to, with --types to compare them)"), stacklevel=3)
    return out


def _diff_type(type_: str, keys: list[Annotation], resps: list[Annotation], features: Sequence[str] | None,
               pairing: str, as_strings: bool, doc_id: str | None) -> TypeDiff:
    ks = np.fromiter((a.start for a in keys), dtype=np.int64, count=len(keys))
    ke = np.fromiter((a.end for a in keys), dtype=np.int64, count=len(keys))
    rs = np.fromiter((a.start for a in resps), dtype=np.int64, count=len(resps))
    re = np.fromiter((a.end for a in resps), dtype=np.int64, count=len(resps))
    ki, ri, value = pair(ks, ke, rs, re, compatibility(keys, resps, features, as_strings), pairing, (keys, resps))
    return _type_diff(type_, keys, resps, ki, ri, value, doc_id)


def _type_diff(type_: str, keys: list[Annotation], resps: list[Annotation], ki: np.ndarray, ri: np.ndarray,
               value: np.ndarray, doc_id: str | None) -> TypeDiff:
    """The rows and counts of one type from its pairs (key index, response index, value)."""
    rows = [DiffRow(keys[k], resps[r], _BY_VALUE[v]) for k, r, v in zip(ki.tolist(), ri.tolist(), value.tolist())]
    used_k = np.zeros(len(keys), dtype=bool)
    used_k[ki] = True
    used_r = np.zeros(len(resps), dtype=bool)
    used_r[ri] = True
    rows.extend(DiffRow(keys[i], None, "missing") for i in np.flatnonzero(~used_k).tolist())
    rows.extend(DiffRow(None, resps[i], "spurious") for i in np.flatnonzero(~used_r).tolist())
    rows.sort(key=lambda r: (r.position, r.key is None))
    c = int((value == CORRECT).sum())
    p = int((value == PARTIAL).sum())
    counts = DiffCounts(c, p, len(keys) - c - p, len(resps) - c - p)
    # nothing lost: every key and every response is in exactly one row
    if sum(r.key is not None for r in rows) != len(keys) or sum(r.response is not None for r in rows) != len(resps):
        raise TallyError(f"document {doc_id!r}, type {type_!r}: the diff rows do not cover every annotation")
    wrong_or_mismatch = sum(r.outcome in ("mismatch", "wrong") for r in rows)
    if counts.missing != wrong_or_mismatch + sum(r.outcome == "missing" for r in rows) or \
            counts.spurious != wrong_or_mismatch + sum(r.outcome == "spurious" for r in rows):
        raise TallyError(f"document {doc_id!r}, type {type_!r}: missing and spurious counts disagree with the rows")
    return TypeDiff(type_, tuple(rows), counts)


def annotation_diff(key: Document | Iterable[Annotation], response: Document | Iterable[Annotation], *,
                    types: Sequence[str] | None = None, features: Sequence[str] | None = (),
                    pairing: str = "gate", compare_as_strings: bool = False) -> dict[str, TypeDiff]:
    """Compare key and response annotations type by type, as GATE's Annotation Diff does.

    Parameters
    ----------
    key, response : Document or iterable of Annotation
        The annotations to compare (a document's annotations, or any collection).
    types : sequence of str, optional
        The annotation types (labels) to compare; default every type on either side.
    features : sequence of str or None
        The significant features: ``()`` (default, as GATE's diff window) ignores
        features; a list names those whose values must be equal; ``None`` requires every
        key feature, with an equal value, in the response (GATE's API default).
    pairing : {"gate", "optimal"}
        GATE's greedy pairing (default; reproduces GATE's counts) or the maximum-value
        one-to-one pairing. See :mod:`accord.diff._pairing`.
    compare_as_strings : bool
        Compare feature values by their string forms; by default values of different types
        never match (guide 10.2.3).

    Returns
    -------
    dict
        ``{type: TypeDiff}`` in sorted type order.
    """
    if pairing not in PAIRINGS:
        raise OptionError(f"unknown pairing {pairing!r}; expected one of {', '.join(PAIRINGS)}")
    doc_id = None
    if isinstance(key, Document):
        doc_id = key.id
        key = key.annotations
    if isinstance(response, Document):
        doc_id = doc_id or response.id
        response = response.annotations
    if types is not None:
        chosen = set(types)
        key = [a for a in key if a.label in chosen]
        response = [a for a in response if a.label in chosen]
    if types is None:
        keys = _spanned(key, "key", doc_id)
        resps = _spanned(response, "response", doc_id)
    else:
        keys, resps = list(key), list(response)
        check_target_types(keys, resps, set(types))
    wanted = sorted({a.label for a in keys} | {a.label for a in resps}) if types is None else list(types)
    by_k: dict[str, list[Annotation]] = {t: [] for t in wanted}
    by_r: dict[str, list[Annotation]] = {t: [] for t in wanted}
    for a in keys:
        if a.label in by_k and a.start is not None:
            by_k[a.label].append(a)
    for a in resps:
        if a.label in by_r and a.start is not None:
            by_r[a.label].append(a)
    out = {t: _diff_type(t, by_k[t], by_r[t], features, pairing, compare_as_strings, doc_id) for t in wanted}
    if any(a.start is None for a in keys) or any(a.start is None for a in resps):
        _diff_spanless(out, keys, resps, features, pairing, compare_as_strings, doc_id)
    return out


def _diff_spanless(out: dict[str, TypeDiff], keys: list[Annotation], resps: list[Annotation],
                   features: Sequence[str] | None, pairing: str, as_strings: bool, doc_id: str | None) -> None:
    """Add the relations, events and equivalences of the asked types to ``out`` (:mod:`accord.diff._relations`),
    depth by depth after the spanned types, each compared through the pairs of what it points to."""
    value_of = {"correct": CORRECT, "partial": PARTIAL, "mismatch": MISMATCH}
    paired = {id(r.key): (r.response, value_of.get(r.outcome, 0)) for td in out.values() for r in td.rows
              if r.key is not None and r.response is not None}
    groups: dict[tuple[int, str], tuple[list[Annotation], list[Annotation]]] = {}
    for side, anns, name in ((0, keys, "key"), (1, resps, "response")):
        for a, depth in zip(anns, spanless_depths(anns, doc_id, name)):
            if a.start is None:
                groups.setdefault((depth, a.label), ([], []))[side].append(a)
    found: dict[str, tuple[list[Annotation], list[Annotation], list[np.ndarray]]] = {}
    for (_, t), (ks, rs) in sorted(groups.items()):   # by depth: what an event points to is paired before it
        ki, ri, value = pair_spanless(ks, rs, paired, features, as_strings, pairing)
        for i, j, v in zip(ki.tolist(), ri.tolist(), value.tolist()):
            paired[id(ks[i])] = (rs[j], v)
        acc = found.setdefault(t, ([], [], []))
        base_k, base_r = len(acc[0]), len(acc[1])
        acc[0].extend(ks)
        acc[1].extend(rs)
        acc[2].append(np.stack([ki + base_k, ri + base_r, value]))
    for t, (ks, rs, parts) in found.items():
        spanned = out[t]
        both = np.concatenate(parts, axis=1)
        extra = _type_diff(t, ks, rs, both[0], both[1], both[2], doc_id)
        rows = tuple(sorted(spanned.rows + extra.rows, key=lambda r: (r.position, r.key is None)))
        out[t] = TypeDiff(t, rows, spanned.counts + extra.counts)


@dataclass
class CorpusDiff:
    """Annotation Diffs of every (document, type) of a corpus, with micro sums.

    ``diffs[doc][type]`` is a :class:`TypeDiff`; every listed type has an entry in every
    document (empty on both sides where neither has it).
    """

    diffs: dict[str, dict[str, TypeDiff]]
    types: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    texts: dict[str, str | None] = field(default_factory=dict)
    """The text of each document (the key's, else the response's), for showing annotations."""
    constants: dict[str, int] = field(default_factory=dict)
    """Each document's tokens or sentences (:func:`document_constants`), for GATE's false positives per token or
    sentence; empty unless asked for."""

    @property
    def documents(self) -> tuple[str, ...]:
        return tuple(self.diffs)

    def counts(self, document: str | None = None, type: str | None = None) -> DiffCounts:
        """Summed counts (micro) of one document, one type, one cell, or everything."""
        docs = self.diffs.values() if document is None else [self.diffs[document]]
        total = DiffCounts()
        for by_type in docs:
            for td in (by_type.values() if type is None else [by_type[type]]):
                total = total + td.counts
        return total


def diff_corpora(key: Corpus, response: Corpus, *, types: Sequence[str] | None = None,
                 features: Sequence[str] | None = (), pairing: str = "gate", compare_as_strings: bool = False,
                 allow_missing: str | None = None, bdm: BdmLookup | None = None,
                 check_types: bool = True) -> CorpusDiff:
    """Annotation Diff over a corpus: documents paired by id, each type compared separately.

    ``types`` defaults to every type found on either side of any document; the other
    parameters are those of :func:`annotation_diff`; ``allow_missing`` is that of
    :func:`accord.pipeline.pair_documents`. Two corpora of one document each pair whatever
    their ids (``key.xml`` against ``response.xml``). ``bdm``, a
    :class:`accord.bdm.BdmTable`, adds each type's BDM credit to its counts (see
    :mod:`accord.diff._bdm`) for the ``*-bdm`` measures.

    A type in ``types`` that no annotation of either side has, or a feature in ``features``
    that none carries, is an :class:`~accord.errors.OptionError` (a misspelt name would
    otherwise compare nothing and score 1.0); ``check_types=False`` leaves the types
    unchecked for a caller that checked them against more corpora.
    """
    from ..pipeline import pair_documents
    from ._bdm import bdm_credit

    if len(key) == 1 and len(response) == 1:
        (kdoc,), (rdoc,) = key.documents, response.documents
        if kdoc.id != rdoc.id:
            response = Corpus([rdoc._replace(id=kdoc.id)], name=response.name)
    pairs = pair_documents(key, response, allow_missing)
    found: set[str] = set()
    feature_names: set[str] = set()
    for _, k, r in pairs:
        for doc in (k, r):
            if doc is not None:
                for a in doc.annotations:
                    found.add(a.label)
                    if features:
                        feature_names.update(a.attributes)
    if types is None:
        pairs = _without_spanless(pairs)
        types = sorted({a.label for _, k, r in pairs for doc in (k, r) if doc is not None for a in doc.annotations})
    else:
        types = list(dict.fromkeys(types))
        if check_types:
            check_names(types, found, "annotation type", "--type")
    if features:
        check_names(features, feature_names, "feature", "--features")
    diffs: dict[str, dict[str, TypeDiff]] = {}
    texts: dict[str, str | None] = {}
    for doc_id, k, r in pairs:
        texts[doc_id] = k.text if k is not None and k.text is not None else (r.text if r is not None else None)
        diffs[doc_id] = annotation_diff(k if k is not None else Document(doc_id),
                                        r if r is not None else Document(doc_id), types=types, features=features,
                                        pairing=pairing, compare_as_strings=compare_as_strings)
        if bdm is not None:
            for t, b in bdm_credit(diffs[doc_id], bdm, features).items():
                if b:
                    td = diffs[doc_id][t]
                    diffs[doc_id][t] = TypeDiff(td.type, td.rows, dataclasses.replace(td.counts, bdm=b))
    options: Mapping[str, Any] = {"features": None if features is None else list(features), "pairing": pairing,
                                  "compare_as_strings": compare_as_strings, "bdm": bdm is not None}
    return CorpusDiff(diffs, tuple(types), dict(options), texts)


def hide_adjudicated(diff: CorpusDiff, adjudicated: Corpus) -> tuple[CorpusDiff, int]:
    """The diff without the rows already adjudicated, and how many rows were hidden.

    A row is adjudicated when its key or its response annotation has the type and the span of an annotation of
    ``adjudicated`` (the set ``accord adjudicate`` wrote, e.g. ``Consensus``) in the same document. The counts are
    those of the rows left: ``correct`` and ``partial`` rows as such, ``missing`` and ``spurious`` rows, and a
    ``mismatch`` or ``wrong`` row as one missing and one spurious; the BDM credit is dropped with them.
    """
    hidden = 0
    diffs: dict[str, dict[str, TypeDiff]] = {}
    for doc_id, by_type in diff.diffs.items():
        doc = adjudicated.get(doc_id)
        done = {(a.label, a.start, a.end) for a in doc.annotations} if doc is not None else set()
        out: dict[str, TypeDiff] = {}
        for t, td in by_type.items():
            rows = tuple(r for r in td.rows if not any(
                a is not None and (t, a.start, a.end) in done for a in (r.key, r.response)))
            if len(rows) == len(td.rows):
                out[t] = td
                continue
            hidden += len(td.rows) - len(rows)
            both = sum(r.outcome in ("mismatch", "wrong") for r in rows)
            counts = DiffCounts(sum(r.outcome == "correct" for r in rows), sum(r.outcome == "partial" for r in rows),
                                both + sum(r.outcome == "missing" for r in rows),
                                both + sum(r.outcome == "spurious" for r in rows))
            out[t] = TypeDiff(t, rows, counts)
        diffs[doc_id] = out
    return dataclasses.replace(diff, diffs=diffs), hidden


TOKEN_TYPE, SENTENCE_TYPE = "Token", "Sentence"
"""The annotation types of GATE's tokeniser and sentence splitter (ANNIE), counted when a document has no tokens or
sentences of its own."""


def document_constant(doc: Document, unit: str) -> int:
    """The constant ``c`` of GATE's false positives (user guide 10.8: "the number of tokens or sentences in the
    document") for ``unit`` ``"token"`` or ``"sentence"``.

    Tokens: the document's own (column files), else its ``Token`` annotations, else the whitespace-separated words
    of its text. Sentences: the document's own sentence boundaries, else its ``Sentence`` annotations.

    Raises
    ------
    OptionError
        A document that has no sentences (neither boundaries nor ``Sentence`` annotations), or neither tokens nor
        text.
    """
    if unit == "token":
        if doc.tokens is not None:
            return len(doc.tokens)
        n = sum(1 for a in doc.annotations if a.label == TOKEN_TYPE)
        if n:
            return n
        if doc.text is None:
            raise OptionError(f"document {doc.id!r} has neither tokens nor text: --fp-per token cannot count its "
                              "tokens")
        return len(doc.text.split())
    if doc.sentences is not None:
        return len(doc.sentences)
    n = sum(1 for a in doc.annotations if a.label == SENTENCE_TYPE)
    if not n:
        raise OptionError(f"document {doc.id!r} has no sentences (no sentence boundaries, no {SENTENCE_TYPE} "
                          "annotations): --fp-per sentence needs them; use --fp-per token")
    return n


def document_constants(diff: CorpusDiff, key: Corpus, response: Corpus, unit: str) -> CorpusDiff:
    """``diff`` with the constant of each of its documents: counted in the key document (the response's when the
    key has no such document)."""
    constants = {}
    for doc_id in diff.documents:
        doc = key.get(doc_id)
        if doc is None:
            doc = response.get(doc_id)
        if doc is None and len(key) == 1:     # one document each, paired whatever their ids
            doc = key.documents[0]
        if doc is None:
            raise OptionError(f"document {doc_id!r}: neither side has it to count its {unit}s")
        constants[doc_id] = document_constant(doc, unit)
    return dataclasses.replace(diff, constants=constants)
