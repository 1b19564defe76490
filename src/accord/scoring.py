"""``accord.score``: read, validate, pair, tally and report, in one call."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ._collector import collection_paused
from ._names import check_names
from ._offset_units import unify_units
from ._sides import meet
from ._text_fields import TextFields
from ._progress import track
from .errors import OptionError, PairingError, RepairWarning
from .formats import read, sniff
from .match.engine import DocumentAlignment, Pairer, make_similarity
from .metrics.prf import ZERO_DIVISION
from .model import Annotation, Corpus, Document
from .regions import UNDECLARED, annotation_roles, prepare_corpus, restrict_pairs
from .report import Report
from .schema import Task, load_task
from .tally import ScoreRows, tally

__all__ = ["score", "pair_documents", "missing_documents", "corpus_names", "match_file_names", "read_sides",
           "reading_once", "source_name", "ALLOW_MISSING"]

ALLOW_MISSING = ("empty", "skip")


def source_name(obj: Any, column: int | str | None = None) -> str:
    """How the JSON names an input: its path (with ``#column`` for a column of a file), ``<corpus>`` for a
    corpus given in Python, ``<list>``, ``<Dataset>``... for another Python object."""
    if isinstance(obj, Corpus):
        name = "<corpus>"
    elif isinstance(obj, (str, os.PathLike)):
        from ._io import shown_name

        name = shown_name(str(obj))
    else:
        name = f"<{type(obj).__name__}>"
    return name if column is None else f"{name}#{column}"


_SHARED_READS: ContextVar[dict[str, Any] | None] = ContextVar("accord_shared_reads", default=None)


@contextmanager
def reading_once() -> Iterator[None]:
    """Within the block a file read again with the same format and options is not read again (``compare`` and
    ``report`` score every system against one gold file): the corpus is shared, its warnings are shown once and its
    repairs are still reported in every result."""
    token = _SHARED_READS.set({"corpora": {}, "shown": set()})
    try:
        yield
    finally:
        _SHARED_READS.reset(token)


def _corpus(obj: Any, fmt: str | None, options: dict[str, Any], side: str = "gold") -> Corpus:
    """The corpus of one input: a path read in ``fmt``, a corpus or document as it is, or a Python object
    (tag lists, spaCy, Hugging Face, pandas) made into one by :func:`accord.objects.as_corpus`."""
    if isinstance(obj, Corpus):
        return obj
    if isinstance(obj, (str, os.PathLike)):
        shared = _SHARED_READS.get()
        if shared is None:
            return read(obj, format=fmt, **options)
        key = (os.path.abspath(obj), fmt, repr(sorted(options.items(), key=lambda kv: kv[0])))
        if key not in shared["corpora"]:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                corpus = read(obj, format=fmt, **options)
            shared["corpora"][key] = (corpus, [w.message for w in caught])
        corpus, messages = shared["corpora"][key]
        for message in messages:    # to the caller's recorder (_read_with_repairs), at each read
            warnings.warn(message, stacklevel=2)
        return corpus
    if isinstance(obj, Document):
        return Corpus([obj])
    from .objects import as_corpus

    if fmt is not None:
        raise OptionError(f"format {fmt!r} names a file format; the {side} side is a {type(obj).__name__}")
    return as_corpus(obj, side=side, **options)


def read_sides(gold: Any, pred: Any, gold_format: str | None, pred_format: str | None,
               read_options: dict[str, Any], gold_column: int | str | None = None,
               pred_column: int | str | None = None, gold_set: str | None = None,
               pred_set: str | None = None) -> tuple[Corpus, Corpus]:
    """Read the gold and the predicted corpus, each from its own file or from two columns of one file
    (or two annotation sets of GATE XML files: ``gold_set``, ``pred_set``)."""
    from .objects import label_names_of, object_kind

    if pred is None and object_kind(gold) == "spacy":
        from .objects._spacy import holds_examples

        if not holds_examples(gold):
            raise OptionError("give the predicted Docs too; only spaCy Examples hold both sides (reference and "
                              "predicted)")
        pred = gold
    if pred is None:
        if gold_column is None or pred_column is None:
            raise OptionError("give the predicted file, or --gold-column and --pred-column to read both sides "
                              "from columns of the gold file")
        pred = gold
        pred_format = pred_format or gold_format

    if object_kind(gold) is not None and "label_names" not in read_options:
        names = label_names_of(gold, tags_column=read_options.get("tags_column"))
        if names is not None and object_kind(pred) in ("tags", "datasets"):
            read_options = {**read_options, "label_names": names}  # integer predictions named by the gold ClassLabel
    sides = []
    for side, obj, fmt, column, aset in (("gold", gold, gold_format, gold_column, gold_set),
                                         ("pred", pred, pred_format, pred_column, pred_set)):
        options = read_options if aset is None else {**read_options, "annotation_set": aset}
        if column is not None:
            if isinstance(obj, (str, os.PathLike)):
                fmt = fmt or sniff(obj).name   # sniffed once, then read in that format
                if fmt not in _COLUMN_FORMATS:
                    raise OptionError(f"{obj}: --gold-column and --pred-column choose columns of column files "
                                      f"({', '.join(_COLUMN_FORMATS)}), not of {fmt} files")
            options = {**options, "column": column}
        sides.append(_corpus(obj, fmt, options, side))
    gold_c, pred_c = meet(sides, (gold, pred), ("gold", "predicted"))   # single files paired, one offset unit
    return gold_c, pred_c


_COLUMN_FORMATS = ("conll", "vrt")


def pair_documents(gold: Corpus, pred: Corpus, allow_missing: str | None = None
                   ) -> list[tuple[str, Document | None, Document | None]]:
    """Pair documents by id, checking that paired token sequences agree (a side counting tokens is placed on the
    text of a side counting characters first: :func:`accord._offset_units.unify_units`).

    Parameters
    ----------
    allow_missing : {None, "empty", "skip"}
        ``None``: a document on one side only is an error. ``"empty"``: it is scored
        against an empty document (its items all missing or all spurious). ``"skip"``:
        it is left out.
    """
    if allow_missing not in (None,) + ALLOW_MISSING:
        raise OptionError(f"--allow-missing must be one of {', '.join(ALLOW_MISSING)}; got {allow_missing!r}")
    gold, pred = unify_units((gold, pred), sides=("gold", "predicted"))    # corpora given in Python
    only_gold = [d for d in gold if d not in pred]
    only_pred = [d for d in pred if d not in gold]
    if (only_gold or only_pred) and allow_missing is None:
        raise missing_documents(only_gold, only_pred, gold.name, pred.name)
    out: list[tuple[str, Document | None, Document | None]] = []
    for doc_id, gdoc in gold.items():
        pdoc = pred.get(doc_id)
        if pdoc is None:
            if allow_missing == "empty":
                out.append((doc_id, gdoc, None))
            continue
        _check_tokens(gdoc, pdoc, gold.name, pred.name)
        out.append((doc_id, gdoc, pdoc))
    if allow_missing == "empty":
        out.extend((d, None, pred[d]) for d in only_pred)
    return out


def missing_documents(only_gold: Sequence[str], only_pred: Sequence[str], gold_name: str | None,
                      pred_name: str | None) -> PairingError:
    """The error of documents found on one side only (the first five of each side named)."""
    def show(ids: Sequence[str]) -> str:
        return ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    parts = []
    if only_gold:
        parts.append(f"{len(only_gold)} document(s) only in the gold side ({gold_name}): {show(only_gold)}")
    if only_pred:
        parts.append(f"{len(only_pred)} document(s) only in the predicted side ({pred_name}): {show(only_pred)}")
    return PairingError("; ".join(parts) + ". Use --allow-missing empty or --allow-missing skip to score anyway")


def match_file_names(gold: Corpus, pred: Corpus, file_re: str | None = None, ref_fsuff_off: str | None = None,
                     ref_fsuff_on: str | None = None) -> tuple[Corpus, Corpus]:
    """MATScore's file selection: the predicted documents whose file name matches ``file_re`` in full, each paired
    with the gold document of the file named like it with the suffix ``ref_fsuff_off`` taken off and
    ``ref_fsuff_on`` put on (``--file-re``, ``--ref-fsuff-off``, ``--ref-fsuff-on``).

    With ``file_re`` the gold documents of no selected predicted file are left out, as MAT looks up only the
    reference files of the hypothesis files it scores. A predicted document is renamed to the id of its gold
    document, so that the pairing (and ``allow_missing``) works on ids as everywhere else; its file name stays in
    ``pred.files``.
    """
    import re

    if file_re is None and ref_fsuff_off is None and ref_fsuff_on is None:
        return gold, pred
    pattern = None
    if file_re is not None:
        try:
            pattern = re.compile(file_re)
        except re.error as exc:
            raise OptionError(f"--file-re {file_re!r} is not a regular expression: {exc}") from None
    pred_files = {d: pred.files.get(d, d) for d in pred}
    selected = [d for d in pred if pattern is None or pattern.fullmatch(pred_files[d])]
    if pattern is not None and not selected:
        raise OptionError(f"--file-re {file_re!r} matches none of the {len(pred)} predicted file name(s) "
                          f"({', '.join(sorted(pred_files.values())[:5])}...); it must match a whole name")
    gold_by_file = {gold.files.get(d, d): d for d in gold}
    renamed, files = [], {}
    for d in selected:
        name = pred_files[d]
        if ref_fsuff_off and name.endswith(ref_fsuff_off):
            name = name[: -len(ref_fsuff_off)]
        name += ref_fsuff_on or ""
        target = gold_by_file.get(name, d if ref_fsuff_off is None and ref_fsuff_on is None else name)
        renamed.append(pred[d]._replace(id=target))
        files[target] = pred_files[d]
    pred_out = Corpus(renamed, name=pred.name, files=files)
    if pattern is not None:
        gold = Corpus([doc for d, doc in gold.items() if d in pred_out], name=gold.name,
                      files={d: f for d, f in gold.files.items() if d in pred_out})
    return gold, pred_out


def _check_tokens(g: Document, p: Document, gname: str | None, pname: str | None) -> None:
    gmeta, pmeta = g.metadata or {}, p.metadata or {}
    gids, pids = gmeta.get("token_ids"), pmeta.get("token_ids")
    if gids is not None and pids is not None and gids != pids:
        n = min(len(gids), len(pids))
        i = next((k for k in range(n) if gids[k] != pids[k]), n)
        if i == n:
            raise PairingError(f"document {g.id!r}: the gold side has {len(gids)} token ids and the predicted side "
                               f"{len(pids)} ({_where(g, gname, i)} / {_where(p, pname, i)})")
        raise PairingError(f"document {g.id!r}: token id {gids[i]!r} at {_where(g, gname, i)} but {pids[i]!r} at "
                           f"{_where(p, pname, i)}; gold and prediction must hold the same tokens in the same order")
    if g.text is not None and p.text is not None and g.text != p.text:
        _text_differs(g, p, gname, pname)
    bare = (g.tokens is None and g.text is None) or (p.tokens is None and p.text is None)
    if bare and g.sentences is not None and p.sentences is not None:   # tag lists given in Python
        _check_sentences(g, p)
    if g.tokens is None or p.tokens is None or g.tokens == p.tokens:
        return
    n = min(len(g.tokens), len(p.tokens))
    if isinstance(g.tokens, TextFields):
        i = g.tokens.first_difference(p.tokens)
        i = n if i is None else i
    else:
        i = next((k for k in range(n) if g.tokens[k] != p.tokens[k]), n)
    if i == n:
        raise PairingError(f"document {g.id!r}: the gold side has {len(g.tokens)} tokens and the predicted side "
                           f"{len(p.tokens)}; the files must hold the same tokens ({_where(g, gname, i)} / "
                           f"{_where(p, pname, i)})")
    raise PairingError(f"document {g.id!r}: token {i} differs: {g.tokens[i]!r} at {_where(g, gname, i)} but "
                       f"{p.tokens[i]!r} at {_where(p, pname, i)}; gold and prediction must hold the same tokens")


def _text_differs(g: Document, p: Document, gname: str | None, pname: str | None) -> None:
    """A paired document whose two sides hold different texts: the first character that differs, in context."""
    n = min(len(g.text or ""), len(p.text or ""))
    i = next((k for k in range(n) if g.text[k] != p.text[k]), n)  # type: ignore[index]
    line = (g.text or "").count("\n", 0, i) + 1
    raise PairingError(f"document {g.id!r}: the texts differ from character {i} (line {line}): gold "
                       f"{(g.text or '')[max(0, i - 10):i + 20]!r} ({gname}), predicted "
                       f"{(p.text or '')[max(0, i - 10):i + 20]!r} ({pname}); offsets of the two sides would not "
                       "mean the same characters")


def _check_sentences(g: Document, p: Document) -> None:
    """Documents without tokens or text (tag lists given in Python): the same sentences, of the same lengths."""
    gs, ps = g.sentences or (), p.sentences or ()
    if len(gs) != len(ps):
        raise PairingError(f"document {g.id!r}: the gold side has {len(gs)} sentences and the predicted side "
                           f"{len(ps)}")
    for k, (a, b) in enumerate(zip(gs, ps)):
        if a != b:
            raise PairingError(f"document {g.id!r}: sentence {k + 1} has {a[1] - a[0]} gold tags and "
                               f"{b[1] - b[0]} predicted tags; both sides must tag the same tokens")


def _where(doc: Document, name: str | None, i: int) -> str:
    """Where token ``i`` of a document is: file and line (column files), or the corpus position (VRT)."""
    meta = doc.metadata or {}
    lines = meta.get("lines")
    if "cpos" in meta:
        at = f"{name}, corpus position {meta['cpos'] + i}"
        if lines and doc.sentences:
            for (a, b), line in zip(doc.sentences, lines):
                if a <= i < b:
                    return f"{at} (sentence from line {line})"
        return at
    if lines and doc.sentences:
        for (a, b), line in zip(doc.sentences, lines):
            if a <= i < b or (i >= b and (a, b) == doc.sentences[-1]):
                return f"{name}:{line + (i - a)}"
    return f"{name}, token {i}"


def corpus_names(corpora: Sequence[Corpus], attributes: bool = True) -> tuple[set[str], set[str]]:
    """The labels and (with ``attributes``) the attribute names the corpora's annotations use."""
    labels: set[str] = set()
    names: set[str] = set()
    for corpus in corpora:
        for doc in corpus.values():
            for a in doc.annotations:
                labels.add(a.label)
                if attributes:
                    names.update(a.attributes)
    return labels, names


def _check_user_names(gold: Corpus | None, pred: Corpus | None, task: Task | None, attributes: Sequence[str],
                      equivalences: Mapping[str, str], ignore: Sequence[str],
                      content_annotations: Sequence[str] | None = None,
                      token_annotations: Sequence[str] | None = None,
                      seen: tuple[set[str], set[str]] | None = None) -> None:
    """Refuse an attribute, an equivalence member, an ignored, content or token label that neither side holds
    (nor the task declares): a misspelt name would silently change nothing. ``seen`` gives the labels and
    attribute names of the corpora instead of the corpora (:mod:`accord.parallel` gathers them from its shards)."""
    if not (attributes or equivalences or ignore or content_annotations or token_annotations):
        return
    if seen is None:
        assert gold is not None and pred is not None
        seen = corpus_names((gold, pred), bool(attributes))
    labels, names = set(seen[0]), set(seen[1])
    if task is not None:
        labels.update(task.labels)
        labels.update(task.effective)
        for spec in task.labels.values():
            names.update(spec.attributes)
    check_names(attributes, names, "attribute", "--attributes")
    check_names(equivalences, labels, "label", "--equivalence-class")
    check_names(ignore, labels | set(equivalences.values()), "label", "--ignore")
    check_names(content_annotations or (), labels, "label", "--content-annotations")
    check_names(token_annotations or (), labels, "label", "--token-annotations")


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
    if (client is not None or jobs != 1) and not _in_shard():
        from .parallel import score_in_shards

        arguments = {k: v for k, v in locals().items() if k not in ("jobs", "client", "shard_size")}
        sharded = score_in_shards(arguments, jobs, client, shard_size)
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
    gold_c, pred_c, repairs = _read_with_repairs(gold, pred, gold_format or format, pred_format or format,
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
    if not _in_shard():     # a shard's caller checks the names of all shards
        _check_user_names(gold_c, pred_c, task, attributes, equivalences, ignore, content_annotations,
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


_IN_SHARD: ContextVar[bool] = ContextVar("accord_in_shard", default=False)
"""True while :func:`score` scores one shard for :mod:`accord.parallel` (whose caller checks the whole corpus)."""


def _in_shard() -> bool:
    return _IN_SHARD.get()


def _read_with_repairs(gold: Any, pred: Any, gold_format: str | None, pred_format: str | None,
                       read_options: dict[str, Any], gold_column: int | str | None, pred_column: int | str | None,
                       gold_set: str | None, pred_set: str | None) -> tuple[Corpus, Corpus, list[dict[str, Any]]]:
    """Both sides (:func:`read_sides`), and the repairs of invalid tag sequences their readers warned about (the
    warnings are passed on to the caller)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gold_c, pred_c = read_sides(gold, pred, gold_format, pred_format, read_options, gold_column, pred_column,
                                    gold_set, pred_set)
    repairs = []
    shown = (_SHARED_READS.get() or {}).get("shown")
    for w in caught:
        if shown is None or id(w.message) not in shown:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
            if shown is not None:
                shown.add(id(w.message))
        if isinstance(w.message, RepairWarning):
            repairs.append(w.message.to_dict())
    return gold_c, pred_c, repairs


def _score_spans(gold: Any, pred: Any, match: str, *, leniency: int | str, labelled: bool, beta: float,
                 zero_division: str, allow_missing: str | None, formats: tuple, columns: tuple, sets: tuple,
                 read_options: dict[str, Any], unsupported: dict[str, Any]) -> Any:
    """``score(match="clueval")`` and ``score(match="semeval")``: read both sides, classify or pair spans."""
    if match not in ("clueval", "semeval"):
        raise OptionError(f"match must be pairs, clueval or semeval; got {match!r}")
    given = [name for name, value in unsupported.items() if value]
    if match == "semeval" and (str(leniency) != "1" or not labelled):
        given.append("leniency/labelled")
    if given:
        raise OptionError(f"{', '.join(given)} do not apply to --match {match}")
    if zero_division not in ZERO_DIVISION:
        raise OptionError(f"zero_division must be one of {', '.join(ZERO_DIVISION)}; got {zero_division!r}")
    gold_c, pred_c, repairs = _read_with_repairs(gold, pred, formats[0], formats[1], read_options, columns[0],
                                                 columns[1], *sets)
    inputs = {"gold": {"sources": [source_name(gold, columns[0])], "documents": len(gold_c)},
              "pred": {"sources": [source_name(gold if pred is None else pred, columns[1])],
                       "documents": len(pred_c)}}
    options = {"allow_missing": allow_missing,
               **{k: read_options[k] for k in ("scheme", "repair", "suffix") if read_options.get(k)}}
    if match == "semeval":
        from .semeval import semeval_schemas
        from .semeval._result import semeval_result

        result = semeval_schemas(gold_c, pred_c, allow_missing=allow_missing, beta=beta, zero_division=zero_division)
        out = semeval_result(result, options=options, inputs=inputs)
        out.repairs, out.source, out.corpora = repairs, result, (gold_c, pred_c)
        return out
    from .clueval import evaluate_spans
    from .clueval._result import clueval_result

    ev = evaluate_spans(gold_c, pred_c, allow_missing=allow_missing, beta=beta, zero_division=zero_division)
    out = clueval_result(ev, leniency, labelled, options=options, inputs=inputs)
    out.repairs, out.source, out.corpora = repairs, ev, (gold_c, pred_c)
    return out
