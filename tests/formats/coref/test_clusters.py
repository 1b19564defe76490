"""CoNLL-2012 and JSON-lines coreference files: round trips, the chain column, bad input."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.cli import main
from accord.errors import FormatError
from accord.formats.coref._bulk import chains_in_bulk
from accord.formats.coref.clusters import (
    _lines,
    read_coref,
    read_coref_conll,
    read_coref_jsonl,
    write_coref_conll,
    write_coref_jsonl,
)
from accord.structured import coref_scores
from tests.result.contract import checked

from ...conftest import DATA

CASES = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]


def _norm(docs):
    return {d: sorted(sorted(map(tuple, c)) for c in cl) for d, cl in docs.items()}


def test_round_trips(tmp_path):
    docs = {c["id"]: c["key_clusters"] + c["response_clusters"] for c in CASES}
    write_coref_conll(docs, tmp_path / "a.conll")
    assert _norm(read_coref_conll(tmp_path / "a.conll")) == _norm(docs)
    write_coref_jsonl(docs, tmp_path / "a.jsonl")
    assert _norm(read_coref(tmp_path / "a.jsonl")) == _norm(docs)


def test_chain_column_by_hand(tmp_path):
    text = """#begin document (bc/x); part 000
1\tJohn\t(0
2\tSmith\t0)|(1)
-\t-\t-

