"""Properties every comparison must have, on generated corpora.

- score(x, x) is perfect, in every mode;
- swapping gold and prediction swaps precision and recall, missing and spurious, the two clash counts
  (for symmetric similarities: strict, lenient, and MAT profiles whose labels declare the same attributes;
  MAT's remainder dimension reads the reference label's attributes, so it is asymmetric by definition);
- permuting documents and annotations changes nothing;
- nothing is lost: gold = number of gold items = match + gold_clash + missing, and the same for predictions;
- every rate lies in [0, 1], no JSON holds NaN, no count exceeds its total;
- two runs under different ``PYTHONHASHSEED`` give byte-identical JSON;
- bootstrap intervals lie in [0, 1] around nothing undefined, the same seed gives the same bytes, and a system
  compared with itself differs by 0 with p = 1;
- results over two disjoint sets of documents merge into exactly the result of scoring them together;
- HTML pages escape what they show.
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.clueval import evaluate_spans
from accord.diff import diff_corpora
from accord.errors import StatisticsError, StatisticsWarning
from accord.formats.text.jsonl import document_from_json
from accord.model import Corpus
from accord.model.schema import parse_task
from accord.semeval import semeval_schemas

from .harness import FULL, PROFILE, run
from .strategies import jsonl_text, share_texts, text_documents, token_documents, token_pairs
from .test_readers import TASK

settings.load_profile(PROFILE)

TASK_SPEC = parse_task(TASK)
OUTCOMES = ("match", "gold_clash", "pred_clash", "missing", "spurious")


def corpus(docs: list[dict], name: str = "c") -> Corpus:
    return Corpus([document_from_json(d) for d in docs], name=name)


def shuffled(docs: list[dict], seed: int) -> list[dict]:
    """The same documents in another order, each with its annotations in another order (ids kept)."""
    rng = random.Random(seed)
    out = [dict(d, annotations=rng.sample(d["annotations"], len(d["annotations"]))) for d in docs]
    rng.shuffle(out)
    return out


def counts(report: accord.Report) -> dict:
    rows = {"<all>": report.totals, **{f"L:{k}": v for k, v in report.by_label.items()},
            **{f"D:{k}": v for k, v in report.by_document.items()}}
    return {k: tuple(getattr(c, f) for f in OUTCOMES) for k, c in rows.items()}


def swap(c: dict) -> dict:
    return {k: (m, pc, gc, s, mi) for k, (m, gc, pc, mi, s) in c.items()}


def n_items(docs: list[dict]) -> int:
    return sum(len(d["annotations"]) for d in docs)


def check_blocks(obj: object) -> None:
    """Every count block of a JSON output: the identities, rates in [0, 1], counts within totals."""
    stack = [obj]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if {"gold", "pred", "match", "missing", "spurious"} <= set(x):
                assert x["gold"] == x["match"] + x["gold_clash"] + x["missing"]
                assert x["pred"] == x["match"] + x["pred_clash"] + x["spurious"]
                assert min(x[f] for f in OUTCOMES) >= 0 and x["match"] <= min(x["gold"], x["pred"])
            for k in ("precision", "recall", "f1", "f"):
                v = x.get(k)
                if isinstance(v, float):
                    assert 0.0 <= v <= 1.0, (k, v, x)
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, float):
            assert math.isfinite(x)


def strict_json(text: str) -> object:
    """The JSON of a command's output: no NaN or Infinity, and valid under the shipped contract."""
    from tests.result.contract import checked

    return checked(text)


def pointed_duplicates(docs: list[dict]) -> bool:
    """Whether a document holds twins that relations point to alike: two annotations equal in label, span and
    attributes, pointed to by relations equal in label, attribute and other arguments (label and span).

    Which twin pairs with a counterpart can decide whether relations match; twins that even their relations
    do not tell apart are taken in file order (the documented limit, README "Ties in the assignment").
    """
    for d in docs:
        anns = d["annotations"]
        key = {a["id"]: (a["label"], a.get("start"), a.get("end"), json.dumps(a.get("attributes"), sort_keys=True))
               for a in anns if "start" in a}

        def content(v: object) -> object:
            return key.get(v["ref"]) if isinstance(v, dict) and "ref" in v else v

        pointers: dict[str, list] = {}
        for a in anns:
            attrs = a.get("attributes") or {}
            described = json.dumps(sorted((k, content(v)) for k, v in attrs.items()))
            for name, v in attrs.items():
                if isinstance(v, dict) and v.get("ref") in key:
                    pointers.setdefault(v["ref"], []).append((a["label"], name, described))
        seen = set()
        for i, k in key.items():
            if i in pointers:
                twin = (k, tuple(sorted(pointers[i])))
                if twin in seen:
                    return True
                seen.add(twin)
    return False


