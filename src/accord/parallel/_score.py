"""``accord.score`` over shards: each worker reads and scores its documents, the caller adds up the count tables.

The caller keeps what reading the whole corpus at once would decide about the whole corpus, so that the result is
the serial one, byte for byte:

- which error is reported: a reading error of the gold side before one of the predicted side, each the first in
  file order (the error of the earliest shard); then a label or attribute name that no shard holds; then a
  document found on one side only (named as :func:`accord.pipeline.pair_documents` names them); then the first
  error of scoring;
- the order of documents (gold documents in file order, then documents only predicted), and so of every
  per-document table and of the bootstrap's resamples;
- the repairs of each file (one warning per file, its counts added over the shards) and the ``inputs`` block.

Where the plan and the files disagree (a document the scan did not see, shards of one file with different numbers
of columns), the workers' counts are not trusted: the comparison is scored again in one process, with a warning.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .._support.io import current_encoding, read_bytes_range, read_text_range, text_encoding
from ..errors import AccordError, JobsWarning, RepairWarning, ShardedRunWarning, ValidationError
from ..model import Corpus
from ._plan import (
    DEFAULT_SHARD_BYTES,
    InputPlan,
    Marks,
    Shard,
    Side,
    byte_compatible,
    byte_ranges,
    file_size,
    plan_shards,
    scan_marks,
)
from ._run import SENTENCES, resolve_jobs, runner, streamed, usable_cores

__all__ = ["score_in_shards", "score_shard", "ShardWork", "ShardOutcome"]

SCAN_BYTES = 8 << 20
"""A scan task reads at most this many bytes (what one process holds while it plans: standard input spooled to a
file is scanned before the reader sees it)."""


@contextmanager
def _shard_context() -> Any:
    """Within the block :func:`accord.score` scores one shard: it leaves the checks that need the whole corpus
    (the names the user gave) to the caller, and does not cut its shard again."""
    from ..pipeline import IN_SHARD

    token = IN_SHARD.set(True)
    try:
        yield
    finally:
        IN_SHARD.reset(token)


# -- errors and warnings cross process boundaries as (class, args, attributes): accord's exceptions take
#    keyword-only arguments, which pickling by ``args`` would lose
def _freeze(exc: BaseException) -> tuple[type[BaseException], tuple, dict]:
    return type(exc), exc.args, dict(vars(exc))


def _caught(w: warnings.WarningMessage) -> Warning:
    """A caught warning's message: the Warning that warn() made of it (typeshed also allows a str there)."""
    return w.message if isinstance(w.message, Warning) else w.category(w.message)


def _thaw(frozen: tuple[type[BaseException], tuple, dict]) -> BaseException:
    cls, args, attrs = frozen
    exc = cls.__new__(cls)
    exc.args = args
    vars(exc).update(attrs)
    return exc


@dataclass
class ShardWork:
    """What a worker needs: its shard, the options of :func:`accord.score` and the text encoding."""

    shard: Shard
    arguments: dict[str, Any]
    side_options: tuple[dict[str, Any], dict[str, Any]]
    encoding: str
    score: Callable[..., Any]
    """The serial scoring of a pair of corpora (:func:`accord.score`, given by the caller: this package never
    imports the scoring it runs)."""
    views: tuple[Callable[..., Any], int, bool] | None = None
    """The function making a shard's span views, the report page's leniency level and labelled flag: keep the span
    views of the shard's documents (:data:`accord.parallel._views.VIEWS`); None: only the count tables."""
    sentences: str = "keep"
    """What the count tables keep of their sentences (:data:`accord.parallel._run.SENTENCES`)."""


@dataclass
class ShardOutcome:
    """What a worker sends back: the result of its documents (count tables, no items) or the error it met, and
    the facts the caller checks across shards."""

    index: int
    result: Any = None
    error: tuple[str, tuple] | None = None
    ids: tuple[list[list[str]], list[list[str]]] = field(default_factory=lambda: ([], []))
    origins: tuple[dict[str, str], dict[str, str]] = field(default_factory=lambda: ({}, {}))
    columns: tuple[list[int | None], list[int | None]] = field(default_factory=lambda: ([], []))
    names: tuple[set[str], set[str]] = field(default_factory=lambda: (set(), set()))
    warnings: list[tuple] = field(default_factory=list)
    """``(step, category, message)``: step 0 reading the gold side, 1 the predicted side, 2 scoring."""
    views: Any = None
    """The span views of the shard's documents (:class:`accord.parallel._views.ShardViews`), when asked for."""


