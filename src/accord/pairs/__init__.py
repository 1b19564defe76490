"""The pairs mode (``match="pairs"``, ``accord score``'s default): MAT's one-to-one pairing under a similarity
profile and the count of its outcomes by label, attribute and score profile.

- ``accord.pairs._score:measure_corpora``: the mode's measure, registered in :mod:`accord.modes` (imported when
  the mode runs: the pairs mode's result, :class:`Report`, counts with :func:`tally`);
- :func:`tally`, :class:`Counts`, :class:`ScoreRows`: document alignments counted into a count table by the rows of a
  task's score profile (:mod:`accord.pairs._tally`);
- :class:`Report` (:mod:`accord.pairs._report`): the mode's result, with the units' measures and tables;
  :func:`detail_rows` (:mod:`accord.pairs._details`): its details' rows; :mod:`accord.pairs.mat_csv`: MATScore's
  CSV files, the mode's own output format.
"""

from ._details import DETAIL_COLUMNS, detail_rows
from ._report import Report
from ._tally import Counts, ScoreRows, Tally, tally

__all__ = ["DETAIL_COLUMNS", "Counts", "Report", "ScoreRows", "Tally", "detail_rows", "tally"]
