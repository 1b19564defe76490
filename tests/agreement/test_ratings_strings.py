"""String (and other hashable) labels coded by one dict over the distinct values: the same table as a value-by-value
count, checked against scikit-learn's ``cohen_kappa_score`` and ``confusion_matrix`` on the items both raters rated."""

from __future__ import annotations

import math

import numpy as np
import pytest

from accord import agreement
from accord.agreement._ratings import MISSING, to_ratings
from accord.errors import RatingsError

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def labelled(n: int, seed: int, missing: float = 0.0) -> tuple[list, list]:
    rng = np.random.default_rng(seed)
    names = np.array(["PER", "LOC", "ORG", "MISC", "O"])
    a = names[rng.integers(0, 5, n)]
    b = a.copy()
    flip = rng.random(n) < 0.3
    b[flip] = names[rng.integers(0, 5, int(flip.sum()))]
    x, y = a.tolist(), b.tolist()
    blanks = [None, float("nan"), np.nan, np.float64("nan")]
    for k in np.flatnonzero(rng.random(n) < missing):
        (x if k % 2 else y)[k] = blanks[k % len(blanks)]
    return x, y


@pytest.mark.parametrize("form", ["lists", "arrays", "objects", "rows", "frame"])
def test_kappa_on_strings_with_missing_values_equals_scikit_learn(form):
    x, y = labelled(5_000, seed=3, missing=0.05)
    both = [k for k in range(len(x)) if isinstance(x[k], str) and isinstance(y[k], str)]
    expected = sklearn_metrics.cohen_kappa_score([x[k] for k in both], [y[k] for k in both])
    if form == "lists":
        table = {"a": x, "b": y}
    elif form == "arrays":
        x, y = [x[k] for k in both], [y[k] for k in both]
        table = {"a": np.array(x), "b": np.array(y)}      # numpy strings (dtype <U4): no missing value possible
    elif form == "objects":
        table = np.array([x, y], dtype=object).T
    elif form == "rows":
        table = list(zip(x, y))
    else:
        pd = pytest.importorskip("pandas")
        table = pd.DataFrame({"a": pd.array(x, dtype="string"), "b": y})   # pandas' NA in the first column
    assert agreement.cohen_kappa(table) == pytest.approx(expected, abs=1e-12)


def test_the_table_is_scikit_learns_confusion_matrix():
    x, y = labelled(2_000, seed=5, missing=0.1)
    ratings = to_ratings({"a": x, "b": y})
    assert ratings.categories == ("LOC", "MISC", "O", "ORG", "PER")     # sorted, missing values never a category
    codes = ratings.codes
    assert ((codes[:, 0] == MISSING) == [not isinstance(v, str) for v in x]).all()
    rated = (codes >= 0).all(axis=1)
    ours = np.zeros((5, 5), dtype=int)
    np.add.at(ours, (codes[rated, 0], codes[rated, 1]), 1)
    keep = [isinstance(p, str) and isinstance(q, str) for p, q in zip(x, y)]
    theirs = sklearn_metrics.confusion_matrix([p for p, k in zip(x, keep) if k], [q for q, k in zip(y, keep) if k],
                                              labels=list(ratings.categories))
    assert (ours == theirs).all()


def test_mixed_values_keep_their_order_and_equal_values_one_category():
    ratings = to_ratings([[1, "b"], [1.0, "a"], [True, None], [2, math.nan]])
    assert ratings.categories == (1, 2, "a", "b")                  # 1, 1.0 and True are one value, numbers first
    assert ratings.codes.tolist() == [[0, 3], [0, 2], [0, MISSING], [1, MISSING]]


def test_categories_given_and_unknown_ones_are_refused_by_name():
    ratings = to_ratings({"a": ["x", "y", None], "b": ["y", "y", "x"]}, categories=["y", "x", "z"])
    assert ratings.categories == ("y", "x", "z") and ratings.codes.tolist() == [[1, 0], [0, 0], [MISSING, 1]]
    with pytest.raises(RatingsError, match="rating 'w' is not one of the categories"):
        to_ratings({"a": ["x", "w"], "b": ["y", "y"]}, categories=["x", "y"])
    with pytest.raises(RatingsError, match="repeat a value"):
        to_ratings({"a": ["x"], "b": ["y"]}, categories=["x", "y", "x"])


def test_an_unhashable_rating_is_named():
    with pytest.raises(RatingsError, match=r"a rating must be a hashable value, got \['x'\]"):
        to_ratings({"a": ["x", ["x"]], "b": ["y", "y"]})
