"""What the alignment summary (``result.options["alignment"]``) tells a reader of the report: where a fuzzily
aligned string was placed and the text there, and where a document's unaligned predictions stand."""

from __future__ import annotations

import pytest

from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._align import align_records


def _records(*entities: tuple[str, str]) -> Corpus:
    return records_corpus([{"id": "d", "entities": [{"text": t, "label": lab} for t, lab in entities]}])


def test_a_fuzzy_string_is_listed_with_the_text_it_was_placed_on():
    pytest.importorskip("rapidfuzz")
    text = "Paris is in France. Paris Hilton visited Paris."
    gold = Corpus([Document("d", (make_annotation("LOC", 12, 18),), text)])
    _, summary = align_records(gold, _records(("Frannce", "LOC")), "fuzzy", 0.8)
    (item,) = summary["fuzzy_listed"]
    # by hand: the window "France." without its full stop, characters 12 to 18
    assert item["placed"] == [12, 18] and item["placed_text"] == "France" == text[12:18]


def test_a_fuzzy_string_on_a_token_file_is_placed_in_tokens_with_their_text():
    pytest.importorskip("rapidfuzz")
    gold = Corpus([Document("d", (make_annotation("ORG", 2, 4),), tokens=("He", "joined", "Aurora", "Air", "."))])
    _, summary = align_records(gold, _records(("Aurora Airr", "ORG")), "fuzzy", 0.8)
    (item,) = summary["fuzzy_listed"]
    assert item["placed"] == [2, 4] and item["placed_text"] == "Aurora Air"     # tokens 2 and 3


def test_unaligned_predictions_stand_past_the_end_in_the_order_listed():
    gold = Corpus([Document("d", (), "Maria met Lund.")])
    aligned, summary = align_records(gold, _records(("Oslo", "LOC"), ("Maria", "PER"), ("Bergen", "LOC")))
    past = sorted((a.start, a.label) for a in aligned["d"].annotations if a.start >= len("Maria met Lund."))
    assert [u["text"] for u in summary["unaligned_listed"]] == ["Oslo", "Bergen"]
    assert [label for _, label in past] == ["LOC", "LOC"] and past[0][0] < past[1][0]
