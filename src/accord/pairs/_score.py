"""The pairs mode: MAT's one-to-one pairing under a similarity profile, with tasks, score profiles, regions and
units (``accord score``'s default, ``match="pairs"``).

The stages before it (:mod:`accord.pipeline`) read both sides; this mode pairs documents by file name when asked,
prepares the corpora (equivalences, ``--ignore``, regions), validates them against the task, pairs the annotations
of each document pair (:class:`~accord.match.engine.Pairer`) and counts the outcomes into a
:class:`~accord.pairs.Report` (:func:`~accord.pairs._tally.tally`), with MAT's units when asked.
"""

from __future__ import annotations

from typing import Any

from .._support.progress import track
from ..errors import OptionError
from ..match.engine import DocumentAlignment, Pairer, make_similarity
from ..model import Annotation, Corpus
from ..modes import ModeOptions
from ..pipeline import check_user_names, in_shard, match_file_names, pair_documents
from ..pipeline._offset_units import unify_units
from ..pipeline._regions import UNDECLARED, annotation_roles, prepare_corpus, restrict_pairs
from ..result import PairsKind
from ._report import Report
from ._slices import LengthBins, TrainingSet, check_slices, slice_measures, slice_options, sliced
from ._tally import ScoreRows, tally

__all__ = ["measure_corpora"]


def measure_corpora(gold_c: Corpus, pred_c: Corpus, mode_options: ModeOptions) -> Report:
    """The pairs mode's result for two corpora read by :func:`accord.score` (its mode-specific options in
    ``mode_options.settings``: see :func:`accord.score` for each)."""
    settings = mode_options.settings
    task, profile, score_profile = settings.get("task"), settings.get("profile"), settings.get("score_profile")
    attributes, ignore = settings.get("attributes") or (), settings.get("ignore") or ()
    equivalence_classes = settings.get("equivalence_classes")
    units, confusability = settings.get("units") or (), settings.get("confusability")
    content_annotations, token_annotations = settings.get("content_annotations"), settings.get("token_annotations")
    gold_only, ref_gold_only = bool(settings.get("gold_only")), bool(settings.get("ref_gold_only"))
    file_re, ref_fsuff_off, ref_fsuff_on = settings.get("file_re"), settings.get("ref_fsuff_off"), settings.get(
        "ref_fsuff_on")
    validate = settings.get("validate", True)
    slicings = check_slices(settings.get("slices"), settings.get("train"), settings.get("length_bins"))
    bins = LengthBins.parse(settings.get("length_bins")) if "length" in slicings else None
    beta, zero_division, allow_missing = mode_options.beta, mode_options.zero_division, mode_options.allow_missing
    named = match_file_names(gold_c, pred_c, file_re, ref_fsuff_off, ref_fsuff_on)
    if named[0] is not gold_c or named[1] is not pred_c:   # paired anew by file name: offsets in one unit again
        unified = unify_units(named, mode_options.sources, ("gold", "predicted"))
        named = (unified[0], unified[1])
    gold_c, pred_c = named
    equivalences: dict[str, str] = {}
    for name, members in (equivalence_classes or {}).items():
        for m in members:
            equivalences[m] = name
    if not in_shard():     # a shard's caller checks the names of all shards
        check_user_names(gold_c, pred_c, task, attributes, equivalences, ignore, content_annotations,
                          token_annotations)
    roles = annotation_roles(task, content_annotations, token_annotations)
    # --ignore before validation, as MAT removes ignored labels before anything else reads them
    kept_equivalences = {k: v for k, v in equivalences.items() if k not in ignore}

    def scoring_label(a: Annotation) -> str:
        lbl = task.effective_label(a) if task is not None else a.label
        return kept_equivalences.get(lbl, lbl)
    gold_c, gold_regions = prepare_corpus(gold_c, roles, scoring_label, ignore, ref_gold_only, task)
    pred_c, pred_regions = prepare_corpus(pred_c, roles, scoring_label, ignore, gold_only, task)
    if task is not None and validate:
        task.validate(gold_c, UNDECLARED)
        task.validate(pred_c, UNDECLARED)
    if confusability is not None and profile is None and task is None:
        # a label confusion needs a pairing across labels: MAT's default profile (pairs by overlap, label .1,
        # span .9), as MATScore without a task, instead of the strict default of column files
        profile = "mat"
    similarity = make_similarity(profile, task, attributes)
    pairer = Pairer(similarity, task, equivalences, list(ignore) + sorted(roles.token - set(ignore)))
    triples: Any = pair_documents(gold_c, pred_c, allow_missing)
    if any(r is not None for r in gold_regions.values()) or any(r is not None for r in pred_regions.values()):
        triples = restrict_pairs(triples, gold_regions, pred_regions, roles.token)
    alignments: list[DocumentAlignment] = pairer.align_many(track(triples, "pairing documents"))
    rows = ScoreRows.from_spec(task.score_profile(score_profile) if task is not None else None)
    counts = tally(alignments, task=task, rows=rows)
    options = {"profile": similarity.name, "beta": beta, "zero_division": zero_division,
               "attributes": list(attributes), "ignore": list(ignore),
               "equivalence_classes": {k: list(v) for k, v in (equivalence_classes or {}).items()},
               "allow_missing": allow_missing, "task": task.source if task is not None else None,
               "score_profile": score_profile}
    if content_annotations or token_annotations:
        options.update(content_annotations=sorted(roles.content or ()), token_annotations=sorted(roles.token))
    if gold_only or ref_gold_only:
        options.update(gold_only=gold_only, ref_gold_only=ref_gold_only)
    options.update({k: v for k, v in (("file_re", file_re), ("ref_fsuff_off", ref_fsuff_off),
                                      ("ref_fsuff_on", ref_fsuff_on)) if v is not None})
    options.update({k: v for k, v in mode_options.options.items() if k in ("scheme", "repair", "suffix")})
    inputs = {side: {**mode_options.inputs[side], "documents": len(corpus)}
              for side, corpus in (("gold", gold_c), ("pred", pred_c))}    # after pairing by file name
    if confusability is not None and confusability not in units:
        raise OptionError(f"the confusability matrix is built in one of the scored units ({', '.join(units) or 'none'}"
                          f"), not in {confusability!r}")
    if units:     # recorded before the report copies the options (they were missing from the result's options)
        options.update(units=list(units), token_annotations=sorted(roles.token), confusability=confusability)
    report = Report(counts, alignments, beta=beta, zero_division=zero_division, options=options, inputs=inputs)
    report.corpora = (gold_c, pred_c)    # as prepared: what the error pages show
    if units:
        from ..units import score_units
        report.units = score_units(alignments, pairer, units, token_labels=roles.token, confusability=confusability)
    if slicings:
        train = TrainingSet.read(settings["train"]) if "seen" in slicings else None
        measures = slice_measures(alignments, list(counts.documents), list(counts.labels), slicings,
                                  PairsKind(beta, zero_division), bins=bins, train=train, limitation=rows.limitation)
        report = sliced(report, measures, slice_options(slicings, bins, train))
    return report