3\the\t(0)
4\tand\t(2|(0
5\tMary\t0)|2)
#end document
"""
    (tmp_path / "k.conll").write_text(text)
    docs = read_coref_conll(tmp_path / "k.conll")
    assert docs == {"(bc/x); part 000": [[(0, 1), (3, 3), (4, 5)], [(1, 1)], [(4, 5)]]}


@pytest.mark.parametrize("body,message", [
    ("#begin document d\nx\t(0\n#end document\n", "opened on line 2 never closes"),
    ("#begin document d\nx\t0)\n#end document\n", "no mention of it is open"),
    ("#begin document d\nx\t(a)\n#end document\n", "bad coreference chain"),
    ("x\t(0)\n", "outside"),
    ("#begin document d\nx\t(0)\n", "no '#end document'"),
])
def test_bad_conll(tmp_path, body, message):
    (tmp_path / "k.conll").write_text(body)
    with pytest.raises(FormatError, match=message):
        read_coref_conll(tmp_path / "k.conll")


@pytest.mark.parametrize("line,message", [
    ("{", "k.jsonl:1: not valid JSON"),
    ('{"clusters": []}', "string 'id'"),
    ('{"id": "d", "clusters": [[[3, 1]]]}', "cluster 0"),
])
def test_bad_jsonl(tmp_path, line, message):
    (tmp_path / "k.jsonl").write_text(line + "\n")
    with pytest.raises(FormatError, match=message):
        read_coref_jsonl(tmp_path / "k.jsonl")


def test_coref_command_matches_the_api(tmp_path, capsys):
    case = CASES[3]
    write_coref_conll({"d": case["key_clusters"]}, tmp_path / "k.conll")
    write_coref_conll({"d": case["response_clusters"]}, tmp_path / "r.conll")
    assert main(["coref", str(tmp_path / "k.conll"), str(tmp_path / "r.conll"), "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    for metric, exp in case["expected"].items():
        assert out["measures"][metric]["totals"]["f1"] == pytest.approx(exp["f1"], abs=1e-4)
    api = coref_scores({"d": case["key_clusters"]}, {"d": case["response_clusters"]})
    assert out["conll_f1"] == pytest.approx((api["muc"].f1 + api["bcub"].f1 + api["ceafe"].f1) / 3)
    assert main(["coref", str(tmp_path / "k.conll"), str(tmp_path / "r.conll"), "--output", "csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    # each metric and mention identification: the corpus and the one document
    assert [(r["measure"], r["document"]) for r in rows] == [(m, d) for m in ("muc", "bcub", "ceafm", "ceafe", "blanc",
                                                                            "lea", "mentions") for d in ("<all>", "d")]
    assert float(rows[0]["f1"]) == pytest.approx(case["expected"]["muc"]["f1"], abs=1e-4)


def test_smatch_command(tmp_path, capsys):
    (tmp_path / "g.amr").write_text("# ::id 1\n(w / want-01 :ARG0 (b / boy))\n\n(a / dog)\n")
    (tmp_path / "p.amr").write_text("(w / want-01 :ARG0 (b / girl))\n\n(a / dog)\n")
    assert main(["smatch", str(tmp_path / "g.amr"), str(tmp_path / "p.amr"), "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    # pair 1: want, TOP, ARG0 of 4 each; pair 2: dog, TOP of 2 each -> 5 of 6
    assert out["totals"]["match"] == 5 and out["totals"]["f1"] == pytest.approx(5 / 6)
    assert (out["totals"]["gold"], out["totals"]["pred"]) == (6, 6) and list(out["by_document"]) == ["1", "2"]
    (tmp_path / "one.amr").write_text("(a / dog)\n")
    assert main(["smatch", str(tmp_path / "g.amr"), str(tmp_path / "one.amr")]) == 2
    assert "pair in order" in capsys.readouterr().err


def _line_by_line(text):
    """The chains as a plain line-by-line reading finds them (None where the file is faulty): the reference the
    array reader is held to. Entities are listed as the reference scorer numbers them (GetIndex in CorScorer.pm):
    in the order it meets their first one-token mention or opening."""
    import re

    docs, doc, entities, open_, token, first = {}, None, {}, {}, 0, {}
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#begin document"):
            if doc is not None or s[15:].strip() in docs:
                return None
            doc, entities, open_, token, first = s[15:].strip(), {}, {}, 0, {}
        elif s.startswith("#end document"):
            if doc is None or any(open_.values()):
                return None
            docs[doc] = [sorted(entities[ent]) for ent in first]
            doc = None
        elif s and not s.startswith("#"):
            if doc is None:
                return None
            chain = s.split()[-1]
            if chain not in ("-", "_"):
                parts = []
                for piece in chain.split("|"):
                    found = re.findall(r"\((\d+)\)|\((\d+)|(\d+)\)", piece)
                    if not piece or "".join(f"({a})" if a else f"({b}" if b else f"{c})" for a, b, c in found) != piece:
                        return None
                    parts += found
                # the reference scorer's order within a token: one-token mentions, openings, closings
                for single, _, _ in parts:
                    if single:
                        first.setdefault(str(int(single)))
                        entities.setdefault(str(int(single)), []).append((token, token))
                for _, opening, _ in parts:
                    if opening:
                        first.setdefault(str(int(opening)))
                        open_.setdefault(str(int(opening)), []).append(token)
                for _, _, closing in parts:
                    if closing:
                        ent = str(int(closing))
                        if not open_.get(ent):
                            return None
                        entities.setdefault(ent, []).append((open_[ent].pop(), token))
            token += 1
    return None if doc is not None else docs


_BODY = st.sampled_from(["# a comment", "", "   ", "w -", "w _", "w (1)", "w (1", "w 1)", "w (2|1)", "w (1|(2)",
                         "w (1(2", "w 2)1)", "w 1)|(1", "w (1)1)", "w 1)(1", "w ((1", "w (1)(2)",
                         "w x y (3)", "w (x)", "w 2)", "\tw\t(0)\t", "w (1)|", "w (1", "w 1)", "w -"])
_NOISE = st.sampled_from(["#begin document d1", "#end document", "w -", "w (1)", ""])


@st.composite
def _files(draw):
    lines = []
    for name in draw(st.lists(st.sampled_from(["d1", "d2", "d3", "d4"]), max_size=4)):
        lines += [f"#begin document {name}", *draw(st.lists(_BODY, max_size=10)), "#end document"]
    for noise in draw(st.lists(_NOISE, max_size=2)):
        lines.insert(draw(st.integers(0, len(lines))), noise)
    return "\n".join(lines)


@settings(max_examples=400, deadline=None)
@given(_files())
def test_array_reader_equals_a_line_by_line_reading(tmp_path_factory, text):
    path = tmp_path_factory.mktemp("coref") / "f.conll"
    path.write_text(text, encoding="utf-8")
    expected = _line_by_line(text)
    bulk = chains_in_bulk(_lines(text))
    if expected is None:
        assert bulk is None     # a faulty file is left to the line-by-line reading, which names the fault
        with pytest.raises(FormatError):
            read_coref_conll(path)
    else:
        assert read_coref_conll(path) == expected
        assert bulk is None or bulk == expected


def test_bulk_reading_of_nested_and_repeated_mentions():
    """Brackets of one entity nest (innermost closes first); numbers with leading zeros are one entity; documents
    without mentions are kept; an entity number recurs in another document as another entity; entities are listed
    in the order of their first part, a token's one-token mentions before its openings."""
    text = "\n".join(["#begin document a", "w (1|(2)", "w (01", "w 1)", "w 1)|(3)", "w -", "#end document",
                     "# between", "#begin document b", "w _", "#end document",
                     "#begin document c", "w (1)", "w (7", "w 7)", "#end document", ""])
    expected = {"a": [[(0, 0)], [(0, 3), (1, 2)], [(3, 3)]], "b": [], "c": [[(0, 0)], [(1, 2)]]}
    assert chains_in_bulk(_lines(text)) == expected
    assert _line_by_line(text) == expected


