"""The JSON text of every output: the same value as the json module's indented text, NaN as null, rows of
scalars on one line."""

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.report.serialize import json_text

SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20), st.floats(allow_nan=True),
                    st.text(max_size=5))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.tuples(inner, inner),
    st.dictionaries(st.one_of(st.text(max_size=4), st.integers(0, 9)), inner, max_size=4)), max_leaves=25)


def _nulls(value):
    """What JSON can hold of a value: non-finite floats become None, tuples lists, keys strings."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k if isinstance(k, str) else str(k): _nulls(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_nulls(v) for v in value]
    return value


@settings(max_examples=300)
@given(VALUES)
def test_same_value_as_the_indented_json(value):
    text = json_text(value)
    assert json.loads(text) == _nulls(value)


def test_rows_of_scalars_on_one_line():
    text = json_text({"totals": {"gold": 3, "f1": float("nan")}, "labels": ["A", "B"], "by": {"d1": {"x": 1.5}}})
    assert text.splitlines() == ['{', '  "totals": {"gold": 3, "f1": null},', '  "labels": ["A", "B"],',
                                 '  "by": {', '    "d1": {"x": 1.5}', '  }', '}']
