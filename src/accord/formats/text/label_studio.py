"""Label Studio's JSON export of text tasks: labelled spans and relations, from annotations or predictions.

The export is a JSON array of tasks (or one task object, as Label Studio exports a task alone),
``{"id": 1, "data": {"text": ...}, "annotations": [{"result": [...],
"was_cancelled": false, ...}], "predictions": [{"result": [...], "model_version": ...}]}``. A task is a
document (id: the task's ``id``). Its results of type ``labels`` are spans (``value.start``, ``value.end``,
one annotation per name in ``value.labels``); results of type ``relation`` are spanless annotations named by
their first label (``relation`` when they have none) with the attributes ``from`` and ``to`` pointing to the
spans (``direction: left`` swaps them, ``bi`` adds ``direction="bi"``). Other result types (``choices``,
``textarea``, ``rating``...) are not spans; they are left out with a warning that counts them.

Which result list is read is the annotation set (``--gold-set``/``--pred-set``, ``annotation_set=``):
``annotations`` (the default: each task's one annotation that was not cancelled; several are an error that
says how to choose), ``annotations:N`` (the N-th, from 1), ``predictions`` or ``predictions:N``. A task without
it is left out, with a warning naming the tasks; pairing then reports it as a document on one side only. Every
annotator at once (``accord agree export.json``): :func:`read_label_studio_annotators`, the users named by
``completed_by``.

The text is ``data.text``, or the one string of ``data`` that holds every span's ``value.text`` at its
offsets. Label Studio counts offsets in UTF-16 code units (JavaScript strings); they are converted to code
points for texts with characters outside the Basic Multilingual Plane. A span whose ``value.text`` differs
from the text at its offsets is an error naming the task and the result.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from ..._support.io import read_text
from ...errors import AccordWarning, FormatError, OptionError, quoted
from ...model import Attributes, Corpus, Document
from .._json import parse_json
from .._refs import RawAnnotation, Ref, build_annotations
from .._registry import Format, file_head, option_hint, register
from ._span_relations import check_spans_and_relations, relation_ends

__all__ = ["read_label_studio", "read_label_studio_annotators", "annotator_name", "write_label_studio",
           "utf16_offsets"]

_SPAN_TYPES = ("labels",)


def utf16_offsets(text: str) -> list[int] | None:
    """For each UTF-16 offset into ``text``, the code-point offset (``None`` when both are the same)."""
    if all(ord(c) <= 0xFFFF for c in text):
        return None
    out = []
    for k, c in enumerate(text):
        out.append(k)
        if ord(c) > 0xFFFF:
            out.append(k)   # the low surrogate: inside the character; a span cannot start or end there
    out.append(len(text))
    return out


def _choose(task: dict[str, Any], which: str, where: str) -> dict[str, Any] | None:
    """The annotation or prediction of a task that ``which`` names, or None if the task has none."""
    kind, _, number = which.partition(":")
    if kind not in ("annotations", "predictions"):
        raise OptionError(f"a Label Studio annotation set is annotations, annotations:N, predictions or "
                          f"predictions:N; got {which!r}")
    items = task.get(kind) or []
    if not isinstance(items, list):
        raise FormatError(f"{where}: {kind!r} is not a list", path=None)
    if kind == "annotations":
        items = [a for a in items if isinstance(a, dict) and not a.get("was_cancelled")]
    if not items:
        return None
    if number:
        if not number.isdigit() or int(number) < 1:
            raise OptionError(f"{which!r}: the number after ':' counts from 1")
        k = int(number)
        return items[k - 1] if k <= len(items) else None
    if len(items) > 1:
        raise FormatError(f"{where} has {len(items)} {kind}; choose one with {kind}:1 ... {kind}:{len(items)} "
                          f"({option_hint('set')})", path=None)
    return items[0]


def _text(data: Any, results: list[Any], where: str) -> str | None:
    """The task's text: ``data.text``, else the one string of ``data`` that holds every span; ``None`` for a task
    without text spans whose text cannot be told (a classification of a review's fields, labels of a dialogue's
    paragraphs): its results are not read, and no offset needs a text."""
    if not isinstance(data, dict):
        raise FormatError(f"{where}: 'data' is not an object", path=None)
    if isinstance(data.get("text"), str):
        return data["text"]
    strings = {k: v for k, v in data.items() if isinstance(v, str)}
    spans = [r.get("value") for r in results if isinstance(r, dict) and r.get("type") in _SPAN_TYPES]
    if len(strings) != 1 and not spans:
        return None
    for value in strings.values() if spans else ():
        if all(isinstance(s, dict) and isinstance(s.get("text"), str) and
               value[s.get("start", 0):s.get("end", 0)] == s["text"] for s in spans):
            return value
    if len(strings) == 1:
        return next(iter(strings.values()))
    raise FormatError(f"{where}: which field of 'data' is the text? none is 'text' (fields: "
                      f"{', '.join(data) or 'none'})", path=None)


def _offset(value: Any, field: str, table: list[int] | None, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise FormatError(f"{where}: {field} {quoted(value)} is not an integer offset", path=None)
    if table is None:
        return value
    if not 0 <= value < len(table):
        raise FormatError(f"{where}: {field} {value} lies outside the text", path=None)
    return table[value]


def _task_where(task: Any, k: int, p: Path) -> tuple[str, str]:
    """A task's document id and its name in messages."""
    if not isinstance(task, dict):
        raise FormatError(f"task {k + 1} is not an object", path=p)
    doc_id = str(task.get("id", k + 1))
    return doc_id, f"{p}: task {doc_id if len(doc_id) <= 40 else quoted(doc_id)}"


