"""TextEE's event files (Huang et al., 2024; ej0cl6/TextEE) for ``accord structured --preset textee`` and the
``event-argument`` metrics.

JSON lines, one object a line, of three shapes:

* TextEE's processed data (the key): ``{"doc_id", "wnd_id", "event_mentions": [{"event_type", "trigger":
  {"start", "end"}, "arguments": [{"entity_id", "role"}, ...]}, ...], "entity_mentions": [{"id", "start",
  "end"}, ...]}``; an argument's span is its entity's, as TextEE's ``load_E2E_data`` reads it;
* an end-to-end prediction: ``{"doc_id", "wnd_id", "events": [{"trigger": [start, end, type], "arguments":
  [[start, end, role], ...]}, ...]}``;
* an argument-extraction prediction, one event a line: ``{"doc_id", "wnd_id", "trigger": [start, end, type],
  "arguments": [[start, end, role], ...]}``.

Events come back by window, ``(doc_id, wnd_id)``, in file order: ``(trigger, arguments)`` with ``trigger = (start,
end, type)`` and each argument ``(start, end, role)``. A malformed line is a :class:`~accord.errors.FormatError`
naming the file, the line and the field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import FormatError, quoted
from ..text.jsonl import json_lines
from .records import Mention, Records

__all__ = ["TextEEFile", "read_textee", "is_textee", "window_name", "textee_records", "events_or_records"]

Span = tuple[int, int, Any]


@dataclass
class TextEEFile:
    """A TextEE file's events by window, and its shape: ``"data"`` (processed data), ``"e2e"`` or ``"eae"``."""

    shape: str
    windows: dict[tuple[str, str], list[tuple[Span, list[Span]]]] = field(default_factory=dict)


def _triple(value: Any, path: Path, line: int, where: str) -> Span:
    if (isinstance(value, list) and len(value) >= 3 and all(isinstance(v, int) and not isinstance(v, bool)
                                                            for v in value[:2]) and isinstance(value[2], str)):
        return (value[0], value[1], value[2])
    raise FormatError(f"{where}: expected [start, end, label] (two integers and a string), got {quoted(value)}",
                      path=path, line=line)


def _get(obj: Any, name: str, path: Path, line: int, where: str) -> Any:
    if not isinstance(obj, dict):
        raise FormatError(f"{where}: expected an object, got {quoted(obj)}", path=path, line=line)
    if name not in obj:
        raise FormatError(f"{where}: missing {name!r}", path=path, line=line)
    return obj[name]


