"""Fuzz: aggregation of many annotators (accord adjudicate --method).

* random answer tables: every method gives each item a category among the answers' (a posterior summing to 1),
  the majority vote's choice has the most votes (counted here), and the statuses follow their definition;
* random span sets of 2 to 4 annotators written as JSON lines: accord adjudicate gives gold or one clear error
  (harness.run), under every method and grouping, with the queue; the gold spans are each some annotator's span.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.adjudicate._aggregate import METHODS, aggregate

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 60
"""Cases per test (each a few milliseconds; the command line ones about 50 ms)."""


@st.composite
def tables(draw):
    items = draw(st.integers(1, 12))
    annotators = draw(st.integers(2, 5))
    k = draw(st.integers(1, 4))
    cells = draw(st.lists(st.integers(-1, k - 1), min_size=items * annotators, max_size=items * annotators))
    codes = np.array(cells, dtype=np.int64).reshape(items, annotators)
    for i in range(items):              # every item needs an answer
        if (codes[i] < 0).all():
            codes[i, draw(st.integers(0, annotators - 1))] = draw(st.integers(0, k - 1))
    return codes, k


@settings(max_examples=EXAMPLES)
@given(tables(), st.sampled_from(METHODS), st.one_of(st.none(), st.integers(1, 5)))
def test_every_item_gets_an_answered_category(table, method, min_votes):
    codes, k = table
    if min_votes is not None and min_votes > codes.shape[1]:
        min_votes = codes.shape[1]
    names = [f"a{j}" for j in range(codes.shape[1])]
    got = aggregate(codes, range(k), names, method=method, min_votes=min_votes)
    assert np.allclose(got.posteriors.sum(axis=1), 1.0)
    for i, label in enumerate(got.labels):
        given_here = set(codes[i][codes[i] >= 0].tolist())
        votes = [int((codes[i] == c).sum()) for c in range(k)]
        if method == "majority":
            assert votes[label] == max(votes)
            assert (got.status[i] == "tie") == (votes.count(max(votes)) > 1)
        if got.status[i] != "tie":
            assert label in given_here or method != "majority"
        if got.status[i] == "decided":
            need = min_votes if min_votes is not None else (sum(votes) // 2 + 1 if method == "majority" else 1)
            assert votes[label] >= need
    assert all(0.0 <= r <= 1.0 or r != r for r in got.reliability.values())


LABELS = st.sampled_from(["PER", "ORG", "LOC"])
TEXT = "one two three four five six seven"


@st.composite
def span_sets(draw):
    n = draw(st.integers(2, 4))
    sets = []
    for _ in range(n):
        spans = draw(st.lists(st.tuples(st.integers(0, len(TEXT) - 1), st.integers(1, 8), LABELS), max_size=5))
        sets.append([(s, min(s + w, len(TEXT)), lab) for s, w, lab in spans])
    return sets


@settings(max_examples=EXAMPLES // 2)
@given(span_sets(), st.sampled_from(METHODS), st.sampled_from(["strict", "lenient"]),
       st.sampled_from(["gate", "optimal"]), st.one_of(st.none(), st.integers(1, 4)))
def test_adjudicate_many_sides(sets, method, measure, pairing, min_votes):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        paths = []
        for j, spans in enumerate(sets):
            p = folder / f"ann{j}.jsonl"
            doc = {"id": "d", "text": TEXT, "annotations": [{"label": lab, "start": s, "end": e}
                                                             for s, e, lab in spans]}
            p.write_text(json.dumps(doc) + "\n")
            paths.append(str(p))
        out = folder / "gold.jsonl"
        argv = ["adjudicate", *paths, "--method", method, "--measure", measure, "--pairing", pairing, "-o", str(out),
                "--queue", str(folder / "q.csv"), "--queue-html", str(folder / "q.html"), "--output", "json"]
        if min_votes is not None:
            argv += ["--min-votes", str(min_votes)]
        result = run(argv)
        if result.status == 2:
            return
        gold = json.loads(out.read_text())
        given_spans = {(s, e, lab) for spans in sets for s, e, lab in spans}
        for a in gold["annotations"]:
            assert (a["start"], a["end"], a["label"]) in given_spans
        report = json.loads(result.stdout)
        assert report["kept"] == len(gold["annotations"])


CELLS = st.one_of(st.sampled_from(["", "pos", "neg", "neu", "1", "2.5", "<b>x</b>", '"q"', "a|b"]),
                  st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\0"), max_size=4))


@settings(max_examples=EXAMPLES // 2)
@given(st.lists(st.lists(CELLS, min_size=3, max_size=3), min_size=1, max_size=8), st.sampled_from(METHODS))
def test_adjudicate_a_ratings_table(rows, method):
    import csv
    import io

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        buffer = io.StringIO()
        w = csv.writer(buffer, lineterminator="\n")
        w.writerow(["id", "x", "y", "z"])
        w.writerows([[f"i{k}", *row] for k, row in enumerate(rows)])
        table = folder / "r.csv"
        table.write_text(buffer.getvalue(), encoding="utf-8")
        out = folder / "gold.csv"
        result = run(["adjudicate", str(table), "--items", "id", "--method", method, "-o", str(out), "--queue",
                      str(folder / "q.csv"), "--queue-html", str(folder / "q.html")])
        if result.status == 0:
            with open(out, newline="", encoding="utf-8") as fh:
                assert [r["item"] for r in csv.DictReader(fh)] == [f"i{k}" for k in range(len(rows))]
