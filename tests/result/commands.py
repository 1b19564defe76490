"""Every command in every mode, on the data in tests/data and small inputs written here: the argument lists
the contract and terminal-table tests run."""

from __future__ import annotations

import json
from pathlib import Path

from ..test_scoring import TASK  # one task file for the scoring and contract tests

DATA = Path(__file__).resolve().parents[1] / "data"
CONLL_GOLD = str(DATA / "conll03" / "gold.conll")
CONLL_PRED = str(DATA / "conll03" / "xlm_flert.conll")
GATE = str(DATA / "gate" / "beijing-opera.xml")

SIGNAL = "We visited the United States of America last year with our United friends."


def _jsonl(path: Path, docs: list[dict]) -> str:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")
    return str(path)


def write_inputs(tmp: Path) -> dict[str, str]:
    """Small inputs of every kind; returns their paths by name."""
    p: dict[str, str] = {}
    ann = lambda label, start, end, **attrs: {"label": label, "start": start, "end": end,  # noqa: E731
                                               **({"attributes": attrs} if attrs else {})}
    p["mat_gold"] = _jsonl(tmp / "mg.jsonl", [
        {"id": "a", "text": "x" * 40, "annotations": [ann("PERSON", 0, 4, nomtype="NAM"), ann("PERSON", 10, 14,
                                                                                             nomtype="NOM"),
                                                       ann("LOCATION", 20, 25, nomtype="NAM")]},
        {"id": "b", "text": "x" * 10, "annotations": [ann("LOCATION", 0, 5, nomtype="NAM")]}])
    p["mat_pred"] = _jsonl(tmp / "mp.jsonl", [
        {"id": "a", "text": "x" * 40, "annotations": [ann("PERSON", 0, 4, nomtype="NAM"),
                                                       ann("LOCATION", 20, 25, nomtype="NAM"), ann("GPE", 30, 33)]},
        {"id": "b", "text": "x" * 10, "annotations": [ann("GPE", 0, 5, nomtype="NAM")]}])
    (tmp / "task.xml").write_text(TASK, encoding="utf-8")
    p["task"] = str(tmp / "task.xml")
    start = SIGNAL.index("United States")
    p["units_gold"] = _jsonl(tmp / "ug.jsonl", [{"id": "d", "text": SIGNAL, "annotations": [
        ann("LOCATION", start, start + len("United States of"))]}])
    p["units_pred"] = _jsonl(tmp / "up.jsonl", [{"id": "d", "text": SIGNAL, "annotations": [
        ann("ORG", start + len("United "), start + len("United States of America"))]}])
    p["empty"] = _jsonl(tmp / "e.jsonl", [{"id": "d", "tokens": ["a", "b"], "annotations": []}])
    from accord.formats.coref.clusters import write_coref_conll

    cases = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]
    key = {f"d{k}": c["key_clusters"] for k, c in enumerate(cases[:4])}
    resp = {f"d{k}": c["response_clusters"] for k, c in enumerate(cases[:4])}
    write_coref_conll(key, tmp / "k.conll")
    write_coref_conll(resp, tmp / "r.conll")
    p["coref_key"], p["coref_resp"] = str(tmp / "k.conll"), str(tmp / "r.conll")
    (tmp / "g.amr").write_text("# ::id 1\n(w / want-01 :ARG0 (b / boy))\n\n(a / dog)\n")
    (tmp / "p.amr").write_text("(w / want-01 :ARG0 (b / girl))\n\n(a / dog)\n")
    p["amr_gold"], p["amr_pred"] = str(tmp / "g.amr"), str(tmp / "p.amr")
    rel = lambda t, s, o: {"type": t, "subj": s, "obj": o}  # noqa: E731
    p["rel_key"] = _jsonl(tmp / "rk.jsonl", [{"id": "a", "relations": [rel("R", [0, 1], [3, 3])]},
                                              {"id": "b", "relations": []}])
    p["rel_resp"] = _jsonl(tmp / "rr.jsonl", [{"id": "a", "relations": [rel("R", [0, 1], [3, 3]),
                                                                         rel("S", [5, 5], [7, 8])]}])
    p["tpl_key"] = _jsonl(tmp / "tk.jsonl", [{"id": "d", "templates": [{"type": "bombing", "fillers": [
        {"slot": "perp", "value": ["the FMLN"]}, {"slot": "instrument", "value": "bomb"}]}]}])
    p["tpl_resp"] = _jsonl(tmp / "tr.jsonl", [{"id": "d", "templates": [{"type": "bombing", "fillers": [
        {"slot": "perp", "value": "the guerrillas"}, {"slot": "instrument", "value": "dynamite"}]}]}])
    (tmp / "r.csv").write_text("r1,r2,r3\na,a,b\nb,b,b\na,b,a\nc,c,c\na,a,\n", encoding="utf-8")
    p["ratings"] = str(tmp / "r.csv")
    return p


