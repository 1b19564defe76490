"""Modes as plug-ins: every way accord measures, found by name in one registry, as formats are.

A mode turns two sides (gold and predicted, key and response) into a :class:`~accord.result.Result` whose measures
are count tables and kinds, as every other result's. The registry says, for each mode, its name, a one-line summary,
the ``module:function`` that measures it (imported when the mode runs), the options of :func:`accord.score` it
takes, the command that runs it (``accord score --match NAME`` or a command of its own) and what it compares:

- ``inputs="spans"``: the span corpora that :mod:`accord.pipeline`'s stages read; the function is called as
  ``function(gold_corpus, pred_corpus, options)`` with a :class:`ModeOptions`;
- any other kind (``"coreference chains"``, ``"AMR graphs"``...): the mode reads its inputs itself; the function is
  called as ``function(gold_source, pred_source, options)`` with the paths or objects given, and the mode's own
  keyword options in ``options.extra``.

:func:`accord.score` runs any mode of two sides (``accord.score(key, response, match="coref")``); modes of three
sides or more (GATE's benchmark, agreement between annotators) are listed for their command and refused there.
Adding a mode is its module and one call::

    from accord.modes import Mode, register_mode

    register_mode(Mode("mine", "my measure", "my_package.measure:measure_corpora"))

``takes`` names the options of :func:`accord.score` the mode reads beyond the shared ones (``allow_missing``,
``beta``, ``zero_division``); any other mode-specific option given to it is refused (:func:`check_mode_options`).
The command line's ``--match`` choices, the modes' list in ``accord --help``, the README's table and the site's come
from this registry, and the ``mode`` of every result's JSON is one of the names in :func:`result_modes`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ._support.surface import spelled
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
    formats: tuple[str | None, str | None] = (None, None)
    """The format of each side, when given (a mode that reads its inputs itself)."""
    extra: dict[str, Any] = field(default_factory=dict)
    """A mode that reads its inputs itself: the keyword options given to :func:`accord.score` that are neither shared
    nor listed in :data:`SETTINGS` (``metrics=`` for ``coref``...), for the mode's function to check."""


@dataclass(frozen=True)
class Mode:
    """A mode: its name, a one-line summary (the command line's help), the ``module:function`` that measures it,
    the options of :func:`accord.score` it takes beyond the shared ones, the command that runs it, what it compares,
    how many sides (``0``: any number, as annotators), and the ``mode`` names its results carry in their JSON
    (default: its name)."""

    name: str
    summary: str
    function: str
    takes: tuple[str, ...] = ()
    command: str = "score"
    inputs: str = "spans"
    sides: int = 2
    result_modes: tuple[str, ...] = ()

    @property
    def reads_spans(self) -> bool:
        """Whether the pipeline reads its inputs as span corpora (else the mode reads them itself)."""
        return self.inputs == "spans"

    def measure(self, gold: Any, pred: Any, options: ModeOptions) -> Any:
        """The mode's result for the two sides (its module imported now): the corpora the pipeline read, or, for a
        mode that reads its inputs itself, the paths or objects given, with its own options checked against its
        function's signature (an :class:`OptionError` naming what it does not take)."""
        module, _, name = self.function.partition(":")
        fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
        if self.reads_spans:
            return fn(gold, pred, options)
        kwargs = dict(options.extra)
        given_formats = {f for f in options.formats if f is not None}
        if len(given_formats) > 1:
            raise OptionError(f"match={self.name!r} reads both sides in one format; got {' and '.join(given_formats)}")
        if given_formats:
            kwargs["format"] = given_formats.pop()
        if options.allow_missing is not None:
            kwargs["allow_missing"] = options.allow_missing
        if options.beta != 1.0:
            kwargs["beta"] = options.beta
        if options.zero_division != "zero":
            kwargs["zero_division"] = options.zero_division
        import inspect

        parameters = inspect.signature(fn).parameters
        if not any(p.kind is p.VAR_KEYWORD for p in parameters.values()):
            unknown = [k for k in kwargs if k not in parameters]
            if unknown:
                taken = [k for k, p in parameters.items() if p.kind is p.KEYWORD_ONLY or k not in list(parameters)[:2]]
                raise OptionError(f"{', '.join(map(_option, unknown))} do not apply to "
                                  f"{spelled('match', self.name)} (accord {self.command}); "
                                  f"it takes {', '.join(taken) or 'no option'}")
        return fn(gold, pred, **kwargs)


