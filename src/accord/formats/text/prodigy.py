"""Prodigy's JSON lines (``prodigy db-out``): the spans of answered tasks, by annotator.

Each line is a task: ``{"text": ..., "spans": [{"start", "end", "label", ...}], "answer": "accept", "tokens": [...],
"_input_hash": ..., "_task_hash": ..., "_annotator_id": ..., "_session_id": ..., "_view_id": ...}``. Spans are
character offsets into ``text`` (a span's ``text``, when given, must be the text at its offsets).

* Answers: only accepted tasks are read (``answers=`` chooses others, e.g. ``("accept", "reject")``); tasks
  answered otherwise are left out with a warning that counts them by answer. A task without ``answer`` (a stream
  of suggestions not yet answered) counts as accepted; an answer other than accept, reject and ignore is an error.
* Documents: the tasks of one input (``_input_hash``, else the text) are one document, its spans the union of
  the accepted tasks' (a binary recipe asks one span per task); its id is the input's number in the file, from 1, in
  order of first appearance (the line number when each input has one line).
* Annotators: ``_annotator_id``, else ``_session_id`` (``dataset-name`` of a named session). A file of several
  annotators is read one annotator at a time (``annotation_set=NAME``, ``--gold-set NAME``), or all at once by
  :func:`read_prodigy_annotators` (``accord agree FILE``), which keeps the documents every annotator accepted and
  says how many it left out. A folder of such files, one annotator each (each annotator's dataset exported
  alone), is read by :func:`read_prodigy_files` (``accord agree FOLDER``).
* ``relations`` and a choice interface's ``accept`` lists are left out with a warning that counts them.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ...errors import AccordWarning, FormatError, OptionError, quoted
from ...model import Attributes, Corpus, Document, make_annotation
from .._registry import Format, file_head, option_hint, register
from .jsonl import json_lines

__all__ = ["read_prodigy", "read_prodigy_annotators", "read_prodigy_files", "write_prodigy", "prodigy_keys", "ANSWERS"]

ANSWERS = ("accept", "reject", "ignore")
"""Prodigy's answers to a task."""

_KEYS = re.compile(r'"(?:_input_hash|_task_hash|_annotator_id|_session_id|_view_id)"\s*:'
                   r'|"answer"\s*:\s*"(?:accept|reject|ignore)"')


def prodigy_keys(line: str) -> bool:
    """Whether a JSON line carries keys Prodigy adds to a task (its hashes, session, view or answer)."""
    return line.startswith("{") and '"text"' in line and _KEYS.search(line) is not None


class _Task:
    __slots__ = ("line", "text", "spans", "answer", "annotator", "key", "binary")

    def __init__(self, line: int, text: str, spans: list[tuple[int, int, str]], answer: str, annotator: str | None,
                 key: str, binary: bool):
        self.line, self.text, self.spans, self.answer = line, text, spans, answer
        self.annotator, self.key, self.binary = annotator, key, binary


