"""Hugging Face's ``Trainer``: :func:`compute_metrics` makes its ``compute_metrics`` function, which turns the logits
and label ids of an evaluation into word-level tags and returns seqeval's figures as the flat dictionary the Trainer
logs (``overall_f1``, ``PER_f1``...), without ``evaluate`` or a download.

>>> from accord.hf import compute_metrics
>>> trainer = Trainer(model, args, compute_metrics=compute_metrics(label_names))   # doctest: +SKIP

Nothing here imports ``transformers``: an ``EvalPrediction`` is read by its ``predictions`` and ``label_ids``, and a
``(predictions, label_ids)`` tuple works as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .accumulate._inputs import IGNORED_INDEX, as_array, batch_tags, label_table
from .compat import seqeval
from .errors import FormatError, OptionError

__all__ = ["compute_metrics", "word_level_tags"]

SUBWORDS = ("drop", "first")


def _unpack(prediction: Any) -> tuple[Any, Any]:
    """The predictions (logits or ids) and the label ids of an ``EvalPrediction`` or a ``(predictions, labels)``
    tuple; of a model's several outputs, the first (the logits)."""
    if hasattr(prediction, "predictions") and hasattr(prediction, "label_ids"):
        predictions, labels = prediction.predictions, prediction.label_ids
    elif isinstance(prediction, (tuple, list)) and len(prediction) >= 2:
        predictions, labels = prediction[0], prediction[1]
    else:
        raise FormatError(f"compute_metrics got a {type(prediction).__name__}: expected an EvalPrediction or a "
                          "(predictions, label_ids) tuple")
    if isinstance(predictions, (tuple, list)) and predictions and not np.isscalar(predictions[0]) and \
            np.ndim(as_array(predictions[0])) == 3:
        predictions = predictions[0]     # (logits, hidden states...): the logits
    if labels is None:
        raise FormatError("compute_metrics got no label_ids: the evaluation dataset needs its labels")
    return predictions, labels


def _first_subwords(labels: np.ndarray, word_ids: Sequence[Sequence[int | None]], ignore_index: int) -> np.ndarray:
    """The labels with every position but the first sub-word of each word set to ``ignore_index``."""
    if len(word_ids) != len(labels):
        raise FormatError(f"word_ids has {len(word_ids)} rows and the label ids {len(labels)}: give the word ids of "
                          "every example of the evaluation dataset, in its order")
    out = np.full_like(labels, ignore_index)
    for r, ids in enumerate(word_ids):
        ids = list(ids)
        if len(ids) > labels.shape[1]:
            raise FormatError(f"example {r + 1}: {len(ids)} word ids but {labels.shape[1]} label positions")
        previous = None
        for k, w in enumerate(ids):
            if w is not None and w != previous:
                out[r, k] = labels[r, k]
            previous = w
    return out


def word_level_tags(prediction: Any, label_names: Any, *, subwords: str = "drop",
                    word_ids: Sequence[Sequence[int | None]] | None = None,
                    ignore_index: int = IGNORED_INDEX) -> tuple[list[list[str]], list[list[str]]]:
    """The gold and predicted tags of each example, one per word: ``(references, predictions)``.

    Parameters
    ----------
    prediction : EvalPrediction or tuple
        Logits ``(examples, positions, labels)`` (or predicted ids ``(examples, positions)``) and label ids.
    label_names : list of str or ClassLabel
        The tag of each id.
    subwords : {"drop", "first"}
        ``drop``: the positions whose label id is ``ignore_index`` (sub-words after the first, special tokens,
        padding: Hugging Face's token-classification recipe) are left out. ``first``: every sub-word was labelled
        (``label_all_tokens``); the first sub-word of each word is kept, as ``word_ids`` say (the tokenizer's
        ``word_ids()`` of each example, ``None`` for special tokens).
    """
    if subwords not in SUBWORDS:
        raise OptionError(f"subwords must be one of {', '.join(SUBWORDS)}; got {subwords!r}")
    if subwords == "first" and word_ids is None:
        raise OptionError("subwords='first' needs word_ids (each example's tokenizer word_ids()): without them a "
                          "word's first sub-word cannot be told from the others")
    predictions, labels = _unpack(prediction)
    labels = np.asarray(as_array(labels))
    if labels.ndim != 2:
        raise FormatError(f"label_ids have {labels.ndim} dimensions; expected (examples, positions)")
    if subwords == "first" and word_ids is not None:
        labels = _first_subwords(labels, word_ids, ignore_index)
    batch = batch_tags(labels, predictions, names=label_table(label_names, "label_names"),
                       ignore_index=ignore_index, where="compute_metrics")
    bounds = batch.offsets.tolist()
    gold = [batch.gold[a:b] for a, b in zip(bounds, bounds[1:])]
    pred = [batch.pred[a:b] for a, b in zip(bounds, bounds[1:])]
    return gold, pred


def compute_metrics(label_names: Any, *, subwords: str = "drop", word_ids: Sequence[Sequence[int | None]] | None = None,
                    entity_level: bool = True, scheme: Any = None, mode: str | None = None, suffix: bool = False,
                    zero_division: Any = "warn", ignore_index: int = IGNORED_INDEX
                    ) -> Callable[[Any], dict[str, float]]:
    """A ``compute_metrics`` function for the ``Trainer``: word-level tags (:func:`word_level_tags`) scored as seqeval
    scores them (:func:`accord.compat.seqeval.compute`; ``scheme``, ``mode``, ``suffix`` and ``zero_division`` as
    seqeval takes them), returned flat.

    The keys: ``overall_precision``, ``overall_recall``, ``overall_f1``, ``overall_accuracy`` and, with
    ``entity_level``, ``<TYPE>_precision``, ``<TYPE>_recall``, ``<TYPE>_f1`` and ``<TYPE>_number`` (the gold count)
    for each entity type, as Hugging Face's ``run_ner.py`` flattens ``evaluate``'s seqeval (the Trainer adds
    ``eval_`` in front).
    """
    label_table(label_names, "label_names")
    if subwords not in SUBWORDS:
        raise OptionError(f"subwords must be one of {', '.join(SUBWORDS)}; got {subwords!r}")

    def metrics(prediction: Any) -> dict[str, float]:
        references, predictions = word_level_tags(prediction, label_names, subwords=subwords, word_ids=word_ids,
                                                  ignore_index=ignore_index)
        scores = seqeval.compute(predictions=predictions, references=references, suffix=suffix, scheme=scheme,
                                 mode=mode, zero_division=zero_division)
        out: dict[str, float] = {}
        for key, value in scores.items():
            if isinstance(value, dict):
                if entity_level:
                    out.update({f"{key}_{name}": v for name, v in value.items()})
            else:
                out[key] = float(value)
        return out

    return metrics
