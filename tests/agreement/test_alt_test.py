"""The alternative annotator test (Calderon, Reichart & Dror 2025): a hand-counted case, then random tables against
the procedure written item by item in the test with scipy's one-sample t-test and statsmodels' Benjamini-Yekutieli
correction. (The authors' implementation, a notebook in github.com/nitaytech/AltTest, gives the same winning rates
and advantage probabilities on their four datasets wax, framing, 10k_prompts and cebab_stars: checked when this was
written, not run here: their code and data are not packaged.)"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from accord import agreement as A
from accord.agreement._alt_test import benjamini_yekutieli
from accord.errors import AgreementWarning, OptionError, RatingsError, StatisticsError

HAND = {"h1": ["a", "a", "b", "a"], "h2": ["a", "b", "b", "b"], "h3": ["a", "a", "a", "b"],
        "f": ["a", "a", "b", "b"]}


def test_a_hand_counted_case():
    # leaving h1 out, the others (h2, h3) on items 1-4 are (a,a) (b,a) (b,a) (b,b): the accuracies of f and h1 are
    # (1,1) (.5,.5) (.5,.5) (1,0), so W^f = 1,1,1,1 and W^h = 1,1,1,0, d = W^h - W^f = 0,0,0,-1. Leaving h2 or h3
    # out gives d = 0,-1,0,0 and 0,0,-1,0 likewise: every annotator has mean(d) = -1/4, sd 1/2 over n = 4 items.
    res = A.alt_test(HAND, "f", epsilon=0.5, q=0.1, min_items=2)
    t = (-0.25 - 0.5) / (0.5 / math.sqrt(4))                # -3
    p = stats.t.cdf(t, df=3)
    for a in ("h1", "h2", "h3"):
        got = res.annotators[a]
        assert got["items"] == 4 and got["candidate_advantage"] == 1.0 and got["annotator_advantage"] == 0.75
        assert got["t"] == pytest.approx(-3.0) and got["p_value"] == pytest.approx(p)
        # Benjamini-Yekutieli with m = 3 equal p-values: m (1 + 1/2 + 1/3) p / 3 = 11/6 p ~ 0.0528
        assert got["p_adjusted"] == pytest.approx(11 / 6 * p)
        assert got["won"] is True                            # 0.0528 <= q = 0.1
    assert res.winning_rate == 1.0 and res.advantage_probability == 1.0 and res.passed
    strict = A.alt_test(HAND, "f", epsilon=0.5, q=0.05, min_items=2)     # 0.0528 > 0.05: no annotator beaten
    assert strict.winning_rate == 0.0 and not strict.passed


def _alignment(x, others, scoring):
    if scoring == "accuracy":
        return sum(x == o for o in others) / len(others)
    return -math.sqrt(sum((x - o) ** 2 for o in others) / len(others))


def _alt_test_by_items(table, candidate, epsilon, q, scoring, min_items):
    """The alt-test written item by item from the paper's definitions (dicts and loops)."""
    from statsmodels.stats.multitest import multipletests

    humans = [h for h in table if h != candidate]
    n = len(table[candidate])
    items = [i for i in range(n) if table[candidate][i] is not None
             and sum(table[h][i] is not None for h in humans) >= 2]
    rows = {}
    for h in humans:
        mine = [i for i in items if table[h][i] is not None]
        if len(mine) < min_items:
            continue
        wf, wh = [], []
        for i in mine:
            others = [table[o][i] for o in humans if o != h and table[o][i] is not None]

            sf, sh = (_alignment(x, others, scoring) for x in (table[candidate][i], table[h][i]))
            wf.append(1.0 if sf >= sh else 0.0)
            wh.append(1.0 if sh >= sf else 0.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            p = stats.ttest_1samp(np.array(wh) - np.array(wf), epsilon, alternative="less").pvalue
        rows[h] = {"p": float(p), "rho_f": float(np.mean(wf)), "rho_h": float(np.mean(wh)), "n": len(mine)}
    ps = np.array([r["p"] for r in rows.values()])
    finite = ~np.isnan(ps)
    reject, adjusted = np.zeros(len(ps), dtype=bool), np.full(len(ps), np.nan)
    if finite.any():
        reject[finite], adjusted[finite], _, _ = multipletests(ps[finite], alpha=q, method="fdr_by")
    for r, rej, adj in zip(rows.values(), reject, adjusted):
        r["won"], r["p_adjusted"] = bool(rej), float(adj)
    return rows


def _random_table(rng, n, m, k, missing, numeric):
    truth = rng.integers(0, k, n)
    table = {}
    for j in range(m + 1):
        noise = rng.random() * 0.6
        col = np.where(rng.random(n) < noise, rng.integers(0, k, n), truth)
        values = [int(v) if numeric else "abcdef"[v] for v in col]
        table["model" if j == m else f"h{j}"] = [None if rng.random() < missing else v for v in values]
    return table


@pytest.mark.parametrize("scoring", ["accuracy", "neg_rmse"])
@pytest.mark.parametrize("seed", range(5))
def test_equals_the_procedure_item_by_item(seed, scoring):
    rng = np.random.default_rng(seed)
    table = _random_table(rng, int(rng.integers(20, 80)), int(rng.integers(3, 7)), 4, 0.15, scoring == "neg_rmse")
    eps = float(rng.choice([0.1, 0.15, 0.2]))
    expected = _alt_test_by_items(table, "model", eps, 0.05, scoring, 10)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AgreementWarning)
        res = A.alt_test(table, "model", epsilon=eps, scoring=scoring, min_items=10)
    assert set(res.annotators) == set(expected)
    for h, e in expected.items():
        got = res.annotators[h]
        assert got["items"] == e["n"] and got["won"] == e["won"]
        assert got["p_value"] == pytest.approx(e["p"], nan_ok=True)
        assert got["p_adjusted"] == pytest.approx(e["p_adjusted"], nan_ok=True)
        assert got["candidate_advantage"] == pytest.approx(e["rho_f"])
    assert res.winning_rate == pytest.approx(sum(e["won"] for e in expected.values()) / len(expected))
    assert res.advantage_probability == pytest.approx(np.mean([e["rho_f"] for e in expected.values()]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=12), st.floats(0.01, 0.5))
