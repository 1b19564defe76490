"""A judge of generated strings (``--align none --judge module:function``), kept honest: consulted only for the pairs
the strict (and relaxed) matching left undecided, its verdicts cached in a file so that a rerun is deterministic and
the verdicts can be audited.

The judge is a Python callable the user names (``module:function`` on the command line, a callable or that string
from Python), never a name read from an input file. It is called as ``judge(gold, pred)`` with two records, dicts
``{"document": ID, "text": STRING, "label": LABEL}`` (the strings as written, before normalisation: the gold one
as the gold text has it), of the same document and label, and returns a verdict: ``True``/``False``, or a number
from 0 to 1 (a similarity). A verdict of ``True`` or at least 0.5 may pair the two strings; among such pairs, the
pairing is one-to-one and of largest total verdict (``True`` counting 1), as for the relaxed similarities.

The cache (``--judge-cache FILE``) is JSON lines, one verdict a line: ``{"gold": RECORD, "pred": RECORD, "score":
VERDICT, "judge": NAME}``, keyed by the two records (not the judge: delete the file to judge again with another).
It is read first, and each new verdict is appended as soon as it is given. With a cache and no judge, the cached
verdicts are used and a pair without one is left undecided (not matched; a warning counts them).
"""

from __future__ import annotations

import importlib
import json
import math
import os
import sys
import warnings
from collections.abc import Callable
from typing import Any

from .._support.surface import spelled
from ..errors import AccordWarning, FormatError, OptionError, PluginError

__all__ = ["DEFAULT_LIMIT", "MATCH_AT", "JudgeCache", "check_verdict", "load_judge", "record_key"]

DEFAULT_LIMIT = 1000
"""The most pairs the judge is called for in one run (``--judge-limit``); more is refused before the first call."""

MATCH_AT = 0.5
"""The least verdict that pairs two strings."""

Record = dict[str, Any]


def load_judge(spec: Any) -> tuple[Callable[[Record, Record], Any] | None, str | None]:
    """The judge callable and its name from ``module:function`` or a callable (``None``: no judge).

    The current directory is looked in for the module too (as ``python -m`` does), so that a judge written beside
    the data is found.

    Raises
    ------
    PluginError
        Not ``module:function``, a module that cannot be imported, no such function, or not callable.
    """
    if spec is None:
        return None, None
    if callable(spec):
        name = f"{getattr(spec, '__module__', None) or '?'}:{getattr(spec, '__qualname__', None) or repr(spec)}"
        return spec, name
    if not isinstance(spec, str):
        raise PluginError(f"{spelled('judge')} must be 'module:function' or a callable; got {type(spec).__name__}")
    module, colon, attr = spec.partition(":")
    if not (module.strip() and colon and attr.strip()):
        raise PluginError(f"{spelled('judge', cli_value=spec)}: a judge is named as module:function; got {spec!r}")
    added = os.getcwd() not in sys.path and "" not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())
    try:
        mod = importlib.import_module(module.strip())
    except Exception as e:     # the user's module: any error while importing it is named, not a traceback
        raise PluginError(f"judge {spec!r}: module {module.strip()!r} cannot be imported "
                          f"({type(e).__name__}: {_one_line(e)})") from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
    fn: Any = mod
    for part in attr.strip().split("."):
        fn = getattr(fn, part, None)
        if fn is None:
            raise PluginError(f"judge {spec!r}: module {module.strip()!r} has no {attr.strip()!r}")
    if not callable(fn):
        raise PluginError(f"judge {spec!r}: {attr.strip()!r} is not callable")
    return fn, spec


def _one_line(e: BaseException) -> str:
    text = " ".join(str(e).split())
    return text[:200] + ("..." if len(text) > 200 else "")


def _pair_text(gold: Record, pred: Record) -> str:
    return (f"document {gold['document']!r}, label {gold['label']!r}: gold {gold['text']!r}, "
            f"predicted {pred['text']!r}")


def check_verdict(value: Any, judge: str, gold: Record, pred: Record) -> float:
    """A verdict as a number from 0 to 1 (``True`` 1, ``False`` 0).

    Raises
    ------
    PluginError
        Anything else (naming the judge and the pair).
    """
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    try:
        import numpy as np

        if isinstance(value, np.bool_):
            return 1.0 if bool(value) else 0.0
        if isinstance(value, (np.integer, np.floating)):
            value = float(value)
    except ImportError:  # pragma: no cover - numpy is a dependency
        pass
    if isinstance(value, (int, float)) and not math.isnan(value) and 0 <= value <= 1:
        return float(value)
    shown = repr(value)
    shown = shown[:80] + "..." if len(shown) > 80 else shown
    raise PluginError(f"judge {judge!r} returned {shown} for {_pair_text(gold, pred)}; a judge returns True, False "
                      "or a number from 0 to 1")


