"""Coreference metrics as the CoNLL-2012 reference scorer (v8.01) reports them, for a whole corpus at once.

Every metric here is a function of one table: the *contingency* of key and response
entities, ``c[k, r] = |K_k ∩ R_r|`` (mentions compared by exact span). accord builds it for
all documents together from sorted arrays (mention matching by hashing, cells by
``numpy.unique``), so the cost is a few array passes over the corpus, plus one small
Kuhn-Munkres problem per document for CEAF, and only where an entity overlaps more than
one entity on the other side.

With ``|K|`` the size of a key entity, ``|R|`` of a response entity, the sums running over
the non-empty cells ``c`` (``c_kr > 0``):

* **MUC** (Vilain et al., 1995): recall ``Σ (c - 1) / Σ_K (|K| - 1)``, precision
  ``Σ (c - 1) / Σ_R (|R| - 1)``; ``Σ (c - 1)`` equals ``Σ_K (|K| - |p(K)|)`` where ``p(K)``
  is the partition of K by the response, unmatched mentions counting as parts.
* **B-cubed** (Bagga & Baldwin, 1998): recall ``Σ c² / |K| / Σ_K |K|``, precision
  ``Σ c² / |R| / Σ_R |R|``.
* **CEAFm / CEAFe** (Luo, 2005): the 1:1 entity alignment maximising ``Σ φ``, with
  ``φ3 = c`` (recall over ``Σ_K |K|``, precision over ``Σ_R |R|``) or
  ``φ4 = 2c / (|K| + |R|)`` (recall over the number of key entities, precision over the
  number of response entities).
* **BLANC** (Luo et al., 2014, for predicted mentions): coreference links (mention pairs
  in one entity) and non-coreference links (pairs in different entities) of each side;
  ``Rc = |Ck ∩ Cr| / |Ck|``, ``Pc = |Ck ∩ Cr| / |Cr|`` and likewise ``Rn``, ``Pn``;
  BLANC = ``((Rc + Rn) / 2, (Pc + Pn) / 2, (Fc + Fn) / 2)``, except that only the
  non-coreference part counts when the key has no coreference link, only the coreference
  part when it has no non-coreference link, and all is 0 when it has neither.
* **LEA** (Moosavi & Strube, 2016): recall
  ``Σ_K |K| · Σ_R link(K ∩ R) / link(K)  /  Σ_K |K|`` with ``link(e) = |e|(|e| - 1) / 2``;
  a singleton key entity has one self-link, resolved when its mention is a singleton of
  the response. Precision swaps the sides.

Corpus scores are micro averages over documents, as the reference scorer computes them:
numerators and denominators are summed, then divided (an empty document adds nothing);
F1 is ``2PR / (P + R)``, 0 when both are 0, and a ratio with a zero denominator is 0.

Input conventions (those of the reference scorer's test suite): mentions are inclusive
``(start, end)`` token spans; a mention repeated within a side (in the same entity or
another) keeps its first occurrence only, and an entity left empty is dropped.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.blocks import exact_pairs
from ._coref_documents import DocumentScores

__all__ = ["COREF_METRICS", "MENTIONS", "CorefScore", "coref_scores", "conll_f1"]

COREF_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")
MENTIONS = "mentions"
"""Mention identification: distinct mentions of the key (recall's denominator), of the response (precision's) and
of both (the numerators), as the reference scorer's "Identification of Mentions" line counts them (v8.01
``IdentifMentions``: exact spans, a repeated span once); with the CorefUD scorer's matching, the aligned pairs."""

Clusters = Sequence[Sequence[Sequence[int]]]


def _ratio(num: float, den: float) -> float:
    return float(num) / float(den) if den else 0.0


def _f1(p_num: float, p_den: float, r_num: float, r_den: float) -> float:
    """F1 of ``p_num / p_den`` and ``r_num / r_den`` as one division of the counts (``2m / (r_den + p_den)`` when
    both numerators are ``m``), so that equal F values are equal floats (as
    :func:`accord.result._kinds.f_from_counts`)."""
    if not p_den or not r_den:
        return 0.0
    if p_num == r_num:
        return 2 * r_num / (r_den + p_den) if r_den + p_den else 0.0
    den = p_num * r_den + r_num * p_den
    return 2 * p_num * r_num / den if den else 0.0


