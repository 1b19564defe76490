"""The pairs mode (``match="pairs"``, ``accord score``'s default): MAT's one-to-one pairing under a similarity
profile and the count of its outcomes by label, attribute and score profile.

- ``accord.pairs._score:measure_corpora``: the mode's measure, registered in :mod:`accord.modes` (imported when
  the mode runs: the pairs mode's result, :class:`~accord.report.Report`, counts with :func:`tally`);
- :func:`tally`, :class:`Counts`, :class:`ScoreRows`: document alignments counted into a count table by the rows of a
  task's score profile (:mod:`accord.pairs._tally`).
"""

from ._tally import Counts, ScoreRows, Tally, tally

__all__ = ["Counts", "ScoreRows", "Tally", "tally"]
