"""IterX's CEAF-RME scorer (Chen et al., 2023, github.com/wanmok/iterx), run when a checkout is at hand.

Nothing is fetched here and no IterX code is in this repository: set ``ACCORD_ITERX`` to a checkout of
wanmok/iterx (or to its ``src/iterx/metrics/muc/ceaf_rme.py``) and the tests that use :func:`iterx_rme`
compare accord with it; without it they are skipped, and the hand counts in ``test_ie.py`` (derived from
reading that file) stand in for it. Only the two scoring functions of one template pair are taken from
the file (its module imports AllenNLP-era packages): ``phi_for_clusters_rme`` (φ⊆: a predicted entity
counts when one of its mentions is in some reference entity, each such entity counted once for recall)
and ``phi3_for_clusters_rme`` (φ3: predicted and reference entities paired one to one, the shared
mentions counted). The denominators are the scorer's: entities for φ⊆, mentions for φ3.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

_FUNCTIONS = ("phi_for_clusters_rme", "phi3_for_clusters_rme")


def _source() -> Path | None:
    where = os.environ.get("ACCORD_ITERX")
    if not where:
        return None
    p = Path(where)
    if p.is_dir():
        p = p / "src" / "iterx" / "metrics" / "muc" / "ceaf_rme.py"
    return p if p.is_file() else None


def available() -> bool:
    return _source() is not None


def _load() -> dict[str, Any]:
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    path = _source()
    assert path is not None
    tree = ast.parse(path.read_text(encoding="utf-8"))
    keep = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in _FUNCTIONS]
    for node in ast.walk(ast.Module(body=keep, type_ignores=[])):   # the annotations name IterX's types
        if isinstance(node, ast.FunctionDef):
            node.returns = None
        if isinstance(node, ast.arg):
            node.annotation = None
    namespace: dict[str, Any] = {"np": np, "linear_sum_assignment": linear_sum_assignment}
    exec(compile(ast.Module(body=keep, type_ignores=[]), str(path), "exec"), namespace)
    return namespace


def iterx_rme(gold: list[dict[str, Any]], pred: list[dict[str, Any]]) -> dict[str, tuple[float, float, float, float]]:
    """IterX's ``(p_num, p_den, r_num, r_den)`` for φ⊆ and φ3 of one document scored as one template.

    ``gold`` and ``pred`` are accord's role-filler records (``role``, ``entity``); an IterX entity is a
    list of ``(template type, role, mention)`` triples, the template type here one constant.
    """
    ns = _load()

    def entities(records: list[dict[str, Any]]) -> list[list[tuple[str, Any, Any]]]:
        return [[("t", r["role"], m) for m in r["entity"]] for r in records]

    g, p = entities(gold), entities(pred)
    matched_pred, matched_gold = ns["phi_for_clusters_rme"](g, p)
    shared = float(ns["phi3_for_clusters_rme"](g, p)) if g and p else 0.0
    return {"subset": (matched_pred, len(p), matched_gold, len(g)),
            "phi3": (shared, sum(map(len, p)), shared, sum(map(len, g)))}
