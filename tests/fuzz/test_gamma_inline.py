"""Fuzz: hostile MAT inline XML, and units tables under γ and Krippendorff's uα (issue 33, items 11, 12, 16).

* inline XML with unterminated comments, CDATA sections, processing instructions and doctypes, stray ``<``,
  deep nesting and many annotations, repeated up to hundreds of kilobytes: ``accord convert`` ends with exit 0
  or 2 in bounded time under ``xml-inline`` and ``fake-xml-inline`` (the tokenizer was quadratic);
* units tables with duplicates, units of length 0, dense overlaps and several documents: ``accord agree
  --unitizing gamma|alpha-u`` ends with exit 0 or 2 in bounded time;
* permuting the rows of a table and the names of its annotators gives the same γ under one seed.
"""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 25
SECONDS = 15.0
"""CPU seconds one command may take here: the inputs are at most a few hundred kilobytes or a few hundred units."""

PIECES = ["<!--", "-->", "<?", "?>", "<![CDATA[", "]]>", "<!DOCTYPE", ">", "<", "</", "<A>", "</A>", "<B x='1'>",
          "</B>", "<C/>", "<A", " x=\"", "=", "'", "\"", "text ", "\n", "&amp;", "&", "<_mat:atype name='A'>",
          "</_mat:atype>", "<__top>", "<!-- _mat_metadata_ e30= -->", "</__top>"]


def timed(argv: list[str]):
    t = time.process_time()
    result = run(argv)
    spent = time.process_time() - t
    assert spent < SECONDS, f"accord {' '.join(argv)}: {spent:.1f} s"
    return result


@st.composite
def hostile_inline(draw) -> str:
    """Pieces of markup, some repeated many times (a pattern repeated to a few hundred kilobytes)."""
    head = "".join(draw(st.lists(st.sampled_from(PIECES), max_size=20)))
    body = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=8)))
    times = draw(st.sampled_from([1, 10, 1000, 20_000]))
    return head + body * max(1, times * 10 // max(10, len(body)))


@settings(max_examples=EXAMPLES)
@given(hostile_inline(), st.sampled_from(["xml-inline", "fake-xml-inline"]))
def test_hostile_inline_xml(text, fmt):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "doc.xml")
        path.write_text(text, encoding="utf-8")
        result = timed(["convert", str(path), str(Path(d, "out.jsonl")), "--from", fmt])
        assert result.status in (0, 2)


def test_deep_nesting_and_many_annotations():
    """20,000 nested elements, and 50,000 annotations one a line (17 s before): read, in bounded time."""
    with tempfile.TemporaryDirectory() as d:
        deep = Path(d, "deep.xml")
        deep.write_text("<__top>" + "<A>" * 20_000 + "x" + "</A>" * 20_000 + "</__top>")
        assert timed(["convert", str(deep), str(Path(d, "deep.jsonl")), "--from", "xml-inline"]).status == 0
        many = Path(d, "many.xml")
        many.write_text("<__top>" + "<A>x</A> y\n" * 50_000 + "</__top>")
        assert timed(["convert", str(many), str(Path(d, "many.jsonl")), "--from", "xml-inline"]).status == 0
        lines = Path(d, "many.jsonl").read_text().splitlines()
        assert sum(len(json.loads(line).get("annotations", [])) for line in lines) == 50_000


@st.composite
def units_rows(draw, zero_length: bool = True, dense: bool = True) -> list[tuple[str, str, int, int, str]]:
    """Rows of two to four annotators over up to three documents: sparse or dense, with units of length 0 and
    duplicates when asked."""
    annotators = draw(st.integers(2, 4))
    crowded = dense and draw(st.booleans())
    rows = []
    for a in range(annotators):
        for _ in range(draw(st.integers(0, 25 if crowded else 8))):
            start = draw(st.integers(0, 30 if crowded else 300))
            length = draw(st.integers(0 if zero_length else 1, 15))
            rows.append((f"a{a}", f"d{draw(st.integers(0, 2))}", start, start + length,
                         draw(st.sampled_from(["x", "y", "z"]))))
    if rows and draw(st.booleans()):
        rows += draw(st.lists(st.sampled_from(rows), max_size=5))
    return rows


def write_table(path: Path, rows) -> None:
    path.write_text("annotator,document,start,end,category\n" + "".join(f"{a},{d},{s},{e},{c}\n"
                                                                       for a, d, s, e, c in rows))


@settings(max_examples=EXAMPLES)
@given(units_rows(), st.sampled_from(["gamma", "alpha-u"]))
def test_hostile_units_tables(rows, measure):
    """Duplicates, units of length 0, dense overlaps: a result or one clear error, in bounded time. γ refuses a
    unit of length 0 (as pygamma-agreement); uα takes it (as DKPro Agreement)."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "units.csv")
        write_table(path, rows)
        argv = ["agree", str(path), "--unitizing", measure, "--output", "json"]
        result = timed(argv + (["--samples", "3"] if measure == "gamma" else []))
        assert result.status in (0, 2)
        if measure == "gamma" and any(s == e for _, _, s, e, _ in rows) and len({a for a, *_ in rows}) > 1:
            assert result.status == 2 and "length 0" in result.stderr


@settings(max_examples=EXAMPLES)
@given(units_rows(zero_length=False, dense=False), st.randoms(use_true_random=False),
       st.sampled_from(["statistical", "shuffle"]))
def test_gamma_does_not_depend_on_the_order_of_rows_or_annotator_names(rows, rng, sampler):
    if len({a for a, *_ in rows}) < 2:
        return
    names = sorted({a for a, *_ in rows})
    renamed = dict(zip(names, rng.sample([f"r{k}" for k in range(len(names))], len(names))))
    permuted = [(renamed[a], d, s, e, c) for a, d, s, e, c in rows]
    rng.shuffle(permuted)
    out = []
    with tempfile.TemporaryDirectory() as d:
        for k, table in enumerate((rows, permuted)):
            path = Path(d, f"units{k}.csv")
            write_table(path, table)
            result = timed(["agree", str(path), "--unitizing", "gamma", "--samples", "4", "--seed", "11",
                            "--sampler", sampler, "--output", "json"])
            out.append(result)
    assert out[0].status == out[1].status
    if out[0].status != 0:
        return
    first, second = (json.loads(r.stdout) for r in out)
    for key in ("gamma", "gamma_cat", "observed_disorder", "expected_disorder", "units"):
        assert first["totals"][key] == second["totals"][key], key
    assert {doc: v["gamma"] for doc, v in first["by_document"].items()} == \
        {doc: v["gamma"] for doc, v in second["by_document"].items()}


def test_shuffled_rows_of_one_table_same_gamma_seeded():
    """One fixed table, five row orders and namings: one γ (the shuffle sampler's γ moved by 0.02 before)."""
    rng = random.Random(3)
    rows = [(f"a{a}", f"d{k % 2}", 10 * k + rng.randint(-2, 2), 10 * k + 6 + rng.randint(-2, 2), rng.choice("xy"))
            for a in range(3) for k in range(12)]
    values = set()
    with tempfile.TemporaryDirectory() as d:
        for trial in range(5):
            table = [(f"n{(int(a[1]) + trial) % 3}", doc, s, e, c) for a, doc, s, e, c in rows]
            random.Random(trial).shuffle(table)
            path = Path(d, f"u{trial}.csv")
            write_table(path, table)
            result = timed(["agree", str(path), "--unitizing", "gamma", "--sampler", "shuffle", "--samples", "5",
                            "--output", "json"])
            assert result.status == 0, result.stderr
            values.add(json.loads(result.stdout)["totals"]["gamma"])
    assert len(values) == 1