_MODES: dict[str, Mode] = {}

SETTINGS: dict[str, Any] = {
    "task": None, "profile": None, "score_profile": None, "attributes": (), "equivalence_classes": None,
    "ignore": (), "units": (), "confusability": None, "content_annotations": None, "token_annotations": None,
    "gold_only": False, "ref_gold_only": False, "file_re": None, "ref_fsuff_off": None, "ref_fsuff_on": None,
    "validate": True, "leniency": 1, "labelled": True, "slices": (), "train": None, "length_bins": None,
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


_FLAGS = {"equivalence_classes": "--equivalence-class", "labelled": "--unlabelled",
          "units": "--by-token/--by-pseudo-token/--by-character"}
"""The command-line options of the settings not spelled ``--`` and the name with ``-`` for ``_``."""


def _option(name: str) -> str:
    """A setting (``leniency/labelled`` for two) as the caller spells it: ``--leniency/--unlabelled`` or
    ``leniency/labelled``."""
    return "/".join(spelled(part, flag=_FLAGS.get(part)) for part in name.split("/"))


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
        raise OptionError(f"{', '.join(map(_option, given))} do not apply to {spelled('match', chosen.name)}")


def mode_names(command: str | None = None) -> tuple[str, ...]:
    """The registered modes' names, in registration order (the built-in ones first); with ``command``, those of
    that command only (``"score"``: the choices of ``--match``)."""
    return tuple(name for name, m in _MODES.items() if command is None or m.command == command)


def result_modes() -> dict[str, tuple[str, ...]]:
    """Every ``mode`` value a result's JSON may carry, with the registered modes whose results carry it."""
    out: dict[str, tuple[str, ...]] = {}
    for m in _MODES.values():
        for value in m.result_modes or (m.name,):
            out[value] = (*out.get(value, ()), m.name)
    return out


register_mode(Mode("pairs", "one-to-one pairing and the profile's similarity (default)",
                   "accord.pairs._score:measure_corpora",
                   ("task", "profile", "score_profile", "attributes", "equivalence_classes", "ignore", "units",
                    "confusability", "content_annotations", "token_annotations", "gold_only", "ref_gold_only",
                    "file_re", "ref_fsuff_off", "ref_fsuff_on", "validate", "slices", "train", "length_bins")))
register_mode(Mode("clueval", "CLUEval's coverage classes, recall and precision per leniency level",
                   "accord.clueval._result:measure_corpora", ("leniency", "labelled", "attributes", "slices")))
register_mode(Mode("semeval", "the SemEval-2013 schemas strict, exact, partial and type (as nervaluate)",
                   "accord.semeval._result:measure_corpora"))
register_mode(Mode("coref", "MUC, B-cubed, CEAF, BLANC, LEA and the CoNLL score of coreference chains",
                   "accord.structured._commands:coref", command="coref", inputs="coreference chains"))
register_mode(Mode("smatch", "Smatch: the best triple match of two graphs (AMR, PENMAN)",
                   "accord.structured._commands:smatch", command="smatch", inputs="AMR graphs"))
register_mode(Mode("structured", "relations, events, n-ary relations and templates (unified metrics)",
                   "accord.structured._commands:structured_metrics", command="structured",
                   inputs="records"))
register_mode(Mode("qa", "GATE's Corpus QA: strict, lenient and average P/R/F by type, with features",
                   "accord.diff._commands:qa", command="qa", inputs="annotation sets",
                   result_modes=("gate",)))
register_mode(Mode("diff", "GATE's Annotation Diff: each pair of annotations and its outcome",
                   "accord.diff._commands:gate_diff", command="diff", inputs="annotation sets",
                   result_modes=("gate",)))
register_mode(Mode("benchmark", "GATE's corpus benchmark: a key, a system before and after a change",
                   "accord.diff._commands:benchmark", command="benchmark", inputs="annotation sets", sides=3,
                   result_modes=("gate",)))
register_mode(Mode("agreement", "agreement between annotators: kappa family, alpha, IAA F, gamma, unitizing alpha",
                   "accord.agreement._commands:agree", command="agree",
                   inputs="annotators' labels or annotation sets", sides=0,
                   result_modes=("ratings", "annotation-sets", "corpus-qa", "iaa", "gamma", "alpha-u")))
