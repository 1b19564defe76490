"""The Corpus Benchmark on a small corpus counted by hand, in every output format."""

import csv
import io
import json

import pytest
from tests.result.contract import checked

from accord.cli import main
from accord.diff._benchmark import benchmark
from accord.model import Corpus, Document
from accord.model import make_annotation as A

TEXT1, TEXT2 = "Ann met Bob in Paris.", "Jane left."
KEY = [("d1", TEXT1, [("PER", 0, 3), ("PER", 8, 11), ("LOC", 15, 20)]), ("d2", TEXT2, [("PER", 0, 4)])]
# before: d1 PER [0,3) correct, [8,10) partial, LOC missing, ORG [15,20) spurious; d2 PER correct
BEFORE = [("d1", TEXT1, [("PER", 0, 3), ("PER", 8, 10), ("ORG", 15, 20)]), ("d2", TEXT2, [("PER", 0, 4)])]
# after: d1 PER [0,3), [8,11) and LOC correct, a new spurious PER "in"; d2 PER missing
AFTER = [("d1", TEXT1, [("PER", 0, 3), ("PER", 8, 11), ("PER", 12, 14), ("LOC", 15, 20)]), ("d2", TEXT2, [])]

EXPECTED_CHANGES = [  # (document, type, side, start, end, before, after, direction)
    ("d1", "PER", "key", 8, 11, "partial", "correct", "fixed"),
    ("d1", "PER", "response", 12, 14, "absent", "spurious", "broken"),
    ("d1", "LOC", "key", 15, 20, "missing", "correct", "fixed"),
    ("d1", "ORG", "response", 15, 20, "spurious", "absent", "fixed"),
    ("d2", "PER", "key", 0, 4, "correct", "missing", "broken"),
]


def corpus(spec):
    return Corpus([Document(d, tuple(A(l, s, e) for l, s, e in anns), text=t) for d, t, anns in spec])


def write(spec, path):
    path.write_text("".join(json.dumps({"id": d, "text": t, "annotations": [
        {"label": l, "start": s, "end": e} for l, s, e in anns]}) + "\n" for d, t, anns in spec), encoding="utf-8")
    return str(path)


def test_changes_and_figures():
    bench = benchmark(corpus(KEY), corpus(BEFORE), corpus(AFTER))
    got = [(c.document, c.type, c.side, c.annotation.start, c.annotation.end, c.before, c.after, c.direction)
           for c in bench.changes]
    assert sorted(got) == sorted(EXPECTED_CHANGES)
    rows = {(r["document"], r["type"]): r for r in bench.rows("average")}
    per = rows[("d1", "PER")]
    # before c=1 p=1: P = R = (1 + 1/2)/2 = 0.75, F = (F_s 0.5 + F_l 1.0)/2; after c=2 s=1: P 2/3, R 1, F 0.8
    assert (per["before"]["precision"], per["before"]["recall"], per["before"]["f"]) == (0.75, 0.75, 0.75)
    assert (per["after"]["precision"], per["after"]["recall"]) == (pytest.approx(2 / 3), 1.0)
    assert per["after"]["f"] == pytest.approx(0.8)
    assert (per["fixed"], per["broken"]) == (1, 1)
    total = rows[("<all>", "<all>")]
    # before c=2 p=1 m=1 s=1 -> 0.625 throughout; after c=3 m=1 s=1 -> 0.75
    assert [total["before"][k] for k in ("correct", "partial", "missing", "spurious")] == [2, 1, 1, 1]
    assert [total["after"][k] for k in ("correct", "partial", "missing", "spurious")] == [3, 0, 1, 1]
    assert (total["before"]["f"], total["after"]["f"]) == (0.625, 0.75)
    assert (total["fixed"], total["broken"]) == (3, 2)
    # every (document, type) of the three corpora has a row, and the total comes last
    assert len(rows) == 2 * 3 + 1 and list(rows)[-1] == ("<all>", "<all>")


