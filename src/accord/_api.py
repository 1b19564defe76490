"""The commands as Python functions: each returns a result of the one result model."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ._support.collector import collection_paused
from .errors import OptionError

if TYPE_CHECKING:
    from typing_extensions import TypeIs

    from .model.schema import Task

__all__ = ["score", "coref", "smatch", "structured_metrics", "gate_diff", "qa", "benchmark", "agree"]

PathLike = str | os.PathLike


def _is_path(obj: object) -> TypeIs[str | os.PathLike]:
    return isinstance(obj, (str, os.PathLike))


def _load(obj: Any, format: str | None, annotation_set: str | None, side: str = "gold",
          discontinuous: str = "fragments") -> Any:
    """A corpus of one input: a path read in ``format`` (from ``annotation_set`` of GATE XML), a corpus as it is,
    or a Python object accord reads (:mod:`accord.objects`)."""
    from .formats import read
    from .model import Corpus

    if isinstance(obj, Corpus):
        return obj
    if _is_path(obj):
        return read(obj, format=format, annotation_set=annotation_set, discontinuous=discontinuous)
    if annotation_set is not None:
        raise OptionError(f"an annotation set names a set of GATE XML files; the {side} side is a "
                          f"{type(obj).__name__}")
    from .pipeline import read_corpus as _corpus

    return _corpus(obj, format, {}, side)


def _meet(corpora: Sequence[Any], sources: Sequence[Any], sides: Sequence[str] = ("key", "response")) -> list[Any]:
    """The corpora of a comparison ready to pair: single files paired as given, offsets in one unit
    (:func:`accord.pipeline._sides.meet`)."""
    from .pipeline._sides import meet

    return meet(corpora, sources, sides)


def _inputs(**sides: tuple[Any, int]) -> dict[str, Any]:
    from ._support.io import shown_name

    return {side: {"sources": [shown_name(str(src)) if _is_path(src) else f"<{type(src).__name__}>"], "documents": n}
            for side, (src, n) in sides.items()}


@collection_paused     # many small objects, no cycle to collect: see accord._support.collector
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
    arguments = {k: v for k, v in locals().items() if k not in ("jobs", "client", "shard_size")}   # before others
    from .metrics.prf import ZERO_DIVISION
    from .model.schema import load_task
    from .modes import ModeOptions, check_mode_options, mode
    from .pipeline import in_shard, read_with_repairs, source_name

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
    if (client is not None or jobs != 1) and not in_shard():
        from .parallel import score_in_shards

        sharded = score_in_shards(arguments, jobs, client, shard_size, score=score)
        if sharded is not None:
            return sharded
    settings = {"task": task, "profile": profile, "score_profile": score_profile, "attributes": attributes,
                "equivalence_classes": equivalence_classes, "ignore": ignore, "units": units,
                "confusability": confusability, "content_annotations": content_annotations,
                "token_annotations": token_annotations, "gold_only": gold_only, "ref_gold_only": ref_gold_only,
                "file_re": file_re, "ref_fsuff_off": ref_fsuff_off, "ref_fsuff_on": ref_fsuff_on,
                "validate": validate, "leniency": leniency, "labelled": labelled}
    check_mode_options(chosen, settings)
    if "token_label" in read_options:     # renamed: a reader would ignore it silently
        raise OptionError("token_label is now token_annotations (a list of labels, MAT's --token_annotations)")
    if zero_division not in ZERO_DIVISION:
        raise OptionError(f"zero_division must be one of {', '.join(ZERO_DIVISION)}; got {zero_division!r}")
    if not beta >= 0 or math.isinf(beta):
        raise OptionError(f"--beta must be a number >= 0; got {beta}")
    if not chosen.reads_spans:     # the mode reads its inputs itself, its own options checked by its function
        if gold_column is not None or pred_column is not None or pred is None:
            raise OptionError(f"match={match!r} compares two inputs given as gold and pred; columns of one file "
                              f"are span inputs")
        extra = dict(read_options)
        extra.update({k: v for k, v in (("key_set", gold_set), ("response_set", pred_set)) if v is not None})
        return chosen.measure(gold, pred, ModeOptions(allow_missing, beta, zero_division, extra=extra,
                                                      formats=(gold_format or format, pred_format or format)))
    if isinstance(task, (str, os.PathLike)):     # before the inputs are read: a task file's error comes first
        settings["task"] = load_task(task)
    gold_c, pred_c, repairs = read_with_repairs(gold, pred, gold_format or format, pred_format or format,
                                                 read_options, gold_column, pred_column, gold_set, pred_set)
    sources = (source_name(gold), source_name(gold if pred is None else pred))
    inputs = {"gold": {"sources": [source_name(gold, gold_column)], "documents": len(gold_c)},
              "pred": {"sources": [source_name(gold if pred is None else pred, pred_column)],
                       "documents": len(pred_c)}}
    options = {"allow_missing": allow_missing,
               **{k: read_options[k] for k in ("scheme", "repair", "suffix") if read_options.get(k)}}
    out = chosen.measure(gold_c, pred_c, ModeOptions(allow_missing, beta, zero_division, leniency, labelled, options,
                                                     inputs, settings=settings, sources=sources))
    out.repairs = repairs
    if getattr(out, "corpora", None) is None:    # a mode may keep the corpora as it prepared them
        out.corpora = (gold_c, pred_c)
    return out


def coref(key: PathLike | Mapping[str, Any], response: PathLike | Mapping[str, Any], *,
          metrics: Sequence[str] = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"),
          format: str | None = None, allow_missing: str | None = None) -> Any:
    """The CoNLL-2012 coreference metrics (``accord coref``).

    Parameters
    ----------
    key, response : path or mapping
        CoNLL-2012 or JSON-lines files, or ``{document: [entity, ...]}`` with each entity a list of
        inclusive ``(start, end)`` token spans.
    metrics : sequence of str
        Any of ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc``, ``lea``.
    allow_missing : {None, "empty", "skip"}
        A document on one side only: an error (``None``), scored against no entities (``"empty"``: the
        reference scorer's reading of a key document the response lacks), or left out (``"skip"``).

    Returns
    -------
    CorefResult
        One measure per metric; ``conll_f1`` when MUC, B-cubed and CEAFe are scored.
    """
    from .formats.coref.clusters import read_coref
    from .structured._result import coref_result
    from .structured.coref import coref_scores

    if _is_path(key) and _is_path(response) and _coref_unit(key, format) != _coref_unit(response, format):
        from .errors import PairingError

        units = {"char": "characters (brat, GATE XML, XMI)", "token": "tokens (CoNLL-2012, CorefUD, JSON lines)"}
        raise PairingError(f"the key ({key}) counts mentions in {units[_coref_unit(key, format)]} and the response "
                           f"({response}) in {units[_coref_unit(response, format)]}: their offsets would not mean "
                           "the same places; give both sides in one unit (the same kind of file)")
    k = read_coref(key, format) if _is_path(key) else dict(key)
    r = read_coref(response, format) if _is_path(response) else dict(response)
    if len(k) == 1 and len(r) == 1 and set(k) != set(r):    # two single files pair as given (accord.pipeline._sides)
        from .model import Corpus, Document
        from .pipeline._sides import pair_single_files

        (kid,), (rid,) = k, r
        paired = pair_single_files([Corpus([Document(kid)]), Corpus([Document(rid)])], (key, response))
        r = {next(iter(paired[1])): r[rid]}
    k, r = _pair_coref_documents(k, r, allow_missing, key, response)
    if not k:
        from .errors import PairingError

        raise PairingError(f"no document to score: {_name(key)} and {_name(response)} hold no document in common "
                           "(an empty file reads as no document)")
    scores = coref_scores(k, r, metrics=metrics)
    result = coref_result(scores, k, r, options={"metrics": list(scores), "allow_missing": allow_missing},
                          inputs=_inputs(gold=(key, len(k)), pred=(response, len(r))))
    result.source = scores
    return result


def _name(source: Any) -> str:
    """A side as messages name it: its path as given, or ``the mapping given`` for Python objects."""
    from ._support.io import shown_name

    return shown_name(str(source)) if _is_path(source) else "the mapping given"


def _coref_unit(path: Any, format: str | None) -> str:
    """``char`` for the coreference files whose mentions are character offsets (brat, GATE XML, XMI: read by
    :func:`accord.formats.coref.clusters.read_coref` from their extension or a folder holding them), ``token`` for the
    others."""
    if format is not None:
        return "char" if format in ("brat", "gate", "xmi") else "token"
    p = Path(path)
    marks = {".ann", ".xml", ".xmi"}
    if p.is_dir():
        return "char" if any(f.suffix.lower() in marks for f in p.iterdir() if f.is_file()) else "token"
    return "char" if p.suffix.lower() in marks else "token"


def _pair_coref_documents(k: dict[str, Any], r: dict[str, Any], allow_missing: str | None, key: Any,
                          response: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Key and response documents with the same ids, as ``allow_missing`` says (see :func:`coref`)."""
    from .errors import PairingError
    from .pipeline import ALLOW_MISSING

    if allow_missing not in (None,) + ALLOW_MISSING:
        raise OptionError(f"--allow-missing must be one of {', '.join(ALLOW_MISSING)}; got {allow_missing!r}")
    only_key = [d for d in k if d not in r]
    only_response = [d for d in r if d not in k]
    if not (only_key or only_response):
        return k, r
    if allow_missing is None:
        def show(ids: list[str]) -> str:
            return ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
        parts = []
        if only_key:
            parts.append(f"{len(only_key)} document(s) only in the key ({key if _is_path(key) else 'key'}): "
                         f"{show(only_key)}")
        if only_response:
            parts.append(f"{len(only_response)} document(s) only in the response "
                         f"({response if _is_path(response) else 'response'}): {show(only_response)}")
        raise PairingError("; ".join(parts) + ". Use --allow-missing empty (scored against no entities, as the "
                           "reference scorer reads a key document the response lacks) or --allow-missing skip")
    if allow_missing == "skip":
        return ({d: v for d, v in k.items() if d in r}, {d: v for d, v in r.items() if d in k})
    return ({**k, **{d: [] for d in only_response}}, {**r, **{d: [] for d in only_key}})


def smatch(gold: PathLike | Sequence[Any], pred: PathLike | Sequence[Any]) -> Any:
    """Smatch between graphs paired in order (``accord smatch``).

    ``gold`` and ``pred`` are PENMAN files or sequences of graphs (PENMAN strings, ``penman.Tree`` or
    ``penman.Graph``). Documents are the gold graphs' ``::id`` when every one has a distinct id, else
    their positions ``1``, ``2``, ...
    """
    from .structured._result import smatch_result
    from .structured.amr import read_amr, smatch_corpus

    g = read_amr(gold) if _is_path(gold) else list(gold)
    p = read_amr(pred) if _is_path(pred) else list(pred)
    if len(g) != len(p):
        raise OptionError(f"{gold if _is_path(gold) else 'gold'} has {len(g)} graphs but "
                          f"{pred if _is_path(pred) else 'pred'} has {len(p)}; they pair in order")
    total = smatch_corpus(p, g)
    ids = [getattr(x, "metadata", {}).get("id") for x in g]
    documents = cast("list[str]", ids) if all(ids) and len(set(ids)) == len(ids) else None   # every id set
    result = smatch_result(total, documents=documents, inputs=_inputs(gold=(gold, len(g)), pred=(pred, len(p))))
    result.source = total
    return result


_RELATION_FORMATS = ("brat", "mat-json", "label-studio", "doccano", "xmi", "gate")
"""Annotation formats whose relations and events ``accord structured`` reads through the annotation model."""


def _records(key: Any, response: Any, kind: str) -> tuple[Any, Any]:
    """The key's and the response's records of one kind: from JSON lines
    (:mod:`accord.formats.records.records`), or, for
    relations and events, from any annotation file (brat, MAT JSON, XMI, Label Studio...:
    :mod:`accord.formats.records.from_spans`), two annotation files meeting as every two sides do (:func:`_meet`)."""
    from .formats.records.records import read_records

    corpora = [_annotation_corpus(Path(path)) if kind in ("relations", "events") else None
               for path in (key, response)]
    if corpora[0] is not None and corpora[1] is not None:
        corpora = _meet(corpora, (key, response))
    if corpora[0] is None and corpora[1] is None:
        return read_records(Path(key), kind), read_records(Path(response), kind)
    from .formats.records.from_spans import records_from_corpus

    k, r = (records_from_corpus(c, kind) if c is not None else read_records(Path(p), kind)
            for c, p in zip(corpora, (key, response)))
    return k, r


def _annotation_corpus(p: Path) -> Any:
    """The corpus of a file of the annotation formats that hold relations, or None (JSON-lines records, whatever
    the extension)."""
    from .errors import FormatError
    from .formats._registry import read, sniff

    try:
        fmt = sniff(p).name
    except FormatError:
        return None
    return read(p, format=fmt) if fmt in _RELATION_FORMATS else None


def structured_metrics(key: PathLike, response: PathLike, metrics: Sequence[str], *, inclusive_spans: bool = False,
               premodifiers: Sequence[str] = (), hierarchy: Mapping[str, str] | None = None) -> Any:
    """Named structured metrics over JSON-lines records (``accord structured``).

    Parameters
    ----------
    key, response : path
        JSON lines, one document per line (record formats: :mod:`accord.formats.records.records`); for the relation
        and event metrics also any annotation file or folder (brat, MAT JSON, XMI...), its relations and
        events made into records (:mod:`accord.formats.records.from_spans`).
    metrics : sequence of str
        Names of :data:`accord.structured.named.NAMED_METRICS`.
    inclusive_spans, premodifiers, hierarchy
        SciREX's inclusive spans; MUC-4 and BETTER's premodifiers and set-fill hierarchy.
    """
    from ._support.names import unknown_message
    from .structured._result import records_result
    from .structured.named import NAMED_METRICS, score_records

    metrics = list(dict.fromkeys(metrics))
    if not metrics:
        raise OptionError(f"--metrics: name one or more of {', '.join(NAMED_METRICS)}")
    for m in metrics:
        if m not in NAMED_METRICS:
            raise OptionError(unknown_message(m, NAMED_METRICS, "structured metric", "--metrics", from_input=False))
    options = {"inclusive": inclusive_spans, "premodifiers": list(premodifiers),
               "set_parent": dict(hierarchy) if hierarchy is not None else None}
    loaded: dict[str, tuple[Any, Any]] = {}
    results = {}
    for name in metrics:
        kind = NAMED_METRICS[name][0]
        if kind not in loaded:
            loaded[kind] = _records(key, response, kind)
            held = loaded[kind][0].kinds | loaded[kind][1].kinds
            if kind not in held:
                raise OptionError(f"--metrics {name} scores {kind!r} records, and neither {key} nor "
                                  f"{response} has any; they hold {', '.join(sorted(held)) or 'no records'}")
        k, r = loaded[kind]
        results[name] = score_records(name, k, r, **options)
    first_key, first_resp = next(iter(loaded.values()))
    result = records_result(results, loaded, {n: NAMED_METRICS[n][0] for n in results},
                            options={"metrics": metrics, "inclusive_spans": inclusive_spans,
                                     "premodifiers": list(premodifiers), "hierarchy": options["set_parent"]},
                            inputs=_inputs(gold=(key, len(first_key)), pred=(response, len(first_resp))))
    result.source = (results, loaded)
    return result


def qa(key: PathLike | Any, response: PathLike | Any, *, measures: Sequence[str] | None = None, beta: float = 1.0,
       types: Sequence[str] | None = None, features: Sequence[str] | None = (), pairing: str = "gate",
       compare_as_strings: bool = False, allow_missing: str | None = None, bdm: PathLike | Any = None,
       format: str | None = None, key_set: str | None = None, response_set: str | None = None,
       command: str = "qa", discontinuous: str = "fragments", all_types: bool | None = None,
       hide_set: str | None = None) -> Any:
    """GATE's Corpus QA (``accord qa``; ``accord diff`` with ``command="diff"``).

    Parameters
    ----------
    key, response : path or Corpus
    measures : sequence of str, optional
        Of ``strict``, ``lenient``, ``average`` and the ``-bdm`` ones (default: strict, lenient, average;
        with ``bdm``: strict, lenient, strict-bdm, lenient-bdm).
    types, features, pairing, compare_as_strings, allow_missing
        As :func:`accord.diff.diff_corpora`.
    bdm : path or BdmTable, optional
        A BDM score file, for the BDM measures.
    all_types : bool, optional
        Without ``types``: compare every type of either side (True; the default of ``diff`` and with ``bdm``), or
        only the types both sides have (False; the default of ``qa``, as GATE's Corpus QA lists them), with a
        warning naming the types left out.
    hide_set : str, optional
        The annotation set of the key's GATE XML files holding what is already adjudicated (``accord adjudicate
        --set-name``): rows whose key or response it holds are left out (:func:`accord.diff.hide_adjudicated`).

    Returns
    -------
    Result
        One measure per GATE measure over the same counts; labels are annotation types.
    """
    from .diff import diff_corpora, parse_measure
    from .diff._result import diff_result

    table = None
    if bdm is not None:
        from .bdm import read_bdm_file

        table = read_bdm_file(bdm) if _is_path(bdm) else bdm
    names = measures or (["strict", "lenient", "strict-bdm", "lenient-bdm"] if table is not None
                         else ["strict", "lenient", "average"])
    chosen = tuple(dict.fromkeys(parse_measure(m) for m in names))
    if table is None and any(m.partition("@")[0].endswith("-bdm") for m in chosen):
        raise OptionError("the BDM measures need --bdm FILE (a BDM score file; see accord bdm)")
    k, r = _meet((_load(key, format, key_set, discontinuous=discontinuous),
                  _load(response, format, response_set, "pred", discontinuous)), (key, response))
    if not types and table is None and not (command == "diff" if all_types is None else all_types):
        types = _common_types(k, r)     # None when both sides have the same types
    cd = diff_corpora(k, r, types=types or None, features=features, pairing=pairing,
                      compare_as_strings=compare_as_strings, allow_missing=allow_missing, bdm=table)
    extra: dict[str, Any] = {}
    if hide_set is not None:
        from .diff import hide_adjudicated

        if table is not None:
            raise OptionError("--hide-set and --bdm cannot be combined (the BDM credit is computed over all rows)")
        if not _is_path(key):
            raise OptionError("--hide-set names a set of the key's GATE XML files; the key is not a file")
        cd, hidden = hide_adjudicated(cd, _load(key, format, hide_set, discontinuous=discontinuous))
        extra = {"hide_set": hide_set, "hidden_rows": hidden}
    result = diff_result(cd, chosen, beta, command=command,
                         options={"types": list(cd.types), "allow_missing": allow_missing, **extra},
                         inputs=_inputs(gold=(key, len(k)), pred=(response, len(r))))
    result.source = cd
    return result


def _types_and_features(types: Sequence[str] | None, feature: str | None, convention: str
                        ) -> tuple[list[str] | None, str | Mapping[str, str] | None]:
    """``--types Per:label,Org`` (GATE's ``annTypesAndFeats``, ``Per->label;Org``): the types, and the feature of each
    (``--feature`` for the types that name none); a single feature when they all share one."""
    if not types:
        return None, feature
    names, per_type = [], {}
    for entry in types:
        t, sep, f = entry.replace("->", ":").partition(":")
        if not t or (sep and not f):
            raise OptionError(f"--types {entry!r}: expected TYPE or TYPE:FEATURE")
        names.append(t)
        if sep:
            per_type[t] = f
    if not per_type:
        return names, feature
    mapping = {t: per_type.get(t, feature) for t in names}
    values = set(mapping.values())
    if len(values) == 1:
        return names, values.pop()
    if convention == "accord":
        raise OptionError("a feature per type (--types TYPE:FEATURE) needs --convention iaa or corpus-qa (the "
                          "accord convention reads one feature for every type)")
    return names, {t: f for t, f in mapping.items() if f is not None}


def _common_types(key: Any, response: Any) -> list[str] | None:
    """The annotation types both sides have (GATE's Corpus QA lists only those), None when they have the same
    ones; a warning names the others. BDM measures keep every type (their credit crosses types)."""
    import warnings

    from .errors import AccordWarning

    # spanned types: spanless ones (relations) are compared only when asked for, as the diff says
    kt = {a.label for d in key.values() for a in d.annotations if a.start is not None}
    rt = {a.label for d in response.values() for a in d.annotations if a.start is not None}
    common = sorted(kt & rt)
    if not common and kt and rt:
        warnings.warn(f"the key and the response have no annotation type in common (key: {', '.join(sorted(kt))}; "
                      f"response: {', '.join(sorted(rt))}): every type is compared, as with --all-types",
                      AccordWarning, stacklevel=3)
        return None
    left = [f"only in the key: {', '.join(sorted(kt - rt))}" if kt - rt else "",
            f"only in the response: {', '.join(sorted(rt - kt))}" if rt - kt else ""]
    if not any(left):
        return None
    warnings.warn(f"types left out, as GATE's Corpus QA compares the types both sets have ("
                  f"{'; '.join(x for x in left if x)}); --all-types compares them too", AccordWarning, stacklevel=3)
    return common


def gate_diff(key: PathLike | Any, response: PathLike | Any, **options: Any) -> Any:
    """GATE's Annotation Diff over a corpus (``accord diff``): :func:`qa` with ``command="diff"``."""
    return qa(key, response, command="diff", **options)


def benchmark(key: PathLike | Any, before: PathLike | Any, after: PathLike | Any, *, measure: str = "average",
              beta: float = 1.0, types: Sequence[str] | None = None, features: Sequence[str] | None = (),
              pairing: str = "gate", compare_as_strings: bool = False, allow_missing: str | None = None,
              format: str | None = None, key_set: str | None = None, before_set: str | None = None,
              after_set: str | None = None, discontinuous: str = "fragments") -> Any:
    """GATE's Corpus Benchmark (``accord benchmark``): one measure before and after, and what changed."""
    from .diff import parse_measure
    from .diff._benchmark import benchmark as run
    from .diff._result import benchmark_result
    from .report.benchmark_report import change_rows

    chosen = parse_measure(measure)
    if chosen.endswith("-bdm"):
        raise OptionError("accord benchmark compares strict, lenient or average figures")

    k = _load(key, format, key_set, discontinuous=discontinuous)
    b = _load(before, format, before_set, "pred", discontinuous)
    a = _load(after, format, after_set, "pred", discontinuous)
    k, b, a = _meet((k, b, a), (key, before, after), ("key", "before", "after"))
    bench = run(k, b, a, types=types or None, features=features, pairing=pairing,
                compare_as_strings=compare_as_strings, allow_missing=allow_missing)
    result = benchmark_result(bench, chosen, beta, change_rows(bench), options={"allow_missing": allow_missing},
                              inputs=_inputs(gold=(key, len(k)), before=(before, len(b)), after=(after, len(a))))
    result.source = bench
    return result


def _annotation_sets(inputs: Sequence[Any], sets: Sequence[str] | None, format: str | None, discontinuous: str
                     ) -> tuple[list[str], list[Any], dict[str, Any]]:
    """The annotators of ``agree``: ``(names, corpora, inputs block)`` from one INPUT per annotator (paths or
    corpora), or from the ``sets`` of one GATE XML input."""
    from .formats import read
    from .model import Corpus

    if sets is not None:
        if len(inputs) != 1:
            raise OptionError("--sets names the annotation sets of one INPUT (a GATE XML file or directory)")
        names = list(sets)
        corpora = [read(inputs[0], format=format, annotation_set=n, discontinuous=discontinuous) for n in names]
        sources = [str(inputs[0])] * len(names)
    else:
        names = [str(x) if _is_path(x) else (x.name or f"annotator {k + 1}") for k, x in enumerate(inputs)]
        corpora = [x if isinstance(x, Corpus) else read(x, format=format, discontinuous=discontinuous) for x in inputs]
        sources = [str(x) if _is_path(x) else "<Corpus>" for x in inputs]
    if len(set(names)) != len(names):
        raise OptionError("the same annotation set is given twice")
    if sets is None:
        corpora = _meet(corpora, inputs, [f"annotator {k + 1}" for k in range(len(names))])
    return names, corpora, {n: {"sources": [s], "documents": len(c)} for n, s, c in zip(names, sources, corpora)}


def _unitizing(inputs: Any, measure: str, *, types: Sequence[str] | None, feature: str | None, format: str | None,
               sets: Sequence[str] | None, discontinuous: str, samples: int, precision: float | str | None,
               sampler: str, seed: int | None, dissimilarity: Any, categorical: str | None,
               refused: Mapping[str, Any]) -> Any:
    """``agree(..., unitizing=...)``: γ or Krippendorff's unitizing alphas."""
    from dataclasses import replace

    from .agreement._continua import continua_from_corpora, read_units_table
    from .agreement._dissimilarity import Dissimilarity, categorical_matrix
    from .agreement._unitizing_result import UNITIZING_MODES, UnitizingResult

    if measure not in UNITIZING_MODES:
        raise OptionError(f"--unitizing takes {' or '.join(UNITIZING_MODES)}, got {measure!r}")
    given = [name for name, value in refused.items() if value]
    if given:
        raise OptionError(f"{', '.join(given)} apply to coefficients over items, not to --unitizing")
    table = _is_path(inputs) and sets is None and Path(str(inputs)).is_file() and \
        Path(str(inputs)).suffix.lower() in (".csv", ".tsv")
    if table:
        if types or feature:
            raise OptionError("--types and --feature choose annotations of annotation sets; a units table gives "
                              "its categories itself")
        units = read_units_table(str(inputs))
        where = {a: {"sources": [str(inputs)], "documents": len(units.documents)} for a in units.annotators}
    else:
        paths = [inputs] if _is_path(inputs) else list(inputs)
        if sets is None and len(paths) < 2:
            raise OptionError("--unitizing needs one annotation set per annotator (two or more INPUTs), --sets "
                              "for one GATE XML input, or one CSV/TSV table of units")
        names, corpora, where = _annotation_sets(paths, sets, format, discontinuous)
        units = continua_from_corpora(corpora, names, types=list(types) if types else None, feature=feature)
    options: dict[str, Any] = {"unitizing": measure, "types": list(types) if types else None, "feature": feature}
    if measure == "alpha-u":
        from .agreement._unitizing_alpha import unitizing_alpha_tables

        alpha = {d: unitizing_alpha_tables(units.take_document(i)) for i, d in enumerate(units.documents)}
        return UnitizingResult(measure, units, alpha=alpha, options=options, inputs=where)
    from .agreement._gamma import DEFAULT_SEED, gamma_tables, precision_level

    diss = dissimilarity or Dissimilarity()
    if categorical not in (None, "absolute"):
        diss = replace(diss, matrix=categorical_matrix(categorical, units.categories))
    tables, alignment = gamma_tables(units, diss, samples=samples, precision=precision, sampler=sampler, seed=seed)
    options.update(dissimilarity={**diss.to_dict(units.categories), "categorical_kind": categorical or "absolute"},
                   samples=samples, precision=precision_level(precision), sampler=sampler,
                   seed=DEFAULT_SEED if seed is None else seed)
    return UnitizingResult(measure, units, gamma=tables, alignment=alignment, options=options, inputs=where)


def agree(inputs: PathLike | Sequence[PathLike | Any], *, items: str | None = None, raters: str | None = None,
          labels: str | None = None, categories: Sequence[str] | None = None, level: str = "nominal",
          types: Sequence[str] | None = None, feature: str | None = None, format: str | None = None,
          sets: Sequence[str] | None = None, convention: str = "accord", span_measure: str | None = None,
          pairing: str = "gate", discontinuous: str = "fragments", bdm: PathLike | Any = None,
          unitizing: str | None = None, samples: int = 30, precision: float | str | None = None,
          sampler: str = "statistical", seed: int | None = None, dissimilarity: Any = None,
          categorical: str | None = None) -> Any:
    """Agreement between annotators (``accord agree``).

    Parameters
    ----------
    inputs : path or sequence
        A path: a ratings table (CSV/TSV, wide or long with ``items``, ``raters``, ``labels``), or, with
        ``sets``, a GATE XML file or directory holding one annotation set per annotator. A sequence: one
        annotation set per annotator (paths or corpora).
    types, feature, convention
        Annotation sets: the labels whose spans are the items, the attribute holding the category, and
        ``accord``, GATE's ``iaa`` or ``corpus-qa`` convention.
    span_measure : {"strict", "lenient", "average"}, optional
        Also compute the pairwise span agreement (F of Annotation Diffs) under this measure.
    bdm : path or BdmTable, optional
        Annotation sets under a GATE convention: also the BDM-based agreement of GATE's IAA plugin
        (:mod:`accord.agreement._bdm_iaa`), concepts being the ``feature`` values (or the types).

    unitizing : {"gamma", "alpha-u"}, optional
        Agreement on units whose boundaries may differ: Mathet et al.'s γ (with γ-cat, γ-k and the
        optimal alignment) or Krippendorff's unitizing alphas. The inputs are annotation sets, or one
        CSV/TSV table of units (annotator, document, start, end, category). ``samples``,
        ``precision``, ``sampler`` and ``seed`` set γ's expected disorder; ``dissimilarity`` (an
        :class:`accord.agreement.Dissimilarity`) or ``categorical`` (``absolute``, ``levenshtein``,
        ``numerical`` or a CSV of distances) its dissimilarity.

    Returns
    -------
    AgreementResult, or UnitizingResult with ``unitizing``
    """
    if unitizing is not None:
        return _unitizing(inputs, unitizing, types=types, feature=feature, format=format, sets=sets,
                          discontinuous=discontinuous, samples=samples, precision=precision, sampler=sampler,
                          seed=seed, dissimilarity=dissimilarity, categorical=categorical,
                          refused={"--items": items, "--raters": raters, "--labels": labels,
                                   "--categories": categories, "--bdm": bdm,
                                   "--convention": None if convention == "accord" else convention,
                                   "--level": None if level == "nominal" else level})
    from .agreement._result import AgreementResult
    from .agreement._sources import ratings_from_corpora, read_ratings_table
    from .agreement._stats import agreement_stats

    options: dict[str, Any] = {"level": level}
    if _is_path(inputs) and sets is None:
        path = inputs
        if types or feature or convention != "accord":
            raise OptionError("--types, --feature, --sets, --convention and --html apply to annotation sets; give "
                              "one INPUT per annotator, or --sets for one GATE XML input")
        table = read_ratings_table(path, items=items, raters=raters, labels=labels, categories=categories)
        options.update(items=items, raters=raters, labels=labels,
                       categories=list(categories) if categories else None)
        return AgreementResult("ratings", stats={str(path): agreement_stats(table)}, options=options,
                               inputs={"ratings": {"sources": [str(path)], "documents": 1}},
                               ratings={str(path): table})
    if items or raters or labels:
        raise OptionError("--items, --raters and --labels apply to one ratings table, not to annotation sets")
    inputs = [inputs] if _is_path(inputs) else list(inputs)
    names, corpora, where = _annotation_sets(inputs, sets, format, discontinuous)
    types, features = _types_and_features(types, feature, convention)
    options.update(types=list(types) if types else None,
                   feature=dict(features) if isinstance(features, Mapping) else features, convention=convention)
    spans = span = None
    if span_measure is not None:
        from .agreement._result import SpanPart
        from .agreement._spans import span_agreement

        spans = span_agreement(corpora, names, types=types or None, feature=features, pairing=pairing)
        span = SpanPart(spans.measures(span_measure), span_measure, 1.0, spans.types, spans.feature)
        options.update(span_measure=span_measure, pairing=pairing)
    if bdm is not None and convention == "accord":
        raise OptionError("--bdm on agree gives GATE's IAA plugin's BDM figures: use --convention iaa or corpus-qa")
    if convention != "accord":
        if not types:
            raise OptionError(f"--convention {convention} needs --types (and --feature for corpus-qa)")
        from .agreement._gate_summary import gate_summary_of

        summary = gate_summary_of(corpora, names, list(types), features, convention)
        if convention == "iaa" and len(names) > 2:
            from .agreement._majority import against_majority

            summary["against_majority"] = against_majority(corpora, names, list(types), features)
        if bdm is not None:
            from .agreement._bdm_iaa import bdm_agreement
            from .bdm import read_bdm_file

            bdm_table = read_bdm_file(bdm) if _is_path(bdm) else bdm
            summary["bdm"] = bdm_agreement(corpora, names, bdm_table, list(types), features)
            options.update(bdm=str(bdm) if _is_path(bdm) else "<BdmTable>")
        if convention == "iaa":     # the plugin's F-measures, "micro averaged over documents"
            from .agreement._spans import span_agreement

            summary["f_measures"] = span_agreement(corpora, names, types=types, feature=features,
                                                   pairing="gate").gate_iaa_f()
        result = AgreementResult(convention, summary=summary, options=options, inputs=where, span=span)
    else:
        # the accord convention: one feature (_types_and_features refuses more)
        assert not isinstance(features, Mapping)
        tables = ratings_from_corpora(corpora, names, type=types, feature=features)
        if not tables:
            raise OptionError("the annotation sets hold no documents")
        result = AgreementResult("annotation-sets", stats={d: agreement_stats(t) for d, t in tables.items()},
                                 options=options, inputs=where, span=span, ratings=tables)
    result.source = spans
    return result