@dataclass(frozen=True)
class CorefScore:
    """One metric's counts and rates, for the corpus or one document.

    ``recall = recall_num / recall_den`` and ``precision = precision_num / precision_den``
    for every metric but BLANC, whose rates average a coreference-link part (the
    ``*_num``/``*_den`` fields) and a non-coreference-link part (``noncoref``: the same
    four counts), as described in :mod:`accord.structured.coref`.
    """

    metric: str
    recall_num: float
    recall_den: float
    precision_num: float
    precision_den: float
    noncoref: tuple[float, float, float, float] | None = None
    by_document: Mapping[str, CorefScore] = field(default_factory=dict, repr=False, compare=False)
    alignment: tuple[tuple[str, int, int, float], ...] = field(default=(), repr=False, compare=False)
    """CEAF only: the aligned entities, ``(document, key entity, response entity, φ)``, entity
    numbers counted from 0 in each document's input order."""
    blanc_rule: str = field(default="conll2012", compare=False)
    """Which BLANC parts count: ``conll2012`` those the key has links of, ``corefud`` those either side has."""

    @property
    def recall(self) -> float:
        if self.noncoref is None:
            return _ratio(self.recall_num, self.recall_den)
        return self._blanc()[0]

    @property
    def precision(self) -> float:
        if self.noncoref is None:
            return _ratio(self.precision_num, self.precision_den)
        return self._blanc()[1]

    @property
    def f1(self) -> float:
        if self.noncoref is None:
            return _f1(self.precision_num, self.precision_den, self.recall_num, self.recall_den)
        return self._blanc()[2]

    def _blanc(self) -> tuple[float, float, float]:
        assert self.noncoref is not None
        rc, pc = _ratio(self.recall_num, self.recall_den), _ratio(self.precision_num, self.precision_den)
        n_num, n_key, n_num2, n_resp = self.noncoref
        rn, pn = _ratio(n_num, n_key), _ratio(n_num2, n_resp)
        fc = _f1(self.precision_num, self.precision_den, self.recall_num, self.recall_den)
        fn = _f1(n_num2, n_resp, n_num, n_key)
        key_coref, key_noncoref = self.recall_den, n_key
        if self.blanc_rule == "corefud":
            parts = [x for x, den in (((rc, pc, fc), self.recall_den + self.precision_den),
                                      ((rn, pn, fn), n_key + n_resp)) if den]
            if not parts:
                return 0.0, 0.0, 0.0
            return (sum(x[0] for x in parts) / len(parts), sum(x[1] for x in parts) / len(parts),
                    sum(x[2] for x in parts) / len(parts))
        if not key_coref and not key_noncoref:
            return 0.0, 0.0, 0.0
        if not key_coref:
            return rn, pn, fn
        if not key_noncoref:
            return rc, pc, fc
        return (rc + rn) / 2, (pc + pn) / 2, (fc + fn) / 2

    def to_dict(self) -> dict[str, float]:
        out = {"recall": self.recall, "precision": self.precision, "f1": self.f1,
               "recall_num": self.recall_num, "recall_den": self.recall_den,
               "precision_num": self.precision_num, "precision_den": self.precision_den}
        if self.noncoref is not None:
            out.update(zip(("noncoref_recall_num", "noncoref_recall_den", "noncoref_precision_num",
                            "noncoref_precision_den"), self.noncoref))
        return out


def conll_f1(scores: Mapping[str, CorefScore]) -> float:
    """The CoNLL-2012 average: the mean of the MUC, B-cubed and CEAFe F1."""
    missing = [m for m in ("muc", "bcub", "ceafe") if m not in scores]
    if missing:
        raise OptionError(f"the CoNLL F1 needs muc, bcub and ceafe; not computed: {', '.join(missing)}")
    return (scores["muc"].f1 + scores["bcub"].f1 + scores["ceafe"].f1) / 3