def test_every_output_format(tmp_path, capsys):
    paths = [write(s, tmp_path / f"{n}.jsonl") for n, s in (("key", KEY), ("before", BEFORE), ("after", AFTER))]
    details = tmp_path / "changes.csv"
    assert main(["benchmark", *paths, "--output", "json", "--details", str(details)]) == 0
    out = checked(capsys.readouterr().out)
    assert out["options"]["measure"] == "average" and out["command"] == "benchmark"
    assert [(c["document"], c["type"], c["side"], c["start"], c["end"], c["before"], c["after"], c["direction"])
            for c in out["changed"]] == EXPECTED_CHANGES
    assert [c["text"] for c in out["changed"]] == ["Bob", "in", "Paris", "Paris", "Jane"]
    assert out["measures"]["after"]["totals"]["f1"] == 0.75 and out["measures"]["before"]["totals"]["f1"] == 0.625
    assert out["changes"]["totals"] == {"fixed": 3, "broken": 2}
    rows = list(csv.DictReader(details.read_text(encoding="utf-8").splitlines()))
    assert [(r["document"], r["direction"]) for r in rows] == [(c[0], c[7]) for c in EXPECTED_CHANGES]
    assert main(["benchmark", *paths, "--output", "csv", "--measure", "strict"]) == 0
    table = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    total = {r["measure"]: r for r in table if r["document"] == "<all>" and r["group"] == "all"}
    # strict: before c=2 of 4 keys and 4 responses: P = R = 0.5; after 3 of 4: 0.75
    assert (float(total["before"]["precision"]), float(total["after"]["recall"])) == (0.5, 0.75)
    assert main(["benchmark", *paths]) == 0
    shown = capsys.readouterr().out
    assert "0.6250 → 0.7500" in shown and "annotations that changed" in shown and shown.count("broken") >= 2
    assert main(["benchmark", *paths, "--measure", "strict-bdm"]) == 2
    assert "strict, lenient or average" in capsys.readouterr().err


