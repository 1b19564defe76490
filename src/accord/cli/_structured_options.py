"""``accord structured``'s options of the official-scorer presets (DocRED, BioRED, TextEE) and of TextEE's argument
scores: ``--preset``, ``--train``, ``--attached`` / ``--not-attached``."""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_preset_options", "preset_arguments"]


def add_preset_options(p: Any) -> None:
    """Add ``--preset``, ``--train`` and ``--attached``/``--not-attached`` to ``accord structured``."""
    from ..structured._presets import PRESETS

    p.add_argument("--preset", choices=tuple(PRESETS),
                   help="an official scorer's measures on its task's own files, in place of --metrics: "
                        + "; ".join(f"{n}: {d}" for n, d in PRESETS.items()))
    p.add_argument("--train", metavar="FILE",
                   help="docred: the training file (DocRED JSON) whose facts Ign F1 leaves out")
    p.add_argument("--judgements", metavar="FILE",
                   help="muc4-original: the interactive half credit of MUC-4's string fills, a JSON list of "
                        "[predicted string, reference mention, credit 0|0.5|1]")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--attached", dest="attached", action="store_const", const=True, default=None,
                       help="event-argument(-id): TextEE's argument score attached to the trigger (its offsets "
                            "and type), arguments as sets")
    group.add_argument("--not-attached", dest="attached", action="store_const", const=False,
                       help="event-argument(-id): TextEE's argument score with only the trigger's type (Arg-I, "
                            "Arg-C), arguments as sets")


def preset_arguments(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.structured_metrics` these options give (none when the command
    lacks them, as ``accord compare --structures structured`` does)."""
    out = {name: getattr(args, name, None) for name in ("preset", "train", "attached", "judgements")}
    if out["preset"] is not None and getattr(args, "details", None):
        from ..errors import OptionError

        raise OptionError("--details lists the matched record pairs of --metrics; --preset counts as its official "
                          "script does and has none to list")
    return {k: v for k, v in out.items() if v is not None}
