"""Fuzz: the agreement page's disputed stretches (accord.agreement._disputes) against a count by brute force, and
``accord agree --html`` on random annotation sets (exit 0 or 2, no traceback, a page whose browser lists at most
its limit).

The brute force joins every two spans of a document that share a character (all pairs compared, then the connected
groups), where the module sorts and sweeps; a group is disputed when the annotators' sets of ``(start, end, label)``
in it differ, and its odd annotators are those outside a strict majority reading.
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.agreement._disputes import disputes_view

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 40

span = st.tuples(st.integers(0, 40), st.integers(1, 8), st.sampled_from("ABC")).map(
    lambda t: (t[0], t[0] + t[1], t[2]))
annotators = st.integers(2, 4).flatmap(lambda n: st.lists(st.lists(span, max_size=8), min_size=n, max_size=n))


def brute_force(readings: list[list[tuple[int, int, str]]]) -> list[tuple[int, int, list[int], bool]]:
    """``(start, end, odd annotators, disputed)`` of each group of overlapping spans, in order of start."""
    spans = [(s, e, label, k) for k, r in enumerate(readings) for s, e, label in r]
    group = list(range(len(spans)))

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i
    for i, a in enumerate(spans):
        for j, b in enumerate(spans[:i]):
            if a[0] < b[1] and b[0] < a[1]:
                group[root(i)] = root(j)
    members: dict[int, list[tuple[int, int, str, int]]] = {}
    for i, s in enumerate(spans):
        members.setdefault(root(i), []).append(s)
    out = []
    for run_ in members.values():
        sets = [frozenset((s, e, label) for s, e, label, who in run_ if who == k) for k in range(len(readings))]
        reading, n = Counter(sets).most_common(1)[0]
        odd = list(range(len(sets))) if 2 * n <= len(sets) else [k for k, r in enumerate(sets) if r != reading]
        out.append((min(s[0] for s in run_), max(s[1] for s in run_), odd, len(set(sets)) > 1))
    return sorted(out)


@settings(max_examples=EXAMPLES)
@given(annotators, st.integers(0, 5))
def test_disputes_equal_the_brute_force(readings, limit):
    names = [f"a{k}" for k in range(len(readings))]
    d = disputes_view(names, [("doc", None, dict(enumerate(readings)))], limit=limit)
    expected = brute_force(readings)
    disputed = [g for g in expected if g[3]]
    assert (d["disputed"], d["agreed"]) == (len(disputed), len(expected) - len(disputed))
    assert d["more"] == len(disputed) - len(d["stretches"]) and len(d["stretches"]) == min(limit, len(disputed))
    assert [(r["start"], r["end"], r["odd"]) for r in d["stretches"]] == [(s, e, odd) for s, e, odd, _ in
                                                                          disputed[:limit]]
    assert d["by_annotator"] == {names[k]: sum(k in g[2] for g in disputed) for k in range(len(names))}
    assert d["spans_by_annotator"] == {names[k]: len(r) for k, r in enumerate(readings)}


@settings(max_examples=max(5, EXAMPLES // 4))
@given(annotators)
def test_agree_html_on_random_annotation_sets(readings):
    text = "abcdefghij" * 5
    with tempfile.TemporaryDirectory() as tmp:
        sides = []
        for k, r in enumerate(readings):
            path = Path(tmp) / f"a{k}.jsonl"
            path.write_text(json.dumps({"id": "d", "text": text, "annotations": [
                {"label": label, "start": s, "end": e} for s, e, label in r]}) + "\n", encoding="utf-8")
            sides.append(str(path))
        page = Path(tmp) / "page.html"
        result = run(["agree", *sides, "--html", str(page), "-q"])
        if result.status == 0:
            html = page.read_text(encoding="utf-8")
            assert html.count('<tr class="dp-row"') == len([g for g in brute_force(readings) if g[3]])


@settings(max_examples=EXAMPLES)
@given(st.integers(2, 4).flatmap(lambda n: st.lists(st.lists(st.sampled_from([None, "x", "y", "z"]), min_size=n,
                                                             max_size=n), max_size=12)), st.integers(0, 4))
def test_ratings_disputes_equal_a_count_by_hand(rows, limit):
    """Items of a ratings table: counted item by item in Python against the module's numpy selection."""
    import numpy as np

    from accord.agreement._disputes import disputes_from_ratings
    from accord.agreement._ratings import MISSING, Ratings

    if not rows:
        return
    categories = ("x", "y", "z")
    codes = np.array([[MISSING if v is None else categories.index(v) for v in r] for r in rows], dtype=np.int64)
    names = tuple(f"r{k}" for k in range(codes.shape[1]))
    d = disputes_from_ratings(Ratings(codes, categories, names), limit=limit)
    rated = [[(k, v) for k, v in enumerate(r) if v is not None] for r in rows]
    disputed = [i for i, r in enumerate(rated) if len(r) >= 2 and len({v for _, v in r}) > 1]
    assert (d["disputed"], d["agreed"]) == (len(disputed), sum(len(r) >= 2 for r in rated) - len(disputed))
    assert [r["document"] for r in d["stretches"]] == [f"item {i + 1}" for i in disputed[:limit]]
    for row, i in zip(d["stretches"], disputed):
        votes = Counter(v for _, v in rated[i])
        top, n = votes.most_common(1)[0]
        odd = [k for k, v in rated[i]] if 2 * n <= len(rated[i]) else [k for k, v in rated[i] if v != top]
        assert row["odd"] == odd
