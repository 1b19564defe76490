"""Parsing JSON and checking its shape declaratively, with errors that give the JSON path.

A *shape* says what a JSON value must be. Shapes are built from :data:`STRING`,
:data:`INTEGER` (a JSON integer, not ``true``/``false``), :data:`NUMBER` (finite),
:data:`BOOLEAN`, :data:`NULL`, :data:`ANY`, :class:`ListOf`, :class:`Object` and
:class:`OneOf`. :func:`check` walks a value against a shape without recursion on the
input's depth and raises :class:`~accord.errors.FormatError` at the first violation::

    DOC = Object({"id": STRING, "tokens": ListOf(STRING)}, required=("id",))
    check(obj, DOC, path=p, line=3)   # "p:3: $.tokens[2]: expected a string, got an array"

:func:`parse_json` refuses what the JSON standard does not allow (``NaN``, ``Infinity``)
and input nested deeper than :data:`MAX_DEPTH`, instead of a ``RecursionError``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from ..errors import FormatError

__all__ = ["MAX_DEPTH", "Shape", "STRING", "INTEGER", "NUMBER", "BOOLEAN", "NULL", "ANY", "SCALAR", "ListOf",
           "Object", "OneOf", "Nullable", "check", "parse_json", "json_type"]

MAX_DEPTH = 200
"""Deepest nesting of arrays and objects accepted in any JSON input."""


_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "a boolean"), (int, "an integer"), (float, "a number"), (str, "a string"), (list, "an array"),
    (dict, "an object"))
"""Python types of parsed JSON and their names, ``bool`` before ``int`` (a bool is an int in Python)."""


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, with an article: ``an array``, ``a string``..."""
    if value is None:
        return "null"
    return next((name for t, name in _JSON_TYPES if isinstance(value, t)), type(value).__name__)


class Shape:
    """What a JSON value must be; ``describe`` says it in words for the error message."""

    def describe(self) -> str:  # pragma: no cover - every shape overrides it
        raise NotImplementedError

    def accepts(self, value: Any) -> bool:
        """Whether the value itself (not its contents) has this shape."""
        raise NotImplementedError  # pragma: no cover


@dataclass(frozen=True)
class _Scalar(Shape):
    name: str
    test: Callable[[Any], bool]

    def describe(self) -> str:
        return self.name

    def accepts(self, value: Any) -> bool:
        return self.test(value)


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


STRING = _Scalar("a string", lambda v: isinstance(v, str))
INTEGER = _Scalar("an integer", _is_integer)
NUMBER = _Scalar("a number", _is_number)
BOOLEAN = _Scalar("a boolean", lambda v: isinstance(v, bool))
NULL = _Scalar("null", lambda v: v is None)
SCALAR = _Scalar("a string, number or boolean", lambda v: isinstance(v, (str, bool)) or _is_number(v))
ANY = _Scalar("any value", lambda v: True)


@dataclass(frozen=True)
class ListOf(Shape):
    """An array whose every element has the shape ``item`` (and, optionally, a length range)."""

    item: Shape
    min_length: int = 0
    max_length: int | None = None

    def describe(self) -> str:
        size = ""
        if self.max_length is not None and self.max_length == self.min_length:
            size = f" of {self.min_length}"
        elif self.min_length:
            size = f" of at least {self.min_length}"
        return f"an array{size} of {self.item.describe().removeprefix('a ').removeprefix('an ')}s" \
            if isinstance(self.item, _Scalar) else f"an array{size}"

    def accepts(self, value: Any) -> bool:
        return (isinstance(value, list) and len(value) >= self.min_length
                and (self.max_length is None or len(value) <= self.max_length))