def call_judge(fn: Callable[[Record, Record], Any], name: str, gold: Record, pred: Record) -> float:
    """The judge's verdict on one pair (an exception it raises is a :class:`PluginError` naming the pair)."""
    try:
        value = fn(dict(gold), dict(pred))
    except Exception as e:     # the user's code: its failure is named with the pair, not a traceback
        raise PluginError(f"judge {name!r} failed on {_pair_text(gold, pred)}: {type(e).__name__}: "
                          f"{_one_line(e)}") from None
    return check_verdict(value, name, gold, pred)


def record_key(gold: Record, pred: Record) -> str:
    """The cache key of a pair of records."""
    return json.dumps([[gold["document"], gold["text"], gold["label"]], [pred["document"], pred["text"],
                                                                          pred["label"]]], ensure_ascii=False)


def _record(value: Any, field: str, path: str, line: int) -> Record:
    if not isinstance(value, dict):
        raise FormatError(f"{field!r} must be an object with document, text and label", path=path, line=line)
    for k in ("document", "text", "label"):
        if not isinstance(value.get(k), str):
            raise FormatError(f"{field}.{k} must be a string", path=path, line=line)
    return {k: value[k] for k in ("document", "text", "label")}


class JudgeCache:
    """The verdicts of a cache file (or of this run only, without a file), by pair of records."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = None if path is None else os.fspath(path)
        self.verdicts: dict[str, float] = {}
        if self.path is not None and os.path.exists(self.path):
            self._read()

    def _read(self) -> None:
        assert self.path is not None
        try:
            with open(self.path, encoding="utf-8") as f:
                lines = f.read().split("\n")
        except (OSError, UnicodeDecodeError) as e:
            raise FormatError(f"the judge's cache cannot be read ({type(e).__name__}: {_one_line(e)})",
                              path=self.path) from None
        for n, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except (ValueError, RecursionError):
                raise FormatError("not a JSON object (a cached verdict is one object a line: gold, pred, score)",
                                  path=self.path, line=n) from None
            if not isinstance(obj, dict):
                raise FormatError("a cached verdict is an object with gold, pred and score", path=self.path, line=n)
            gold, pred = _record(obj.get("gold"), "gold", self.path, n), _record(obj.get("pred"), "pred", self.path, n)
            score = obj.get("score")
            if isinstance(score, bool):
                score = 1.0 if score else 0.0
            if not isinstance(score, (int, float)) or not 0 <= score <= 1:
                raise FormatError(f"score must be true, false or a number from 0 to 1; got {score!r}", path=self.path,
                                  line=n)
            key = record_key(gold, pred)
            if key in self.verdicts and self.verdicts[key] != float(score):
                raise FormatError(f"a second, different verdict ({score!r}, not {self.verdicts[key]!r}) for "
                                  f"{_pair_text(gold, pred)}", path=self.path, line=n)
            self.verdicts[key] = float(score)

    def open_for_verdicts(self) -> None:
        """Make sure new verdicts can be appended (the file created when absent), before the judge is asked."""
        if self.path is None:
            return
        try:
            with open(self.path, "a", encoding="utf-8"):
                pass
        except OSError as e:
            raise OptionError(f"{spelled('judge_cache', cli_value=self.path)}: cannot be written "
                              f"({type(e).__name__}: {_one_line(e)})") from None

    def get(self, gold: Record, pred: Record) -> float | None:
        return self.verdicts.get(record_key(gold, pred))

    def add(self, gold: Record, pred: Record, score: float, judge: str) -> None:
        """Keep a new verdict, appended to the file at once."""
        self.verdicts[record_key(gold, pred)] = score
        if self.path is None:
            return
        line = json.dumps({"gold": gold, "pred": pred, "score": score, "judge": judge}, ensure_ascii=False)
        try:
            needs_newline = os.path.exists(self.path) and os.path.getsize(self.path) > 0 and _last_byte(
                self.path) != b"\n"
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(("\n" if needs_newline else "") + line + "\n")
        except OSError as e:
            raise OptionError(f"{spelled('judge_cache', cli_value=self.path)}: the verdict cannot be written "
                              f"({type(e).__name__}: {_one_line(e)})") from None


def _last_byte(path: str) -> bytes:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1)


def warn_undecided(count: int) -> None:
    """A cache without a judge left ``count`` pairs undecided."""
    warnings.warn(f"{count} pair(s) of strings left over have no cached verdict and no judge to ask "
                  f"({spelled('judge')}): counted as not matching", AccordWarning, stacklevel=4)