def _read_side(side: Side, options: dict[str, Any], ids: list[list[str]], origins: dict[str, str],
               columns: list[int | None]) -> Corpus:
    """The documents of one side of a shard, piece by piece; ``ids`` gets each piece's document ids."""
    from ..formats._registry import _read_files, get, read

    if not side.pieces:
        return Corpus([], name=side.name)
    if side.by_file:
        fmt = get(side.pieces[0].format)
        files = [Path(p.path) for p in side.pieces]
        some = getattr(fmt.read, "read_some", None)
        corpus = some(files, side.name, **options) if some is not None else _read_files(files, fmt, options,
                                                                                         side.name)
        # the file of each document: its file name kept by _read_files, or its id (a brat document is its stem)
        by_name = {Path(p.path).name if some is None else Path(p.path).stem: p.path for p in side.pieces}
        per_file: dict[str, list[str]] = {p.path: [] for p in side.pieces}
        for d in corpus:
            path = by_name[corpus.files[d] if some is None else d]
            per_file[path].append(d)
            origins[d] = path
        ids.extend(per_file.values())
        return corpus
    docs = []
    for p in side.pieces:
        if p.whole:
            sub = read(p.path, format=p.format, **options)
        else:
            from ..formats.tokens.conll import read_conll

            facts: dict[str, Any] = {}
            try:
                text = read_text_range(p.path, p.start, p.end)
                sub = read_conll(p.path, text=text, line_offset=p.line_offset, first_document=p.first_document,
                                 facts=facts, **options)
            finally:
                columns.append(_UNDECIDED if facts.get("undecided") else facts.get("columns"))
        ids.append(list(sub))
        docs.extend(sub.documents)
    return Corpus(docs, name=side.name)


_UNDECIDED = -1
"""The column count a piece reports when it read ``#`` lines as comments without a plain line to count columns in
(the whole file might read one as a token): it never agrees with another piece's, so the caller scores in one
process."""

_NAMED_OPTIONS = ("attributes", "equivalence_classes", "ignore", "content_annotations", "token_annotations")
"""The options whose names the caller checks against every shard's labels and attributes."""


def score_shard(work: ShardWork) -> ShardOutcome:
    """Read and score one shard (in a worker process)."""
    from ..pipeline import corpus_names

    out = ShardOutcome(work.shard.index)
    with text_encoding(work.encoding), _shard_context():
        corpora = []
        for k, (phase, side) in enumerate((("gold", work.shard.gold), ("pred", work.shard.pred))):
            options = {**work.arguments["read_options"], **work.side_options[k]}
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                try:
                    corpora.append(_read_side(side, options, out.ids[k], out.origins[k], out.columns[k]))
                except AccordError as exc:
                    out.error = (phase, _freeze(exc))
                finally:
                    out.warnings.extend((k, w.category, _freeze(_caught(w))) for w in caught)
            if out.error is not None:
                return out
        out.names = corpus_names(corpora, attributes=any(work.arguments.get(k) for k in _NAMED_OPTIONS))
        arguments = {k: v for k, v in work.arguments.items() if k != "read_options"}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = work.score(corpora[0], corpora[1], **arguments, **work.arguments["read_options"])
            except AccordError as exc:
                out.error = ("score", _freeze(exc))
                return out
            finally:
                out.warnings.extend((2, w.category, _freeze(_caught(w))) for w in caught)
        if work.views is not None:
            make_views, level, labelled = work.views
            out.views = make_views(result, level, labelled)
    result.corpora = None
    if work.sentences == "drop" or work.sentences == "auto" and len(result.documents) >= _auto_documents():
        _drop_sentences(result)
    if hasattr(result, "alignments"):
        result.alignments = []
    result.source = None
    out.result = result
    return out


def _auto_documents() -> int:
    from ..stats._units import AUTO_DOCUMENTS

    return AUTO_DOCUMENTS


