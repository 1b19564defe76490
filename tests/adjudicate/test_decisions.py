"""Adjudication of an Annotation Diff by rules and decisions, by hand; the HTML diff page's decisions."""

import csv
import html
import json
import re
from pathlib import Path

import pytest

from accord.adjudicate import adjudicate, read_decisions, row_id, write_decisions
from accord.cli import main
from accord.diff import diff_corpora
from accord.diff._views import diff_view
from accord.errors import FormatError, OptionError
from accord.formats import read
from accord.formats.text.gate import read_gate_sets
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.report.diff_report import diff_html
from tests.conftest import headless_dom

GATE = Path(__file__).parent.parent / "data" / "gate"
TEXT = "Ann met Bob in Paris."
KEY = Corpus([Document("d", (A("PER", 0, 3), A("PER", 8, 11), A("LOC", 15, 20)), text=TEXT)])
RESP = Corpus([Document("d", (A("PER", 0, 3), A("PER", 8, 10), A("ORG", 15, 20), A("LOC", 12, 14)), text=TEXT)])


def spans(result):
    return [(a.label, a.start, a.end) for a in result.corpus.documents[0].annotations]


@pytest.fixture
def cd():
    # rows: PER [0,3) correct; PER [8,11)~[8,10) partial; LOC [15,20) missing; LOC [12,14) spurious;
    # ORG [15,20) spurious
    return diff_corpora(KEY, RESP)


def test_rules(cd):
    assert spans(adjudicate(cd)) == [("PER", 0, 3)]
    assert spans(adjudicate(cd, rules=["matches", "key:LOC"])) == [("PER", 0, 3), ("LOC", 15, 20)]
    assert spans(adjudicate(cd, rules=["response:PER"])) == [("PER", 0, 3), ("PER", 8, 10)]
    got = adjudicate(cd, rules=[], rest="both")
    assert sorted(spans(got)) == sorted([("PER", 0, 3), ("PER", 0, 3), ("PER", 8, 11), ("PER", 8, 10),
                                         ("LOC", 15, 20), ("LOC", 12, 14), ("ORG", 15, 20)])
    assert got.decided_by == {"rest": 5, "rules": 0, "decisions": 0}


def test_decisions_override_rules(cd, tmp_path):
    per = cd.diffs["d"]["PER"].rows
    partial = next(r for r in per if r.outcome == "partial")
    decisions = {row_id("d", "PER", partial): "key", row_id("d", "PER", per[0]): "none"}
    path = tmp_path / "decisions.csv"
    write_decisions(decisions, path)
    back = read_decisions(path)
    assert back == decisions
    got = adjudicate(cd, rules=["matches"], decisions=back)
    assert spans(got) == [("PER", 8, 11)]
    assert got.decided_by == {"rest": 3, "rules": 0, "decisions": 2}


def test_bad_rules_and_decisions(cd, tmp_path):
    with pytest.raises(OptionError, match="unknown rule"):
        adjudicate(cd, rules=["all"])
    with pytest.raises(OptionError, match="no type 'MISC'"):
        adjudicate(cd, rules=["key:MISC"])
    with pytest.raises(OptionError, match="match no row"):
        adjudicate(cd, decisions={("d", "PER", 1, 2, None, None): "key"})
    p = tmp_path / "d.csv"
    p.write_text("document,type,key_start,key_end,response_start,response_end,choice\nd,PER,0,3,,,maybe\n",
                 encoding="utf-8")
    with pytest.raises(FormatError, match=r"d.csv:2: choice must be one of"):
        read_decisions(p)
    p.write_text("document,type,choice\n", encoding="utf-8")
    with pytest.raises(FormatError, match="missing key_start"):
        read_decisions(p)
    p.write_text("document,type,key_start,key_end,response_start,response_end,choice\nd,PER,0,,,,key\n",
                 encoding="utf-8")
    with pytest.raises(FormatError, match=":2: give the key span"):
        read_decisions(p)


