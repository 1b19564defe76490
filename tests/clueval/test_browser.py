"""The error browser's data: every error once, contexts stored once, spans clipped, changes against the first
system counted as an independent route (the strict pairs engine) counts them."""

import json

import accord
from accord.clueval import evaluate_spans
from accord.clueval._browser import ERROR_CLASSES, error_browser_data, error_changes, error_rows
from accord.match.engine import MATCH
from accord.model import Corpus, Document, make_annotation
from accord.report.error_browser import embedded_json

from ..result.commands import CONLL_GOLD, CONLL_PRED, worse_copy

WORDS = tuple("The <b> Bank of New York met Ann in Paris .".split())
SENTENCES = ((0, 7), (7, len(WORDS)))


def doc(spans):
    return Corpus([Document("d", tuple(make_annotation(*s) for s in spans), tokens=WORDS, sentences=SENTENCES)])


GOLD = doc([("ORG", 2, 6), ("PER", 7, 8), ("LOC", 9, 10)])
SYS_A = doc([("ORG", 2, 4), ("PER", 7, 8), ("PER", 9, 10)])      # ORG cut short (FN + FP), Paris mislabelled
SYS_B = doc([("ORG", 2, 6), ("LOC", 7, 8), ("PER", 9, 10)])      # ORG right, Ann mislabelled, Paris as A


def data():
    evaluations = {"a": evaluate_spans(GOLD, SYS_A), "b": evaluate_spans(GOLD, SYS_B)}
    return evaluations, error_browser_data(evaluations)


def test_every_error_row_once_with_its_class_and_context():
    evaluations, d = data()
    n = len(d["row_system"])
    assert n == sum(len(error_rows(ev)) for ev in evaluations.values()) == 4 + 4
    assert all(len(d[f"row_{k}"]) == n for k in ("kind", "class", "label", "context", "start", "end", "new",
                                                   "fixed_by"))
    rows = [(d["systems"][s], "FN" if k == 0 else "FP", d["classes"][c], d["labels"][lab], st, en)
            for s, k, c, lab, st, en in zip(d["row_system"], d["row_kind"], d["row_class"], d["row_label"],
                                            d["row_start"], d["row_end"])]
    # positions relative to the context: sentence 1 starts at 0, sentence 2 at token 7
    # a's ORG 2-4 lies inside the gold ORG 2-6: the gold span is partly covered (partial), the predicted one
    # inside a longer gold span (superset, a hit from leniency 2 on, an error at exact)
    assert rows == [("a", "FN", "partial", "ORG", 2, 6), ("a", "FP", "superset", "ORG", 2, 4),
                    ("a", "FN", "exact", "LOC", 2, 3), ("a", "FP", "exact", "PER", 2, 3),
                    ("b", "FN", "exact", "PER", 0, 1), ("b", "FP", "exact", "LOC", 0, 1),
                    ("b", "FN", "exact", "LOC", 2, 3), ("b", "FP", "exact", "PER", 2, 3)]
    assert d["classes"] == list(ERROR_CLASSES)
    # two sentences with errors: each context once, shared by both systems
    assert d["context_start"] == [0, 7] and d["context_document"] == [0, 0] and d["documents"] == ["d"]
    assert d["context_text"] == ["The <b> Bank of New York met", "Ann in Paris ."]
    assert d["context_gold"] == [[2, 6, d["labels"].index("ORG")],
                                 [0, 1, d["labels"].index("PER"), 2, 3, d["labels"].index("LOC")]]
    assert d["context_pred"][0][0] == [2, 4, d["labels"].index("ORG")]
    assert d["context_pred"][1][1] == [0, 1, d["labels"].index("LOC"), 2, 3, d["labels"].index("PER")]


