"""Coreference inputs: chains of mentions from CoNLL-2012 files and JSON lines (``clusters``), CorefUD
(``corefud``) and the chains of annotation files (``from_spans``: brat, GATE; XMI and WebAnno TSV chains are read by
their text format's module). :func:`~accord.formats.coref.clusters.read_coref` picks the reader."""

from ..._support.lazy import submodule_getattr

__all__: list[str] = []

__getattr__ = submodule_getattr(__name__)   # the format modules, on first use