def test_cli_writes_a_gate_set(tmp_path, capsys):
    doc = GATE / "beijing-opera.xml"
    out = tmp_path / "gold.xml"
    assert main(["adjudicate", str(doc), str(doc), "--key-set", "ann1", "--response-set", "ann2", "--type", "sent",
                 "--features", "Op", "-o", str(out), "--set-name", "consensus"]) == 0
    assert "written to" in capsys.readouterr().err
    _, sets = read_gate_sets(out)
    cd = diff_corpora(read(doc, annotation_set="ann1"), read(doc, annotation_set="ann2"), types=["sent"],
                      features=["Op"])
    assert len(sets["consensus"]) == cd.counts().correct > 0
    assert main(["adjudicate", str(doc), str(doc), "--key-set", "ann1", "--response-set", "ann2",
                 "-o", str(tmp_path / "x.json2")]) == 2
    assert "--out-format" in capsys.readouterr().err


def test_html_page_decisions_round_trip(tmp_path, cd):
    page = tmp_path / "diff.html"
    page.write_text(diff_html(diff_view(cd, ("strict",), 1.0)), encoding="utf-8")
    dom, errors = headless_dom(page)
    assert errors == []
    preview = re.search(r'<pre id="decisions-preview">(.*?)</pre>', dom, re.S)
    assert preview is not None
    rows = list(csv.DictReader(html.unescape(preview.group(1)).splitlines()))
    assert len(rows) == 5
    # the page starts with the key side of correct rows ticked: the same as the "matches" rule
    assert [r["choice"] for r in rows].count("key") == 1 and [r["choice"] for r in rows].count("none") == 4
    saved = tmp_path / "decisions.csv"
    saved.write_text(html.unescape(preview.group(1)), encoding="utf-8")
    assert spans(adjudicate(cd, rules=[], decisions=read_decisions(saved))) == spans(adjudicate(cd))


def test_adjudication_keeps_the_document_and_the_next_diff_hides_it(tmp_path, capsys):
    # issue 18.5: the output is the key's document with all its sets (default, Original markups, ann1-3) plus the
    # adjudicated set, as GATE's copy to target; a second run adds nothing; --hide-set hides the decided rows
    doc = GATE / "beijing-opera.xml"
    out = tmp_path / "gold.xml"
    args = ["adjudicate", str(doc), str(doc), "--key-set", "ann1", "--response-set", "ann2", "--type", "sent",
            "--features", "Op"]
    assert main([*args, "-o", str(out)]) == 0
    _, before = read_gate_sets(doc)
    _, after = read_gate_sets(out)
    assert set(after) == set(before) | {"consensus"}
    for name, anns in before.items():    # every original set kept, annotation for annotation
        assert [(a.label, a.start, a.end, dict(a.attributes)) for a in after[name]] == \
            [(a.label, a.start, a.end, dict(a.attributes)) for a in anns]
    cd = diff_corpora(read(doc, annotation_set="ann1"), read(doc, annotation_set="ann2"), types=["sent"],
                      features=["Op"])
    correct = cd.counts().correct
    assert len(after["consensus"]) == correct > 0
    capsys.readouterr()
    assert main([*args[:1], str(out), str(out), *args[3:], "-o", str(tmp_path / "again.xml")]) == 0
    assert "0 new annotations" in capsys.readouterr().err
    # the next diff of the output, consensus hidden: the correct rows are gone, the disagreements stay
    assert main(["diff", str(out), str(out), "--key-set", "ann1", "--response-set", "ann2", "--type", "sent",
                 "--features", "Op", "--hide-set", "consensus", "--output", "json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    totals = shown["measures"]["strict"]["totals"]
    assert totals["correct"] == 0
    assert (totals["missing"], totals["spurious"]) == (cd.counts().missing, cd.counts().spurious)
    assert shown["options"]["hidden_rows"] == correct
    assert main(["adjudicate", str(doc), str(doc), "--key-set", "ann1", "--response-set", "ann2", "--type", "sent",
                 "--features", "Op", "-o", str(tmp_path / "only.xml"), "--only-adjudicated"]) == 0
    assert set(read_gate_sets(tmp_path / "only.xml")[1]) == {""}