def test_fixed_and_broken_against_the_first_system():
    evaluations, d = data()
    # b fixes a's two ORG errors; breaks Ann (FN PER and FP LOC); Paris is the same error in both
    assert d["row_new"] == [0, 0, 0, 0, 1, 1, 0, 0]
    assert d["row_fixed_by"] == [2, 2, 0, 0, 0, 0, 0, 0]
    (changes,) = error_changes({name: error_rows(ev) for name, ev in evaluations.items()})
    assert changes.to_dict() == {"system": "b", "fixed": {"FN": 1, "FP": 1}, "broken": {"FN": 1, "FP": 1},
                                 "fixed_by_label": {"ORG": 2}, "broken_by_label": {"LOC": 1, "PER": 1}}


def test_spans_across_the_context_are_clipped_to_it():
    words = tuple("a b c d e f".split())
    gold = Corpus([Document("d", (make_annotation("X", 1, 5),), tokens=words, sentences=((0, 3), (3, 6)))])
    pred = Corpus([Document("d", (make_annotation("X", 0, 1), make_annotation("Y", 2, 4)), tokens=words,
                            sentences=((0, 3), (3, 6)))])
    d = error_browser_data({"p": evaluate_spans(gold, pred)})
    # the gold span covers both sentences: its context is both; every span lies inside it
    for c, start in enumerate(d["context_start"]):
        length = len(d["context_text"][c].split(" "))
        for spans in (d["context_gold"][c], d["context_pred"][0][c]):
            assert all(0 <= spans[k] < spans[k + 1] <= length for k in range(0, len(spans), 3))


def test_tokens_with_spaces_and_character_documents_keep_their_pieces():
    tokens = ("New York", "is", "", "big")
    gold = Corpus([Document("t", (make_annotation("LOC", 0, 1),), tokens=tokens)])
    pred = Corpus([Document("t", (), tokens=tokens)])
    d = error_browser_data({"p": evaluate_spans(gold, pred)})
    assert d["context_text"] == [list(tokens)] and d["context_chars"] == [0]
    text = "Ann  met Bob."
    gold = Corpus([Document("c", (make_annotation("PER", 0, 3),), text=text)])
    pred = Corpus([Document("c", (make_annotation("PER", 9, 12),), text=text)])
    d = error_browser_data({"p": evaluate_spans(gold, pred)})
    assert d["context_text"] == [text] and d["context_chars"] == [1]


def test_the_embedded_json_holds_no_markup_and_reads_back():
    _, d = data()
    text = embedded_json(d)
    assert "<" not in text and json.loads(text) == d


def test_changes_on_conll03_equal_the_strict_pairs_engine(tmp_path, recwarn):
    """Fixed and broken errors from CLUEval's exact labelled errors, checked against the pairs engine's outcomes:
    at the strict profile a gold item is an error when it is not matched, a predicted one when it is not matched."""
    worse = worse_copy(tmp_path)
    pair_errors = {}
    evaluations = {}
    for name, path in (("xlm", CONLL_PRED), ("worse", worse)):
        report = accord.score(CONLL_GOLD, path)
        keys = set()
        for al in report.alignments:
            for kind, items, status in (("FN", al.gold, al.gold_status), ("FP", al.pred, al.pred_status)):
                keys |= {(kind, al.doc_id, a.start, a.end, a.label) for a, st in zip(items, status) if st != MATCH}
        pair_errors[name] = keys
        evaluations[name] = evaluate_spans(*report.corpora)
    rows = {name: error_rows(ev) for name, ev in evaluations.items()}
    assert {(r.kind, r.document, r.start, r.end, r.label) for r in rows["xlm"]} == pair_errors["xlm"]
    (changes,) = error_changes(rows)
    fixed = pair_errors["xlm"] - pair_errors["worse"]
    broken = pair_errors["worse"] - pair_errors["xlm"]
    assert changes.fixed == {k: sum(key[0] == k for key in fixed) for k in ("FN", "FP")}
    assert changes.broken == {k: sum(key[0] == k for key in broken) for k in ("FN", "FP")}
    assert sum(changes.broken.values()) > 500 and sum(changes.fixed.values()) > 0
    d = error_browser_data(evaluations, rows=rows)
    assert sum(d["row_new"]) == len(broken) and sum(f > 0 for f in d["row_fixed_by"]) == len(fixed)