def _list(value: Any, path: Path, line: int, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormatError(f"{where}: expected a list, got {quoted(value)}", path=path, line=line)
    return value


def _int(value: Any, path: Path, line: int, where: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise FormatError(f"{where}: expected an integer, got {quoted(value)}", path=path, line=line)


def _str(value: Any, path: Path, line: int, where: str) -> str:
    if isinstance(value, str):
        return value
    raise FormatError(f"{where}: expected a string, got {quoted(value)}", path=path, line=line)


def _shape(obj: dict[str, Any]) -> str | None:
    if "event_mentions" in obj:
        return "data"
    if "events" in obj:
        return "e2e"
    if "trigger" in obj and "arguments" in obj:
        return "eae"
    return None


def _data_events(obj: dict[str, Any], path: Path, line: int) -> list[tuple[Span, list[Span]]]:
    entities: dict[Any, tuple[int, int]] = {}
    for k, e in enumerate(_list(obj.get("entity_mentions", []), path, line, "entity_mentions")):
        w = f"entity_mentions[{k}]"
        ident = _str(_get(e, "id", path, line, w), path, line, f"{w} id")
        entities[ident] = (_int(_get(e, "start", path, line, w), path, line, f"{w} start"),
                           _int(_get(e, "end", path, line, w), path, line, f"{w} end"))
    events = []
    for k, ev in enumerate(_list(_get(obj, "event_mentions", path, line, "line"), path, line, "event_mentions")):
        w = f"event_mentions[{k}]"
        trig = _get(ev, "trigger", path, line, w)
        etype = _str(_get(ev, "event_type", path, line, w), path, line, f"{w} event_type")
        trigger = (_int(_get(trig, "start", path, line, f"{w} trigger"), path, line, f"{w} trigger start"),
                   _int(_get(trig, "end", path, line, f"{w} trigger"), path, line, f"{w} trigger end"), etype)
        args = []
        for j, a in enumerate(_list(_get(ev, "arguments", path, line, w), path, line, f"{w} arguments")):
            wa = f"{w} arguments[{j}]"
            ent = _str(_get(a, "entity_id", path, line, wa), path, line, f"{wa} entity_id")
            if ent not in entities:
                raise FormatError(f"{wa}: entity_id {quoted(ent)} is not one of the line's entity_mentions",
                                  path=path, line=line)
            args.append((*entities[ent], _str(_get(a, "role", path, line, wa), path, line, f"{wa} role")))
        events.append((trigger, args))
    return events


def _predicted_event(ev: Any, path: Path, line: int, where: str) -> tuple[Span, list[Span]]:
    trigger = _triple(_get(ev, "trigger", path, line, where), path, line, f"{where} trigger")
    args = [_triple(a, path, line, f"{where} arguments[{j}]")
            for j, a in enumerate(_list(_get(ev, "arguments", path, line, where), path, line, f"{where} arguments"))]
    return trigger, args


def read_textee(path: str | Path) -> TextEEFile:
    """A TextEE file's events by window (module docstring). A file mixing shapes is an error."""
    p = Path(path)
    out: TextEEFile | None = None
    for lineno, obj in json_lines(p):
        if not isinstance(obj, dict):
            raise FormatError(f"expected an object, got {quoted(obj)}", path=p, line=lineno)
        shape = _shape(obj)
        if shape is None:
            raise FormatError("expected TextEE's processed data ('event_mentions'), an end-to-end prediction "
                              "('events') or an argument-extraction prediction ('trigger' and 'arguments')",
                              path=p, line=lineno)
        if out is None:
            out = TextEEFile(shape)
        elif shape != out.shape:
            raise FormatError(f"this line is of TextEE's {shape!r} shape but the file began with {out.shape!r} "
                              "lines", path=p, line=lineno)
        doc, wnd = (_get(obj, n, p, lineno, "line") for n in ("doc_id", "wnd_id"))
        if not isinstance(doc, str) or not isinstance(wnd, str):
            raise FormatError("'doc_id' and 'wnd_id' must be strings", path=p, line=lineno)
        if shape == "data":
            events = _data_events(obj, p, lineno)
        elif shape == "e2e":
            events = [_predicted_event(ev, p, lineno, f"events[{k}]")
                      for k, ev in enumerate(_list(obj["events"], p, lineno, "events"))]
        else:
            events = [_predicted_event(obj, p, lineno, "line")]
        if shape != "eae" and (doc, wnd) in out.windows:
            raise FormatError(f"window {wnd!r} of document {doc!r} appears twice", path=p, line=lineno)
        out.windows.setdefault((doc, wnd), []).extend(events)
    return out if out is not None else TextEEFile("e2e")


def is_textee(path: str | Path) -> bool:
    """Whether the first line of a JSON-lines file is one of TextEE's shapes (with ``doc_id`` and ``wnd_id``)."""
    try:
        for _, obj in json_lines(Path(path)):
            return isinstance(obj, dict) and "wnd_id" in obj and _shape(obj) is not None
    except (FormatError, OSError):
        return False
    return False


def window_name(doc: str, wnd: str) -> str:
    """A window as a document of accord's results: its ``wnd_id`` when it begins with its ``doc_id`` (TextEE's
    ids do), else ``doc_id/wnd_id``."""
    return wnd if wnd.startswith(doc) else f"{doc}/{wnd}"


def textee_records(path: str | Path) -> Records:
    """A TextEE file as accord's ``events`` records, one document per window (:func:`window_name`)."""
    docs = Records()
    for (doc, wnd), events in read_textee(path).windows.items():
        docs[window_name(doc, wnd)] = [
            {"trig": {"mention": Mention(t[0], t[1]), "type": t[2]},
             "args": [{"mention": Mention(a[0], a[1]), "role": a[2]} for a in args]} for t, args in events]
    docs.kinds = frozenset({"events"})
    return docs


def events_or_records(path: str | Path) -> Records:
    """The ``events`` records of a file: TextEE's (:func:`textee_records`) when its first line has TextEE's shape,
    else accord's JSON-lines records (:func:`accord.formats.records.records.read_records`)."""
    from .records import read_records

    return textee_records(path) if is_textee(path) else read_records(Path(path), "events")
