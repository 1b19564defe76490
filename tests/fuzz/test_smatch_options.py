"""Fuzzing ``accord smatch --standardize / --standardization / --fine-grained / --time-limit``: generated graphs
with reifications, inverse roles, ``:domain``, quoted and cased constants, repeated edges and references; every run
ends in a result or a one-line error, and a graph scores perfectly against itself (under any variable names; the
fine-grained aspects' smatch counts a repeated triple more than once)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.structured import smatch
from accord.structured._amr_fine import ASPECTS, fine_grained

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 700 if FULL else 60
CONCEPTS = ["want-01", "Boy", "be-located-at-91", "have-polarity-91", "own-01", "city", "go-02", "name"]
ROLES = [":ARG0", ":ARG1", ":ARG2", ":ARG0-of", ":ARG1-of", ":domain", ":mod", ":location", ":name", ":wiki",
         ":polarity", ":consist-of", ":op1", ":ARG0-of-of", ":root"]
CONSTANTS = ['"Obama"', '"new york"', "-", "5", '"x:y"', "'q'", "Paris"]


@st.composite
def graphs(draw: st.DrawFn, prefix: str = "v") -> str:
    n = draw(st.integers(1, 7))
    branches: dict[int, list[tuple[str, int | str]]] = {i: [] for i in range(n)}   # an int: a child node
    for i in range(1, n):
        branches[draw(st.integers(0, i - 1))].append((draw(st.sampled_from(ROLES)), i))
    for i in range(n):
        for _ in range(draw(st.integers(0, 2))):
            target = (draw(st.sampled_from(CONSTANTS)) if draw(st.booleans())
                      else f"{prefix}{draw(st.integers(0, n - 1))}")
            branches[i].append((draw(st.sampled_from(ROLES)), target))
    concepts = [draw(st.sampled_from(CONCEPTS)) for _ in range(n)]

    def render(i: int) -> str:
        parts = [f"({prefix}{i} / {concepts[i]}"]
        for role, target in branches[i]:
            parts.append(f"{role} {render(target) if isinstance(target, int) else target}")
        return " ".join(parts) + ")"

    return render(0)


@settings(max_examples=EXAMPLES)
@given(graphs(), st.booleans())
def test_a_graph_against_itself_scores_one(graph, generic):
    renamed = graph.replace("(v", "(w").replace(" v", " w")
    for how in ("amr", "generic") if generic else ("amr",):
        s = smatch(renamed, graph, standardize=how)
        assert s.match == s.test_triples == s.gold_triples, (how, graph)
    fine = fine_grained(graph, graph).counts    # the scripts compare a :wiki node by its variable's name
    for aspect in ASPECTS:
        m, g, p = fine[aspect]
        # the scripts' smatch counts a triple written twice on both sides four times: at least every triple
        assert m >= g == p, (aspect, graph)
        if aspect in ("concepts", "named_entities", "negations", "wikification"):
            assert m == g, (aspect, graph)


@settings(max_examples=EXAMPLES)
@given(graphs(), graphs(), st.data())
def test_cli_never_fails_badly(gold, pred, data):
    options = data.draw(st.sampled_from([["--standardize"], ["--standardization", "generic"], ["--fine-grained"],
                                         ["--standardize", "--fine-grained", "--time-limit", "0.001"],
                                         ["--time-limit", data.draw(st.sampled_from(["0.01", "0", "-1", "x"]))]]))
    if data.draw(st.booleans()):
        pred = pred[: data.draw(st.integers(0, len(pred)))]     # cut short: an error naming the file
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.amr"), Path(d, "p.amr")
        g.write_text(gold + "\n", encoding="utf-8")
        p.write_text(pred + "\n", encoding="utf-8")
        run(["smatch", str(g), str(p), *options, "--output", "json"])
