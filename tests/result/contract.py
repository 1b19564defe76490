"""A helper for every test that reads a command's JSON: the text is checked against the shipped contract."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import jsonschema

from accord.result import contract_schema


def inlined(schema: dict) -> dict:
    """The contract with every reference into its ``$defs`` replaced by the definition it names, for jsonschema to
    check large outputs without looking a reference up at every node (twice as fast: lookups were half of the time of
    tests/fuzz/test_properties.py::test_span_mode_json_is_bounded). A reference beside other keywords becomes one
    more ``allOf`` member, which JSON Schema 2020-12 applies alike: the same instances pass and fail (jsonschema
    keeps the evaluated properties of a failing ``$ref`` but not of a failing ``allOf`` member, which only adds an
    ``unevaluatedProperties`` error to an instance refused already; tests/result/test_contract.py compares the two).
    The references to the root (``#``, a nested result) stay: the definitions hold none."""
    defs = schema.get("$defs", {})

    def walk(node: Any) -> Any:
        if isinstance(node, list):
            return [walk(v) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        out = {k: walk(v) for k, v in node.items() if k != "$ref" or not ref.startswith("#/$defs/")}
        if "$ref" in out or ref is None:
            return out
        target = walk(defs[ref.removeprefix("#/$defs/")])
        if not out:
            return target
        out["allOf"] = [*out.get("allOf", []), target]
        return out

    return {k: walk(v) for k, v in schema.items() if k != "$defs"}


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(inlined(contract_schema()))


def checked(text: str) -> Any:
    """The JSON of ``text`` (no NaN or Infinity), after checking it against the contract."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in JSON output")
    out = json.loads(text, parse_constant=refuse)
    errors = sorted(_validator().iter_errors(out), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])
    return out
