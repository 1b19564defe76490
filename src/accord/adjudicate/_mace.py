"""MACE (Hovy, Berg-Kirkpatrick, Vaswani and Hovy 2013, "Learning Whom to Trust with MACE"): each annotator's
competence and the items' true classes.

The true class ``T_i`` of an item is uniform over the ``K`` classes. Annotator ``j`` knows the answer with
probability ``θ_j`` (its competence) and then gives ``T_i``; otherwise it spams, answering ``l`` with probability
``ξ_j[l]`` (its strategy). So the probability of its answer ``a`` given ``T_i = t`` is
``(1 - θ_j) ξ_j[a] + θ_j [a = t]``.

E-step: ``P(T_i = t, answers) = (1/K) Π_j ((1 - θ_j) ξ_j[a_ij] + θ_j [a_ij = t])``; the posterior that annotator
``j`` knew item ``i`` is ``P(T_i = a_ij | answers) θ_j / ((1 - θ_j) ξ_j[a_ij] + θ_j)`` and the rest of the answer
counts toward its strategy. The expected counts give the M-step:

* ``em``: the counts smoothed by ``0.01 / K`` and normalised (the paper's EM);
* ``vb`` (default, the paper's variational Bayes): with Beta(``alpha``, ``beta``) priors on spamming and knowing
  and a symmetric Dirichlet(``strategy_prior``) on ``ξ_j``, each parameter is
  ``exp(ψ(count + prior)) / exp(ψ(Σ counts + Σ priors))`` (ψ the digamma function).

The parameters start at ``θ_j = 0.5`` and a uniform ``ξ_j`` (so that the first E-step is a vote weighted
alike for every annotator; no random restarts are needed), and the steps alternate until no posterior moves by
more than ``tol`` in a round, or ``max_iter`` rounds.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Mace", "mace", "MACE_METHODS"]

MACE_METHODS = ("vb", "em")


class Mace(NamedTuple):
    """The fitted model.

    Attributes
    ----------
    posteriors : ndarray, shape (items, classes)
    competence : ndarray, shape (annotators,)
        ``θ_j``: the probability that annotator ``j`` knows (does not spam); under ``vb`` the parameter the E-step
        uses, ``exp(ψ(knowing + beta) - ψ(answers + alpha + beta))``.
    strategy : ndarray, shape (annotators, classes)
        ``ξ_j``: annotator ``j``'s answers when it spams.
    iterations : int
        EM rounds run.
    moved : float
        How far the posteriors moved in the last round (below ``tol`` when the rounds stopped by themselves).
    log_likelihood : float
        The last log marginal likelihood of the answers, per item.
    """

    posteriors: np.ndarray
    competence: np.ndarray
    strategy: np.ndarray
    iterations: int
    log_likelihood: float
    moved: float = 0.0


def _e_step(items: np.ndarray, annotators: np.ndarray, answers: np.ndarray, n_items: int, n_classes: int,
            know: np.ndarray, spam: np.ndarray, strategy: np.ndarray
            ) -> tuple[float, np.ndarray, np.ndarray, np.ndarray]:
    """The log likelihood per item, the posteriors, and the expected knowing and strategy counts."""
    spam_part = spam[annotators] * strategy[annotators, answers]                 # per answer
    # log P(T = t, answers of i) = -log K + Σ_answers log(spam_part + know [answer = t])
    log_joint = np.full((n_items, n_classes), -np.log(n_classes))
    np.add.at(log_joint, items, np.log(spam_part)[:, None])
    np.add.at(log_joint, (items, answers), np.log(spam_part + know[annotators]) - np.log(spam_part))
    top = log_joint.max(axis=1, keepdims=True)
    joint = np.exp(log_joint - top)
    total = joint.sum(axis=1, keepdims=True)
    post = joint / total
    log_likelihood = float(np.sum(np.log(total) + top)) / max(n_items, 1)
    knew = post[items, answers] * know[annotators] / (spam_part + know[annotators])
    n_annotators = len(know)
    knowing = np.zeros((n_annotators, 2))
    np.add.at(knowing[:, 0], annotators, 1.0 - knew)                # column 0: spamming, 1: knowing
    np.add.at(knowing[:, 1], annotators, knew)
    strategy_counts = np.zeros((n_annotators, n_classes))
    np.add.at(strategy_counts, (annotators, answers), 1.0 - knew)
    return log_likelihood, post, knowing, strategy_counts


def _normalise(counts: np.ndarray, method: str, prior: np.ndarray | float, smoothing: float) -> np.ndarray:
    if method == "em":
        x = counts + smoothing
        return np.asarray(x / x.sum(axis=1, keepdims=True), dtype=np.float64)
    from scipy.special import digamma

    x = counts + prior
    return np.asarray(np.exp(digamma(x) - digamma(x.sum(axis=1, keepdims=True))), dtype=np.float64)


def mace(codes: np.ndarray, n_classes: int, *, method: str = "vb", alpha: float = 0.5, beta: float = 0.5,
         strategy_prior: float = 10.0, tol: float = 1e-9, max_iter: int = 1000) -> Mace:
    """Fit MACE (see the module docstring) to an items-by-annotators table of class codes (``-1``: no answer).

    Parameters
    ----------
    method : {"vb", "em"}
    alpha, beta : float
        ``vb``: the Beta prior of spamming (``alpha``) and knowing (``beta``), 0.5 each as in the paper's tool.
    strategy_prior : float
        ``vb``: the symmetric Dirichlet prior of each strategy (10, as the paper's tool).
    tol, max_iter : float, int
        Stop when no posterior moves by more than ``tol`` in a round, or after ``max_iter`` rounds.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n_items, n_annotators = codes.shape
    items, annotators = np.nonzero(codes >= 0)
    answers = codes[items, annotators]
    smoothing = 0.01 / n_classes
    knowing = np.full((n_annotators, 2), 0.5)
    strategy = np.full((n_annotators, n_classes), 1.0 / n_classes)
    theta_prior = np.array([[alpha, beta]])
    ll, post, know_counts, strategy_counts = _e_step(items, annotators, answers, n_items, n_classes,
                                                     knowing[:, 1], knowing[:, 0], strategy)
    rounds, moved = 0, 0.0
    while rounds < max_iter:
        rounds += 1
        knowing = _normalise(know_counts, method, theta_prior, smoothing)
        strategy = _normalise(strategy_counts, method, strategy_prior, smoothing)
        new, new_post, know_counts, strategy_counts = _e_step(items, annotators, answers, n_items, n_classes,
                                                          knowing[:, 1], knowing[:, 0], strategy)
        moved = float(np.abs(new_post - post).max()) if post.size else 0.0
        ll, post = new, new_post
        if moved < tol:
            break
    return Mace(post, knowing[:, 1].copy(), strategy, rounds, ll, moved)