def _task_document(task: Any, k: int, which: str, p: Path, skipped: dict[str, int]) -> Document | None:
    doc_id, where = _task_where(task, k, p)
    chosen = _choose(task, which, where)
    if chosen is None:
        return None
    return _chosen_document(task, chosen, doc_id, where, which, p, skipped)


def _chosen_document(task: dict[str, Any], chosen: Any, doc_id: str, where: str, which: str, p: Path,
                     skipped: dict[str, int]) -> Document:
    """The document of a task's one annotation or prediction (``chosen``; ``which`` names it in messages)."""
    results = chosen.get("result") if isinstance(chosen, dict) else None
    if not isinstance(results, list):
        raise FormatError(f"{where}: the annotation or prediction read ({which}) has no 'result' list", path=None)
    text = _text(task.get("data"), results, where)
    table = None if text is None else utf16_offsets(text)
    raw: list[RawAnnotation] = []
    relations = []
    for n, r in enumerate(results):
        if not isinstance(r, dict):
            raise FormatError(f"{where}: result {n + 1} is not an object", path=None)
        kind = r.get("type")
        rid = r.get("id")
        here = f"{where}, result {rid if rid is not None else n + 1}"
        if kind in _SPAN_TYPES:
            value = r.get("value")
            if not isinstance(value, dict):
                raise FormatError(f"{here}: no 'value' object", path=None)
            assert text is not None   # (a task with text spans has a text: _text)
            start = _offset(value.get("start"), "start", table, here)
            end = _offset(value.get("end"), "end", table, here)
            if not 0 <= start <= end <= len(text):
                raise FormatError(f"{here}: span [{start}, {end}) does not fit the text ({len(text)} characters)",
                                  path=None)
            if isinstance(value.get("text"), str) and text[start:end] != value["text"]:
                raise FormatError(f"{here}: the text at [{start}, {end}) is {quoted(text[start:end])}, the result "
                                  f"says {quoted(value['text'])}", path=None)
            labels = value.get(kind)
            if not isinstance(labels, list) or not labels or not all(isinstance(x, str) for x in labels):
                raise FormatError(f"{here}: value.{kind} must be a non-empty list of label names", path=None)
            for m, label in enumerate(labels):
                ident = None if rid is None else (str(rid) if m == 0 else f"{rid}#{m}")
                raw.append(RawAnnotation(label, start, end, {}, ident))
        elif kind == "relation":
            relations.append((r, here))
        else:
            skipped[str(kind)] = skipped.get(str(kind), 0) + 1
    for r, here in relations:
        source, target = r.get("from_id"), r.get("to_id")
        if source is None or target is None:
            raise FormatError(f"{here}: a relation needs from_id and to_id", path=None)
        if r.get("direction") == "left":
            source, target = target, source
        labels = r.get("labels") or ["relation"]
        if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise FormatError(f"{here}: 'labels' must be a list of names", path=None)
        attrs: dict[str, Any] = {"from": Ref(str(source)), "to": Ref(str(target))}
        if r.get("direction") == "bi":
            attrs["direction"] = "bi"
        for label in labels:
            raw.append(RawAnnotation(label, None, None, dict(attrs), None))
    anns = build_annotations(raw, path=p, doc_id=doc_id)
    return Document(doc_id, anns, text, None, None, Attributes(source=str(p), annotation_set=which))


