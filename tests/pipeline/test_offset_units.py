"""A side counting tokens against a side counting characters (accord.pipeline._offset_units): hand counts.

Before the fix the two sides' offsets were compared as numbers of one unit: the example of issue 33 (brat's
``John lives in New York`` against the CoNLL tokens of the same words) scored 0 of 2 with exit status 0.
"""

from __future__ import annotations

import json
import time
import warnings

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.errors import PairingError
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.pipeline._offset_units import OffsetUnitsWarning, place_tokens, tokens_to_chars, unify_units

TEXT = "John lives in New York"
ANN = "T1\tPER 0 4\tJohn\nT2\tLOC 14 22\tNew York\n"
CONLL = "John B-PER\nlives O\nin O\nNew B-LOC\nYork I-LOC\n"


@pytest.fixture()
def issue_example(tmp_path, monkeypatch):
    """The example of issue 33, item 1: a brat folder ``b`` and a CoNLL file ``p.conll`` of the same words."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "1.txt").write_text(TEXT, encoding="utf-8")
    (tmp_path / "b" / "1.ann").write_text(ANN, encoding="utf-8")
    (tmp_path / "p.conll").write_text(CONLL, encoding="utf-8")
    return tmp_path


def test_issue_example_scores_two_of_two(issue_example):
    with pytest.warns(OffsetUnitsWarning, match=r"predicted side \(p.conll\) counts tokens and the gold side"):
        r = accord.score("b", "p.conll")
    t = r.totals
    assert (t.gold, t.pred, t.match, t.missing, t.spurious) == (2, 2, 2, 0, 0)
    with pytest.warns(OffsetUnitsWarning):    # the other way round: the gold side is placed on the text
        r = accord.score("p.conll", "b")
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (2, 0, 0)


def test_issue_example_cli_warns_in_one_line(issue_example, capsys):
    assert main(["score", "b", "p.conll", "--output", "json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["totals"]["match"] == 2
    lines = [x for x in err.splitlines() if x.startswith("accord: warning:")]
    assert len(lines) == 1 and "placed on the gold text" in lines[0] and "characters" in lines[0]


# every command that takes two sides: the same two documents agree perfectly
COMMANDS = [
    ["score", "b", "p.conll"],
    ["score", "p.conll", "b"],
    ["score", "b", "p.conll", "--match", "clueval"],
    ["score", "b", "p.conll", "--match", "semeval"],
    ["score", "b", "p.conll", "--profile", "lenient"],
    ["score", "b", "p.conll", "--profile", "mat"],
    ["qa", "b", "p.conll"],
    ["diff", "p.conll", "b"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda a: " ".join(a))
def test_every_two_sided_command_is_perfect(issue_example, capsys, argv):
    assert main(argv + ["--output", "json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    text = json.dumps(out)
    assert '"f1": 1.0' in text and '"f1": 0.0' not in text


def test_errors_lists_nothing_wrong(issue_example, capsys):
    assert main(["errors", "b", "p.conll"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1    # the header only: no missing, spurious or wrong item


def test_benchmark_agree_compare_report_adjudicate(issue_example, capsys):
    (issue_example / "q.conll").write_text(CONLL, encoding="utf-8")
    assert main(["benchmark", "b", "p.conll", "b", "--output", "json"]) == 0
    bench = json.loads(capsys.readouterr().out)
    assert '"f1": 0.0' not in json.dumps(bench) and '"f1": 1.0' in json.dumps(bench)
    assert main(["agree", "b", "p.conll", "--output", "json"]) == 0
    agree = json.loads(capsys.readouterr().out)["totals"]
    assert agree["items"] == 2 and agree["coefficients"]["observed_agreement"] == 1.0
    # one document of one sentence: nothing to resample (issue 34), so compare refuses and the report has no
    # intervals; with two documents both compare the systems on the characters
    assert main(["compare", "b", "p.conll", "q.conll", "--output", "json"]) == 2
    assert "a paired test needs two or more documents" in capsys.readouterr().err   # brat: no sentences
    assert main(["report", "b", "p.conll", "-o", "r.html"]) == 0
    assert "accord: warning: the report has no intervals: a bootstrap interval needs two or more documents" in \
        capsys.readouterr().err
    assert main(["adjudicate", "p.conll", "b", "-o", "adj.jsonl"]) == 0
    (issue_example / "b" / "2.txt").write_text(TEXT, encoding="utf-8")
    (issue_example / "b" / "2.ann").write_text(ANN, encoding="utf-8")
    two = "-DOCSTART- O\n\n" + CONLL.strip("\n") + "\n\n-DOCSTART- O\n\n" + CONLL.strip("\n") + "\n"
    (issue_example / "p2.conll").write_text(two, encoding="utf-8")
    (issue_example / "q2.conll").write_text(two, encoding="utf-8")
    assert main(["compare", "b", "p2.conll", "q2.conll", "--output", "json"]) == 0
    compared = json.dumps(json.loads(capsys.readouterr().out))
    assert '"a_value": 1.0' in compared and '"b_value": 1.0' in compared
    adjudicated = json.loads((issue_example / "adj.jsonl").read_text(encoding="utf-8"))
    spans = sorted((a["label"], a["start"], a["end"]) for a in adjudicated["annotations"])
    assert spans == [("LOC", 14, 22), ("PER", 0, 4)]


def test_agreement_of_annotation_sets_in_two_units():
    text = Document("d", (A("PER", 0, 4), A("LOC", 14, 22)), text=TEXT)
    tokens = Document("d", (A("PER", 0, 1), A("LOC", 3, 5)), tokens=tuple(TEXT.split()))
    with pytest.warns(OffsetUnitsWarning):
        result = accord.agree([Corpus([text], name="chars"), Corpus([tokens], name="tokens")])
    assert result.ratings["d"].n_items == 2     # 'John' and 'New York': two items, not four
    totals = result.to_dict()["totals"]
    assert totals["items"] == 2 and totals["coefficients"]["observed_agreement"] == 1.0


# -- tokens placed on a text: hand counts


def test_place_tokens_hand_counts():
    starts, ends = place_tokens(["York", "."], "York.")
    assert starts.tolist() == [0, 4] and ends.tolist() == [4, 5]
    starts, ends = place_tokens(["a", "b", "c"], "  a  b\nc ")
    assert starts.tolist() == [2, 5, 7] and ends.tolist() == [3, 6, 8]
    starts, ends = place_tokens(["New York", "!"], "New  York!")     # whitespace inside a token skipped
    assert starts.tolist() == [0, 9] and ends.tolist() == [9, 10]
    starts, ends = place_tokens(["東京", "&amp;"], "東京&amp;")
    assert starts.tolist() == [0, 2] and ends.tolist() == [2, 7]
    assert place_tokens(["a", "x", "c"], "a b c") == (1, 2)      # token 1 'x' where the text has 'b'
    assert place_tokens(["a", "b"], "a b c") == (2, 4)           # the text goes on after the last token
    assert place_tokens(["a", "b", "c"], "a b") == (2, 3)        # a token past the end of the text


def test_punctuation_attached_in_the_text():
    # "York." in the text, "York" "." as tokens: the tokens are found; a character span that ends after the
    # full stop keeps its boundary (never moved to a token boundary): strict 1 of 2, lenient 2 of 2
    text = "I love New York."
    gold = Document("d", (A("LOC", 7, 15), A("LOC", 2, 16)), text=text)      # 'New York', 'love New York.'
    pred = Document("d", (A("LOC", 2, 4), A("LOC", 1, 5)), tokens=("I", "love", "New", "York", "."))
    with pytest.warns(OffsetUnitsWarning):
        r = accord.score(Corpus([gold]), Corpus([pred]))
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (2, 0, 0)
    pred2 = Document("d", (A("LOC", 2, 4), A("LOC", 1, 4)), tokens=("I", "love", "New", "York", "."))
    with pytest.warns(OffsetUnitsWarning):
        r = accord.score(Corpus([gold]), Corpus([pred2]))
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 1, 1)   # 'love New York' lacks '.'


def test_text_without_the_tokens_is_an_error_naming_document_and_place(issue_example, capsys):
    (issue_example / "b" / "1.txt").write_text("John lives in Old York", encoding="utf-8")
    (issue_example / "b" / "1.ann").write_text(ANN.replace("New", "Old"), encoding="utf-8")
    with pytest.raises(PairingError, match=r"document '1'.*token 3 'New' where the text has 'Old York' "
                                           r"\(character 14, line 1\).*accord convert"):
        accord.score("b", "p.conll")
    assert main(["score", "b", "p.conll"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("accord: error: document '1'")


def test_tags_without_tokens_against_a_text():
    text = Corpus([Document("1", (A("PER", 0, 4),), text=TEXT)])
    with pytest.raises(PairingError, match="tags without their tokens"):
        accord.score(text, [["B-PER", "O", "O", "B-LOC", "I-LOC"]])


def test_relations_fragments_and_sentences_follow_the_tokens():
    a1, a2 = A("PER", 0, 1), A("LOC", 3, 5)
    rel = A("lives_in", attributes={"arg1": a1, "arg2": a2})
    frag = A("X", fragments=[(0, 1), (3, 4)])
    doc = Document("d", (a1, a2, rel, frag), tokens=tuple(TEXT.split()), sentences=((0, 5),))
    out = tokens_to_chars(doc, TEXT)
    b1, b2, brel, bfrag = out.annotations
    assert (b1.start, b1.end, b2.start, b2.end) == (0, 4, 14, 22)
    assert brel.get("arg1") is b1 and brel.get("arg2") is b2
    assert bfrag.fragments == ((0, 4), (14, 17)) and (bfrag.start, bfrag.end) == (0, 17)
    assert out.sentences == ((0, 22),) and out.text == TEXT and out.unit == "char"


def test_nothing_changes_when_units_agree():
    g = Corpus([Document("d", (A("PER", 0, 4),), text=TEXT)])
    p = Corpus([Document("d", (A("PER", 0, 4),), text=TEXT)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = unify_units([g, p])
    assert out[0] is g and out[1] is p


def test_mat_units_count_right_after_placing(issue_example):
    # by token: PER 1 token, LOC 2 tokens (5 test tokens); by character: PER 4, LOC 8 ('New York'), 22 test
    # characters; by pseudo-token: the same as tokens here. Counted on the CoNLL file against itself.
    with pytest.warns(OffsetUnitsWarning):
        r = accord.score("b", "p.conll", units=("token", "character", "pseudo-token"))
    same = accord.score("p.conll", "p.conll", units=("token", "character", "pseudo-token"))
    for unit, per, loc, test in (("token", 1, 2, 5), ("character", 4, 8, 22), ("pseudo-token", 1, 2, 5)):
        scores = r.units[unit]
        assert scores.skipped is None, scores.skipped
        assert scores.test_size() == test
        assert scores.counts("PER").match == per and scores.counts("LOC").match == loc
        assert scores.counts().missing == scores.counts().spurious == 0
        assert same.units[unit].test_size() == test
        assert same.units[unit].counts("LOC").match == loc


@pytest.mark.timing
def test_a_million_tokens_are_placed_fast():
    words = ["Peter", "Blackburn", "rejects", "German", "call", "York", "."] * 150_000
    text = " ".join(words).replace(" .", ".")     # punctuation attached: not the fast path of joined tokens
    t0 = time.perf_counter()
    starts, ends = place_tokens(words, text)
    elapsed = time.perf_counter() - t0
    assert len(starts) == len(words) and text[starts[-2]:ends[-1]] == "York."
    assert elapsed < 10.0, elapsed     # about 0.3 s on an idle core; a search per token would take minutes
    assert np.all(ends[:-1] <= starts[1:])


def test_coref_of_characters_against_tokens_is_refused(tmp_path, capsys):
    # brat's mentions are characters, CoNLL-2012's tokens: before, 'John' (0-3) and 'him' (9-11) against tokens 0
    # and 2 scored 0.00 (with --allow-missing empty) without a word
    (tmp_path / "k.txt").write_text("John saw him there", encoding="utf-8")
    (tmp_path / "k.ann").write_text("T1\tPER 0 4\tJohn\nT2\tPER 9 12\thim\n*\tCoreference T1 T2\n", encoding="utf-8")
    (tmp_path / "r.conll").write_text("#begin document (k);\n" + "".join(
        f"k 0 {i} {w} _ _ _ _ _ _ _ {c}\n" for i, (w, c) in enumerate(
            [("John", "(1)"), ("saw", "-"), ("him", "(1)"), ("there", "-")])) + "#end document\n", encoding="utf-8")
    assert main(["coref", str(tmp_path / "k.ann"), str(tmp_path / "r.conll"), "--allow-missing", "empty"]) == 2
    err = capsys.readouterr().err
    assert "counts mentions in characters" in err and "in tokens" in err and err.count("\n") == 1
    assert main(["coref", str(tmp_path / "r.conll"), str(tmp_path / "r.conll")]) == 0


def test_adjudicated_token_key_is_written_in_its_own_tokens(tmp_path, monkeypatch):
    # the key's tokens 'York' '.' placed on the response's 'York.': written back as CoNLL, the key keeps them
    monkeypatch.chdir(tmp_path)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "1.txt").write_text("I love New York.", encoding="utf-8")
    (tmp_path / "b" / "1.ann").write_text("T1\tLOC 7 15\tNew York\n", encoding="utf-8")
    (tmp_path / "k.conll").write_text("I O\nlove O\nNew B-LOC\nYork I-LOC\n. O\n", encoding="utf-8")
    assert main(["adjudicate", "k.conll", "b", "-o", "out.conll"]) == 0
    lines = (tmp_path / "out.conll").read_text(encoding="utf-8").split()
    assert lines == ["I", "O", "love", "O", "New", "B-LOC", "York", "I-LOC", ".", "O"]


def test_sharded_run_places_tokens_as_one_process_does(tmp_path, capsys):
    # three documents, gold MAT JSON and predicted CoNLL files, scored in shards of one file: the same counts as
    # in one process (2 of 2 per document) and one warning line, not one per shard
    from accord.formats import write

    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    for k in range(1, 4):
        write(Corpus([Document(str(k), (A("PER", 0, 4), A("LOC", 14, 22)), text=TEXT)]), tmp_path / "g" / f"{k}.json",
              "mat-json")
        (tmp_path / "p" / f"{k}.conll").write_text(CONLL, encoding="utf-8")
    argv = ["score", str(tmp_path / "g"), str(tmp_path / "p"), "--output", "json"]
    assert main(argv) == 0
    serial = capsys.readouterr()
    assert main(argv + ["--jobs", "2", "--shard-size", "100"]) == 0
    sharded = capsys.readouterr()
    assert json.loads(serial.out)["totals"]["match"] == 6
    assert json.loads(sharded.out)["totals"] == json.loads(serial.out)["totals"]
    assert [x for x in sharded.err.splitlines() if "counts tokens" in x] == \
        [x for x in serial.err.splitlines() if "counts tokens" in x]
    assert len([x for x in serial.err.splitlines() if "counts tokens" in x]) == 1


def test_mat_csv_tables_after_placing_equal_those_of_one_unit(issue_example):
    # MATScore's bytag, bytoken and bychar tables of brat against CoNLL equal those of the CoNLL file against itself
    # (test toks 5, test chars 22: the text is the tokens joined by spaces), the file column aside
    assert main(["score", "b", "p.conll", "--by-token", "--by-character", "--mat-csv", "mixed"]) == 0
    assert main(["score", "p.conll", "p.conll", "--by-token", "--by-character", "--mat-csv", "one"]) == 0
    for table in ("bytag_excel.csv", "bytoken_excel.csv", "bychar_excel.csv"):
        mixed = (issue_example / "mixed" / table).read_text(encoding="utf-8").splitlines()
        one = (issue_example / "one" / table).read_text(encoding="utf-8").splitlines()
        assert [r.split(",")[3:] for r in mixed] == [r.split(",")[3:] for r in one], table
        assert mixed[1].split(",")[5] == {"bychar_excel.csv": "22"}.get(table, "5")