# --------------------------------------------------------------------------- identity
@given(text_documents())
def test_self_score_is_perfect_for_every_profile(docs):
    c = corpus(docs)
    for kwargs in ({"profile": "strict"}, {"profile": "lenient"}, {"profile": "mat"},
                   {"task": TASK_SPEC}, {"task": TASK_SPEC, "profile": "strict"}):
        r = accord.score(c, c, **kwargs)
        t = r.totals
        assert t.match == t.gold == t.pred == n_items(docs), (kwargs, t)
        assert r.f1 == 1.0 or n_items(docs) == 0


@given(token_documents())
def test_self_score_is_perfect_in_span_modes(docs):
    c = corpus(docs)
    ev = evaluate_spans(c, c)
    for level in (1, 2, 3, 4):
        for labelled in (True, False):
            k = ev.counts(level, labelled)
            assert k.gold_hits == k.gold == k.pred_hits == k.pred == n_items(docs)
    sem = semeval_schemas(c, c)
    for schema in ("strict", "exact", "partial", "type"):
        s = sem.counts(schema)
        assert s.correct == s.possible == s.actual == n_items(docs)


@given(text_documents(relations=False))
def test_self_diff_is_all_correct(docs):
    c = corpus(docs)
    for pairing in ("gate", "optimal"):
        k = diff_corpora(c, c, pairing=pairing, features=None).counts()
        spanned = sum(1 for d in docs for a in d["annotations"] if "start" in a)
        assert k.correct == k.keys == k.responses == spanned and not (k.partial or k.missing or k.spurious)


# ------------------------------------------------------------------------------- swap
@given(text_documents(), text_documents())
def test_swapping_sides_swaps_the_counts(gold_docs, pred_docs):
    share_texts(gold_docs, pred_docs)
    for d in pred_docs:
        d["id"] = d["id"]   # same ids d0, d1...: documents on one side only are scored against nothing
    g, p = corpus(gold_docs), corpus(pred_docs)
    for kwargs in ({"profile": "strict"}, {"profile": "lenient"}, {"task": TASK_SPEC}):
        a = accord.score(g, p, allow_missing="empty", **kwargs)
        b = accord.score(p, g, allow_missing="empty", **kwargs)
        assert counts(a) == swap(counts(b)), kwargs
        assert math.isclose(a.precision, b.recall) and math.isclose(a.recall, b.precision)
        assert a.totals.gold == n_items(gold_docs) and a.totals.pred == n_items(pred_docs)


# ------------------------------------------------------------------------ permutation
@given(text_documents(), text_documents(), st.integers(0, 2**16))
def test_permuting_documents_and_annotations_changes_nothing(gold_docs, pred_docs, seed):
    share_texts(gold_docs, pred_docs)
    g, p = corpus(gold_docs), corpus(pred_docs)
    g2, p2 = corpus(shuffled(gold_docs, seed)), corpus(shuffled(pred_docs, seed + 1))
    kinds = ({"profile": "strict"}, {"profile": "lenient"}, {"profile": "mat"}, {"task": TASK_SPEC})
    if pointed_duplicates(gold_docs) or pointed_duplicates(pred_docs):
        kinds = ()   # the documented limit (README, "Ties in the assignment")
    for kwargs in kinds:
        assert counts(accord.score(g, p, allow_missing="empty", **kwargs)) == \
            counts(accord.score(g2, p2, allow_missing="empty", **kwargs)), kwargs
    spanned = sorted({a["label"] for d in gold_docs + pred_docs for a in d["annotations"] if "start" in a})
    if spanned:
        a = diff_corpora(g, p, pairing="optimal", allow_missing="empty", types=spanned).counts()
        b = diff_corpora(g2, p2, pairing="optimal", allow_missing="empty", types=spanned).counts()
        assert a == b


@given(token_pairs(), st.integers(0, 2**16))
def test_permutation_in_span_modes(pair, seed):
    gold_docs, pred_docs = pair
    g, p = corpus(gold_docs), corpus(pred_docs)
    g2, p2 = corpus(shuffled(gold_docs, seed)), corpus(shuffled(pred_docs, seed + 1))
    for schema in ("strict", "exact", "partial", "type"):
        assert semeval_schemas(g, p, allow_missing="empty").counts(schema) == \
            semeval_schemas(g2, p2, allow_missing="empty").counts(schema)
    a, b = evaluate_spans(g, p, allow_missing="empty"), evaluate_spans(g2, p2, allow_missing="empty")
    assert [a.counts(lv, True) for lv in (1, 2, 3, 4)] == [b.counts(lv, True) for lv in (1, 2, 3, 4)]


