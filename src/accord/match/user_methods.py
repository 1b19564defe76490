"""Dimension methods a task file names as ``module:function`` (MAT's user-defined ``method``, ``aggregator_method``
and ``param_digester_method`` of a ``<dimension>``), run only when the user enabled them.

A task file is data: it never chooses what code runs. A ``module:function`` it names resolves only against what the
user enabled (:func:`accord._support.plugins.resolve_method`): ``--plugins MODULE`` on the command line,
``accord.register_method`` from Python, or an installed package's ``accord.methods`` entry point; anything else is a
:class:`~accord.errors.PluginError` saying how to enable it, raised before anything is imported.

The signatures (MAT's manual leaves user methods undocumented; these follow its description of the built-ins: "Each
method returns a value between 0 and 1, and this value is multiplied by the weight"):

- ``method(ref_value, hyp_value, **params)``: the values of the dimension's attribute on the reference and the
  hypothesis annotation (``None`` when unset; a set attribute's value is a ``frozenset``, an annotation-valued
  one's an :class:`~accord.model.Annotation`), and the ``<dimension>``'s other XML attributes; returns the
  similarity, a number from 0 to 1, or ``(similarity, error_token)`` with a short string naming the clash for
  ``details.csv`` (or ``None``);
- ``aggregator_method(ref_values, hyp_values, method, **params)``: for a set or list attribute, the two aggregates
  and the dimension's ``method`` (the function); returns what ``method`` returns. Without it, ``method`` gets the
  aggregates themselves;
- ``param_digester_method(params)``: the ``<dimension>``'s other XML attributes (a dict of strings), once when the
  profile is read; returns the dict of keyword arguments ``method`` and ``aggregator_method`` then get.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ProfileError, quoted

__all__ = ["UserMethod", "user_method"]

ROLES = ("aggregator_method", "param_digester_method")
"""The ``<dimension>`` attributes that name functions besides ``method``."""


@dataclass(frozen=True)
class UserMethod:
    """A dimension scored by a user's function (and aggregator), with its digested parameters."""

    name: str
    method: Callable[..., Any]
    aggregator: Callable[..., Any] | None = None
    aggregator_name: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    where: str = ""

    def __call__(self, ref_value: Any, hyp_value: Any, aggregate: bool) -> tuple[float, str | None]:
        """The similarity of two values and the error token (``None`` if the function gave none)."""
        aggregated = aggregate and self.aggregator is not None
        called = f"aggregator_method {self.aggregator_name}" if aggregated else f"method {self.name}"
        try:
            if aggregated:
                assert self.aggregator is not None
                got = self.aggregator(ref_value, hyp_value, self.method, **self.params)
            else:
                got = self.method(ref_value, hyp_value, **self.params)
        except Exception as exc:  # noqa: BLE001 - the user's function failed: one line naming it
            raise ProfileError(f"{self.where}: {called} failed on {quoted(ref_value)} and {quoted(hyp_value)}: "
                               f"{type(exc).__name__}: {exc}") from None
        return _checked(got, called, self.where)


def _checked(got: Any, name: str, where: str) -> tuple[float, str | None]:
    token: Any = None
    value = got
    if isinstance(got, tuple) and len(got) == 2:
        value, token = got
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (
            math.isfinite(value) and 0.0 <= value <= 1.0) or not (token is None or isinstance(token, str)):
        raise ProfileError(f"{where}: {name} returned {quoted(got)}; a dimension method returns a number from 0 "
                           "to 1, or (number, error token)")
    return float(value), token


def user_method(method: str, params: Mapping[str, str], where: str) -> UserMethod:
    """The :class:`UserMethod` of a ``<dimension method="module:function" ...>`` (``params``: its other XML
    attributes, ``aggregator_method`` and ``param_digester_method`` among them).

    Raises
    ------
    PluginError
        A function that was not enabled (``--plugins``, ``accord.register_method``, an entry point).
    ProfileError
        A digester that returns something other than a dict, or fails.
    """
    from .._support.plugins import resolve_method

    fn = resolve_method(method, f"{where}: dimension method")
    aggregator_name = params.get("aggregator_method")
    aggregator = None if aggregator_name is None else resolve_method(aggregator_name, f"{where}: aggregator_method")
    rest: dict[str, Any] = {k: v for k, v in params.items() if k not in ROLES}
    digester_name = params.get("param_digester_method")
    if digester_name is not None:
        digester = resolve_method(digester_name, f"{where}: param_digester_method")
        try:
            digested = digester(dict(rest))
        except Exception as exc:  # noqa: BLE001 - the user's function failed: one line naming it
            raise ProfileError(f"{where}: param_digester_method {digester_name} failed: {type(exc).__name__}: "
                               f"{exc}") from None
        if not isinstance(digested, Mapping) or not all(isinstance(k, str) for k in digested):
            raise ProfileError(f"{where}: param_digester_method {digester_name} returned {digested!r}; it returns "
                               "a dict of keyword arguments")
        rest = dict(digested)
    return UserMethod(method, fn, aggregator, aggregator_name, rest, where)
