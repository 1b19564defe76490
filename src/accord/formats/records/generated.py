"""Generated output without offsets (``records``): what a language model extracts, strings and labels per document.

One document a line::

    {"id": "doc1", "entities": [{"text": "New York", "label": "LOC", "attributes": {"kind": "city"}}],
     "relations": [{"head": "Ann", "tail": "New York", "label": "lives_in"}]}

``entities`` and ``relations`` are optional lists (a document without them predicts nothing); an entity has a
``text`` (a non-empty string) and a ``label``, optionally ``attributes`` (strings, numbers, booleans); a relation has
``head``, ``tail`` (strings: the texts of two entities) and a ``label``; an event (``events``) has a ``trigger``
(a string), a ``label`` (its type) and optionally ``arguments``, a list of ``{"role": ..., "text": ...}``. The strings
have no offsets: before scoring, :mod:`accord.pipeline._align` places each on an occurrence in the gold document's
text. Until then a document holds spanless annotations: an entity's string under :data:`TEXT`, a relation's ends under
:data:`HEAD` and :data:`TAIL`, an event's trigger under :data:`TRIGGER` and its ``(role, string)`` arguments under
:data:`ARGUMENTS`, and its metadata marks it as records (:data:`RECORDS`).

The same records are read from a JSON file holding an array of such objects or ``{"documents": [...]}``, from CSV
and TSV, and in Python from lists of dicts, lists of ``(id, text, label)`` tuples and pandas DataFrames
(:mod:`accord.formats.records.generated_forms`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ...errors import FormatError
from ...model import Corpus
from .._registry import Format, register
from .generated_forms import read_records_file, sniff_records
from .generated_model import (
    ARGUMENTS,
    HEAD,
    KIND,
    RECORDS,
    TAIL,
    TEXT,
    TRIGGER,
    is_records,
    looks_like_record,
    records_corpus,
    records_document,
)

__all__ = ["ARGUMENTS", "HEAD", "KIND", "RECORDS", "TAIL", "TEXT", "TRIGGER", "is_records", "looks_like_record",
           "read_generated", "records_corpus", "records_document", "write_generated"]


def read_generated(path: str | Path, *, encoding: str | None = None, **_ignored: Any) -> Corpus:
    """Read a file of records: JSON lines (one document a non-blank line), a JSON array of documents or
    ``{"documents": [...]}``, or CSV/TSV (:mod:`accord.formats.records.generated_forms`), told apart by content."""
    return read_records_file(path, encoding)


def write_generated(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write a corpus as records: each spanned annotation as its string (the text it covers) and label."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for doc in corpus.values():
            entities = []
            for a in doc.annotations:
                if a.get(KIND) == "entity":
                    entities.append({"text": a.get(TEXT), "label": a.label})
                elif a.start is not None:
                    if doc.text is None and doc.tokens is None:
                        raise FormatError(f"document {doc.id!r}: {a.label} [{a.start}, {a.end}) has no text to write "
                                          "as a string", path=path)
                    entities.append({"text": doc.surface(a.start, a.end), "label": a.label})
            fh.write(json.dumps({"id": doc.id, "entities": entities}, ensure_ascii=False) + "\n")


def _sniff(p: Path) -> bool:
    return sniff_records(p)


register(Format("records", read_generated, write_generated, (".jsonl", ".json", ".tsv"), _sniff,
                "generated output without offsets: strings and labels per document, aligned to the gold text"))
