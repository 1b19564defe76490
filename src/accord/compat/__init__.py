"""Drop-in replacements for peer tools' Python APIs (``accord.compat.seqeval``), loaded on first use."""

from .._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)
