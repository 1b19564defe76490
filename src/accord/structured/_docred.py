"""``accord structured --preset docred``: DocRED's official evaluation (thunlp/DocRED ``code/evaluation.py``).

The official script, reproduced count for count:

* the response's facts are made unique by ``(title, h_idx, t_idx, r)``, the first in file order kept (its
  evidence is the one scored);
* **F1**: a fact is correct when the key has a label of that title, relation, head and tail; precision divides by
  every unique fact (a fact whose title the key lacks counts as wrong), recall by the key's distinct labels;
* **Ign F1** (with a training file): a correct fact is *seen in training* when, for some mention name of its head
  and of its tail, the training file has a label with that relation between entities holding those names; those
  are left out of precision's numerator and denominator; recall is F1's (the script's ``re_r``);
* **evidence F1**: precision's denominator is the evidence sentences (distinct per fact) of the facts of the key's
  titles, recall's the evidence entries of every key label, the numerator the shared sentences of correct facts;
* **intra / inter** (from Re-DocRED's ``official_evaluate_benchmark``): a label or fact is *intra-sentence* when
  some mention of the head and some mention of the tail share a sentence, else *inter-sentence*; each part is
  scored on its own facts and labels.

The official script has no ``+ 1e-5`` in Ign F1's denominator and starts the evidence total at 0; Re-DocRED's copy
adds ``1e-5`` and starts it at 1, which changes the last digits: accord reproduces thunlp's.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import AccordWarning, FormatError
from ..formats.records.docred import DocredDocument, DocredFact
from ..result import Measure, RecordsKind, Result, document_table

__all__ = ["DOCRED_SCRIPT", "DOCRED_SPLIT_SCRIPT", "DOCRED_MEASURES", "train_facts", "docred_counts",
           "docred_result"]

DOCRED_SCRIPT = "thunlp/DocRED code/evaluation.py @ 64622e608d06e83deda6b6e0e871effb9d1fd74c"
"""The official script reproduced (F1, Ign F1, evidence F1)."""
DOCRED_SPLIT_SCRIPT = ("tonytan48/Re-DocRED evaluation.py official_evaluate_benchmark @ "
                       "ccfb54f5ddf5836027c87badda10f6dfc56efaac")
"""Where the intra-/inter-sentence split comes from."""

DOCRED_MEASURES = ("relation", "ign", "evidence", "intra", "inter")


def train_facts(docs: Iterable[DocredDocument]) -> set[tuple[str, str, str]]:
    """``(head mention name, tail mention name, relation)`` of every label of a training file, for every pair
    of the two entities' mentions (the official ``gen_train_facts``)."""
    out: set[tuple[str, str, str]] = set()
    for d in docs:
        for r, h, t, _ in d.labels:
            for n1, _s1 in d.entities[h]:
                for n2, _s2 in d.entities[t]:
                    out.add((n1, n2, r))
    return out


def _intra(doc: DocredDocument, h: int, t: int) -> bool:
    """Whether some mention of ``h`` and some mention of ``t`` are in one sentence."""
    return bool({s for _, s in doc.entities[h]} & {s for _, s in doc.entities[t]})


@dataclass
class _Doc:
    gold: int = 0            # distinct labels
    pred: int = 0            # unique facts
    correct: int = 0
    seen: int = 0            # correct facts seen in training
    gold_evidence: int = 0
    pred_evidence: int = 0
    correct_evidence: int = 0
    split: dict[str, list[int]] = field(default_factory=lambda: {"intra": [0, 0, 0], "inter": [0, 0, 0]})
    # each part: gold, pred, correct


@dataclass
class DocredCounts:
    """The official counts by document (titles: the key's, then the response's titles the key lacks)."""

    by_document: dict[str, _Doc]
    train: bool
    duplicates: int
    unknown_titles: int


