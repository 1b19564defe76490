"""scipy's Kuhn-Munkres (:func:`scipy.optimize.linear_sum_assignment`) without the import of :mod:`scipy.optimize`.

The function is a C extension of its own, ``scipy/optimize/_lsap``, which needs numpy alone; importing it through
its package runs ``scipy/optimize/__init__.py``, which loads the whole of :mod:`scipy.optimize` and
:mod:`scipy.linalg` (a third of a second of CPU, 4 % of a MAT command on a million annotations). :func:`solver`
loads the extension from its file instead, and falls back on the ordinary import when the file is not there or
does not load (another layout of scipy): the same function either way.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["loaded", "solver"]

_SOLVER: list[Callable[..., Any]] = []
"""The solver, once loaded."""


def loaded() -> bool:
    """Whether the solver costs nothing more to call (loaded here, or :mod:`scipy.optimize` imported)."""
    return bool(_SOLVER) or "scipy.optimize" in sys.modules


def solver() -> Callable[..., Any]:
    """:func:`scipy.optimize.linear_sum_assignment`, loaded once."""
    if not _SOLVER:
        got = None
        if "scipy.optimize" not in sys.modules:
            try:
                got = _from_file()
            except Exception:   # (an unexpected layout or build of scipy: the ordinary import below)
                got = None
        if got is None:
            from scipy.optimize import linear_sum_assignment

            got = linear_sum_assignment
        _SOLVER.append(got)
    return _SOLVER[0]


def _from_file() -> Callable[..., Any] | None:
    """``linear_sum_assignment`` of the extension ``scipy/optimize/_lsap`` loaded from its file (left out of
    ``sys.modules``: a later import of :mod:`scipy.optimize` loads its own copy, the same C function); None when
    there is no such file."""
    from importlib.machinery import EXTENSION_SUFFIXES, ExtensionFileLoader
    from importlib.util import module_from_spec, spec_from_file_location
    from pathlib import Path

    import scipy

    folder = Path(scipy.__file__).parent / "optimize"
    for suffix in EXTENSION_SUFFIXES:
        path = folder / f"_lsap{suffix}"
        if path.is_file():
            name = "scipy.optimize._lsap"
            spec = spec_from_file_location(name, path, loader=ExtensionFileLoader(name, str(path)))
            if spec is None or spec.loader is None:
                return None
            module = module_from_spec(spec)
            spec.loader.exec_module(module)
            function: Callable[..., Any] = module.linear_sum_assignment
            return function
    return None
