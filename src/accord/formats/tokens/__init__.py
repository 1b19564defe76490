"""Token formats: one token per line or per item, spans as tags over tokens (CoNLL, CoNLL-U, VRT and the spans
tables beside it, spaCy's DocBin). Each module registers its format with :mod:`accord.formats` when imported."""

from ..._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)   # the format modules, on first use
