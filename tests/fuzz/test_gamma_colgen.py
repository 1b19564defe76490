"""γ through column generation (``accord.agreement._colgen``) on generated units tables: the command gives a result
or one clear error in bounded time, and the observed disorder equals the one the listed candidates give. The
listing's limits are lowered so that small tables take the column generation's path."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import PROFILE, run

pytestmark = pytest.mark.filterwarnings("ignore")

EXAMPLES = 12 if PROFILE == "accord-ci" else 150


@st.composite
def dense_tables(draw) -> list[tuple[str, str, int, int, str]]:
    """Rows of three or four annotators over one or two documents, crowded over a short stretch."""
    annotators = draw(st.integers(3, 4))
    rows = []
    for a in range(annotators):
        for _ in range(draw(st.integers(1, 6))):
            start = draw(st.integers(0, 30))
            rows.append((f"A{a}", draw(st.sampled_from(["d", "e"])), start, start + draw(st.integers(1, 12)),
                         draw(st.sampled_from("abc"))))
    return list(dict.fromkeys(rows))


def _observed(path: Path) -> tuple[int, float | None]:
    result = run(["agree", str(path), "--unitizing", "gamma", "--samples", "2", "--output", "json"])
    if result.status != 0:
        return result.status, None
    return 0, json.loads(result.stdout)["totals"]["observed_disorder"]


@settings(max_examples=EXAMPLES, deadline=None)
@given(dense_tables())
def test_column_generation_gives_the_listed_optimum(rows):
    from accord.agreement import _alignment

    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "units.csv")
        path.write_text("annotator,document,start,end,category\n"
                        + "".join(f"{a},{doc},{s},{e},{c}\n" for a, doc, s, e, c in rows))
        status, listed = _observed(path)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_alignment, "MAX_LP_CANDIDATES", 0)          # every group: "too many candidates"
            patch.setattr(_alignment, "solve_frontier", _no_frontier)
            dense_status, generated = _observed(path)
    assert dense_status == status
    if listed is not None:
        assert generated == pytest.approx(listed, rel=1e-9, abs=1e-12)


def _no_frontier(tuples, disorder, comp, units, delta, *, stop_when_crowded=False):   # every group: the integer program
    import numpy as np

    return np.zeros(0, dtype=np.int64), np.ones(len(tuples), dtype=bool)