def worse_copy(directory: Path, rate: float = 0.08, seed: int = 3) -> str:
    """A copy of the CoNLL-2003 system with a share ``rate`` of its entity tags turned into ``O``: a system that is
    worse by construction, for the comparison tests."""
    import random

    rnd = random.Random(seed)
    lines = []
    for line in open(CONLL_PRED, encoding="utf-8").read().split("\n"):
        cols = line.split()
        if len(cols) >= 2 and cols[-1] != "O" and rnd.random() < rate:
            cols[-1] = "O"
            line = " ".join(cols)
        lines.append(line)
    path = directory / "worse.conll"
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


INPUT_NAMES = ("mat_gold", "mat_pred", "task", "units_gold", "units_pred", "empty", "coref_key", "coref_resp",
               "amr_gold", "amr_pred", "rel_key", "rel_resp", "tpl_key", "tpl_resp", "ratings")
"""The inputs :func:`write_inputs` writes."""


def command_names() -> list[str]:
    """The names of :func:`command_lines` (for parametrizing tests before the inputs exist)."""
    return list(command_lines({k: "" for k in INPUT_NAMES}))


def command_lines(p: dict[str, str]) -> dict[str, list[str]]:
    """Every command and mode, as argument lists without an output option."""
    gold_pred = [CONLL_GOLD, CONLL_PRED]
    gate = [GATE, GATE, "--key-set", "ann1", "--response-set", "ann2"]
    return {
        "score pairs": ["score", *gold_pred],
        "score pairs nan": ["score", p["empty"], p["empty"], "--zero-division", "nan"],
        "score task": ["score", p["mat_gold"], p["mat_pred"], "--task", p["task"], "--profile", "mat"],
        "score units": ["score", p["units_gold"], p["units_pred"], "--profile", "mat", "--by-token",
                        "--by-character", "--by-pseudo-token", "--confusability"],
        "score clueval": ["score", *gold_pred, "--match", "clueval"],
        "score semeval": ["score", *gold_pred, "--match", "semeval"],
        "score gate": ["score", GATE, GATE, "--gold-set", "ann1", "--pred-set", "ann2", "--profile", "gate"],
        "coref": ["coref", p["coref_key"], p["coref_resp"]],
        "smatch": ["smatch", p["amr_gold"], p["amr_pred"]],
        "structured relations": ["structured", p["rel_key"], p["rel_resp"], "--metrics",
                                 "relation,relation-boundaries"],
        "structured templates": ["structured", p["tpl_key"], p["tpl_resp"], "--metrics", "muc4,better"],
        "diff": ["diff", *gate],
        "qa": ["qa", *gate],
        "benchmark": ["benchmark", GATE, GATE, GATE, "--key-set", "ann1", "--before-set", "ann2", "--after-set",
                      "ann3"],
        "agree ratings": ["agree", p["ratings"]],
        "agree sets": ["agree", GATE, "--sets", "ann1,ann2,ann3", "--types", "Os,sent"],
        "agree gamma": ["agree", GATE, "--sets", "ann1,ann2,ann3", "--types", "sent", "--feature", "Op",
                        "--unitizing", "gamma", "--samples", "5"],
        "agree alpha-u": ["agree", GATE, "--sets", "ann1,ann2,ann3", "--types", "sent", "--feature", "Op",
                          "--unitizing", "alpha-u"],
        "agree iaa": ["agree", GATE, "--sets", "ann1,ann2,ann3", "--types", "sent", "--feature", "Op",
                      "--convention", "iaa"],
        "agree corpus-qa": ["agree", GATE, "--sets", "ann1,ann2", "--types", "sent", "--feature", "Op",
                            "--convention", "corpus-qa"],
    }
