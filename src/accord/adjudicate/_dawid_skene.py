"""Dawid and Skene's (1979) estimate of each annotator's confusion matrix and of the items' true classes, by EM.

Every annotator ``j`` has a confusion matrix ``π_j[k, l]``: the probability that it answers ``l`` when the true
class is ``k``; the classes have prior probabilities ``p_k``. With ``n[i, j, l]`` the number of times annotator
``j`` answered ``l`` on item ``i`` and ``T[i, k]`` the posterior probability that item ``i`` is of class ``k``:

* start: ``T`` is the share of each class among the answers of the item (majority vote, as in the paper);
* M-step: ``p_k`` is the mean of ``T[:, k]``; ``π_j[k, l] ∝ Σ_i T[i, k] n[i, j, l]`` (each row normalised; a
  count is floored at 1e-10 first so that no logarithm is minus infinity);
* E-step: ``log T[i, k] = log p_k + Σ_j Σ_l n[i, j, l] log π_j[k, l]`` up to the item's normalising constant.

The steps alternate until no posterior ``T[i, k]`` moves by more than ``tol`` in a round, or ``max_iter`` rounds;
the evidence lower bound per answer (the expected log-likelihood of the answers and classes under ``T`` plus the
entropy of ``T``), which every round raises, is reported.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["DawidSkene", "dawid_skene", "FLOOR"]

FLOOR = 1e-10
"""The least count (and prior) before normalising, so that every logarithm is finite."""


class DawidSkene(NamedTuple):
    """The fitted model.

    Attributes
    ----------
    posteriors : ndarray, shape (items, classes)
        ``T[i, k]``: the probability that item ``i`` is of class ``k``.
    priors : ndarray, shape (classes,)
    confusion : ndarray, shape (annotators, classes, classes)
        ``confusion[j, k, l]``: the probability that annotator ``j`` answers ``l`` when the class is ``k``.
    iterations : int
        EM rounds run.
    moved : float
        How far the posteriors moved in the last round (below ``tol`` when the rounds stopped by themselves).
    bound : float
        The last evidence lower bound per answer.
    """

    posteriors: np.ndarray
    priors: np.ndarray
    confusion: np.ndarray
    iterations: int
    bound: float
    moved: float = 0.0

    def accuracy(self) -> np.ndarray:
        """Each annotator's probability of answering the true class: ``Σ_k p_k π_j[k, k]``."""
        diag = np.diagonal(self.confusion, axis1=1, axis2=2)
        return np.asarray(diag @ self.priors, dtype=np.float64)


class _Answers(NamedTuple):
    """The answers as parallel arrays: item, annotator and class of each (``n[i, j, l]`` without its zeros)."""

    item: np.ndarray
    annotator: np.ndarray
    answer: np.ndarray
    n_items: int
    n_annotators: int
    n_classes: int


def _answers(codes: np.ndarray, n_classes: int) -> _Answers:
    i, j = np.nonzero(codes >= 0)
    return _Answers(i, j, codes[i, j], codes.shape[0], codes.shape[1], n_classes)


def _m_step(a: _Answers, post: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    priors = post.mean(axis=0)
    k = a.n_classes
    cell = a.annotator * k + a.answer        # (annotator, answered class)
    counts = np.stack([np.bincount(cell, weights=post[a.item, t], minlength=a.n_annotators * k)
                       for t in range(k)], axis=1).reshape(a.n_annotators, k, k)     # [j, l, true] -> [j, true, l]
    counts = np.maximum(counts.transpose(0, 2, 1), FLOOR)
    return priors, counts / counts.sum(axis=2, keepdims=True)


def _e_step(a: _Answers, priors: np.ndarray, confusion: np.ndarray) -> np.ndarray:
    log_confusion = np.log(confusion)
    log_post = np.log(np.maximum(priors, FLOOR))[None, :] + np.stack(
        [np.bincount(a.item, weights=log_confusion[a.annotator, t, a.answer], minlength=a.n_items)
         for t in range(a.n_classes)], axis=1)
    log_post -= log_post.max(axis=1, keepdims=True)
    post = np.exp(log_post)
    return np.asarray(post / post.sum(axis=1, keepdims=True), dtype=np.float64)


def _bound(a: _Answers, post: np.ndarray, priors: np.ndarray, confusion: np.ndarray) -> float:
    log_confusion = np.log(confusion)
    expected = float(np.sum(post[a.item] * log_confusion[a.annotator, :, a.answer])
                     + np.sum(post @ np.log(np.maximum(priors, FLOOR))))
    entropy = -float(np.sum(post * np.log(np.maximum(post, FLOOR))))
    return (expected + entropy) / max(len(a.item), 1)


def dawid_skene(codes: np.ndarray, n_classes: int, *, tol: float = 1e-9, max_iter: int = 1000) -> DawidSkene:
    """Fit the model (see the module docstring) to an items-by-annotators table of class codes.

    Parameters
    ----------
    codes : ndarray of int, shape (items, annotators)
        Class codes ``0 .. n_classes - 1``; ``-1`` where the annotator gave no answer. Every item needs one answer.
    n_classes : int
    tol : float
        Stop when no posterior moves by more than this in a round.
    max_iter : int
        Most EM rounds.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n = _answers(codes, n_classes)
    votes = np.zeros((n.n_items, n_classes))
    np.add.at(votes, (n.item, n.answer), 1.0)
    post = votes / np.maximum(votes.sum(axis=1, keepdims=True), 1.0)
    priors, confusion = _m_step(n, post)
    rounds, moved = 0, 0.0
    while rounds < max_iter:
        rounds += 1
        new = _e_step(n, priors, confusion)
        priors, confusion = _m_step(n, new)
        moved = float(np.abs(new - post).max()) if new.size else 0.0
        post = new
        if moved < tol:
            break
    return DawidSkene(post, priors, confusion, rounds, _bound(n, post, priors, confusion), moved)
