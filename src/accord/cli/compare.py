"""``accord compare``: two or more systems against one gold standard, with paired significance tests."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from ..errors import OptionError
from ._options import (
    MAX_DRAWS,
    add_output,
    add_rates,
    add_resample,
    add_scaling,
    count_of,
    csv_list,
    open_fraction,
    rate_list,
    seed_value,
)
from ._output import emit

__all__ = ["register", "COMMANDS"]


_PARSERS: list[argparse.ArgumentParser] = []
"""The ``compare`` parsers registered (the last one reads an option's default for ``--structures``' check)."""


def register(sub: argparse._SubParsersAction) -> None:
    from .score import _formats_epilog, add_score_options
    from .structures import add_record_options

    cp = sub.add_parser("compare", help="compare systems against one gold standard: differences and paired "
                        "significance tests", formatter_class=argparse.RawDescriptionHelpFormatter,
                        description="Score every PRED against GOLD (as accord score, with its options) and test, for "
                        "every two systems, whether their rates differ: paired approximate randomization (default) or "
                        "paired bootstrap, over documents or sentences (--resample), p-values adjusted by Holm's "
                        "method within each family of tests (the totals apart from each label's comparisons); "
                        "prints the leaderboard (the "
                        "systems ranked by the headline rate, each with the systems it beats significantly), then the "
                        "pairwise table.",
                        epilog=_formats_epilog())
    _PARSERS.append(cp)
    cp.add_argument("gold", help="gold file or directory (the key of --structures)")
    cp.add_argument("preds", nargs="+", metavar="PRED",
                    help="the systems' files or directories (two or more); several runs of one system (different "
                    "seeds) as one argument, comma-separated ('a_seed1.conll,a_seed2.conll'), or a quoted glob with "
                    "--runs")
    cp.add_argument("--runs", action="store_true",
                    help="read a PRED that is a quoted glob ('a_seed*.conll') as the runs of one system, one run per "
                    "file (without it a glob is one corpus of all its files, as in every command)")
    add_score_options(cp)
    st = cp.add_argument_group("coreference, Smatch and structured records")
    st.add_argument("--structures", choices=("coref", "smatch", "structured"),
                    help="compare the results of accord coref, smatch or structured (the key, then the responses; "
                    "documents, or graphs by ::id, the same in every response) instead of accord score's")
    st.add_argument("--metrics", "--metric", dest="metrics", type=csv_list,
                    help="coref: the metrics (default all); structured: the metric names (required)")
    add_record_options(st)
    add_test_options(cp)
    cp.add_argument("--seed", type=seed_value, help="seed of the sampling (the same seed gives the same output)")
    ci = cp.add_argument_group("intervals of the leaderboard")
    ci.add_argument("--bootstrap", type=count_of(2), metavar="N",
                    help="each system's interval of the headline rate from N resamples of the --resample unit (and "
                    "of the runs, for a system of several runs)")
    ci.add_argument("--confidence", type=open_fraction, default=0.95,
                    help="confidence level of the intervals (default 0.95)")
    ci.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile",
                    help="percentile (default) or bca (systems of one run)")
    add_output(cp)
    _add_paper_formats(cp)
    add_rates(cp)
    add_scaling(cp)


PAPER_FORMATS = {"markdown": ".md", "latex": ".tex"}
"""compare's outputs beyond table, json and csv: the leaderboard as a table for a paper (by ``--output`` or the
extension of ``-o``)."""


def _add_paper_formats(p: argparse.ArgumentParser) -> None:
    """``--output markdown|latex`` beside the common choices (the one ``--output`` option, more choices)."""
    for action in p._actions:
        if action.dest == "output" and action.choices is not None:
            action.choices = (*action.choices, *PAPER_FORMATS)
            action.help = ("output format: table, json, csv, or the leaderboard for a paper, markdown or latex "
                           "(default: by the extension of -o, .json, .csv, .md or .tex, else table)")


def add_test_options(p: argparse.ArgumentParser) -> None:
    """The paired test's options (``compare`` and ``report``)."""
    t = p.add_argument_group("significance")
    t.add_argument("--test", choices=("permutation", "bootstrap"), default="permutation",
                   help="permutation (approximate randomization, default) or bootstrap (paired)")
    t.add_argument("--samples", type=count_of(1), default=10_000,
                   help=f"random swaps or resamples (default 10000, at most {MAX_DRAWS:,})")
    t.add_argument("--alpha", type=open_fraction, default=0.05,
                   help="level of the adjusted p-values, strictly between 0 and 1 (default 0.05)")
    t.add_argument("--rates", type=rate_list, default=["f1"], help="rates compared, comma-separated (default f1)")
    t.add_argument("--no-labels", action="store_true", help="compare the totals only, not each label")
    t.add_argument("--correction", choices=("holm", "bonferroni", "none"), default="holm",
                   help="adjustment of the p-values within each family (default holm)")
    t.add_argument("--families", choices=("separate", "overall", "all"), default="separate",
                   help="which tests are corrected together: separate (default; the totals of every pair of systems "
                   "one family, each label's comparisons another), overall (the totals one family, all labels "
                   "another), all (every comparison one family)")
    add_resample(t)


