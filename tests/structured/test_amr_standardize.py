"""Smatch++'s standardization (``accord smatch --standardize``) against smatchpp 1.8 run in the test, on the Little
Prince test set against the JAMR and CAMR parses, and on hand counts."""

from __future__ import annotations

from pathlib import Path

import pytest

import accord
from accord.errors import OptionError
from accord.structured import smatch
from accord.structured._amr_standardize import DEREIFY, standardized_triples
from accord.structured._latent import Var
from accord.structured.amr import read_amr

OUTSIDE = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "outside" / "smatch"
FINE = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "official" / "amr_fine"

# smatchpp 1.8.0's corpus totals (match, candidate triples, reference triples), held for a machine without it:
# python -m smatchpp -a {jamr,wang}.txt -b lp_test.txt -solver ilp -graph_type {amr,generic} -score_type micro
# (jamr/amr printed F1 53.46, P 59.98, R 48.23; the counts from Smatchpp().process_pair summed over the pairs)
HELD = {("jamr", "amr"): (625, 1042, 1296), ("wang", "amr"): (596, 1033, 1296),
        ("jamr", "generic"): (644, 1042, 1296), ("wang", "generic"): (628, 1033, 1296)}


def _counts(test: str, gold: str, how: str = "amr") -> tuple[int, int, int]:
    s = smatch(test, gold, standardize=how)
    return s.match, s.test_triples, s.gold_triples


def test_dereification_by_hand():
    # the reified location reads back as :location: dog, house, root(d, dog), location(d, h) on both sides
    gold = "(d / dog :location (h / house))"
    test = "(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h / house)))"
    assert _counts(test, gold) == (4, 4, 4)
    # smatch 1.0.4's triples: test has 3 instances, top, 2 relations = 6; gold 4; match: dog, house, top = 3
    plain = smatch(test, gold)
    assert (plain.match, plain.test_triples, plain.gold_triples) == (3, 6, 4)
    # a reifying node with a third edge, or an incoming one, stays as it is
    busy = "(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h / house) :time (n / now)))"
    assert _counts(busy, gold)[1] == 1 + 4 + 3   # root, 4 instances, 3 edges


def test_root_concept_and_case_by_hand():
    # Smatch++'s own example: two one-node graphs of different concepts score 0 (smatch: 0.5, the top triple)
    assert _counts("(c / car)", "(d / dog)") == (0, 2, 2)
    assert smatch("(c / car)", "(d / dog)").f1 == 0.5
    # lower-casing and quotes: "Obama" and "obama" are one constant; the concept's case too
    assert _counts('(p / Person :name "Obama")', "(x / person :name obama)") == (3, 3, 3)


def test_inverse_roles_by_hand():
    # :domain is :mod-of, so small :domain dog = dog :mod small; the roots differ (their root triples do not match)
    assert _counts("(s / small :domain (d / dog))", "(d / dog :mod (s / small))") == (3, 4, 4)
    # every -of counts: :ARG0-of-of is :ARG0 as written; :consist-of is turned round too (no exception)
    t = standardized_triples("(a / x :ARG0-of-of (b / y) :consist-of (c / z))", "amr")
    rels = {(r, s, t2) for r, s, t2 in t if r not in (":instance", ":root")}
    assert len(rels) == 2
    (arg0,) = [x for x in rels if x[0] == ":arg0"]
    (consist,) = [x for x in rels if x[0] == ":consist"]
    concept = {s: c for r, s, c in t if r == ":instance"}
    assert (concept[arg0[1]], concept[arg0[2]]) == ("x", "y")       # even number of -of: as written
    assert (concept[consist[1]], concept[consist[2]]) == ("z", "x")   # odd: turned round


