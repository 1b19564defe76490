"""One batch of a training loop as flat tag strings over sentences: tag lists, integer ids with ``label_names``, numpy
arrays and tensors (anything with ``.detach().cpu().numpy()``), positions whose gold id is the ignored index (``-100``,
Hugging Face's sub-words and padding) or the padding id left out of both sides."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from ..errors import FormatError, OptionError, PairingError
from ..objects._labels import check_label_names

__all__ = ["IGNORED_INDEX", "Batch", "batch_tags", "as_array", "label_table"]

IGNORED_INDEX = -100
"""The label Hugging Face's token-classification recipes give to the positions the loss ignores."""


@dataclass(frozen=True)
class Batch:
    """The kept tags of one batch: ``gold[offsets[s]:offsets[s + 1]]`` is sentence ``s`` (the same for ``pred``)."""

    gold: list[str]
    pred: list[str]
    offsets: np.ndarray

    @property
    def n_sentences(self) -> int:
        return len(self.offsets) - 1


def as_array(x: Any) -> Any:
    """A tensor (torch, or anything with ``detach``, ``cpu`` and ``numpy``) as a numpy array; anything else as it is."""
    if hasattr(x, "detach") and hasattr(x, "cpu"):
        return np.asarray(x.detach().cpu().numpy())
    return x


def label_table(label_names: Any, where: str) -> np.ndarray | None:
    """The names of the tag ids as an object array (``None`` without ``label_names``)."""
    if label_names is None:
        return None
    return np.asarray(check_label_names(label_names, where), dtype=object)


def _is_int_dtype(a: np.ndarray) -> bool:
    return a.dtype.kind in "iu"


def _rows(x: Any, side: str, where: str) -> tuple[np.ndarray | None, list[Any] | None]:
    """A side as a rectangular array ``(batch, positions)`` or as a list of sentences (lists of tags)."""
    x = as_array(x)
    if isinstance(x, np.ndarray):
        if x.ndim == 3 and side == "pred" and x.dtype.kind in "fiu":     # logits: (batch, position, label)
            return np.argmax(x, axis=-1), None
        if x.ndim == 2 and (_is_int_dtype(x) or x.dtype.kind in "UO"):
            return x, None
        if x.ndim == 1 and x.dtype.kind == "O":      # a ragged batch: an array of sentences
            return None, [as_array(s) for s in x.tolist()]
        shape = "x".join(map(str, x.shape))
        raise FormatError(f"{where}: the {side} side is an array of shape {shape} and type {x.dtype}: give tag ids or "
                          "strings as (sentences, positions)" + (", or logits as (sentences, positions, labels)"
                                                                 if side == "pred" else ""))
    if isinstance(x, (str, bytes)) or not isinstance(x, Sequence):
        raise FormatError(f"{where}: the {side} side is a {type(x).__name__}: give a list of sentences (lists of "
                          "tags), a 2-d array or tensor of tag ids")
    return None, [as_array(s) for s in x]


def _sentence(s: Any, side: str, where: str, k: int) -> list[Any]:
    if type(s) is list:
        return s
    if isinstance(s, np.ndarray):
        if s.ndim != 1:
            raise FormatError(f"{where}: sentence {k + 1} of the {side} side has {s.ndim} dimensions; a sentence is "
                              "one row of tags")
        return s.tolist()
    if isinstance(s, (str, bytes)) or not isinstance(s, Sequence):
        raise FormatError(f"{where}: sentence {k + 1} of the {side} side is a {type(s).__name__}, not a list of tags")
    return list(s)


def _mixed(flat: Sequence[Any], side: str, where: str) -> FormatError:
    odd = [t for t in flat if not isinstance(t, (str, int, np.integer)) or isinstance(t, (bool, np.bool_))]
    bad = odd[0] if odd else flat[0]
    return FormatError(f"{where}: the {side} side holds {bad!r} ({type(bad).__name__}): tags are all strings, or all "
                       "integer ids with label_names")


def _flat(rows: np.ndarray | None, sentences: list[Any] | None, side: str, where: str
          ) -> tuple[list[str] | np.ndarray, np.ndarray]:
    """Every tag of a side (a list of strings, or an array of ids or strings), and the length of each sentence."""
    if rows is not None:
        return rows.reshape(-1), np.full(rows.shape[0], rows.shape[1], dtype=np.int64)
    assert sentences is not None
    lists = [_sentence(s, side, where, k) for k, s in enumerate(sentences)]
    lengths = np.fromiter(map(len, lists), dtype=np.int64, count=len(lists))
    flat = list(chain.from_iterable(lists))
    kinds = set(map(type, flat))
    if kinds <= {str} or all(issubclass(k, str) for k in kinds):
        return flat, lengths
    if all(issubclass(k, (int, np.integer)) and not issubclass(k, (bool, np.bool_)) for k in kinds):
        return np.asarray(flat, dtype=np.int64), lengths
    raise _mixed(flat, side, where)


