"""Measure kinds: which counts a measure keeps, and its rates as functions of them.

Every kind computes its rates from a count array ``v`` of shape ``(..., len(fields))`` in one
vectorised pass, so a total, a label, a document or (for resampling) thousands of weighted
sums of documents are all the same call. The formulas are each reference tool's; a division
by zero gives the value the kind's tool gives (``zero_division`` where the user chooses).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._support.limits import MAX_BETA
from .._support.surface import spelled
from ..errors import OptionError

__all__ = ["Kind", "PairsKind", "UnitsKind", "ClueKind", "SemEvalKind", "CorefKind", "SmatchKind", "RecordsKind",
           "BetterKind", "GateKind", "ratio", "f_beta", "f_from_counts"]

_FILL = {"zero": 0.0, "one": 1.0, "nan": np.nan}


def ratio(num: np.ndarray, den: np.ndarray, fill: float | np.ndarray) -> np.ndarray:
    """``num / den`` elementwise, ``fill`` where ``den == 0`` (a scalar or an array of num's shape)."""
    num = np.asarray(num, dtype=np.float64)
    den = np.asarray(den, dtype=np.float64)
    out = np.empty(np.broadcast(num, den).shape)
    out[...] = fill
    np.divide(num, den, out=out, where=den != 0)
    return out


def f_beta(p: np.ndarray, r: np.ndarray, beta: float = 1.0) -> np.ndarray:
    """``(1 + β²) P R / (β² P + R)``; 0 where ``β² P + R = 0``; NaN where P or R is NaN."""
    b2 = beta * beta
    den = b2 * p + r
    out = ratio((1 + b2) * p * r, den, 0.0)
    return np.where(np.isnan(den), np.nan, out)


def f_from_counts(p_num: np.ndarray, pred: np.ndarray, r_num: np.ndarray, gold: np.ndarray, beta: float = 1.0, *,
                  p: np.ndarray, r: np.ndarray) -> np.ndarray:
    """F-beta of precision ``p_num / pred`` and recall ``r_num / gold`` as one division of the counts:
    ``(1 + β²) m / (β² gold + pred)`` when both numerators are ``m``, else ``(1 + β²) p_num r_num / (β² p_num gold
    + r_num pred)``. Equal to :func:`f_beta` of the two rates, but two count tables of one F value give one float
    (a division of whole numbers is correctly rounded), so a resample ties exactly with the observed value, as the
    bootstrap's bias correction needs. Where ``pred`` or ``gold`` is 0 (or a rate undefined), ``f_beta(p, r)`` of
    the rates given, which carry the kind's value for an empty side. The scalar twin is
    :func:`accord.metrics.prf.f_from_counts` (the count classes), bit for bit."""
    b2 = beta * beta
    p_num, r_num = np.asarray(p_num, dtype=np.float64), np.asarray(r_num, dtype=np.float64)
    pred, gold = np.asarray(pred, dtype=np.float64), np.asarray(gold, dtype=np.float64)
    same = ratio((1 + b2) * r_num, b2 * gold + pred, 0.0)
    crossed = ratio((1 + b2) * p_num * r_num, b2 * p_num * gold + r_num * pred, 0.0)
    edge = (pred == 0) | (gold == 0) | np.isnan(p) | np.isnan(r)
    return np.where(edge, f_beta(p, r, beta), np.where(p_num == r_num, same, crossed))


def check_beta(beta: float) -> None:
    """An F-beta weight: a number from 0 to :data:`~accord._support.limits.MAX_BETA` (an :class:`OptionError`
    otherwise)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.number)) or not 0 <= beta <= MAX_BETA:
        raise OptionError(f"{spelled('beta')} must be a number from 0 to {MAX_BETA:g}; got {beta!r}")


def _zero_division(value: str) -> float:
    try:
        return _FILL[value]
    except KeyError:
        raise OptionError(f"unknown {spelled('zero_division')} {value!r}; expected zero, one or nan") from None


class Kind:
    """A measure's counts and rates.

    Attributes
    ----------
    name : str
        The kind's name in the JSON contract (``"kind"`` of each measure).
    fields : tuple of str
        The stored, additive counts.
    integer : frozenset of str
        The fields that are whole numbers (written as JSON integers).
    """

    name = ""
    fields: tuple[str, ...] = ()
    integer: frozenset[str] = frozenset()
    rate_names: tuple[str, ...] = ("precision", "recall", "f1")
    presence: int | None = None
    """How many leading fields tell whether a row counts anything (``None``: all of them)."""
    every_cell = False
    """Whether a document lists every row, even one that counts nothing (GATE's empty cells score 1.0)."""
    columns: tuple[tuple[str, str], ...] = ()
    """The counts a terminal table shows: ``(header, block key)``."""

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        """Counts computed from the stored ones (``gold``, ``pred``, ...), written before them."""
        return {}

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        """Every rate of the counts ``v`` (last axis: :attr:`fields`)."""
        raise NotImplementedError

    def options(self) -> dict[str, Any]:
        """The parameters that change this kind's numbers (recorded with the result)."""
        return {}

    def col(self, v: np.ndarray, name: str) -> np.ndarray:
        return v[..., self.fields.index(name)]

    def blocks(self, v: np.ndarray) -> list[dict[str, Any]]:
        """One JSON block per row of ``v`` (shape ``(n, fields)``): counts, then rates."""
        v = np.asarray(v)
        if len(v) == 0:
            return []
        columns: dict[str, list[Any]] = {}
        derived = self.derived(v)
        for name, arr in derived.items():
            columns[name] = arr.astype(np.int64).tolist() if name in self.integer else arr.tolist()
        for k, name in enumerate(self.fields):
            if name not in columns:
                arr = v[:, k]
                columns[name] = arr.astype(np.int64).tolist() if name in self.integer else arr.astype(
                    np.float64).tolist()
        for name, arr in self.rates(v).items():
            columns[name] = [None if x != x else x for x in arr.tolist()]
        names = list(columns)
        return [dict(zip(names, cells)) for cells in zip(*columns.values())]

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options().items())
        return f"{type(self).__name__}({opts})"


class _PRF(Kind):
    """Precision ``match / pred``, recall ``match / gold``, F-beta; ``zero_division`` for empty sides."""

    def __init__(self, beta: float = 1.0, zero_division: str = "zero"):
        check_beta(beta)
        self.beta, self.zero_division, self._fill = beta, zero_division, _zero_division(zero_division)

    def options(self) -> dict[str, Any]:
        return {"beta": self.beta, "zero_division": self.zero_division}

    def _prf(self, p_num: np.ndarray, pred: np.ndarray, r_num: np.ndarray, gold: np.ndarray) -> dict[str, np.ndarray]:
        p = ratio(p_num, pred, self._fill)
        r = ratio(r_num, gold, self._fill)
        return {"precision": p, "recall": r, "f1": f_from_counts(p_num, pred, r_num, gold, self.beta, p=p, r=r)}


class PairsKind(_PRF):
    """One-to-one pairing outcomes (MAT, conlleval, seqeval): every gold item a match, a clash or
    missing, every predicted item a match, a clash or spurious.

    .. math:: gold = match + gold\\_clash + missing,\\quad pred = match + pred\\_clash + spurious,
              \\quad P = match / pred,\\quad R = match / gold
    """

    columns = (("gold", "gold"), ("pred", "pred"), ("match", "match"), ("g.clash", "gold_clash"),
               ("p.clash", "pred_clash"), ("missing", "missing"), ("spurious", "spurious"))
    name = "pairs"
    fields: tuple[str, ...] = ("match", "gold_clash", "pred_clash", "missing", "spurious")
    integer = frozenset(fields + ("gold", "pred"))

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        c = v.T
        return {"gold": (c[0] + c[1] + c[3]).T, "pred": (c[0] + c[2] + c[4]).T}

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        d = self.derived(v)
        m = v[..., 0]
        return self._prf(m, d["pred"], m, d["gold"])


class UnitsKind(PairsKind):
    """MAT's token, pseudo-token and character scores: the pairs counts in units, and the test size.

    .. math:: acc_{sensitive} = (T - missing - spurious - gold\\_clash) / T,\\quad
              acc_{blind} = (T - missing - spurious) / T

    with ``T`` the test units (1.0 when ``T = 0``, as MAT); the error rates are ``1 - acc``.
    """

    name = "units"
    fields = PairsKind.fields + ("test_units",)
    integer = frozenset(fields + ("gold", "pred"))
    presence = 5
    rate_names = ("precision", "recall", "f1", "tag_sensitive_accuracy", "tag_sensitive_error_rate",
                  "tag_blind_accuracy", "tag_blind_error_rate")

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        return {**super().derived(v), "test_units": v[..., 5]}

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        out = super().rates(v)
        t = v[..., 5].astype(np.float64)
        sensitive = ratio(t - v[..., 3] - v[..., 4] - v[..., 1], t, 1.0)
        blind = ratio(t - v[..., 3] - v[..., 4], t, 1.0)
        return {**out, "tag_sensitive_accuracy": sensitive, "tag_sensitive_error_rate": 1 - sensitive,
                "tag_blind_accuracy": blind, "tag_blind_error_rate": 1 - blind}


class ClueKind(_PRF):
    """CLUEval at one leniency level: each side's spans and its hits, classified separately.

    .. math:: P = pred\\_hits / pred,\\quad R = gold\\_hits / gold
    """

    columns = (("gold", "gold"), ("pred", "pred"), ("R hits", "gold_hits"), ("P hits", "pred_hits"),
               ("FN", "false_negatives"), ("FP", "false_positives"))
    name = "clueval"
    fields = ("gold", "pred", "gold_hits", "pred_hits")
    integer = frozenset(fields + ("false_negatives", "false_positives"))

    def blocks(self, v: np.ndarray) -> list[dict[str, Any]]:
        out = super().blocks(v)
        for b in out:     # the false negatives and positives after the hits
            b["false_negatives"] = b.pop("false_negatives")
            b["false_positives"] = b.pop("false_positives")
            for r in self.rate_names:
                b[r] = b.pop(r)
        return out

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        return {"false_negatives": v[..., 0] - v[..., 2], "false_positives": v[..., 1] - v[..., 3]}

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        return self._prf(v[..., 3], v[..., 1], v[..., 2], v[..., 0])


class SemEvalKind(_PRF):
    """A SemEval-2013 schema (nervaluate's counts): COR, INC, PAR, MIS of gold spans, their predicted
    counterparts and SPU.

    .. math:: gold = COR + INC + PAR + MIS,\\quad pred = COR + INC + PAR + SPU,\\quad
              P = (COR + h\\,PAR) / pred,\\quad R = (COR + h\\,PAR) / gold

    with ``h = 1/2`` in the partial and type schemas, 0 in strict and exact.
    """

    columns = (("COR", "correct"), ("INC", "incorrect"), ("PAR", "partial"), ("MIS", "missed"), ("SPU", "spurious"),
               ("gold", "gold"), ("pred", "pred"))
    name = "semeval"
    fields = ("correct", "incorrect", "partial", "missed", "correct_act", "incorrect_act", "partial_act", "spurious")
    integer = frozenset(fields + ("gold", "pred"))

    def __init__(self, half_credit: bool, beta: float = 1.0, zero_division: str = "zero"):
        super().__init__(beta, zero_division)
        self.half_credit = half_credit

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        return {"gold": v[..., 0] + v[..., 1] + v[..., 2] + v[..., 3],
                "pred": v[..., 4] + v[..., 5] + v[..., 6] + v[..., 7]}

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        half = 0.5 if self.half_credit else 0.0
        d = self.derived(v)
        return self._prf(v[..., 4] + half * v[..., 6], d["pred"], v[..., 0] + half * v[..., 2], d["gold"])


class CorefKind(Kind):
    """A coreference metric of the CoNLL-2012 scorer: recall and precision as numerator over denominator
    (0 when the denominator is 0), F1 their harmonic mean; ``gold`` and ``pred`` count mentions.

    BLANC adds the non-coreference-link counts and averages the two parts:

    .. math:: R = (R_c + R_n) / 2,\\quad P = (P_c + P_n) / 2,\\quad F = (F_c + F_n) / 2

    using one part alone when the key has no links of the other kind (Recasens and Hovy 2011, as the
    reference scorer).
    """

    columns: tuple[tuple[str, str], ...] = (("key m.", "gold"), ("resp. m.", "pred"), ("R num", "recall_num"),
                                            ("R den", "recall_den"), ("P num", "precision_num"),
                                            ("P den", "precision_den"))
    name = "coref"
    base = ("gold", "pred", "recall_num", "recall_den", "precision_num", "precision_den")
    integer = frozenset(("gold", "pred"))

    def __init__(self, blanc: bool = False, rule: str = "conll2012"):
        self.blanc = blanc
        self.rule = rule    # BLANC's parts: those the key has links of (conll2012), or either side (corefud)
        self.fields = self.base + (("noncoref_recall_num", "noncoref_recall_den", "noncoref_precision_num",
                                    "noncoref_precision_den") if blanc else ())
        self.name = "blanc" if blanc else "coref"
        if blanc:   # the counts of both parts, as the reference scorer prints them above its BLANC line
            self.columns = (("key m.", "gold"), ("resp. m.", "pred"), ("Rc num", "recall_num"),
                            ("Rc den", "recall_den"), ("Pc num", "precision_num"), ("Pc den", "precision_den"),
                            ("Rn num", "noncoref_recall_num"), ("Rn den", "noncoref_recall_den"),
                            ("Pn num", "noncoref_precision_num"), ("Pn den", "noncoref_precision_den"))

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        r = ratio(v[..., 2], v[..., 3], 0.0)
        p = ratio(v[..., 4], v[..., 5], 0.0)
        f = f_from_counts(v[..., 4], v[..., 5], v[..., 2], v[..., 3], p=p, r=r)
        if not self.blanc:
            return {"precision": p, "recall": r, "f1": f}
        rn = ratio(v[..., 6], v[..., 7], 0.0)
        pn = ratio(v[..., 8], v[..., 9], 0.0)
        fn = f_from_counts(v[..., 8], v[..., 9], v[..., 6], v[..., 7], p=pn, r=rn)
        key_coref, key_non = v[..., 3] != 0, v[..., 7] != 0
        if self.rule == "corefud":   # a part counts when either side has links of its kind
            key_coref, key_non = key_coref | (v[..., 5] != 0), key_non | (v[..., 9] != 0)
        both = key_coref & key_non

        def pick(c: np.ndarray, n: np.ndarray) -> np.ndarray:
            return np.where(both, (c + n) / 2, np.where(key_coref, c, np.where(key_non, n, 0.0)))
        return {"precision": pick(p, pn), "recall": pick(r, rn), "f1": pick(f, fn)}


class SmatchKind(Kind):
    """Smatch: matched triples under the best variable mapping.

    .. math:: P = match / pred,\\quad R = match / gold,\\quad F = 2PR / (P + R)

    all 0 when either side has no triples (smatch's convention).
    """

    columns = (("match", "match"), ("gold", "gold"), ("pred", "pred"))
    name = "smatch"
    fields = ("match", "gold", "pred")
    integer = frozenset(fields)

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        m, g, t = v[..., 0], v[..., 1], v[..., 2]
        either = (g == 0) | (t == 0)
        p = np.where(either, 0.0, ratio(m, t, 0.0))
        r = np.where(either, 0.0, ratio(m, g, 0.0))
        return {"precision": p, "recall": r, "f1": f_from_counts(m, t, m, g, p=p, r=r)}


def _match_rates(m: np.ndarray, gm: np.ndarray, pt: np.ndarray, gt: np.ndarray) -> dict[str, np.ndarray]:
    """A normalized matching metric's rates (:class:`accord.structured.MatchScore`)."""
    empty = np.where((pt == 0) & (gt == 0), 1.0, 0.0)
    p = ratio(m, pt, empty)
    r = ratio(gm, gt, empty)
    f = np.where(gm == m, ratio(m, (pt + gt) / 2, empty), f_from_counts(m, pt, gm, gt, p=p, r=r))
    return {"precision": p, "recall": r, "f1": f}


class RecordsKind(Kind):
    """A structured metric (relations, events, entities, templates): records and similarity sums.

    .. math:: P = match / pred\\_total,\\quad R = gold\\_match / gold\\_total,\\quad
              F = 2\\,match / (pred\\_total + gold\\_total)\\ \\text{when}\\ gold\\_match = match

    ``match`` is ``Σ(P, R)`` under the metric's matching, ``pred_total = Σ(P, P)``, ``gold_total =
    Σ(R, R)``; ``gold`` and ``pred`` count records. Rates are 1 when both totals are 0.
    """

    columns = (("gold", "gold"), ("pred", "pred"), ("match", "match"), ("pred total", "pred_total"),
               ("gold total", "gold_total"))
    name = "records"
    fields: tuple[str, ...] = ("gold", "pred", "match", "gold_match", "pred_total", "gold_total")
    integer = frozenset(("gold", "pred"))

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        return _match_rates(v[..., 2], v[..., 3], v[..., 4], v[..., 5])


class BetterKind(RecordsKind):
    """BETTER's granular score: the filler metric (the counts of :class:`RecordsKind`) times the F1 of
    template types (``type_*`` counts).

    .. math:: score = F1_{type} \\times F1_{filler}
    """

    name = "better"
    fields = RecordsKind.fields + ("type_match", "type_gold_match", "type_pred_total", "type_gold_total")
    rate_names = ("precision", "recall", "f1", "type_f1", "score")

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        filler = super().rates(v)
        t = _match_rates(v[..., 6], v[..., 7], v[..., 8], v[..., 9])
        return {**filler, "type_f1": t["f1"], "score": t["f1"] * filler["f1"]}


class GateKind(Kind):
    """GATE's Annotation Diff measures over correct (c), partial (p), missing (m), spurious (s) and the
    BDM credit (B); ``gold = c + p + m`` keys, ``pred = c + p + s`` responses.

    .. math:: strict: P = c / pred,\\ R = c / gold;\\quad lenient: (c + p);\\quad
              average: (c + p/2),\\ F = (F_{strict} + F_{lenient}) / 2

    BDM measures divide ``B + c`` (``+ p`` lenient) by ``c + s`` and ``c + m``; 1.0 for an empty
    denominator (GATE's ``AnnotationDiffer`` and ``OntologyMeasures``).

    ``error_rate`` adds GATE's error rate, ``1 - precision`` (user guide 10.1.3); ``fp_per`` (``"token"`` or
    ``"sentence"``) adds a stored count of the documents' tokens or sentences (``tokens``, ``sentences``: the
    constant ``c`` of equation 10.8, each document's on every row of it) and the false positives per constant,
    ``false_positives_per_token = s / c`` (null when ``c`` is 0).
    """

    FP_UNITS = ("token", "sentence")
    """The constants ``fp_per`` may name."""

    columns = (("key", "gold"), ("response", "pred"), ("correct", "correct"), ("partial", "partial"),
               ("missing", "missing"), ("spurious", "spurious"))
    name = "gate"
    every_cell = True
    fields: tuple[str, ...] = ("correct", "partial", "missing", "spurious", "bdm")
    integer = frozenset(("gold", "pred", "correct", "partial", "missing", "spurious"))

    def __init__(self, measure: str = "strict", beta: float = 1.0, *, error_rate: bool = False,
                 fp_per: str | None = None):
        from ..metrics.gate_measures import parse_measure, split_measure

        self.name_given = parse_measure(measure)
        self.measure, self.beta = split_measure(self.name_given, beta)
        check_beta(self.beta)
        if fp_per is not None and fp_per not in self.FP_UNITS:
            raise OptionError(f"{spelled('fp_per')} must be token or sentence (the constant c of GATE's false "
                              f"positives, spurious / c); got {fp_per!r}")
        self.error_rate, self.fp_per = error_rate, fp_per
        if fp_per is not None:
            self.fields = GateKind.fields + (f"{fp_per}s",)
            self.integer = GateKind.integer | {f"{fp_per}s"}
        self.rate_names = (GateKind.rate_names + (("error_rate",) if error_rate else ())
                           + ((f"false_positives_per_{fp_per}",) if fp_per is not None else ()))

    def options(self) -> dict[str, Any]:
        return {"measure": self.measure, "beta": self.beta, **({"error_rate": True} if self.error_rate else {}),
                **({"fp_per": self.fp_per} if self.fp_per is not None else {})}

    def derived(self, v: np.ndarray) -> dict[str, np.ndarray]:
        c, p, m, s = v[..., 0], v[..., 1], v[..., 2], v[..., 3]
        return {"gold": c + p + m, "pred": c + p + s}

    def blocks(self, v: np.ndarray) -> list[dict[str, Any]]:
        out = super().blocks(v)
        if not self.measure.endswith("-bdm"):
            for b in out:
                del b["bdm"]
        return out

    def _pr(self, v: np.ndarray, measure: str) -> tuple[np.ndarray, np.ndarray]:
        c, p, m, s, bdm = (v[..., k].astype(np.float64) for k in range(5))
        if measure.endswith("-bdm"):
            credit = bdm + c + (p if measure == "lenient-bdm" else 0.0)
            return ratio(credit, c + s, 1.0), ratio(credit, c + m, 1.0)
        credit = {"strict": c, "lenient": c + p, "average": c + p / 2}[measure]
        return ratio(credit, c + p + s, 1.0), ratio(credit, c + p + m, 1.0)

    def rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        out = self._rates(v)
        if self.error_rate:
            out["error_rate"] = 1.0 - out["precision"]
        if self.fp_per is not None:
            out[f"false_positives_per_{self.fp_per}"] = ratio(v[..., 3], v[..., 5], np.nan)
        return out

    def _rates(self, v: np.ndarray) -> dict[str, np.ndarray]:
        if self.measure.startswith("average"):
            suffix = self.measure[len("average"):]
            (ps, rs), (pl, rl) = self._pr(v, "strict" + suffix), self._pr(v, "lenient" + suffix)
            f = (f_beta(ps, rs, self.beta) + f_beta(pl, rl, self.beta)) / 2
            if suffix:
                return {"precision": (ps + pl) / 2, "recall": (rs + rl) / 2, "f1": f}
            p, r = self._pr(v, "average")
            return {"precision": p, "recall": r, "f1": f}
        p, r = self._pr(v, self.measure)
        return {"precision": p, "recall": r, "f1": f_beta(p, r, self.beta)}