def docred_counts(key: Sequence[DocredDocument], facts: Sequence[DocredFact],
                  train: set[tuple[str, str, str]] | None = None, *, key_path: Any = None,
                  response_path: Any = None) -> DocredCounts:
    """Count F1, Ign F1, evidence F1 and the intra/inter split as the official script does (module docstring).

    A title twice in the key, or a fact of a key title whose ``h_idx`` or ``t_idx`` is not one of its entities,
    is a :class:`~accord.errors.FormatError`; duplicate facts and facts of titles the key lacks are counted as the
    script counts them, with a warning."""
    docs: dict[str, DocredDocument] = {}
    rows: dict[str, _Doc] = {}
    std: dict[str, dict[tuple[str, int, int], set[int]]] = {}
    for d in key:
        if d.title in docs:
            raise FormatError(f"the title {d.title!r} names two documents; DocRED's documents are told apart by "
                              "their titles", path=key_path)
        docs[d.title] = d
        row = rows[d.title] = _Doc()
        labels: dict[tuple[str, int, int], set[int]] = {}
        for r, h, t, evidence in d.labels:
            labels[(r, h, t)] = set(evidence)        # a repeated label: the last one's evidence, as the script
            row.gold_evidence += len(evidence)       # every label's evidence entries count
        std[d.title] = labels
        row.gold = len(labels)
        for _r, h, t in labels:
            row.split["intra" if _intra(d, h, t) else "inter"][0] += 1
    seen_keys: set[tuple[str, int, int, str]] = set()
    duplicates = unknown = 0
    for f in facts:
        k = (f.title, f.h, f.t, f.r)
        if k in seen_keys:
            duplicates += 1
            continue
        seen_keys.add(k)
        row = rows.setdefault(f.title, _Doc())
        row.pred += 1
        doc = docs.get(f.title)
        if doc is None:
            unknown += 1
            continue
        for name, v in (("h_idx", f.h), ("t_idx", f.t)):
            if v >= len(doc.entities):
                raise FormatError(f"fact {f.index} ({f.title!r}): {name!r} is {v} but the key's document has "
                                  f"{len(doc.entities)} entities", path=response_path)
        predicted = set(f.evidence)
        row.pred_evidence += len(predicted)
        part = row.split["intra" if _intra(doc, f.h, f.t) else "inter"]
        part[1] += 1
        gold = std[f.title].get((f.r, f.h, f.t))
        if gold is None:
            continue
        row.correct += 1
        part[2] += 1
        row.correct_evidence += len(gold & predicted)
        if train is not None and any((n1, n2, f.r) in train for n1, _ in doc.entities[f.h]
                                     for n2, _ in doc.entities[f.t]):
            row.seen += 1
    if duplicates:
        warnings.warn(AccordWarning(f"{response_path or 'response'}: {duplicates} repeated fact(s) (same title, "
                                    "h_idx, t_idx and r) left out, the first in file order kept, as DocRED's "
                                    "official script does"), stacklevel=2)
    if unknown:
        warnings.warn(AccordWarning(f"{response_path or 'response'}: {unknown} fact(s) of titles the key "
                                    f"({key_path or 'key'}) lacks, counted as wrong facts as DocRED's official "
                                    "script counts them"), stacklevel=2)
    return DocredCounts(rows, train is not None, duplicates, unknown)


def _table(counts: DocredCounts, name: str) -> Measure:
    kind = RecordsKind()
    values = []
    for d in counts.by_document.values():
        if name == "relation":
            values.append([d.gold, d.pred, d.correct, d.correct, d.pred, d.gold])
        elif name == "ign":
            values.append([d.gold, d.pred, d.correct - d.seen, d.correct, d.pred - d.seen, d.gold])
        elif name == "evidence":
            values.append([d.gold, d.pred, d.correct_evidence, d.correct_evidence, d.pred_evidence,
                           d.gold_evidence])
        else:
            g, p, c = d.split[name]
            values.append([g, p, c, c, p, g])
    array = np.asarray(values, dtype=np.float64).reshape(len(values), len(kind.fields))
    return Measure(kind, document_table(kind.fields, list(counts.by_document), array))


def docred_result(counts: DocredCounts, *, train_path: Any = None, inputs: Mapping[str, Any] | None = None) -> Result:
    """The measures ``relation`` (F1), ``ign`` (Ign F1, with a training file), ``evidence``, ``intra`` and
    ``inter``, by document; the options name the official script and its commit."""
    names = [n for n in DOCRED_MEASURES if n != "ign" or counts.train]
    measures = {n: _table(counts, n) for n in names}
    profile = f"docred ({DOCRED_SCRIPT}; Ign F1 without the + 1e-5 of Re-DocRED's copy)"
    options = {"preset": "docred", "profile": profile, "official_script": DOCRED_SCRIPT,
               "split_script": DOCRED_SPLIT_SCRIPT, "train": str(train_path) if train_path is not None else None,
               "ign_denominator_epsilon": 0.0}
    return Result("structured", "structured", measures, nested=True, options=options, inputs=inputs)