def _drop_sentences(result: Any) -> None:
    """The result's count tables without their sentences (what a bootstrap over documents, or none, never reads):
    the cells of every sentence of a large corpus were most of what the caller held, and copied at each merge."""
    from dataclasses import replace

    from ..result._result import Measure

    result.measures = {name: m if m.table.sentences is None else Measure(m.kind, replace(m.table, sentences=None))
                       for name, m in result.measures.items()}


def _scan(task: tuple[str, int, int, str]) -> Marks:
    path, start, end, encoding = task
    return scan_marks(path, start, end, encoding)


def _describe(obj: Any, fmt_name: str | None, encoding: str) -> InputPlan:
    """What one side's input is, for the plan."""
    from ..formats._registry import by_extension, folder_files, get, input_files, sniff

    if not isinstance(obj, (str, os.PathLike)):
        return InputPlan("whole", "", why=f"a {type(obj).__name__} given in Python is read in one piece")
    text = os.fspath(obj)
    if text == "-":
        return InputPlan("whole", text, why="standard input is read in one piece")
    files = input_files(text)
    if files is not None:
        fmt = get(fmt_name) if fmt_name else sniff(files[0])
        return InputPlan("files", text, fmt.name, [str(f) for f in files], [f.stat().st_size for f in files])
    p = Path(text)
    remote = "://" in text
    if not remote and p.is_dir():
        fmt = get(fmt_name) if fmt_name else sniff(p)
        if getattr(fmt.read, "read_directory", None) is not None and not hasattr(fmt.read, "read_some"):
            return InputPlan("whole", str(p), why=f"a {fmt.name} folder is read in one piece")
        found = folder_files(p, fmt)
        if not found:
            return InputPlan("whole", str(p), why="the folder holds no file to share out")
        return InputPlan("files", str(p), fmt.name, [str(f) for f in found], [f.stat().st_size for f in found])
    if not remote and not p.is_file():
        return InputPlan("whole", text, why="")
    fmt = get(fmt_name) if fmt_name else (sniff(p) if not remote else get(by_extension(text)))
    if fmt.name != "conll":
        return InputPlan("whole", str(p), fmt.name, why=f"{p.name}: a {fmt.name} file is read in one piece (a "
                         "column file is cut at its -DOCSTART- lines; several files are shared out by file)")
    if not byte_compatible(encoding):
        return InputPlan("whole", str(p), fmt.name, why=f"{encoding} text cannot be cut at byte offsets")
    return InputPlan("column", text if remote else str(p), fmt.name, [text], [file_size(text)])