@dataclass(frozen=True)
class Object(Shape):
    """An object with these fields; ``required`` must be present, others may be.

    ``extra`` is the shape of fields not listed (``None``: they are not checked);
    a ``closed`` object has no fields but those listed.
    """

    fields: Mapping[str, Shape]
    required: Sequence[str] = ()
    extra: Shape | None = None
    name: str = "an object"
    closed: bool = False

    def describe(self) -> str:
        if self.required:
            return f"{self.name} with " + ", ".join(f'"{r}"' for r in self.required)
        return self.name

    def accepts(self, value: Any) -> bool:
        """A dict (a :class:`OneOf` also asks for the required fields and, if closed, no others)."""
        return isinstance(value, dict)

    def fits(self, value: Any) -> bool:
        return (isinstance(value, dict) and all(r in value for r in self.required)
                and (not self.closed or all(k in self.fields for k in value)))


@dataclass(frozen=True)
class OneOf(Shape):
    """The first of ``options`` that accepts the value itself is used for its contents."""

    options: tuple[Shape, ...] = field(default_factory=tuple)
    name: str = ""

    def describe(self) -> str:
        return self.name or " or ".join(o.describe() for o in self.options)

    def accepts(self, value: Any) -> bool:
        return any(_fits(o, value) for o in self.options)


def _fits(shape: Shape, value: Any) -> bool:
    return shape.fits(value) if isinstance(shape, Object) else shape.accepts(value)


def Nullable(shape: Shape) -> OneOf:  # noqa: N802 - reads as a shape constructor
    """``shape`` or ``null``."""
    return OneOf((NULL, shape), name=f"{shape.describe()} or null")


def _child(path: str, key: str | int) -> str:
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


def check(value: Any, shape: Shape, *, path: object = None, line: int | None = None, where: str = "$",
          prefix: str = "") -> None:
    """Check ``value`` against ``shape``; a :class:`FormatError` names the JSON path of the first violation.

    ``prefix`` is put before the JSON path in the message (a document id, say).
    """
    stack: list[tuple[Any, Shape, str]] = [(value, shape, where)]
    while stack:
        v, s, at = stack.pop()
        if isinstance(s, OneOf):
            chosen = next((o for o in s.options if _fits(o, v)), None)
            if chosen is None:
                _fail(prefix, at, s, v, path, line)
            s = chosen
        if not s.accepts(v):
            _fail(prefix, at, s, v, path, line)
        if isinstance(s, ListOf):
            if not (isinstance(s.item, _Scalar) and s.item is ANY):
                item = s.item
                if isinstance(item, _Scalar):
                    for k, x in enumerate(v):
                        if not item.accepts(x):
                            _fail(prefix, _child(at, k), item, x, path, line)
                else:
                    stack.extend((x, item, _child(at, k)) for k, x in reversed(list(enumerate(v))))
        elif isinstance(s, Object):
            for r in s.required:
                if r not in v:
                    raise FormatError(f"{prefix}{at}: expected {s.describe()}; \"{r}\" is missing",
                                      path=path, line=line)
            for k in reversed(list(v)):
                if s.closed and k not in s.fields:
                    raise FormatError(f"{prefix}{_child(at, k)}: unexpected field in {s.describe()}",
                                      path=path, line=line)
                sub = s.fields.get(k, s.extra)
                if sub is not None:
                    stack.append((v[k], sub, _child(at, k)))


def _fail(prefix: str, at: str, shape: Shape, value: Any, path: object, line: int | None) -> NoReturn:
    got = json_type(value)
    if isinstance(value, list) and isinstance(shape, ListOf) and got == "an array":
        got = f"an array of {len(value)}"
    elif isinstance(value, float) and not math.isfinite(value):
        got = repr(value)
    raise FormatError(f"{prefix}{at}: expected {shape.describe()}, got {got}", path=path, line=line)


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def parse_json(text: str, *, path: object = None, line: int | None = None) -> Any:
    """Parse JSON text; errors (syntax, ``NaN``, nesting deeper than :data:`MAX_DEPTH`) name the place."""
    depth = _nesting_depth(text)
    if depth > MAX_DEPTH:
        raise FormatError(f"JSON nested {depth} levels deep; accord reads at most {MAX_DEPTH}", path=path, line=line)
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        if line is None:
            raise FormatError(f"not valid JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})",
                              path=path) from None
        raise FormatError(f"not valid JSON ({exc.msg} at column {exc.colno})", path=path, line=line) from None
    except ValueError as exc:   # NaN, Infinity
        raise FormatError(f"not valid JSON ({exc})", path=path, line=line) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise FormatError("JSON nested too deeply", path=path, line=line) from None


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_EMPTY_PAIR = re.compile(r"\[\]|\{\}")


