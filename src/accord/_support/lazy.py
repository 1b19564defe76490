"""Submodules imported on first attribute access (PEP 562), so that ``import accord`` imports no numpy and
``accord.match.sparse`` still works as the README and the site write it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from importlib import import_module
from importlib.util import find_spec
from typing import Any

__all__ = ["submodule_getattr", "names_getattr"]


def submodule_getattr(package: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports ``package``'s public submodule ``name`` on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.

    Returns
    -------
    callable
        ``__getattr__(name)``: the submodule ``package.name`` (the import system binds it on the package, so this
        runs once per name); ``AttributeError`` for a private name or one that is no submodule.
    """

    def __getattr__(name: str) -> Any:
        if not name.startswith("_") and find_spec(f"{package}.{name}") is not None:
            return import_module(f"{package}.{name}")
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__


def names_getattr(package: str, names: Mapping[str, str], namespace: MutableMapping[str, Any]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that imports each public name from its submodule on first use.

    Parameters
    ----------
    package : str
        The package's ``__name__``.
    names : mapping
        ``{name: ".submodule"}``: where each name lives, relative to the package.
    namespace : mapping
        The package's ``globals()``: a name is bound there once imported, so this runs once per name.

    Returns
    -------
    callable
        ``__getattr__(name)``; ``AttributeError`` for a name not in ``names``.
    """

    def __getattr__(name: str) -> Any:
        if name in names:
            value = namespace[name] = getattr(import_module(names[name], package), name)
            return value
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    return __getattr__