def test_generic_keeps_duplicates_and_root_edge():
    # generic: the root edge from the graph's root constant; a repeated edge counts twice on each side
    t = standardized_triples("(a / x :ARG0 (b / y) :ARG0 b)", "generic")
    assert sum(1 for r, _, _ in t if r == ":arg0") == 2
    (root,) = [x for x in t if x[0] == ":root"]
    assert root[1] == "root_of_graph" and isinstance(root[2], Var)    # the variable renamed (xx: x is a concept)
    assert _counts("(a / x :ARG0 (b / y) :ARG0 b)", "(a / x :ARG0 (b / y))", "generic") == (4, 5, 4)


def test_unknown_standardization_is_an_error():
    with pytest.raises(OptionError, match="unknown standardization 'foo'"):
        smatch("(a / x)", "(a / x)", standardize="foo")


def test_dereify_table_equals_smatchpp():
    tools = pytest.importorskip("smatchpp.formalism.amr.tools")
    rules = tools.read_amr_reify_table(lower=True)
    theirs = {v[0]: (k, v[1], v[2]) for k, v in rules.items()}
    assert DEREIFY == theirs


def _smatchpp(how: str):
    smatchpp = pytest.importorskip("smatchpp")
    from smatchpp import solvers
    from smatchpp.formalism.amr import tools as amr_tools
    from smatchpp.formalism.generic import tools as generic_tools

    standardizer = amr_tools.AMRStandardizer() if how == "amr" else generic_tools.GenericStandardizer()
    return smatchpp.Smatchpp(graph_standardizer=standardizer, alignmentsolver=solvers.get_solver("ilp"))


def _files(parser: str) -> tuple[Path, Path]:
    gold, pred = OUTSIDE / "lp_test.txt", OUTSIDE / f"{parser}.txt"
    if not (gold.exists() and pred.exists()):
        pytest.skip(f"the Little Prince test set and the {parser} parses are not in ../shared/corpora/outside/smatch")
    return gold, pred


@pytest.mark.parametrize("how", ["amr", "generic"])
@pytest.mark.parametrize("parser", ["jamr", "wang"])
def test_corpus_equals_smatchpp_held(parser, how):
    gold, pred = _files(parser)
    r = accord.smatch(gold, pred, standardize=how)
    t = r.totals
    assert (t["match"], t["pred"], t["gold"]) == HELD[(parser, how)]
    assert r.options["standardize"] == how


@pytest.mark.parametrize("how", ["amr", pytest.param("generic", marks=pytest.mark.slow)])
@pytest.mark.parametrize("parser", ["jamr", "wang"])
def test_every_pair_equals_smatchpp(parser, how):
    """smatchpp (``-solver ilp``) on every pair: its matched triples, the candidate's and the reference's."""
    gold, pred = _files(parser)
    peer = _smatchpp(how)
    from smatchpp import data_helpers

    gold_text = data_helpers.read_graphstrings_from_file(str(gold))
    pred_text = data_helpers.read_graphstrings_from_file(str(pred))
    golds, preds = read_amr(gold), read_amr(pred)
    assert len(gold_text) == len(golds) == len(preds) == len(pred_text)
    for k, (a, b) in enumerate(zip(pred_text, gold_text)):
        match, _, _ = peer.process_pair(a, b)
        m1, m2, n_pred, n_gold = (int(x) for x in match["main"])
        s = smatch(preds[k], golds[k], standardize=how)
        assert (s.match, s.match, s.test_triples, s.gold_triples) == (m1, m2, n_pred, n_gold), k


def test_fine_data_equals_smatchpp():
    """The 186 Little Prince graphs chosen for their names, wiki links and negations, against a perturbed copy."""
    gold, pred = FINE / "gold.amr", FINE / "pred.amr"
    if not (gold.exists() and pred.exists()):
        pytest.skip("../shared/corpora/official/amr_fine is absent")
    peer = _smatchpp("amr")
    from smatchpp import data_helpers

    gold_text = data_helpers.read_graphstrings_from_file(str(gold))
    pred_text = data_helpers.read_graphstrings_from_file(str(pred))
    total = [0, 0, 0]
    for a, b in zip(pred_text, gold_text):
        match, _, _ = peer.process_pair(a, b)
        total = [x + int(y) for x, y in zip(total, (match["main"][0], match["main"][2], match["main"][3]))]
    t = accord.smatch(gold, pred, standardize=True).totals
    assert [t["match"], t["pred"], t["gold"]] == total


