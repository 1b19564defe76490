"""The registry of project layouts (:mod:`accord.formats.projects`): what a layout is and where layouts are kept, apart
from the layouts themselves so that a module registering one imports this and never :mod:`~accord.formats.projects`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..model import Corpus

__all__ = ["Found", "Layout", "MAX_ENTRIES", "layouts", "register"]

MAX_ENTRIES = 100_000
"""Entries (documents and files) a project folder may hold; more is refused before anything is read."""

Found = Mapping[str, "Corpus | Callable[[], Corpus]"]


@dataclass(frozen=True)
class Layout:
    """A registered project layout (see the module docstring).

    ``optional`` names annotators read only when chosen by name (a curation, a pre-annotation).
    """

    name: str
    detect: Callable[[Path], bool]
    read: Callable[..., Found]
    description: str = ""
    optional: tuple[str, ...] = ()


_LAYOUTS: dict[str, Layout] = {}


def register(name: str, detect: Callable[[Path], bool], read: Callable[..., Found], description: str = "",
             optional: Sequence[str] = ()) -> Layout:
    """Add (or replace) a project layout; layouts are tried in the order they were first registered."""
    layout = Layout(name, detect, read, description, tuple(optional))
    _LAYOUTS[name] = layout
    return layout


def layouts() -> list[Layout]:
    """The registered layouts, in the order they are tried."""
    return list(_LAYOUTS.values())
