"""Generated records aligned to the gold text, on generated documents of few words (so strings repeat): the strict
matches equal an independent multiset count, and the command line ends every records file, well formed or not, in a
result or a one-line error."""

from __future__ import annotations

import json
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=500 if FULL else 60)

WORDS = ("a", "b", "ab", "c", "é", "a.")


@st.composite
def documents(draw):
    tokens = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=10))
    extents = draw(st.sets(st.tuples(st.integers(0, len(tokens) - 1), st.integers(1, 3)), max_size=6))
    gold = {(a, min(a + n, len(tokens))): draw(st.sampled_from("XY")) for a, n in extents}
    strings = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            a = draw(st.integers(0, len(tokens) - 1))
            text = " ".join(tokens[a:a + draw(st.integers(1, 3))])
        else:
            text = draw(st.sampled_from(("zz", "a b c d e", "b é")))
        strings.append((text, draw(st.sampled_from("XY"))))
    return tokens, gold, strings


@_EXAMPLES
@given(st.lists(documents(), min_size=1, max_size=3))
def test_strict_matches_are_the_multiset_count(docs):
    golds, preds, expected = [], [], 0
    for k, (tokens, gold, strings) in enumerate(docs):
        golds.append(Document(str(k), tuple(make_annotation(lab, a, b) for (a, b), lab in gold.items()),
                              tokens=tuple(tokens), sentences=((0, len(tokens)),)))
        preds.append({"id": str(k), "entities": [{"text": t, "label": lab} for t, lab in strings]})
        g = Counter((" ".join(tokens[a:b]), lab) for (a, b), lab in gold.items())
        expected += sum(min(n, g[key]) for key, n in Counter(strings).items())
    totals = accord.score(Corpus(golds), records_corpus(preds)).to_dict()["totals"]
    assert totals["match"] == expected
    assert totals["pred"] == sum(len(s) for _, _, s in docs)


_VALUES = st.one_of(st.none(), st.integers(-2, 2), st.text(max_size=4), st.lists(st.text(max_size=3), max_size=2),
                    st.dictionaries(st.sampled_from(("text", "label", "head", "tail", "x")), st.text(max_size=4),
                                    max_size=3))


@_EXAMPLES
@given(st.lists(st.one_of(
    st.dictionaries(st.sampled_from(("id", "entities", "relations", "text", "other")),
                    st.one_of(_VALUES, st.lists(_VALUES, max_size=3)), max_size=4),
    st.fixed_dictionaries({"id": st.sampled_from(("1", "2", 3)),
                           "entities": st.lists(st.fixed_dictionaries({"text": st.text(max_size=6),
                                                                       "label": st.sampled_from(("LOC", "", 1))}),
                                                max_size=4)})), min_size=1, max_size=4),
       st.sampled_from(("exact", "fuzzy")))
def test_the_command_ends_every_records_file_in_a_result_or_one_error(tmp_path_factory, lines, align):
    folder = tmp_path_factory.mktemp("records")
    gold = folder / "gold.conll"
    gold.write_text("-DOCSTART- O\n\nJohn B-PER\nin O\nParis B-LOC\n\n-DOCSTART- O\n\nParis B-LOC\n", encoding="utf-8")
    pred = folder / "pred.jsonl"
    pred.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    run(["score", str(gold), str(pred), "--pred-format", "records", "--align", align, "--allow-missing", "empty"])
