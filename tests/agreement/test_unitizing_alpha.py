"""Krippendorff's unitizing alphas: the worked examples of Krippendorff (1995, 2004) with the values DKPro
Agreement's tests assert, and the 2016 family against hand counts and a position-by-position count."""

from __future__ import annotations

import numpy as np
import pytest

from accord.agreement._continua import continua_from_rows
from accord.agreement._unitizing_alpha import unitizing_alpha_tables
from accord.errors import RatingsError


def study(units, length, raters=2):
    rows = [(f"r{r}", "d", s, s + n, c) for s, n, r, c in units]
    return unitizing_alpha_tables(continua_from_rows(rows, annotators=[f"r{i}" for i in range(raters)],
                                                     lengths={"d": length}))


# Krippendorff (2004: 254), as DKPro Agreement's Krippendorff2004Test; its continuum [150, 450) moved to [0, 300)
K2004 = [(225, 70, 0, "c"), (370, 30, 0, "c"), (220, 80, 1, "c"), (355, 20, 1, "c"), (400, 20, 1, "c"),
         (180, 60, 0, "k"), (300, 50, 0, "k"), (180, 60, 1, "k"), (300, 50, 1, "k")]


def test_krippendorff_2004_worked_example():
    values = study([(s - 150, n, r, c) for s, n, r, c in K2004], 300).values()["u_alpha_1995"]
    assert values["observed_disagreement"]["c"] == pytest.approx(0.0144, abs=1e-4)
    assert values["expected_disagreement"]["c"] == pytest.approx(0.0532, abs=1e-4)
    assert values["by_category"]["c"] == pytest.approx(0.7286, abs=1e-4)
    assert values["observed_disagreement"]["k"] == pytest.approx(0.0, abs=1e-4)
    assert values["expected_disagreement"]["k"] == pytest.approx(0.0490, abs=1e-4)
    assert values["by_category"]["k"] == 1.0
    assert values["overall"] == pytest.approx(0.8591, abs=5e-4)
    # hand count of D_o(c): r0's [225,295) against r1's [220,300): 5² + 5²; r0's [370,400) against r1's [355,375):
    # 15² + 25²; r1's [400,420) inside r0's gap [400,450): 20²; times 2 / (m(m-1)L²) = 2 / (2 * 300²)
    assert values["observed_disagreement"]["c"] == pytest.approx((50 + 850 + 400) / 300 ** 2)


K1995 = [(2, 8, 0, "A"), (14, 6, 0, "A"), (4, 4, 1, "A"), (15, 2, 1, "A"),
         (0, 18, 0, "B"), (0, 2, 1, "B"), (2, 1, 1, "B"), (3, 1, 1, "B"), (4, 1, 1, "B"), (5, 1, 1, "B"),
         (6, 3, 1, "B"), (9, 1, 1, "B"),
         (2, 6, 0, "C"), (10, 2, 0, "C"), (14, 4, 0, "C"), (20, 2, 0, "C"), (0, 2, 1, "C"), (4, 4, 1, "C"),
         (10, 4, 1, "C"), (16, 2, 1, "C"), (20, 2, 1, "C"),
         (0, 2, 0, "D"), (2, 8, 0, "D"), (10, 4, 0, "D"), (14, 6, 0, "D"), (20, 4, 0, "D"), (0, 4, 1, "D"),
         (4, 4, 1, "D"), (8, 7, 1, "D"), (15, 2, 1, "D"), (17, 7, 1, "D")]


def krippendorff_1995(stretch: int):
    return study([(s * stretch, n * stretch, r, c) for s, n, r, c in K1995], 24 * stretch).values()["u_alpha_1995"]


def test_krippendorff_1995_examples():
    """Krippendorff (1995: 57), four pairs of observers (A-D, one category each here), as DKPro Agreement's
    Krippendorff1995Test: the observed disagreements exactly, the expected ones and alphas on the continuum
    stretched 50,000 times (Krippendorff's values assume a continuous scale; DKPro's tolerances)."""
    observed = krippendorff_1995(1)["observed_disagreement"]
    assert observed == pytest.approx({"A": 0.03125, "B": 2.26736, "C": 0.02777, "D": 0.38715}, abs=1e-5)
    values = krippendorff_1995(50_000)
    assert values["expected_disagreement"] == pytest.approx({"A": 0.06990, "B": 1.17731, "C": 0.08642, "D": 0.41445},
                                                            abs=5e-3)
    assert values["by_category"] == pytest.approx({"A": 0.553, "B": -0.926, "C": 0.679, "D": 0.066}, abs=0.02)


def test_dkpro_unitizing_agreement_test():
    values = study([(1, 8, 0, "A"), (2, 1, 1, "A"), (4, 1, 1, "A"), (6, 1, 1, "A")], 10).values()["u_alpha_1995"]
    assert values["observed_disagreement"]["A"] == pytest.approx(0.9100, abs=1e-4)
    assert values["expected_disagreement"]["A"] == pytest.approx(0.5351, abs=1e-4)
    assert values["by_category"]["A"] == pytest.approx(-0.7003, abs=1e-4)
    # one unit of one of three raters: D_o = D_e (= 1/600 by hand), alpha 0 (DKPro's convention)
    single = study([(0, 1, 0, "X")], 20, raters=3).values()["u_alpha_1995"]
    assert single["observed_disagreement"]["X"] == pytest.approx(1 / 600)
    assert single["expected_disagreement"]["X"] == pytest.approx(1 / 600)
    assert single["overall"] == 0.0


