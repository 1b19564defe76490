"""Results over disjoint documents merge by addition into exactly the result of scoring them together:
the corpus is split in two, each half scored, the halves merged, and the JSON compared byte for byte."""

from __future__ import annotations

import json
import warnings

import pytest

import accord
from accord.errors import MergeError
from accord.model import Corpus

from .commands import CONLL_GOLD, CONLL_PRED, DATA, write_inputs

GATE_FILES = [str(DATA / "gate" / name) for name in ("beijing-opera.xml", "beijing-opera-2.xml")]


def _halves(corpus: Corpus, cut: int) -> tuple[Corpus, Corpus]:
    docs = list(corpus.documents)
    return Corpus(docs[:cut]), Corpus(docs[cut:])


@pytest.fixture(scope="module")
def conll():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.read(CONLL_GOLD), accord.read(CONLL_PRED)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return write_inputs(tmp_path_factory.mktemp("merge"))


def _same(merged, whole) -> None:
    assert merged.to_json() == whole.to_json()
    assert merged.to_csv() == whole.to_csv()


@pytest.mark.parametrize("options", [
    {}, {"profile": "lenient"}, {"profile": "mat"}, {"beta": 0.5, "zero_division": "one"},
    {"match": "clueval"}, {"match": "clueval", "leniency": "tiling", "labelled": False}, {"match": "semeval"}])
def test_conll03_in_two_halves(conll, options):
    gold, pred = conll
    whole = accord.score(gold, pred, **options)
    (g1, g2), (p1, p2) = _halves(gold, 100), _halves(pred, 100)
    first, second = accord.score(g1, p1, **options), accord.score(g2, p2, **options)
    _same(first + second, whole)
    assert (first + second).totals == whole.totals


def test_mat_task_with_aggregations_decompositions_and_units(inputs):
    gold, pred = accord.read(inputs["mat_gold"]), accord.read(inputs["mat_pred"])
    options = {"task": inputs["task"], "profile": "mat"}
    whole = accord.score(gold, pred, **options)
    assert whole.aggregations and whole.decompositions
    (g1, g2), (p1, p2) = _halves(gold, 1), _halves(pred, 1)
    _same(accord.score(g1, p1, **options) + accord.score(g2, p2, **options), whole)
    # units: a second document with text
    docs_g = list(accord.read(inputs["units_gold"]).documents)
    docs_p = list(accord.read(inputs["units_pred"]).documents)
    other_g = [d._replace(id="e") for d in docs_g]
    other_p = [d._replace(id="e", annotations=()) for d in docs_p]
    units = {"profile": "mat", "units": ("character", "pseudo-token"), "confusability": "pseudo-token"}
    whole = accord.score(Corpus(docs_g + other_g), Corpus(docs_p + other_p), **units)
    merged = accord.score(Corpus(docs_g), Corpus(docs_p), **units) + accord.score(Corpus(other_g), Corpus(other_p),
                                                                                    **units)
    _same(merged, whole)
    from .commands import SIGNAL

    assert whole.to_dict()["units"]["character"]["totals"]["test_units"] == 2 * len(SIGNAL)
    assert whole.to_dict()["units"]["pseudo-token"]["confusability"]


def test_gate_diff_qa_and_benchmark_by_document():
    def sets(name):
        return Corpus([accord.read(f, annotation_set=name).documents[0] for f in GATE_FILES])
    ann1, ann2, ann3 = sets("ann1"), sets("ann2"), sets("ann3")
    halves = [(Corpus([ann1.documents[k]]), Corpus([ann2.documents[k]]), Corpus([ann3.documents[k]])) for k in (0, 1)]
    for command in (accord.qa, accord.gate_diff):
        whole = command(ann1, ann2)
        _same(command(*halves[0][:2]) + command(*halves[1][:2]), whole)
    whole = accord.benchmark(ann1, ann2, ann3)
    merged = accord.benchmark(*halves[0]) + accord.benchmark(*halves[1])
    _same(merged, whole)