REFERENCE_CASES = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]


def _reference_style_file(path, tokens, clusters, closings_first):
    """A CoNLL-2012 file as the reference scorer's test suite writes its cases: one document, the chain column
    last, a token's parts written together without '|' (``(1(3``, ``1)3)``), closings written before openings
    when ``closings_first`` (the reference scorer reads a token's openings first, whatever the order)."""
    singles, opens, closes = ({k: [] for k in range(len(tokens))} for _ in range(3))
    for ent, mentions in enumerate(clusters):
        for start, end in mentions:
            if start == end:
                singles[start].append(f"({ent})")
            else:
                opens[start].append(f"({ent}")
                closes[end].append(f"{ent})")
    lines = ["#begin document (test); part 000"]
    for k, word in enumerate(tokens):
        parts = singles[k] + (closes[k] + opens[k] if closings_first else opens[k] + closes[k])
        lines.append(f"test\t0\t{k}\t{word}\t{''.join(parts) or '-'}")
    path.write_text("\n".join(lines + ["#end document", ""]), encoding="utf-8")


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c["id"] for c in REFERENCE_CASES])
def test_reference_suite_cases_read_from_files(tmp_path, case):
    """Every case of the reference scorer's test suite, as files in its style (TC-A-7/8/9 repeat a mention:
    ``(1(1``, ``(1(3``), reads back to its clusters and scores the suite's expected values."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    _reference_style_file(key, case["tokens"], case["key_clusters"], closings_first=False)
    _reference_style_file(response, case["tokens"], case["response_clusters"], closings_first=True)
    read = read_coref_conll(response)["(test); part 000"]
    # the same clusters (listed in the order of their first mention, the reference scorer's, not by number)
    assert sorted(sorted(map(tuple, c)) for c in case["response_clusters"] if c) == sorted(read)
    result = accord.coref(key, response)
    for metric, exp in case["expected"].items():
        got = result.source[metric]
        assert abs(got.recall - exp["recall"]) + abs(got.precision - exp["precision"]) + abs(got.f1 - exp["f1"]) < 1e-4


def test_openings_before_closings_within_a_token():
    """``1)|(1`` on one token: the reference scorer opens first, so the closing ends the mention just opened
    (a one-token mention) and the earlier one stays open (hand count)."""
    text = "#begin document d\nw (1\nw 1)|(1\nw 1)\n#end document\n"
    assert _line_by_line(text) == {"d": [[(0, 2), (1, 1)]]}
    assert chains_in_bulk(_lines(text)) == {"d": [[(0, 2), (1, 1)]]}


def test_allow_missing(tmp_path, capsys):
    key = {"a": [[(0, 0), (2, 2)]], "b": [[(0, 0), (1, 1)]]}
    response = {"a": [[(0, 0), (2, 2)]], "c": [[(5, 5), (6, 6)]]}
    k, r = tmp_path / "key.conll", tmp_path / "response.conll"
    write_coref_conll(key, k)
    write_coref_conll(response, r)
    assert main(["coref", str(k), str(r)]) == 2
    err = capsys.readouterr().err
    assert "1 document(s) only in the key" in err and "'b'" in err and "'c'" in err and "--allow-missing" in err
    # empty: b's link is missed, c's link is spurious; MUC by hand: 1 of 2 key links, 1 of 2 response links
    muc = accord.coref(k, r, allow_missing="empty").source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 2, 1, 2)
    # skip: only a is scored
    muc = accord.coref(k, r, allow_missing="skip").source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 1, 1, 1)
    assert main(["coref", str(k), str(r), "--allow-missing", "skip", "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["options"]["allow_missing"] == "skip"


def test_a_span_of_two_entities_stays_in_the_one_the_reference_scorer_meets_first(tmp_path):
    """Entities are numbered as the reference scorer (v8.01) numbers them, in the order it meets them, not by the
    numbers written: here entity 5 comes first, so the span on token 2, written in entities 5 and 1, stays in 5 and
    1 keeps only token 4. MUC by hand (and as scorer.pl v8.01 prints it, run once by hand: 'Coreference: Recall:
    (1 / 1) ... Precision: (1 / 1)'): key link t0-t2 is found, the response's one link is right. Before, entities
    were taken by number (1 first) and MUC was 0."""
    key, response = tmp_path / "k.conll", tmp_path / "r.conll"
    key.write_text("#begin document d\nt0\t(0)\nt1\t-\nt2\t(0)\nt3\t-\nt4\t-\n#end document\n", encoding="utf-8")
    response.write_text("#begin document d\nt0\t(5)\nt1\t-\nt2\t(1)|(5)\nt3\t-\nt4\t(1)\n#end document\n",
                        encoding="utf-8")
    assert read_coref_conll(response) == {"d": [[(0, 0), (2, 2)], [(2, 2), (4, 4)]]}
    text = response.read_text(encoding="utf-8")
    assert _line_by_line(text) == chains_in_bulk(_lines(text)) == read_coref_conll(response)
    muc = accord.coref(key, response).source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 1, 1, 1)


PERL_SUITE = Path(__file__).resolve().parents[3].parent / "shared" / "corpora" / "outside" / "coref_perl" / "tc"


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c["id"] for c in REFERENCE_CASES])
def test_the_reference_suites_own_files_score_its_expected_values(case):
    """The reference scorer's test files themselves (test/DataFiles: TC-A.key, TC-A-8.response ...), read by the
    CoNLL-2012 reader, score the values its test configuration expects."""
    letter, number = case["id"][0], case["id"][1:]
    key, response = PERL_SUITE / f"TC-{letter}.key", PERL_SUITE / f"TC-{letter}-{number}.response"
    if not response.exists():
        pytest.skip(f"the reference scorer's test files are not in {PERL_SUITE}")
    result = accord.coref(key, response, format="conll2012")
    for metric, exp in case["expected"].items():
        got = result.source[metric]
        assert abs(got.recall - exp["recall"]) + abs(got.precision - exp["precision"]) + abs(got.f1 - exp["f1"]) < 1e-4
