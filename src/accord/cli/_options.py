"""Options shared by the commands, declared once so that their names and help texts cannot diverge."""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Callable
from typing import Any

from .._support.limits import MAX_BETA, MAX_DRAWS

__all__ = ["Parser", "csv_list", "beta_value", "weight", "positive", "seconds", "open_fraction", "closed_fraction",
           "count_of", "seed_value", "rate_list", "known_rates", "MAX_DRAWS", "equivalence", "add_output", "add_rates",
           "add_allow_missing",
           "add_sides_format", "add_tagging", "add_columns", "add_key_response", "add_diff_pairing",
           "add_common", "add_statistics", "repair_of", "add_discontinuous"]


def csv_list(value: str) -> list[str]:
    """A comma-separated list (empty items dropped)."""
    return [v for v in value.split(",") if v]


def _float(value: str) -> float:
    """``value`` as a number; NaN for text that is not one (every range check refuses NaN)."""
    try:
        return float(value)
    except ValueError:
        return math.nan


def beta_value(value: str) -> float:
    """``--beta``: a number from 0 to :data:`~accord._support.limits.MAX_BETA` (F-beta is then recall to twelve
    digits)."""
    beta = _float(value)
    if not 0 <= beta <= MAX_BETA:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to {MAX_BETA:g}, got {value!r}")
    return beta


