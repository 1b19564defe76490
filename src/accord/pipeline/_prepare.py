"""The preparation stage's checks: the names a user gives (attributes, equivalences, ignored, content and token
labels) must be names the corpora or the task hold, and the shard context of :mod:`accord.parallel`."""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from contextvars import ContextVar

from .._support.names import check_names
from .._support.surface import spelled
from ..errors import LabelCaseWarning
from ..model import Corpus
from ..model.schema import Task

__all__ = ["corpus_names", "check_label_case", "check_user_names", "in_shard", "IN_SHARD"]


def corpus_names(corpora: Sequence[Corpus], attributes: bool = True) -> tuple[set[str], set[str]]:
    """The labels and (with ``attributes``) the attribute names the corpora's annotations use."""
    labels: set[str] = set()
    names: set[str] = set()
    for corpus in corpora:
        for doc in corpus.values():
            for a in doc.annotations:
                labels.add(a.label)
                if attributes:
                    names.update(a.attributes)
    return labels, names


def check_label_case(labels: Iterable[str]) -> None:
    """Warn (:class:`~accord.errors.LabelCaseWarning`, once, naming every group) when labels of the inputs differ only
    by case: ``PER`` and ``per`` score as two labels, a likely mistake of one side's export."""
    groups: dict[str, list[str]] = {}
    for label in labels:
        groups.setdefault(label.casefold(), []).append(label)
    clashes = sorted(sorted(g) for g in groups.values() if len(g) > 1)
    if clashes:
        shown = "; ".join(" and ".join(repr(x) for x in g) for g in clashes[:5])
        more = f" and {len(clashes) - 5} more" if len(clashes) > 5 else ""
        option = spelled("equivalence_classes", flag="--equivalence-class")
        warnings.warn(LabelCaseWarning(f"labels that differ only by case score as different labels: {shown}{more} "
                                       f"(one name for each: {option})"),
                      stacklevel=3)


def check_user_names(gold: Corpus | None, pred: Corpus | None, task: Task | None, attributes: Sequence[str],
                      equivalences: Mapping[str, str], ignore: Sequence[str],
                      content_annotations: Sequence[str] | None = None,
                      token_annotations: Sequence[str] | None = None,
                      seen: tuple[set[str], set[str]] | None = None) -> None:
    """Refuse an attribute, an equivalence member, an ignored, content or token label that neither side holds
    (nor the task declares): a misspelt name would silently change nothing. ``seen`` gives the labels and
    attribute names of the corpora instead of the corpora (:mod:`accord.parallel` gathers them from its shards)."""
    if not (attributes or equivalences or ignore or content_annotations or token_annotations):
        return
    if seen is None:
        assert gold is not None and pred is not None
        seen = corpus_names((gold, pred), bool(attributes))
    labels, names = set(seen[0]), set(seen[1])
    if task is not None:
        labels.update(task.labels)
        labels.update(task.effective)
        for spec in task.labels.values():
            names.update(spec.attributes)
    check_names(attributes, names, "attribute", spelled("attributes"))
    check_names(equivalences, labels, "label", spelled("equivalence_classes", flag="--equivalence-class"))
    check_names(ignore, labels | set(equivalences.values()), "label", spelled("ignore"))
    check_names(content_annotations or (), labels, "label", spelled("content_annotations"))
    check_names(token_annotations or (), labels, "label", spelled("token_annotations"))


IN_SHARD: ContextVar[bool] = ContextVar("accord_in_shard", default=False)
"""True while :func:`score` scores one shard for :mod:`accord.parallel` (whose caller checks the whole corpus)."""


def in_shard() -> bool:
    return IN_SHARD.get()
