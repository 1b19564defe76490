"""MAT's token, pseudo-token and character scoring: the cases of the MAT notes (section 5B), hand counts."""

import csv
import json

import pytest

from accord import score
from accord.cli import main
from accord.model import Corpus, Document, make_annotation
from tests.mat_documents import text_document
from tests.result.contract import checked

SIGNAL = "The future President in our United States of America has announced his resignation."


def doc(spans, tokens=True):
    return text_document(SIGNAL, spans, tokens=tokens)


def units(gold, pred, **kw):
    return score(gold, pred, profile="mat", units=("token", "pseudo-token", "character"), **kw).units


def counts(u):
    c = u.counts()
    return c.match, c.gold_clash, c.pred_clash, c.missing, c.spurious


def test_complex_overlap():
    # MAT notes 5B: hyp "President in our United State" vs ref " future President in our Unit", both PERSON
    u = units(doc([("PERSON", " future President in our Unit")]), doc([("PERSON", "President in our United State")]))
    assert u["pseudo-token"].test_size() == 15
    assert counts(u["pseudo-token"]) == (4, 0, 0, 1, 2)
    assert counts(u["character"]) == (21, 0, 0, 8, 8)
    # a boundary inside "United" and "Unit": token scoring is abandoned, as MAT does
    assert "falls inside a token" in u["token"].skipped


def test_two_to_one():
    # ref "President in our" + "United States" against hyp "President in our United States": re-paired per
    # elementary interval, everything matches but the space between the two ref spans
    u = units(doc([("PERSON", "President in our"), ("PERSON", "United States")]),
              doc([("PERSON", "President in our United States")]))
    assert counts(u["pseudo-token"]) == (5, 0, 0, 0, 0)
    assert counts(u["character"]) == (29, 0, 0, 0, 1)
    assert counts(u["token"]) == (5, 0, 0, 0, 0) and u["token"].test_size() == 13


def test_confusability_matrix_in_tokens():
    # The note gives test 7's matrix (hyp -> ref): PERSON->LOCATION 1, ORG->LOCATION 2, PERSON->null 1,
    # ORG->null 1, null->null 8. Its spans are not in the notes; these spans give that matrix by hand:
    # ref LOCATION "United States of"; hyp PERSON "our United", ORG "States of America".
    report = score(doc([("LOCATION", "United States of")]), doc([("PERSON", "our United"),
                                                                ("ORG", "States of America")]),
                   profile="mat", units=("token",), confusability="token")
    matrix = dict(report.units["token"].confusability)
    assert matrix == {("PERSON", "LOCATION"): 1, ("ORG", "LOCATION"): 2, ("PERSON", None): 1, ("ORG", None): 1,
                      (None, None): 8}
    assert sum(matrix.values()) == 13
    tok = report.units["token"]
    # LOCATION: all 3 tokens clash; accuracies from the totals: 13 tokens, 2 spurious, 3 clashed
    assert counts(tok) == (0, 3, 3, 0, 2)
    block = report.to_dict()["units"]["token"]["totals"]
    assert block["tag_sensitive_accuracy"] == pytest.approx((13 - 0 - 2 - 3) / 13)
    assert block["tag_blind_accuracy"] == pytest.approx((13 - 0 - 2) / 13)


def test_strict_profile_splits_a_label_clash_into_missing_and_spurious():
    report = score(doc([("LOCATION", "United States")]), doc([("ORG", "United States")]),
                   profile="strict", units=("token",), confusability="token")
    assert counts(report.units["token"]) == (0, 0, 0, 2, 2)
    assert dict(report.units["token"].confusability) == {("ORG", None): 2, (None, "LOCATION"): 2, (None, None): 11}


def test_token_unit_documents_count_tokens_and_characters_of_the_joined_tokens():
    words = ("Anna", "Schmidt", "met", "New", "York", "police")
    gold = Corpus([Document("1", (make_annotation("PER", 0, 2), make_annotation("LOC", 3, 5)), tokens=words)])
    pred = Corpus([Document("1", (make_annotation("PER", 0, 1), make_annotation("ORG", 3, 6)), tokens=words)])
    u = score(gold, pred, profile="lenient", units=("token", "character")).units
    # PER: "Anna" matched, "Schmidt" missing; the lenient profile needs equal labels, so LOC and ORG do not
    # pair: "New York" is missing LOC and spurious ORG, "police" spurious ORG
    assert counts(u["token"]) == (1, 0, 0, 3, 3) and u["token"].test_size() == 6
    # characters of "Anna Schmidt met New York police" (the spaces inside spans count, as in a text):
    # match "Anna" 4; missing " Schmidt" 8 and "New York" 8; spurious "New York" 8 and " police" 7
    assert counts(u["character"]) == (4, 0, 0, 8 + 8, 8 + 7)
    assert u["character"].test_size() == len(" ".join(words))