def seconds(value: str) -> float:
    """A time limit (``--time-limit``): a positive, finite number of seconds."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {value!r}") from None
    if not (number > 0 and math.isfinite(number)):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, got {value!r}")
    return number


MAX_WEIGHT = 1e6
"""The largest weight of γ's dissimilarity (``--gamma-alpha``, ``--gamma-beta``, ``--delta-empty``): γ depends on
their ratios only, and larger values overflow the sums of dissimilarities."""


def weight(value: str) -> float:
    """A weight (``--gamma-alpha``, ``--gamma-beta``): a number from 0 to :data:`MAX_WEIGHT`."""
    number = _float(value)
    if not 0 <= number <= MAX_WEIGHT:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to {MAX_WEIGHT:g}, got {value!r}")
    return number


def positive(value: str) -> float:
    """A weight that must not be 0 (``--delta-empty``): a number above 0, at most :data:`MAX_WEIGHT`."""
    number = _float(value)
    if not 0 < number <= MAX_WEIGHT:
        raise argparse.ArgumentTypeError(f"expected a number above 0 and at most {MAX_WEIGHT:g}, got {value!r}")
    return number


def open_fraction(value: str) -> float:
    """A level or probability strictly between 0 and 1 (``--alpha``, ``--confidence``): NaN, infinities, 0, 1
    and numbers outside are refused (with ``--alpha 2`` every difference would be marked significant)."""
    number = _float(value)
    if not 0 < number < 1:
        raise argparse.ArgumentTypeError(f"expected a number strictly between 0 and 1, got {value!r}")
    return number


def closed_fraction(value: str) -> float:
    """A rate threshold from 0 to 1 inclusive (``--threshold``)."""
    number = _float(value)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {value!r}")
    return number


def _whole(value: str) -> int | None:
    text = value.strip()
    try:
        return int(text)
    except ValueError:
        number = _float(text)
        return int(number) if math.isfinite(number) and number == int(number) else None


def count_of(minimum: int, maximum: int = MAX_DRAWS, zero: bool = False) -> Callable[[str], int]:
    """A whole number from ``minimum`` to ``maximum`` (and 0 when ``zero``: "none")."""

    def count(value: str) -> int:
        number = _whole(value)
        if number is None or not (minimum <= number <= maximum or (zero and number == 0)):
            allowed = f"{'0 or ' if zero else ''}a whole number from {minimum:,} to {maximum:,}"
            raise argparse.ArgumentTypeError(f"expected {allowed}, got {value!r}")
        return number

    count.__name__ = "count"
    return count


def seed_value(value: str) -> int:
    """``--seed``: a whole number >= 0 (numpy's generators take no negative seed)."""
    number = _whole(value)
    if number is None or number < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0, got {value!r}")
    return number


def known_rates() -> tuple[str, ...]:
    """The rates of every measure kind (the names ``--rates`` may give)."""
    from ..result._kinds import Kind

    names: dict[str, None] = {}
    kinds = [Kind]
    while kinds:
        kind = kinds.pop()
        names.update(dict.fromkeys(kind.rate_names))
        kinds.extend(kind.__subclasses__())
    return tuple(names)


def rate_list(value: str) -> list[str]:
    """``--rates``: one or more rate names, comma-separated."""
    rates = [r.strip() for r in value.split(",") if r.strip()]
    known = known_rates()
    if not rates:
        raise argparse.ArgumentTypeError(f"expected one or more of {', '.join(known)}, comma-separated; got {value!r}")
    unknown = [r for r in rates if r not in known]
    if unknown:
        raise argparse.ArgumentTypeError(f"{unknown[0]!r} is not a rate; expected {', '.join(known)}")
    return list(dict.fromkeys(rates))


def equivalence(value: str) -> tuple[str, list[str]]:
    name, sep, members = value.partition("=")
    if not sep or not name or not members:
        raise argparse.ArgumentTypeError(f"expected NAME=LABEL,LABEL; got {value!r}")
    return name, [m for m in members.split(",") if m]


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns`` without importing shutil (with bz2, lzma and fnmatch, a few ms a run):
    ``COLUMNS`` when a positive number, else standard output's terminal width, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
        columns = columns or 80
    return columns


class Parser(argparse.ArgumentParser):
    """An argument parser whose description may be computed when help is shown (``lazy_description``),
    so that building the parser imports nothing a command does not need."""

    def __init__(self, *args: Any, lazy_description: Callable[[], str] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._lazy_description = lazy_description

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter (made for every option added, to check its metavar) with argparse's own width,
        measured without shutil."""
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)  # type: ignore[call-arg]

    def format_help(self) -> str:
        if self._lazy_description is not None:
            self.description, self._lazy_description = self._lazy_description(), None
        return super().format_help()


def add_output(p: argparse.ArgumentParser, details: str | None = None) -> None:
    """``--output``, ``-o``/``--out`` and, when the command has them, ``--details``."""
    g = p.add_argument_group("output")
    g.add_argument("--output", choices=("table", "json", "csv"),
                   help="output format (default: by the extension of -o, .json or .csv, else table)")
    g.add_argument("-o", "--out", help="write the output to this file ('-': standard output)")
    if details is not None:
        g.add_argument("--details", help=f"write {details} to this file (CSV, or JSON lines for .jsonl)")


def add_rates(p: argparse.ArgumentParser, zero_division: bool = True) -> None:
    """``--beta`` and ``--zero-division``."""
    p.add_argument("--beta", type=beta_value, default=1.0, help="F-beta weight (default 1); reported as f1")
    if zero_division:
        p.add_argument("--zero-division", choices=("zero", "one", "nan"), default="zero",
                       help="rate for an empty denominator: 0 (default), 1 (MAT) or NaN (null in JSON)")


def add_allow_missing(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    p.add_argument("--allow-missing", choices=("empty", "skip"),
                   help="documents found on one side only: score them against nothing (empty) or leave them out "
                   "(skip); by default they are an error")


def add_sides_format(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    """``--format`` of both sides and ``--gold-format``/``--pred-format``."""
    from ..formats._registry import names

    p.add_argument("--format", help=f"format of both sides: {', '.join(names())}; sniffed by default")
    p.add_argument("--gold-format", help="format of the gold side")
    p.add_argument("--pred-format", help="format of the predicted side")
    p.add_argument("--gold-encoding", "--ref-encoding", dest="gold_encoding", metavar="ENCODING",
                   help="text encoding of the gold side's files (MAT's --ref_encoding); --encoding applies when it "
                   "is not given")
    p.add_argument("--pred-encoding", metavar="ENCODING",
                   help="text encoding of the predicted side's files; --encoding applies when it is not given")


def add_discontinuous(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    """``--discontinuous``: how brat's discontinuous spans are read, by every command that reads brat."""
    p.add_argument("--discontinuous", choices=("fragments", "merge", "error"), default="fragments",
                   help="brat's discontinuous spans: score their pieces (fragments, default: exact when every piece "
                   "is, overlapping when a piece overlaps), their covering extent (merge), or refuse them (error)")


def repair_of(args: argparse.Namespace) -> str:
    """The repair method the readers get: ``--repair``, or ``seqeval`` with ``--compat seqeval``."""
    return "seqeval" if getattr(args, "compat", None) == "seqeval" else args.repair


def add_tagging(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    """Tag scheme, repair and tag column of column files."""
    p.add_argument("--scheme", default="IOB2", help="tag scheme of column files: IOB1, IOB2 (BIO), IOE1, IOE2, "
                   "IOBES (BIOES), BILOU, IO (default IOB2)")
    p.add_argument("--repair", default="conlleval", choices=("conlleval", "discard", "error"),
                   help="invalid tag sequences: read as conlleval does (default, as seqscore), discard their chunks, "
                   "or stop with an error")
    p.add_argument("--suffix", action="store_true", help="the scheme's letter ends the tag (PER-B, PER-I), as "
                   "seqeval's suffix=True")
    p.add_argument("--compat", choices=("seqeval",), help="seqeval: read the tags as seqeval's strict mode does for "
                   "--scheme (IOB1 and IOE1 by seqeval's own rules; other schemes as --repair discard); replaces "
                   "--repair")
    p.add_argument("--tag-column", type=int, default=-1,
                   help="0-based index of the tag column in column files (default: the last)")


def add_columns(p: argparse._ActionsContainer) -> None:   # a parser or an argument group
    """Options that choose the columns of VRT and CoNLL files."""
    p.add_argument("--columns", help="VRT: the BIO column, by name or 1-based number (CoNLL: like --tag-column); "
                   "the same for both sides (sides in other formats ignore it)")
    p.add_argument("--gold-column", help="the gold side's tag column (VRT: name or 1-based number; CoNLL: "
                   "0-based, as --tag-column)")
    p.add_argument("--pred-column", help="the predicted side's tag column (same numbering)")
    p.add_argument("--positional-attributes", type=csv_list, metavar="NAMES",
                   help="VRT: names of the columns, comma-separated, for files without a "
                   "'#vrt positional-attributes' comment")
    p.add_argument("--word-column", default="1", help="VRT: the token text column (default 1)")
    p.add_argument("--token-id-column", help="VRT: a column of token ids, checked to be equal on both sides")
    p.add_argument("--layer", metavar="TYPE[:FEATURE],...", help="UIMA XMI: the annotation types read, each with the "
                   "feature that gives its label (default: DKPro Core's NamedEntity:value)")
    p.add_argument("--spans-vrt", metavar="FILE", help="spans tables (--format spans, or --gold-format/"
                   "--pred-format spans): the VRT file that gives their documents and tokens")


def add_key_response(p: argparse.ArgumentParser) -> None:
    """KEY and RESPONSE (GATE's names for gold and predicted), their format and annotation sets."""
    p.add_argument("key", help="key (gold) file or directory (A); '-' for standard input")
    p.add_argument("response", help="response (predicted) file or directory (B)")
    p.add_argument("--format", help="format of both sides (sniffed by default)")
    p.add_argument("--key-set", "--gold-set", dest="key_set",
                   help="GATE XML: the key's annotation set (default: the default set); Label Studio: annotations, "
                   "annotations:N, predictions or predictions:N")
    p.add_argument("--response-set", "--pred-set", dest="response_set",
                   help="GATE XML: the response's annotation set (default: the default set); Label Studio: as "
                   "--key-set")
    add_discontinuous(p)


def add_diff_pairing(p: argparse.ArgumentParser) -> None:
    """The Annotation Diff's options: types, significant features, value comparison, pairing."""
    p.add_argument("--types", "--type", dest="type", type=csv_list, metavar="TYPES",
                   help="annotation types to compare (comma-separated; default all)")
    p.add_argument("--features", "--feature", dest="features", default="",
                   help="significant features, comma-separated; 'all' for every key feature (GATE's API default); "
                   "none by default (GATE's diff window)")
    p.add_argument("--compare-as-strings", action="store_true",
                   help="compare feature values as strings (by default values of different types never match)")
    p.add_argument("--pairing", choices=("gate", "optimal"), default="gate",
                   help="gate (default): GATE's greedy pairing, GATE's exact counts; optimal: the maximum-value "
                   "one-to-one pairing, independent of annotation order")


def add_statistics(p: argparse.ArgumentParser) -> None:
    """Bootstrap confidence intervals: ``--bootstrap``, ``--seed``, ``--confidence``, ``--ci-method``,
    ``--confidence-data``."""
    g = p.add_argument_group("confidence intervals (resampling documents or sentences)")
    g.add_argument("--bootstrap", type=count_of(2), metavar="N",
                   help="add confidence intervals of every rate (every coefficient, for agree) from N bootstrap "
                   "resamples (see --resample)")
    add_resample(g)
    g.add_argument("--seed", type=seed_value, help="seed of the resampling (the same seed gives the same output)")
    g.add_argument("--confidence", type=open_fraction, default=0.95,
                   help="confidence level of the intervals (default 0.95)")
    g.add_argument("--ci-method", choices=("percentile", "bca"), default="percentile",
                   help="percentile (default) or bca (bias-corrected and accelerated, as scipy.stats.bootstrap)")
    g.add_argument("--confidence-data", "--compute-confidence-data", dest="confidence_data", action="store_true",
                   help="also the mean, variance and standard deviation of the resampled values (MAT's "
                   "--compute_confidence_data; alone it resamples 1000 times, as MAT)")


def add_resample(g: Any) -> None:
    """``--resample auto|documents|sentences``: the unit of the bootstrap and of the paired tests."""
    g.add_argument("--resample", choices=("auto", "documents", "sentences"), default="auto",
                   help="the unit resampled: documents, sentences, or auto (default: documents from 30 documents "
                   "on, else sentences when the input has them; one document of one sentence is refused, fewer "
                   "than 20 units warned about)")


def byte_size(value: str) -> int:
    """A size in bytes: ``16777216``, ``512K``, ``16M``, ``1G`` (powers of 1024)."""
    text = value.strip().upper().removesuffix("B").removesuffix("I")
    scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1:], 1)
    try:
        size = int(float(text[:-1] if scale > 1 else text) * scale)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 16M, 512K or 1048576; got {value!r}") from None
    if size < 1:
        raise argparse.ArgumentTypeError(f"the size must be positive; got {value!r}")
    return size


def add_scaling(p: argparse.ArgumentParser) -> None:
    """Shards in several processes or on a Dask cluster: ``--jobs``, ``--dask``, ``--shard-size``."""
    g = p.add_argument_group("large corpora (the output is that of one process; see the site's Scale-out page, "
                             "docs/scaling.md)")
    g.add_argument("--jobs", "-j", default="1", metavar="N",
                   help="score in N processes (auto: one per core): the inputs are cut at document boundaries "
                   "(-DOCSTART- lines of column files; several files file by file) and the shards' counts added up "
                   "(default 1)")
    g.add_argument("--dask", metavar="ADDRESS", help="score the shards on a Dask cluster: its scheduler's address "
                   "(tcp://host:8786), or local for a cluster of --jobs worker processes on this machine; the "
                   "input paths (or fsspec URLs such as s3://...) must be readable by the workers")
    g.add_argument("--shard-size", type=byte_size, metavar="SIZE",
                   help="input bytes per shard (default 4M, accord.parallel.DEFAULT_SHARD_BYTES); a worker's "
                   "memory grows with it")


def add_common(p: argparse.ArgumentParser) -> None:
    """Options of every command: ``--encoding`` and ``--quiet``."""
    p.add_argument("--encoding", default="utf-8",
                   help="text encoding of the input files (default utf-8; a byte-order mark is always accepted; "
                   "GATE XML follows its own declaration)")
    p.add_argument("--plugins", action="append", default=[], metavar="MODULE",
                   help="import MODULE and let task files name its functions (MODULE:function); repeatable. Without "
                   "it accord imports no code a data file names (the site's Security page, docs/security.md)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress display and no summary line on standard error (warnings are still shown)")
