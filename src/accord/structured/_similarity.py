"""Similarities over typed values and records, built by composition (section 2 of the paper).

A similarity maps a predicted and a reference object to a number: ``[0, 1]`` for a
(normalized) similarity, ``[0, inf)`` for an unnormalized one. Every combinator here is a
:class:`Similarity`: call it on two objects to get the number. Records may be
dataclasses, named tuples, plain objects or dicts; fields are read by name (or by index
for plain tuples).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import OptionError

__all__ = ["Similarity", "exact", "product", "weighted", "func", "field", "get_field", "threshold"]


def get_field(obj: Any, name: str | int) -> Any:
    """A record's field: ``obj[name]`` for mappings and plain tuples by index, else ``getattr``."""
    if isinstance(obj, Mapping):
        try:
            return obj[name]
        except KeyError:
            raise OptionError(f"record {obj!r} has no field {name!r}") from None
    if isinstance(name, int):
        return obj[name]
    try:
        return getattr(obj, name)
    except AttributeError:
        raise OptionError(f"record {obj!r} has no field {name!r}") from None


class Similarity:
    """Base of all similarities: ``sim(pred, gold) -> float``.

    ``normalized`` says whether values stay in ``[0, 1]`` with ``sim(x, x) = 1``.
    ``self_score(x)`` is ``sim(x, x)``, the denominator a normalizer needs.
    """

    normalized: bool = True

    def __call__(self, pred: Any, gold: Any) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def self_score(self, x: Any) -> float:
        return float(self(x, x))


class _Exact(Similarity):
    """Discrete similarity, the Kronecker delta: ``δ(x, y) = [x = y]``."""

    def __call__(self, pred: Any, gold: Any) -> float:
        return 1.0 if pred == gold else 0.0

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return "exact"


exact: Similarity = _Exact()
"""``δ(x, y) = 1`` if ``x == y`` else 0."""


class _Func(Similarity):
    def __init__(self, fn: Callable[[Any, Any], float], normalized: bool):
        self.fn = fn
        self.normalized = normalized

    def __call__(self, pred: Any, gold: Any) -> float:
        return float(self.fn(pred, gold))

    def __repr__(self) -> str:
        return f"func({getattr(self.fn, '__name__', self.fn)!r})"


def func(fn: Callable[[Any, Any], float], *, normalized: bool = True) -> Similarity:
    """A user function as a similarity; say ``normalized=False`` if it can exceed 1."""
    if not callable(fn):
        raise OptionError(f"func() needs a callable (pred, gold) -> float, got {fn!r}")
    return _Func(fn, normalized)


def _as_similarity(sim: Any, where: str) -> Similarity:
    if isinstance(sim, Similarity):
        return sim
    if sim is None or sim is Ellipsis:
        return exact
    if callable(sim):
        return func(sim)
    raise OptionError(f"{where}: expected a similarity, got {sim!r}")


class _Field(Similarity):
    """Compare one field of two records with a similarity."""

    def __init__(self, name: str | int, sim: Similarity):
        self.name, self.sim = name, sim
        self.normalized = sim.normalized

    def __call__(self, pred: Any, gold: Any) -> float:
        return self.sim(get_field(pred, self.name), get_field(gold, self.name))

    def self_score(self, x: Any) -> float:
        return self.sim.self_score(get_field(x, self.name))

    def __repr__(self) -> str:
        return f"field({self.name!r}, {self.sim!r})"


def field(name: str | int, sim: Any = exact) -> Similarity:
    """``sim(pred.name, gold.name)``: one field of a record."""
    return _Field(name, _as_similarity(sim, f"field {name!r}"))


class _Product(Similarity):
    """``Π_f sim_f(pred.f, gold.f)`` (equation 2): every field must agree for full credit."""

    def __init__(self, fields: dict[str | int, Similarity]):
        self.fields = fields
        self.normalized = all(s.normalized for s in fields.values())

    def __call__(self, pred: Any, gold: Any) -> float:
        score = 1.0
        for name, sim in self.fields.items():
            score *= sim(get_field(pred, name), get_field(gold, name))
            if score == 0.0:
                return 0.0
        return score

    def self_score(self, x: Any) -> float:
        score = 1.0
        for name, sim in self.fields.items():
            score *= sim.self_score(get_field(x, name))
        return score

    def __repr__(self) -> str:
        return "product(" + ", ".join(f"{k}={v!r}" for k, v in self.fields.items()) + ")"


