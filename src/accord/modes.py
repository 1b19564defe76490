"""Scoring modes as plug-ins: what ``accord.score(match=NAME)`` and ``accord score --match NAME`` run.

A mode turns the paired corpora the pipeline's stages made (:mod:`accord.pipeline`) into a
:class:`~accord.result.Result`: its measures are count tables and kinds, as every other result's. A mode is found
by name in one registry, as formats are: the built-in modes name the module that measures them
(``"module:function"``, imported when the mode runs), and adding a mode is one call::

    from accord.modes import Mode, register_mode

    register_mode(Mode("mine", "my measure", "my_package.measure:measure_corpora"))

The function is called as ``function(gold, pred, options)`` with the two corpora and a :class:`ModeOptions`, and
returns a Result. ``takes`` names the options of :func:`accord.score` the mode reads beyond the shared ones
(``allow_missing``, ``beta``, ``zero_division``); any other mode-specific option given to it is refused.
The pairs mode (MAT's one-to-one pairing with tasks, profiles, regions and units) is the pipeline's own and is
listed here too, so that the command line's ``--match`` choices come from this registry.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import OptionError

__all__ = ["Mode", "ModeOptions", "SETTINGS", "check_mode_options", "register_mode", "mode", "mode_names"]


@dataclass(frozen=True)
class ModeOptions:
    """What :func:`accord.score` hands a mode besides the corpora."""

    allow_missing: str | None = None
    beta: float = 1.0
    zero_division: str = "zero"
    leniency: int | str = 1
    labelled: bool = True
    options: dict[str, Any] = field(default_factory=dict)
    """The result's ``options`` so far (reader options that change counts: scheme, repair, suffix; allow_missing)."""
    inputs: dict[str, Any] = field(default_factory=dict)
    """The result's ``inputs`` (sources and document counts of both sides)."""
    settings: dict[str, Any] = field(default_factory=dict)
    """The mode-specific options of :func:`accord.score` (those of :data:`SETTINGS`), as given; a mode reads those it
    ``takes`` (the others were checked to be at their defaults)."""
    sources: tuple[str, str] = ("gold", "predicted")
    """How messages name the two inputs (their paths as shown)."""


@dataclass(frozen=True)
class Mode:
    """A scoring mode: its name, a one-line summary (the command line's help), the ``module:function`` that
    measures it, and the options of :func:`accord.score` it takes beyond the shared ones."""

    name: str
    summary: str
    function: str
    takes: tuple[str, ...] = ()

    def measure(self, gold: Any, pred: Any, options: ModeOptions) -> Any:
        """The mode's result for the paired corpora (its module imported now)."""
        module, _, name = self.function.partition(":")
        fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return fn(gold, pred, options)


_MODES: dict[str, Mode] = {}

SETTINGS: dict[str, Any] = {
    "task": None, "profile": None, "score_profile": None, "attributes": (), "equivalence_classes": None,
    "ignore": (), "units": (), "confusability": None, "content_annotations": None, "token_annotations": None,
    "gold_only": False, "ref_gold_only": False, "file_re": None, "ref_fsuff_off": None, "ref_fsuff_on": None,
    "validate": True, "leniency": 1, "labelled": True,
}
"""The options of :func:`accord.score` that belong to one mode or another, with their defaults: a mode lists those
it reads in :attr:`Mode.takes`; any other given a value besides its default is refused (:func:`check_mode_options`)."""


def register_mode(new: Mode, *, replace: bool = False) -> Mode:
    """Add a mode to the registry (``replace`` to give a name a new mode); returns it.

    Raises
    ------
    OptionError
        The name is taken (without ``replace``), empty, or the function is not ``module:function``.
    """
    if not isinstance(new, Mode) or not new.name or not new.name.replace("-", "").replace("_", "").isalnum():
        raise OptionError(f"a mode needs a name of letters, digits, - and _; got {getattr(new, 'name', new)!r}")
    module, colon, name = new.function.partition(":")
    if not (module and colon and name):
        raise OptionError(f"mode {new.name!r}: its function must be 'module:function'; got {new.function!r}")
    if new.name in _MODES and not replace:
        raise OptionError(f"a mode named {new.name!r} is registered already (replace=True to give it another)")
    _MODES[new.name] = new
    return new


def mode(name: str) -> Mode:
    """The registered mode called ``name`` (an :class:`OptionError` listing the names otherwise)."""
    found = _MODES.get(name)
    if found is None:
        raise OptionError(f"match must be one of {', '.join(_MODES)}; got {name!r}")
    return found


def check_mode_options(chosen: Mode, settings: dict[str, Any]) -> None:
    """Refuse the mode-specific options given to a mode that does not take them (an :class:`OptionError` naming them
    all): a mode never ignores an option silently.

    ``leniency`` and ``labelled`` are named together, as ``leniency/labelled``; a value equal to the default (``1``
    or ``"1"`` for the leniency) counts as not given."""
    given = []
    for name, value in settings.items():
        default = SETTINGS.get(name)
        if name in chosen.takes or name == "labelled":
            continue
        if name == "leniency":
            if str(value) != "1" or not settings.get("labelled", True):
                given.append("leniency/labelled")
        elif value is not default and value != default and not (default in (None, ()) and not value):
            given.append(name)
    if given:
        raise OptionError(f"{', '.join(given)} do not apply to --match {chosen.name}")


def mode_names() -> tuple[str, ...]:
    """The registered modes' names, in registration order (the built-in ones first)."""
    return tuple(_MODES)


register_mode(Mode("pairs", "one-to-one pairing and the profile's similarity (default)",
                   "accord.pairs._score:measure_corpora",
                   ("task", "profile", "score_profile", "attributes", "equivalence_classes", "ignore", "units",
                    "confusability", "content_annotations", "token_annotations", "gold_only", "ref_gold_only",
                    "file_re", "ref_fsuff_off", "ref_fsuff_on", "validate")))
register_mode(Mode("clueval", "CLUEval's coverage classes, recall and precision per leniency level",
                   "accord.clueval._result:measure_corpora", ("leniency", "labelled")))
register_mode(Mode("semeval", "the SemEval-2013 schemas strict, exact, partial and type (as nervaluate, on an "
                   "optimal pairing)", "accord.semeval._result:measure_corpora"))