def read_label_studio(path: str | Path, *, annotation_set: str | None = None, encoding: str | None = None,
                      **_ignored: Any) -> Corpus:
    """Read a Label Studio JSON export (see the module docstring)."""
    p = Path(path)
    which = annotation_set or "annotations"
    tasks = parse_json(read_text(p, encoding), path=p)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise FormatError("expected a JSON array of Label Studio tasks", path=p)
    docs: list[Document] = []
    without: list[str] = []
    skipped: dict[str, int] = {}
    for k, task in enumerate(tasks):
        doc = _task_document(task, k, which, p, skipped)
        if doc is None:
            without.append(str(task.get("id", k + 1)))
        else:
            docs.append(doc)
    if without:
        shown = ", ".join(without[:5]) + (f" and {len(without) - 5} more" if len(without) > 5 else "")
        warnings.warn(AccordWarning(f"{p}: {len(without)} task(s) without {which}, left out: {shown}"), stacklevel=2)
    if skipped:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(skipped.items()))
        warnings.warn(AccordWarning(f"{p}: results left out, accord reads text spans (labels) and relations: "
                                    f"{kinds}"), stacklevel=2)
    try:
        return Corpus(docs, name=str(p))
    except ValueError as exc:
        raise FormatError(str(exc), path=p) from None


def annotator_name(annotation: dict[str, Any], where: str) -> str | None:
    """The annotator of an annotation: ``completed_by``, a user id or, in older exports, a user object (its
    ``email``, else its ``id``); ``None`` when it has none."""
    who = annotation.get("completed_by")
    if isinstance(who, dict):
        who = who.get("email") or who.get("id")
    if who is None:
        return None
    if isinstance(who, bool) or not isinstance(who, (int, str)) or who == "":
        raise FormatError(f"{where}: completed_by {quoted(who)} is not a user", path=None)
    return str(who)


