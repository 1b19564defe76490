"""Run from a checkout of mdtux89/amr-evaluation: print the exact counts ``{aspect: (match, gold, pred)}`` that its
``evaluation.sh`` turns into figures, for ``PRED GOLD`` (``RESTARTS`` sets its smatch's starts, 5 by default).

The scripts run as ``evaluation.sh`` runs them (its ``sed`` and ``perl`` rewrites, ``smatch/smatch.py``, then
``scores.py`` on the comment-free files); only their ``compute_f`` is wrapped, to keep the counts it is given.
"""

import contextlib
import io
import os
import runpy
import subprocess
import sys

SED = {"unlabeled": "sed 's/:[a-zA-Z0-9-]*/:label/g' ",
       "no_wsd": "perl -ne 's/(\\/ [a-zA-Z0-9\\-][a-zA-Z0-9\\-]*)-[0-9][0-9]*/\\1-01/g; print;' "}


def _scores() -> dict:
    """``scores.py`` on 1.tmp and 2.tmp (in a process of its own: its ``smatch`` is a package, not the module)."""
    sys.path.insert(0, os.path.abspath("."))
    import smatch.smatch_fromlists as sfl

    calls = []
    orig = sfl.compute_f
    sfl.compute_f = lambda m, t, g: (calls.append((m, g, t)), orig(m, t, g))[1]
    sys.argv = ["scores.py", "1.tmp", "2.tmp"]
    with contextlib.redirect_stdout(io.StringIO()):
        g = runpy.run_path("scores.py", run_name="__main__")
    out = {name: (g["inters"][key], g["golds"][key], g["preds"][key])
           for key, name in (("Concepts", "concepts"), ("Named Ent.", "named_entities"), ("Negations", "negations"),
                             ("Wikification", "wikification"))}
    out["reentrancies"], out["srl"] = calls
    return out


def main(pred: str, gold: str) -> dict:
    sys.path.insert(0, os.path.abspath("smatch"))
    import smatch as sm

    sm.iteration_num = int(os.environ.get("RESTARTS", "5"))
    orig, got = sm.compute_f, {}

    def run(name: str, a: str, b: str) -> None:
        def keep(m, t, g):
            got[name] = (m, g, t)
            return orig(m, t, g)
        sm.compute_f = keep
        with open(a) as f1, open(b) as f2:
            list(sm.score_amr_pairs(f1, f2))

    run("smatch", pred, gold)
    for name, cmd in SED.items():
        subprocess.run(cmd + f'"{pred}" > 1.tmp', shell=True, check=True)
        subprocess.run(cmd + f'"{gold}" > 2.tmp', shell=True, check=True)
        run(name, "1.tmp", "2.tmp")
    for src, dst in ((pred, "1.tmp"), (gold, "2.tmp")):
        subprocess.run(f"cat \"{src}\" | perl -ne 's/^#.*\\n//g; print;' | tr '\\t' ' ' | tr -s ' ' > {dst}",
                       shell=True, check=True)
    scores = subprocess.run([sys.executable, os.path.abspath(__file__), pred, gold, "scores"], capture_output=True,
                            text=True, check=True).stdout
    got.update(eval(scores))   # noqa: S307 - our own repr of tuples of ints, from the line above
    return got


if __name__ == "__main__":
    if len(sys.argv) > 3:
        print(repr(_scores()))
    else:
        print(repr(main(sys.argv[1], sys.argv[2])))