# ----------------------------------------------------------------------------- arrays
class _Side:
    """One side's mentions, flattened over the corpus: document, start, end, global entity."""

    def __init__(self, docs: list[str], data: Mapping[str, Clusters], side: str, dedup: bool = True):
        if not self._in_bulk(docs, data):
            self._one_by_one(docs, data, side)
        if dedup:
            self._dedup()
        else:   # the CorefUD scorer's reading: every occurrence and every entity, empty ones too
            self.size = np.bincount(self.ent, minlength=len(self.ent_doc)).astype(np.int64)

    def _in_bulk(self, docs: list[str], data: Mapping[str, Clusters]) -> bool:
        """The mentions as one integer array; False (nothing set) where a mention is not a pair of integers with
        start <= end, left to :meth:`_one_by_one` to name."""
        columns = getattr(data, "mention_columns", None)
        if columns is not None:     # chains kept as arrays (accord.formats.coref._chains.CorefChains)
            self.ent_doc, self.ent_local, self.ent, self.doc, self.start, self.end = columns(docs)
            return True
        try:
            per_doc = [data.get(doc_id, ()) for doc_id in docs]
            clusters = [c for cl in per_doc for c in cl]
            flat = [m for c in clusters for m in c]
            spans = _span_array(flat)
        except (TypeError, ValueError):
            return False
        if spans.ndim != 2 or spans.shape[1] != 2 or spans.dtype.kind not in "iub" or np.any(spans[:, 1] < spans[:, 0]):
            return False
        ndoc = np.fromiter(map(len, per_doc), dtype=np.int64, count=len(per_doc))
        size = np.fromiter(map(len, clusters), dtype=np.int64, count=len(clusters))
        self.ent_doc = np.repeat(np.arange(len(docs), dtype=np.int64), ndoc)
        first_of_doc = np.cumsum(ndoc) - ndoc
        self.ent_local = np.arange(len(clusters), dtype=np.int64) - np.repeat(first_of_doc, ndoc)
        self.ent = np.repeat(np.arange(len(clusters), dtype=np.int64), size)
        self.doc = self.ent_doc[self.ent]
        self.start = spans[:, 0].astype(np.int64)
        self.end = spans[:, 1].astype(np.int64)
        return True

    def _one_by_one(self, docs: list[str], data: Mapping[str, Clusters], side: str) -> None:
        doc, start, end, ent = [], [], [], []
        n_ent = 0
        ent_doc: list[int] = []
        ent_local: list[int] = []   # an entity's number within its document
        for d, doc_id in enumerate(docs):
            clusters = data.get(doc_id, ())
            for k, cluster in enumerate(clusters):
                for m in cluster:
                    try:
                        s, e = m
                    except (TypeError, ValueError):
                        raise OptionError(f"document {doc_id!r}, {side} entity {k}: a mention must be a "
                                          f"(start, end) pair of token indices, got {m!r}") from None
                    if not (isinstance(s, (int, np.integer)) and isinstance(e, (int, np.integer))) or e < s:
                        raise OptionError(f"document {doc_id!r}, {side} entity {k}: mention {m!r} is not an "
                                          "inclusive (start, end) span with start <= end")
                    doc.append(d)
                    start.append(s)
                    end.append(e)
                    ent.append(n_ent + k)
            ent_doc.extend([d] * len(clusters))
            ent_local.extend(range(len(clusters)))
            n_ent += len(clusters)
        self.doc = np.asarray(doc, dtype=np.int64)
        self.start = np.asarray(start, dtype=np.int64)
        self.end = np.asarray(end, dtype=np.int64)
        self.ent = np.asarray(ent, dtype=np.int64)
        self.ent_doc = np.asarray(ent_doc, dtype=np.int64)
        self.ent_local = np.asarray(ent_local, dtype=np.int64)

    def _dedup(self) -> None:
        """Keep the first occurrence of each (document, span); renumber non-empty entities."""
        n = len(self.doc)
        if n:
            codes = _mention_codes(self)
            if codes is None:
                _, first = np.unique(self.keys, axis=0, return_index=True)
            else:       # one integer a (document, start, end): the same first occurrences, a 1-D sort
                _, first = np.unique(codes[0], return_index=True)
            keep = np.sort(first)
            self.doc, self.start, self.end, self.ent = (a[keep] for a in (self.doc, self.start, self.end, self.ent))
        used, self.ent = np.unique(self.ent, return_inverse=True)
        self.ent = self.ent.reshape(-1).astype(np.int64)
        self.ent_doc = self.ent_doc[used] if len(used) else np.zeros(0, dtype=np.int64)
        self.ent_local = self.ent_local[used] if len(used) else np.zeros(0, dtype=np.int64)
        self.size = np.bincount(self.ent, minlength=len(used)).astype(np.int64)

    @property
    def keys(self) -> np.ndarray:
        return np.stack([self.doc, self.start, self.end], axis=1)


