"""A drop-in for ``seqeval.metrics``: same arguments, same numbers, decoded on arrays.

Change ``from seqeval.metrics import f1_score`` to ``from accord.compat.seqeval import
f1_score``. The functions take lists of tag lists and give seqeval 1.2.2's numbers in its
default mode (conlleval's chunking) and in its strict mode (``mode="strict"`` with a
``scheme``), computed on numpy arrays: chunks are decoded with
:func:`accord.model.tagging.decode` and gold and predicted entities are paired by hashing
(:func:`accord.match.blocks.exact_pairs`).

Strict mode with ``IOB1`` or ``IOE1`` reads chunks with seqeval's own start, inside and end
tables (:mod:`accord.model._seqeval_strict`): the same chunks as seqeval, also where they differ
from accord's validity rules (:mod:`accord.model.tagging`, ``accord score``) and where seqeval marks its
IOE1 reading as incomplete.

Differences from seqeval, on purpose:

* ``mode="strict"`` without ``scheme`` in ``f1_score``, ``precision_score`` and
  ``recall_score`` silently falls back to the default mode in seqeval; here it does the
  same but warns (:class:`SeqevalCompatWarning`). ``classification_report`` detects the
  scheme, as seqeval does.
* ``sample_weight`` is accepted and ignored by seqeval; here it warns.
* A tag whose prefix is not ``B I E S`` (``U``, ``L`` or a bare label) makes seqeval warn
  and chunk it in an undocumented way; here it raises :class:`~accord.errors.SchemeError`
  in the default mode. In strict mode, each scheme's prefixes are accepted as in seqeval.
* ``zero_division="warn"`` warns with :class:`UndefinedMetricWarning` (seqeval uses
  scikit-learn's class of that name).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from itertools import chain
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.blocks import exact_pairs
from ..model import tagging
from ..model._seqeval_strict import TABLES, strict_chunks

__all__ = [
    "compute",
    "load",
    "Seqeval",
    "get_entities",
    "performance_measure",
    "f1_score",
    "precision_score",
    "recall_score",
    "accuracy_score",
    "precision_recall_fscore_support",
    "classification_report",
    "SeqevalCompatWarning",
    "UndefinedMetricWarning",
]


class SeqevalCompatWarning(UserWarning):
    """seqeval would silently do something surprising here."""


class UndefinedMetricWarning(UserWarning):
    """A rate with an empty denominator was set by ``zero_division``."""


_AUTO = {
    "IOB2": [{"I", "O", "B"}, {"I", "B"}, {"B", "O"}, {"B"}],
    "IOE2": [{"I", "O", "E"}, {"I", "E"}, {"E", "O"}, {"E"}],
    "IOBES": [{"I", "O", "B", "E", "S"}, {"I", "B", "E", "S"}, {"I", "O", "B", "E"}, {"O", "B", "E", "S"},
              {"I", "B", "E"}, {"B", "E", "S"}, {"O", "B", "E"}, {"B", "E"}, {"S"}],
    "BILOU": [{"I", "O", "B", "L", "U"}, {"I", "B", "L", "U"}, {"I", "O", "B", "L"}, {"O", "B", "L", "U"},
              {"I", "B", "L"}, {"B", "L", "U"}, {"O", "B", "L"}, {"B", "L"}, {"U"}],
}


def _scheme_name(scheme: Any) -> str | None:
    if scheme is None:
        return None
    if isinstance(scheme, str):
        return tagging.canonical_scheme(scheme)
    return tagging.canonical_scheme(getattr(scheme, "__name__", str(scheme)))


def _auto_detect(y: Sequence[Sequence[str]], suffix: bool) -> str:
    prefixes = {(t[-1] if suffix else t[0]) for s in y for t in s if t}
    for name, allowed in _AUTO.items():
        if prefixes in allowed:
            return name
    raise ValueError(f"This scheme is not supported: {prefixes}")


def _check_lengths(y_true: Any, y_pred: Any) -> None:
    if not set(map(type, y_true)) | set(map(type, y_pred)) <= {list}:
        raise TypeError("Found input variables without list of list.")
    if len(y_true) != len(y_pred) or list(map(len, y_true)) != list(map(len, y_pred)):
        raise ValueError("Found input variables with inconsistent numbers of samples:\n"
                         f"{list(map(len, y_true))}\n{list(map(len, y_pred))}")


class _Codes(dict[str, int]):
    """Tag -> its rank among the distinct tags met so far (a new tag gets the next one)."""

    def __missing__(self, tag: str) -> int:
        code = self[tag] = len(self)
        return code


class _Tags:
    """Both sides' tags as codes into one list of distinct tags, read once, in seqeval's order (gold first).

    ``distinct`` lists the distinct tags in order of first occurrence, those of the gold side first
    (``gold_distinct`` of them); ``gold`` and ``pred`` index it, token by token, the sentences concatenated;
    ``first`` is True at each sentence's first token (both sides have the same lengths).
    """

    def __init__(self, y_true: Sequence[Sequence[str]], y_pred: Sequence[Sequence[str]]):
        lengths = np.fromiter(map(len, y_true), dtype=np.int64, count=len(y_true))
        n = int(lengths.sum())
        codes = _Codes()
        self.gold = np.fromiter(map(codes.__getitem__, chain.from_iterable(y_true)), dtype=np.int32, count=n)
        self.gold_distinct = len(codes)
        self.pred = np.fromiter(map(codes.__getitem__, chain.from_iterable(y_pred)), dtype=np.int32, count=n)
        self.distinct = list(codes)
        offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
        np.cumsum(lengths, out=offsets[1:])
        self.first = np.zeros(n, dtype=bool)
        self.first[offsets[:-1][lengths > 0]] = True


class _Entities:
    """Decoded entities of one side: start, end and type codes over a shared type table, in order of position
    (the chunks of one side never overlap, so their starts increase)."""

    def __init__(self, y: Sequence[Sequence[str]], table: tagging.TagTable, scheme: str | None,
                 codes: np.ndarray | None = None, lookup: tuple[np.ndarray, np.ndarray] | None = None,
                 first: np.ndarray | None = None):
        if scheme in TABLES:    # IOB1, IOE1: seqeval's own strict reading (see _seqeval_strict)
            rows, base = [], 0
            for sentence in y:
                rows += [(table.type_code(t), base + a, base + b) for t, a, b in
                         strict_chunks(sentence, scheme, table.suffix)]
                base += len(sentence)
            arr = np.asarray(rows, dtype=np.int64).reshape(-1, 3)
            self.start, self.end = arr[:, 1], arr[:, 2]
            self.type_id: np.ndarray[Any, np.dtype[np.signedinteger[Any]]] = arr[:, 0]
            return
        assert codes is not None and lookup is not None and first is not None
        chunks = tagging.decode(lookup[0][codes], lookup[1][codes], first, scheme=scheme or "conlleval",
                                repair="discard" if scheme else "conlleval")
        self.start, self.end, self.type_id = chunks.start, chunks.end, chunks.type_id


def _true_positives(t: _Entities, p: _Entities, ntypes: int) -> np.ndarray:
    """Per type, the predicted chunks equal to a gold chunk (same start, end and type). Each side's starts
    increase, so a predicted chunk can only equal the gold chunk of its start: one binary search each."""
    if not len(t.start) or not len(p.start):
        return np.zeros(ntypes, dtype=np.int64)
    if (np.diff(t.start) <= 0).any():    # never from the readings above; pairing by hashing is the general way
        gi, _ = exact_pairs(np.stack([t.start, t.end, t.type_id.astype(np.int64)], axis=1),
                            np.stack([p.start, p.end, p.type_id.astype(np.int64)], axis=1))
        return np.bincount(t.type_id[gi], minlength=ntypes)
    at = np.minimum(np.searchsorted(t.start, p.start), len(t.start) - 1)
    hit = (t.start[at] == p.start) & (t.end[at] == p.end) & (t.type_id[at] == p.type_id)
    return np.bincount(p.type_id[hit], minlength=ntypes)


def _counts(y_true: Any, y_pred: Any, *, suffix: bool, scheme: str | None, tags: _Tags | None = None
            ) -> tuple[list[str], np.ndarray, np.ndarray, np.ndarray]:
    if tags is None:
        _check_lengths(y_true, y_pred)
    table = tagging.TagTable(scheme or "conlleval", suffix=suffix)
    if scheme in TABLES:
        t = _Entities(y_true, table, scheme)
        p = _Entities(y_pred, table, scheme)
    else:
        tags = tags if tags is not None else _Tags(y_true, y_pred)
        # the distinct tags in order of first occurrence (gold first): the first faulty one is refused, as
        # reading every tag in that order would refuse it
        index = table.intern(tags.distinct)
        lookup = table.arrays(index)
        t = _Entities(y_true, table, scheme, tags.gold, lookup, tags.first)
        p = _Entities(y_pred, table, scheme, tags.pred, lookup, tags.first)
    present = np.union1d(t.type_id, p.type_id).astype(np.int64)
    names = [table.types[k] or "_" for k in present.tolist()]   # a bare B/I/E/S tag: seqeval's type "_"
    order = np.argsort(np.array(names, dtype=object), kind="stable") if names else np.zeros(0, dtype=np.int64)
    present = present[order]
    names = [names[k] for k in order.tolist()]
    ntypes = len(table.types)
    tp = _true_positives(t, p, ntypes)[present]
    true_sum = np.bincount(t.type_id, minlength=ntypes)[present]
    pred_sum = np.bincount(p.type_id, minlength=ntypes)[present]
    return names, tp.astype(np.int64), pred_sum.astype(np.int64), true_sum.astype(np.int64)


def _divide(num: np.ndarray, den: np.ndarray, metric: str, modifier: str, warn_for: Sequence[str],
            zero_division: Any, warn_stack: int) -> np.ndarray:
    mask = den == 0
    result = num / np.where(mask, 1, den)
    if not mask.any():
        return result
    result = result.astype(float)
    result[mask] = 0.0 if zero_division in ("warn", 0) else 1.0
    if zero_division == "warn" and metric in warn_for:
        start = f"{metric.title()} and F-score are" if "f-score" in warn_for else f"{metric.title()} is"
        where = "due to" if len(result) == 1 else "in labels with"
        warnings.warn(f"{start} ill-defined and being set to 0.0 {where} no {modifier} samples. "
                      "Use `zero_division` parameter to control this behavior.", UndefinedMetricWarning,
                      stacklevel=warn_stack + 1)
    return result


def precision_recall_fscore_support(y_true: Any, y_pred: Any, *, average: str | None = None,
                                    warn_for: Sequence[str] = ("precision", "recall", "f-score"),
                                    beta: float = 1.0, sample_weight: Any = None, zero_division: Any = "warn",
                                    suffix: bool = False, scheme: Any = None, mode: str | None = None,
                                    _warn_stack: int = 2) -> tuple[Any, Any, Any, Any]:
    """Per-type (``average=None``) or averaged precision, recall, F-beta and support.

    With ``mode="strict"`` and a ``scheme``, chunks are read under the scheme's rules and
    invalid ones dropped; otherwise conlleval's chunking applies.

    .. math:: P_t = \\frac{tp_t}{pred_t},\\quad R_t = \\frac{tp_t}{true_t},\\quad
              F_t = \\frac{(1+\\beta^2) P_t R_t}{\\beta^2 P_t + R_t}

    ``micro`` sums the counts over types first; ``macro`` averages the per-type values;
    ``weighted`` weights them by ``true_t``.
    """
    if beta < 0:
        raise ValueError("beta should be >=0 in the F-beta score")
    if average not in (None, "micro", "macro", "weighted"):
        raise ValueError("average has to be one of (None, 'micro', 'macro', 'weighted')")
    if sample_weight is not None:
        warnings.warn("sample_weight is ignored, as it is by seqeval for these averages", SeqevalCompatWarning,
                      stacklevel=_warn_stack)
    strict_scheme = _scheme_name(scheme) if mode == "strict" else None
    _, tp, pred_sum, true_sum = _counts(y_true, y_pred, suffix=suffix, scheme=strict_scheme)
    return _from_counts(tp, pred_sum, true_sum, average=average, warn_for=warn_for, beta=beta,
                        zero_division=zero_division, warn_stack=_warn_stack + 1)


def _from_counts(tp: np.ndarray, pred_sum: np.ndarray, true_sum: np.ndarray, *, average: str | None,
                 warn_for: Sequence[str], beta: float, zero_division: Any,
                 warn_stack: int) -> tuple[Any, Any, Any, Any]:
    if average == "micro":
        tp, pred_sum, true_sum = tp.sum(keepdims=True), pred_sum.sum(keepdims=True), true_sum.sum(keepdims=True)
    precision = _divide(tp, pred_sum, "precision", "predicted", warn_for, zero_division, warn_stack)
    recall = _divide(tp, true_sum, "recall", "true", warn_for, zero_division, warn_stack)
    if zero_division == "warn" and tuple(warn_for) == ("f-score",) and (pred_sum[true_sum == 0] == 0).any():
        warnings.warn("F-score is ill-defined and being set to 0.0 in labels with no true nor predicted samples.",
                      UndefinedMetricWarning, stacklevel=warn_stack)
    if np.isposinf(beta):
        f = recall
    else:
        b2 = beta * beta
        den = b2 * precision + recall
        den = np.where(den == 0, 1, den)
        f = (1 + b2) * precision * recall / den
    if average == "weighted":
        if true_sum.sum() == 0:
            z = 0.0 if zero_division in ("warn", 0) else 1.0
            nothing = pred_sum.sum() == 0
            return (z if nothing else 0.0), z, (z if nothing else 0.0), int(true_sum.sum())
        weights = true_sum
    else:
        weights = None
    if average is not None:
        return (float(np.average(precision, weights=weights)), float(np.average(recall, weights=weights)),
                float(np.average(f, weights=weights)), int(true_sum.sum()))
    return precision, recall, f, true_sum


def _single(metric: int, warn_for: str, y_true: Any, y_pred: Any, average: str | None, suffix: bool,
            mode: str | None, sample_weight: Any, zero_division: Any, scheme: Any) -> Any:
    if mode == "strict" and not scheme:
        warnings.warn("mode='strict' without a scheme: seqeval silently scores in its default (conlleval) mode, "
                      "and so does this drop-in; pass scheme=IOB2 (or another) for strict scoring",
                      SeqevalCompatWarning, stacklevel=3)
        mode = None
    values = precision_recall_fscore_support(y_true, y_pred, average=average, warn_for=(warn_for,), beta=1.0,
                                             sample_weight=sample_weight, zero_division=zero_division,
                                             suffix=suffix, scheme=scheme, mode=mode, _warn_stack=4)
    return values[metric]


def f1_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
             mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
             scheme: Any = None) -> Any:
    """F1 of entities, :math:`2PR/(P+R)`, as ``seqeval.metrics.f1_score``."""
    return _single(2, "f-score", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


def precision_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
                    mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
                    scheme: Any = None) -> Any:
    """Precision of entities, :math:`tp / (tp + fp)`, as ``seqeval.metrics.precision_score``."""
    return _single(0, "precision", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


def recall_score(y_true: Any, y_pred: Any, *, average: str | None = "micro", suffix: bool = False,
                 mode: str | None = None, sample_weight: Any = None, zero_division: Any = "warn",
                 scheme: Any = None) -> Any:
    """Recall of entities, :math:`tp / (tp + fn)`, as ``seqeval.metrics.recall_score``."""
    return _single(1, "recall", y_true, y_pred, average, suffix, mode, sample_weight, zero_division, scheme)


def accuracy_score(y_true: Any, y_pred: Any) -> float:
    """Token accuracy, :math:`\\#\\{i: t_i = p_i\\} / n` over all tokens (nested lists flattened)."""
    if any(isinstance(s, list) for s in y_true):
        y_true = [t for s in y_true for t in s]
        y_pred = [t for s in y_pred for t in s]
    if not y_true:
        raise OptionError("accuracy_score needs at least one token")
    return sum(a == b for a, b in zip(y_true, y_pred)) / len(y_true)


def classification_report(y_true: Any, y_pred: Any, *, digits: int = 2, suffix: bool = False,
                          output_dict: bool = False, mode: str | None = None, sample_weight: Any = None,
                          zero_division: Any = "warn", scheme: Any = None) -> str | dict[str, dict[str, Any]]:
    """Per-type and averaged precision, recall, F1 and support, as seqeval's report (text or dict)."""
    strict, tags = None, None
    if mode == "strict":
        _check_lengths(y_true, y_pred)
        strict = _scheme_name(scheme) if scheme else None
        if strict not in TABLES:
            tags = _Tags(y_true, y_pred)
        if strict is None:
            assert tags is not None
            strict = _auto_detect([tags.distinct[:tags.gold_distinct]], suffix)   # the gold side's distinct tags
    if sample_weight is not None:
        warnings.warn("sample_weight is ignored, as it is by seqeval for these averages", SeqevalCompatWarning,
                      stacklevel=2)
    names, tp, pred_sum, true_sum = _counts(y_true, y_pred, suffix=suffix, scheme=strict, tags=tags)
    kw = dict(warn_for=("precision", "recall", "f-score"), beta=1.0, zero_division=zero_division, warn_stack=3)
    p, r, f, s = _from_counts(tp, pred_sum, true_sum, average=None, **kw)
    rows: list[tuple[str, Any, Any, Any, Any] | None] = [
        (n, float(a), float(b), float(c), int(d)) for n, a, b, c, d in zip(names, p, r, f, s)]
    rows.append(None)
    for avg in ("micro", "macro", "weighted"):
        rows.append((f"{avg} avg",) + tuple(_from_counts(tp, pred_sum, true_sum, average=avg, **kw)))
    if output_dict:
        return {row[0]: {"precision": row[1], "recall": row[2], "f1-score": row[3], "support": row[4]}
                for row in rows if row is not None}
    width = max(max(map(len, names)) if names else 0, len("weighted avg"), digits)
    head = "{:>{width}s} ".format("", width=width) + "".join(f" {h:>9}" for h in
                                                           ("precision", "recall", "f1-score", "support"))
    fmt = "{:>{width}s} " + " {:>9.{digits}f}" * 3 + " {:>9}"
    lines = ["" if row is None else fmt.format(*row, width=width, digits=digits) for row in rows]
    lines.append("")
    return head + "\n\n" + "\n".join(lines)


