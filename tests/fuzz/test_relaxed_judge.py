"""Relaxed matching and the judge of generated strings (``--align none --relaxed``, ``--judge``) on generated
documents of few tokens (so strings repeat and overlap): the relaxed pairing is the best of all one-to-one pairings
found by brute force, with similarities written again here; relaxed matches are never fewer than strict ones; and
the command line ends every string, threshold and cache file, well formed or not, in a result or a one-line error."""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import tempfile
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=400 if FULL else 50)
_RUNS = settings(max_examples=300 if FULL else 40)

TOKENS = ("a", "b", "c", "ab")
LABELS = "XY"


def _f1(g: str, p: str) -> float:
    """Token F1 again: the common tokens by multiset intersection, F1 = 2 common / (|g| + |p|)."""
    gt, pt = g.split(), p.split()
    if not gt or not pt:
        return 1.0 if gt == pt else 0.0
    common = sum(min(gt.count(t), pt.count(t)) for t in set(gt))
    return 2 * common / (len(gt) + len(pt))


def _contained(g: str, p: str) -> float:
    gc, pc = Counter(g.split()), Counter(p.split())
    if not gc or not pc:
        return 0.0
    inside = all(pc[t] >= n for t, n in gc.items()) or all(gc[t] >= n for t, n in pc.items())
    return 1.0 if inside else 0.0


def _ratio(g: str, p: str) -> float:
    """2 LCS / (|g| + |p|): the normalised Indel similarity, by dynamic programming."""
    if not g and not p:
        return 1.0
    row = [0] * (len(p) + 1)
    for x in g:
        prev = 0
        for j, y in enumerate(p, 1):
            prev, row[j] = row[j], prev + 1 if x == y else max(row[j], row[j - 1])
    return 2 * row[-1] / (len(g) + len(p))


OWN = {"token-f1": _f1, "containment": _contained, "ratio": _ratio}


def _best(gold: list[str], pred: list[str], sim, threshold: float) -> tuple[float, set[int]]:
    """The largest total similarity of one-to-one pairings among allowed pairs (>= threshold, > 0), and the numbers
    of pairs of the pairings that reach it: every injection of the smaller side into the larger, every subset."""
    small, large, flip = (gold, pred, False) if len(gold) <= len(pred) else (pred, gold, True)
    best, counts = 0.0, {0}
    for chosen in itertools.permutations(range(len(large)), len(small)):
        weights = []
        for i, j in enumerate(chosen):
            s = sim(large[j], small[i]) if flip else sim(small[i], large[j])
            weights.append(s if s >= threshold and s > 0 else 0.0)
        total = sum(weights)
        n = sum(1 for w in weights if w > 0)
        if total > best + 1e-9:
            best, counts = total, {n}
        elif abs(total - best) <= 1e-9:
            counts.add(n)
    return best, counts


def _phrase(draw) -> str:
    return " ".join(draw(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=3)))


@st.composite
def document(draw):
    gold = [(_phrase(draw), draw(st.sampled_from(LABELS))) for _ in range(draw(st.integers(0, 4)))]
    pred = [(_phrase(draw), draw(st.sampled_from(LABELS))) for _ in range(draw(st.integers(0, 4)))]
    return gold, pred


def _corpora(docs):
    golds, preds = [], []
    for k, (gold, pred) in enumerate(docs):
        text, spans = "", []
        for s, lab in gold:
            spans.append(make_annotation(lab, len(text), len(text) + len(s)))
            text += s + " ; "
        golds.append(Document(str(k), tuple(spans), text))
        preds.append({"id": str(k), "entities": [{"text": s, "label": lab} for s, lab in pred]})
    return Corpus(golds), records_corpus(preds)


@_EXAMPLES
@given(st.lists(document(), min_size=1, max_size=3), st.sampled_from(sorted(OWN)),
       st.sampled_from((0.2, 1 / 3, 0.5, 0.6, 0.8, 1.0)))
def test_relaxed_pairing_is_the_brute_force_optimum(docs, similarity, threshold):
    gold_c, pred_c = _corpora(docs)
    result = accord.score(gold_c, pred_c, align="none", relaxed=similarity, relaxed_threshold=threshold)
    strict_expected, best_total, counts = 0, 0.0, [{0}]
    for gold, pred in docs:
        g, p = Counter(gold), Counter(pred)
        strict_expected += sum((g & p).values())
        left_g, left_p = g - p, p - g
        for label in LABELS:
            gl = [s for (s, lab), n in left_g.items() if lab == label for _ in range(n)]
            pl = [s for (s, lab), n in left_p.items() if lab == label for _ in range(n)]
            total, ns = _best(gl, pl, OWN[similarity], threshold)
            best_total += total
            counts = [{a + b for a in c for b in ns} for c in counts]
    strict = result.measures["pairs"].totals()["match"]
    relaxed = result.measures["relaxed"].totals()["match"]
    found = result.options["alignment"]["relaxed"]
    assert strict == strict_expected
    assert relaxed >= strict
    assert relaxed == strict + found["matched"]
    assert math.isclose(found["total_similarity"], best_total, abs_tol=1e-5)
    # the number of relaxed pairs is that of some optimal pairing (ties in total may differ in number)
    assert found["matched"] in counts[0]
    totals = result.measures["relaxed"].totals()
    assert (totals["gold"], totals["pred"]) == (sum(len(g) for g, _ in docs), sum(len(p) for _, p in docs))


