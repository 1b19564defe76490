"""Pairing gold and predicted spans: the engine, its similarity profiles and the sparse block solver.

The modules load on first use (``accord.match.sparse`` after ``import accord``), so that importing this package
imports no numpy.
"""

from .._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)