# ------------------------------------------------------------------------ merging
def _split(docs: list[dict], cut: int) -> tuple[list[dict], list[dict]]:
    return docs[:cut], docs[cut:]


@settings(max_examples=700 if FULL else 100)     # five modes scored thrice and GATE's measures per case: CI runs fewer
@given(text_documents(), text_documents(), st.integers(0, 3))
def test_split_scores_merge_into_the_whole(gold_docs, pred_docs, cut):
    share_texts(gold_docs, pred_docs)
    cut = min(cut, len(gold_docs))   # a half may be empty: a result without documents merges too
    ids = {d["id"] for d in gold_docs}
    pred_docs = [d for d in pred_docs if d["id"] in ids]
    g1, g2 = _split(gold_docs, cut)
    p1 = [d for d in pred_docs if d["id"] in {x["id"] for x in g1}]
    p2 = [d for d in pred_docs if d["id"] in {x["id"] for x in g2}]
    modes = ({"profile": "strict"}, {"profile": "lenient"}, {"profile": "mat"}, {"task": TASK_SPEC},
             {"profile": "mat", "units": ("character",)})
    for kwargs in modes:
        whole = accord.score(corpus(gold_docs), corpus(pred_docs), allow_missing="empty", **kwargs)
        parts = [accord.score(corpus(g), corpus(p), allow_missing="empty", **kwargs) for g, p in ((g1, p1), (g2, p2))]
        assert (parts[0] + parts[1]).to_json() == whole.to_json(), kwargs
    def labels(docs: list[dict]) -> set[str]:
        return {a["label"] for d in docs for a in d["annotations"] if "start" in a}
    # GATE's measures over the same types on both halves (a type named but absent is refused)
    spanned = sorted(labels(gold_docs + pred_docs))
    if spanned and labels(g1 + p1) == labels(g2 + p2) == set(spanned) and len(g1) != 1 and len(g2) != 1:
        whole = accord.qa(corpus(gold_docs), corpus(pred_docs), allow_missing="empty", types=spanned)
        parts = [accord.qa(corpus(g), corpus(p), allow_missing="empty", types=spanned) for g, p in ((g1, p1), (g2, p2))]
        assert (parts[0] + parts[1]).to_json() == whole.to_json()


@settings(max_examples=700 if FULL else 100)     # two modes scored thrice per case: CI runs fewer
@given(token_pairs(), st.integers(0, 3))
def test_split_span_modes_merge_into_the_whole(pair, cut):
    gold_docs, pred_docs = pair
    cut = min(cut, len(gold_docs))
    for match in ("clueval", "semeval"):
        whole = accord.score(corpus(gold_docs), corpus(pred_docs), match=match)
        parts = [accord.score(corpus(g), corpus(p), match=match)
                 for g, p in zip(_split(gold_docs, cut), _split(pred_docs, cut))]
        assert (parts[0] + parts[1]).to_json() == whole.to_json(), match


# ------------------------------------------------------------------------ statistics
@settings(max_examples=700 if FULL else 60)      # each case bootstraps and compares twice: CI runs fewer
@given(text_documents(), text_documents(), st.integers(0, 2**16))
def test_intervals_hold_the_estimate_and_a_system_ties_with_itself(gold_docs, pred_docs, seed):
    share_texts(gold_docs, pred_docs)
    g, p = corpus(gold_docs), corpus(pred_docs)
    scored = accord.score(g, p, allow_missing="empty", profile="lenient")
    if len(scored.documents) < 2:   # one document of one sentence: nothing to resample, an error (never [x, x])
        with pytest.raises(StatisticsError, match="two or more"):
            scored.bootstrap(40, seed=seed)
        with pytest.raises(StatisticsError, match="two or more"):
            accord.compare({"a": scored, "b": scored}, samples=30, seed=seed)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StatisticsWarning)     # fewer than 20 documents
        result = scored.bootstrap(40, seed=seed)
    out = result.to_dict()
    for block in [out["totals"], *out["by_label"].values()]:
        for rate in ("precision", "recall", "f1"):
            lo, hi = block["ci"][rate]
            assert lo is not None and 0.0 <= lo <= hi <= 1.0
    assert result.to_json() == accord.score(g, p, allow_missing="empty", profile="lenient").bootstrap(
        40, seed=seed).to_json()
    for test in ("permutation", "bootstrap"):
        tied = accord.compare({"a": result, "b": result}, test=test, samples=30, seed=seed)
        assert all(c.difference == 0 and c.p_value == 1 and not c.significant for c in tied.comparisons)
        check_blocks(strict_json(tied.to_json()))


