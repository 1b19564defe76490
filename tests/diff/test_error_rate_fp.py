"""GATE's error rate (user guide 10.1.3: "Error rate is the inverse of precision, and measures the number of
incorrectly identified items as a percentage of the items identified") and false positives per constant (10.8:
FalsePositive = spurious / c, "c is some constant independent from document richness, e.g. the number of tokens or
sentences in the document"), counted by hand."""

from __future__ import annotations

import pytest
from tests.result.contract import checked

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.model import Corpus, Document
from accord.model import make_annotation as A

TEXT = "John met Mary in Rome today ."     # 7 whitespace tokens, one sentence


def at(label: str, word: str, **kw: object) -> object:
    start = TEXT.index(word)
    return A(label, start, start + len(word), **kw)


def corpora(sentences: bool = False) -> tuple[Corpus, Corpus]:
    extra = (A("Sentence", 0, len(TEXT)),) if sentences else ()
    # d1: key PER John, PER Mary, LOC Rome; response PER John (correct), LOC met and LOC today (spurious):
    #     PER correct 1 missing 1; LOC missing 1 spurious 2
    # d2: key PER John, response PER John: correct 1
    k1 = Document("d1", (at("PER", "John"), at("PER", "Mary"), at("LOC", "Rome"), *extra), TEXT)
    r1 = Document("d1", (at("PER", "John"), at("LOC", "met"), at("LOC", "today"), *extra), TEXT)
    k2 = Document("d2", (at("PER", "John"), *extra), TEXT)
    r2 = Document("d2", (at("PER", "John"), *extra), TEXT)
    return Corpus([k1, k2]), Corpus([r1, r2])


def test_error_rate_is_one_minus_precision_by_hand():
    k, r = corpora()
    result = accord.qa(k, r, measures=["strict"], error_rate=True)
    out = result.to_dict()["measures"]["strict"]
    # strict precision: correct 2 of responses 4 (2 correct + 2 spurious) -> error rate 2/4
    assert out["totals"]["precision"] == pytest.approx(2 / 4)
    assert out["totals"]["error_rate"] == pytest.approx(2 / 4)
    assert out["by_label"]["PER"]["error_rate"] == pytest.approx(0.0)     # 2 of 2 right
    assert out["by_label"]["LOC"]["error_rate"] == pytest.approx(1.0)     # 0 of 2 right
    assert out["by_document"]["d2"]["error_rate"] == pytest.approx(0.0)
    plain = accord.qa(k, r, measures=["strict"]).to_dict()["measures"]["strict"]["totals"]
    assert "error_rate" not in plain       # asked for only


def test_false_positives_per_token_by_hand():
    k, r = corpora()
    out = accord.qa(k, r, measures=["strict"], fp_per="token").to_dict()["measures"]["strict"]
    # 2 spurious responses over 2 documents of 7 tokens each
    assert out["totals"]["tokens"] == 14 and out["totals"]["false_positives_per_token"] == pytest.approx(2 / 14)
    assert out["by_document"]["d1"]["tokens"] == 7
    assert out["by_document"]["d1"]["false_positives_per_token"] == pytest.approx(2 / 7)
    assert out["by_document"]["d2"]["false_positives_per_token"] == 0
    # a type's: its spurious over the corpus's tokens
    assert out["by_label"]["LOC"]["false_positives_per_token"] == pytest.approx(2 / 14)
    assert out["by_label"]["PER"]["false_positives_per_token"] == 0
    assert out["macro_by_document"]["false_positives_per_token"] == pytest.approx((2 / 7 + 0) / 2)


def test_false_positives_per_sentence_counts_sentence_annotations():
    k, r = corpora(sentences=True)
    out = accord.qa(k, r, measures=["strict"], types=["PER", "LOC"], fp_per="sentence").to_dict()
    totals = out["measures"]["strict"]["totals"]
    assert totals["sentences"] == 2 and totals["false_positives_per_sentence"] == pytest.approx(2 / 2)
    k, r = corpora()
    with pytest.raises(OptionError, match=r"document 'd1' has no sentences"):
        accord.qa(k, r, fp_per="sentence")
    with pytest.raises(OptionError, match="token or sentence"):
        accord.qa(k, r, fp_per="word")