def _span_array(flat: list[Any]) -> np.ndarray:
    """The mentions as an ``(n, 2)`` array: read from a flat iterator of their ends where every mention is a tuple
    (or list) of two ``int`` (what the readers give; five times faster than ``numpy.array`` of the tuples), else by
    ``numpy.array`` (whose result the caller checks)."""
    from itertools import chain

    if not flat:
        return np.zeros((0, 2), dtype=np.int64)
    if set(map(type, flat)) <= {tuple, list} and set(map(len, flat)) == {2}:
        ends = list(chain.from_iterable(flat))
        if set(map(type, ends)) == {int}:
            return np.fromiter(ends, dtype=np.int64, count=len(ends)).reshape(-1, 2)
    return np.array(flat)


def _pairs(x: np.ndarray) -> np.ndarray:
    """The number of unordered pairs among ``x`` items, elementwise: ``x (x - 1) / 2``."""
    return x * (x - 1) / 2


def _per_doc(values: np.ndarray, doc: np.ndarray, ndocs: int) -> np.ndarray:
    return np.bincount(doc, weights=values, minlength=ndocs) if len(doc) else np.zeros(ndocs)


def _ceaf(cells_k: np.ndarray, cells_r: np.ndarray, cell_doc: np.ndarray, phi: np.ndarray,
          ndocs: int) -> tuple[np.ndarray, np.ndarray]:
    """Per document: the maximum of Σ phi over 1:1 alignments of key and response entities,
    and the cells (indices into the arrays given) of that alignment."""
    out = np.zeros(ndocs)
    if not len(phi):
        return out, np.zeros(0, dtype=np.int64)
    # an entity pair alone in its row and its column is aligned outright
    _, kinv, kdeg = np.unique(cells_k, return_inverse=True, return_counts=True)
    _, rinv, rdeg = np.unique(cells_r, return_inverse=True, return_counts=True)
    alone = (kdeg[kinv.reshape(-1)] == 1) & (rdeg[rinv.reshape(-1)] == 1)
    out += np.bincount(cell_doc[alone], weights=phi[alone], minlength=ndocs)
    chosen = [np.flatnonzero(alone)]
    rest = np.flatnonzero(~alone)
    if not len(rest):
        return out, chosen[0]
    from ..match._small_assignment import max_assignments

    order = rest[np.argsort(cell_doc[rest], kind="stable")]
    bounds = np.flatnonzero(np.diff(cell_doc[order])) + 1
    # each entity's row (column) in its document's matrix: its rank among the document's entities, by number
    k_row = _rank_in_document(cells_k[order], cell_doc[order])
    r_col = _rank_in_document(cells_r[order], cell_doc[order])
    starts = np.concatenate([[0], bounds])
    n_rows = (np.maximum.reduceat(k_row, starts) + 1).tolist()
    n_cols = (np.maximum.reduceat(r_col, starts) + 1).tolist()
    edges = starts.tolist() + [len(order)]
    group_of = np.repeat(np.arange(len(starts)), np.diff(np.asarray(edges)))
    # every document's matrix a view of one buffer, filled at once
    cells_of = np.asarray(n_rows, dtype=np.int64) * np.asarray(n_cols, dtype=np.int64)
    offset = np.cumsum(cells_of) - cells_of
    buffer = np.zeros(int(cells_of.sum()))
    buffer[offset[group_of] + k_row * np.asarray(n_cols, dtype=np.int64)[group_of] + r_col] = phi[order]
    matrices = [buffer[o:o + r * c].reshape(r, c) for o, r, c in zip(offset.tolist(), n_rows, n_cols)]
    # scipy's linear_sum_assignment's pairs, every document's matrix at once (without importing scipy.optimize)
    solved = max_assignments(matrices)
    group_doc = cell_doc[order[starts]].tolist()
    for d, m, (rows, cols) in zip(group_doc, matrices, solved):
        out[d] += float(m[rows, cols].sum())
    # the cells of the chosen pairs (a chosen pair of two entities that share nothing is no cell)
    width = max(n_cols) + 1
    height = max(n_rows) + 1
    chosen_rows = np.concatenate([rows for rows, _ in solved])
    chosen_cols = np.concatenate([cols for _, cols in solved])
    chosen_group = np.repeat(np.arange(len(solved)), [len(rows) for rows, _ in solved])
    chosen_codes = (chosen_group * height + chosen_rows) * width + chosen_cols
    cell_codes = (group_of * height + k_row) * width + r_col
    chosen_codes.sort()    # (membership by a search: numpy.isin would import numpy.ma, 0.05 s of a command)
    at = np.minimum(np.searchsorted(chosen_codes, cell_codes), len(chosen_codes) - 1)
    chosen.append(order[chosen_codes[at] == cell_codes])
    return out, np.sort(np.concatenate(chosen))


