"""Scoring beyond one process, with the serial result.

A comparison is cut into shards at document boundaries (:mod:`accord.parallel._plan`): a CoNLL column file at its
``-DOCSTART-`` lines by byte offsets, several files (a folder, a glob pattern, ``@list.txt``) file by file. Each
shard is read and scored by a worker, which sends back only its count tables (a few numbers per document and row);
the caller adds them up (:meth:`accord.result.Result.merge_all`) in the documents' order, so every figure, every
per-document row and every bootstrap resample is that of scoring in one process (``--jobs 1``).

Workers are a pool of the standard library's processes (``accord score --jobs N``, ``accord.score(...,
jobs=N)``) or the workers of a Dask cluster (``--dask tcp://scheduler:8786``, ``--dask local``,
``accord.score(..., client=dask_client)``); see ``docs/scaling.md``.
"""

from ..errors import ShardedRunWarning
from ._plan import DEFAULT_SHARD_BYTES, Piece, Shard, Side, scan_marks
from ._run import resolve_jobs, runner
from ._score import score_in_shards

__all__ = ["DEFAULT_SHARD_BYTES", "Piece", "Shard", "Side", "ShardedRunWarning", "resolve_jobs",
           "runner", "scan_marks", "score_in_shards"]
