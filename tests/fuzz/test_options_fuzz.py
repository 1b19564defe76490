"""Fuzz: hostile values of every numeric and list option of compare, score, report, agree and benchmark (issue 33,
item 9).

NaN, infinities, negative, zero, huge, empty and non-numeric values, and random floats and integers, each given to
one option on small valid inputs. Every run ends in exit 0 or exit 2 with one line naming the problem (never 3, a
traceback or a hang: the harness checks it), and:

* exit 0 only for a meaningful value (stated here independently of accord's validators: ``--alpha 2`` marked every
  difference significant, ``--alpha nan`` none), and a meaningful value is taken (exit 0);
* no library warning (numpy's "invalid value encountered ...") reaches standard error as if it were accord's.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 200 if FULL else 25
"""Values per option (every option of every command is a case of its own)."""

FIXED = ["nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-0.5", "-1", "0", "0.0", "1", "1.0", "2", "1e400",
         "-1e400", "1e-400", "", " ", ",", ",,", "x", "1.5", "0.5", "0.05", "3", "1e12", "99999999999999999999",
         "0x10", "1_000", "2.5", "1e3", "-0", "+0.3", "0.999999", "1000001", "1000000", "1000"]
VALUES = st.one_of(st.sampled_from(FIXED), st.floats(allow_nan=True, allow_infinity=True).map(repr),
                   st.integers(-10**13, 10**13).map(str), st.text(max_size=6))

GOLD = ("-DOCSTART- O\n\nJohn B-PER\nlives O\nin O\nParis B-LOC\n\n-DOCSTART- O\n\nAnn B-PER\nsaw O\nBob B-PER\n\n"
        "-DOCSTART- O\n\nRome B-LOC\nfell O\n\n")


def _number(value: str) -> float:
    try:
        return float(value)
    except ValueError:
        return math.nan


def _whole(value: str) -> int | None:
    number = _number(value)
    if not math.isfinite(number) or number != int(number):
        return None
    return int(number)


def _fraction(value: str) -> bool:
    return 0 < _number(value) < 1


def _count(low: int, high: int, zero: bool = False):
    def ok(value: str) -> bool:
        n = _whole(value)
        return n is not None and (low <= n <= high or (zero and n == 0))
    return ok


def _seed(value: str) -> bool:
    n = _whole(value)
    return n is not None and n >= 0


def _weight(value: str) -> bool:
    return 0 <= _number(value) <= 1e6


def _beta(value: str) -> bool:
    return 0 <= _number(value) <= 1e6


def _rates(value: str) -> bool:
    names = [r.strip() for r in value.split(",") if r.strip()]
    return bool(names) and all(r in ("precision", "recall", "f1") for r in names)


# option -> what a meaningful value is (None: depends on the input, only exit 0 or 2 is checked)
MEANINGFUL = {
    "compare": {"--alpha": _fraction, "--samples": _count(1, 10**6), "--seed": _seed, "--rates": _rates,
                "--beta": _beta},
    "score": {"--bootstrap": _count(2, 10**6), "--seed": None, "--confidence": None, "--beta": _beta,
              "--tag-column": None, "--leniency": None},
    "report": {"--alpha": _fraction, "--samples": _count(1, 10**6), "--bootstrap": _count(2, 10**6, zero=True),
               "--confidence": _fraction, "--seed": _seed, "--rates": _rates},
    "agree": {"--bootstrap": _count(2, 10**6), "--seed": None, "--confidence": None},
    "gamma": {"--samples": None, "--gamma-alpha": _weight, "--gamma-beta": _weight,
              "--delta-empty": lambda v: 0 < _number(v) <= 1e6,
              "--precision": None, "--seed": _seed},
    "benchmark": {"--threshold": lambda v: 0 <= _number(v) <= 1, "--beta": _beta,
                  "--bootstrap": _count(2, 10**6), "--seed": None, "--confidence": None},
}
# options that need a companion to mean anything (their value is then checked as above)
COMPANION = {("score", "--seed"): ["--bootstrap", "20"], ("score", "--confidence"): ["--bootstrap", "20"],
             ("agree", "--seed"): ["--bootstrap", "20"], ("agree", "--confidence"): ["--bootstrap", "20"],
             ("benchmark", "--seed"): ["--bootstrap", "20"], ("benchmark", "--confidence"): ["--bootstrap", "20"]}
EXPENSIVE = {"--samples", "--bootstrap"}   # a meaningful value above this is cut to it: a fuzz run stays cheap
CHEAP_LIMIT = 2000


def _inputs(folder: Path) -> dict[str, list[str]]:
    (folder / "g.conll").write_text(GOLD, encoding="utf-8")
    (folder / "a.conll").write_text(GOLD.replace("Paris B-LOC", "Paris B-PER"), encoding="utf-8")
    (folder / "b.conll").write_text(GOLD.replace("Bob B-PER", "Bob O"), encoding="utf-8")
    (folder / "r.csv").write_text("item,a,b,c\n1,x,x,y\n2,y,y,y\n3,x,y,x\n4,z,z,z\n", encoding="utf-8")
    (folder / "u.csv").write_text("annotator,document,start,end,category\na,d,0,5,X\nb,d,1,5,X\na,d,7,9,Y\n"
                                  "b,d,7,10,X\nc,d,0,4,X\n", encoding="utf-8")
    for name, text in (("k", GOLD), ("bf", GOLD.replace("Rome B-LOC", "Rome O")), ("af", GOLD)):
        (folder / f"{name}.conll").write_text(text, encoding="utf-8")
    f = {k: str(folder / k) for k in ("g.conll", "a.conll", "b.conll", "r.csv", "u.csv", "k.conll", "bf.conll",
                                      "af.conll")}
    return {"compare": ["compare", f["g.conll"], f["a.conll"], f["b.conll"], "--samples", "200"],
            "score": ["score", f["g.conll"], f["a.conll"]],
            "report": ["report", f["g.conll"], f["a.conll"], f["b.conll"], "--samples", "100", "--bootstrap", "20",
                       "-o", str(folder / "r.html")],
            "agree": ["agree", f["r.csv"], "--items", "item"],
            "gamma": ["agree", f["u.csv"], "--unitizing", "gamma", "--samples", "10"],
            "benchmark": ["benchmark", f["k.conll"], f["bf.conll"], f["af.conll"]]}


def _cases() -> list[tuple[str, str]]:
    return [(c, o) for c, options in MEANINGFUL.items() for o in options]


@pytest.mark.parametrize("command, option", _cases())
@given(value=VALUES)
@settings(max_examples=EXAMPLES)
def test_hostile_option_values(command, option, value):
    rule = MEANINGFUL[command][option]
    if option in EXPENSIVE and rule is not None and rule(value) and _whole(value) and _whole(value) > CHEAP_LIMIT:
        value = str(CHEAP_LIMIT)
    with tempfile.TemporaryDirectory() as d:
        argv = _inputs(Path(d))[command] + COMPANION.get((command, option), []) + [f"{option}={value}", "-q",
                                                                                   "--output", "json"]
        if command == "report":
            argv.remove("--output")
            argv.remove("json")
        result = run(argv)
        assert "encountered" not in result.stderr and "RuntimeWarning" not in result.stderr, result.stderr
        if rule is not None:
            assert result.status == (0 if rule(value) else 2), (argv, result.stderr)
