"""The constraints of a matching of items, named as the specification names them (section 4): a module of its own,
without numpy, so that the matchers that only check a name (:mod:`accord.structured._latent`) import no numpy."""

from __future__ import annotations

__all__ = ["CONSTRAINTS"]

CONSTRAINTS = ("1:1", "N:1", "1:N", "N:N")
"""One-to-one, many-to-one, one-to-many and many-to-many."""