def test_gold_side_units_add_up_to_the_gold_annotations():
    gold = doc([("PERSON", "President"), ("LOCATION", "United States of America")], tokens=False)
    pred = doc([("PERSON", "future President in"), ("LOCATION", "States"), ("ORG", "America has")],
               tokens=False)
    c = units(gold, pred)["character"].counts()
    assert c.match + c.gold_clash + c.missing == len("President") + len("United States of America")
    assert c.match + c.pred_clash + c.spurious == len("future President in") + len("States") + len("America has")


def test_documents_without_text_or_tokens_are_refused():
    from accord.errors import OptionError
    bare = Corpus([Document("d", (make_annotation("X", 0, 2),))])
    with pytest.raises(OptionError, match="neither text nor tokens"):
        score(bare, bare, units=("character",))


def test_cli_units_in_json_and_csv(tmp_path, capsys):
    def write(path, spans):
        d = doc(spans)["d"]
        path.write_text(json.dumps({"id": "d", "text": SIGNAL, "annotations": [
            {"label": a.label, "start": a.start, "end": a.end} for a in d.annotations]}) + "\n")
    write(tmp_path / "g.jsonl", [("LOCATION", "United States of")])
    write(tmp_path / "p.jsonl", [("PERSON", "our United"), ("ORG", "States of America")])
    assert main(["score", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"), "--profile", "mat",
                 "--confusability", "--output", "json"]) == 0    # alone it scores tokens
    out = checked(capsys.readouterr().out)
    # the lex annotations are the unit, not scored at the tag level
    assert set(out["by_label"]) == {"LOCATION", "ORG", "PERSON"}
    cells = {(c["pred"], c["gold"]): c["count"] for c in out["units"]["token"]["confusability"]}
    assert cells[("ORG", "LOCATION")] == 2 and cells[("null", "null")] == 8
    assert main(["score", str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"), "--profile", "mat",
                 "--by-character", "--output", "csv"]) == 0
    rows = list(csv.DictReader(capsys.readouterr().out.splitlines()))
    char_all = [r for r in rows if r["measure"] == "character" and r["document"] == "<all>" and r["row"] == "<all>"][0]
    assert [char_all[k] for k in ("match", "gold_clash", "pred_clash")] == ["0", "15", "15"]


def test_confusability_without_a_profile_pairs_by_overlap(capsys):
    # issue 18.4: without a task or --profile, --confusability pairs under MAT's default profile, so that the
    # same-span label confusion shows (strict would make it missing + spurious, an empty off-diagonal)
    gold, pred = doc([("LOCATION", "United States")]), doc([("PERSON", "United States")])
    report = score(gold, pred, units=("token",), confusability="token")
    assert report.options["profile"] == "mat"
    assert dict(report.units["token"].confusability) == {("PERSON", "LOCATION"): 2, (None, None): 11}
    strict = score(gold, pred)
    assert strict.options["profile"] == "strict" and strict.totals.missing == 1 and strict.totals.spurious == 1
    from accord.report import render_table
    from accord.report.table import TableConsole

    console = TableConsole(record=True, width=120)
    render_table(report, console)
    assert "profile mat" in console.export_text()


def test_the_units_scored_are_in_the_results_options():
    """The JSON says which units a result holds (before, ``units``, ``token_annotations`` and ``confusability`` were
    recorded after the report had copied its options, and were missing)."""
    from pathlib import Path

    examples = Path(__file__).resolve().parents[2] / "examples"
    report = score(examples / "gold.conll", examples / "system.conll", units=["token", "character"],
                   confusability="token")
    assert report.options["units"] == ["token", "character"]
    assert report.options["confusability"] == "token" and report.options["token_annotations"] == ["lex"]
