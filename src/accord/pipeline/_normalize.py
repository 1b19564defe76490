"""The string normalisers of generated output scored without alignment (``--align none --normalize NAMES``).

Each is named and they combine; whatever order they are given in, they apply in this one: ``nfkc`` (Unicode
compatibility composition), ``lower`` (lower case), ``strip-punctuation`` (every character of a Unicode punctuation
category removed), ``articles`` (the English words *a*, *an*, *the* removed wherever they stand, as SQuAD's script
does), ``digits`` (every decimal digit written ``0``), ``whitespace`` (runs of whitespace, no-break spaces included,
one space). A string's surrounding whitespace is always left out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from .._support.surface import spelled
from ..errors import OptionError

__all__ = ["NORMALIZERS", "normalizer"]

_ARTICLES = re.compile(r"\b(?:a|an|the)\b", re.IGNORECASE)
_SPACES = re.compile(r"\s+")
_DIGITS = re.compile(r"\d")


def _punctuation(s: str) -> str:
    return "".join(c for c in s if not unicodedata.category(c).startswith("P"))


NORMALIZERS: dict[str, Callable[[str], str]] = {
    "nfkc": lambda s: unicodedata.normalize("NFKC", s),
    "lower": str.lower,
    "strip-punctuation": _punctuation,
    "articles": lambda s: _ARTICLES.sub(" ", s),
    "digits": lambda s: _DIGITS.sub("0", s),
    "whitespace": lambda s: _SPACES.sub(" ", s),
}
"""The normalisers by name, in the order they apply."""


def normalizer(names: Sequence[str] | str | None) -> Callable[[str], str]:
    """The function that applies the named normalisers (comma-separated or a list) in their order, then strips.

    Raises
    ------
    OptionError
        An unknown name.
    """
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    chosen = list(names or ())
    unknown = [n for n in chosen if n not in NORMALIZERS]
    if unknown:
        raise OptionError(f"unknown normaliser {unknown[0]!r} ({spelled('normalize')}); "
                          f"known: {', '.join(NORMALIZERS)}")
    steps = [fn for name, fn in NORMALIZERS.items() if name in chosen]

    def apply(s: str) -> str:
        for step in steps:
            s = step(s)
        return s.strip()

    return apply