def runs_of(argument: str, globs_are_runs: bool = False) -> list[str]:
    """The runs of one system on the command line: a path, or several separated by commas, each a path or a glob
    (``sys_seed*.conll``), in sorted order. A path that exists is one run even if it holds a comma. A glob alone is
    one corpus of all its files, as in every command (``accord score 'gold/*.conll' ...``), unless
    ``globs_are_runs`` (``--runs``): then each of its files is a run."""
    import glob
    import os

    if os.path.exists(argument) or "," not in argument and not (globs_are_runs and glob.has_magic(argument)):
        return [argument]
    out: list[str] = []
    for part in (argument.split(",") if not os.path.exists(argument) else [argument]):
        if not part:
            raise OptionError(f"system {argument!r}: an empty run between commas")
        if glob.has_magic(part) and not os.path.exists(part):
            found = sorted(glob.glob(part))
            if not found:
                raise OptionError(f"system {argument!r}: no file matches {part!r}")
            out.extend(found)
        else:
            out.append(part)
    if len(set(out)) < len(out):
        raise OptionError(f"system {argument!r} names a run twice")
    return out


def system_names(arguments: list[str], runs: list[list[str]]) -> list[str]:
    """A name per system: its file name (one run), or the runs' longest common beginning, trimmed of ``_-.``
    (several runs; ``x+y`` when they share none)."""
    import os

    singles = names_of([r[0] if len(r) == 1 else a for a, r in zip(arguments, runs)])
    out = []
    for single, files in zip(singles, runs):
        if len(files) == 1:
            out.append(single)
            continue
        stems = [Path(f).stem for f in files]
        common = os.path.commonprefix(stems).rstrip("_-. ")
        out.append(common or ("+".join(stems) if len(stems) <= 3 else f"{stems[0]}+{len(stems) - 1} more"))
    if len(set(out)) < len(out):
        out = [name if out.count(name) == 1 else f"{name}#{k + 1}" for k, name in enumerate(out)]
    return out


def names_of(paths: list[str]) -> list[str]:
    """Short unique names for the systems: file names, made unique with their parents where needed."""
    from .._support.io import shown_name

    shown = [shown_name(p) for p in paths]     # standard input is <stdin>, not its temporary copy
    names = [s if s.startswith("<") else (Path(p).stem or p) for p, s in zip(paths, shown)]
    if len(set(names)) < len(names):
        names = [str(Path(p)) for p in paths]
    if len(set(names)) < len(names):
        raise OptionError("a system is given twice")
    return names


