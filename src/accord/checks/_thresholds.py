"""Thresholds of ``accord check``: ``f1=0.90,precision=0.85`` and ``LOC:f1=0.8``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..errors import OptionError

__all__ = ["parse_minimums", "parse_label_minimums", "threshold_value"]


def threshold_value(text: object, where: str) -> float:
    """A threshold as a fraction in [0, 1]: ``0.9`` or ``90%``; anything else is an :class:`OptionError` naming
    ``where`` (the option and its text)."""
    if isinstance(text, bool):
        raise OptionError(f"{where}: a threshold is a number from 0 to 1 (0.9) or a percent (90%), not {text!r}")
    if isinstance(text, (int, float)):
        value, percent = float(text), False
    else:
        raw = str(text).strip()
        percent = raw.endswith("%")
        try:
            value = float(raw[:-1] if percent else raw)
        except ValueError:
            raise OptionError(f"{where}: a threshold is a number from 0 to 1 (0.9) or a percent (90%), "
                              f"not {raw!r}") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise OptionError(f"{where}: a threshold is a finite number, not {text!r}")
    if percent:
        value /= 100
    if not 0 <= value <= 1:
        hint = f" (did you mean {value / 100:g}, or {value:g}%?)" if not percent and 1 < value <= 100 else ""
        raise OptionError(f"{where}: {text!r} is not a rate from 0 to 1 or a percent from 0% to 100%{hint}")
    return value


def parse_minimums(spec: str | Mapping[str, object] | None, option: str = "--min") -> dict[str, float]:
    """``"f1=0.90,precision=0.85"`` (or a mapping ``{"f1": 0.9}``) as ``{rate: fraction}``."""
    if spec is None:
        return {}
    items: list[tuple[str, object]]
    if isinstance(spec, Mapping):
        items = [(str(k), v) for k, v in spec.items()]
    else:
        items = []
        for part in str(spec).split(","):
            part = part.strip()
            if not part:
                continue
            name, sep, text = part.partition("=")
            if not sep or not name.strip():
                raise OptionError(f"{option}: expected RATE=VALUE such as f1=0.90, got {part!r}")
            items.append((name.strip(), text))
    out: dict[str, float] = {}
    for rate, value in items:
        if rate in out:
            raise OptionError(f"{option}: {rate} is given twice")
        out[rate] = threshold_value(value, f"{option} {rate}")
    if not out and not isinstance(spec, Mapping):
        raise OptionError(f"{option}: expected RATE=VALUE such as f1=0.90, got {spec!r}")
    return out


def parse_label_minimums(specs: Sequence[str] | Mapping[str, Mapping[str, object] | str] | None
                         ) -> dict[str, dict[str, float]]:
    """``["LOC:f1=0.8", "PER:precision=0.9,f1=0.85"]`` (or ``{"LOC": {"f1": 0.8}}``) as
    ``{label: {rate: fraction}}``. A label is everything before the last ``:`` that precedes the first ``=``."""
    out: dict[str, dict[str, float]] = {}
    if not specs:
        return out
    if isinstance(specs, Mapping):
        pairs = [(str(label), rates) for label, rates in specs.items()]
    elif isinstance(specs, str):
        raise OptionError(f"--label: a list of LABEL:RATE=VALUE, not the string {specs!r}")
    else:
        pairs = []
        for spec in specs:
            head = str(spec).split("=", 1)[0]
            cut = head.rfind(":")
            if cut <= 0:
                raise OptionError(f"--label: expected LABEL:RATE=VALUE such as LOC:f1=0.8, got {spec!r}")
            pairs.append((str(spec)[:cut], str(spec)[cut + 1:]))
    for label, rates in pairs:
        parsed = parse_minimums(rates, f"--label {label}")
        target = out.setdefault(label, {})
        for rate, value in parsed.items():
            if rate in target:
                raise OptionError(f"--label {label}: {rate} is given twice")
            target[rate] = value
    return out