def test_coref_smatch_and_structured(inputs, tmp_path):
    cases = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]
    key = {f"d{k}": c["key_clusters"] for k, c in enumerate(cases)}
    resp = {f"d{k}": c["response_clusters"] for k, c in enumerate(cases)}
    cut = len(key) // 2
    part = [{d: v for d, v in list(m.items())[s]} for m in (key, resp) for s in (slice(0, cut), slice(cut, None))]
    whole = accord.coref(key, resp)
    merged = accord.coref(part[0], part[2]) + accord.coref(part[1], part[3])
    _same(merged, whole)
    assert merged.conll_f1() == whole.conll_f1()
    gold = ["# ::id a\n(w / want-01 :ARG0 (b / boy))", "# ::id b\n(a / dog)", "# ::id c\n(c / cat :mod (b / big))"]
    pred = ["(w / want-01 :ARG0 (b / girl))", "(a / dog)", "(c / cat)"]
    import penman

    g, p = [penman.parse(x) for x in gold], [penman.parse(x) for x in pred]
    whole = accord.smatch(g, p)
    assert list(whole.by_document) == ["a", "b", "c"]
    _same(accord.smatch(g[:1], p[:1]) + accord.smatch(g[1:], p[1:]), whole)
    # structured metrics read files: everything but the file names is identical
    lines = {side: (tmp_path / f"{side}.jsonl") for side in ("k", "r")}
    records = {"k": [{"id": "a", "relations": [{"type": "R", "subj": [0, 1], "obj": [3, 3]}]},
                     {"id": "b", "relations": [{"type": "S", "subj": [5, 5], "obj": [7, 8]}]}],
               "r": [{"id": "a", "relations": [{"type": "R", "subj": [0, 1], "obj": [3, 3]},
                                               {"type": "S", "subj": [5, 5], "obj": [7, 8]}]},
                     {"id": "b", "relations": [{"type": "S", "subj": [5, 5], "obj": [7, 9]}]}]}
    for side, path in lines.items():
        path.write_text("".join(json.dumps(r) + "\n" for r in records[side]))
        for k, r in enumerate(records[side]):
            (tmp_path / f"{side}{k}.jsonl").write_text(json.dumps(r) + "\n")
    metrics = ["relation", "relation-boundaries"]
    whole = accord.structured_metrics(lines["k"], lines["r"], metrics)
    merged = accord.structured_metrics(tmp_path / "k0.jsonl", tmp_path / "r0.jsonl", metrics) + accord.structured_metrics(
        tmp_path / "k1.jsonl", tmp_path / "r1.jsonl", metrics)
    a, b = merged.to_dict(), whole.to_dict()
    assert a.pop("inputs")["gold"]["documents"] == b.pop("inputs")["gold"]["documents"] == 2
    assert a == b


def test_agreement_over_annotation_sets():
    def sets(name):
        return Corpus([accord.read(f, annotation_set=name).documents[0] for f in GATE_FILES], name=name)
    annotators = [sets(n) for n in ("ann1", "ann2", "ann3")]
    options = {"types": ["Os", "sent"], "span_measure": "average"}
    whole = accord.agree(annotators, **options)
    halves = [[Corpus([c.documents[k]], name=c.name) for c in annotators] for k in (0, 1)]
    merged = accord.agree(halves[0], **options) + accord.agree(halves[1], **options)
    assert merged.to_json() == whole.to_json() and merged.to_csv() == whole.to_csv()
    pairs = whole.to_dict()["span_agreement"]["pairs"]
    assert [p["annotators"] for p in pairs] == [["ann1", "ann2"], ["ann1", "ann3"], ["ann2", "ann3"]]
    # each pair's macro over documents is the mean of its documents' F (GATE's IAA macro F)
    for p in pairs:
        per_doc = [b["f1"] for b in p["by_document"].values()]
        assert p["macro_by_document"]["f1"] == sum(per_doc) / len(per_doc)
    with pytest.raises(MergeError, match="GATE averages"):
        gate = accord.agree(halves[0], types=["sent"], feature="Op", convention="iaa")
        gate + gate


def test_merge_refuses_what_does_not_add_up(conll):
    gold, pred = conll
    (g1, g2), (p1, p2) = _halves(gold, 100), _halves(pred, 100)
    first = accord.score(g1, p1)
    with pytest.raises(MergeError, match="both hold document"):
        first + first
    with pytest.raises(MergeError, match="different options"):
        first + accord.score(g2, p2, profile="lenient")
    with pytest.raises(MergeError, match="cannot merge"):
        first + accord.score(g2, p2, match="semeval")


@pytest.mark.parametrize("options", [{}, {"match": "clueval"}, {"match": "semeval"}])
def test_merge_all_in_a_tree_and_reordered(conll, options):
    """Five parts merged at once (a balanced tree of merges), then put back in the corpus's order from a shuffled
    merge: the JSON of the whole, the count tables concatenated in one copy as by pairwise addition."""
    from accord.result import CountTable, Result

    gold, pred = conll
    whole = accord.score(gold, pred, **options)
    cuts = [0, 40, 41, 120, 200, len(gold)]
    parts = [accord.score(Corpus(list(gold.documents)[a:b]), Corpus(list(pred.documents)[a:b]), **options)
             for a, b in zip(cuts, cuts[1:])]
    _same(Result.merge_all(parts), whole)
    shuffled = Result.merge_all(parts[::-1])
    assert shuffled.documents != whole.documents
    _same(shuffled.reorder_documents(list(whole.documents)), whole)
    tables = [p.main.table for p in parts]
    concat = CountTable.concat(tables)
    pairwise = tables[0]
    for t in tables[1:]:
        pairwise = pairwise + t
    assert concat.documents == pairwise.documents and concat.rows == pairwise.rows
    assert (concat.values == pairwise.values).all()
    assert concat.take(list(whole.documents[::-1])).documents == whole.documents[::-1]
    with pytest.raises(MergeError, match="both hold document"):
        CountTable.concat([tables[0], tables[0]])
    with pytest.raises(MergeError, match="reordering names"):
        whole.reorder_documents(list(whole.documents[:3]))
