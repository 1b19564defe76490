"""The JSON of a result written column by column (``accord.result._json_tables``, :meth:`Result.to_json`) against
the plain writer: ``json_text`` of the result's dict, which makes a dict per block and lets the ``json`` module
encode it. Random count tables (zeros, huge counts, fractional counts, undefined rates written ``null``), document
ids and labels with quotes, backslashes, control characters, ``%``, line separators and the markers' own prefix,
every kind of measure (also those whose blocks reorder or leave out columns), one measure or several, several
indentations: the same text, byte for byte."""

from __future__ import annotations

import json
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.result import (
    ALL,
    BetterKind,
    ClueKind,
    CorefKind,
    CountTable,
    GateKind,
    Kind,
    Measure,
    PairsKind,
    RecordsKind,
    Result,
    SemEvalKind,
    SmatchKind,
    UnitsKind,
    _json_tables,
)
from accord.result._json_text import json_text

from .harness import PROFILE

settings.load_profile(PROFILE)

_KINDS = {
    "pairs": lambda: PairsKind(),
    "pairs-nan": lambda: PairsKind(beta=0.5, zero_division="nan"),
    "pairs-one": lambda: PairsKind(zero_division="one"),
    "units": lambda: UnitsKind(),
    "semeval": lambda: SemEvalKind(half_credit=True),
    "coref": lambda: CorefKind(),
    "blanc": lambda: CorefKind(blanc=True),
    "smatch": lambda: SmatchKind(),
    "records": lambda: RecordsKind(),
    "better": lambda: BetterKind(),
    "gate": lambda: GateKind("average"),         # (its own blocks: bdm left out; every cell listed)
    "gate-bdm": lambda: GateKind("lenient-bdm", fp_per="token", error_rate=True),
    "clueval": lambda: ClueKind(),               # (its own blocks: columns reordered)
}

_ODD = ["", '"', "\\", "\x00", "\x1f", "\x7f", "\n", "\u2028", "\ud7ff", "é", "%s", "%%", "{", "}, {", ": ",
        '": "', "accord-table-", "\U0001f600", "B-PER", "0"]
_NAME = st.one_of(st.sampled_from(_ODD), st.text(max_size=4),
                  st.lists(st.sampled_from(_ODD), min_size=2, max_size=3).map("".join))

_SCALES = [0, 1, 3, 1000, 2**31, 2**53, 2**60]
"""Largest count of a drawn table (2**60: derived sums near the end of int64)."""


def _values(seed: int, shape: tuple[int, int, int], scale: int, zeros: float, floats: bool) -> np.ndarray:
    """A count table: a share ``zeros`` of its cells 0, the others up to ``scale``; fractional counts (a third,
    a tenth, huge, -0.0) when ``floats``."""
    rng = np.random.default_rng(seed)
    values = rng.integers(0, scale + 1, size=shape, dtype=np.int64) if scale else np.zeros(shape, dtype=np.int64)
    values[rng.random(shape) < zeros] = 0
    if not floats:
        return values
    out = values.astype(np.float64)
    odd = np.array([1 / 3, 0.1, 2.5, 1e16, 1e300, -0.0, 1e-7, 7.0])
    pick = rng.random(shape) < 0.3
    out[pick] = odd[rng.integers(0, len(odd), size=int(pick.sum()))]
    return out


@st.composite
def results(draw: st.DrawFn) -> Result:
    """A result of one to three measures over the same documents and labels (some with aggregation and
    decomposition rows, some without a total row or without labels)."""
    documents = draw(st.lists(_NAME, max_size=7, unique=True))
    labels = draw(st.lists(_NAME, max_size=5, unique=True))
    measures = {}
    for m in range(draw(st.integers(1, 3))):
        kind = _KINDS[draw(st.sampled_from(sorted(_KINDS)))]()
        rows = ([ALL] if draw(st.booleans()) or m == 0 else []) + [("label", lab) for lab in labels]
        if labels and draw(st.booleans()):
            rows += [("aggregation", "micro"), ("decomposition", labels[0], "nested")]
        floats = kind.name in ("coref", "blanc", "gate") and draw(st.booleans())
        values = _values(draw(st.integers(0, 2**32 - 1)), (len(documents), len(rows), len(kind.fields)),
                         draw(st.sampled_from(_SCALES)), draw(st.sampled_from([0.0, 0.5, 0.9, 1.0])), floats)
        name = draw(st.sampled_from(["pairs", "m\"1", "%s", "é"])) + str(m)
        measures[name] = Measure(kind, CountTable(kind.fields, tuple(documents), tuple(rows), values))
    nested = len(measures) > 1 or draw(st.booleans())
    return Result("score", "pairs", measures, nested=nested, options={"o": "%s\\"}, inputs={})