# ---------------------------------------------------------------- JSON of every command
@settings(max_examples=700 if FULL else 60)      # eight commands per case: CI runs fewer
@given(text_documents(), text_documents())
def test_json_outputs_keep_the_identities_and_bounds(gold_docs, pred_docs):
    share_texts(gold_docs, pred_docs)
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.jsonl"), Path(d, "p.jsonl")
        g.write_text(jsonl_text(gold_docs), encoding="utf-8")
        p.write_text(jsonl_text(pred_docs), encoding="utf-8")
        for argv in (["score", str(g), str(p), "--allow-missing", "empty", "--profile", "mat"],
                     ["score", str(g), str(p), "--allow-missing", "empty", "--zero-division", "nan"],
                     ["qa", str(g), str(p), "--allow-missing", "empty"],
                     ["agree", str(g), str(p)],
                     ["score", str(g), str(p), "--allow-missing", "empty", "--bootstrap", "30", "--seed", "1",
                      "--ci-method", "bca"],
                     ["compare", str(g), str(p), str(g), "--allow-missing", "empty", "--samples", "30", "--seed", "1",
                      "--test", "bootstrap"]):
            r = run(argv + ["--output", "json"])
            if r.status == 0:
                check_blocks(strict_json(r.stdout))


@settings(max_examples=700 if FULL else 100)     # two commands and two contract checks per case: CI runs fewer
@given(token_pairs())
def test_span_mode_json_is_bounded(pair):
    gold_docs, pred_docs = pair
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.jsonl"), Path(d, "p.jsonl")
        g.write_text(jsonl_text(gold_docs), encoding="utf-8")
        p.write_text(jsonl_text(pred_docs), encoding="utf-8")
        for mode in ("clueval", "semeval"):
            r = run(["score", str(g), str(p), "--allow-missing", "empty", "--match", mode, "--output", "json"])
            assert r.status == 0, r.stderr
            check_blocks(strict_json(r.stdout))


@settings(max_examples=40 if FULL else 3)
@given(text_documents())
def test_json_is_identical_under_two_hash_seeds(docs):
    with tempfile.TemporaryDirectory() as d:
        g = Path(d, "g.jsonl")
        g.write_text(jsonl_text(docs), encoding="utf-8")
        outs = []
        for seed in ("1", "2"):
            env = dict(os.environ, PYTHONHASHSEED=seed)
            outs.append(subprocess.run([sys.executable, "-m", "accord.cli", "score", str(g), str(g), "--profile",
                                        "mat", "--output", "json"], env=env, capture_output=True, check=True).stdout)
        assert outs[0] == outs[1]


# ------------------------------------------------------------------------------- HTML
PAYLOAD = "<img src=x onerror=alert(1)>"


@settings(max_examples=700 if FULL else 30)      # four pages written per case (37 s at 60): CI runs fewer
@given(token_documents(max_docs=1), st.booleans())
def test_html_pages_escape_what_they_show(docs, in_label):
    for d in docs:
        if in_label:
            for a in d["annotations"]:
                a["label"] = PAYLOAD
        else:
            d["tokens"][0] = PAYLOAD
    pred = [dict(d, annotations=d["annotations"][1:]) for d in docs]
    with tempfile.TemporaryDirectory() as tmp:
        g, p = Path(tmp, "g.jsonl"), Path(tmp, "p.jsonl")
        g.write_text(jsonl_text(docs), encoding="utf-8")
        p.write_text(jsonl_text(pred), encoding="utf-8")
        pages = [Path(tmp, "errors.html"), Path(tmp, "diff.html"), Path(tmp, "matrix.html"), Path(tmp, "report.html")]
        run(["errors", str(g), str(p), "--html", str(pages[0])])
        run(["diff", str(g), str(p), "--html", str(pages[1])])
        run(["agree", str(g), str(p), "--html", str(pages[2])])
        run(["report", str(g), str(p), str(g), "--samples", "20", "--bootstrap", "20", "-o", str(pages[3])])
        for page in pages:
            if page.exists():
                assert PAYLOAD not in page.read_text(encoding="utf-8"), page.name
