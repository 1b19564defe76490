"""``accord coref``, ``accord smatch`` and ``accord structured``."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import OptionError
from ._coref_options import add_coref_options, check_display, coref_settings, draw_coref
from ._options import add_allow_missing, add_output, add_statistics, csv_list
from ._output import emit
from ._smatch_options import add_smatch_options, smatch_kwargs
from ._structured_options import add_preset_options, preset_arguments

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["register", "COMMANDS", "COREF_METRICS", "add_record_options", "structured_result"]


def _structured_help() -> str:
    from ..structured.named import NAMED_METRICS

    return ("Score RESPONSE against KEY (JSON lines, one document per line; the record formats are on the site's "
            "Formats page, docs/reference/formats.md, and in accord.formats.records.records) with one or more "
            "metrics:\n\n"
            + "\n".join(f"  {n:<20} [{kind}] {d}" for n, (kind, d) in NAMED_METRICS.items()))


COREF_METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea")


def add_record_options(p: Any) -> None:
    """The options of reading structured records (``structured`` and ``compare --structures structured``)."""
    p.add_argument("--inclusive-spans", action="store_true",
                   help="scirex: spans are inclusive [start, end] (default half-open [start, end))")
    p.add_argument("--premodifiers", type=csv_list, default=[],
                   help="muc4, better: words that do not count as a string-fill overlap (comma-separated)")
    p.add_argument("--hierarchy", help="muc4, better: JSON object mapping a set-fill value to its parent value, "
                   "for half credit when the response is more specific")


def register(sub: argparse._SubParsersAction) -> None:
    co = sub.add_parser("coref", help="coreference metrics (MUC, B-cubed, CEAFm, CEAFe, BLANC, LEA) as the "
                                      "CoNLL-2012 scorer computes them",
                        description="Score coreference chains: MUC, B-cubed, CEAFm, CEAFe, BLANC and LEA, with the "
                        "CoNLL score (the mean F1 of MUC, B-cubed and CEAFe), as the CoNLL-2012 reference scorer "
                        "(--preset conll2012) or the CorefUD scorer (--preset corefud) counts them.")
    co.add_argument("key", help="key (gold) file: CoNLL-2012 (#begin document ...), JSON lines (.jsonl), CorefUD "
                    "(.conllu), brat (.ann, or a folder: equivalences and Coreference relations), GATE XML (.xml: "
                    "the matches feature) or UIMA XMI (.xmi: DKPro Core's CoreferenceChain)")
    co.add_argument("response", help="response file, same formats")
    co.add_argument("--metrics", "--metric", dest="metrics", type=csv_list, default=None,
                    help="comma-separated subset of muc,bcub,ceafm,ceafe,blanc,lea, and with CorefUD settings mor,zero "
                         "(default: the six; under --preset corefud all eight, as the CorefUD scorer's -m all)")
    co.add_argument("--format", choices=("conll2012", "jsonl", "corefud", "brat", "gate", "xmi"),
                    help="input format (default: by extension)")
    add_allow_missing(co)
    add_coref_options(co)
    add_output(co, "the CEAF entity alignments (document, metric, key entity, response entity, phi)")
    add_statistics(co)
    sm = sub.add_parser("smatch", help="Smatch between AMR graphs (PENMAN), with the optimal variable mapping",
                        description="Score AMR graphs (PENMAN notation) against gold graphs with Smatch: precision, "
                        "recall and F1 of the matched triples under the best variable mapping, found exactly (an "
                        "integer program), not by hill-climbing.")
    sm.add_argument("gold", help="gold graphs, PENMAN notation, blank-line separated")
    sm.add_argument("pred", help="predicted graphs, paired with the gold graphs in order")
    add_output(sm, "the variable mapping of each pair (pair, test variable, gold variable)")
    add_smatch_options(sm)
    add_statistics(sm)
    st = sub.add_parser("structured", help="relations, events, role-filler entities and templates from JSON lines",
                        formatter_class=argparse.RawDescriptionHelpFormatter, lazy_description=_structured_help)
    st.add_argument("key", help="key (gold) records, JSON lines; with --preset, the task's own file (DocRED JSON, "
                    "PubTator, TextEE's processed data)")
    st.add_argument("response", help="response records, JSON lines; with --preset, the task's own predictions")
    st.add_argument("--metrics", "--metric", dest="metrics", type=csv_list, default=[],
                    help="comma-separated metric names (see above); required unless --preset")
    add_record_options(st)
    add_preset_options(st)
    add_output(st, "the matched record pairs (document, metric, indices, similarity, both records)")
    add_statistics(st)


def run_coref(args: argparse.Namespace) -> int:
    from .. import _api

    check_display(args)
    result = _api.coref(args.key, args.response, metrics=args.metrics, format=args.format,
                        allow_missing=args.allow_missing, **coref_settings(args))
    if args.details:
        from ..report.details import write_rows

        rows = ({"document": d, "metric": m, "key_entity": k, "response_entity": r, "phi": phi}
                for m, s in result.source.items() for d, k, r, phi in s.alignment)
        write_rows(rows, args.details, ("document", "metric", "key_entity", "response_entity", "phi"))

    def draw(console: Console) -> None:
        draw_coref(result, console, args)
    return emit(args, result, draw)


def run_smatch(args: argparse.Namespace) -> int:
    if args.bootstrap is None and not args.confidence_data and not args.fine_grained:
        # the outputs without intervals are written from a plain-Python result: no numpy is imported
        from ..structured._commands import smatch_plain

        kwargs = smatch_kwargs(args)
        del kwargs["fine_grained"]
        result = smatch_plain(args.gold, args.pred, **kwargs)
    else:
        from .. import _api

        result = _api.smatch(args.gold, args.pred, **smatch_kwargs(args))
    if args.details:
        from ..report.details import write_rows

        rows = ({"pair": i + 1, "test_variable": t, "gold_variable": g}
                for i, s in enumerate(result.source.by_pair) for t, g in sorted(s.mapping.items()))
        write_rows(rows, args.details, ("pair", "test_variable", "gold_variable"))

    def draw(console: Console) -> None:
        from ..report.result_table import render_result

        render_result(result, console)
    return emit(args, result, draw)


def structured_result(args: argparse.Namespace, key: str, response: str) -> Any:
    """``accord structured``'s result for one response (shared with ``accord compare --structures``)."""
    from .. import _api

    parent = None
    if args.hierarchy:
        try:
            parent = json.loads(Path(args.hierarchy).read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise OptionError(f"{args.hierarchy}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(parent, dict):
            raise OptionError(f"{args.hierarchy}: expected a JSON object mapping a value to its parent")
    return _api.structured_metrics(key, response, args.metrics, inclusive_spans=args.inclusive_spans,
                                   premodifiers=args.premodifiers, hierarchy=parent, **preset_arguments(args))


def run_structured(args: argparse.Namespace) -> int:
    from ..report.result_table import render_result
    from ..structured.named import NAMED_METRICS

    result = structured_result(args, args.key, args.response)
    if args.details:
        from ..report.details import write_rows

        results, loaded = result.source

        def rows():
            for n, r in results.items():
                key, resp = loaded[NAMED_METRICS[n][0]]
                for d, s in r.by_document.items():
                    for i, j, sim in s.pairs:
                        yield {"document": d, "metric": n, "pred_index": i, "gold_index": j, "similarity": sim,
                               "pred": resp[d][i], "gold": key[d][j]}

        write_rows(rows(), args.details, ("document", "metric", "pred_index", "gold_index", "similarity", "pred",
                                          "gold"))
    return emit(args, result, lambda console: render_result(result, console, by_label=False))


COMMANDS = {"coref": run_coref, "smatch": run_smatch, "structured": run_structured}