def _own_blocks(result: Result) -> bool:
    """Whether every measure's kind makes its blocks by :meth:`Kind.blocks` or reorders or leaves out its keys
    (written column by column)."""
    return all(type(m.kind).blocks is Kind.blocks or type(m.kind) in (ClueKind, GateKind)
               for m in result.measures.values())


@given(results(), st.sampled_from([2, 2, 1, 4, 0, None]))
def test_the_columns_equal_the_plain_writer(result, indent):
    """``to_json`` of any result equals ``json_text`` of its dict (blocks made otherwise, on one line, left to
    the plain writer); the tables of a kind that makes its blocks by ``Kind.blocks`` are written from the columns,
    not by the fallback."""
    with np.errstate(all="ignore"):
        expected = json_text(result.to_dict(), indent=indent)
        if _own_blocks(result) and indent:
            with mock.patch.object(_json_tables.TableMarkers, "resolved", side_effect=AssertionError("fell back")), \
                    mock.patch.object(_json_tables, "_indented", side_effect=AssertionError("fell back")):
                got = result.to_json(indent)
        else:
            got = result.to_json(indent)
    assert got == expected
    parsed = json.loads(got)
    for name, m in result.measures.items():
        shown = parsed["measures"][name] if result.nested else parsed
        assert list(shown["by_document_label"]) == list(m.table.documents)
        if ALL in m.table.rows:
            assert list(shown["by_document"]) == list(m.table.documents)


@given(st.lists(_NAME, min_size=1, max_size=6, unique=True), st.lists(_NAME, min_size=1, max_size=4, unique=True),
       st.integers(0, 2**32 - 1), st.sampled_from([0.0, 0.5, 1.0]), st.integers(1, 3))
def test_a_table_of_labels_at_any_depth(documents, labels, seed, zeros, depth):
    """A table ``{document: {label: block}}`` put anywhere in an object (in an array, under several keys) is the
    plain writer's text of the same object with the table itself."""
    kind = PairsKind()
    values = _values(seed, (len(documents), len(labels), len(kind.fields)), 5, zeros, False)
    keep = values.any(axis=2)
    markers = _json_tables.TableMarkers()
    marker = markers.add_labels(documents, labels, kind, values[keep], keep)
    table = markers.table(0)
    obj: object = {"t": marker, "n": 1}
    plain: object = {"t": table, "n": 1}
    for k in range(depth):
        obj, plain = ({f"k{k}": [obj, {}]}, {f"k{k}": [plain, {}]}) if k % 2 else ({"a": obj}, {"a": plain})
    assert _json_tables.json_text_tables(obj, markers) == json_text(plain)
    blocks = iter(kind.blocks(values[keep]))
    assert table == {d: {labels[k]: next(blocks) for k in range(len(labels)) if keep[i, k]}
                     for i, d in enumerate(documents)}


@pytest.mark.parametrize("labels", [0, 4])
def test_score_writes_no_block_per_document(monkeypatch, labels):
    """2,000 documents: the per-document tables are written from the count arrays, without a dict per block
    (``Kind.blocks`` asked only for the totals, the labels and the groups); the text is the plain writer's."""
    rng = np.random.default_rng(3)
    kind = PairsKind()
    rows = [ALL] + [("label", f"L{k}") for k in range(labels)]
    values = rng.integers(0, 4, size=(2000, len(rows), len(kind.fields)), dtype=np.int64)
    values[rng.random(values.shape[:2]) < 0.4] = 0
    result = Result("score", "pairs", {"pairs": Measure(kind, CountTable(kind.fields, tuple(
        f"doc{k}" for k in range(2000)), tuple(rows), values))}, nested=False)
    expected = json_text(result.to_dict())
    blocks = Kind.blocks

    def few_blocks(self: Kind, v: np.ndarray) -> list:
        assert len(v) < 100, f"a block made for each of {len(v)} rows"
        return blocks(self, v)

    monkeypatch.setattr(Kind, "blocks", few_blocks)
    assert result.to_json() == expected