def product(*positional: Any, **fields: Any) -> Similarity:
    """The product similarity of records: ``Π_f sim_f(pred.f, gold.f)``.

    ``product(left=exact, right=exact)`` compares two fields by name; positional
    similarities compare plain tuples by index. ``...`` or ``None`` stands for ``exact``.
    """
    spec: dict[str | int, Similarity] = {i: _as_similarity(s, f"product field {i}") for i, s in enumerate(positional)}
    spec.update({k: _as_similarity(s, f"product field {k!r}") for k, s in fields.items()})
    if not spec:
        raise OptionError("product() needs at least one field")
    return _Product(spec)


class _Weighted(Similarity):
    """``Σ_f w_f sim_f(pred.f, gold.f) / Σ_f w_f``: partial credit per field."""

    def __init__(self, fields: dict[str | int, tuple[float, Similarity]], normalize: bool):
        self.fields = fields
        self.total = sum(w for w, _ in fields.values())
        self.normalize = normalize
        self.normalized = normalize and all(s.normalized for _, s in fields.values())

    def __call__(self, pred: Any, gold: Any) -> float:
        s = sum(w * sim(get_field(pred, n), get_field(gold, n)) for n, (w, sim) in self.fields.items())
        return s / self.total if self.normalize else s

    def self_score(self, x: Any) -> float:
        s = sum(w * sim.self_score(get_field(x, n)) for n, (w, sim) in self.fields.items())
        return s / self.total if self.normalize else s


def weighted(fields: Mapping[str | int, tuple[float, Any]], *, normalize: bool = True) -> Similarity:
    """A weighted sum of field similarities, ``{name: (weight, similarity)}``.

    Divided by the total weight (a normalized similarity) unless ``normalize=False``.
    """
    spec: dict[str | int, tuple[float, Similarity]] = {}
    for name, pair in fields.items():
        try:
            w, sim = pair
            w = float(w)
        except (TypeError, ValueError):
            raise OptionError(f"weighted field {name!r}: expected (weight, similarity), got {pair!r}") from None
        if w < 0:
            raise OptionError(f"weighted field {name!r}: weights must be non-negative, got {w}")
        spec[name] = (w, _as_similarity(sim, f"weighted field {name!r}"))
    total = sum(w for w, _ in spec.values())
    if total <= 0:
        raise OptionError("weighted() needs a positive total weight")
    return _Weighted(spec, normalize)


class _Threshold(Similarity):
    """The Iverson bracket of a similarity: ``[sim(p, r) > t]`` (or ``>=``)."""

    def __init__(self, sim: Similarity, t: float, inclusive: bool):
        self.sim, self.t, self.inclusive = sim, t, inclusive

    def _test(self, v: float) -> float:
        return 1.0 if (v >= self.t if self.inclusive else v > self.t) else 0.0

    def __call__(self, pred: Any, gold: Any) -> float:
        return self._test(float(self.sim(pred, gold)))

    def self_score(self, x: Any) -> float:
        return self._test(float(self.sim.self_score(x)))

    def __repr__(self) -> str:
        return f"threshold({self.sim!r}, {'>=' if self.inclusive else '>'} {self.t:g})"


def threshold(sim: Any, t: float, *, inclusive: bool = False) -> Similarity:
    """``⟦sim(p, r) > t⟧``: 1 when the similarity exceeds ``t`` (reaches it with ``inclusive``), else 0.

    SciREX's mention match is ``threshold(jaccard(match(exact)), 0.5)`` over token
    indices (equation 29); "every argument matches" is ``threshold(f1(...), 1, inclusive=True)``.
    """
    try:
        t = float(t)
    except (TypeError, ValueError):
        raise OptionError(f"threshold() needs a number, got {t!r}") from None
    return _Threshold(_as_similarity(sim, "threshold"), t, inclusive)
