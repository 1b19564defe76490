"""The CorefUD scorer (ufal/corefud-scorer) run in this process as the peer of ``accord coref --preset corefud``.

It is found at ``$ACCORD_COREFUD_SCORER`` (a checkout of the repository) or in the mirror the project's sessions
fetch it to, and needs udapi; :func:`scorer_dir` is None when either is missing (the tests then use the numbers they
hold).
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import tempfile
from contextlib import redirect_stdout
from pathlib import Path

MIRROR = Path("/work/.mirror/ufal+corefud-scorer/repo")
_CACHE: list[Path | None] = []


def scorer_dir() -> Path | None:
    """A directory holding corefud-scorer.py and its ``scorer`` package, or None."""
    if _CACHE:
        return _CACHE[0]
    found = None
    try:
        import udapi  # noqa: F401
    except ImportError:
        _CACHE.append(None)
        return None
    env = os.environ.get("ACCORD_COREFUD_SCORER")
    if env and (Path(env) / "scorer" / "corefud").is_dir():
        found = Path(env)
    elif MIRROR.is_dir():
        out = Path(tempfile.mkdtemp(prefix="corefud-scorer-"))
        try:
            blob = subprocess.run(["git", "--git-dir", str(MIRROR), "archive", "HEAD"], capture_output=True,
                                  check=True, timeout=60).stdout
            tarfile.open(fileobj=io.BytesIO(blob)).extractall(out)
            found = out
        except (OSError, subprocess.SubprocessError, tarfile.TarError):
            found = None
    _CACHE.append(found)
    return found


def peer_scores(key: Path, response: Path, *, match: str, singletons: str, zeros: str) -> dict:
    """``{metric: {"total": (recall, precision, f1), "documents": {doc: (recall, precision, f1)}}}`` as the CorefUD
    scorer computes them (``mentions``: its mention identification, ``evaluator.mentions``)."""
    root = scorer_dir()
    assert root is not None
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    from scorer.corefud.reader import CorefUDReader
    from scorer.eval import evaluator

    reader = CorefUDReader(format="corefud", keep_singletons=singletons == "keep", keep_zeros=zeros != "drop",
                           match={"partial": "partial-corefud"}.get(match, match),
                           zero_match_method="linear" if zeros != "dependent" else "dependent")
    with redirect_stdout(io.StringIO()):
        reader.get_coref_infos(str(key), str(response))
    infos = reader.doc_coref_infos
    metrics = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe, "ceafm": evaluator.ceafm,
               "blanc": [evaluator.blancc, evaluator.blancn], "lea": evaluator.lea,
               "mor": evaluator.mention_overlap, "zero": evaluator.als_zeros}   # als_zeros sorts entities: last
    out = {"mentions": _mentions(infos, evaluator)}
    for name, metric in metrics.items():
        out[name] = {"total": tuple(evaluator.evaluate_documents(infos, metric)),
                     "documents": {str(d): tuple(evaluator.evaluate_documents({d: i}, metric))
                                   for d, i in infos.items()}}
    return out


def _mentions(infos: dict, evaluator: object) -> dict:
    """Mention identification from the scorer's own alignment (its ``evaluator.mentions`` on each side; the
    'mention' metric of its command line fails on CorefUD files, which is why it is called here directly)."""
    def rpf(items: list) -> tuple[float, float, float]:
        rn = sum(x[0] for x in items)
        rd = sum(x[1] for x in items)
        pn = sum(x[2] for x in items)
        pd = sum(x[3] for x in items)
        r, p = (rn / rd if rd else 0.0), (pn / pd if pd else 0.0)
        return r, p, (2 * p * r / (p + r) if p + r else 0.0)
    per = {}
    for d, (kc, sc, k2s, s2k, align) in infos.items():
        rn, rd = evaluator.mentions(kc, k2s, align)    # type: ignore[attr-defined]
        pn, pd = evaluator.mentions(sc, s2k, align)    # type: ignore[attr-defined]
        per[str(d)] = (rn, rd, pn, pd)
    return {"total": rpf(list(per.values())), "documents": {d: rpf([v]) for d, v in per.items()}}


SUITE_GRID = [(m, s) for m in ("exact", "head", "partial") for s in ("keep", "drop")]
"""The settings every case of the suite is scored with (and, in its ``zeros`` folder, under each ``zeros``)."""
GUM_SETTINGS = [("head", "drop", "dependent"), ("exact", "keep", "dependent"), ("partial", "drop", "dependent"),
                ("exact", "drop", "linear"), ("head", "keep", "drop")]


def suite_cases(root: Path) -> list[tuple[str, Path, Path, str, str, str]]:
    """``(case id, key, response, match, singletons, zeros)`` of the grid over the suite under ``root``."""
    out = []
    for response in sorted(root.glob("**/*.response")):
        key = response.parent / (response.name.rsplit("-", 1)[0] + ".key")
        zeros = ("dependent", "linear", "drop") if response.parent.name == "zeros" else ("dependent",)
        for match, singletons in SUITE_GRID:
            for z in zeros:
                case = f"{response.relative_to(root).as_posix()}:{match}:{singletons}:{z}"
                out.append((case, key, response, match, singletons, z))
    return out


def _write(suite: Path, gum: Path, out: Path) -> None:  # pragma: no cover - run by hand to renew the held numbers
    import gzip
    import json
    import logging

    logging.disable(logging.WARNING)
    held: dict = {"source": "ufal/corefud-scorer (commit 4fd7b0e, v1.2) with udapi, run in-process by "
                            "tests/structured/_corefud_peer.py: python tests/structured/_corefud_peer.py SUITE GUM OUT",
                  "suite": {}, "gum": {}}
    for case, key, response, match, singletons, zeros in suite_cases(suite):
        try:
            got = peer_scores(key, response, match=match, singletons=singletons, zeros=zeros)
        except ZeroDivisionError:    # a zero without enhanced dependencies: the scorer's dependent matching fails
            continue
        held["suite"][case] = {m: [round(x, 12) for x in v["total"]] for m, v in got.items()}
    for match, singletons, zeros in GUM_SETTINGS:
        got = peer_scores(gum / "gum_test.conllu", gum / "gum_resp.conllu", match=match, singletons=singletons,
                          zeros=zeros)
        held["gum"][f"{match}:{singletons}:{zeros}"] = {
            m: {"total": [round(x, 12) for x in v["total"]],
                "documents": {d: [round(x, 12) for x in t] for d, t in v["documents"].items()}}
            for m, v in got.items()}
    out.write_bytes(gzip.compress(json.dumps(held, sort_keys=True).encode("utf-8"), mtime=0))


if __name__ == "__main__":  # pragma: no cover
    _write(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
