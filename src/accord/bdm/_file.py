"""GATE's BDM score file: a ``##`` header line, then one ``key=..., response=..., bdm=...`` line per pair."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TypeVar

import numpy as np

from .._support.io import read_text
from ..errors import FormatError
from ._compute import BdmScore, BdmTable

__all__ = ["write_bdm_file", "read_bdm_file", "format_bdm_file", "format_bdm_line"]

_FIELDS = ("key", "response", "bdm", "msca", "cp", "dpk", "dpr", "n0", "n1", "n2", "bran")
_HEADER = "## The BDM score of each pair of concepts (accord bdm): " + ", ".join(_FIELDS)


def _java_float(x: float) -> str:
    """A float as Java's ``Float.toString`` prints it (shortest decimal of the 32-bit value)."""
    s = str(np.float32(x))
    return s if ("." in s or "e" in s or "n" in s) else s + ".0"


def format_bdm_line(s: BdmScore) -> str:
    """One line of the file: names as they are, integers plain, reals as 32-bit floats."""
    return (f"key={s.key}, response={s.response}, bdm={_java_float(s.bdm)}, msca={s.msca or ''}, cp={s.cp}, "
            f"dpk={s.dpk}, dpr={s.dpr}, n0={_java_float(s.n0)}, n1={_java_float(s.n1)}, n2={_java_float(s.n2)}, "
            f"bran={_java_float(s.bran)}")


def format_bdm_file(scores: Iterable[BdmScore]) -> str:
    """The text of a BDM file: the ``##`` header, then one line per pair.

    Raises :class:`~accord.errors.FormatError` for a concept name the format cannot hold.
    """
    lines = [_HEADER]
    for s in scores:
        for name in (s.key, s.response, s.msca or ""):
            if ", " in name or "\n" in name:
                raise FormatError(f"concept name {name!r} contains ', ' or a line break, which GATE's BDM file "
                                  "cannot hold")
        lines.append(format_bdm_line(s))
    return "\n".join(lines) + "\n"


def write_bdm_file(scores: Iterable[BdmScore], path: str | Path) -> int:
    """Write the scores in GATE's format (UTF-8); returns the number of pairs written."""
    text = format_bdm_file(scores)
    from .._support.safe_paths import write_text

    write_text(path, text)     # whole or not at all
    return text.count("\n") - 1


_N = TypeVar("_N", int, float)


def _number(fields: dict[str, str], name: str, cast: Callable[[str | int], _N]) -> _N:
    """A parameter of a BDM line; 0 where the line leaves it out or empty."""
    value = fields.get(name, "")
    return cast(value) if value != "" else cast(0)


def read_bdm_file(path: str | os.PathLike) -> BdmTable:
    """Read GATE's BDM file (written by GATE's BDM computation tool or :func:`write_bdm_file`).

    The first line is a header and is skipped. Each further line needs at least ``key=``,
    ``response=`` and ``bdm=`` (in that order, separated by ``", "``, as GATE reads them);
    the other parameters are read when present. A malformed line is an error naming it.
    """
    p = Path(path)
    text = read_text(p)
    scores = []
    for n, line in enumerate(text.splitlines(), 1):
        if n == 1 or not line.strip():
            continue
        cells = line.split(", ")
        fields: dict[str, str] = {}
        for cell in cells:
            name, eq, value = cell.partition("=")
            if not eq:
                raise FormatError(f"expected 'name=value' items separated by ', ', got {cell!r}", path=p, line=n)
            fields[name.strip()] = value.strip()
        if [c.partition("=")[0].strip() for c in cells[:3]] != ["key", "response", "bdm"]:
            raise FormatError("a BDM line starts with key=..., response=..., bdm=...", path=p, line=n)
        try:
            scores.append(BdmScore(fields["key"], fields["response"], _number(fields, "bdm", float),
                                   fields.get("msca") or None, *(_number(fields, k, int) for k in ("cp", "dpk", "dpr")),
                                   *(_number(fields, k, float) for k in ("n0", "n1", "n2", "bran"))))
        except ValueError as exc:
            raise FormatError(f"a number is malformed ({exc})", path=p, line=n) from None
        if not 0.0 <= scores[-1].bdm <= 1.0:
            raise FormatError(f"bdm must lie in [0, 1], got {scores[-1].bdm}", path=p, line=n)
    if not scores:
        raise FormatError("no BDM line after the header", path=p)
    return BdmTable(scores)
