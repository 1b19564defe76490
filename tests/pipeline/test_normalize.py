"""Scoring generated strings without alignment (``align="none"``, accord.pipeline._normalize and
accord.pipeline._multisets.multisets): hand counts, and the noisy CoNLL-2003 output against an independent multiset
count under each normaliser."""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from pathlib import Path

import pytest

import accord
from accord.errors import OptionError
from accord.formats import read
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.pipeline._normalize import normalizer

GENERATED = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "generated"
CONLL = Path(__file__).resolve().parents[2] / ".." / "shared" / "data" / "conll03"


def test_each_normaliser_by_hand():
    assert normalizer("lower")("New York ") == "new york"
    assert normalizer("whitespace")("New \u00a0 York") == "New York"
    assert normalizer("nfkc")("ﬁle Gene\u0300ve") == "file Genève"
    assert normalizer("strip-punctuation")("U.S.-based (Inc.)") == "USbased Inc"
    assert normalizer("articles,whitespace")("The United Arab Emirates") == "United Arab Emirates"
    assert normalizer("digits")("Route 66, 1996") == "Route 00, 0000"
    assert normalizer(["whitespace", "lower"])("  A   B ") == "a b"      # the order is fixed, the names any order
    with pytest.raises(OptionError, match="unknown normaliser 'upper'"):
        normalizer("upper")


def _gold() -> Corpus:
    text = "The Paris Agreement was signed in Paris, not in PARIS."
    spans = (("MISC", 0, 19), ("LOC", 34, 39), ("LOC", 48, 53))
    return Corpus([Document("d", tuple(make_annotation(*s) for s in spans), text)])


def test_multisets_by_hand():
    pred = records_corpus([{"id": "d", "entities": [
        {"text": "paris", "label": "LOC"}, {"text": "Paris", "label": "LOC"}, {"text": "Paris", "label": "ORG"},
        {"text": "Paris Agreement", "label": "MISC"}, {"text": "Geneva", "label": "LOC"}]}])
    # as given: gold {The Paris Agreement/MISC, Paris/LOC, PARIS/LOC}; only Paris/LOC matches (1 of 5)
    totals = accord.score(_gold(), pred, align="none").to_dict()["totals"]
    assert (totals["gold"], totals["pred"], totals["match"]) == (3, 5, 1)
    # lower + articles: gold {paris agreement/MISC, paris/LOC x2}; pred paris/LOC x2 and paris agreement/MISC match
    result = accord.score(_gold(), pred, align="none", normalize=["lower", "articles", "whitespace"])
    totals = result.to_dict()["totals"]
    assert (totals["gold"], totals["pred"], totals["match"]) == (3, 5, 3)
    assert result.options["alignment"]["normalize"] == ["lower", "articles", "whitespace"]
    # the label error on the same string shares its span: the SemEval "exact" schema (boundaries only) counts it
    wrong_label = records_corpus([{"id": "d", "entities": [{"text": "Paris", "label": "ORG"}]}])
    measures = accord.score(_gold(), wrong_label, align="none", match="semeval").to_dict()["measures"]
    assert measures["exact"]["totals"]["correct"] == 1 and measures["strict"]["totals"]["incorrect"] == 1


def test_options_of_align_none_are_checked():
    pred = records_corpus([{"id": "d", "entities": [{"text": "Paris", "label": "LOC"}]}])
    with pytest.raises(OptionError, match="applies with align='none'"):
        accord.score(_gold(), pred, normalize="lower")
    with pytest.raises(OptionError, match="applies with align='fuzzy'"):
        accord.score(_gold(), pred, align="none", align_threshold=0.5)


def _own(names: tuple[str, ...]):
    """The normalisers written again, independently, for the count below."""
    def apply(s: str) -> str:
        if "nfkc" in names:
            s = unicodedata.normalize("NFKC", s)
        if "lower" in names:
            s = s.lower()
        if "strip-punctuation" in names:
            s = "".join(c for c in s if not unicodedata.category(c).startswith("P"))
        if "articles" in names:
            s = " ".join(w for w in s.split(" ") if w.lower() not in ("a", "an", "the"))
        if "whitespace" in names:
            s = " ".join(s.split())
        return s.strip()
    return apply


@pytest.mark.parametrize("names", [(), ("lower",), ("lower", "whitespace", "nfkc"),
                                   ("lower", "whitespace", "strip-punctuation", "articles")])
def test_noisy_output_against_an_independent_multiset_count(names):
    if not (GENERATED / "records_noisy.jsonl").exists() or not (CONLL / "gold.conll").exists():
        pytest.skip("../shared/corpora/generated or ../shared/data/conll03 is absent")
    gold = read(CONLL / "gold.conll")
    norm = _own(names)
    expected = 0
    for line in (GENERATED / "records_noisy.jsonl").read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        doc = gold[obj["id"]]
        g = Counter((norm(" ".join(doc.tokens[a.start:a.end])), a.label) for a in doc.annotations)
        p = Counter((norm(e["text"]), e["label"]) for e in obj["entities"])
        expected += sum(min(n, g[k]) for k, n in p.items())
    result = accord.score(CONLL / "gold.conll", GENERATED / "records_noisy.jsonl", align="none",
                          normalize=list(names))
    totals = result.to_dict()["totals"]
    assert (totals["gold"], totals["pred"]) == (5648, 5224)
    assert totals["match"] == expected