def test_2016_family_hand_count():
    """A: x at [0,4); B: x at [2,6); continuum 10. Coincidences (gap 0, x): l_00 = 8, l_0x = l_x0 = 4, l_xx = 4;
    w_x = 4² + 4² = 32, w_0 = 6 + (2 + 4) = 12; e_00 = 20 (144 - 12) / (400 - 44), e_xx = 20 (64 - 32) / 356;
    uα = 1 - 8 / (20 - e_00 - e_xx); one value of units, so |uα = uα and cuα is undefined."""
    values = study([(0, 4, 0, "x"), (2, 4, 1, "x")], 10).values()
    e00, exx = 20 * 132 / 356, 20 * 32 / 356
    assert values["u_alpha"] == pytest.approx(1 - 8 / (20 - e00 - exx))
    assert values["binary_u_alpha"] == pytest.approx(1 - 4 / (20 * 96 / 356))
    assert values["cu_alpha"] is None


def by_positions(units, length, raters):
    """The 2016 coincidences and weights counted position by position, from the definitions."""
    values = np.zeros((raters, length), dtype=int)
    cats = sorted({c for *_, c in units})
    for s, n, r, c in units:
        values[r, s:s + n] = cats.index(c) + 1
    k = len(cats) + 1
    o = np.zeros((k, k))
    for t in range(length):
        for i in range(raters):
            for j in range(raters):
                if i != j:
                    o[values[i, t], values[j, t]] += 1 / (raters - 1)
    w = np.zeros(k)
    x = np.zeros(k)
    for r in range(raters):
        w[0] += int((values[r] == 0).sum())          # a gap counts its length
    for s, n, r, c in units:
        w[cats.index(c) + 1] += n * n
        for other in range(raters):
            if other != r:
                x[cats.index(c) + 1] += int((values[other, s:s + n] != 0).sum()) ** 2
    return o, w, x


@pytest.mark.parametrize("seed", range(8))
def test_2016_statistics_equal_position_count(seed):
    rng = np.random.default_rng(seed)
    raters, length = int(rng.integers(2, 5)), 40
    units = []
    for r in range(raters):
        pos = 0
        while pos < length - 2:
            pos += int(rng.integers(0, 5))
            n = int(rng.integers(1, 7))
            if pos + n > length:
                break
            units.append((pos, n, r, str(rng.choice(["p", "q", "s"]))))
            pos += n
    tables = study(units, length, raters)
    o, w, x = by_positions(units, length, raters)
    cats = sorted({c for *_, c in units})
    index = [0] + [1 + tables.categories.index(c) for c in cats]
    assert tables.coincidences[np.ix_(index, index)] == pytest.approx(o)
    assert tables.weights[index] == pytest.approx(w)
    assert tables.intersection_squares[index] == pytest.approx(x)
    assert tables.coincidences.sum() == pytest.approx(raters * length)


def test_overlapping_units_of_one_category_are_refused():
    with pytest.raises(RatingsError, match="overlapping units of one category"):
        study([(0, 5, 0, "x"), (3, 5, 0, "x"), (0, 5, 1, "x")], 10)


def test_overlap_of_two_categories_leaves_out_the_2016_family():
    tables = study([(s - 150, n, r, c) for s, n, r, c in K2004], 300)
    assert "2016" in tables.not_2016
    assert tables.values()["u_alpha"] is None


def test_fractional_positions_are_refused():
    rows = [("a", "d", 0.5, 2.0, "x"), ("b", "d", 0.0, 2.0, "x")]
    with pytest.raises(RatingsError, match="integer positions"):
        unitizing_alpha_tables(continua_from_rows(rows))


def test_documents_add_up():
    """Per-document statistics add up to those of the corpus (documents end to end, a gap ends with its document)."""
    rows = [("a", "d1", 0, 4, "x"), ("b", "d1", 2, 6, "x"), ("a", "d2", 1, 4, "x"), ("b", "d2", 1, 4, "y")]
    units = continua_from_rows(rows, lengths={"d1": 10, "d2": 10})
    whole = unitizing_alpha_tables(units)
    parts = unitizing_alpha_tables(units.take_document(0)) + unitizing_alpha_tables(units.take_document(1))
    assert whole.length == parts.length == 20
    assert whole.coincidences == pytest.approx(parts.coincidences)
    w, p = whole.values(), parts.values()
    for key in ("u_alpha", "binary_u_alpha", "cu_alpha"):
        assert w[key] == pytest.approx(p[key])
    assert w["u_alpha_1995"]["by_category"] == pytest.approx(p["u_alpha_1995"]["by_category"])