def _nested(seq: Any) -> bool:
    return any(isinstance(s, list) for s in seq)


def get_entities(seq: Sequence[Any], suffix: bool = False) -> list[tuple[str, int, int]]:
    """The chunks of a tag list as ``(type, first, last)`` with an inclusive last position, as seqeval's.

    A list of tag lists is read as seqeval reads it: the sentences one after another with one ``O``
    between them, positions counted over that sequence. Chunks follow conlleval's rules (any ``B I E S``
    prefix; a bare ``B`` has the type ``_``). A tag of another prefix raises
    :class:`~accord.errors.SchemeError` where seqeval warns and guesses.

    >>> get_entities(["B-PER", "I-PER", "O", "B-LOC"])
    [('PER', 0, 1), ('LOC', 3, 3)]
    """
    sentences = list(seq) if _nested(seq) else [list(seq)]
    table = tagging.TagTable("conlleval", suffix=suffix)
    flat, offsets, first = tagging.flatten(sentences)
    prefix, types = table.arrays(table.intern(flat))
    chunks = tagging.decode(prefix, types, first, scheme="conlleval", repair="conlleval", tags=flat)
    sentence = np.searchsorted(offsets, chunks.start, side="right") - 1
    start = (chunks.start + sentence).tolist()   # one O between sentences, as seqeval joins them
    last = (chunks.end - 1 + sentence).tolist()
    names = [table.types[t] or "_" for t in chunks.type_id.tolist()]
    return list(zip(names, start, last))


