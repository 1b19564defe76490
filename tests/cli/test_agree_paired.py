"""``accord agree --compare-pairs / --compare-round / --resample items``: the paired test on the command line, the
second round paired by item id, and the refusals."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from scipy import stats

from accord.cli import main


def _cohen(a, b):
    """Cohen's kappa as Cohen (1960) writes it."""
    cats = np.union1d(a, b)
    po = np.mean(a == b)
    pe = sum(np.mean(a == c) * np.mean(b == c) for c in cats)
    return (po - pe) / (1 - pe)


@pytest.fixture()
def tables(tmp_path):
    rng = np.random.default_rng(12)
    n = 70
    a = rng.choice(list("xyz"), n)
    b = np.where(rng.random(n) < 0.85, a, rng.choice(list("xyz"), n))
    c = np.where(rng.random(n) < 0.5, a, rng.choice(list("xyz"), n))
    b2 = np.where(rng.random(n) < 0.95, a, rng.choice(list("xyz"), n))
    first = tmp_path / "round1.csv"
    first.write_text("item,A,B,C\n" + "".join(f"i{k},{x},{y},{z}\n" for k, (x, y, z) in enumerate(zip(a, b, c))),
                     encoding="utf-8")
    order = rng.permutation(n)      # the second round lists the items in another order
    second = tmp_path / "round2.csv"
    second.write_text("item,A,B\n" + "".join(f"i{k},{a[k]},{b2[k]}\n" for k in order), encoding="utf-8")
    return {"first": first, "second": second, "a": a, "b": b, "c": c, "b2": b2, "n": n}


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_compare_pairs_on_the_command_line(tables, capsys):
    out = _json(capsys, ["agree", str(tables["first"]), "--items", "item", "--compare-pairs", "A:B,A:C",
                         "--bootstrap", "300", "--seed", "2", "--output", "json"])
    a, b, c, n = tables["a"], tables["b"], tables["c"], tables["n"]

    def delta(i):
        return _cohen(a[i], c[i]) - _cohen(a[i], b[i])
    res = stats.bootstrap((np.arange(n),), delta, vectorized=False, n_resamples=300, batch=1,
                          method="percentile", random_state=np.random.default_rng(2))
    comparison = out["comparison"]
    assert comparison["compare"] == "pairs" and comparison["items"] == n and comparison["resample"] == "items"
    (row,) = comparison["comparisons"]
    assert (row["coefficient"], row["first"], row["second"]) == ("cohen_kappa", "A~B", "A~C")
    assert row["difference"] == pytest.approx(delta(np.arange(n)), abs=1e-12)
    assert row["ci"] == pytest.approx([res.confidence_interval.low, res.confidence_interval.high], abs=1e-12)
    d = delta(np.arange(n))
    assert row["p_value"] == pytest.approx(
        (1 + np.count_nonzero(np.abs(res.bootstrap_distribution - d) >= abs(d))) / 301, abs=1e-12)
    assert out["options"]["resample"] == "items"


def test_compare_round_pairs_items_by_id(tables, capsys):
    """The second round lists the items in another order: they are paired by --items, not by row."""
    out = _json(capsys, ["agree", str(tables["first"]), "--items", "item", "--compare-round", str(tables["second"]),
                         "--coefficients", "cohen_kappa,scott_pi", "--bootstrap", "200", "--seed", "1",
                         "--output", "json"])
    rows = {r["coefficient"]: r for r in out["comparison"]["comparisons"]}
    a, b, c, b2 = tables["a"], tables["b"], tables["c"], tables["b2"]
    first_mean = np.mean([_cohen(a, b), _cohen(a, c), _cohen(b, c)])    # three raters: the mean over pairs
    assert rows["cohen_kappa"]["first_value"] == pytest.approx(first_mean, abs=1e-12)
    assert rows["cohen_kappa"]["second_value"] == pytest.approx(_cohen(a, b2), abs=1e-12)
    assert rows["cohen_kappa"]["second"] == str(tables["second"])
    assert {r["p_adjusted"] for r in rows.values()} <= {min(1.0, 2 * min(r["p_value"] for r in rows.values())),
                                                        max(r["p_value"] for r in rows.values())}


