"""A table of pre-computed spans (CSV or TSV), read together with the VRT file that gives the tokens.

Columns (a header row names them, in any order):

``document`` (optional)
    the ``id`` of the ``<text>`` element; without it the document is the one that holds
    the span's corpus positions.
``start``, ``end``
    corpus positions of the first and the last token of the span (inclusive, as CWB
    counts them and as accord's error tables print them).
``label``
    the span's label.
``text``, ``start_id``, ``end_id`` (optional)
    checked against the VRT: the tokens joined by single spaces, and the token ids of the
    first and last token (``token_id_column`` of the VRT).
any other column
    an attribute of the span (empty cells are left out).

A position outside the VRT, a span across two documents, a document that does not hold
the span, or a ``text`` or token id that does not match the VRT is an error naming the
table's line. The CLUEval specification calls this input *dispreferred* for exactly that
risk: corpus positions drift when the VRT changes.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np

from ..._support.io import read_text
from ...errors import FormatError, OptionError, quoted
from ...model import EMPTY_ATTRIBUTES, Annotation, Attributes, Corpus
from .._registry import Format, register
from .vrt import vrt_documents

__all__ = ["read_spans_table"]

_RESERVED = ("document", "start", "end", "label", "text", "start_id", "end_id")


def read_spans_table(path: str | Path, *, spans_vrt: str | Path | None = None, delimiter: str | None = None,
                     token_id_column: int | str | None = None, positional_attributes: Any = None,
                     word_column: int | str = 1, **_ignored: Any) -> Corpus:
    """Read a spans table onto the documents and tokens of a VRT file.

    Parameters
    ----------
    path : path
        The table: ``.csv`` is comma-separated, anything else tab-separated (or ``delimiter``).
    spans_vrt : path
        The VRT file that gives documents, tokens and corpus positions.
    token_id_column : str or int, optional
        The VRT's token id column, needed to check ``start_id`` and ``end_id``.

    Returns
    -------
    Corpus
        The VRT's documents with the table's spans as annotations.
    """
    p = Path(path)
    if spans_vrt is None:
        raise OptionError(f"{p}: a spans table needs the VRT file that gives its tokens (--spans-vrt FILE)")
    base = vrt_documents(spans_vrt, token_id_column=token_id_column, word_column=word_column,
                         positional_attributes=positional_attributes)
    text = read_text(p)
    if delimiter is None:
        delimiter = "," if p.suffix.lower() == ".csv" else "\t"
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    try:
        header = next(reader)
    except StopIteration:
        raise FormatError("empty table: expected a header row (document, start, end, label, ...)", path=p) from None
    header = [h.strip() for h in header]
    missing = [c for c in ("start", "end", "label") if c not in header]
    if missing:
        raise FormatError(f"the header lacks the column(s) {', '.join(missing)}; found {', '.join(header)}",
                          path=p, line=1)
    col = {name: header.index(name) for name in header}
    docs = list(base.values())
    starts = np.array([d.metadata["cpos"] for d in docs], dtype=np.int64)
    ends = starts + np.array([len(d.tokens or ()) for d in docs], dtype=np.int64)   # VRT documents have tokens
    by_id = {d.id: k for k, d in enumerate(docs)}
    found: list[list[Annotation]] = [[] for _ in docs]
    for line, row in enumerate(reader, 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != len(header):
            raise FormatError(f"expected {len(header)} cells as in the header, found {len(row)}", path=p, line=line)
        try:
            first, last = int(row[col["start"]]), int(row[col["end"]])
        except ValueError:
            raise FormatError(f"start and end must be corpus positions (integers), found {quoted(row[col['start']])} "
                              f"and {quoted(row[col['end']])}", path=p, line=line) from None
        if last < first:
            raise FormatError(f"end {last} before start {first} (both are positions of tokens, the end inclusive)",
                              path=p, line=line)
        k = int(np.searchsorted(starts, first, side="right") - 1)
        if k < 0 or first >= ends[k] or last >= ends[k]:
            where = "outside the VRT's tokens" if k < 0 or first >= ends[-1] or last >= ends[-1] or first >= ends[k] \
                else f"across the end of document {docs[k].id!r} (positions {starts[k]}-{ends[k] - 1})"
            raise FormatError(f"the span {first}-{last} lies {where}", path=p, line=line)
        doc = docs[k]
        assert doc.tokens is not None  # a VRT document is its tokens
        if "document" in col and row[col["document"]] != doc.id:
            named = row[col["document"]]
            hint = (f"document {named!r} holds positions {starts[by_id[named]]}-{ends[by_id[named]] - 1}"
                    if named in by_id else f"the VRT has no document {named!r}")
            raise FormatError(f"positions {first}-{last} are in document {doc.id!r}, not {named!r} ({hint})",
                              path=p, line=line)
        a, b = first - int(starts[k]), last - int(starts[k]) + 1
        surface = " ".join(doc.tokens[a:b])
        if "text" in col and row[col["text"]] != surface:
            raise FormatError(f"the text {quoted(row[col['text']])} does not match the VRT's tokens "
                              f"{quoted(surface)} at {first}-{last}", path=p, line=line)
        ids = doc.metadata.get("token_ids")
        for name, pos in (("start_id", a), ("end_id", b - 1)):
            if name in col:
                if ids is None:
                    raise OptionError(f"{p}: the table has a {name} column; give the VRT's token id column "
                                      "(--token-id-column) to check it")
                if row[col[name]] != ids[pos]:
                    raise FormatError(f"{name} {quoted(row[col[name]])} does not match the VRT's token id "
                                      f"{ids[pos]!r} at corpus position {starts[k] + pos}", path=p, line=line)
        attrs = {h: row[i] for h, i in col.items() if h not in _RESERVED and row[i] != ""}
        found[k].append(Annotation(row[col["label"]], a, b, Attributes(attrs) if attrs else EMPTY_ATTRIBUTES, None))
    return Corpus([d.replace_annotations(sorted(f, key=lambda x: (x.start, x.end))) for d, f in zip(docs, found)],
                  name=str(p))


def _write(corpus: Corpus, path: str | Path, **_ignored: Any) -> None:
    """Write the spans of a corpus read from VRT: document, start, end (corpus positions), label, text, attributes."""
    names = sorted({k for d in corpus.values() for a in d.annotations for k in a.attributes})
    buf = io.StringIO()
    w = csv.writer(buf, delimiter="," if str(path).lower().endswith(".csv") else "\t", lineterminator="\n")
    w.writerow(["document", "start", "end", "label", "text"] + names)
    for d in corpus.values():
        base = int((d.metadata or {}).get("cpos", 0))
        for a in d.annotations:
            if a.start is None:
                continue
            assert a.end is not None  # make_annotation: a start comes with an end
            w.writerow([d.id, base + a.start, base + a.end - 1, a.label, d.surface(a.start, a.end)] +
                       [a.attributes.get(n, "") for n in names])
    Path(path).write_text(buf.getvalue(), encoding="utf-8")


register(Format(
    name="spans",
    read=read_spans_table,
    write=_write,
    extensions=(),
    description="a CSV/TSV table of spans (document, start, end, label, ...) over the tokens of a VRT file "
                "(--spans-vrt)",
))
