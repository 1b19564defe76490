"""``accord smatch``'s options beyond the common ones: Smatch++'s standardization, the fine-grained aspects and the
integer program's time limit."""

from __future__ import annotations

import argparse
from typing import Any

from ._options import seconds

__all__ = ["add_smatch_options", "smatch_kwargs"]


def add_smatch_options(p: argparse.ArgumentParser) -> None:
    """``--standardize``, ``--standardization amr|generic``, ``--fine-grained`` and ``--time-limit SECONDS``."""
    p.add_argument("--standardize", action="store_true",
                   help="standardize both graphs as Smatch++ does for AMR first (its -graph_type amr: lower-casing, "
                   "quotes removed, inverse roles and :domain turned round, the root's concept on the top triple, "
                   "dereification, duplicates dropped)")
    p.add_argument("--standardization", choices=("amr", "generic"),
                   help="which of Smatch++'s standardizations (implies --standardize): amr, or generic (its "
                   "-graph_type generic: lower-casing, quotes removed, inverse roles turned round, duplicates kept)")
    p.add_argument("--fine-grained", action="store_true",
                   help="add the nine aspects of Damonte et al. (2017) as the amr-evaluation scripts count them: "
                   "fine_smatch, unlabeled, no_wsd, concepts, named_entities, negations, wikification, "
                   "reentrancies, srl")
    p.add_argument("--time-limit", type=seconds, metavar="SECONDS",
                   help="stop each pair's integer program after SECONDS: the best mapping found is scored, and the "
                   "optimality gap (the most triples any mapping could match) is reported and warned about")


def smatch_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of :func:`accord.smatch` these options give."""
    how = args.standardization or ("amr" if args.standardize else None)
    return {"standardize": how, "fine_grained": args.fine_grained, "time_limit": args.time_limit}
