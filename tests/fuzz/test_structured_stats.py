"""Properties of the structured metrics and of the bootstrap, on generated inputs (issue 33, items 4, 7 and 8).

- every role-filler entity metric (CEAF-REE, CEAF-RME) and every template metric (MUC-4, BETTER) scores a key
  against itself 1, whatever the records: repeated entities, a mention in several entities, entities without
  mentions, fillers of no mention or of premodifiers only; the command does the same from a JSON-lines file;
- a PENMAN graph and its re-spelling with an edge written from its other end (``:R`` as ``:R-of``) have one set of
  triples and Smatch 1, and the triples are penman's (AMR model) with ``:mod`` as ``:domain`` reversed;
- BCa intervals over random small count tables equal ``scipy.stats.bootstrap`` with the F1 of the counts on the same
  draws (both undefined together) and, when defined, hold the observed value.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from accord.formats.records.records import RECORD_KINDS
from accord.structured import amr_triples, smatch
from accord.structured._latent import Var
from accord.structured.named import NAMED_METRICS, score_records

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)

ENTITY_METRICS = [n for n, (kind, _) in NAMED_METRICS.items() if kind == "entities"]
TEMPLATE_METRICS = [n for n, (kind, _) in NAMED_METRICS.items() if kind == "templates"]

# ---------------------------------------------------------------------------- records scored against themselves
_words = st.sampled_from(["he", "the mayor", "the", "a", "bridge", "It", "", " ", "FMLN", "the bridge"])
_mention = st.one_of(_words, st.tuples(st.integers(0, 5), st.integers(0, 2)).map(lambda t: [t[0], t[0] + t[1]]))
_entity = st.fixed_dictionaries({"role": st.sampled_from(["Victim", "Target", "PerpInd"]),
                                 "mentions": st.lists(_mention, max_size=4)})
_filler = st.fixed_dictionaries({"slot": st.sampled_from(["Target", "Victim", "Stage"]),
                                 "value": st.one_of(st.sampled_from(["accomplished", "attempted", "", "bombing"]),
                                                    st.lists(_words, max_size=3))})
_template = st.fixed_dictionaries({"type": st.sampled_from(["attack", "bombing", "kidnapping"]),
                                   "fillers": st.lists(_filler, max_size=4)})


def _documents(record: st.SearchStrategy) -> st.SearchStrategy:
    """One to three documents of up to five records, some repeated (a record copied into the same document)."""
    doc = st.lists(record, max_size=5).flatmap(
        lambda recs: st.lists(st.sampled_from(recs), max_size=3).map(lambda extra: recs + extra) if recs
        else st.just(recs))
    return st.lists(doc, min_size=1, max_size=3)


def _read(kind: str, docs: list[list[dict]]) -> dict[str, list]:
    return {f"d{k}": [RECORD_KINDS[kind](r, kind) for r in recs] for k, recs in enumerate(docs)}


def _perfect(score) -> bool:
    parts = [score.type_score, score.filler_score] if hasattr(score, "filler_score") else [score]
    return all((s.precision, s.recall, s.f1) == (1.0, 1.0, 1.0) for s in parts) and float(score) == 1.0


@given(_documents(_entity))
def test_entity_metrics_score_a_key_against_itself_one(docs):
    key = _read("entities", docs)
    for name in ENTITY_METRICS:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")      # entities without mentions are left out, with a warning
            total = score_records(name, key, key).total
        assert _perfect(total), (name, key, total)


@given(_documents(_template), st.sampled_from([(), ("the", "a"), ("the", "a", "bridge", "he")]))
def test_template_metrics_score_a_key_against_itself_one(docs, premodifiers):
    key = _read("templates", docs)
    for name in TEMPLATE_METRICS:
        total = score_records(name, key, key, premodifiers=premodifiers).total
        assert _perfect(total), (name, key, total)


@settings(max_examples=40 if not FULL else 200)
@given(_documents(_entity))
def test_structured_command_scores_a_key_against_itself_one(tmp_path_factory, docs):
    path = Path(tmp_path_factory.mktemp("rme")) / "key.jsonl"
    path.write_text("".join(json.dumps({"id": f"d{k}", "entities": recs}) + "\n" for k, recs in enumerate(docs)),
                    encoding="utf-8")
    out = run(["structured", str(path), str(path), "--metrics", ",".join(ENTITY_METRICS), "--output", "json"])
    assert out.status == 0, out.stderr
    measures = json.loads(out.stdout)["measures"]
    for name in ENTITY_METRICS:
        totals = measures[name]["totals"]
        assert (totals["precision"], totals["recall"], totals["f1"]) == (1.0, 1.0, 1.0), (name, totals)


# ---------------------------------------------------------------------------- PENMAN re-spellings
_ROLES = [":ARG0", ":ARG1", ":mod", ":domain", ":consist-of", ":poss", ":prep-in", ":location"]
_CONCEPTS = ["want-01", "boy", "girl", "city", "big", "water", "spring"]


@st.composite
def _graph_and_respelling(draw) -> tuple[str, str]:
    """A random tree with re-entrant references (``:R v3``), and the same graph with one of those edges written from
    its target's side (``:R-of v1`` inside v3's node): one graph, two spellings, the root unchanged."""
    n = draw(st.integers(2, 8))
    parent = [None] + [draw(st.integers(0, k - 1)) for k in range(1, n)]
    branches: dict[int, list[tuple[str, object]]] = {k: [] for k in range(n)}
    for k in range(1, n):
        branches[parent[k]].append((draw(st.sampled_from(_ROLES)), k))         # a child node
    refs = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), st.sampled_from(_ROLES)),
                         min_size=1, max_size=4))
    for src, tgt, role in refs:
        branches[src].append((role, f"v{tgt}"))                                 # a re-entrant reference
    if draw(st.booleans()):
        branches[0].append((":polarity", "-"))
    concept = [draw(st.sampled_from(_CONCEPTS)) for _ in range(n)]
    pick = draw(st.integers(0, len(refs) - 1))
    src, tgt, role = refs[pick]

    def render(k: int, respell: bool) -> str:
        parts = [f"(v{k} / {concept[k]}"]
        dropped = False
        for r, t in branches[k]:
            if respell and not dropped and k == src and t == f"v{tgt}" and r == role:
                dropped = True               # written from the other end below
                continue
            parts.append(f"{r} {render(t, respell) if isinstance(t, int) else t}")
        if respell and k == tgt:
            parts.append(f"{role}-of v{src}")
        return " ".join(parts) + ")"

    return render(0, False), render(0, True)


def _penman_relations(text: str) -> set[tuple[str, Var, Var]]:
    """The node-to-node triples penman decodes under its AMR model (inverted roles turned back, the ``-of`` role
    names kept), lower-cased, with ``:mod`` written as ``:domain`` from the other end."""
    import penman
    from penman.models import amr

    g = penman.decode(text, model=amr.model)
    variables = set(g.variables())
    out = set()
    for s, r, t in g.edges():
        role = r.lstrip(":").lower()
        if role == "mod":
            role, s, t = "domain", t, s
        assert s in variables and t in variables
        out.add((role, Var(s), Var(t)))
    return out


@given(_graph_and_respelling())
def test_a_graph_and_its_respelling_score_one(pair):
    plain, respelled = pair
    t1, t2 = amr_triples(plain), amr_triples(respelled)
    assert t1 == t2, (plain, respelled)
    s = smatch(plain, respelled)
    assert (s.match, s.test_triples, s.gold_triples) == (len(t1), len(t1), len(t1)) and s.f1 == 1.0
    relations = {t for t in t1 if isinstance(t[2], Var) and t[0] != "instance"}
    assert relations == _penman_relations(plain) == _penman_relations(respelled)


# ---------------------------------------------------------------------------- BCa against scipy
_doc_counts = st.tuples(st.integers(0, 4), st.integers(0, 1), st.integers(0, 1), st.integers(0, 3),
                        st.integers(0, 3))


@settings(max_examples=60 if not FULL else 300)
@given(st.lists(_doc_counts, min_size=2, max_size=12).flatmap(
    lambda docs: st.lists(st.sampled_from(docs), min_size=0, max_size=20).map(lambda more: docs + more)),
       st.integers(0, 2 ** 16), st.sampled_from([0.9, 0.95]))
def test_bca_equals_scipy_on_the_same_draws_and_holds_the_estimate(docs, seed, confidence):
    from scipy import stats

    from accord.result import ALL, CountTable, Measure, PairsKind, Result
    from accord.stats import CHUNK

    values = np.array(docs, dtype=np.int64)
    table = CountTable(PairsKind.fields, tuple(f"d{k}" for k in range(len(docs))), (ALL,), values[:, None, :])
    result = Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)
    t = values.sum(axis=0)
    assume(t[0] + t[1] + t[3] > 0 and t[0] + t[2] + t[4] > 0)     # gold and predictions: F1 defined

    def f1(index, axis=-1):
        """2m / (gold + pred), 0 for a resample of empty documents only (accord's default zero division)."""
        s = values[np.asarray(index)].sum(axis=-2)
        den = (s[..., 0] + s[..., 1] + s[..., 3]) + (s[..., 0] + s[..., 2] + s[..., 4])
        return np.where(den == 0, 0.0, 2 * s[..., 0] / np.maximum(den, 1))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = result.bootstrap(200, seed=seed, confidence=confidence, method="bca").to_dict()["totals"]
        try:
            res = stats.bootstrap((np.arange(len(docs)),), f1, n_resamples=200, batch=CHUNK, vectorized=True,
                                  random_state=np.random.default_rng(seed), method="BCa",
                                  confidence_level=confidence)
            theirs = [res.confidence_interval.low, res.confidence_interval.high]
        except ValueError:      # scipy refuses a degenerate jackknife in some versions
            theirs = [np.nan, np.nan]
    lo, hi = out["ci"]["f1"]
    if lo is None or hi is None:
        assert np.isnan(theirs).all(), (out, theirs)
        return
    assert [lo, hi] == pytest.approx(theirs, abs=1e-12), (docs, out, theirs)
    assert lo <= out["f1"] <= hi, (docs, out)