def performance_measure(y_true: Sequence[Any], y_pred: Sequence[Any]) -> dict[str, int]:
    """Token counts as seqeval's ``performance_measure``: ``TP`` equal tags not both ``O``, ``FP`` a predicted tag
    other than ``O`` that differs from gold, ``FN`` a gold tag other than ``O`` predicted ``O``, ``TN`` both ``O``.

    These are tag counts, not entity counts (an entity of three tokens counts three times).
    """
    if _nested(y_true):
        _check_lengths(y_true, y_pred)
        y_true = [t for s in y_true for t in s]
        y_pred = [t for s in y_pred for t in s]
    elif len(y_true) != len(y_pred):
        raise ValueError(f"Found input variables with inconsistent numbers of samples: {len(y_true)}, {len(y_pred)}")
    gold = np.asarray(y_true, dtype=object)
    pred = np.asarray(y_pred, dtype=object)
    same = gold == pred
    gold_o, pred_o = gold == "O", pred == "O"
    return {"TP": int((same & ~(gold_o & pred_o)).sum()), "FP": int((~same & ~pred_o).sum()),
            "FN": int((~gold_o & pred_o).sum()), "TN": int((gold_o & pred_o).sum())}


def compute(predictions: Any, references: Any, suffix: bool = False, scheme: Any = None, mode: str | None = None,
            sample_weight: Any = None, zero_division: Any = "warn") -> dict[str, Any]:
    """The dictionary of Hugging Face ``evaluate``'s seqeval metric, without downloading it.

    ``evaluate.load("seqeval").compute(predictions=..., references=...)`` becomes
    ``accord.compat.seqeval.compute(predictions=..., references=...)``: per type ``precision``,
    ``recall``, ``f1`` and ``number`` (the gold count), then ``overall_precision``,
    ``overall_recall``, ``overall_f1`` (micro averages over chunks) and ``overall_accuracy`` (tags).
    """
    report = classification_report(references, predictions, suffix=suffix, output_dict=True, scheme=scheme,
                                   mode=mode, sample_weight=sample_weight, zero_division=zero_division)
    assert isinstance(report, dict)   # output_dict=True
    overall = report.pop("micro avg")
    report.pop("macro avg")
    report.pop("weighted avg")
    out: dict[str, Any] = {name: {"precision": row["precision"], "recall": row["recall"], "f1": row["f1-score"],
                                  "number": row["support"]} for name, row in report.items()}
    out["overall_precision"] = overall["precision"]
    out["overall_recall"] = overall["recall"]
    out["overall_f1"] = overall["f1-score"]
    out["overall_accuracy"] = accuracy_score(references, predictions)
    return out


