"""The JSON contract: the shipped JSON Schema of every command's output."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

__all__ = ["SCHEMA_VERSION", "contract_schema"]

SCHEMA_VERSION = "1.0"
"""The version of the JSON contract (``accord/result/contract.schema.json``)."""


@lru_cache(maxsize=1)
def _schema_text() -> str:
    from importlib import resources  # here: the version above is read by every JSON output, the schema rarely

    return resources.files("accord.result").joinpath("contract.schema.json").read_text(encoding="utf-8")


def contract_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) that every ``--output json`` of accord validates against."""
    schema: dict[str, Any] = json.loads(_schema_text())
    return schema
