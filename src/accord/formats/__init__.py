"""File formats: each a reader and a writer, registered by name and sniffed where unambiguous.

========== ===========================================================================
name       what
========== ===========================================================================
conll      token-per-line columns with BIO-family tags (:mod:`accord.formats.conll`)
brat       brat standoff ``.ann`` + ``.txt`` (:mod:`accord.formats.brat`)
mat-json   MAT JSON documents, version 2 (:mod:`accord.formats.matjson`)
jsonl      accord's JSON lines, one document per line (:mod:`accord.formats.jsonl`)
gate       GATE XML documents, one annotation set at a time (:mod:`accord.formats.gate`)
vrt        CWB vertical text, BIO columns chosen by name (:mod:`accord.formats.vrt`)
spans      CSV/TSV spans over a VRT file's tokens (:mod:`accord.formats.spans_table`)
spacy      spaCy DocBin training files, ``.spacy`` (:mod:`accord.formats.spacy_docbin`; needs spaCy)
conllu     CoNLL-U (Plus): entity tags from a column or a MISC key (:mod:`accord.formats.conllu`; needs conllu)
label-studio  Label Studio's JSON export of text tasks (:mod:`accord.formats.label_studio`)
doccano    doccano's JSON-lines export (:mod:`accord.formats.doccano`)
xmi        UIMA CAS XMI as INCEpTION exports it (:mod:`accord.formats.xmi`; needs dkpro-cassis)
webanno-tsv  WebAnno TSV 3, INCEpTION's tab-separated export; read only (:mod:`accord.formats.webanno_tsv`)
========== ===========================================================================
"""

from .._lazy import submodule_getattr
from ._registry import Format, get, names, read, register, sniff, write  # the format modules load on first use

__all__ = ["Format", "get", "names", "read", "register", "sniff", "write"]

__getattr__ = submodule_getattr(__name__)   # accord.formats.gate and the other format modules, on first use
