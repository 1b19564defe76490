"""File formats: each a reader and a writer, registered by name and sniffed where unambiguous.

========== ===========================================================================
name       what
========== ===========================================================================
conll      token-per-line columns with BIO-family tags (:mod:`accord.formats.tokens.conll`)
brat       brat standoff ``.ann`` + ``.txt`` (:mod:`accord.formats.text.brat`)
mat-json   MAT JSON documents, version 2 (:mod:`accord.formats.text.matjson`)
jsonl      accord's JSON lines, one document per line (:mod:`accord.formats.text.jsonl`)
gate       GATE XML documents, one annotation set at a time (:mod:`accord.formats.text.gate`)
vrt        CWB vertical text, BIO columns chosen by name (:mod:`accord.formats.tokens.vrt`)
spans      CSV/TSV spans over a VRT file's tokens (:mod:`accord.formats.tokens.spans_table`)
spacy      spaCy DocBin training files, ``.spacy`` (:mod:`accord.formats.tokens.spacy_docbin`; needs spaCy)
conllu     CoNLL-U (Plus): entity tags from a column or a MISC key (:mod:`accord.formats.tokens.conllu`; needs conllu)
label-studio  Label Studio's JSON export of text tasks (:mod:`accord.formats.text.label_studio`)
doccano    doccano's JSON-lines export (:mod:`accord.formats.text.doccano`)
xmi        UIMA CAS XMI as INCEpTION exports it (:mod:`accord.formats.text.xmi`; needs dkpro-cassis)
webanno-tsv  WebAnno TSV 3, INCEpTION's tab-separated export; read only (:mod:`accord.formats.text.webanno_tsv`)
========== ===========================================================================
"""

from .._support.lazy import submodule_getattr
from ._registry import Format, get, names, read, register, sniff, write  # the format modules load on first use

__all__ = ["Format", "get", "names", "read", "register", "sniff", "write"]

__getattr__ = submodule_getattr(__name__)   # accord.formats.text.gate and the other format modules, on first use
