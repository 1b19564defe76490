"""``accord validate``: what is wrong with tag files, with line numbers (a bounded list and the counts).

An invalid transition is named at the tag that breaks the scheme (the tag of :mod:`accord.model.tagging`'s
``invalid`` positions): for IOB2 and IOB1 these are the tags ``seqscore validate`` names, one per invalid
transition; under schemes where a tag needs the one after it (IOBES, BILOU, IOE1, IOE2), a lone ``I-X`` is one
problem here where seqscore counts its two transitions (from ``O`` and to the end).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from ..errors import OptionError
from ..model import tagging
from ._columns import TagColumn, classify, read_tag_column

__all__ = ["Problem", "Validation", "validate", "MAX_PROBLEMS"]

MAX_PROBLEMS = 50
"""How many problems a validation lists by default (the others are counted)."""

_OTHER_SCHEMES = ("IOB2", "IOBES", "BILOU")


@dataclass(frozen=True)
class Problem:
    """One problem: the file, its line (``None``: the file as a whole), the kind (``transition``, ``scheme``,
    ``tag``, ``label``, ``tokens``) and a one-line message."""

    path: str
    line: int | None
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}" if self.line is not None else f"{self.path}: {self.message}"


@dataclass
class Validation:
    """The problems found (the first ``limit`` of them), how many of each kind, and each file's size."""

    limit: int = MAX_PROBLEMS
    problems: list[Problem] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)
    files: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def valid(self) -> bool:
        return self.total == 0

    def add(self, path: str, line: int | None, kind: str, message: str) -> None:
        self.counts[kind] += 1
        if len(self.problems) < self.limit:
            self.problems.append(Problem(path, line, kind, message))

    def to_dict(self) -> dict[str, object]:
        return {"valid": self.valid, "problems": self.total, "by_kind": dict(self.counts),
                "listed": [asdict(p) for p in self.problems], "files": self.files}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    def __str__(self) -> str:
        lines = [str(p) for p in self.problems]
        if self.total > len(self.problems):
            lines.append(f"... and {self.total - len(self.problems):,} more problems (--max-problems shows more)")
        for path, size in self.files.items():
            what = f"{_n(size['tokens'], 'token')}, {_n(size['sentences'], 'sentence')} and " \
                f"{_n(size['documents'], 'document')}"
            lines.append(f"{path}: {_n(size['problems'], 'problem')} in {what}" if size["problems"] else
                         f"{path}: no problems in {what}")
        return "\n".join(lines)

    def verdict(self) -> str:
        """The last line: ``valid``, or ``invalid: N problems (KIND COUNT, ...)``."""
        if not self.total:
            return "valid"
        kinds = ", ".join(f"{k} {v:,}" for k, v in sorted(self.counts.items()))
        return f"invalid: {_n(self.total, 'problem')} ({kinds})"


def _n(count: int, word: str) -> str:
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _shown(tag: str) -> str:
    return repr(tag)


def _check_column(col: TagColumn, scheme: str, labels: Sequence[str] | None, out: Validation) -> int:
    """Add the problems of one column; return how many."""
    before = out.total
    canon = tagging.canonical_scheme(scheme)
    table, d_prefix, d_types, wrong = classify(col.distinct, canon)
    letters = ", ".join(sorted(tagging._LETTERS[canon]))
    index = col.index
    # tags the scheme does not read, each place listed (in file order)
    bad_codes = [k for k, w in enumerate(wrong) if w]
    if bad_codes:
        foreign = sorted({col.distinct[k][0] for k in bad_codes if wrong[k] == "scheme"})
        guess = next((s for s in _OTHER_SCHEMES if set(foreign) <= set(tagging._LETTERS[s])), None)
        hint = f"; the file mixes schemes: is it {guess}?" if guess and guess != canon else \
            "; the file mixes schemes"
        for i in np.flatnonzero(np.isin(index, bad_codes)).tolist():
            tag = col.distinct[int(index[i])]
            if wrong[int(index[i])] == "scheme":
                out.add(col.path, int(col.lines[i]), "scheme",
                        f"{tag!r}: {tag[0]} is not a letter of {canon} ({letters}){hint}")
            else:
                out.add(col.path, int(col.lines[i]), "tag", f"{tag!r} is not a {canon} tag (letters {letters} "
                        f"and 'O', a letter then '-' and the label)")
    # invalid transitions, the unreadable tags taken as O
    if len(index):
        prefix, types = d_prefix[index], d_types[index]
        chunks = tagging.decode(prefix, types, col.first, scheme=canon, repair="conlleval")
        n = len(index)
        for i in chunks.invalid.tolist():
            before_tag = "a sentence start" if col.first[i] else _shown(col.tag(i - 1))
            after_tag = "the sentence end" if i + 1 >= n or col.first[i + 1] else _shown(col.tag(i + 1))
            out.add(col.path, int(col.lines[i]), "transition",
                    f"invalid {canon} transition: {col.tag(i)!r} between {before_tag} and {after_tag}")
    # labels outside the given list
    if labels is not None:
        allowed = set(labels)
        unknown = [k for k, t in enumerate(d_types.tolist()) if t >= 0 and table.types[t] not in allowed]
        if unknown:
            shown = ", ".join(sorted(allowed))
            for i in np.flatnonzero(np.isin(index, unknown)).tolist():
                label = table.types[int(d_types[int(index[i])])]
                out.add(col.path, int(col.lines[i]), "label", f"label {label!r} of {col.tag(i)!r} is not among "
                        f"--labels ({shown})")
    return out.total - before


