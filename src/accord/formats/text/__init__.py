"""Text formats: a document's text and stand-off or inline annotations with character offsets (brat, GATE XML,
UIMA XMI and WebAnno TSV, MAT's JSON and inline XML, doccano, Label Studio, accord's JSON lines). Each module
registers its format with :mod:`accord.formats` when imported."""

from ..._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)   # the format modules, on first use