def test_benjamini_yekutieli_equals_statsmodels(p_values, q):
    from statsmodels.stats.multitest import multipletests

    reject, adjusted = benjamini_yekutieli(p_values, q)
    expected_reject, expected_adjusted, _, _ = multipletests(p_values, alpha=q, method="fdr_by")
    assert adjusted == pytest.approx(expected_adjusted, abs=1e-12)
    # at the boundary p̃ = q the float products may fall either side; elsewhere the decisions agree
    close = np.isclose(expected_adjusted, q, rtol=1e-9, atol=0)
    assert (reject[~close] == expected_reject[~close]).all()


def test_annotators_with_few_items_are_left_out_with_a_warning():
    rng = np.random.default_rng(1)
    table = _random_table(rng, 40, 4, 3, 0.0, False)
    table["h0"] = table["h0"][:10] + [None] * 30
    with pytest.warns(AgreementWarning, match=r"fewer than 30 items: h0 \(10\)"):
        res = A.alt_test(table, "model")
    assert "h0" not in res.annotators and res.skipped == {"h0": 10}
    assert res.to_dict()["skipped"] == {"h0": 10}


def test_refusals():
    with pytest.raises(OptionError, match="--candidate robot: no such annotator"):
        A.alt_test(HAND, "robot")
    with pytest.raises(OptionError, match="at least two annotators besides the candidate"):
        A.alt_test({"h1": ["a", "b"], "f": ["a", "a"]}, "f")
    with pytest.raises(StatisticsError, match="no annotator with 30 or more items"), \
            pytest.warns(AgreementWarning, match="fewer than 30 items"):
        A.alt_test(HAND, "f")
    with pytest.raises(OptionError, match="scoring 'f1'"):
        A.alt_test(HAND, "f", scoring="f1")
    with pytest.raises(RatingsError, match="needs numeric ratings"):
        A.alt_test(HAND, "f", scoring="neg_rmse", min_items=2)