def render_comparison(result: Any, console: Any) -> None:
    """The terminal tables of ``accord compare``: the leaderboard, every system's totals, the pairwise
    comparisons, and for each comparison of totals that is not significant the smallest difference it could
    have detected."""
    from rich.text import Text

    from ..report.leaderboard import detectable_lines, render_leaderboard
    from ..report.table import RATES, TableConsole, new_table, percent, print_table

    console = console or TableConsole()
    render_leaderboard(result, console)
    several = {name for name, rs in result.runs.items() if len(rs) > 1}
    systems = new_table("systems (every measure's totals" + ("; each run of a system of several" if several else "")
                        + ")", ["system", "measure", "P %", "R %", "F %"], first=2)
    for name, rs in result.runs.items():
        for k, r in enumerate(rs):
            shown = f"{name} (run {k + 1})" if name in several else name
            for m, measure in r.measures.items():
                block = measure.totals()
                systems.add_row(shown, m, *(percent(block[k]) for k in RATES))
    print_table(console, systems)
    o = result.options
    tests = sorted({c.test for c in result.comparisons}) or [o["test"]]
    adjusted = {"holm": "Holm-adjusted", "bonferroni": "Bonferroni-adjusted", "none": "not adjusted"}[
        o.get("correction", "holm")]
    units = o.get("resampled_units")
    count = f"{units:,}" if isinstance(units, int) else str(units)
    marks = new_table(f"differences (b - a, points) with {' and '.join(tests)} p-values over {count} "
                      f"{o.get('resample', 'documents')}, {adjusted} within {o.get('families', 'all')} families; "
                      f"* p < {result.options['alpha']:g}, ** p < {result.options['alpha'] / 5:g}",
                      ["a", "b", "measure", "label", "rate", "a %", "b %", "b - a", "p", "p adj.", ""], first=5)
    for c in result.comparisons:
        diff = "—" if c.difference is None else f"{100 * c.difference:+.2f}"
        p = "—" if c.p_value is None else f"{c.p_value:.4f}"
        padj = "—" if c.p_adjusted is None else f"{c.p_adjusted:.4f}"
        marks.add_row(c.a, c.b, c.measure, c.label or "ALL", c.rate, percent(c.a_value), percent(c.b_value), diff, p,
                      padj, c.mark(result.options["alpha"]), style="bold" if c.significant else None)
    print_table(console, marks)
    for line in detectable_lines(result):
        console.print(Text(line))


def emit_comparison(args: argparse.Namespace, result: Any) -> int:
    """``accord compare``'s output: the common formats (:func:`accord.cli._output.emit`), or the leaderboard as
    Markdown or LaTeX (``--output markdown|latex``, or ``-o`` ending in ``.md`` or ``.tex``)."""
    from ._output import write_text

    fmt = args.output
    if fmt is None and getattr(args, "out", None):
        fmt = next((f for f, ext in PAPER_FORMATS.items() if Path(args.out).suffix.lower() == ext), None)
    if fmt not in PAPER_FORMATS:
        return emit(args, result, lambda console: render_comparison(result, console))
    from ..report.leaderboard import latex, markdown

    write_text(args, markdown(result) if fmt == "markdown" else latex(result))
    return 0


def system_args(args: argparse.Namespace, pred: str) -> argparse.Namespace:
    """The options one system of ``compare`` or ``report`` is scored with: ``--align exact|fuzzy`` (and
    ``--align-threshold``) place the strings of generated output; a system of offsets among them (not given with
    ``--pred-format``/``--format``, not recognised as records) is scored as it is, without them."""
    if getattr(args, "align", None) not in ("exact", "fuzzy") or args.pred_format or args.format:
        return args
    from ..errors import AccordError
    from ..formats._registry import sniff

    try:
        if sniff(pred).name == "records":
            return args
    except AccordError:     # the scoring names what is wrong with the file
        return args
    return argparse.Namespace(**{**vars(args), "align": None, "align_threshold": None})


