"""The fine-grained AMR scores (``accord smatch --fine-grained``) against the published amr-evaluation scripts of
Damonte et al. (mdtux89/amr-evaluation at 8bc6b2e, Python 3).

Their numbers are held here from runs made for this test (the scripts are another project's code: not copied here):

* the printed lines: ``./evaluation.sh PRED GOLD`` in a checkout (two decimals of fractions);
* the exact counts (match, gold, pred): ``RESTARTS=60 python tests/structured/_amr_evaluation_counts.py PRED GOLD``
  in the checkout (the same steps as ``evaluation.sh``, their ``compute_f`` wrapped to keep its arguments). Their
  smatch climbs hills from a few random starts and varies from run to run below the optimum (Unlabeled on JAMR: 695
  or 696 at five starts where 700 is best; SRL, whose five starts the script fixes: 361 or 362): the counts held are
  the highest its runs gave, which accord's exact optimum equals.

With ``ACCORD_AMR_EVALUATION=/path/to/amr-evaluation`` the tests also run the scripts themselves: ``evaluation.sh``'s
printed lines, and the exact counts on these files and on 60 generated pairs (odd roles, inverse references,
repeated edges, constants with colons), where the set aspects are equal and the hill-climbed ones never above
accord's.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

import accord
from accord.structured._amr_fine import ASPECT_NAMES, ASPECTS, fine_grained, fine_grained_corpus
from accord.structured._amr_result import FINE_MEASURES
from accord.structured.amr import read_amr

ROOT = Path(__file__).resolve().parents[2] / ".."
OUTSIDE = ROOT / "shared" / "corpora" / "outside" / "smatch"
FINE = ROOT / "shared" / "corpora" / "official" / "amr_fine"

DATA = {"jamr": (OUTSIDE / "jamr.txt", OUTSIDE / "lp_test.txt"),
        "camr": (OUTSIDE / "wang.txt", OUTSIDE / "lp_test.txt"),
        "fine": (FINE / "pred.amr", FINE / "gold.amr")}

HELD_COUNTS = {   # (match, gold, pred) per aspect, in ASPECTS' order
    "jamr": [(623, 1296, 1040), (700, 1296, 1042), (637, 1296, 1040), (390, 598, 519), (0, 1, 3), (1, 29, 2),
             (0, 1, 0), (84, 360, 237), (362, 803, 551)],
    "camr": [(596, 1296, 1033), (723, 1296, 1033), (630, 1296, 1033), (347, 598, 508), (0, 1, 3), (1, 29, 3),
             (0, 1, 0), (35, 360, 76), (325, 803, 572)],
    "fine": [(3102, 3623, 3506), (3225, 3623, 3506), (3144, 3623, 3506), (1339, 1568, 1559), (49, 64, 59),
             (78, 102, 94), (62, 64, 62), (936, 1219, 1040), (1758, 2108, 1926)],
}

HELD_PRINTED = {  # ./evaluation.sh PRED GOLD: P, R, F per aspect, in ASPECTS' order
    "jamr": ["0.60 0.48 0.53", "0.67 0.54 0.60", "0.61 0.49 0.55", "0.75 0.65 0.70", "0.00 0.00 0.00",
             "0.50 0.03 0.06", "0.00 0.00 0.00", "0.35 0.23 0.28", "0.66 0.45 0.53"],
    "camr": ["0.58 0.46 0.51", "0.70 0.56 0.62", "0.61 0.49 0.54", "0.68 0.58 0.63", "0.00 0.00 0.00",
             "0.33 0.03 0.06", "0.00 0.00 0.00", "0.46 0.10 0.16", "0.57 0.40 0.47"],
    "fine": ["0.88 0.86 0.87", "0.92 0.89 0.90", "0.90 0.87 0.88", "0.86 0.85 0.86", "0.83 0.77 0.80",
             "0.83 0.76 0.80", "1.00 0.97 0.98", "0.90 0.77 0.83", "0.91 0.83 0.87"],
}


def _files(name: str) -> tuple[Path, Path]:
    pred, gold = DATA[name]
    if not (pred.exists() and gold.exists()):
        pytest.skip(f"{pred} or {gold} is absent")
    return pred, gold


def _printed(m: int, g: int, p: int) -> str:
    """P, R, F as the scripts print them (zero when a side is empty)."""
    pr = m / p if p else 0.0
    rc = m / g if g else 0.0
    f = 2 * pr * rc / (pr + rc) if pr + rc > 0 else 0.0
    return f"{pr:.2f} {rc:.2f} {f:.2f}"


# -- hand counts -------------------------------------------------------------------------------------------------

def test_unlabeled_keeps_the_written_direction():
    # test: x, y, top(a, x), arg0(b, a) turned round; gold: y, x, top(b, y), arg0(b, a): 3 of 4 match
    c = fine_grained("(a / x :ARG0-of (b / y))", "(b / y :ARG0 (a / x))").counts
    assert c["smatch"] == (3, 4, 4)
    # the scripts' sed makes :ARG0-of :label before the parser sees it: label(a, b) against label(b, a)
    assert c["unlabeled"] == (2, 4, 4)


def test_no_wsd_and_the_top_concept():
    c = fine_grained("(w / want-02)", "(w / want-01)").counts
    assert c["smatch"] == (0, 2, 2)            # the top triple holds the root's concept in this smatch
    assert c["no_wsd"] == (2, 2, 2)
    assert c["concepts"] == (0, 1, 1)


def test_sets_by_hand():
    gold = '(p / person :wiki "Obama" :name (n / name :op1 "Obama") :polarity -)'
    test = '(p / person :wiki - :name (n / name :op1 "Obama"))'
    c = fine_grained(test, gold).counts
    assert c["named_entities"] == (1, 1, 1)     # the concept of the node with :name: person on both sides
    assert c["negations"] == (0, 1, 0)
    assert c["wikification"] == (0, 1, 1)
    assert c["concepts"] == (2, 2, 2)
    # concepts are a multiset: two dogs against one
    assert fine_grained("(a / dog :ARG0 (b / dog))", "(a / dog)").counts["concepts"] == (1, 1, 2)


def test_reentrancies_by_hand():
    gold = "(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 b))"
    # b has two parents: want, boy, go, ARG0(w, b), ARG0(g, b), top(w, want-01) = 6 triples; the test has none
    assert fine_grained("(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-01 :ARG0 (b2 / boy)))",
                        gold).counts["reentrancies"] == (0, 6, 0)
    assert fine_grained(gold, gold).counts["reentrancies"] == (6, 6, 6)


def test_the_scripts_parser_keeps_an_inverse_reference_before_another_role():
    # their parser turns ':ARG0-of b' round only when ')' follows it: the two spellings differ by one triple
    c = fine_grained("(a / x :ARG1 (b / y) :ARG0-of b :mod (c / z))",
                     "(a / x :ARG1 (b / y) :mod (c / z) :ARG0-of b)").counts
    assert c["smatch"] == (6, 7, 7)
    s = accord.structured.smatch("(a / x :ARG1 (b / y) :ARG0-of b :mod (c / z))",
                                 "(a / x :ARG1 (b / y) :mod (c / z) :ARG0-of b)")
    assert (s.match, s.test_triples, s.gold_triples) == (7, 7, 7)   # accord's own Smatch reads one edge


# -- the scripts' numbers ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["jamr", "camr", "fine"])
def test_counts_equal_amr_evaluation(name):
    pred, gold = _files(name)
    s = fine_grained_corpus(read_amr(pred), read_amr(gold))
    assert [s.counts[a] for a in ASPECTS] == HELD_COUNTS[name]
    assert [_printed(*s.counts[a]) for a in ASPECTS] == HELD_PRINTED[name]


def test_each_aspect_is_a_measure_with_intervals():
    pred, gold = _files("jamr")
    r = accord.smatch(gold, pred, fine_grained=True)
    assert list(r.measures) == ["smatch", *FINE_MEASURES.values()]
    for aspect, (m, g, p) in zip(ASPECTS, HELD_COUNTS["jamr"]):
        t = r.measures[FINE_MEASURES[aspect]].totals()
        assert (t["match"], t["gold"], t["pred"]) == (m, g, p)
    assert r.measures["smatch"].totals()["match"] == 645        # accord's Smatch stays smatch 1.0.4's triples
    r.bootstrap(50, seed=3)
    d = r.to_dict()
    for name in FINE_MEASURES.values():
        lo, hi = d["measures"][name]["totals"]["ci"]["f1"]
        assert lo <= d["measures"][name]["totals"]["f1"] <= hi


def test_cli_fine_grained_json(tmp_path):
    pred, gold = _files("camr")
    from accord.cli import main

    from ..result.contract import checked

    out = tmp_path / "fine.json"
    assert main(["smatch", str(gold), str(pred), "--fine-grained", "--output", "json", "-o", str(out)]) == 0
    d = checked(out.read_text())
    assert d["options"]["fine_grained"] is True
    srl = d["measures"]["srl"]["totals"]
    assert (srl["match"], srl["gold"], srl["pred"]) == HELD_COUNTS["camr"][-1]


_PEER = pytest.mark.skipif(not os.environ.get("ACCORD_AMR_EVALUATION"),
                           reason="ACCORD_AMR_EVALUATION (a checkout of mdtux89/amr-evaluation) is not set")
_CLIMBED = ("smatch", "unlabeled", "no_wsd", "reentrancies", "srl")


def _checkout(tmp_path: Path) -> Path:
    if shutil.which("perl") is None:
        pytest.skip("perl is absent")
    work = tmp_path / "amr-evaluation"
    shutil.copytree(os.environ["ACCORD_AMR_EVALUATION"], work)
    return work


def _peer_counts(work: Path, pred: Path, gold: Path) -> dict:
    import ast
    import sys

    script = Path(__file__).with_name("_amr_evaluation_counts.py")
    out = subprocess.run([sys.executable, str(script), str(pred), str(gold)], cwd=work, capture_output=True,
                         text=True, timeout=900, check=True, env={**os.environ, "RESTARTS": "60"}).stdout
    return ast.literal_eval(out.strip().splitlines()[-1])


@_PEER
@pytest.mark.parametrize("name", ["jamr", "camr", "fine"])
def test_runs_amr_evaluation(name, tmp_path):
    pred, gold = _files(name)
    work = _checkout(tmp_path)
    out = subprocess.run(["bash", "evaluation.sh", str(pred), str(gold)], cwd=work, capture_output=True,
                         text=True, timeout=600, check=True).stdout
    s = fine_grained_corpus(read_amr(pred), read_amr(gold))
    for aspect in ASPECTS:
        label = {"no_wsd": "No WSD -> ->"}.get(aspect, ASPECT_NAMES[aspect] + " ->")
        (line,) = [x for x in out.splitlines() if x.startswith(label)]
        printed = " ".join(x.strip(",") for x in line.replace(" ,", ",").split() if x[:1].isdigit())
        ours = _printed(*s.counts[aspect])
        if aspect in _CLIMBED:   # five random starts: at or below the optimum, a digit lower in some runs
            assert all(float(o) >= float(t) for o, t in zip(ours.split(), printed.split())), aspect
        else:
            assert printed == ours, aspect
    theirs = _peer_counts(work, pred, gold)
    for aspect in ASPECTS:
        m, g, p = theirs[aspect]
        ours = s.counts[aspect]
        assert ours[1:] == (g, p), aspect
        assert ours[0] == m if aspect not in _CLIMBED else ours[0] >= m, aspect


@_PEER
def test_generated_pairs_against_amr_evaluation(tmp_path):
    import random

    rng = random.Random(1)
    concepts = ["want-01", "Boy", "go-02", "name", "have-03", "city", "person"]
    roles = [":ARG0", ":ARG1", ":ARG0-of", ":ARG1-of", ":domain", ":mod", ":name", ":wiki", ":polarity", ":op1",
             ":mod-of", ":consist-of"]
    constants = ['"Obama"', "-", "5", '"x:y"', "Paris", '"Boy"']

    def graph(prefix: str) -> str:
        n = rng.randint(1, 7)
        branches: dict[int, list] = {i: [] for i in range(n)}
        for i in range(1, n):
            branches[rng.randrange(i)].append((rng.choice(roles), i))
        for i in range(n):
            for _ in range(rng.randint(0, 2)):
                target = rng.choice(constants) if rng.random() < 0.5 else f"{prefix}{rng.randrange(n)}"
                branches[i].append((rng.choice(roles), target))
        names = [rng.choice(concepts) for _ in range(n)]

        def render(i: int) -> str:
            return " ".join([f"({prefix}{i} / {names[i]}"] + [f"{r} {render(t) if isinstance(t, int) else t}"
                                                              for r, t in branches[i]]) + ")"
        return render(0)

    pred, gold = tmp_path / "pred.amr", tmp_path / "gold.amr"
    pairs = [(graph("v"), graph("w")) for _ in range(60)]
    pred.write_text("".join(f"# ::id {k}\n{t}\n\n" for k, (t, _) in enumerate(pairs)), encoding="utf-8")
    gold.write_text("".join(f"# ::id {k}\n{g}\n\n" for k, (_, g) in enumerate(pairs)), encoding="utf-8")
    theirs = _peer_counts(_checkout(tmp_path), pred, gold)
    s = fine_grained_corpus(read_amr(pred), read_amr(gold))
    for aspect in ASPECTS:
        m, g, p = theirs[aspect]
        assert s.counts[aspect][1:] == (g, p), aspect
        assert s.counts[aspect][0] == m if aspect not in _CLIMBED else s.counts[aspect][0] >= m, aspect
