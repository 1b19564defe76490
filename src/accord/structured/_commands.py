"""The structured modes as Python functions: ``accord.coref`` (the CoNLL-2012 metrics of coreference chains),
``accord.smatch`` (Smatch of AMR graphs) and ``accord.structured_metrics`` (relations, events, templates): each
reads its two inputs, pairs their documents and returns a :class:`~accord.result.Result`."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, cast

from .._support.surface import spelled
from ..errors import OptionError
from ..pipeline._inputs import inputs_block, is_path, meet_sides, shown_source

PathLike = str | os.PathLike

__all__ = ['PRESETS', 'coref', 'smatch', 'structured_metrics']


PRESETS: dict[str, dict[str, str | None]] = {
    "conll2012": {"mention_match": "exact", "singletons": "keep", "zeros": None},
    "corefud": {"mention_match": "head", "singletons": "drop", "zeros": "dependent"}}
"""``accord coref --preset``: the CoNLL-2012 reference scorer's settings (the default) and the CorefUD scorer's
defaults (CRAC shared tasks: ``corefud-scorer.py key response``)."""


def coref(key: PathLike | Mapping[str, Any], response: PathLike | Mapping[str, Any], *,
          metrics: Sequence[str] | None = None,
          format: str | None = None, allow_missing: str | None = None, preset: str = "conll2012",
          mention_match: str | None = None, singletons: str | None = None, zeros: str | None = None) -> Any:
    """The CoNLL-2012 coreference metrics (``accord coref``).

    Parameters
    ----------
    key, response : path or mapping
        CoNLL-2012 or JSON-lines files, or ``{document: [entity, ...]}`` with each entity a list of
        inclusive ``(start, end)`` token spans.
    metrics : sequence of str, optional
        Any of ``muc``, ``bcub``, ``ceafm``, ``ceafe``, ``blanc``, ``lea``, and with CorefUD settings the CorefUD
        scorer's ``mor`` and ``zero`` (:mod:`accord.structured.coref_corefud_metrics`); by default the six, and
        under ``preset="corefud"`` the eight (the scorer's ``-m all``). Mention identification (``mentions``) is
        always added.
    allow_missing : {None, "empty", "skip"}
        A document on one side only: an error (``None``), scored against no entities (``"empty"``: the
        reference scorer's reading of a key document the response lacks), or left out (``"skip"``).
    preset : {"conll2012", "corefud"}
        ``conll2012``: the reference scorer v8.01 (exact spans, singletons kept, a discontinuous CorefUD mention
        read as its hull, zeros not read). ``corefud``: the CorefUD scorer's defaults (head matching, singletons
        dropped, zeros matched by their dependencies, mentions as sets of words, its reading of a mention written
        in two entities and of BLANC; :mod:`accord.structured.coref_align`).
    mention_match : {"exact", "head", "partial"}, optional
        How mentions match (the preset's when None); ``head`` and ``partial`` need CorefUD files.
    singletons : {"keep", "drop"}, optional
        Keep or drop the entities of one mention (the preset's when None).
    zeros : {"dependent", "linear", "drop"}, optional
        CorefUD's zeros (empty nodes): matched by their dependencies first, matched as other mentions, or
        removed (the preset's when None; ``conll2012`` does not read them).

    Returns
    -------
    CorefResult
        One measure per metric and ``mentions``; ``conll_f1`` when MUC, B-cubed and CEAFe are scored.
    """
    from ..formats.coref.clusters import read_coref
    from ..structured._result import coref_result
    from ..structured.coref import MENTIONS, coref_scores

    if preset not in PRESETS:
        raise OptionError(f"{spelled('preset')} must be one of {', '.join(PRESETS)}; got {preset!r}")
    if metrics is None:     # the scorer's own: its 'all' under corefud
        metrics = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea") + (("mor", "zero") if preset == "corefud" else ())
    settings: dict[str, Any] = dict(PRESETS[preset])
    given = {"mention_match": mention_match, "singletons": singletons, "zeros": zeros}
    settings.update({k: v for k, v in given.items() if v is not None})
    if settings["singletons"] not in ("keep", "drop"):
        raise OptionError(f"--singletons must be keep or drop; got {settings['singletons']!r}")
    words = preset == "corefud" or settings["mention_match"] != "exact" or settings["zeros"] is not None
    if is_path(key) and is_path(response) and _coref_unit(key, format) != _coref_unit(response, format):
        from ..errors import PairingError

        units = {"char": "characters (brat, GATE XML, XMI)", "token": "tokens (CoNLL-2012, CorefUD, JSON lines)"}
        raise PairingError(f"the key ({key}) counts mentions in {units[_coref_unit(key, format)]} and the response "
                           f"({response}) in {units[_coref_unit(response, format)]}: their offsets would not mean "
                           "the same places; give both sides in one unit (the same kind of file)")
    for side, source in (("key", key), ("response", response)):
        if not (is_path(source) or isinstance(source, Mapping)):
            raise OptionError("coreference compares two files or two mappings {document: [[(start, end), ...], ...]} "
                              f"(clusters of mentions); the {side} is a {type(source).__name__}")
    k: Mapping[str, Any]
    r: Mapping[str, Any]
    if words:
        k, r = (_corefud_words(side, format, preset, settings) for side in (key, response))
    else:
        k = read_coref(key, format, arrays=True) if is_path(key) else dict(key)
        r = read_coref(response, format, arrays=True) if is_path(response) else dict(response)
    if len(k) == 1 and len(r) == 1 and set(k) != set(r):    # two single files pair as given (accord.pipeline._sides)
        from ..model import Corpus, Document
        from ..pipeline._sides import pair_single_files

        (kid,), (rid,) = k, r
        paired = pair_single_files([Corpus([Document(kid)]), Corpus([Document(rid)])], (key, response))
        r = {next(iter(paired[1])): r[rid]}
    k, r = _pair_coref_documents(k, r, allow_missing, key, response)
    if not k:
        from ..errors import PairingError

        raise PairingError(f"no document to score: {shown_source(key)} and {shown_source(response)} hold no document "
                           "in common (an empty file reads as no document)")
    requested = list(dict.fromkeys([metrics] if isinstance(metrics, str) else metrics))   # "muc": one metric
    corefud_only = [m for m in requested if m in ("mor", "zero")]
    if corefud_only and not words:
        raise OptionError(f"--metrics {corefud_only[0]} is the CorefUD scorer's: it needs --preset corefud (or "
                          "another CorefUD setting) and CorefUD files")
    numbered: dict[str, Any] = {}
    if words:
        from ..structured.coref_align import align_corpus

        k, r, _ = align_corpus(k, r, match=settings["mention_match"], singletons=settings["singletons"],
                               zeros=settings["zeros"] or "drop", extra=numbered if corefud_only else None)
    elif settings["singletons"] == "drop":
        k, r = ({d: [e for e in entities if len(set(map(tuple, e))) > 1] for d, entities in side.items()}
                for side in (k, r))
    metrics = [m for m in requested if m not in (MENTIONS, "mor", "zero")]
    scores = coref_scores(k, r, metrics=[*metrics, MENTIONS], rules="corefud" if preset == "corefud" else "conll2012")
    if corefud_only:
        from ..structured.coref_corefud_metrics import corefud_scores

        scores = {**{m: scores[m] for m in metrics}, **corefud_scores(numbered, list(k), corefud_only),
                  MENTIONS: scores[MENTIONS]}
    options = {"metrics": [m for m in scores if m != MENTIONS], "allow_missing": allow_missing, "preset": preset,
               **settings}
    result = coref_result(scores, k, r, options=options,
                          inputs=inputs_block(gold=(key, len(k)), pred=(response, len(r))))
    result.source = scores
    return result


def _corefud_words(side: Any, format: str | None, preset: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """A side read as CorefUD mentions (sets of words with heads), which the preset or the options need."""
    from ..errors import FormatError
    from ..formats.coref.corefud_words import read_corefud_mentions

    why = (f"--preset {preset}" if preset == "corefud" else
           f"--mention-match {settings['mention_match']}" if settings["mention_match"] != "exact" else
           f"--zeros {settings['zeros']}")
    if not is_path(side):
        raise OptionError(f"{why} reads CorefUD files (words, heads, empty nodes); give paths, not clusters")
    p = Path(side)
    if format not in (None, "corefud") or p.is_dir() or not _looks_corefud(p):
        raise FormatError(f"{why} needs CorefUD files (CoNLL-U with an Entity attribute: heads and empty nodes "
                          f"come from them); {p} is not one", path=p)
    return read_corefud_mentions(p)


def _looks_corefud(p: Path) -> bool:
    from ..formats.coref.corefud import looks_like_corefud

    if p.suffix.lower() == ".conllu":
        return True
    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            return looks_like_corefud(fh.read(65536))
    except OSError:
        return False


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


def _pair_coref_documents(k: Mapping[str, Any], r: Mapping[str, Any], allow_missing: str | None, key: Any,
                          response: Any) -> tuple[Mapping[str, Any], Mapping[str, Any]]:
    """Key and response documents with the same ids, as ``allow_missing`` says (see :func:`coref`)."""
    from ..errors import PairingError
    from ..pipeline import ALLOW_MISSING

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
            parts.append(f"{len(only_key)} document(s) only in the key ({key if is_path(key) else 'key'}): "
                         f"{show(only_key)}")
        if only_response:
            parts.append(f"{len(only_response)} document(s) only in the response "
                         f"({response if is_path(response) else 'response'}): {show(only_response)}")
        raise PairingError("; ".join(parts) + ". Use --allow-missing empty (scored against no entities, as the "
                           "reference scorer reads a key document the response lacks) or --allow-missing skip")
    if allow_missing == "skip":
        return ({d: v for d, v in k.items() if d in r}, {d: v for d, v in r.items() if d in k})
    return ({**k, **{d: [] for d in only_response}}, {**r, **{d: [] for d in only_key}})


def smatch(gold: PathLike | Sequence[Any], pred: PathLike | Sequence[Any], *, standardize: str | bool | None = None,
           fine_grained: bool = False, time_limit: float | None = None) -> Any:
    """Smatch between graphs paired in order (``accord smatch``).

    ``gold`` and ``pred`` are PENMAN files or sequences of graphs (PENMAN strings, ``penman.Tree`` or
    ``penman.Graph``). Documents are the gold graphs' ``::id`` when every one has a distinct id, else
    their positions ``1``, ``2``, ...

    ``standardize`` (``"amr"`` or ``True``, ``"generic"``) applies Smatch++'s standardization first;
    ``fine_grained`` adds the nine aspects of Damonte et al. (2017) as measures (``fine_smatch``, ``unlabeled``,
    ``no_wsd``, ``concepts``, ``named_entities``, ``negations``, ``wikification``, ``reentrancies``, ``srl``);
    ``time_limit`` stops each integer program after that many seconds, with an
    :class:`~accord.errors.AccordWarning` and the ``optimality_gap`` of the result.
    """
    from ..structured._result import smatch_result

    total, fine, documents, options, inputs = _smatch_counts(gold, pred, standardize, fine_grained, time_limit)
    result = smatch_result(total, documents=documents, inputs=inputs, options=options, fine=fine)
    result.source = total
    _warn_stopped(result.optimality_gap(), fine, time_limit)
    return result


def smatch_plain(gold: PathLike | Sequence[Any], pred: PathLike | Sequence[Any], *,
                 standardize: str | bool | None = None, time_limit: float | None = None) -> Any:
    """:func:`smatch` without the fine-grained aspects, as a
    :class:`~accord.structured._amr_plain_result.PlainSmatchResult`: the same outputs, without importing numpy
    (``accord smatch`` when no interval is asked)."""
    from ._amr_plain_result import PlainSmatchResult

    total, _, documents, options, inputs = _smatch_counts(gold, pred, standardize, False, time_limit)
    result = PlainSmatchResult(total, documents=documents, inputs=inputs, options=options)
    _warn_stopped(result.optimality_gap(), None, time_limit)
    return result


def _smatch_counts(gold: PathLike | Sequence[Any], pred: PathLike | Sequence[Any], standardize: str | bool | None,
                   fine_grained: bool, time_limit: float | None) -> tuple[Any, Any, list[str] | None,
                                                                          dict[str, Any], dict[str, Any]]:
    """Both sides read and paired in order, Smatch counted: the corpus score, the fine-grained aspects (or None),
    the documents (the gold ids when every graph has a distinct one, else None), the options and the inputs."""
    from ..structured.amr import _standardization, read_amr, smatch_corpus

    plain = standardize in (None, False) and not fine_grained   # smatch 1.0.4's triples read the nodes only
    g = read_amr(gold, plain=plain) if is_path(gold) else list(gold)
    p = read_amr(pred, plain=plain) if is_path(pred) else list(pred)
    if len(g) != len(p):
        raise OptionError(f"{gold if is_path(gold) else 'gold'} has {len(g)} graphs but "
                          f"{pred if is_path(pred) else 'pred'} has {len(p)}; they pair in order")
    how = _standardization(standardize)
    total = smatch_corpus(p, g, standardize=how, time_limit=time_limit)
    fine = None
    if fine_grained:
        from ..structured._amr_fine import fine_grained_corpus

        fine = fine_grained_corpus(p, g, time_limit=time_limit)
    ids = [getattr(x, "metadata", {}).get("id") for x in g]
    documents = cast("list[str]", ids) if all(ids) and len(set(ids)) == len(ids) else None   # every id set
    options = {k: v for k, v in (("standardize", how), ("fine_grained", fine_grained or None),
                                 ("time_limit", time_limit)) if v is not None}
    return total, fine, documents, options, inputs_block(gold=(gold, len(g)), pred=(pred, len(p)))


def _warn_stopped(gap: dict[str, Any] | None, fine: Any, time_limit: float | None) -> None:
    """The warnings of pairs whose integer program the time limit stopped (Smatch's gap, the fine aspects)."""
    import warnings

    from ..errors import AccordWarning

    if gap is not None and gap["pairs_stopped"]:
        shown = ", ".join(gap["pairs_stopped"][:5]) + (" ..." if len(gap["pairs_stopped"]) > 5 else "")
        warnings.warn(AccordWarning(
            f"the integer program stopped at the time limit ({time_limit} s) on {len(gap['pairs_stopped'])} pair(s) "
            f"({shown}): Smatch matched {gap['match']} triples, at most {gap['match_bound']} with the best mapping "
            f"(F1 {gap['f1']:.4f}, at most {gap['f1_bound']:.4f}); see optimality_gap"), stacklevel=3)
    if fine is not None and fine.stopped:
        warnings.warn(AccordWarning(
            f"the integer program stopped at the time limit ({time_limit} s) in the fine-grained aspects "
            f"{', '.join(fine.stopped)}: their counts are the best mapping found, not proved optimal"), stacklevel=3)


_RELATION_FORMATS = ("brat", "mat-json", "label-studio", "doccano", "xmi", "gate")
"""Annotation formats whose relations and events ``accord structured`` reads through the annotation model."""


def _records(key: Any, response: Any, kind: str) -> tuple[Any, Any]:
    """The key's and the response's records of one kind: from JSON lines
    (:mod:`accord.formats.records.records`), or, for
    relations and events, from any annotation file (brat, MAT JSON, XMI, Label Studio...:
    :mod:`accord.formats.records.from_spans`), two annotation files meeting as every two sides do (:func:`_meet`)."""
    from ..formats.records.records import read_records

    corpora = [_annotation_corpus(Path(path)) if kind in ("relations", "events") else None
               for path in (key, response)]
    alignment = None
    if kind in ("relations", "events") and corpora[1] is None and _generated(Path(response)):
        corpora[1], alignment = _aligned(corpora[0], key, response)
    elif corpora[0] is not None and corpora[1] is not None:
        corpora = meet_sides(corpora, (key, response))
    if corpora[0] is None and corpora[1] is None:
        if kind == "events":       # accord's records or TextEE's files
            from ..formats.records.textee import events_or_records

            return events_or_records(key), events_or_records(response)
        return read_records(Path(key), kind), read_records(Path(response), kind)
    from ..formats.records.from_spans import records_from_corpus

    k, r = (records_from_corpus(c, kind) if c is not None else read_records(Path(p), kind)
            for c, p in zip(corpora, (key, response)))
    r.alignment = alignment     # type: ignore[attr-defined]
    return k, r


def _generated(p: Path) -> bool:
    """Whether a file holds generated records (strings without offsets: :mod:`accord.formats.records.generated`)."""
    from ..errors import FormatError
    from ..formats._registry import sniff

    try:
        if sniff(p).name != "records":
            return False
    except FormatError:
        return False
    return _holds_a_string_item(p)


def _holds_a_string_item(p: Path) -> bool:
    """Whether a file sniffed as generated records holds one item at all: documents whose lists are all empty are
    accord's structured records as well (``{"id": "d", "relations": []}``), the format ``accord structured`` reads
    first (a JSON array or a CSV file of generated records: taken as such)."""
    import json

    from ..formats.records.generated_model import looks_like_record

    try:
        with open(p, encoding="utf-8", errors="replace") as fh:
            first = fh.read(1)
            if first != "{":
                return True
            fh.seek(0)
            for line in fh:
                try:
                    obj = json.loads(line)
                except ValueError:
                    return True         # the reader names the line
                if looks_like_record(obj) and any(obj.get(k) for k in ("entities", "relations", "events")):
                    return True
    except OSError:
        return True
    return False


def _aligned(key: Any, key_path: Any, response: Any) -> tuple[Any, Any]:
    """A response of generated records placed on the key's text (:mod:`accord.pipeline._align`, exact), and the
    alignment's summary."""
    from ..formats._registry import read
    from ..pipeline._align import align_records

    if key is None:
        raise OptionError(f"{response} holds generated records (strings without offsets), placed on the key's text: "
                          f"give the key {key_path} in an annotation format with a text (brat, MAT JSON, XMI, "
                          "Label Studio, doccano, GATE)")
    return align_records(key, read(response, format="records"))


def _annotation_corpus(p: Path) -> Any:
    """The corpus of a file of the annotation formats that hold relations, or None (JSON-lines records, whatever
    the extension)."""
    from ..errors import FormatError
    from ..formats._registry import read, sniff

    try:
        fmt = sniff(p).name
    except FormatError:
        return None
    return read(p, format=fmt) if fmt in _RELATION_FORMATS else None


def structured_metrics(key: PathLike, response: PathLike, metrics: Sequence[str] = (), *,
               inclusive_spans: bool = False, premodifiers: Sequence[str] = (),
               hierarchy: Mapping[str, str] | None = None, preset: str | None = None, train: PathLike | None = None,
               attached: bool | None = None, judgements: PathLike | None = None) -> Any:
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
    preset, train
        An official scorer's counts on its task's own files instead of ``metrics``
        (:data:`accord.structured._presets.PRESETS`: ``docred``, ``biored``, ``textee``); ``train``: DocRED's
        training file, for Ign F1.
    attached
        ``event-argument``/``event-argument-id`` as TextEE scores them (sets of arguments): attached to their
        trigger (``True``) or only to its type (``False``); ``None``: accord's matching of events.
    judgements
        ``muc4-original``'s interactive credits, a JSON file (:func:`accord.structured._muc4.read_judgements`).
    """
    from .._support.names import unknown_message
    from ..structured._result import records_result
    from ..structured.named import NAMED_METRICS, score_records

    if preset is not None or train is not None:
        from ..structured._presets import preset_result

        if preset is None:      # --train without --preset (with or without --metrics): what train is for
            raise OptionError(f"{spelled('train')} applies with {spelled('preset', 'docred')} (Ign F1)")
        if metrics or attached is not None or inclusive_spans or premodifiers or hierarchy is not None \
                or judgements is not None:
            raise OptionError(f"{spelled('preset')} computes its official scorer's measures: give it without "
                              f"{spelled('metrics')}, --attached, --not-attached, --inclusive-spans, --premodifiers, "
                              "--hierarchy or --judgements")
        return preset_result(preset, key, response, train=train)
    metrics = list(dict.fromkeys([metrics] if isinstance(metrics, str) else metrics))   # "relation": one metric
    if not metrics:
        raise OptionError(f"{spelled('metrics')}: name one or more of {', '.join(NAMED_METRICS)}")
    for m in metrics:
        if m not in NAMED_METRICS:
            raise OptionError(unknown_message(m, NAMED_METRICS, "structured metric", "--metrics", from_input=False))
    options = {"inclusive": inclusive_spans, "premodifiers": list(premodifiers),
               "set_parent": dict(hierarchy) if hierarchy is not None else None}
    if attached is not None:
        if not any(m.startswith("event-argument") for m in metrics):
            raise OptionError("--attached and --not-attached apply to event-argument and event-argument-id")
        options["attached"] = attached
    if judgements is not None:
        from ._muc4 import read_judgements

        if "muc4-original" not in metrics:
            raise OptionError("--judgements applies to muc4-original")
        options["judgements"] = read_judgements(judgements)
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
                                     "premodifiers": list(premodifiers), "hierarchy": options["set_parent"],
                                     **({} if attached is None else {"attached": attached}),
                                     **({} if judgements is None else {"judgements": str(judgements)})},
                            inputs=inputs_block(gold=(key, len(first_key)), pred=(response, len(first_resp))))
    result.source = (results, loaded)
    alignment = next((r.alignment for _, r in loaded.values() if getattr(r, "alignment", None)), None)
    if alignment is not None:       # a response of generated records: how its strings were placed
        result.options["align"] = alignment["align"]
        result.options["alignment"] = alignment
    return result