class Seqeval:
    """Hugging Face ``evaluate``'s seqeval metric as an object that accumulates batches: ``add_batch`` (or ``add``)
    per batch, ``compute`` for :func:`compute`'s dictionary of everything added, as if computed on it at once.

    ``metric = evaluate.load("seqeval")`` becomes ``metric = accord.compat.seqeval.load()``. Only counts are kept
    (per type, and the equal tags), not the tags. The options that change the chunks (``suffix``, ``scheme``,
    ``mode``) are given when the metric is made; :meth:`compute` takes them again only with the same values (a
    batch already counted cannot be read anew). ``mode="strict"`` needs a ``scheme`` here: seqeval detects it on
    all the tags at once, which batches cannot. As ``evaluate``, :meth:`compute` forgets the batches.
    """

    def __init__(self, *, suffix: bool = False, scheme: Any = None, mode: str | None = None,
                 zero_division: Any = "warn"):
        if mode == "strict" and not scheme:
            raise OptionError("mode='strict' without a scheme: seqeval detects the scheme on all the tags at once, "
                              "which batches cannot; give scheme='IOB2' (or another) to load()")
        self.suffix, self.scheme, self.mode, self.zero_division = suffix, scheme, mode, zero_division
        self._strict = _scheme_name(scheme) if mode == "strict" else None
        self._counts: dict[str, np.ndarray] = {}
        self._equal = self._tags = 0

    def add_batch(self, *, predictions: Any = None, references: Any = None) -> None:
        """Count a batch: lists of tag lists, as :func:`compute` takes them."""
        if predictions is None or references is None:
            raise OptionError("add_batch needs predictions= and references=")
        predictions, references = _as_lists(predictions), _as_lists(references)
        names, tp, pred_sum, true_sum = _counts(references, predictions, suffix=self.suffix, scheme=self._strict)
        for k, name in enumerate(names):
            row = self._counts.setdefault(name, np.zeros(3, dtype=np.int64))
            row += (tp[k], pred_sum[k], true_sum[k])
        self._equal += sum(a == b for s, t in zip(references, predictions) for a, b in zip(s, t))
        self._tags += sum(map(len, references))

    def add(self, *, prediction: Any = None, reference: Any = None) -> None:
        """Count one sentence (a tag list)."""
        self.add_batch(predictions=[prediction], references=[reference])

    def compute(self, *, predictions: Any = None, references: Any = None, **options: Any) -> dict[str, Any]:
        """:func:`compute`'s dictionary of every batch added (and of ``predictions``/``references`` if given); then
        the metric is empty again."""
        fixed = {"suffix": self.suffix, "scheme": self.scheme, "mode": self.mode}
        changed = sorted(k for k, v in options.items() if k in fixed and v != fixed[k])
        unknown = sorted(k for k in options if k not in fixed and k not in ("zero_division", "sample_weight"))
        if unknown:
            raise OptionError(f"compute() takes no option {', '.join(unknown)}")
        if changed:
            raise OptionError(f"compute() takes {', '.join(changed)} only as load() was given it: batches already "
                              "counted cannot be read anew")
        if options.get("sample_weight") is not None:
            warnings.warn("sample_weight is ignored, as it is by seqeval for these averages", SeqevalCompatWarning,
                          stacklevel=2)
        if predictions is not None or references is not None:
            self.add_batch(predictions=predictions, references=references)
        if not self._tags:
            raise OptionError("nothing to compute: no batch was added")
        zero_division = options.get("zero_division", self.zero_division)
        names = sorted(self._counts)
        cells = np.array([self._counts[n] for n in names], dtype=np.int64).reshape(-1, 3)
        tp, pred_sum, true_sum = cells[:, 0], cells[:, 1], cells[:, 2]
        kw: dict[str, Any] = dict(warn_for=("precision", "recall", "f-score"), beta=1.0, zero_division=zero_division,
                                  warn_stack=3)
        p, r, f, s = _from_counts(tp, pred_sum, true_sum, average=None, **kw)
        out: dict[str, Any] = {name: {"precision": float(a), "recall": float(b), "f1": float(c), "number": int(d)}
                               for name, a, b, c, d in zip(names, p, r, f, s)}
        overall = _from_counts(tp, pred_sum, true_sum, average="micro", **kw)
        out["overall_precision"], out["overall_recall"], out["overall_f1"] = overall[:3]
        out["overall_accuracy"] = self._equal / self._tags
        self._counts, self._equal, self._tags = {}, 0, 0
        return out


def _as_lists(y: Any) -> list[list[Any]]:
    """Tag lists given as tuples or arrays, as lists (seqeval takes lists of lists only)."""
    return [s.tolist() if hasattr(s, "tolist") else list(s) for s in y]


def load(*, suffix: bool = False, scheme: Any = None, mode: str | None = None, zero_division: Any = "warn") -> Seqeval:
    """A :class:`Seqeval` metric, as ``evaluate.load("seqeval")`` gives one (without downloading anything)."""
    return Seqeval(suffix=suffix, scheme=scheme, mode=mode, zero_division=zero_division)
