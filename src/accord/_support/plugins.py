"""Code named by data files runs only where the user enabled it.

A task file may name a function (``<partition_decomposition method="module:function">``, as MAT's task files do).
accord never imports a module because a data file names it: such a name resolves only against

- functions registered from Python: :func:`register_method` (``accord.register_method``);
- modules the user names on the command line: ``--plugins MODULE`` (repeatable; :func:`enabled_plugins`), whose
  functions are then ``MODULE:function``, and which may call :func:`register_method` when imported;
- entry points of installed packages in the group ``accord.methods`` (:data:`ENTRY_POINT_GROUP`), each loaded only
  when a task file names it.

Anything else is a :class:`~accord.errors.PluginError` that says how to enable it, raised before anything is imported.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, cast

from ..errors import PluginError

__all__ = ["ENTRY_POINT_GROUP", "register_method", "unregister_method", "resolve_method", "enabled_plugins"]

ENTRY_POINT_GROUP = "accord.methods"
"""The entry point group of installed packages' methods (name: what task files write, value: ``module:function``)."""

_REGISTERED: dict[str, Callable[..., Any]] = {}
_ENABLED: list[str] = []


def register_method(name: str, function: Callable[..., Any]) -> None:
    """Let task files name ``function`` as ``name`` (a partition method: ``function(annotation, document)``).

    Parameters
    ----------
    name : str
        What the task file writes, such as ``"mymodule:by_length"`` (MAT's ``module:function``) or any other name
        that is not ``metadata:KEY`` or ``attribute:NAME``.
    function : callable
    """
    if not isinstance(name, str) or not name or name.split(":", 1)[0] in ("metadata", "attribute"):
        raise PluginError(f"register_method: {name!r} is not a method name (metadata:KEY and attribute:NAME are "
                          "accord's own)")
    if not callable(function):
        raise PluginError(f"register_method: {name!r}: {function!r} is not callable")
    _REGISTERED[name] = function


def unregister_method(name: str) -> None:
    """Forget a method registered with :func:`register_method` (nothing if it was not)."""
    _REGISTERED.pop(name, None)


@contextmanager
def enabled_plugins(modules: Iterable[str]) -> Iterator[None]:
    """Import each of ``modules`` (``--plugins``) and let task files name their functions while the block runs."""
    added = []
    try:
        for module in modules:
            if not module or not all(part.isidentifier() for part in module.split(".")):
                raise PluginError(f"--plugins {module!r}: not a module name (such as mypackage.methods)")
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise PluginError(f"--plugins {module}: cannot import it ({exc})") from None
            except Exception as exc:  # noqa: BLE001 - the user's module failed as it was imported: say so in one line
                raise PluginError(f"--plugins {module}: importing it failed: {type(exc).__name__}: {exc}") from None
            _ENABLED.append(module)
            added.append(module)
        yield
    finally:
        for module in added:
            _ENABLED.remove(module)


def resolve_method(name: str, what: str = "method") -> Callable[..., Any]:
    """The function a data file names: registered, in a module enabled with ``--plugins``, or an entry point.

    Raises
    ------
    PluginError
        The name was not enabled (the message says how to enable it); nothing was imported.
    """
    if name in _REGISTERED:
        return _REGISTERED[name]
    module, _, attr = name.rpartition(":")
    if module in _ENABLED and module in sys.modules:
        if not attr.isidentifier() or attr.startswith("_"):
            raise PluginError(f"{what} {name!r}: {attr!r} is not a public function name of module {module}")
        fn = getattr(sys.modules[module], attr, None)
        if not callable(fn):
            raise PluginError(f"{what} {name!r}: module {module} (enabled with --plugins) has no function {attr!r}")
        return cast("Callable[..., Any]", fn)
    from importlib.metadata import entry_points

    found = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == name]   # metadata only: no import
    if found:
        return cast("Callable[..., Any]", found[0].load())
    hint = f"--plugins {module}" if module else "--plugins MODULE"
    raise PluginError(f"{what} {name!r} names code that was not enabled: accord imports no module a data file names; "
                      f"if you trust it, run with {hint} (or, from Python, accord.register_method({name!r}, function))")
