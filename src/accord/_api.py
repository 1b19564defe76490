"""The commands as Python functions, each returning a result of the one result model: :func:`score` here (the
stages of :mod:`accord.pipeline`, then a mode of :mod:`accord.modes`); the other commands live in their mode's
package and are reachable here by name (``_api.coref`` is :func:`accord.structured._commands.coref`...)."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any

from ._support.collector import collection_paused
from ._support.surface import spelled
from .errors import OptionError, ShardedRunWarning

if TYPE_CHECKING:
    from .agreement._commands import agree
    from .diff._commands import benchmark, gate_diff, qa
    from .model.schema import Task
    from .structured._commands import coref, smatch, structured_metrics

__all__ = ["score", "coref", "smatch", "structured_metrics", "gate_diff", "qa", "benchmark", "agree"]

COMMANDS = {"coref": ".structured._commands", "smatch": ".structured._commands",
            "structured_metrics": ".structured._commands", "qa": ".diff._commands", "gate_diff": ".diff._commands",
            "benchmark": ".diff._commands", "agree": ".agreement._commands"}
"""Where each command other than :func:`score` lives (its mode's package), imported on first use."""


def __getattr__(name: str) -> Any:
    if name in COMMANDS:
        return getattr(import_module(COMMANDS[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _streamed() -> bool:
    """Whether the caller scores in one process shard by shard (:data:`accord.parallel._run.STREAM`)."""
    from .parallel._run import streamed

    return streamed()


@collection_paused     # many small objects, no cycle to collect: see accord._support.collector
def score(
    gold: Any,
    pred: Any = None,
    *,
    format: str | None = None,
    gold_format: str | None = None,
    pred_format: str | None = None,
    gold_encoding: str | None = None,
    pred_encoding: str | None = None,
    task: Task | str | os.PathLike | None = None,
    xml_input_is_overlay: bool = False,
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
    slices: Sequence[str] | str = (),
    train: Any = None,
    length_bins: str | Sequence[str] | None = None,
    jobs: int | str = 1,
    client: Any = None,
    shard_size: int | None = None,
    align: str | None = None,
    align_threshold: float | None = None,
    normalize: Sequence[str] | str | None = None,
    relaxed: str | None = None,
    relaxed_threshold: float | None = None,
    judge: Any = None,
    judge_cache: str | os.PathLike | None = None,
    judge_limit: int | None = None,
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
    gold_encoding, pred_encoding : str, optional
        The text encoding of the gold and of the predicted files (``--gold-encoding``, MAT's ``--ref_encoding``, and
        ``--pred-encoding``); by default ``--encoding``'s (UTF-8).
    task : Task or path, optional
        A MAT task file: labels, attributes, effective labels, similarity and score profiles.
    xml_input_is_overlay : bool
        MAT's ``xml_input_is_overlay``: in ``xml-inline`` and ``fake-xml-inline`` documents only the elements of the
        task's labels (and MAT's ``lex``, ``zone``, ``SEGMENT``) are annotations; other markup stays in the signal.
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
        ``SEGMENT``). With a task its annotation set descriptors say it (:mod:`accord.pipeline._regions`).
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
    match : str
        The mode (:mod:`accord.modes`): ``pairs`` (default), the profile's one-to-one pairing (a
        :class:`Report`); ``clueval``, CLUEval's leniency levels (a :class:`~accord.clueval._result.ClueResult`,
        ``leniency`` and ``labelled`` choosing the level shown first); ``semeval``, the SemEval-2013 schemas
        (a :class:`~accord.result.Result`); or a mode registered with :func:`accord.modes.register_mode`. An
        option the mode does not take (``task`` for ``clueval``...) is an :class:`~accord.errors.OptionError`.
    slices : sequence of {"nesting", "length", "seen"}
        The pairs mode: also count the items of each slice as a measure of its own (``nesting:flat``, ``nesting:inner``,
        ``length:1``, ``seen:unseen``...; :mod:`accord.pairs._slices` defines them); the result then nests its
        measures (``pairs`` first).
    train : path or Corpus, optional
        With ``slices=["seen"]``: the training corpus (read in the gold side's format) whose entities' (text, label)
        are seen.
    length_bins : str, optional
        With ``slices=["length"]``: the bins of entity length in tokens (default ``"1,2,3,4+"``).
    jobs : int or "auto"
        Score in this many processes (``auto``: one per core): the inputs are cut into shards at document
        boundaries and the shards' count tables added up, into exactly the result of ``jobs=1``
        (:mod:`accord.parallel`). Inputs that cannot be cut are scored in one process, with a warning.
    client : distributed.Client, optional
        Score the shards on this Dask cluster instead (paths must be readable by its workers).
    shard_size : int, optional
        The bytes of input per shard (default 4 MiB); a worker's memory grows with it.
    align : {"exact", "fuzzy", "none"}, optional
        A predicted side of generated records (strings without offsets, the ``records`` format, or a list of such
        dicts): how its strings are placed on the gold text (:mod:`accord.pipeline._align`; default ``exact``);
        ``none``: not placed, each document's multiset of (string, label) against the gold one.
    align_threshold : float, optional
        With ``align="fuzzy"``: the least similarity (0 to 1, default 0.9) of a fuzzily placed string.
    normalize : str or sequence of str, optional
        With ``align="none"``: the string normalisers (``lower``, ``whitespace``, ``nfkc``, ``strip-punctuation``,
        ``articles``, ``digits``; :mod:`accord.pipeline._normalize`).
    relaxed : {"token-f1", "ratio", "containment"}, optional
        With ``align="none"``: also pair the strings left after the strict matching, one-to-one and label by label,
        by this similarity, into a second measure ``relaxed`` (:mod:`accord.pipeline._relaxed`).
    relaxed_threshold : float, optional
        The least similarity of a relaxed match, above 0 and at most 1 (default: 0.5 for ``token-f1``, 0.8 for
        ``ratio``, 1 for ``containment``).
    judge : str or callable, optional
        With ``align="none"``: ``"module:function"`` or a callable ``judge(gold, pred)`` of two records
        (``{"document", "text", "label"}``) returning True/False or a number from 0 to 1, asked about the strings
        still left (same document and label), into a measure ``judge`` (:mod:`accord.pipeline._judge`).
    judge_cache : path, optional
        JSON lines of the judge's verdicts, read first and appended to; without ``judge``, its verdicts alone.
    judge_limit : int, optional
        The most pairs the judge may be asked about in one run (default 1000; more is refused before any call).
    **read_options
        Passed to the readers (``scheme``, ``repair``, ``tag_column``...) or to :func:`accord.objects.as_corpus`
        (``label_names``, ``suffix``, ``spans_key``, ``tokens_column``, ``tags_column``, ``document_column``).

    Returns
    -------
    Report, or the result of the ``match`` mode
    """
    arguments = {k: v for k, v in locals().items() if k not in ("jobs", "client", "shard_size")}   # before others
    from .formats.records.generated_model import is_records  # not the reader (csv, its forms): only the test
    from .metrics.prf import ZERO_DIVISION
    from .model.schema import load_task
    from .modes import ModeOptions, check_mode_options, mode
    from .pipeline import check_label_case, corpus_names, in_shard, read_with_repairs, source_name

    chosen = mode(match)
    if chosen.sides != 2:
        raise OptionError(f"match={match!r} compares {'several' if chosen.sides == 0 else chosen.sides} sides: "
                          f"run it with accord.{'agree' if chosen.command == 'agree' else chosen.command}() or "
                          f"`accord {chosen.command}`")
    if shard_size is not None and client is None and str(jobs) == "1":
        raise OptionError("shard_size (--shard-size) applies with jobs > 1 (--jobs) or a Dask client (--dask)")
    if not chosen.reads_spans and (client is not None or str(jobs) != "1"):
        raise OptionError(f"jobs (--jobs) and a Dask client cut span inputs into shards; match={match!r} reads "
                          f"{chosen.inputs}")
    encodings = (gold_encoding, pred_encoding)
    if (client is not None or jobs != 1) and not in_shard() and encodings != (None, None):
        warnings.warn(ShardedRunWarning("--gold-encoding/--pred-encoding: the sides are read in one process (the "
                                        "shards are cut in one encoding)"), stacklevel=3)
    elif (client is not None or jobs != 1 or _streamed() and chosen.reads_spans and encodings == (None, None)) \
            and not in_shard():
        from .parallel import score_in_shards

        sharded = score_in_shards(arguments, jobs, client, shard_size, score=score)
        if sharded is not None:
            return sharded
    settings = {"task": task, "profile": profile, "score_profile": score_profile, "attributes": attributes,
                "equivalence_classes": equivalence_classes, "ignore": ignore, "units": units,
                "confusability": confusability, "content_annotations": content_annotations,
                "token_annotations": token_annotations, "gold_only": gold_only, "ref_gold_only": ref_gold_only,
                "file_re": file_re, "ref_fsuff_off": ref_fsuff_off, "ref_fsuff_on": ref_fsuff_on,
                "validate": validate, "leniency": leniency, "labelled": labelled, "slices": slices, "train": train,
                "length_bins": length_bins}
    if not chosen.reads_spans and train is not None:     # a mode that reads its inputs itself takes its own train
        read_options = {**read_options, "train": train}
        settings["train"] = None
    check_mode_options(chosen, settings)
    if "token_label" in read_options:     # renamed: a reader would ignore it silently
        raise OptionError("token_label is now token_annotations (a list of labels, MAT's --token_annotations)")
    if zero_division not in ZERO_DIVISION:
        raise OptionError(f"{spelled('zero_division')} must be one of {', '.join(ZERO_DIVISION)}; "
                          f"got {zero_division!r}")
    if not beta >= 0 or math.isinf(beta):
        raise OptionError(f"{spelled('beta')} must be a number >= 0; got {beta}")
    if not chosen.reads_spans:     # the mode reads its inputs itself, its own options checked by its function
        if any(x is not None for x in (relaxed, relaxed_threshold, judge, judge_cache, judge_limit)):
            raise OptionError(f"relaxed matching and a judge score generated strings as spans; match={match!r} "
                              f"reads {chosen.inputs}")
        if gold_column is not None or pred_column is not None or pred is None:
            raise OptionError(f"match={match!r} compares two inputs given as gold and pred; columns of one file "
                              f"are span inputs")
        if encodings != (None, None):
            raise OptionError(f"gold_encoding and pred_encoding (--gold-encoding, --pred-encoding) apply to span "
                              f"inputs; match={match!r} reads {chosen.inputs} in --encoding's encoding")
        extra = dict(read_options)
        extra.update({k: v for k, v in (("key_set", gold_set), ("response_set", pred_set)) if v is not None})
        return chosen.measure(gold, pred, ModeOptions(allow_missing, beta, zero_division, extra=extra,
                                                      formats=(gold_format or format, pred_format or format)))
    if isinstance(task, (str, os.PathLike)):     # before the inputs are read: a task file's error comes first
        settings["task"] = load_task(task)
    if xml_input_is_overlay:
        read_options = {**read_options, "xml_overlay_labels": _overlay_labels(settings["task"], format, gold_format,
                                                                              pred_format)}
    if train is not None and "train" in chosen.takes:     # read once, in the gold side's format
        from .pairs._slices import TrainingSet, check_slices

        check_slices(slices, train, length_bins)
        settings["train"] = TrainingSet.read(train, gold_format or format, read_options)
    if isinstance(pred, list) or type(pred).__name__ == "DataFrame":    # records: dicts, tuples, a DataFrame
        from .formats.records.generated_forms import python_records

        records = python_records(pred)
        pred = pred if records is None else records
    gold_c, pred_c, repairs = read_with_repairs(gold, pred, gold_format or format, pred_format or format,
                                                 read_options, gold_column, pred_column, gold_set, pred_set,
                                                 encodings)
    if not in_shard():     # a shard's caller checks the labels of all shards
        check_label_case(corpus_names((gold_c, pred_c), attributes=False)[0])
    sources = (source_name(gold), source_name(gold if pred is None else pred))
    inputs = {"gold": {"sources": [source_name(gold, gold_column)], "documents": len(gold_c)},
              "pred": {"sources": [source_name(gold if pred is None else pred, pred_column)],
                       "documents": len(pred_c)}}
    options = {"allow_missing": allow_missing,
               **{k: read_options[k] for k in ("scheme", "repair", "suffix") if read_options.get(k)}}
    alignment = layered = None
    layer_options = (relaxed, relaxed_threshold, judge, judge_cache, judge_limit)
    if (align is not None or align_threshold is not None or normalize or is_records(pred_c) or is_records(gold_c)
            or any(x is not None for x in layer_options)):
        from .pipeline._align import align_records
        from .pipeline._multisets import multiset_layers

        if is_records(gold_c) or not is_records(pred_c):
            raise OptionError("align (--align) places generated records (strings without offsets) of the predicted "
                              "side on the gold text: the gold side must have offsets and the predicted side be "
                              "records")
        if units:
            raise OptionError("units (--by-token, --by-pseudo-token, --by-character) count the characters of a text; "
                              "generated records have none of their own (a string not found in the gold text has no "
                              "place): score them by spans")
        if normalize and align != "none":
            raise OptionError("normalize (--normalize) applies with align='none' (--align none)")
        if any(x is not None for x in layer_options) and align != "none":
            raise OptionError("relaxed matching and a judge (--relaxed, --judge, --judge-cache) apply with "
                              "align='none' (--align none)")
        if align == "none":
            if align_threshold is not None:
                raise OptionError("align_threshold (--align-threshold) applies with align='fuzzy' (--align fuzzy)")
            layered = multiset_layers(gold_c, pred_c, normalize, relaxed=relaxed, relaxed_threshold=relaxed_threshold,
                                      judge=judge, judge_cache=judge_cache, judge_limit=judge_limit)
            gold_c, pred_c, alignment = layered.gold, layered.pred, layered.summary
        else:
            pred_c, alignment = align_records(gold_c, pred_c, align or "exact", align_threshold)
    mode_options = ModeOptions(allow_missing, beta, zero_division, leniency, labelled, options, inputs,
                               settings=settings, sources=sources)
    out = chosen.measure(gold_c, pred_c, mode_options)
    if layered is not None:     # relaxed and judged matches: measures beside the strict one
        from .pipeline._multisets import attach_layers
        from .result import ResultTable

        attach_layers(out, layered, lambda g, p: chosen.measure(g, p, mode_options), ResultTable)
    out.repairs = repairs
    if alignment is not None:     # how the strings were placed (an option) and what it gave (their outcome)
        out.options["align"] = alignment["align"]
        out.options["alignment"] = alignment
    if getattr(out, "corpora", None) is None:    # a mode may keep the corpora as it prepared them
        out.corpora = (gold_c, pred_c)
    return out


def _overlay_labels(task: Any, *formats: str | None) -> frozenset[str]:
    """The elements that are annotations under MAT's ``xml_input_is_overlay``: the task's labels and MAT's own."""
    from .pipeline._regions import SEGMENT_LABELS, TOKEN_LABELS, ZONE_LABELS

    if task is None:
        raise OptionError(f"{spelled('xml_input_is_overlay')} needs a task ({spelled('task')}): its labels are the "
                          "elements that are annotations")
    other = sorted({f for f in formats if f is not None and f not in ("xml-inline", "fake-xml-inline")})
    if other:
        raise OptionError(f"{spelled('xml_input_is_overlay')} reads xml-inline and fake-xml-inline documents, not "
                          f"{', '.join(other)}")
    return frozenset(task.labels) | frozenset(TOKEN_LABELS + ZONE_LABELS + SEGMENT_LABELS)
