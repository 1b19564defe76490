"""Slices of the pairs mode on generated corpora of nested spans: the slices that part the items (flat and nested,
outer and inner, the length bins, seen and unseen) add up to the pairs measure, document by document and count by
count; the gold items of each nesting slice are those a brute-force look at every pair of spans puts there; and the
command line ends every --slices, --length-bins and --train it is given in a result or a one-line error."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.model import Corpus, Document, make_annotation

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=700 if FULL else 60)

WORDS = ("a", "b", "c", "d", "e", "f", "g", "h", "i", "j")


@st.composite
def span_sets(draw, n_tokens):
    spans = []
    for _ in range(draw(st.integers(0, 7))):
        start = draw(st.integers(0, n_tokens - 1))
        end = draw(st.integers(start + 1, n_tokens))
        spans.append((draw(st.sampled_from("XY")), start, end))
    return spans


@st.composite
def corpora(draw):
    gold, pred, train = [], [], []
    for d in range(draw(st.integers(1, 3))):
        n = draw(st.integers(1, 8))
        tokens = tuple(draw(st.lists(st.sampled_from(WORDS), min_size=n, max_size=n)))
        g, p = draw(span_sets(n)), draw(span_sets(n))
        gold.append(Document(f"d{d}", tuple(make_annotation(*s) for s in g), tokens=tokens))
        pred.append(Document(f"d{d}", tuple(make_annotation(*s) for s in p), tokens=tokens))
        train.append(Document(f"t{d}", tuple(make_annotation(*s) for s in draw(span_sets(n))), tokens=tokens))
    return Corpus(gold), Corpus(pred), Corpus(train)


PARTS = [("nesting:flat", "nesting:nested"), ("nesting:outer", "nesting:inner"), ("length:1", "length:2-3",
                                                                                  "length:4+"),
         ("seen:seen", "seen:unseen")]


def _all_rows(measure):
    t = measure.table
    return t.values[:, t.rows.index(("all",))]


@_EXAMPLES
@given(corpora())
def test_partitions_add_up_to_the_pairs_measure(data):
    gold, pred, train = data
    r = accord.score(gold, pred, slices=["nesting", "length", "seen"], length_bins="1,2-3,4+", train=train)
    main = _all_rows(r.measures["pairs"])
    for part in PARTS:
        assert np.array_equal(sum(_all_rows(r.measures[name]) for name in part), main), part
    # the gold items of each nesting slice, by brute force over every pair of spans of a document
    expected = {"flat": 0, "nested": 0, "outer": 0, "inner": 0}
    for doc in gold.values():
        spans = [(a.start, a.end) for a in doc.annotations]
        for s, e in spans:
            inside = any(s2 <= s and e <= e2 and (s2, e2) != (s, e) for s2, e2 in spans)
            holds = any(s <= s2 and e2 <= e and (s2, e2) != (s, e) for s2, e2 in spans)
            expected["inner" if inside else "outer"] += 1
            expected["nested" if inside or holds else "flat"] += 1
    for name, n in expected.items():
        assert r.measures[f"nesting:{name}"].totals()["gold"] == n, name


OPTION_VALUES = st.lists(st.sampled_from(["--slices", "nesting", "length", "seen", "nesting,length", "depth", ",",
                                          "--length-bins", "1,2+", "0,1-3,4+", "3+", "1-", "x", "--train",
                                          "TRAIN", ""]), max_size=6)


@settings(max_examples=200 if FULL else 40)
@given(OPTION_VALUES)
def test_cli_options_end_in_a_result_or_an_error(tmp_path_factory, argv):
    tmp = tmp_path_factory.mktemp("slices")
    (tmp / "g.txt").write_text("The Bank of England said\n")
    (tmp / "g.ann").write_text("T1\tORG 0 19\nT2\tGPE 12 19\n")
    argv = [str(tmp / "g.ann") if a == "TRAIN" else a for a in argv]
    result = run(["score", str(tmp / "g.ann"), str(tmp / "g.ann"), "-q", *argv])
    assert result.status in (0, 2)
