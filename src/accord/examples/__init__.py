"""The sample the project ships: two short documents written for accord (``gold.conll`` and ``system.conll``, CoNLL
with IOB2 tags; README.md here says what they hold and what a score of them gives). ``python -m accord.examples``
prints their two paths, so that ``accord score $(python -m accord.examples)`` runs from any install."""

from __future__ import annotations

from pathlib import Path

__all__ = ["GOLD", "SYSTEM"]

HERE = Path(__file__).resolve().parent
GOLD = HERE / "gold.conll"
"""The gold standard of the sample."""
SYSTEM = HERE / "system.conll"
"""A system's output on the same tokens (5 of 7 entities right)."""
