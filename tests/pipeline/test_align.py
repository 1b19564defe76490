"""The alignment of generated strings to the gold text (accord.pipeline._align): hand-counted documents, the
XLM-R FLERT spans of CoNLL-2003 written as strings against an independent multiset count and the offset-based
score, the noisy variant's hallucinations, and the time it takes."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest

import accord
from accord.errors import OptionError, PairingError
from accord.formats import read
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._align import align_records

GENERATED = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "generated"
CONLL = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "conll03"


def _gold(text: str, *spans: tuple[str, int, int]) -> Corpus:
    return Corpus([Document("d", tuple(make_annotation(lab, a, b) for lab, a, b in spans), text)])


def _pred(*entities: tuple[str, str], relations: tuple[tuple[str, str, str], ...] = ()) -> Corpus:
    return records_corpus([{"id": "d", "entities": [{"text": t, "label": lab} for t, lab in entities],
                            "relations": [{"head": h, "tail": t, "label": lab} for h, t, lab in relations]}])


def _placed(corpus: Corpus) -> list[tuple[str, int | None, int | None]]:
    return [(a.label, a.start, a.end) for a in corpus["d"].annotations]


TEXT = "Paris is in France. Paris Hilton visited Paris."
#       0         1         2         3         4
#       012345678901234567890123456789012345678901234567


def test_repeated_strings_go_to_the_gold_occurrences_not_the_first_ones():
    gold = _gold(TEXT, ("LOC", 0, 5), ("LOC", 12, 18), ("PER", 20, 32), ("LOC", 41, 46))
    pred = _pred(("Paris", "LOC"), ("Paris Hilton", "PER"), ("Paris", "LOC"))
    aligned, summary = align_records(gold, pred)
    # "Paris" occurs at 0, 20 (inside "Paris Hilton") and 41: the two LOC predictions take 0 and 41
    assert sorted(_placed(aligned)) == [("LOC", 0, 5), ("LOC", 41, 46), ("PER", 20, 32)]
    assert (summary["exact"], summary["unaligned"]) == (3, 0)
    counts = accord.score(gold, pred).to_dict()["totals"]
    assert (counts["gold"], counts["pred"], counts["match"]) == (4, 3, 3)    # France missed, by hand


def test_one_string_of_two_labels_is_assigned_by_label():
    gold = _gold("Jordan went to Jordan.", ("PER", 0, 6), ("LOC", 15, 21))
    pred = _pred(("Jordan", "LOC"), ("Jordan", "PER"))
    aligned, _ = align_records(gold, pred)
    assert _placed(aligned) == [("LOC", 15, 21), ("PER", 0, 6)]


def test_without_gold_spans_repeats_take_successive_occurrences():
    gold = _gold("a cat, a cat and a cat")
    aligned, _ = align_records(gold, _pred(("cat", "X"), ("cat", "X")))
    assert _placed(aligned) == [("X", 2, 5), ("X", 9, 12)]


def test_a_string_absent_from_the_text_is_unaligned_and_spurious():
    gold = _gold(TEXT, ("LOC", 0, 5))
    pred = _pred(("Paris", "LOC"), ("Berlin", "LOC"))
    aligned, summary = align_records(gold, pred)
    assert summary["unaligned"] == 1
    assert summary["unaligned_listed"] == [{"document": "d", "text": "Berlin", "label": "LOC",
                                            "reason": "not in the text"}]
    (_, a, b), = [p for p in _placed(aligned) if p[1] != 0]
    assert a >= len(TEXT)       # past the end: it pairs with nothing
    counts = accord.score(gold, pred).to_dict()["totals"]
    assert (counts["gold"], counts["pred"], counts["match"]) == (1, 2, 1)
    for match in ("semeval", "clueval"):     # every span mode counts it as spurious
        assert accord.score(gold, pred, match=match) is not None


def test_a_string_listed_more_often_than_the_text_holds_it():
    pred = _pred(*[("Paris", "LOC")] * 4)
    _, summary = align_records(_gold(TEXT), pred)
    assert (summary["exact"], summary["unaligned"]) == (3, 1)
    assert summary["unaligned_listed"][0]["reason"] == "listed more often than the text holds it"


def test_occurrences_on_word_boundaries_come_first():
    gold = _gold("USA and US", ("LOC", 8, 10))
    aligned, _ = align_records(gold, _pred(("US", "LOC")))
    assert _placed(aligned) == [("LOC", 8, 10)]
    # a text without spaces: an occurrence inside a word is all there is
    aligned, summary = align_records(_gold("東京都に住む"), _pred(("東京", "LOC")))
    assert _placed(aligned) == [("LOC", 0, 2)] and summary["unaligned"] == 0


def test_overlapping_candidates_prefer_the_one_that_agrees_with_the_gold_spans():
    # "New York" occurs inside "New York City" (gold LOC) and alone later (no gold): the overlap wins
    text = "New York City and New York"
    gold = _gold(text, ("LOC", 0, 13))
    aligned, _ = align_records(gold, _pred(("New York", "LOC")))
    assert _placed(aligned) == [("LOC", 0, 8)]


def test_unicode_offsets_count_code_points_and_exact_means_exact():
    text = "🙂 Zürich und Genève"
    gold = _gold(text, ("LOC", 2, 8), ("LOC", 13, 19))
    aligned, summary = align_records(gold, _pred(("Zürich", "LOC"), ("Genève", "LOC"), ("Gene\u0300ve", "LOC")))
    assert _placed(aligned)[:2] == [("LOC", 2, 8), ("LOC", 13, 19)]
    assert summary["unaligned"] == 1      # the decomposed form is another string under exact alignment


def test_surrounding_whitespace_is_left_out():
    aligned, _ = align_records(_gold(TEXT), _pred((" France ", "LOC")))
    assert _placed(aligned) == [("LOC", 12, 18)]


def test_relations_point_to_the_aligned_entities():
    pred = _pred(("Paris Hilton", "PER"), ("France", "LOC"), relations=(("Paris Hilton", "France", "visited"),
                                                                        ("Paris Hilton", "Rome", "visited")))
    aligned, summary = align_records(_gold(TEXT), pred)
    rel, = [a for a in aligned["d"].annotations if a.start is None]
    assert (rel.label, rel.get("head").start, rel.get("tail").start) == ("visited", 20, 12)
    assert (summary["relations"], summary["unaligned_relations"]) == (1, 1)


def test_token_documents_are_aligned_in_tokens(tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("-DOCSTART- O\n\nJohn B-PER\nSmith I-PER\nsaw O\nJohn B-PER\n\nin O\nParis B-LOC\n. O\n",
                    encoding="utf-8")
    pred = [{"id": "1", "entities": [{"text": "John", "label": "PER"}, {"text": "John Smith", "label": "PER"},
                                     {"text": "saw John in", "label": "MISC"}, {"text": "Paris", "label": "LOC"}]}]
    aligned, summary = align_records(read(gold), records_corpus(pred))
    # the text is "John Smith saw John\nin Paris .": "saw John in" crosses a sentence break, so it is not in it
    assert sorted((a.label, a.start, a.end) for a in aligned["1"].annotations if a.end <= 7) == \
        [("LOC", 5, 6), ("PER", 0, 2), ("PER", 3, 4)]
    assert summary["unaligned"] == 1
    counts = accord.score(gold, pred).to_dict()["totals"]
    assert (counts["gold"], counts["pred"], counts["match"]) == (3, 4, 3)


def test_options_are_checked():
    gold, pred = _gold(TEXT), _pred(("Paris", "LOC"))
    with pytest.raises(OptionError, match="align must be one of"):
        align_records(gold, pred, "sideways")
    with pytest.raises(OptionError, match="applies with"):
        align_records(gold, pred, "exact", 0.5)
    with pytest.raises(OptionError, match="between 0 and 1"):
        align_records(gold, pred, "fuzzy", 1.5)
    with pytest.raises(OptionError, match="predicted side be records"):
        accord.score(gold, gold, align="exact")
    with pytest.raises(PairingError, match="neither text nor tokens"):
        align_records(Corpus([Document("d")]), pred)


def test_fuzzy_alignment_places_a_near_string_and_says_how_near():
    pytest.importorskip("rapidfuzz")
    gold = _gold(TEXT, ("LOC", 12, 18))
    aligned, summary = align_records(gold, _pred(("Frannce", "LOC")), "fuzzy", 0.8)
    assert _placed(aligned) == [("LOC", 12, 18)]
    (item,) = summary["fuzzy_listed"]
    # rapidfuzz's ratio of "Frannce" and "France": 2 * 6 matching characters / 13
    assert item["similarity"] == pytest.approx(12 / 13, abs=1e-4)
    _, summary = align_records(gold, _pred(("Frannce", "LOC")), "fuzzy", 0.95)
    assert summary["unaligned"] == 1


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is absent")


def _multiset_matches(gold: Corpus, records: Path) -> int:
    """Per document, sum over (string, label) of min(predicted count, gold count): an independent count of the
    strict matches an alignment optimal with respect to the gold spans gives."""
    total = 0
    lines = [json.loads(line) for line in records.read_text(encoding="utf-8").splitlines() if line.strip()]
    for obj in lines:
        doc = gold[obj["id"]]
        g = Counter((" ".join(doc.tokens[a.start:a.end]), a.label) for a in doc.annotations)
        p = Counter((e["text"], e["label"]) for e in obj["entities"])
        total += sum(min(n, g[k]) for k, n in p.items())
    return total


def test_the_conll03_system_written_as_strings_scores_as_its_offsets_where_strings_can_tell():
    _need(GENERATED / "records_exact.jsonl")
    _need(CONLL / "gold.conll")
    offsets = accord.score(CONLL / "gold.conll", CONLL / "xlm_flert.conll").to_dict()["totals"]
    assert (offsets["match"], offsets["gold"], offsets["pred"]) == (5339, 5648, 5749)
    result = accord.score(CONLL / "gold.conll", GENERATED / "records_exact.jsonl")
    strings = result.to_dict()["totals"]
    assert (strings["gold"], strings["pred"]) == (5648, 5749)
    assert result.options["alignment"]["unaligned"] == 0
    # the strings hold no positions: where the system put a string on an occurrence that is not gold and missed
    # the gold one (documents 28 and 167: three spans), the alignment takes the gold occurrence
    assert strings["match"] == _multiset_matches(read(CONLL / "gold.conll"), GENERATED / "records_exact.jsonl")
    assert strings["match"] == 5339 + 3


def test_the_noisy_variants_hallucinations_are_unaligned():
    _need(GENERATED / "records_noisy.jsonl")
    _need(CONLL / "gold.conll")
    gold = read(CONLL / "gold.conll")
    aligned, summary = align_records(gold, read(GENERATED / "records_noisy.jsonl"), listed=None)
    keys = [json.loads(line) for line in (GENERATED / "noise_key.jsonl").read_text(encoding="utf-8").splitlines()]
    unaligned = Counter((u["document"], u["text"]) for u in summary["unaligned_listed"])
    assert len(summary["unaligned_listed"]) == summary["unaligned"]
    hallucinated = [(k["id"], k["to"]["text"]) for k in keys if k["op"] == "hallucination"]
    assert len(hallucinated) == 42
    for doc_id, s in hallucinated:
        text = " ".join(gold[doc_id].tokens)
        if f" {s} " not in f" {text} ":       # not in the document at all: it must be unaligned
            assert unaligned[(doc_id, s)] >= 1, (doc_id, s)
    # the changes that keep the string in the text (label, dedupe) leave it aligned: the unaligned are the
    # hallucinations and strings changed out of the text (case, spaces, punctuation, articles...)
    changed = {(k["id"], k["to"]["text"]) for k in keys if k["to"] is not None and k["op"] not in ("label",)}
    assert set(unaligned) <= changed


def _synthetic(docs: int, per_doc: int) -> tuple[Corpus, Corpus]:
    words = [f"w{k}" for k in range(200)]
    golds, preds = [], []
    for d in range(docs):
        tokens = [words[(d * 7 + k * 13) % 200] for k in range(60)]
        text = " ".join(tokens)
        golds.append(Document(str(d), (make_annotation("X", 0, len(tokens[0])),), text))
        ents = [{"text": " ".join(tokens[k:k + 1 + k % 3]), "label": "X"} for k in range(per_doc - 1)]
        ents.append({"text": "absent string", "label": "X"})
        preds.append({"id": str(d), "entities": ents})
    return Corpus(golds), records_corpus(preds)


@pytest.mark.timing
@pytest.mark.parametrize("docs", [pytest.param(10_000, marks=pytest.mark.slow), 1_000])
def test_alignment_time(docs):
    if docs == 10_000 and not os.environ.get("ACCORD_FULL"):
        pytest.skip("full size with ACCORD_FULL=1")
    gold, pred = _synthetic(docs, 10)
    started = time.perf_counter()
    _, summary = align_records(gold, pred)
    took = time.perf_counter() - started
    assert summary["exact"] + summary["unaligned"] == docs * 10
    assert summary["unaligned"] == docs
    assert took < 5.0 * docs / 10_000 * 2     # 100,000 strings over 10,000 documents in under 5 s, with margin


def test_two_generated_systems_are_compared_whatever_their_alignments_gave():
    # two outputs unaligned differently (one hallucinates): the alignment is each system's outcome, not an option
    # of the scoring, so the paired test runs
    gold = Corpus([Document(str(k), (make_annotation("LOC", 0, 5),), "Paris is big.") for k in range(4)])
    one = records_corpus([{"id": str(k), "entities": [{"text": "Paris", "label": "LOC"}]} for k in range(4)])
    two = records_corpus([{"id": str(k), "entities": [{"text": "Rome", "label": "LOC"}]} for k in range(4)])
    results = {"one": accord.score(gold, one), "two": accord.score(gold, two)}
    assert results["two"].options["alignment"]["unaligned"] == 4
    comparison = accord.compare(results, samples=100, seed=1)
    assert comparison is not None


def test_the_alignment_is_in_the_json_the_contract_allows():
    from tests.result.contract import checked

    result = accord.score(_gold(TEXT, ("LOC", 0, 5)), _pred(("Paris", "LOC"), ("Berlin", "LOC")))
    out = checked(result.to_json())
    assert out["options"]["align"] == "exact"
    assert (out["options"]["alignment"]["exact"], out["options"]["alignment"]["unaligned"]) == (1, 1)


def test_a_label_match_outweighs_any_overlap():
    # "x" at 0 is a gold A span; "x" at 4 lies inside the gold A span "x z". Predictions B and A of "x": giving A
    # the gold span (1 strict match) must win over giving B the gold span and A the overlap (0 strict matches),
    # which a sum of plain weights (4 + 1 against 3 + 2) ties
    gold = _gold("x y x z", ("A", 0, 1), ("A", 4, 7))
    for order in ((("x", "B"), ("x", "A")), (("x", "A"), ("x", "B"))):
        aligned, _ = align_records(gold, _pred(*order))
        assert sorted(_placed(aligned)) == [("A", 0, 1), ("B", 4, 5)]


def test_units_are_refused_for_generated_records():
    # before: "document 'd' has neither text nor tokens" for the predicted side, after the strings were aligned
    with pytest.raises(OptionError, match="generated records have none"):
        accord.score(_gold(TEXT, ("LOC", 0, 5)), _pred(("Paris", "LOC")), units=["token"])


def test_a_string_goes_to_a_free_occurrence_rather_than_inside_a_placed_prediction():
    """Gold: ORG "Arab Contractors" (0, 16) only. The model names "Arab Contractors" and "Contractors", each ORG.
    "Contractors" occurs at (5, 16), inside the placed "Arab Contractors" (and overlapping the gold ORG), and at
    (22, 33), free. A model's flat output does not overlap itself: it goes to (22, 33), a spurious prediction; inside
    the other it would have been one too, but on top of a matched one (and the spans a page draws would overlap)."""
    text = "Arab Contractors beat Contractors United."
    gold = _gold(text, ("ORG", 0, 16))
    pred = records_corpus([{"id": "d", "entities": [{"text": "Contractors", "label": "ORG"},
                                                    {"text": "Arab Contractors", "label": "ORG"}]}])
    placed, summary = align_records(gold, pred)
    assert sorted((a.start, a.end) for a in placed["d"].annotations) == [(0, 16), (22, 33)]
    assert summary["exact"] == 2 and summary["unaligned"] == 0
    # with no free occurrence left, it still goes inside: placed, never dropped
    pred = records_corpus([{"id": "d", "entities": [{"text": "Contractors", "label": "ORG"}] * 2
                            + [{"text": "Arab Contractors", "label": "ORG"}]}])
    placed, _ = align_records(gold, pred)
    assert sorted((a.start, a.end) for a in placed["d"].annotations) == [(0, 16), (5, 16), (22, 33)]