def _scan_columns(plans: list[InputPlan], run: Any, encoding: str) -> None:
    """Find the document marks of the column files (in parallel, range by range) and whether the text before
    the first mark holds a document."""
    plans = list({id(plan): plan for plan in plans}.values())     # a file given for both sides is scanned once
    tasks, owners = [], []
    for k, plan in enumerate(plans):
        if plan.kind == "column" and plan.marks is None:
            parts = max(run.workers_now(), -(-plan.size // SCAN_BYTES))
            for a, b in byte_ranges(plan.size, parts):
                tasks.append((plan.files[0], a, b, encoding))
                owners.append(k)
    found = run.map(_scan, tasks, light=True)     # (begun here while a cluster connects: _dask_address)
    for k, plan in enumerate(plans):
        if plan.kind == "column" and plan.marks is None:
            plan.marks = Marks.join([m for m, owner in zip(found, owners) if owner == k])
            if plan.marks.offsets and plan.marks.offsets[0] > 0:
                # whether the text before the first mark holds a token (a document of its own); a wrong guess
                # shows as a document count that disagrees with the plan
                head = read_bytes_range(plan.files[0], 0, plan.marks.offsets[0]).decode(encoding, "replace")
                plan.prefix_document = any(line.strip() and not line.lstrip().startswith("#")
                                           for line in head.splitlines())


def score_in_shards(arguments: dict[str, Any], jobs: int | str = 1, client: Any = None,
                    shard_size: int | None = None, *, score: Callable[..., Any]) -> Any:
    """``score`` (:func:`accord.score`) with the arguments given (``gold``, ``pred`` and the rest), over shards run
    by ``jobs`` processes or the Dask ``client``; ``None`` when the comparison cannot be cut (a
    :class:`ShardedRunWarning` says why) or the shards disagree with the plan: the caller then scores in one process."""
    auto = isinstance(jobs, str) and jobs.strip().lower() == "auto"
    jobs = resolve_jobs(jobs)
    if jobs == 1 and client is None and not streamed():
        return None
    if client is None and usable_cores() == 1 and jobs > 1:
        warnings.warn(JobsWarning(f"--jobs {jobs}: scored in one process, the one core this process may run on"),
                      stacklevel=3)
        return None
    gold, pred = arguments["gold"], arguments["pred"]
    read_options = dict(arguments["read_options"])
    gold_column, pred_column = arguments["gold_column"], arguments["pred_column"]
    if pred is None and (gold_column is None or pred_column is None):
        return None     # the serial path gives the error (or reads spaCy Examples)
    why = _unsupported(arguments)
    if why:
        return _serial(why)
    fmt = arguments["format"]
    encoding = read_options.get("encoding") or current_encoding()
    try:
        plans = [_describe(gold, arguments["gold_format"] or fmt, encoding)]
        plans.append(plans[0] if pred is None else _describe(pred, arguments["pred_format"] or fmt, encoding))
    except AccordError:
        return None     # the serial path reports the error where reading the inputs meets it
    if plans[0].kind == "whole" and not plans[0].why or plans[1].kind == "whole" and not plans[1].why:
        return None
    side_options: list[dict[str, Any]] = []
    for column, aset in ((gold_column, arguments["gold_set"]), (pred_column, arguments["pred_set"])):
        opts: dict[str, Any] = {}
        if aset is not None:
            opts["annotation_set"] = aset
        if column is not None:
            opts["column"] = column
        side_options.append(opts)
    shard_bytes = int(shard_size) if shard_size else DEFAULT_SHARD_BYTES
    score_arguments = {k: v for k, v in arguments.items() if k not in ("gold", "pred")}
    score_arguments["read_options"] = read_options
    with runner(jobs, client) as run:
        _scan_columns(plans, run, encoding)    # (two columns of one file: one plan, scanned once)
        shards = plan_shards(plans[0], plans[1], shard_bytes, min_shards=2 * run.workers)
        if isinstance(shards, str):
            return _serial(shards)
        if isinstance(arguments["task"], (str, os.PathLike)):
            # parsed once, not by every worker, and only once the inputs are cut (a task's warnings shown once:
            # the serial path, when it scores instead, parses it itself)
            from ..model.schema import load_task

            try:
                score_arguments["task"] = load_task(arguments["task"])
            except AccordError:
                return None     # the serial path reports it
        if client is None and not auto:
            _warn_capped(jobs, run.workers, len(shards))
        elif client == "local" and not auto and run.workers < jobs:
            warnings.warn(JobsWarning(f"--jobs {jobs}: a local Dask cluster of {run.workers} workers, as many as the "
                                      "cores this process may run on (at least 2)"), stacklevel=3)
        from ._views import VIEWS

        views = VIEWS.get()     # (accord report: the page's span views kept by the shards)
        works = [ShardWork(s, score_arguments, (side_options[0], side_options[1]), encoding, score, views,
                           SENTENCES.get()) for s in shards]
        outcomes = run.map(score_shard, works)
    return _gather(outcomes, shards, arguments, plans, works[0].sentences if works else "keep")


def _warn_capped(jobs: int, workers: int, shards: int) -> None:
    """A :class:`JobsWarning` when ``--jobs`` asked for more processes than are started: at most one per core
    (``workers``) and one per shard."""
    started = min(workers, shards)
    if started >= jobs:
        return
    why = []
    if workers == started:
        why.append(f"the {workers} core(s) this process may run on")
    if shards == started:
        why.append(f"the {shards} shard(s) of this comparison")
    warnings.warn(JobsWarning(f"--jobs {jobs}: {started} processes, as many as {' and '.join(why)}"), stacklevel=4)


def _unsupported(arguments: dict[str, Any]) -> str:
    """Why the options need the whole corpus in one process, or ``""``."""
    if any(arguments.get(k) is not None for k in ("file_re", "ref_fsuff_off", "ref_fsuff_on")):
        return "--file-re, --ref-fsuff-off and --ref-fsuff-on select files across the whole corpus"
    return ""


def _serial(why: str) -> None:
    if streamed():     # one process was asked for: reading the inputs whole is no news
        return None
    warnings.warn(ShardedRunWarning(f"scored in one process: {why}"), stacklevel=4)
    return None


def _gather(outcomes: list[ShardOutcome], shards: list[Shard], arguments: dict[str, Any],
            plans: list[InputPlan], sentences: str = "keep") -> Any:
    """The serial result from the shards' outcomes (see the module's docstring), or None to score serially."""
    from ..pipeline import check_label_case, check_user_names, missing_documents, source_name

    why = plan_disagreement(outcomes, shards, plans)
    if why:
        return _serial(why)
    _emit_warnings(outcomes, plans)
    for phase in ("gold", "pred"):
        for out in outcomes:
            if out.error is not None and out.error[0] == phase:
                raise _thaw(out.error[1])
    gold_ids = [d for out in outcomes for piece_ids in out.ids[0] for d in piece_ids]
    pred_ids = _pred_order(outcomes, shards, plans[1])
    _check_duplicates(outcomes, shards, plans)
    check_label_case(set().union(*(out.names[0] for out in outcomes)))
    if arguments["match"] == "pairs":
        equivalences = {m: name for name, members in (arguments["equivalence_classes"] or {}).items()
                        for m in members}
        task = arguments["task"]
        labels = set().union(*(out.names[0] for out in outcomes))
        names = set().union(*(out.names[1] for out in outcomes))
        check_user_names(None, None, task, arguments["attributes"], equivalences, arguments["ignore"],
                          arguments["content_annotations"], arguments["token_annotations"], seen=(labels, names))
    for out in outcomes:
        if out.error is not None and issubclass(out.error[1][0], ValidationError):
            raise _thaw(out.error[1])
    gold_set, pred_set = set(gold_ids), set(pred_ids)
    if arguments["allow_missing"] is None:
        only_gold = [d for d in gold_ids if d not in pred_set]
        only_pred = [d for d in pred_ids if d not in gold_set]
        if only_gold or only_pred:
            raise missing_documents(only_gold, only_pred, plans[0].name, plans[1].name)
    for out in outcomes:
        if out.error is not None:
            raise _thaw(out.error[1])
    if sentences == "auto" and sum(len(out.result.documents) for out in outcomes) >= _auto_documents():
        for out in outcomes:     # (--resample auto resamples documents: the shards' sentences let go unmerged)
            _drop_sentences(out.result)
    result = _merge_releasing(outcomes)
    order = gold_ids + [d for d in pred_ids if d not in gold_set]
    result.reorder_documents(order)
    if all(out.views is not None for out in outcomes):
        from ._views import merge_views

        result.shard_views = merge_views([out.views for out in outcomes], order)
    gold, pred = arguments["gold"], arguments["pred"]
    result.inputs = {"gold": {"sources": [source_name(gold, arguments["gold_column"])], "documents": len(gold_ids)},
                     "pred": {"sources": [source_name(gold if pred is None else pred, arguments["pred_column"])],
                              "documents": len(pred_ids)}}
    result.repairs = [w.to_dict() for w in _merged_repairs(outcomes, plans)]
    return result


def _merge_releasing(outcomes: list[ShardOutcome]) -> Any:
    """The shards' results merged pairwise in a balanced tree (as :meth:`accord.result.Result.merge_all`), each
    let go as soon as it is merged: the count tables of the corpus are held about once, not once per level."""
    level = [out.result for out in outcomes]
    for out in outcomes:
        out.result = None
    while len(level) > 1:
        merged = []
        for k in range(0, len(level), 2):
            if k + 1 < len(level):
                merged.append(level[k].merge(level[k + 1]))
                level[k] = level[k + 1] = None
            else:
                merged.append(level[k])
        level = merged
    return level[0]


def plan_disagreement(outcomes: list[ShardOutcome], shards: list[Shard], plans: list[InputPlan]) -> str:
    """Why the shards read are not the plan's (a piece holding another number of documents than the scan found,
    the shards of one file holding lines of different numbers of columns), or ``""``."""
    for k in (0, 1):
        seen: set[int] = set()
        for shard, out in zip(shards, outcomes):
            seen.update(c for c in out.columns[k] if c is not None)
            if _UNDECIDED in seen:
                return f"a shard of {plans[k].name} holds only '#' lines, which the whole file may read as tokens"
            if out.error is not None and out.error[0] in ("gold", "pred"):
                continue
            for piece, ids in zip((shard.gold, shard.pred)[k].pieces, out.ids[k]):
                if piece.documents is not None and len(ids) != piece.documents:
                    return (f"{piece.path}: {len(ids)} document(s) between bytes {piece.start} and {piece.end}, "
                            f"where the scan found {piece.documents}")
        if len(seen) > 1:
            return f"the shards of {plans[k].name} hold lines of {' and '.join(map(str, sorted(seen)))} columns"
    return ""


def _pred_order(outcomes: list[ShardOutcome], shards: list[Shard], plan: InputPlan) -> list[str]:
    """The predicted documents in the order of reading the predicted input whole."""
    rank = {f: k for k, f in enumerate(plan.files)}
    keyed = []
    for shard, out in zip(shards, outcomes):
        for piece, ids in zip(shard.pred.pieces, out.ids[1]):
            keyed.append(((rank.get(piece.path, 0), piece.start), ids))
    keyed.sort(key=lambda item: item[0])
    return [d for _, ids in keyed for d in ids]


def _check_duplicates(outcomes: list[ShardOutcome], shards: list[Shard], plans: list[InputPlan]) -> None:
    """A document name that two files of one side give (in different shards), as reading them together says it."""
    from ..formats._registry import name_from_two_files

    for k in (0, 1):
        if plans[k].kind != "files":   # (the files of a brat folder have different names by construction)
            continue
        rank = {f: n for n, f in enumerate(plans[k].files)}
        origin: dict[str, str] = {}
        entries = sorted(((rank[path], d, path) for out in outcomes for d, path in out.origins[k].items()),
                         key=lambda e: e[0])
        for _, d, path in entries:
            if d in origin and origin[d] != path:
                raise name_from_two_files(d, origin[d], path, plans[k].name)
            origin[d] = path


def _emit_warnings(outcomes: list[ShardOutcome], plans: list[InputPlan]) -> None:
    """The shards' warnings on this process's standard error, as reading and scoring in one process shows them:
    the gold side's repairs, the predicted side's, then the other warnings (each message once)."""
    from ._run import SHOWN

    # the gold side's warnings that another system's shards gave are shown once, as reading the gold file once does
    gold_shown = SHOWN.get()
    gold_files = {str(f) for f in plans[0].files}
    for w in _merged_repairs(outcomes, plans):
        key = (type(w), str(w))
        if gold_shown is not None and str(w.path) in gold_files:
            if key in gold_shown:
                continue
            gold_shown.add(key)
        warnings.warn(w, stacklevel=5)
    shown: set[tuple[type, str]] = set()
    for step in (0, 1, 2):
        for out in outcomes:
            for k, category, frozen in out.warnings:
                message = _thaw(frozen)
                assert isinstance(message, Warning)  # frozen from a caught warning
                if k != step or isinstance(message, RepairWarning) or (category, str(message)) in shown:
                    continue
                shown.add((category, str(message)))
                if step == 0 and gold_shown is not None:
                    if (category, str(message)) in gold_shown:
                        continue
                    gold_shown.add((category, str(message)))
                warnings.warn_explicit(message, category, "accord", 0)


def _merged_repairs(outcomes: list[ShardOutcome], plans: list[InputPlan]) -> list[RepairWarning]:
    """One repair warning per file and side, in the order of reading the gold and then the predicted input (a
    file's shards in file order)."""
    from ..model.tagging import merge_repair_warnings

    ranks = [{f: n for n, f in enumerate(plan.files)} for plan in plans]
    groups: dict[tuple[int, int, str], list[RepairWarning]] = {}
    for out in outcomes:
        for k, _, frozen in out.warnings:
            w = _thaw(frozen)
            if k < 2 and isinstance(w, RepairWarning):
                groups.setdefault((k, ranks[k].get(str(w.path), 0), str(w.path)), []).append(w)
    merged: list[RepairWarning] = []
    for _, parts in sorted(groups.items(), key=lambda item: item[0][:2]):
        merged.extend([merge_repair_warnings(parts)] if parts[0].parts else parts)
    return merged
