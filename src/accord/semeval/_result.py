"""The SemEval-2013 schemas as a :class:`~accord.result.Result`: one measure per schema."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

import numpy as np

from ..errors import TallyError
from ..result import Measure, Result, SemEvalKind, label_table
from ._schemas import CORRECT, INCORRECT, PARTIAL, SCHEMAS, UNPAIRED, SemEvalResult

__all__ = ["measure_corpora", "semeval_result"]


def semeval_result(result: SemEvalResult, *, options: Mapping[str, Any] | None = None,
                   inputs: Mapping[str, Any] | None = None) -> Result:
    """Counts of every schema by document and label: gold spans under their label (COR, INC, PAR, MIS),
    predicted spans under theirs (their COR, INC, PAR and SPU)."""
    measures = {}
    for schema in SCHEMAS:
        kind = SemEvalKind(schema in ("partial", "type"), result.beta, result.zero_division)
        go, po = result.gold_outcome[schema], result.pred_outcome[schema]
        columns, units = [], []
        for side_doc, side_label, outcome, side_unit in ((result.gold_doc, result.gold_label, go, result.gold_unit),
                                                         (result.pred_doc, result.pred_label, po, result.pred_unit)):
            for code in (CORRECT, INCORRECT, PARTIAL, UNPAIRED):
                sel = outcome == code
                columns.append((side_doc[sel], side_label[sel], None))
                units.append(None if side_unit is None else side_unit[sel])
        sentences = None if result.sentence_sizes is None or any(u is None for u in units) else \
            (result.sentence_sizes, cast("list[np.ndarray]", units))   # no None: tested on the line above
        table = label_table(kind.fields, result.documents, result.labels, columns, sentences=sentences)
        t = table.values[:, 0].sum(axis=0)
        if int(t[:4].sum()) != len(go) or int(t[4:].sum()) != len(po) or not np.array_equal(t[:3], t[4:7]):
            raise TallyError(f"{schema}: a span was lost or counted twice ({t.tolist()})")
        measures[schema] = Measure(kind, table)
    opts = {"beta": result.beta, "zero_division": result.zero_division, **(options or {})}
    return Result("score", "semeval", measures, nested=True, options=opts, inputs=inputs)


def measure_corpora(gold: Any, pred: Any, options: Any) -> Result:
    """The ``semeval`` mode (:mod:`accord.modes`): spans paired optimally, counted under the four schemas."""
    from ._schemas import semeval_schemas

    scored = semeval_schemas(gold, pred, allow_missing=options.allow_missing, beta=options.beta,
                             zero_division=options.zero_division)
    out = semeval_result(scored, options=options.options, inputs=options.inputs)
    out.source = scored
    return out