def _compare_columns(a: TagColumn, b: TagColumn, out: Validation) -> None:
    """Problems of two files that should hold the same tokens: different counts of documents, sentences, tokens
    (the first sentence whose length differs named by its lines in both files), or different token text."""
    ca, cb = a.cols, b.cols
    if a.documents != b.documents:
        out.add(b.path, None, "tokens", f"{b.documents:,} documents, {a.path} has {a.documents:,}")
    sa = np.diff(np.append(np.asarray(ca.sentence_starts, dtype=np.int64), a.tokens))   # type: ignore[attr-defined]
    sb = np.diff(np.append(np.asarray(cb.sentence_starts, dtype=np.int64), b.tokens))   # type: ignore[attr-defined]
    shared = min(len(sa), len(sb))
    differ = np.flatnonzero(sa[:shared] != sb[:shared])
    if len(differ) or len(sa) != len(sb) or a.tokens != b.tokens:
        k = int(differ[0]) if len(differ) else shared
        if k < shared:
            la = int(a.lines[ca.sentence_starts[k]])      # type: ignore[attr-defined]
            lb = int(b.lines[cb.sentence_starts[k]])      # type: ignore[attr-defined]
            out.add(b.path, lb, "tokens", f"sentence {k + 1} has {_n(int(sb[k]), 'token')} here and {int(sa[k]):,} "
                    f"at line {la} of {a.path} ({b.tokens:,} tokens in all against {a.tokens:,})")
        else:
            out.add(b.path, None, "tokens", f"{len(sb):,} sentences and {b.tokens:,} tokens, {a.path} has "
                    f"{len(sa):,} and {a.tokens:,}")
        return
    ta, tb = ca.tokens, cb.tokens       # type: ignore[attr-defined]
    for i in range(a.tokens):
        if ta[i] != tb[i]:
            out.add(b.path, int(b.lines[i]), "tokens", f"token {tb[i]!r}, line {int(a.lines[i])} of {a.path} has "
                    f"{ta[i]!r}")
            break


def validate(paths: Sequence[str | Path], *, scheme: str = "IOB2", labels: Sequence[str] | None = None,
             tag_column: int = -1, limit: int = MAX_PROBLEMS, encoding: str | None = None) -> Validation:
    """Validate one tag file, or two (each file, and the second's tokens against the first's).

    Parameters
    ----------
    paths : one or two paths
        CoNLL column files.
    scheme : str
        The tag scheme whose transitions and letters are checked.
    labels : sequence of str, optional
        The labels allowed (others are problems of kind ``label``).
    tag_column : int
        The tag column (0-based, negative from the end).
    limit : int
        How many problems are listed (all are counted).

    Returns
    -------
    Validation
        ``valid`` when no problem was found.
    """
    if not 1 <= len(paths) <= 2:
        raise OptionError(f"validate takes one file, or two to compare their tokens; got {len(paths)}")
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
        raise OptionError(f"--max-problems must be a whole number >= 0; got {limit!r}")
    tagging.canonical_scheme(scheme)     # an unknown scheme refused before any file is read
    out = Validation(limit=limit)
    columns = [read_tag_column(p, tag_column, encoding) for p in paths]
    for col in columns:
        found = _check_column(col, scheme, labels, out)
        out.files[col.path] = {"tokens": col.tokens, "sentences": col.sentences, "documents": col.documents,
                               "problems": found}
    if len(columns) == 2:
        before = out.total
        _compare_columns(columns[0], columns[1], out)
        out.files[columns[1].path]["problems"] += out.total - before
    return out
