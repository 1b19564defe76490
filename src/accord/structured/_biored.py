"""``accord structured --preset biored``: BioRED's official evaluation (ncbi/bert_gt ``src/run_eval_biored.py``,
its ``eval`` in the four settings its ``run_train_test_eval`` runs).

Each document's relations are a *set* of ``(id, id, label, type, type)``, the two ids in string order (the types
following), where the label is

* ``pair``: nothing (every relation an "Association": the entity pair alone);
* ``pair_type``: the relation type;
* ``pair_novelty`` / ``pair_type_novelty``: the same, with the novelty (``None`` on a 4-column line).

Relations between two diseases, a gene and a variant, or a gene and an organism are left out on both sides, as the
official script leaves them out. A key document the response lacks is not scored (the official script skips it:
its relations count as neither found nor missed), with a warning; a response document the key lacks counts all
its relations as false positives.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import AccordWarning
from ..formats.records.pubtator import PubtatorDocument
from ..result import Measure, RecordsKind, Result, document_table

__all__ = ["BIORED_SCRIPT", "BIORED_MEASURES", "biored_pairs", "biored_result"]

BIORED_SCRIPT = "ncbi/bert_gt src/run_eval_biored.py @ 979831325e64a95f8cf2ff92394ac4f05179ba35"
BIORED_MEASURES = {"pair": (True, False), "pair_type": (False, False), "pair_novelty": (True, True),
                   "pair_type_novelty": (False, True)}
"""Measure -> (to_binary, has_novelty) of the official ``eval``."""

_LEFT_OUT = {frozenset(("DiseaseOrPhenotypicFeature",)), frozenset(("GeneOrGeneProduct", "SequenceVariant")),
             frozenset(("GeneOrGeneProduct", "OrganismTaxon"))}


def biored_pairs(doc: PubtatorDocument, binary: bool, novelty: bool) -> set[tuple[str, str, str, str, str]]:
    """The official script's set of one document's relations in one setting (module docstring)."""
    out = set()
    for r in doc.relations:
        label = "Association" if binary else r.type
        if novelty:
            label += "|" + (r.novelty if r.novelty is not None else "None")
        if frozenset((r.type1, r.type2)) in _LEFT_OUT:
            continue
        if r.id2 > r.id1:
            out.add((r.id1, r.id2, label, r.type1, r.type2))
        else:
            out.add((r.id2, r.id1, label, r.type2, r.type1))
    return out


def biored_result(key: Mapping[str, PubtatorDocument], response: Mapping[str, PubtatorDocument], *,
                  response_path: Any = None, inputs: Mapping[str, Any] | None = None) -> Result:
    """The four measures by document (the key's documents the response has, then the response's others)."""
    skipped = [d for d in key if d not in response]
    if skipped:
        warnings.warn(AccordWarning(f"{response_path or 'response'}: {len(skipped)} document(s) of the key are "
                                    f"missing (first: {skipped[0]!r}); not scored, as BioRED's official script "
                                    "skips them (their relations count as neither found nor missed)"), stacklevel=2)
    documents = [d for d in key if d in response] + [d for d in response if d not in key]
    kind = RecordsKind()
    measures = {}
    for name, (binary, novelty) in BIORED_MEASURES.items():
        rows = []
        for d in documents:
            gold = biored_pairs(key[d], binary, novelty) if d in key else set()
            pred = biored_pairs(response[d], binary, novelty)
            tp = len(gold & pred)
            rows.append([len(gold), len(pred), tp, tp, len(pred), len(gold)])
        values = np.asarray(rows, dtype=np.float64).reshape(len(documents), len(kind.fields))
        measures[name] = Measure(kind, document_table(kind.fields, documents, values))
    options = {"preset": "biored", "profile": f"biored ({BIORED_SCRIPT})", "official_script": BIORED_SCRIPT,
               "skipped_documents": len(skipped)}
    return Result("structured", "structured", measures, nested=True, options=options, inputs=inputs)