def _rank_in_document(entity: np.ndarray, doc: np.ndarray) -> np.ndarray:
    """For each cell, the rank of its entity among the distinct entities of the cells of its document."""
    distinct, inverse = np.unique(entity, return_inverse=True)
    inverse = inverse.reshape(-1)
    distinct_doc = np.empty(len(distinct), dtype=np.int64)
    distinct_doc[inverse] = doc
    by_doc = np.lexsort((distinct, distinct_doc))
    sorted_doc = distinct_doc[by_doc]
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[by_doc] = np.arange(len(distinct)) - np.searchsorted(sorted_doc, sorted_doc, side="left")
    return rank[inverse]


def coref_scores(key: Mapping[str, Clusters], response: Mapping[str, Clusters], *,
                 metrics: Iterable[str] = COREF_METRICS, rules: str = "conll2012") -> dict[str, CorefScore]:
    """Score coreference clusters with the CoNLL-2012 metrics.

    Parameters
    ----------
    key, response : mapping
        Document id -> list of entities, each a list of inclusive ``(start, end)`` token
        spans. A document of the key missing from the response is scored against an
        empty response; a response document the key lacks is an error.
    metrics : iterable of str
        Any of ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc``, ``lea``.
    rules : {"conll2012", "corefud"}
        ``conll2012`` (the reference scorer v8.01): a mention repeated on one side keeps its first occurrence and an
        entity left empty is dropped; BLANC counts the parts the key has links of. ``corefud`` (the CorefUD scorer):
        every occurrence counts in its entity's size, a mention is looked up in the last entity that holds it (in
        the input order), empty entities count (CEAFe, MUC), and BLANC averages the parts that either side has
        links of (over the corpus, or the document).

    Returns
    -------
    dict
        Metric name -> :class:`CorefScore` for the corpus (micro over documents), with
        ``by_document`` holding each document's score.

    Raises
    ------
    OptionError
        For an unknown metric, a malformed mention, or response documents not in the key.
    """
    metrics = list(dict.fromkeys(metrics))
    unknown = [m for m in metrics if m not in COREF_METRICS + (MENTIONS,)]
    if unknown:
        raise OptionError(f"unknown coreference metric {unknown[0]!r}; expected some of {', '.join(COREF_METRICS)}")
    if rules not in ("conll2012", "corefud"):
        raise OptionError(f"coreference rules must be conll2012 or corefud; got {rules!r}")
    extra = [d for d in response if d not in key]
    if extra:
        raise OptionError(f"{len(extra)} response document(s) are not in the key, e.g. {extra[0]!r}")
    docs = list(key)
    nd = len(docs)
    K = _Side(docs, key, "key", dedup=rules == "conll2012")
    R = _Side(docs, response, "response", dedup=rules == "conll2012")
    nk_ent, nr_ent = len(K.size), len(R.size)
    if rules == "conll2012":
        # mentions common to both sides, and the non-empty cells of the contingency table
        mk, mr = _common(K, R)
        cells_r = cells_p = cells_t = _cells(K.ent[mk], R.ent[mr], nr_ent, K.ent_doc)
    else:
        cells_r, cells_p, cells_t = _corefud_cells(K, R, nr_ent)
    kz, rz = K.size.astype(np.float64), R.size.astype(np.float64)
    ksum = _per_doc(kz, K.ent_doc, nd)           # key mentions per document
    rsum = _per_doc(rz, R.ent_doc, nd)
    kent = _per_doc(np.ones(nk_ent), K.ent_doc, nd)
    rent = _per_doc(np.ones(nr_ent), R.ent_doc, nd)

    per: dict[str, tuple[np.ndarray, ...]] = {}
    aligned: dict[str, list[tuple[str, int, int, float]]] = {}
    for metric in metrics:
        if metric == "muc":
            (_, _, c, cdoc), (_, _, cp, pdoc) = cells_r, cells_p
            per[metric] = (_per_doc(c - 1, cdoc, nd), _per_doc(kz - 1, K.ent_doc, nd),
                           _per_doc(cp - 1, pdoc, nd), _per_doc(rz - 1, R.ent_doc, nd))
        elif metric == "bcub":
            (ck, _, c, cdoc), (_, crp, cp, pdoc) = cells_r, cells_p
            per[metric] = (_per_doc(c * c / kz[ck] if len(c) else c, cdoc, nd), ksum,
                           _per_doc(cp * cp / rz[crp] if len(cp) else cp, pdoc, nd), rsum)
        elif metric in ("ceafm", "ceafe"):
            ck, cr, c, cdoc = cells_t
            phi = c if metric == "ceafm" or not len(c) else 2 * c / (kz[ck] + rz[cr])
            best, cells = _ceaf(ck, cr, cdoc, phi, nd)
            per[metric] = (best, ksum, best, rsum) if metric == "ceafm" else (best, kent, best, rent)
            aligned[metric] = [(docs[d], k, r, v) for d, k, r, v in zip(
                cdoc[cells].tolist(), K.ent_local[ck[cells]].tolist(), R.ent_local[cr[cells]].tolist(),
                np.asarray(phi[cells], dtype=np.float64).tolist())]
        elif metric == "blanc":
            ck, cr, c, cdoc = cells_r
            coref_common = _per_doc(_pairs(c), cdoc, nd)
            key_coref = _per_doc(_pairs(kz), K.ent_doc, nd)
            resp_coref = _per_doc(_pairs(rz), R.ent_doc, nd)
            key_non = _pairs(ksum) - key_coref
            resp_non = _pairs(rsum) - resp_coref
            # non-coreference links common to both: pairs of common mentions apart on both sides
            m_common = _per_doc(c, cdoc, nd)
            a = np.bincount(ck, weights=c, minlength=nk_ent)   # common mentions per key entity
            b = np.bincount(cr, weights=c, minlength=nr_ent)
            same_key = _per_doc(_pairs(a), K.ent_doc, nd)
            same_resp = _per_doc(_pairs(b), R.ent_doc, nd)
            non_common = _pairs(m_common) - same_key - same_resp + coref_common
            per[metric] = (coref_common, key_coref, coref_common, resp_coref, non_common, key_non, non_common,
                           resp_non)
        elif metric == MENTIONS:
            kd, rd, both = _distinct_mentions(K, R, nd)
            per[metric] = (both, kd, both, rd)
        elif metric == "lea":
            (ck, cr, c, _), (ckp, crp, cp, _) = cells_r, cells_p
            links_common = np.bincount(ck, weights=c * (c - 1) / 2, minlength=nk_ent)
            links_common_r = np.bincount(crp, weights=cp * (cp - 1) / 2, minlength=nr_ent)
            # singletons: one self-link, resolved when the other side has the same singleton
            single = (kz[ck] == 1) & (rz[cr] == 1) if len(c) else np.zeros(0, dtype=bool)
            single_p = (kz[ckp] == 1) & (rz[crp] == 1) if len(cp) else np.zeros(0, dtype=bool)
            links_common += np.bincount(ck[single], minlength=nk_ent)
            links_common_r += np.bincount(crp[single_p], minlength=nr_ent)
            k_links = np.where(kz > 1, kz * (kz - 1) / 2, 1.0)
            r_links = np.where(rz > 1, rz * (rz - 1) / 2, 1.0)
            per[metric] = (_per_doc(kz * links_common / k_links, K.ent_doc, nd), ksum,
                           _per_doc(rz * links_common_r / r_links, R.ent_doc, nd), rsum)

    out: dict[str, CorefScore] = {}
    for metric, arrays in per.items():
        # each document's CorefScore made when it is looked up (Python floats, as float(a[d]))
        by_doc = DocumentScores(metric, docs, np.column_stack([np.asarray(a, dtype=np.float64) for a in arrays]), rules,
                                CorefScore)
        tot = [float(a.sum()) for a in arrays]
        out[metric] = CorefScore(metric, tot[0], tot[1], tot[2], tot[3], noncoref=_noncoref(tot),
                                 by_document=by_doc, alignment=tuple(aligned.get(metric, ())), blanc_rule=rules)
    return out