# DKPro Agreement's UnitizingAgreementTest (dkpro/dkpro-statistics, commit f7f4f89136659c50f175ac8db7bfdfc3875b07db,
# dkpro-statistics-agreement/src/test/java/org/dkpro/statistics/agreement/unitizing/UnitizingAgreementTest.java):
# its studies as (offset, length, rater, category) with the values it asserts. Units of length 0 were refused here.
@pytest.mark.parametrize("units, observed, expected, alpha", [
    # testOnlyZeroLengthUnitsWithDifferingCategories: no mass to see; D_o = D_e = 0 and alpha 0, not 1
    ([(0, 0, 0, "A"), (0, 0, 1, "B")], 0.0, 0.0, 0.0),
    # testOnlyZeroLengthUnitsWithSameCategory
    ([(0, 0, 0, "A"), (0, 0, 1, "A")], 0.0, 0.0, 0.0),
    # testZeroLengthUnitsMixedWithPositiveLengthUnits: D_o 0, D_e > 0, alpha 1
    ([(0, 0, 0, "A"), (2, 5, 0, "A"), (2, 5, 1, "A")], 0.0, ">0", 1.0),
])
def test_dkpro_zero_length_units(units, observed, expected, alpha):
    values = study(units, 15).values()["u_alpha_1995"]
    d_o = float(np.mean(list(values["observed_disagreement"].values())))
    d_e = float(np.mean(list(values["expected_disagreement"].values())))
    assert d_o == pytest.approx(observed, abs=1e-3)
    assert d_e > 0 if expected == ">0" else d_e == pytest.approx(expected, abs=1e-3)
    assert values["overall"] == pytest.approx(alpha, abs=1e-3)


def test_dkpro_empty_study_has_no_alpha():
    """testEmptyAnnotationSet: three raters, no unit: NaN in DKPro, None here."""
    tables = unitizing_alpha_tables(continua_from_rows([], annotators=["r0", "r1", "r2"], documents=["d"],
                                                       lengths={"d": 20}))
    assert tables.values()["u_alpha_1995"]["overall"] is None


@pytest.mark.parametrize("one, two, distance", [
    # testDistanceMetric: measureDistance(offset1, length1, category1, offset2, length2, category2), a null category
    # being a gap; each case as two raters' partitions of [0, 10) holding those two segments
    ((1, 8, "A"), (2, 1, "A"), 37.0), ((1, 8, "A"), (4, 1, "A"), 25.0), ((1, 8, "A"), (6, 1, "A"), 29.0),
])
def test_dkpro_distance_of_two_units(one, two, distance):
    values = study([(one[0], one[1], 0, "A"), (two[0], two[1], 1, "A")], 10).values()["u_alpha_1995"]
    # the only non-zero term is the units' distance (neither unit lies inside the other's gap): D_o = 2 d / (2 L²)
    assert values["observed_disagreement"]["A"] == pytest.approx(distance / 100)


def test_a_unit_of_length_0_inside_another_annotators_unit_by_hand():
    """r0: a point of A at 3; r1: A at [1, 6); L = 10. By hand, with DKPro's definitions: the point differs from the
    unit by (3 - 1)² + (3 - 6)² = 13 and splits r0's gap in [0, 3) and [3, 10), in neither of which r1's unit lies:
    D_o = 2 * 13 / (2 * 1 * 10²) = 0.13. Expected: N_A = 2 (the point counts), lengths 0 and 5, gaps 3, 7, 1, 4: the
    unit of 5 adds (2 - 1)(2*125 - 3*25 + 5)/3 = 60 and 25 * (7 - 5 + 1) = 75, the point nothing; D_e = 135 * 2/10 /
    (2*10*(2*10 - 1) - 5*4) = 27 / 360 = 0.075; uα = 1 - 0.13 / 0.075."""
    values = study([(3, 0, 0, "A"), (1, 5, 1, "A")], 10).values()["u_alpha_1995"]
    assert values["observed_disagreement"]["A"] == pytest.approx(0.13)
    assert values["expected_disagreement"]["A"] == pytest.approx(0.075)
    assert values["overall"] == pytest.approx(1 - 0.13 / 0.075)
    # the 2016 family sees no mass in the point: as if it were not there
    without = study([(1, 5, 1, "A")], 10, raters=2).values()
    assert study([(3, 0, 0, "A"), (1, 5, 1, "A")], 10).values()["u_alpha"] == without["u_alpha"]


def test_units_of_length_0_are_refused_by_gamma_as_by_pygamma():
    from accord.agreement._gamma import gamma_tables

    rows = [("a", "d", 0.0, 4.0, "x"), ("b", "d", 3.0, 3.0, "x")]
    with pytest.raises(RatingsError, match=r"b has a unit of length 0 at \[3, 3\).*--unitizing alpha-u"):
        gamma_tables(continua_from_rows(rows))
    pa = pytest.importorskip("pygamma_agreement")
    from pyannote.core import Segment

    with pytest.raises(ValueError, match="duration 0"):
        pa.Continuum().add("b", Segment(3.0, 3.0), "x")
