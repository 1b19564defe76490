"""The exception hierarchy of accord.

Every error accord raises on purpose derives from :class:`AccordError`, itself a
``ValueError``, so a caller can catch all of them at once. Each message names the
file, line, document or annotation concerned and what was expected.
"""

from __future__ import annotations

__all__ = [
    "AccordError",
    "FormatError",
    "SchemaError",
    "ValidationError",
    "SchemeError",
    "PairingError",
    "ProfileError",
    "TallyError",
    "OptionError",
    "OutputError",
    "PluginError",
    "MergeError",
    "StatisticsError",
    "RatingsError",
    "OntologyError",
    "AccordWarning",
    "AgreementWarning",
    "StatisticsWarning",
    "PileWarning",
    "NothingCountedWarning",
    "RepairWarning",
    "ShardedRunWarning",
    "JobsWarning",
    "quoted",
    "QUOTE_LIMIT",
]

QUOTE_LIMIT = 60
"""Characters of an input's text that a message quotes at most (:func:`quoted`)."""


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr`` of a piece of input for a message (a string, or any value: a JSON item, a list), shortened to about
    ``limit`` characters.

    A longer one keeps its first and last characters around an ellipsis and says its length, so a message quoting
    a span, a line or a field stays one short line whatever the input::

        >>> quoted("x" * 1000, 20)
        "'xxxxxxxxxxxxx…xxxxxxx' (1,000 characters)"
        >>> quoted([1, 2])
        '[1, 2]'
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(text) if isinstance(value, str) else text
    head = max(1, limit * 2 // 3)
    tail = max(1, limit - head)
    short = text[:head] + "…" + text[-tail:]
    return f"{short!r} ({len(text):,} characters)" if isinstance(value, str) else f"{short} ({len(text):,} characters)"


class AccordError(ValueError):
    """Root of every error raised by accord on bad input or bad options."""


class FormatError(AccordError):
    """A file cannot be read as the format it claims to be.

    The message starts with ``path:line:`` where a line is known.
    """

    def __init__(self, message: str, *, path: object = None, line: int | None = None):
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)
        self.path = path
        self.line = line


class SchemeError(FormatError):
    """An invalid tag sequence under a BIO-family scheme, when repair is ``error``."""


class SchemaError(AccordError):
    """A task file (annotation set descriptors, profiles) is malformed."""


class ValidationError(AccordError):
    """A document breaks a rule of the task schema."""


class ProfileError(AccordError):
    """A similarity or score profile cannot be applied (unknown label, bad dimension...)."""


class PairingError(AccordError):
    """Gold and prediction cannot be paired (unpaired documents, token mismatch, strata)."""


class TallyError(AccordError):
    """An accounting identity failed: an item was lost or counted twice.

    This signals a defect in accord, never a user mistake.
    """


class OptionError(AccordError):
    """An option value or a combination of options is not accepted."""


class OutputError(AccordError):
    """An output cannot be written where asked: a document id that cannot name a file, two ids sharing one file, a
    path leading outside the output folder, an output that would overwrite an input."""


class PluginError(AccordError):
    """A data file names code (``module:function``) that the user did not enable (``--plugins``,
    ``accord.register_method``), or an enabled plugin cannot be imported."""


class StatisticsError(AccordError):
    """A statistic cannot be drawn from the data: an interval or a paired test over a single resampling unit
    (one document, one sentence), or sentences asked of a result that does not know them."""


class MergeError(AccordError):
    """Two results cannot be merged: they share a document, or were computed by different commands, modes or
    options (merging adds results over disjoint documents)."""


class RatingsError(AccordError):
    """A ratings table cannot be read as items by raters (or as item, rater, label rows)."""


class OntologyError(AccordError):
    """An ontology or taxonomy cannot be used for the BDM (a cycle, an unknown concept)."""


class AccordWarning(UserWarning):
    """Root of accord's warnings: the result stands, but something the user should know happened."""


class AgreementWarning(AccordWarning):
    """An agreement coefficient met a degenerate case (no shared items, one category) and
    returned the value its documentation defines for it."""


class StatisticsWarning(AccordWarning):
    """A resampling statistic met a degenerate case (an interval undefined for a constant bootstrap
    distribution) and reported ``null`` for it."""


class RepairWarning(AccordWarning):
    """Invalid tag transitions were repaired (``--repair conlleval``) or their chunks dropped
    (``--repair discard``) while a column was read.

    ``path`` is the file, ``method`` the repair, ``count`` the number of invalid tags and
    ``first`` the first few as ``{"line", "tag", "previous"}`` dicts (``previous`` is the tag
    before, or ``None`` at a sentence start; tags given in Python have no line but a ``"place"``,
    their sentence and position).
    """

    def __init__(self, message: str, *, path: object = None, method: str = "conlleval", count: int = 0,
                 first: tuple[dict, ...] = (), parts: dict | None = None):
        super().__init__(message)
        self.path, self.method, self.count, self.first = path, method, count, first
        self.parts = parts or {}
        """What the message was made of (:func:`accord.model.tagging.repair_warning`), to merge the warnings of the
        shards of one file."""

    def to_dict(self) -> dict:
        return {"file": None if self.path is None else str(self.path), "method": self.method, "count": self.count,
                "first": [dict(x) for x in self.first]}


class ShardedRunWarning(AccordWarning):
    """``--jobs`` or ``--dask`` was asked for, but the comparison was scored in one process (the message says
    why: an input that cannot be cut at document boundaries, or shards that disagree with the plan)."""


class JobsWarning(AccordWarning):
    """``--jobs N`` started fewer than N processes: no more than the cores this process may run on, nor than
    the shards of the comparison (the message says which)."""


class NothingCountedWarning(AccordWarning):
    """Neither side holds anything the measure counts (empty files, documents without annotations): every rate
    is undefined and shows the zero-division convention's value, not a measured one."""


class LabelCaseWarning(AccordWarning):
    """Two labels of the inputs differ only by case (``PER`` and ``per``): they score as different labels, which
    is rarely what was meant (``equivalence_classes`` or ``--equivalence-class`` make them one)."""


class PileWarning(AccordWarning):
    """A block of overlapping spans was too large to compare every pair; it was paired over
    nearest-neighbour candidates (:mod:`accord.match.sparse`)."""
