"""Scoring inside a training loop: :class:`Accumulator` counts batches as they come (``update``), merges the states
of several workers (``merge``) and gives exactly the result of :func:`accord.score` on all the batches
(``compute``).

- :mod:`accord.accumulate._inputs`: a batch (tag lists, integer ids, numpy arrays, tensors, logits) as tag strings,
  the ignored positions (``-100``, padding) left out;
- :mod:`accord.accumulate._accumulator`: the counts and the result of the pairs mode's strict profile, and the
  dispatch of ``Accumulator(match=..., profile=...)`` to the others;
- :mod:`accord.accumulate._general`: the other span modes (lenient and MAT profiles, SemEval, CLUEval), each flushed
  block scored with ``accord.score`` and its count tables added up;
- :mod:`accord.accumulate._batched`: coreference (per-document results added up) and agreement (the ratings kept,
  the coefficients computed at the end).
"""

from . import _batched, _general  # noqa: F401  (they register the accumulators of the other modes)
from ._accumulator import Accumulator
from ._inputs import IGNORED_INDEX

__all__ = ["Accumulator", "IGNORED_INDEX"]
