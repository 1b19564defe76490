"""The stages every comparison goes through, in the order data flows: read both sides (:mod:`._read`), prepare
and check the names the user gives (:mod:`._prepare`; regions, ignored labels and token annotations:
:mod:`._regions`), pair the documents (:mod:`._pair`; two sides made to meet, single files paired as given and
offsets in one unit: :mod:`._sides`, :mod:`._offset_units`). A mode then measures the
pairs into a count table (``tally``, ``clueval``, ``semeval``, ...), a result holds the measures, a renderer draws
them. :func:`accord.score` composes these stages; :mod:`accord.parallel` calls the same stages on shards."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._support.lazy import names_getattr

if TYPE_CHECKING:
    from ._pair import ALLOW_MISSING, match_file_names, missing_documents, pair_documents
    from ._prepare import IN_SHARD, check_label_case, check_user_names, corpus_names, in_shard
    from ._read import read_corpus, read_sides, read_with_repairs, reading_once, source_name

__all__ = ["ALLOW_MISSING", "IN_SHARD", "check_label_case", "check_user_names", "corpus_names", "in_shard",
           "match_file_names", "missing_documents", "pair_documents", "read_corpus", "read_sides", "read_with_repairs",
           "reading_once", "source_name"]

_LAZY = {**dict.fromkeys(("ALLOW_MISSING", "match_file_names", "missing_documents", "pair_documents"), "._pair"),
         **dict.fromkeys(("IN_SHARD", "check_label_case", "check_user_names", "corpus_names", "in_shard"), "._prepare"),
         **dict.fromkeys(("read_corpus", "read_sides", "read_with_repairs", "reading_once", "source_name"), "._read")}
"""Each name and its stage, imported on first use (PEP 562): a command that needs one stage's helper (``accord
smatch``: :mod:`._inputs`) does not import the readers and the pairing."""


__getattr__ = names_getattr(__name__, _LAZY, globals())
