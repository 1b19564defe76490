"""``accord.score``: the stages of :mod:`accord.pipeline` (read, prepare, pair), then a mode's measure (the pairs
mode: pairing and :func:`accord.tally.tally`; CLUEval; SemEval) into a result, in one call."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ._collector import collection_paused
from ._offset_units import unify_units
from ._progress import track
from .errors import OptionError
from .match.engine import DocumentAlignment, Pairer, make_similarity
from .metrics.prf import ZERO_DIVISION
from .model import Annotation
from .pipeline import (
    ALLOW_MISSING,
    check_user_names,
    corpus_names,
    in_shard,
    match_file_names,
    missing_documents,
    pair_documents,
    read_sides,
    read_with_repairs,
    reading_once,
    source_name,
)
from .regions import UNDECLARED, annotation_roles, prepare_corpus, restrict_pairs
from .report import Report
from .schema import Task, load_task
from .tally import ScoreRows, tally

__all__ = ["score", "pair_documents", "missing_documents", "corpus_names", "match_file_names", "read_sides",
           "reading_once", "source_name", "ALLOW_MISSING"]
# the stages' names stay importable from here (accord.scoring was their home before accord.pipeline)


@collection_paused     # many small objects, no cycle to collect: see accord._collector
def score(
    gold: Any,
    pred: Any = None,
    *,
    format: str | None = None,
    gold_format: str | None = None,
    pred_format: str | None = None,
    task: Task | str | os.PathLike | None = None,
    profile: str | None = None,
    score_profile: str | None = None,
    attributes: Sequence[str] = (),
    equivalence_classes: Mapping[str, Sequence[str]] | None = None,
    ignore: Sequence[str] = (),
    beta: float = 1.0,
    zero_division: str = "zero",
    allow_missing: str | None = None,
    validate: bool = True,
    gold_column: int | str | None = None,
    pred_column: int | str | None = None,
    units: Sequence[str] = (),
    content_annotations: Sequence[str] | None = None,
    token_annotations: Sequence[str] | None = None,
    gold_only: bool = False,
    ref_gold_only: bool = False,
    file_re: str | None = None,
    ref_fsuff_off: str | None = None,
    ref_fsuff_on: str | None = None,
    confusability: str | None = None,
    gold_set: str | None = None,
    pred_set: str | None = None,
    match: str = "pairs",
    leniency: int | str = 1,
    labelled: bool = True,
    jobs: int | str = 1,
    client: Any = None,
    shard_size: int | None = None,
    **read_options: Any,
) -> Any:
    """Compare predicted annotations with gold annotations.

    Parameters
    ----------
    gold, pred : path, Corpus or Python object
        Files or directories (read with :func:`accord.read`), loaded corpora, or Python objects
        (:mod:`accord.objects`): lists of tag lists (seqeval's ``y_true``, ``y_pred``; integer tags with
        ``label_names=``), spaCy ``Doc``s, ``Example``s or a ``DocBin``, a Hugging Face ``Dataset``, a
        pandas ``DataFrame`` of spans or of token tags. ``pred`` may be left out for spaCy ``Example``s
        (their ``reference`` is gold, ``predicted`` the prediction) and with ``gold_column`` and
        ``pred_column`` (two columns of one file).
    format, gold_format, pred_format : str, optional
        Format names (``conll``, ``brat``, ``mat-json``, ``jsonl``); sniffed when omitted.
    task : Task or path, optional
        A MAT task file: labels, attributes, effective labels, similarity and score profiles.
    profile : str, optional
        ``strict`` (default without a task), ``lenient``, ``mat``, or the name of a
        similarity profile of the task (default with a task: the task's default profile).
    score_profile : str, optional
        Name of a score profile of the task (default: its unnamed one, if any).
    attributes : sequence of str
        Attributes that must be equal for a strict or lenient match.
    equivalence_classes : mapping
        ``{"NAME": ["A", "B"]}``: labels A and B both score as NAME.
    ignore : sequence of str
        Labels (after equivalence) removed before pairing.
    beta : float
        The F-beta weight (reported under the key ``f1``).
    zero_division : {"zero", "one", "nan"}
        The rate for an empty denominator.
    allow_missing : {None, "empty", "skip"}
        How documents present on one side only count (see :func:`pair_documents`).
    validate : bool
        Check both corpora against the task schema first.
    gold_column, pred_column : int or str, optional
        Column files (CoNLL, VRT): the tag column of each side. With both, ``pred`` may
        be ``None``: gold and prediction are two columns of the ``gold`` file. VRT columns
        go by name or 1-based number, CoNLL columns by ``tag_column``'s numbering.
    units : sequence of {"token", "pseudo-token", "character"}
        Also score in these units, as MAT's ``--by_token``, ``--by_pseudo_token`` and
        ``--by_character`` (:mod:`accord.units`); ``Report.units`` holds the results.
    content_annotations, token_annotations : sequence of str, optional
        Without a task, which labels are scored and which are tokens (MAT's ``--content_annotations`` and
        ``--token_annotations``; default: tokens ``lex``, content every label but tokens, ``zone`` and
        ``SEGMENT``). With a task its annotation set descriptors say it (:mod:`accord.regions`).
    gold_only, ref_gold_only : bool
        Score only inside the SEGMENTs whose status is ``human gold`` or ``reconciled`` of the predicted
        (``gold_only``, MAT's ``--gold_only``) or of the gold documents (``ref_gold_only``).
    file_re, ref_fsuff_off, ref_fsuff_on : str, optional
        MATScore's file selection and pairing by file names (:func:`match_file_names`).
    confusability : {"token", "pseudo-token", "character"}, optional
        Build the confusability matrix in this unit (it must be among ``units``). Without a task or a
        ``profile`` it pairs under MAT's default profile (``mat``: by overlap, so that label confusions show),
        not the strict default.
    gold_set, pred_set : str, optional
        GATE XML: the annotation set of each side (default: the default set).
    match : {"pairs", "clueval", "semeval"}
        ``pairs``: the profile's one-to-one pairing (a :class:`Report`); ``clueval``: CLUEval's leniency
        levels (a :class:`~accord.clueval._result.ClueResult`, ``leniency`` and ``labelled`` choosing the
        level shown first); ``semeval``: the SemEval-2013 schemas (a :class:`~accord.result.Result`).
    jobs : int or "auto"
        Score in this many processes (``auto``: one per core): the inputs are cut into shards at document
        boundaries and the shards' count tables added up, into exactly the result of ``jobs=1``
        (:mod:`accord.parallel`). Inputs that cannot be cut are scored in one process, with a warning.
    client : distributed.Client, optional
        Score the shards on this Dask cluster instead (paths must be readable by its workers).
    shard_size : int, optional
        The bytes of input per shard (default 16 MiB); a worker's memory grows with it.
    **read_options
        Passed to the readers (``scheme``, ``repair``, ``tag_column``...) or to :func:`accord.objects.as_corpus`
        (``label_names``, ``suffix``, ``spans_key``, ``tokens_column``, ``tags_column``, ``document_column``).

    Returns
    -------
    Report, or the result of the ``match`` mode
    """
    if shard_size is not None and client is None and str(jobs) == "1":
        raise OptionError("shard_size (--shard-size) applies with jobs > 1 (--jobs) or a Dask client (--dask)")
    if (client is not None or jobs != 1) and not in_shard():
        from .parallel import score_in_shards

        arguments = {k: v for k, v in locals().items() if k not in ("jobs", "client", "shard_size")}
        sharded = score_in_shards(arguments, jobs, client, shard_size, score=score)
        if sharded is not None:
            return sharded
    if match != "pairs":
        return _score_spans(gold, pred, match, leniency=leniency, labelled=labelled, beta=beta,
                            zero_division=zero_division, allow_missing=allow_missing, formats=(
                                gold_format or format, pred_format or format), columns=(gold_column, pred_column),
                            sets=(gold_set, pred_set), read_options=read_options, unsupported={
                                "task": task, "profile": profile, "score_profile": score_profile,
                                "attributes": attributes, "equivalence_classes": equivalence_classes,
                                "ignore": ignore, "units": units, "confusability": confusability})
    if "token_label" in read_options:     # renamed: a reader would ignore it silently
        raise OptionError("token_label is now token_annotations (a list of labels, MAT's --token_annotations)")
    if zero_division not in ZERO_DIVISION:
        raise OptionError(f"zero_division must be one of {', '.join(ZERO_DIVISION)}; got {zero_division!r}")
    if not beta >= 0 or math.isinf(beta):
        raise OptionError(f"--beta must be a number >= 0; got {beta}")
    if isinstance(task, (str, os.PathLike)):
        task = load_task(task)
    gold_c, pred_c, repairs = read_with_repairs(gold, pred, gold_format or format, pred_format or format,
                                                 read_options, gold_column, pred_column, gold_set, pred_set)
    named = match_file_names(gold_c, pred_c, file_re, ref_fsuff_off, ref_fsuff_on)
    if named[0] is not gold_c or named[1] is not pred_c:   # paired anew by file name: offsets in one unit again
        unified = unify_units(named, (source_name(gold), source_name(gold if pred is None else pred)),
                              ("gold", "predicted"))
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
    options.update({k: read_options[k] for k in ("scheme", "repair", "suffix") if read_options.get(k)})
    inputs = {"gold": {"sources": [source_name(gold, gold_column)], "documents": len(gold_c)},
              "pred": {"sources": [source_name(gold if pred is None else pred, pred_column)],
                       "documents": len(pred_c)}}
    report = Report(counts, alignments, beta=beta, zero_division=zero_division, options=options, inputs=inputs)
    report.repairs, report.corpora = repairs, (gold_c, pred_c)
    if confusability is not None and confusability not in units:
        raise OptionError(f"the confusability matrix is built in one of the scored units ({', '.join(units) or 'none'}"
                          f"), not in {confusability!r}")
    if units:
        from .units import score_units
        report.units = score_units(alignments, pairer, units, token_labels=roles.token, confusability=confusability)
        options.update(units=list(units), token_annotations=sorted(roles.token), confusability=confusability)
    return report


def _score_spans(gold: Any, pred: Any, match: str, *, leniency: int | str, labelled: bool, beta: float,
                 zero_division: str, allow_missing: str | None, formats: tuple, columns: tuple, sets: tuple,
                 read_options: dict[str, Any], unsupported: dict[str, Any]) -> Any:
    """``score(match=NAME)`` for a mode of the registry (:mod:`accord.modes`) other than pairs: read both sides,
    then the mode measures them."""
    from .modes import ModeOptions, mode

    chosen = mode(match)
    given = [name for name, value in unsupported.items() if value and name not in chosen.takes]
    if "leniency" not in chosen.takes and (str(leniency) != "1" or not labelled):
        given.append("leniency/labelled")
    if given:
        raise OptionError(f"{', '.join(given)} do not apply to --match {match}")
    if zero_division not in ZERO_DIVISION:
        raise OptionError(f"zero_division must be one of {', '.join(ZERO_DIVISION)}; got {zero_division!r}")
    gold_c, pred_c, repairs = read_with_repairs(gold, pred, formats[0], formats[1], read_options, columns[0],
                                                columns[1], *sets)
    inputs = {"gold": {"sources": [source_name(gold, columns[0])], "documents": len(gold_c)},
              "pred": {"sources": [source_name(gold if pred is None else pred, columns[1])],
                       "documents": len(pred_c)}}
    options = {"allow_missing": allow_missing,
               **{k: read_options[k] for k in ("scheme", "repair", "suffix") if read_options.get(k)}}
    out = chosen.measure(gold_c, pred_c, ModeOptions(allow_missing, beta, zero_division, leniency, labelled, options,
                                                     inputs))
    out.repairs, out.corpora = repairs, (gold_c, pred_c)
    return out