def _nesting_depth(text: str) -> int:
    """The deepest bracket nesting of JSON text outside strings; when the text has no more opening brackets
    than :data:`MAX_DEPTH`, their number (a bound within the limit) instead.

    Above that bound, the brackets outside strings are kept. Without a backslash in the text, the deepest
    running count of their opening less closing brackets is the depth (:func:`_running_depth`, one numpy pass);
    otherwise each pass removes every empty pair (one level of the deepest nesting a pass). Input whose brackets
    do not balance, or (with a backslash) that is nested deeper than the limit, is measured by
    :func:`_exact_depth`.
    """
    opens = text.count("[") + text.count("{")
    if opens <= MAX_DEPTH:
        return opens
    marks = _brackets_without_escapes(text)
    if marks is not None:
        return _running_depth(marks, text)
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    depth = 0
    while brackets and depth <= MAX_DEPTH:
        fewer = _EMPTY_PAIR.sub("", brackets)
        if len(fewer) == len(brackets):
            break
        brackets = fewer
        depth += 1
    return depth if not brackets else _exact_depth(text)


_NOT_MARK = bytes(b for b in range(256) if b not in b'"[]{}')


def _running_depth(brackets: bytes, text: str) -> int:
    """The deepest running count of opening less closing brackets in ``brackets`` (the ASCII brackets of
    ``text`` outside strings): ``[`` and ``{`` have bit 1 set, ``]`` and ``}`` not, so each bracket's step is
    that bit times two less one. A count below zero or not back to zero at the end: :func:`_exact_depth`."""
    import numpy as np

    if not brackets:
        return 0
    step = (np.frombuffer(brackets, dtype=np.uint8) & 2).astype(np.int32)
    step -= 1
    running = np.cumsum(step)
    if running[-1] != 0 or running.min() < 0:
        return _exact_depth(text)
    return int(running.max())


def _brackets_without_escapes(text: str) -> bytes | None:
    """The brackets of JSON text outside strings (ASCII bytes), as ``_NOT_BRACKET.sub("", _STRING.sub("", text))``
    gives them,
    for text without a backslash and with an even number of quotes (each string then runs from a quote to the
    next): the quotes and brackets kept by one ``bytes.translate`` (a character of several UTF-8 bytes has none
    below 0x80), the pieces between the pairs of quotes dropped. None for other text."""
    if "\\" in text:
        return None
    marks = text.encode("utf-8", "surrogatepass").translate(None, _NOT_MARK)
    if marks.count(b'"') % 2:
        return None
    return b"".join(marks.split(b'"')[::2])


def _exact_depth(text: str) -> int:
    """The deepest bracket nesting of JSON text outside strings, by a cumulative sum over its characters."""
    import numpy as np

    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    quotes = np.flatnonzero(codes == 0x22)
    in_string = np.zeros(len(codes), dtype=bool)
    if len(quotes):
        # a quote after an odd run of backslashes is escaped: find each run's length from the
        # position of the last character before it that is not a backslash
        positions = np.arange(len(codes))
        last_other = np.maximum.accumulate(np.where(codes != 0x5C, positions, -1))
        before = quotes - 1
        run = np.where(before >= 0, before - last_other[np.maximum(before, 0)], 0)
        real = quotes[run % 2 == 0]
        toggles = np.zeros(len(codes), dtype=np.int64)
        toggles[real] = 1
        in_string = (np.cumsum(toggles) % 2) == 1
    step = np.zeros(len(codes), dtype=np.int64)
    step[(codes == 0x5B) | (codes == 0x7B)] = 1
    step[(codes == 0x5D) | (codes == 0x7D)] = -1
    step[in_string] = 0
    depth = np.cumsum(step)
    return int(depth.max()) if len(depth) else 0