Cells = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _common(K: _Side, R: _Side) -> tuple[np.ndarray, np.ndarray]:
    """The mentions of both sides, each side's mentions distinct (the reference scorer's rules): their indices in
    the key and in the response, by one integer a mention (or :func:`~accord.match.blocks.exact_pairs` on rows)."""
    if not (len(K.doc) and len(R.doc)):
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    codes = _mention_codes(K, R)
    if codes is None:
        return exact_pairs(K.keys, R.keys)
    _, mk, mr = np.intersect1d(codes[0], codes[1], assume_unique=True, return_indices=True)
    return mk.astype(np.int64), mr.astype(np.int64)


def _distinct_mentions(K: _Side, R: _Side, nd: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per document: distinct key mentions, distinct response mentions, distinct mentions of both."""
    codes = _mention_codes(K, R)
    if codes is not None:       # one integer a mention: distinct ones and those of both sides by 1-D set operations
        kc, first_k = np.unique(codes[0], return_index=True)
        rc, first_r = np.unique(codes[1], return_index=True)
        _, both, _ = np.intersect1d(kc, rc, assume_unique=True, return_indices=True)
        return (np.bincount(K.doc[first_k], minlength=nd).astype(np.float64),
                np.bincount(R.doc[first_r], minlength=nd).astype(np.float64),
                np.bincount(K.doc[first_k[both]], minlength=nd).astype(np.float64))
    kk = np.unique(K.keys, axis=0) if len(K.doc) else np.zeros((0, 3), dtype=np.int64)
    rk = np.unique(R.keys, axis=0) if len(R.doc) else np.zeros((0, 3), dtype=np.int64)
    mk, _ = exact_pairs(kk, rk) if len(kk) and len(rk) else (np.zeros(0, np.int64),) * 2
    return (np.bincount(kk[:, 0], minlength=nd).astype(np.float64),
            np.bincount(rk[:, 0], minlength=nd).astype(np.float64),
            np.bincount(kk[mk, 0], minlength=nd).astype(np.float64))


def _mention_codes(*sides: _Side) -> list[np.ndarray] | None:
    """Each mention of the sides as one integer, ``(document, start, end)`` packed in that order of significance
    over ranges shared by the sides (so that equal mentions get equal integers and their order is the rows'
    order); None when the packing would not fit in 62 bits."""
    filled = [s for s in sides if len(s.doc)]
    if not filled:
        return [np.zeros(0, dtype=np.int64) for _ in sides]
    lo_s = min(int(s.start.min()) for s in filled)
    lo_e = min(int(s.end.min()) for s in filled)
    span_s = max(int(s.start.max()) for s in filled) - lo_s + 1
    span_e = max(int(s.end.max()) for s in filled) - lo_e + 1
    span_d = max(int(s.doc.max()) for s in filled) + 1
    if span_d * span_s * span_e >= 1 << 62:
        return None
    return [(s.doc * span_s + (s.start - lo_s)) * span_e + (s.end - lo_e) for s in sides]


def _cells(k_ent: np.ndarray, r_ent: np.ndarray, nr_ent: int, key_ent_doc: np.ndarray) -> Cells:
    """The non-empty cells of a contingency table from its (key entity, response entity) pairs of mentions: key
    entity, response entity, count, document of each."""
    width = max(nr_ent, 1)
    codes, c = np.unique(k_ent * width + r_ent, return_counts=True)
    ck, cr = codes // width, codes % width
    cdoc = key_ent_doc[ck] if len(ck) else np.zeros(0, dtype=np.int64)
    return ck, cr, c.astype(np.float64), cdoc


def _corefud_cells(K: _Side, R: _Side, nr_ent: int) -> tuple[Cells, Cells, Cells]:
    """The CorefUD scorer's three tables (they differ only where a mention is in two entities of one side): each key
    mention by the last response entity holding it (recall side), each response mention by the last key entity
    (precision side), and every pair of occurrences (CEAF's intersections)."""
    width = int(max(K.start.max(initial=0), R.start.max(initial=0))) + 1
    kcode, rcode = K.doc * width + K.start, R.doc * width + R.start

    def last(code: np.ndarray, ent: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        order = np.lexsort((ent, code))
        c, e = code[order], ent[order]
        keep = np.ones(len(c), dtype=bool)
        keep[:-1] = c[1:] != c[:-1]
        return c[keep], e[keep]

    def find(code: np.ndarray, table: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
        keys, ents = table
        at = np.searchsorted(keys, code)
        at = np.minimum(at, max(len(keys) - 1, 0))
        found = keys[at] == code if len(keys) else np.zeros(len(code), dtype=bool)
        return found, ents[at[found]] if len(keys) else np.zeros(0, dtype=np.int64)

    found, r_of_k = find(kcode, last(rcode, R.ent))
    recall = _cells(K.ent[found], r_of_k, nr_ent, K.ent_doc)
    found, k_of_r = find(rcode, last(kcode, K.ent))
    precision = _cells(k_of_r, R.ent[found], nr_ent, K.ent_doc)
    order = np.argsort(rcode, kind="stable")
    sorted_r = rcode[order]
    lo, hi = np.searchsorted(sorted_r, kcode, "left"), np.searchsorted(sorted_r, kcode, "right")
    n = hi - lo
    k_occ = np.repeat(np.arange(len(kcode)), n)
    r_occ = order[np.repeat(lo, n) + np.arange(int(n.sum())) - np.repeat(np.cumsum(n) - n, n)]
    both = _cells(K.ent[k_occ], R.ent[r_occ], nr_ent, K.ent_doc)
    return recall, precision, both


def _noncoref(vals: list[float]) -> tuple[float, float, float, float] | None:
    """The non-coreference-link counts of BLANC (its last four figures of eight), None for the other metrics."""
    if len(vals) <= 4:
        return None
    assert len(vals) == 8  # BLANC: four counts of coreference links, four of non-coreference links
    return vals[4], vals[5], vals[6], vals[7]