def _place(lengths: np.ndarray, i: int) -> str:
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    s = int(np.searchsorted(offsets, i, side="right")) - 1
    return f"sentence {s + 1}, position {i - int(offsets[s]) + 1}"


def _named(flat: list[str] | np.ndarray, names: np.ndarray | None, lengths: np.ndarray, side: str,
           where: str) -> list[str]:
    if isinstance(flat, list):
        return flat
    if flat.dtype.kind not in "iu":
        tags = flat.tolist()
        if flat.dtype.kind == "O" and not all(isinstance(t, str) for t in tags):
            raise _mixed(tags, side, where)
        return tags
    if names is None:
        raise OptionError(f"{where}: the tags are integer ids; give label_names=[...] (the name of each id, "
                          "e.g. a ClassLabel's names)")
    outside = (flat < 0) | (flat >= len(names))
    if outside.any():
        i = int(np.argmax(outside))
        raise FormatError(f"{where}: {side} tag id {int(flat[i])} has no name among the {len(names)} label_names "
                          f"({_place(lengths, i)})")
    return names[flat].tolist()


def batch_tags(gold: Any, pred: Any, *, names: np.ndarray | None, ignore_index: Any = IGNORED_INDEX,
               pad: Any = None, where: str = "update") -> Batch:
    """The kept tags of a batch (see the module): gold and predicted sentences of equal lengths, positions whose gold
    tag is ``ignore_index`` or ``pad`` dropped from both sides.

    Raises
    ------
    FormatError
        A side that is not sentences of tags, a tag id without a name, tags of mixed types.
    PairingError
        Sides of different shapes, or a sentence whose two sides differ in length.
    """
    g_rows, g_sents = _rows(gold, "gold", where)
    p_rows, p_sents = _rows(pred, "pred", where)
    if (g_rows is None) != (p_rows is None):     # one side an array, the other a list: both as lists of rows
        if g_rows is not None:
            g_sents, g_rows = list(g_rows), None
        if p_rows is not None:
            p_sents, p_rows = list(p_rows), None
    if g_rows is not None and p_rows is not None and g_rows.shape != p_rows.shape:
        raise PairingError(f"{where}: gold has shape {'x'.join(map(str, g_rows.shape))} and pred "
                           f"{'x'.join(map(str, p_rows.shape))} (sentences x positions); both sides must tag the same "
                           "positions")
    if g_sents is not None and p_sents is not None and len(g_sents) != len(p_sents):
        raise PairingError(f"{where}: {len(g_sents)} gold sentences and {len(p_sents)} predicted sentences")
    g_flat, g_len = _flat(g_rows, g_sents, "gold", where)
    p_flat, p_len = _flat(p_rows, p_sents, "pred", where)
    if not np.array_equal(g_len, p_len):
        k = int(np.argmax(g_len != p_len))
        raise PairingError(f"{where}: sentence {k + 1} has {int(g_len[k])} gold tags and {int(p_len[k])} predicted "
                           "tags; both sides must tag the same tokens")
    strings = isinstance(g_flat, list) or g_flat.dtype.kind in "OU"
    masks: list[Any]
    if strings:      # a mask value of the tags' kind: an id masks ids, a string masks strings
        masks = [v for v in (ignore_index, pad) if isinstance(v, str)]
    else:
        masks = [v for v in (ignore_index, pad) if isinstance(v, (int, np.integer)) and not isinstance(v, bool)]
    if masks:
        g_arr = np.asarray(g_flat, dtype=object) if isinstance(g_flat, list) else g_flat
        drop = np.zeros(len(g_arr), dtype=bool)
        for value in masks:
            drop |= g_arr == value
        if drop.any():
            keep = ~drop
            sentence = np.repeat(np.arange(len(g_len)), g_len)
            g_len = np.bincount(sentence[keep], minlength=len(g_len)).astype(np.int64)
            p_arr = np.asarray(p_flat, dtype=object) if isinstance(p_flat, list) else p_flat
            g_flat, p_flat = g_arr[keep], p_arr[keep]
    offsets = np.zeros(len(g_len) + 1, dtype=np.int64)
    np.cumsum(g_len, out=offsets[1:])
    return Batch(_named(g_flat, names, g_len, "gold", where), _named(p_flat, names, g_len, "pred", where), offsets)
