"""``accord structured --preset textee``: TextEE's scorer (ej0cl6/TextEE ``TextEE/scorer.py``).

Every score is over *sets* of tuples of a window (``doc_id``, ``wnd_id``), a repeated tuple counted once:

* ``trigger_id`` (Tri-I): ``(start, end)`` of each trigger; ``trigger_cls`` (Tri-C): and its event type;
* ``argument_id`` (Arg-I): ``(event type, start, end)`` of each argument; ``argument_cls`` (Arg-C): and its role;
* ``argument_attached_id`` / ``argument_attached_cls``: the same with the trigger's ``(start, end)`` too.

TextEE's argument-extraction evaluation (one prediction a gold event) has the four argument scores only.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import AccordWarning, PairingError
from ..formats.records.textee import TextEEFile, window_name
from ..result import Measure, RecordsKind, Result, document_table

__all__ = ["TEXTEE_SCRIPT", "TEXTEE_MEASURES", "textee_sets", "textee_result"]

TEXTEE_SCRIPT = "ej0cl6/TextEE TextEE/scorer.py @ 25d5dcacdd748ed7bdbbdffbde0f628adc6704ba"
TEXTEE_MEASURES = ("trigger_id", "trigger_cls", "argument_id", "argument_cls", "argument_attached_id",
                   "argument_attached_cls")


def textee_sets(events: list[tuple[Any, list[Any]]]) -> dict[str, set[tuple[Any, ...]]]:
    """The six sets of TextEE's scorer for one window's events."""
    out: dict[str, set[tuple[Any, ...]]] = {m: set() for m in TEXTEE_MEASURES}
    for (ts, te, ttype), args in events:
        out["trigger_id"].add((ts, te))
        out["trigger_cls"].add((ts, te, ttype))
        for s, e, role in args:
            out["argument_id"].add((ttype, s, e))
            out["argument_cls"].add((ttype, s, e, role))
            out["argument_attached_id"].add((ts, te, ttype, s, e))
            out["argument_attached_cls"].add((ts, te, ttype, s, e, role))
    return out


def _check_gold_triggers(key: TextEEFile, response: TextEEFile, response_path: Any) -> None:
    """An argument-extraction prediction is made for a gold event: its trigger must be one of its window's (TextEE's
    scorer asserts it), else a :class:`~accord.errors.PairingError`; a gold event without a prediction line is
    scored as predicting no argument, with a warning."""
    unpredicted = 0
    for w, gold_events in key.windows.items():
        gold = [t for t, _ in gold_events]
        predicted = [t for t, _ in response.windows.get(w, [])]
        for t in predicted:
            if t not in gold:
                raise PairingError(f"{response_path or 'response'}: window {w[1]!r}: an argument-extraction line "
                                   f"for the trigger {list(t)!r}, which is no gold event's (TextEE's argument "
                                   "extraction is given the gold triggers)")
        unpredicted += sum(1 for t in gold if t not in predicted)
    if unpredicted:
        warnings.warn(AccordWarning(f"{response_path or 'response'}: {unpredicted} gold event(s) have no "
                                    "argument-extraction line, scored as predicting no argument"), stacklevel=3)


def textee_result(key: TextEEFile, response: TextEEFile, *, key_path: Any = None, response_path: Any = None,
                  inputs: Mapping[str, Any] | None = None) -> Result:
    """TextEE's scores by window: six measures for an end-to-end prediction, the four argument ones for an
    argument-extraction prediction. A response window the key lacks is a :class:`~accord.errors.PairingError`
    (TextEE's scorer stops on it too); a key window the response lacks is scored against nothing, with a
    warning."""
    if key.shape != "data" and key.windows:     # an empty file is any shape
        raise PairingError(f"{key_path or 'key'}: the key must be TextEE's processed data (lines with "
                           f"'event_mentions'), not a {key.shape!r} prediction")
    if response.shape == "data" and response.windows:
        raise PairingError(f"{response_path or 'response'}: the response must be TextEE's predictions (lines with "
                           "'events', or 'trigger' and 'arguments'), not processed data")
    extra = [w for w in response.windows if w not in key.windows]
    if extra:
        doc, wnd = extra[0]
        raise PairingError(f"{response_path or 'response'}: {len(extra)} window(s) the key ({key_path or 'key'}) "
                           f"lacks, e.g. {wnd!r} of document {doc!r}")
    missing = [w for w in key.windows if w not in response.windows]
    if missing and response.shape == "e2e":      # argument extraction: counted by gold event below
        warnings.warn(AccordWarning(f"{response_path or 'response'}: {len(missing)} window(s) of the key have no "
                                    f"prediction line (first: {missing[0][1]!r}), scored as predicting nothing"),
                      stacklevel=2)
    if response.shape == "eae":
        _check_gold_triggers(key, response, response_path)
    names = TEXTEE_MEASURES if response.shape == "e2e" else TEXTEE_MEASURES[2:]
    kind = RecordsKind()
    rows: dict[str, list[list[int]]] = {m: [] for m in names}
    documents = [window_name(*w) for w in key.windows]
    for w, gold_events in key.windows.items():
        gold, pred = textee_sets(gold_events), textee_sets(response.windows.get(w, []))
        for m in names:
            g, p, c = len(gold[m]), len(pred[m]), len(gold[m] & pred[m])
            rows[m].append([g, p, c, c, p, g])
    measures = {m: Measure(kind, document_table(kind.fields, documents, np.asarray(
        rows[m], dtype=np.float64).reshape(len(documents), len(kind.fields)))) for m in names}
    task = "E2E" if response.shape == "e2e" else "EAE"
    options = {"preset": "textee", "profile": f"textee {task} ({TEXTEE_SCRIPT})", "official_script": TEXTEE_SCRIPT,
               "task": task}
    return Result("structured", "structured", measures, nested=True, options=options, inputs=inputs)