@_EXAMPLES
@given(st.lists(document(), min_size=1, max_size=3), st.dictionaries(
    st.tuples(st.sampled_from(TOKENS), st.sampled_from(TOKENS)), st.sampled_from((0.0, 0.4, 0.5, 0.9, 1.0))))
def test_the_judge_adds_to_relaxed_and_a_rerun_from_the_cache_is_the_same(docs, table):
    gold_c, pred_c = _corpora(docs)
    asked = []

    def judge(gold, pred):
        asked.append((gold["document"], gold["text"], pred["text"]))
        return table.get((gold["text"].split()[0], pred["text"].split()[0]), 0.0)

    with tempfile.TemporaryDirectory() as tmp:
        cache = os.path.join(tmp, "v.jsonl")
        first = accord.score(gold_c, pred_c, align="none", relaxed="token-f1", judge=judge, judge_cache=cache,
                             judge_limit=10_000)
        again = accord.score(gold_c, pred_c, align="none", relaxed="token-f1", judge_cache=cache)
    matches = [first.measures[m].totals()["match"] for m in ("pairs", "relaxed", "judge")]
    assert matches[0] <= matches[1] <= matches[2]
    judged, rerun = first.options["alignment"]["judge"], again.options["alignment"]["judge"]
    assert matches[2] == matches[1] + judged["matched"]
    assert len(asked) == len(set(asked)) == judged["calls"]     # each distinct pair asked once
    assert rerun["calls"] == 0 and rerun["undecided"] == 0
    assert again.measures["judge"].totals() == first.measures["judge"].totals()


_JUDGE = ("def verdict(gold, pred):\n    return len(gold['text']) == len(pred['text'])\n"
          "def bad(gold, pred):\n    return gold['text']\n")
_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
_CACHE_LINES = st.one_of(
    st.text(max_size=20),
    st.builds(lambda g, p, s: json.dumps({"gold": g, "pred": p, "score": s}),
              st.one_of(st.none(), st.fixed_dictionaries({"document": st.sampled_from(("d", 1)), "text": _TEXT,
                                                          "label": st.sampled_from(("X", "Y"))})),
              st.fixed_dictionaries({"document": st.just("d"), "text": _TEXT, "label": st.sampled_from(("X", "Y"))}),
              st.one_of(st.booleans(), st.floats(allow_nan=False, allow_infinity=False, min_value=-1, max_value=2),
                        st.text(max_size=3), st.none())))


@contextlib.contextmanager
def _inside(path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


@_RUNS
@given(st.lists(st.tuples(_TEXT, st.sampled_from("XY")), max_size=5),
       st.lists(st.tuples(_TEXT, st.sampled_from("XYZ")), max_size=5),
       st.sampled_from(("token-f1", "ratio", "containment", "jaccard", None)),
       st.one_of(st.none(), st.sampled_from(("0", "0.5", "1", "1.5", "-1", "nan", "abc", "1e-9"))),
       st.sampled_from((None, "cli_judge_38:verdict", "cli_judge_38:bad", "cli_judge_38:nothing", "nomodule:x", "x")),
       st.one_of(st.none(), st.lists(_CACHE_LINES, max_size=3)),
       st.sampled_from((None, "0", "2", "-1", "x")))
def test_command_line_ends_in_a_result_or_one_error(gold, pred, relaxed, threshold, judge, cache, limit):
    with tempfile.TemporaryDirectory() as tmp, _inside(tmp):
        with open("cli_judge_38.py", "w", encoding="utf-8") as f:
            f.write(_JUDGE)
        text, spans = "", []
        for s, lab in gold:
            spans.append({"label": lab, "start": len(text), "end": len(text) + len(s)})
            text += s + " . "
        with open("gold.jsonl", "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": "d", "text": text, "annotations": spans}) + "\n")
        with open("pred.jsonl", "w", encoding="utf-8") as f:
            f.write(json.dumps({"id": "d", "entities": [{"text": s, "label": lab} for s, lab in pred]}) + "\n")
        argv = ["score", "gold.jsonl", "pred.jsonl", "--pred-format", "records", "--align", "none",
                "--output", "json"]
        if relaxed is not None:
            argv += ["--relaxed", relaxed]
        if threshold is not None:
            argv += ["--relaxed-threshold", threshold]
        if judge is not None:
            argv += ["--judge", judge]
        if cache is not None:
            with open("cache.jsonl", "w", encoding="utf-8") as f:
                f.write("\n".join(cache))
            argv += ["--judge-cache", "cache.jsonl"]
        if limit is not None:
            argv += ["--judge-limit", limit]
        outcome = run(argv)
        if outcome.status == 0:
            out = json.loads(outcome.stdout)
            matches = [m["totals"]["match"] for m in out["measures"].values()] if "measures" in out else [
                out["totals"]["match"]]
            assert matches == sorted(matches)     # strict <= relaxed <= judge