def read_label_studio_annotators(path: str | Path, *, encoding: str | None = None,
                                 **_ignored: Any) -> dict[str, Corpus]:
    """Every annotator of a Label Studio export as a corpus, ``{annotator: Corpus}``.

    The annotators are the users of the annotations (``completed_by``; cancelled annotations left out), or, in an
    export without users, the annotations' positions (``annotations:1``, ``annotations:2``...); the model's
    predictions are the annotator ``predictions`` (``predictions:N`` where a task has several). A user's document
    is the task; a user with two annotations of one task is an error naming the task.
    """
    p = Path(path)
    tasks = parse_json(read_text(p, encoding), path=p)
    if isinstance(tasks, dict):
        tasks = [tasks]
    if not isinstance(tasks, list):
        raise FormatError("expected a JSON array of Label Studio tasks", path=p)
    docs: dict[str, list[Document]] = {}
    skipped: dict[str, int] = {}
    users = None       # whether the annotations name their users (every one, or none)
    for k, task in enumerate(tasks):
        doc_id, where = _task_where(task, k, p)
        entries: list[tuple[str, Any]] = []
        annotations = task.get("annotations") or []
        predictions = task.get("predictions") or []
        if not isinstance(annotations, list) or not isinstance(predictions, list):
            raise FormatError(f"{where}: 'annotations' and 'predictions' must be lists", path=None)
        kept = [a for a in annotations if not (isinstance(a, dict) and a.get("was_cancelled"))]
        for n, a in enumerate(kept, 1):
            if not isinstance(a, dict):
                raise FormatError(f"{where}: annotation {n} is not an object", path=None)
            who = annotator_name(a, where)
            if users is None:
                users = who is not None
            if (who is not None) != users:
                raise FormatError(f"{where}: annotation {n} {'names no' if who is None else 'names a'} user "
                                  "(completed_by) while others do not: the annotators cannot be told", path=None)
            name = who if who is not None else f"annotations:{n}"
            if any(e == name for e, _ in entries):
                raise FormatError(f"{where}: user {quoted(name)} has two annotations of this task; keep one",
                                  path=None)
            entries.append((name, a))
        for n, a in enumerate(predictions, 1):
            entries.append(("predictions" if len(predictions) == 1 else f"predictions:{n}", a))
        for name, chosen in entries:
            docs.setdefault(name, []).append(_chosen_document(task, chosen, doc_id, where, name, p, skipped))
    if skipped:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(skipped.items()))
        warnings.warn(AccordWarning(f"{p}: results left out, accord reads text spans (labels) and relations: "
                                    f"{kinds}"), stacklevel=2)
    order = sorted(docs, key=lambda n: (n.startswith("predictions"), not n.isdigit(), int(n) if n.isdigit() else 0, n))
    out = {}
    for name in order:
        try:
            out[name] = Corpus(docs[name], name=f"{p}:{name}")
        except ValueError as exc:
            raise FormatError(str(exc), path=p) from None
    return out


def write_label_studio(corpus: Corpus, path: str | Path, *, annotation_set: str | None = None,
                       **_ignored: Any) -> None:
    """Write one task per document with its spans and relations as the task's one annotation (or prediction,
    with ``annotation_set="predictions"``). Documents need their text; a spanless annotation must point to two
    spans through ``from`` and ``to`` (or ``arg1`` and ``arg2``)."""
    kind = (annotation_set or "annotations").partition(":")[0]
    if kind not in ("annotations", "predictions"):
        raise OptionError(f"write to annotations or predictions, not {annotation_set!r}")
    tasks = []
    for doc in corpus.documents:
        numbers = check_spans_and_relations(doc, path, "Label Studio")
        assert doc.text is not None  # check_spans_and_relations refuses a document without text
        results: list[dict[str, Any]] = []
        for a in doc.annotations:
            if a.start is not None:
                assert a.end is not None  # make_annotation: a start comes with an end
                results.append({"id": f"r{numbers[id(a)]}", "from_name": "label", "to_name": "text",
                                "type": "labels",
                                "value": {"start": _to_utf16(doc.text, a.start), "end": _to_utf16(doc.text, a.end),
                                          "text": doc.text[a.start:a.end], "labels": [a.label]}})
            else:
                ends = relation_ends(a)
                results.append({"from_id": f"r{numbers[id(ends[0])]}", "to_id": f"r{numbers[id(ends[1])]}",
                                "type": "relation", "direction": "right", "labels": [a.label]})
        task_id: Any = int(doc.id) if doc.id.isdigit() else doc.id
        tasks.append({"id": task_id, "data": {"text": doc.text}, kind: [{"result": results}]})
    Path(path).write_text(json.dumps(tasks, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _to_utf16(text: str, offset: int) -> int:
    return offset + sum(1 for c in text[:offset] if ord(c) > 0xFFFF)


def _sniff(p: Path) -> bool:
    """A JSON array of tasks or one task object (an export of one task): ``data`` with the text, and no
    ``signal`` (MAT JSON's). (``annotations`` may come after a long text, past the head.)"""
    head = file_head(p, 4096)
    if head is None:
        return False
    first = head.lstrip()
    return first.startswith(("[", "{")) and '"data"' in head and '"signal"' not in head


register(Format("label-studio", read_label_studio, write_label_studio, (".json",), _sniff,
                "Label Studio JSON export of text tasks: labelled spans and relations"))
