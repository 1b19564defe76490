"""accord's alignment of generated strings (accord.pipeline._align) beside langextract's (google/langextract's
``WordAligner``, the peer that places a model's extraction strings on character offsets), on the same strings and
texts: where both place a string, the offsets are the same; where they differ, each difference falls in one of the
categories documented in docs/jobs/llm.md ("accord and langextract"), counted here on hand cases and on the XLM-R
FLERT spans of CoNLL-2003 written as strings."""

from __future__ import annotations

import json
import warnings
from collections import Counter
from pathlib import Path

import pytest

import accord
from accord.formats import read
from accord.formats.convert import for_format
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._align import _Text, align_records

langextract = pytest.importorskip("langextract", reason="langextract (the test extra) is not installed")
from langextract import data, resolver  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / ".."
CONLL = SHARED / "shared" / "data" / "conll03"
RECORDS = SHARED / "shared" / "corpora" / "generated" / "records_exact.jsonl"

Span = tuple[int, int] | None


def _theirs(text: str, items: list[tuple[str, str]], fuzzy: bool = False) -> list[Span]:
    """langextract's places of ``(string, label)`` in ``text`` (its defaults: order-preserving exact matching, then,
    with ``fuzzy``, its token-level fuzzy matching and partial matches)."""
    extractions = [data.Extraction(label, s) for s, label in items]
    if not extractions:
        return []
    (out,) = resolver.WordAligner().align_extractions([extractions], text, enable_fuzzy_alignment=fuzzy,
                                                        accept_match_lesser=fuzzy)
    return [None if x.char_interval is None else (x.char_interval.start_pos, x.char_interval.end_pos) for x in out]


def _ours(gold: Document, items: list[tuple[str, str]], fuzzy: bool = False) -> list[Span]:
    """accord's places (a text document: character offsets); ``None`` for a string left unaligned."""
    pred = records_corpus([{"id": gold.id, "entities": [{"text": s, "label": lab} for s, lab in items]}])
    aligned, _ = align_records(Corpus([gold]), pred, "fuzzy" if fuzzy else "exact", 0.8 if fuzzy else None)
    assert gold.text is not None
    return [(a.start, a.end) if a.end is not None and a.end <= len(gold.text) else None
            for a in aligned[gold.id].annotations]


def _both(text: str, strings: list[str], gold: tuple[tuple[str, int, int], ...] = (),
          fuzzy: bool = False) -> list[tuple[Span, Span]]:
    doc = Document("d", tuple(make_annotation(lab, a, b) for lab, a, b in gold), text)
    items = [(s, "X") for s in strings]
    return list(zip(_ours(doc, items, fuzzy), _theirs(text, items, fuzzy)))


TEXT = "Paris is in France. Paris Hilton visited Paris."
#       0         1         2         3         4
#       01234567890123456789012345678901234567890123456


def test_where_both_align_a_string_they_give_the_same_offsets():
    cases = [("Paris is in France. Paris Hilton visited Paris.", ["Paris", "France", "Paris Hilton"]),
             ("The U.S. team won in Zürich.", ["U.S.", "team", "Zürich"]),
             ("Maria works for Aurora Air.", ["works for", "Aurora Air"]),
             ("Dr. Smith's e-mail", ["Smith's", "mail"])]
    both = 0
    for text, strings in cases:
        for ours, theirs in _both(text, strings):
            assert ours == theirs, (text, strings)
            both += ours is not None
    assert both == 10


