"""``accord smatch --standardize`` against Smatch++ and ``--fine-grained`` against amr-evaluation, same files.

Whole commands as users run them, best of ``--repeat`` runs each:

* ``accord smatch GOLD PRED --standardize`` against ``python -m smatchpp -a PRED -b GOLD -graph_type amr -solver ilp``
  (``pip install smatchpp``); the F1 smatchpp prints (two decimals of a percentage) is checked against accord's;
* ``accord smatch GOLD PRED --fine-grained`` against ``evaluation.sh PRED GOLD`` run in a checkout of
  mdtux89/amr-evaluation named by ``ACCORD_AMR_EVALUATION`` (it climbs hills where accord solves exactly).

Default files: the Little Prince test set against the JAMR parse (``../shared/corpora/outside/smatch``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _versions import print_versions  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "corpora" / "outside" / "smatch"


def best(cmd: list[str], repeat: int, cwd: str | None = None) -> tuple[float, subprocess.CompletedProcess]:
    times, run = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
        times.append(time.perf_counter() - t)
        if run.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {run.stderr[-500:]}")
    assert run is not None
    return min(times), run


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--gold", default=str(DATA / "lp_test.txt"))
    ap.add_argument("--pred", default=str(DATA / "jamr.txt"))
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print_versions("smatchpp")
    accord = [sys.executable, "-m", "accord.cli", "smatch", args.gold, args.pred, "--output", "json", "-q"]
    t_ours, run = best(accord + ["--standardize"], args.repeat)
    ours = json.loads(run.stdout)["totals"]
    line = f"--standardize: accord {t_ours:.2f} s (F1 {100 * ours['f1']:.2f})"
    peer = [sys.executable, "-m", "smatchpp", "-a", args.pred, "-b", args.gold, "-graph_type", "amr", "-solver",
            "ilp", "-score_type", "micro", "-output_format", "json", "-log_level", "40"]
    try:
        t_pp, run = best(peer, args.repeat)
    except SystemExit as exc:
        print(line + f"; smatchpp did not run ({exc})")
    else:
        f1 = json.loads(run.stdout)["main"]["F1"]["result"]
        assert abs(f1 - round(100 * ours["f1"], 2)) < 1e-9, (f1, ours["f1"])
        print(line + f"; smatchpp -graph_type amr -solver ilp {t_pp:.2f} s ({t_pp / t_ours:.1f}x), F1 equal")
    t_fine, run = best(accord + ["--fine-grained"], args.repeat)
    fine = json.loads(run.stdout)["measures"]
    line = f"--fine-grained: accord {t_fine:.2f} s"
    checkout = os.environ.get("ACCORD_AMR_EVALUATION")
    if not checkout:
        print(line + "; ACCORD_AMR_EVALUATION not set (a checkout of mdtux89/amr-evaluation)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / "amr-evaluation"
        shutil.copytree(checkout, work)
        t_ev, run = best(["bash", "evaluation.sh", str(Path(args.pred).resolve()), str(Path(args.gold).resolve())],
                         args.repeat, cwd=str(work))
    smatch_line = next(x for x in run.stdout.splitlines() if x.startswith("Smatch ->"))
    theirs = float(re.search(r"F: ([0-9.]+)", smatch_line).group(1))
    assert theirs <= round(fine["fine_smatch"]["totals"]["f1"], 2) + 1e-9
    print(line + f"; evaluation.sh {t_ev:.2f} s (hill climbing, five starts; {t_ev / t_fine:.1f}x)")


if __name__ == "__main__":
    main()
