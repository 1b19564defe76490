"""A helper for every test that reads a command's JSON: the text is checked against the shipped contract."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

import jsonschema

from accord.result import contract_schema


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(contract_schema())


def checked(text: str) -> Any:
    """The JSON of ``text`` (no NaN or Infinity), after checking it against the contract."""
    def refuse(constant: str) -> None:
        raise AssertionError(f"{constant} in JSON output")
    out = json.loads(text, parse_constant=refuse)
    errors = sorted(_validator().iter_errors(out), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])
    return out