def test_the_categories_of_difference_by_hand():
    # 1. list order: langextract keeps the extractions in the order they are listed (each after the previous one's
    # place); accord places each string whatever the order, by the gold spans, then the text order
    assert _both(TEXT, ["Paris Hilton", "Paris", "France"]) == [((20, 32), (20, 32)), ((0, 5), (41, 46)),
                                                                ((12, 18), None)]
    # 2. gold spans: of a repeated string, accord takes the occurrence that is a gold span of its label,
    # langextract the first one in order
    assert _both(TEXT, ["Paris"], gold=(("X", 41, 46),)) == [((41, 46), (0, 5))]
    # 3. case: langextract compares tokens in lower case; accord's exact alignment is exact
    assert _both(TEXT, ["paris"]) == [(None, (0, 5))]
    # 4. inside a word: a string with no occurrence on word boundaries is placed by accord where it occurs inside a
    # word (for texts without spaces); langextract matches whole tokens only
    assert _both("AirAsia flies", ["Air"]) == [((0, 3), None)]
    assert _both("東京都に住む", ["東京"]) == [((0, 2), None)]
    # 5. overlap: langextract's successive matches do not share a token; accord places a string inside another
    # one's place only when it has no free occurrence (longer strings placed first): "New York" has none left
    assert _both("New York-based firms", ["New York", "York-based"]) == [((0, 8), None), ((4, 14), (4, 14))]
    # ... while the second "Paris" goes to the free one at the end, not inside "Paris Hilton" (as langextract)
    assert _both(TEXT, ["Paris", "Paris Hilton", "Paris"]) == [((0, 5), (0, 5)), ((20, 32), (20, 32)),
                                                               ((41, 46), (41, 46))]
    # 6. fuzzy, partial: langextract accepts a prefix of the string that is in the text (MATCH_LESSER); accord's
    # fuzzy placement needs the whole string similar to a window of words
    assert _both("Maria works for Aurora Air.", ["Aurora Air Lines"], fuzzy=True) == [(None, (16, 26))]
    # 7. fuzzy, characters: accord compares characters (rapidfuzz's ratio, here at least 0.8), langextract whole
    # tokens: a misspelt token never matches (langextract places the part it finds, "Aurora", accord the whole
    # similar window, "Aurora Air")
    assert _both("Maria works for Aurora Air.", ["Aurora Ari", "Mariaa"], fuzzy=True) == [((16, 26), (16, 22)),
                                                                                         ((0, 5), None)]


def _need(path: Path) -> None:
    if not path.exists():
        pytest.skip(f"{path} is absent")


def test_the_conll03_system_written_as_strings():
    _need(CONLL / "gold.conll")
    _need(RECORDS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # the system file's invalid IOB2 transitions, read as conlleval does
        gold = for_format(read(CONLL / "gold.conll"), "brat")          # the tokens joined: a text
        system = for_format(read(CONLL / "xlm_flert.conll"), "brat")
    records = [json.loads(line) for line in RECORDS.read_text(encoding="utf-8").splitlines() if line.strip()]
    kinds: Counter[str] = Counter()
    strict = Counter()
    recovered = Counter()
    for r in records:
        doc = gold[r["id"]]
        assert doc.text is not None
        items = [(e["text"], e["label"]) for e in r["entities"]]
        ours, theirs = _ours(doc, items), _theirs(doc.text, items)
        text = _Text(doc)
        for (s, label), a, b in zip(items, ours, theirs):
            if a == b:
                kinds["same" if a is not None else "neither"] += 1
                continue
            if a is None or b is None:
                kinds["only accord" if b is None else "only langextract"] += 1
                continue
            # both placed, elsewhere: always the same string at another occurrence
            assert doc.text[a[0]:a[1]] == doc.text[b[0]:b[1]] == s
            wa, wb = text.weight(label, a), text.weight(label, b)
            kinds["accord's agrees better with the gold" if wa > wb else "langextract's agrees better with the gold"
                  if wb > wa else "as good: text order against list order"] += 1
        spans = Counter((a.label, a.start, a.end) for a in doc.annotations)
        own = Counter((a.label, a.start, a.end) for a in system[r["id"]].annotations)
        for who, places in (("accord", ours), ("langextract", theirs)):
            placed = Counter((lab, p[0], p[1]) for (_, lab), p in zip(items, places) if p is not None)
            strict[who] += sum((placed & spans).values())
            recovered[who] += sum((placed & own).values())
    assert kinds == {"same": 5721, "as good: text order against list order": 22,
                     "accord's agrees better with the gold": 4, "langextract's agrees better with the gold": 2}
    # accord's places are the best reading of the strings (5,342 strict matches); langextract's, following the
    # order the system listed its spans in, give the score of the system's own offsets (5,339), counted by accord
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        offsets = accord.score(CONLL / "gold.conll", CONLL / "xlm_flert.conll").to_dict()["totals"]["match"]
    assert (strict["accord"], strict["langextract"], offsets) == (5342, 5339, 5339)
    # of the 5,749 spans the system gave, the places langextract finds are the system's own for 5,747, accord's for
    # 5,730 (5,714 when a string could be placed inside another prediction's place: 16 more of the system's own)
    assert (recovered["accord"], recovered["langextract"]) == (5730, 5747)