def test_mapping_names_the_written_variables(tmp_path):
    # Smatch++ renames variables (d, h...) to match; the mapping and --details keep the graphs' own names
    s = smatch("(X / dog :location (h / house))", "(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h2 / house)))",
               standardize=True)
    assert (s.match, s.mapping) == (4, {"X": "d", "h": "h2"})
    from accord.cli import main

    gold, pred, details = tmp_path / "g.amr", tmp_path / "p.amr", tmp_path / "map.csv"
    gold.write_text("(d / dog :ARG1-of (b / be-located-at-91 :ARG2 (h2 / house)))\n", encoding="utf-8")
    pred.write_text("(X / dog :location (h / house))\n", encoding="utf-8")
    assert main(["smatch", str(gold), str(pred), "--standardize", "--details", str(details), "-q"]) == 0
    assert details.read_text().splitlines() == ["pair,test_variable,gold_variable", "1,X,d", "1,h,h2"]


_CONCEPTS = ["want-01", "Boy", "be-located-at-91", "have-polarity-91", "own-01", "city", "go-02", "name", "have-03"]
_ROLES = [":ARG0", ":ARG1", ":ARG2", ":ARG0-of", ":ARG1-of", ":domain", ":mod", ":location", ":name", ":wiki",
          ":polarity", ":consist-of", ":op1", ":ARG0-of-of", ":mod-of", ":domain-of"]
_CONSTANTS = ['"Obama"', '"new york"', "-", "5", '"x:y"', "Paris", '"Boy"', "boy"]


def _generated(rng, prefix: str) -> str:
    """A random graph mixing what the standardization rewrites: reifying concepts with their arguments, inverse
    and doubly inverse roles, :domain and :mod-of, quoted and cased constants, references and self-loops."""
    n = rng.randint(1, 7)
    branches: dict[int, list] = {i: [] for i in range(n)}
    for i in range(1, n):
        branches[rng.randrange(i)].append((rng.choice(_ROLES), i))
    for i in range(n):
        for _ in range(rng.randint(0, 2)):
            target = rng.choice(_CONSTANTS) if rng.random() < 0.5 else f"{prefix}{rng.randrange(n)}"
            branches[i].append((rng.choice(_ROLES), target))
    concepts = [rng.choice(_CONCEPTS) for _ in range(n)]

    def render(i: int) -> str:
        return " ".join([f"({prefix}{i} / {concepts[i]}"] + [f"{r} {render(t) if isinstance(t, int) else t}"
                                                             for r, t in branches[i]]) + ")"
    return render(0)


def test_generated_pairs_equal_smatchpp():
    """150 generated pairs under the AMR standardization: smatchpp's counts, pair by pair. (Under ``generic``,
    which keeps duplicate triples and self-loops, smatchpp's ILP stopped below its own optimum on 1 of 300 such
    pairs, where its hill-climber reached accord's count: there accord is only checked never to be below.)"""
    import random

    peer, generic = _smatchpp("amr"), _smatchpp("generic")
    rng = random.Random(5)
    for _ in range(150):
        test, gold = _generated(rng, "v"), _generated(rng, "w")
        match, _, _ = peer.process_pair(test, gold)
        s = smatch(test, gold, standardize="amr")
        assert (s.match, s.match, s.test_triples, s.gold_triples) == tuple(int(x) for x in match["main"]), (test, gold)
        match, _, _ = generic.process_pair(test, gold)
        s = smatch(test, gold, standardize="generic")
        assert (s.test_triples, s.gold_triples) == (int(match["main"][2]), int(match["main"][3]))
        assert s.match >= int(match["main"][0]), (test, gold)
