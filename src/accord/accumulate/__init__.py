"""Scoring inside a training loop: :class:`Accumulator` counts batches as they come (``update``), merges the states
of several workers (``merge``) and gives exactly the result of :func:`accord.score` on all the batches
(``compute``).

- :mod:`accord.accumulate._inputs`: a batch (tag lists, integer ids, numpy arrays, tensors, logits) as tag strings,
  the ignored positions (``-100``, padding) left out;
- :mod:`accord.accumulate._accumulator`: the counts and the result.
"""

from ._accumulator import Accumulator
from ._inputs import IGNORED_INDEX

__all__ = ["Accumulator", "IGNORED_INDEX"]