def _offset(value: Any, name: str, n: int, p: Path, line: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise FormatError(f"span {n}: {name} {quoted(value)} is not an offset (an integer >= 0)", path=p, line=line)
    return value


def _task(obj: Any, p: Path, line: int, left_out: dict[str, int]) -> _Task:
    if not isinstance(obj, dict):
        raise FormatError("expected a Prodigy task, an object with 'text'", path=p, line=line)
    text = obj.get("text")
    if not isinstance(text, str):
        raise FormatError("the task has no 'text' string (accord reads Prodigy's text tasks)", path=p, line=line)
    answer = obj.get("answer", "accept")
    if answer not in ANSWERS:
        raise FormatError(f"answer {quoted(answer)} is not one of {', '.join(ANSWERS)}", path=p, line=line)
    annotator = obj.get("_annotator_id", obj.get("_session_id"))
    if annotator is not None and not isinstance(annotator, (str, int)):
        raise FormatError(f"_annotator_id {quoted(annotator)} is not a name", path=p, line=line)
    key = obj.get("_input_hash")
    key = f"#{key}" if isinstance(key, (int, str)) and not isinstance(key, bool) else f"text:{text}"
    spans = []
    raw = obj.get("spans") or []
    if not isinstance(raw, list):
        raise FormatError("'spans' is not a list", path=p, line=line)
    for n, s in enumerate(raw, 1):
        if not isinstance(s, dict):
            raise FormatError(f"span {n} is not an object: {quoted(s)}", path=p, line=line)
        start, end = (_offset(s.get(name), name, n, p, line) for name in ("start", "end"))
        label = s.get("label")
        if not start <= end <= len(text):
            raise FormatError(f"span {n}: [{start}, {end}) does not fit the text ({len(text)} characters)",
                              path=p, line=line)
        if not isinstance(label, str) or not label:
            raise FormatError(f"span {n}: label {quoted(label)} is not a name", path=p, line=line)
        if isinstance(s.get("text"), str) and s["text"] != text[start:end]:
            raise FormatError(f"span {n}: the text at [{start}, {end}) is {quoted(text[start:end])}, the span says "
                              f"{quoted(s['text'])}", path=p, line=line)
        spans.append((start, end, label))
    for field in ("relations", "accept"):
        if obj.get(field):
            left_out[field] = left_out.get(field, 0) + 1
    return _Task(line, text, spans, answer, None if annotator is None else str(annotator), key,
                 obj.get("_is_binary") is True)


def _answers(answers: str | Iterable[str] | None) -> frozenset[str]:
    chosen = ("accept",) if answers is None else (answers.split(",") if isinstance(answers, str) else tuple(answers))
    unknown = [a for a in chosen if a not in ANSWERS]
    if unknown or not chosen:
        raise OptionError(f"Prodigy's answers are {', '.join(ANSWERS)}; got {', '.join(map(repr, unknown)) or 'none'}")
    return frozenset(chosen)


def _tasks(p: Path, encoding: str | None, answers: frozenset[str]) -> tuple[list[_Task], dict[str, int]]:
    """The tasks of the answers read, in file order; warnings for the tasks and fields left out."""
    left_out: dict[str, int] = {}
    tasks = [_task(obj, p, line, left_out) for line, obj in json_lines(p, encoding=encoding)]
    if not tasks:
        raise FormatError("no task in this file", path=p)
    dropped: dict[str, int] = {}
    for t in tasks:
        if t.answer not in answers:
            dropped[t.answer] = dropped.get(t.answer, 0) + 1
    if dropped:
        counts = ", ".join(f"{n} {a}" for a, n in sorted(dropped.items()))
        warnings.warn(AccordWarning(f"{p}: tasks answered otherwise than {'/'.join(sorted(answers))} left out: "
                                    f"{counts}"), stacklevel=3)
    if left_out:
        what = {"relations": "with relations (not read)", "accept": "with choices ('accept' lists, not read)"}
        warnings.warn(AccordWarning(f"{p}: " + ", ".join(f"{n} task(s) {what[k]}" for k, n in left_out.items())),
                      stacklevel=3)
    return [t for t in tasks if t.answer in answers], _numbers(tasks)


def _numbers(tasks: list[_Task]) -> dict[str, int]:
    """Each input's number, from 1, in order of first appearance (whatever the answers read)."""
    numbers: dict[str, int] = {}
    for t in tasks:
        numbers.setdefault(t.key, len(numbers) + 1)
    return numbers


def _corpus(tasks: list[_Task], numbers: dict[str, int], p: Path, who: str | None) -> Corpus:
    """One annotator's documents (``who``; ``None``: the tasks given, of one annotator or none)."""
    by_input: dict[str, list[_Task]] = {}
    for t in tasks:
        by_input.setdefault(t.key, []).append(t)
    docs = []
    merged = 0
    for key, group in sorted(by_input.items(), key=lambda kv: numbers[kv[0]]):
        if len(group) > 1 and not all(t.binary for t in group):
            merged += 1
        spans = dict.fromkeys(s for t in group for s in t.spans)      # (the same span in two tasks: once)
        anns = tuple(make_annotation(label, start, end) for start, end, label in spans)
        meta = {"source": str(p)} if who is None else {"source": str(p), "annotator": who}
        docs.append(Document(str(numbers[key]), anns, group[0].text, None, None, Attributes(meta)))
    if merged:
        warnings.warn(AccordWarning(f"{p}: {merged} input(s) answered in several tasks by "
                                    f"{who if who is not None else 'one annotator'}: their spans are united"),
                      stacklevel=3)
    return Corpus(docs, name=str(p) if who is None else f"{p}:{who}")


def _annotators(tasks: list[_Task]) -> list[str]:
    return list(dict.fromkeys(t.annotator for t in tasks if t.annotator is not None))


def read_prodigy(path: str | Path, *, annotation_set: str | None = None, answers: str | Iterable[str] | None = None,
                 encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read one annotator's documents from a Prodigy JSON-lines file (see the module docstring).

    Raises
    ------
    FormatError
        A malformed task (naming its line), or a file of several annotators without ``annotation_set``.
    OptionError
        An ``annotation_set`` that names no annotator of the file (the message lists them).
    """
    p = Path(path)
    tasks, numbers = _tasks(p, encoding, _answers(answers))
    every = _annotators(tasks)
    if annotation_set is not None:
        if annotation_set not in every:
            raise OptionError(f"{p}: no annotator {annotation_set!r} in this Prodigy file; its annotators: "
                              f"{', '.join(every[:10]) or 'none named'}")
        return _corpus([t for t in tasks if t.annotator == annotation_set], numbers, p, annotation_set)
    if len(every) > 1:
        shown = ", ".join(every[:5]) + (f" and {len(every) - 5} more" if len(every) > 5 else "")
        raise FormatError(f"{len(every)} annotators answered these tasks ({shown}); choose one with "
                          f"{option_hint('set')} NAME, or give the file alone to accord agree", path=p)
    return _corpus(tasks, numbers, p, every[0] if every else None)


def read_prodigy_annotators(path: str | Path, *, answers: str | Iterable[str] | None = None,
                            encoding: str | None = None, **_ignored: Any) -> dict[str, Corpus]:
    """Every annotator of a Prodigy file as a corpus, ``{annotator: Corpus}``, each holding the documents every
    annotator accepted (the others are left out with a warning that counts them); tasks without an annotator are
    an error when others have one."""
    p = Path(path)
    tasks, numbers = _tasks(p, encoding, _answers(answers))
    every = _annotators(tasks)
    anonymous = next((t for t in tasks if t.annotator is None), None)
    if anonymous is not None and every:
        raise FormatError("this task has no _annotator_id or _session_id while others do", path=p,
                          line=anonymous.line)
    if not every:      # one annotator, unnamed: named by the file
        return {p.stem: _corpus(tasks, numbers, p, p.stem)}
    return _shared({a: (p, [t for t in tasks if t.annotator == a]) for a in every}, numbers, str(p))


def _shared(groups: dict[str, tuple[Path, list[_Task]]], numbers: dict[str, int], where: str) -> dict[str, Corpus]:
    """Each annotator's corpus on the inputs every one of them accepted (the others counted in a warning)."""
    keys = [{t.key for t in tasks} for _, tasks in groups.values()]
    kept = set.intersection(*keys)
    left = len(set.union(*keys) - kept)
    if left and len(groups) > 1:
        warnings.warn(AccordWarning(f"{where}: {left} document(s) left out: not accepted by every annotator "
                                    f"({', '.join(list(groups)[:5])})"), stacklevel=3)
    return {a: _corpus([t for t in tasks if t.key in kept], numbers, f, a) for a, (f, tasks) in groups.items()}


def read_prodigy_files(paths: Iterable[str | Path], *, answers: str | Iterable[str] | None = None,
                       encoding: str | None = None, **_ignored: Any) -> dict[str, Corpus]:
    """Prodigy files of one annotator each (``prodigy db-out`` of each annotator's dataset), ``{annotator:
    Corpus}``: the annotator is the file's ``_annotator_id`` (else ``_session_id``, else the file's name); inputs
    are numbered over all the files (in order of first appearance, file after file), so that one input is one
    document id in every file; each corpus holds the inputs every file accepted (the others counted in a
    warning). A file of several annotators is an error naming it."""
    chosen = _answers(answers)
    groups: dict[str, tuple[Path, list[_Task]]] = {}
    numbers: dict[str, int] = {}
    for path in paths:
        p = Path(path)
        tasks, own = _tasks(p, encoding, chosen)
        for key in own:
            numbers.setdefault(key, len(numbers) + 1)
        every = _annotators(tasks)
        if len(every) > 1:
            raise FormatError(f"{len(every)} annotators answered these tasks ({', '.join(every[:5])}); a folder of "
                              "Prodigy files holds one annotator a file (give this file alone to accord agree)",
                              path=p)
        name = every[0] if every and all(t.annotator == every[0] for t in tasks) else p.stem
        if name in groups:
            raise FormatError(f"annotator {quoted(name)} is also the annotator of {groups[name][0].name}", path=p)
        groups[name] = (p, tasks)
    if not groups:
        raise FormatError("no Prodigy file", path=None)
    return _shared(groups, numbers, str(Path(next(iter(groups.values()))[0]).parent))


def write_prodigy(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """One accepted task per document: its text and spans (spanless annotations are an error)."""
    lines = []
    for doc in corpus.documents:
        if doc.text is None:
            raise FormatError(f"document {doc.id!r} has no text; a Prodigy task needs it", path=path)
        spans = []
        for a in doc.annotations:
            if a.start is None or a.end is None:
                raise FormatError(f"document {doc.id!r}: {a.label} has no span; accord writes Prodigy's spans only",
                                  path=path)
            spans.append({"start": a.start, "end": a.end, "text": doc.text[a.start:a.end], "label": a.label})
        lines.append(json.dumps({"text": doc.text, "spans": spans, "answer": "accept", "meta": {"id": doc.id}},
                                ensure_ascii=False))
    Path(path).write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def _sniff(p: Path) -> bool:
    head = file_head(p, 1 << 16)
    return head is not None and prodigy_keys(head.lstrip().split("\n", 1)[0])


register(Format("prodigy", read_prodigy, write_prodigy, (".jsonl",), _sniff,
                "Prodigy JSON lines (db-out): spans of accepted tasks, by annotator"))