def run_compare(args: argparse.Namespace) -> int:
    from ..pipeline import reading_once
    from ..stats import compare
    from .score import score_result

    if len(args.preds) < 2:
        raise OptionError("compare needs two or more systems (PRED files or directories)")
    if args.match == "pairs" and (args.profile == "gate" or args.bdm):
        raise OptionError("accord compare scores in the pairs, clueval and semeval modes; compare GATE's measures "
                          "with accord.compare on accord.qa results in Python")
    args.details = None
    runs = [runs_of(p, args.runs) for p in args.preds]
    names = system_names(args.preds, runs)
    results: dict[str, Any]
    if args.structures:
        if args.jobs != "1" or args.dask or args.shard_size:
            raise OptionError("--jobs, --dask and --shard-size apply to accord score's modes, not to --structures")
        _check_structure_options(args)
        results = {name: _as_runs([_structure_result(args, path) for path in paths])
                   for name, paths in zip(names, runs)}
    else:
        if args.metrics or args.inclusive_spans or args.premodifiers or args.hierarchy:
            raise OptionError("--metrics, --inclusive-spans, --premodifiers and --hierarchy apply with --structures")
        with reading_once(args.gold):    # the gold file is read once for every system (and kept alone)
            results = {name: _as_runs([counts_only(score_result(system_args(args, path), path)[0])
                                       for path in paths]) for name, paths in zip(names, runs)}
    result = compare(results, test=args.test, samples=args.samples, seed=args.seed, rates=args.rates,
                     alpha=args.alpha, labels=not args.no_labels, resample=args.resample, correction=args.correction,
                     families=args.families)
    if args.bootstrap:
        result.bootstrap(args.bootstrap, seed=args.seed, confidence=args.confidence, method=args.ci_method)
    del args.bootstrap      # the intervals are the comparison's own (emit bootstraps a result given --bootstrap)
    return emit_comparison(args, result)


def counts_only(result: Any) -> Any:
    """``result`` without its documents (the corpora scored, the CLUEval evaluation, the alignments): the
    comparison reads only its per-document count tables, so that the systems' documents are not all kept at once
    (the memory of comparing N systems is that of scoring one, plus N count tables)."""
    result.corpora = None
    result.source = None
    if hasattr(result, "alignments"):
        result.alignments = []
    return result


def _as_runs(results: list[Any]) -> Any:
    """One result, or the list of a system's runs."""
    return results[0] if len(results) == 1 else results


_STRUCTURE_OPTIONS = {"command", "gold", "preds", "format", "structures", "metrics", "inclusive_spans", "premodifiers",
                      "hierarchy", "test", "samples", "alpha", "rates", "no_labels", "seed", "output", "out",
                      "correction", "families", "resample", "bootstrap", "confidence", "ci_method", "runs",
                      "encoding", "quiet"}
"""The options of ``compare --structures``; every other option of ``compare`` belongs to accord score's modes."""


def _check_structure_options(args: argparse.Namespace) -> None:
    """Refuse, with ``--structures``, every option that belongs to accord score's modes or to another structure."""
    defaults = vars(_PARSERS[-1].parse_args([args.gold, *args.preds]))
    given = sorted(f"--{k.replace('_', '-')}" for k, default in defaults.items()
                   if k not in _STRUCTURE_OPTIONS and getattr(args, k, default) != default)
    if given:
        raise OptionError(f"{', '.join(given)} apply to accord score's modes, not to --structures {args.structures}")
    if args.structures != "structured" and (args.inclusive_spans or args.premodifiers or args.hierarchy):
        raise OptionError("--inclusive-spans, --premodifiers and --hierarchy apply to --structures structured")
    if args.structures == "coref" and args.format not in (None, "conll2012", "jsonl"):
        raise OptionError(f"--format {args.format}: coreference files are conll2012 or jsonl")
    if args.structures == "smatch" and (args.metrics or args.format):
        raise OptionError("--metrics and --format do not apply to --structures smatch (PENMAN graphs, one measure)")
    if args.structures == "structured" and not args.metrics:
        raise OptionError("--structures structured needs --metrics (see accord structured -h)")
    if args.structures == "structured" and args.format:
        raise OptionError("--format does not apply to --structures structured (records are JSON lines)")


def _structure_result(args: argparse.Namespace, response: str) -> Any:
    """One response's result of ``accord coref``, ``smatch`` or ``structured`` against ``args.gold``."""
    from .. import _api
    from .structures import COREF_METRICS, structured_result

    if args.structures == "coref":
        return _api.coref(args.gold, response, metrics=args.metrics or list(COREF_METRICS), format=args.format,
                          allow_missing=args.allow_missing)
    if args.structures == "smatch":
        return _api.smatch(args.gold, response)
    return structured_result(args, args.gold, response)


COMMANDS = {"compare": run_compare}