def test_table_and_csv_show_the_comparison(tables, capsys):
    assert main(["agree", str(tables["first"]), "--items", "item", "--compare-pairs", "A:B,A:C", "--bootstrap",
                 "100", "--seed", "3"]) == 0
    text = capsys.readouterr().out
    assert "A~C minus A~B: paired bootstrap over 70 items" in text and "p (Holm)" in text
    assert main(["agree", str(tables["first"]), "--items", "item", "--compare-pairs", "A:B,A:C", "--bootstrap",
                 "100", "--seed", "3", "--output", "csv"]) == 0
    rows = [r for r in csv.DictReader(capsys.readouterr().out.splitlines()) if r["raters"] == "A~C - A~B"]
    assert [r["scope"] for r in rows] == ["difference", "difference_low", "difference_high", "p_value", "p_adjusted"]


def test_resample_items_is_the_one_unit(tables, capsys):
    with pytest.raises(SystemExit):
        main(["agree", "-h"])
    assert "--resample {items}" in capsys.readouterr().out
    base = ["agree", str(tables["first"]), "--items", "item", "--bootstrap", "50", "--seed", "1", "--output", "json"]
    given, default = _json(capsys, base + ["--resample", "items"]), _json(capsys, base)
    assert given.pop("generator")["command"][-2:] == ["--resample", "items"]
    default.pop("generator")
    assert given == default
    with pytest.raises(SystemExit) as exit_:
        main(base + ["--resample", "documents"])
    assert exit_.value.code == 2 and "invalid choice: 'documents'" in capsys.readouterr().err


@pytest.mark.parametrize("extra, message", [
    (["--compare-pairs", "A:B,A:C"], "need --bootstrap N"),
    (["--compare-pairs", "A:B,A:D", "--bootstrap", "20"], "no rater 'D'"),
    (["--compare-pairs", "A:B,A:C", "--compare-round", "x.csv", "--bootstrap", "20"], "one paired test at a time"),
    (["--compare-pairs", "A:B,A:C", "--bootstrap", "20", "--coefficients", "kappa"], "unknown coefficient 'kappa'"),
    (["--compare-pairs", "A:B,A:C", "--bootstrap", "20", "--html", "x.html"], "--html does not show"),
])
def test_refusals(tables, capsys, extra, message):
    assert main(["agree", str(tables["first"]), "--items", "item", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_one_pair_is_a_usage_error(tables, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["agree", str(tables["first"]), "--items", "item", "--compare-pairs", "A:B", "--bootstrap", "20"])
    assert exit_.value.code == 2
    assert "expected two pairs of annotators such as A:B,A:C; got 'A:B'" in capsys.readouterr().err


def test_a_round_missing_an_item_is_named(tables, tmp_path, capsys):
    short = tmp_path / "short.csv"
    lines = tables["second"].read_text(encoding="utf-8").splitlines()
    short.write_text("\n".join(ln for ln in lines if not ln.startswith("i5,")) + "\n", encoding="utf-8")
    assert main(["agree", str(tables["first"]), "--items", "item", "--compare-round", str(short), "--bootstrap",
                 "20"]) == 2
    assert "no item 'i5' (rated in the first round)" in capsys.readouterr().err
    wide = tmp_path / "noid.csv"
    wide.write_text("A,B\nx,y\ny,y\nx,x\n", encoding="utf-8")
    assert main(["agree", str(wide), "--items", "", "--compare-round", str(wide), "--bootstrap", "20",
                 "--output", "json"]) == 0


def test_the_comparison_keeps_the_json_contract(tables, capsys):
    # found by the outside review: the contract had no place for the agreement comparison
    from tests.result.contract import checked

    for extra in (["--compare-pairs", "A:B,A:C"], ["--compare-round", str(tables["second"])]):
        assert main(["agree", str(tables["first"]), "--items", "item", *extra, "--bootstrap", "50", "--seed", "1",
                     "--output", "json"]) == 0
        out = checked(capsys.readouterr().out)
        assert out["comparison"]["compare"] in ("pairs", "rounds") and out["comparison"]["comparisons"]
