"""Structured records (relations, events, n-ary relations, templates) for ``accord structured``: from JSON lines
(``records``) or from the relations and events of annotation files (``from_spans``)."""

from ..._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)   # the format modules, on first use