def test_corpus_rows_macro_over_documents_and_threshold(tmp_path, capsys):
    # issue 18.6, by hand (average measure; no partial after, so average = strict after)
    from accord.diff._views import below_threshold, corpus_rows

    bench = benchmark(corpus(KEY), corpus(BEFORE), corpus(AFTER))
    rows = {r["type"]: r for r in corpus_rows(bench, "average", 1.0)}
    per = rows["PER"]
    # after: d1 2 correct + 1 spurious, d2 1 missing; before: d1 correct + partial, d2 correct
    assert [per["after"][k] for k in ("correct", "partial", "missing", "spurious")] == [2, 0, 1, 1]
    assert [per["before"][k] for k in ("correct", "partial", "missing", "spurious")] == [2, 1, 0, 0]
    assert per["before"]["precision"] == pytest.approx(2.5 / 3)
    macro = rows["macro over documents"]["after"]
    # d1: c 3, s 1 -> P 3/4, R 1, F 6/7; d2: one missing key, no response -> P 1, R 0, F 0
    assert macro["precision"] == pytest.approx((0.75 + 1) / 2) and macro["recall"] == pytest.approx(0.5)
    assert macro["f"] == pytest.approx(6 / 7 / 2)
    # GATE's verbose listing: d2 PER (recall 0) below 0.5; with 0.7 also d1 PER (precision 2/3)
    low = below_threshold(bench, "average", 0.5)
    assert [(r["document"], r["type"], r["outcome"], r["side"], r["start"]) for r in low] == [
        ("d2", "PER", "missing", "key", 0)]
    assert {(r["document"], r["outcome"], r["start"]) for r in below_threshold(bench, "average", 0.7)} == {
        ("d1", "spurious", 12), ("d2", "missing", 0)}
    args = ["benchmark", write(KEY, tmp_path / "k.jsonl"), write(BEFORE, tmp_path / "b.jsonl"),
            write(AFTER, tmp_path / "a.jsonl")]
    assert main([*args, "--threshold", "0.5", "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert [(r["document"], r["text"]) for r in out["below_threshold"]] == [("d2", "Jane")]
    assert out["measures"]["after"]["macro_by_document"]["precision"] == pytest.approx(0.875)
    assert main([*args, "--threshold", "0.5", "--html", str(tmp_path / "b.html")]) == 0
    table = capsys.readouterr().out
    assert "macro over documents" in table and "below 0.5" in table
    page = (tmp_path / "b.html").read_text()
    assert "before" in page and "after" in page
    with pytest.raises(SystemExit) as refused:     # refused by the argument parser (accord.cli._options)
        main([*args, "--threshold", "2"])
    assert refused.value.code == 2


def test_a_type_without_responses_or_keys_scores_zero_in_the_per_type_table(tmp_path, capsys):
    """GATE's Corpus Benchmark tool writes each rate of its per-type statistics table as 0 when its denominator is
    0 (CorpusBenchmarkTool, ../shared/notes/gate-evaluation.md section 5: "P = (c + 0.5p)/(c+p+s) and R =
    (c + 0.5p)/(c+p+m), each 0 if its denominator is 0"); accord gave P 1.0 to a type with no response."""
    from accord.diff._views import corpus_rows

    bench = benchmark(corpus(KEY), corpus(BEFORE), corpus(AFTER))
    rows = {r["type"]: r for r in corpus_rows(bench, "average", 1.0)}
    # by hand: before, LOC has 1 key (missing) and no response; after, ORG has no key and no response
    loc, org = rows["LOC"]["before"], rows["ORG"]["after"]
    assert (loc["missing"], loc["correct"] + loc["partial"] + loc["spurious"]) == (1, 0)
    assert (loc["precision"], loc["recall"], loc["f"]) == (0.0, 0.0, 0.0)
    assert (org["precision"], org["recall"], org["f"]) == (0.0, 0.0, 0.0)
    # types with keys and responses keep the measure: after LOC c=1 -> 1.0; before ORG s=1, no key -> 0 as well
    assert rows["LOC"]["after"]["precision"] == 1.0 and rows["ORG"]["before"]["precision"] == 0.0
    paths = [write(s, tmp_path / f"{n}.jsonl") for n, s in (("key", KEY), ("before", BEFORE), ("after", AFTER))]
    assert main(["benchmark", *paths, "--output", "json"]) == 0
    out = checked(capsys.readouterr().out)
    assert out["measures"]["before"]["by_label"]["LOC"]["precision"] == 0.0
    assert out["measures"]["after"]["by_label"]["ORG"]["precision"] == 0.0
    # a document's row keeps the Annotation Diff's convention (GATE: empty types are rows with P = R = 1)
    assert out["measures"]["before"]["by_document_label"]["d2"]["LOC"]["precision"] == 1.0
    assert main(["benchmark", *paths]) == 0
    table = capsys.readouterr().out
    loc_line = next(line for line in table.splitlines() if line.strip().startswith("LOC"))
    assert "1.0000 →" not in loc_line
    # the CSV's corpus rows by type too (they gave 1.0); its document rows keep the Annotation Diff's 1.0
    assert main(["benchmark", *paths, "--output", "csv"]) == 0
    rows = {(r["measure"], r["document"], r["group"], r["row"]): r
            for r in csv.DictReader(io.StringIO(capsys.readouterr().out))}
    assert rows[("before", "<all>", "label", "LOC")]["precision"] == "0.0"
    assert rows[("after", "<all>", "label", "ORG")]["precision"] == "0.0"
    assert rows[("before", "d2", "label", "LOC")]["precision"] == "1.0"


def test_a_token_key_against_character_runs_in_python(recwarn):
    """accord.diff.benchmark called directly with a key in tokens and runs in characters: the key is placed on the
    text once, so a key annotation is the same in both diffs and its change is one row (by hand: John missing
    before, correct after; London correct in both)."""
    text = "John lives in London ."
    key = Corpus([Document("d", (A("PER", 0, 1), A("LOC", 3, 4)), tokens=("John", "lives", "in", "London", "."))])
    before = Corpus([Document("d", (A("LOC", 14, 20),), text=text)])
    after = Corpus([Document("d", (A("PER", 0, 4), A("LOC", 14, 20)), text=text)])
    bench = benchmark(key, before, after)
    assert [(c.type, c.side, c.before, c.after, c.direction) for c in bench.changes] == [
        ("PER", "key", "missing", "correct", "fixed")]
    assert bench.after.counts().correct == 2 and bench.before.counts().missing == 1