def test_every_output_of_diff_and_qa(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")     # the whole table on one line
    k, r = corpora()
    for side, corpus in (("key", k), ("response", r)):
        accord.write(corpus, tmp_path / side, format="brat")
    args = [str(tmp_path / "key"), str(tmp_path / "response"), "--measures", "strict", "--error-rate",
            "--fp-per", "token", "-q"]
    assert main(["qa", *args, "--output", "json"]) == 0
    data = checked(capsys.readouterr().out)     # the contract's schema names the new figures
    assert data["options"]["error_rate"] is True and data["options"]["fp_per"] == "token"
    assert data["measures"]["strict"]["totals"]["error_rate"] == pytest.approx(0.5)
    assert main(["qa", *args, "--output", "csv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    header = lines[0].split(",")
    assert "error_rate" in header and "false_positives_per_token" in header and "tokens" in header
    total = dict(zip(header, lines[1].split(",")))
    assert total["document"] == "<all>" and float(total["false_positives_per_token"]) == pytest.approx(2 / 14)
    assert main(["diff", *args, "--by", "type,document"]) == 0
    table = capsys.readouterr().out
    assert "Err.s" in table and "FP/token" in table and "Tokens" in table
    micro = next(line for line in table.splitlines() if "Micro summary" in line)
    assert "0.5000" in micro and "0.1429" in micro and "14" in micro    # error rate 2/4; 2 spurious / 14 tokens


def test_benchmark_before_and_after(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    k, before = corpora()
    after = Corpus([Document("d1", (at("PER", "John"), at("PER", "Mary"), at("LOC", "met")), TEXT),
                    before.documents[1]])     # one spurious left of two, Mary found
    for name, corpus in (("key", k), ("before", before), ("after", after)):
        accord.write(corpus, tmp_path / name, format="brat")
    args = [str(tmp_path / n) for n in ("key", "before", "after")] + ["--measure", "strict", "--error-rate",
                                                                      "--fp-per", "token", "-q"]
    assert main(["benchmark", *args, "--output", "json"]) == 0
    data = checked(capsys.readouterr().out)
    # before: 2 correct of 4 responses, 2 spurious / 14 tokens; after: 3 correct of 4, 1 spurious / 14 tokens
    b, a = data["measures"]["before"]["totals"], data["measures"]["after"]["totals"]
    assert (b["error_rate"], a["error_rate"]) == (pytest.approx(0.5), pytest.approx(0.25))
    assert (b["false_positives_per_token"], a["false_positives_per_token"]) == (pytest.approx(2 / 14),
                                                                                pytest.approx(1 / 14))
    assert main(["benchmark", *args]) == 0
    table = capsys.readouterr().out
    assert "Error rate" in table and "FP/token" in table
    assert "0.5000 → 0.2500" in table and "0.1429 → 0.0714" in table


def test_score_with_the_gate_profile(tmp_path, capsys):
    k, r = corpora()
    for side, corpus in (("key", k), ("response", r)):
        accord.write(corpus, tmp_path / side, format="brat")
    args = [str(tmp_path / "key"), str(tmp_path / "response"), "-q", "--error-rate", "--fp-per", "token"]
    assert main(["score", *args, "--profile", "gate", "--output", "json"]) == 0
    strict = checked(capsys.readouterr().out)["measures"]["strict"]["totals"]
    assert strict["error_rate"] == pytest.approx(0.5) and strict["false_positives_per_token"] == pytest.approx(2 / 14)
    assert main(["score", *args]) == 2     # GATE's figures: not of the pairs mode
    assert "apply with --profile gate" in capsys.readouterr().err


def test_the_diff_page_shows_them(tmp_path):
    k, r = corpora()
    for side, corpus in (("key", k), ("response", r)):
        accord.write(corpus, tmp_path / side, format="brat")
    page = tmp_path / "diff.html"
    assert main(["diff", str(tmp_path / "key"), str(tmp_path / "response"), "--measures", "strict", "--error-rate",
                 "--fp-per", "token", "--html", str(page), "-q", "-o", str(tmp_path / "out.txt")]) == 0
    html = page.read_text(encoding="utf-8")
    assert "<th>Err strict</th>" in html and "<th>Tokens</th><th>FP/token</th>" in html
    assert '<td class="num">14</td><td class="num">0.1429</td>' in html     # the micro row: 2 spurious / 14 tokens
