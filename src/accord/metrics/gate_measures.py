"""GATE's measure names (``strict``, ``lenient``, ``average``, with ``-bdm``, or GATE's own ``F0.5-score lenient
BDM``): parsed once here, for the GATE modes (:mod:`accord.diff`) and the count kind of their results
(:class:`accord.result.GateKind`)."""

from __future__ import annotations

import math
import re

from ..errors import OptionError

__all__ = ["BDM_MEASURES", "MEASURES", "parse_measure", "split_measure"]

MEASURES = ("strict", "lenient", "average")
BDM_MEASURES = ("strict-bdm", "lenient-bdm", "average-bdm")


_GATE_NAME = re.compile(r"^f\s*(?P<beta>[0-9]+(?:\.[0-9]*)?)\s*-\s*score\s+(?P<kind>strict|lenient|average)"
                        r"(?P<bdm>\s+bdm)?$", re.IGNORECASE)
"""GATE's measure names: ``F1.0-score strict``, ``F0.5-score lenient BDM`` (Corpus QA's, guide 10.3)."""


def parse_measure(name: str) -> str:
    """Check a measure name: ``strict``, ``lenient``, ``average`` or one of them with ``-bdm``
    (also written ``strict BDM``), or GATE's name with its beta (``F0.5-score lenient BDM``), which
    becomes ``lenient-bdm@0.5``: that measure under its own beta, whatever ``--beta`` says."""
    m = _GATE_NAME.match(name.strip())
    if m is not None:
        beta = float(m.group("beta"))
        kind = m.group("kind").lower() + ("-bdm" if m.group("bdm") else "")
        return f"{kind}@{beta:g}"
    kind, at, beta_text = name.partition("@")
    m_name = "-".join(kind.strip().lower().replace("_", " ").split())
    if m_name not in MEASURES + BDM_MEASURES:
        raise OptionError(f"unknown measure {name!r}; expected one of {', '.join(MEASURES + BDM_MEASURES)}, or "
                          "GATE's names such as 'F1.0-score strict' and 'F0.5-score lenient BDM'")
    if at:
        try:
            beta = float(beta_text)
        except ValueError:
            beta = -1.0
        if not 0 <= beta < math.inf:
            raise OptionError(f"measure {name!r}: the beta after '@' must be a number >= 0")
        return f"{m_name}@{beta:g}"
    return m_name


def split_measure(measure: str, beta: float = 1.0) -> tuple[str, float]:
    """A parsed measure's kind and beta: its own (``strict@0.5``) or ``beta``."""
    kind, at, b = measure.partition("@")
    return kind, (float(b) if at else beta)
