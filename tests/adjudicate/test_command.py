"""``accord adjudicate A B C --method ...``: three annotators' folders into gold in every writable format, the queue
(CSV and HTML), decisions read back, a ratings table; counted by hand."""

import csv
import json
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.model import Annotation, Corpus, Document

TEXT = "Ann Lee met Bob in Paris today"
OTHER = "Joe ran"


def _corpus(*anns):
    return Corpus([Document("d", tuple(Annotation(label, s, e) for label, s, e in anns), text=TEXT),
                   Document("e", (Annotation("PER", 0, 3),), text=OTHER)])


@pytest.fixture
def sides(tmp_path):
    paths = []
    for name, anns in (("a", [("PER", 0, 7), ("PER", 12, 15), ("LOC", 19, 24)]),
                       ("b", [("PER", 0, 7), ("ORG", 12, 15), ("LOC", 19, 24)]),
                       ("c", [("PER", 0, 3), ("LOC", 12, 15), ("LOC", 19, 24), ("MISC", 25, 30)])):
        accord.write(_corpus(*anns), tmp_path / name, "brat")
        paths.append(str(tmp_path / name))
    return paths


# by hand (majority of three, "no span" an answer): d: [0,7) PER 2-1 kept, [0,3) and [25,30) voted down 2-1,
# [12,15) PER/ORG/LOC tied (left out), [19,24) LOC 3-0; e: [0,3) PER 3-0
GOLD = {"d": [("PER", 0, 7), ("LOC", 19, 24)], "e": [("PER", 0, 3)]}


def _spans(corpus):
    return {d.id: [(a.label, a.start, a.end) for a in d.annotations] for d in corpus.documents}


@pytest.mark.parametrize(("fmt", "name"), [("xmi", "gold"), ("gate", "gold"), ("brat", "gold"),
                                           ("label-studio", "gold.json"), ("jsonl", "gold.jsonl"),
                                           ("doccano", "gold.jsonl")])
def test_gold_in_every_writable_format(sides, tmp_path, fmt, name, capsys):
    out = tmp_path / name
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(out), "--out-format", fmt]) == 0
    assert _spans(accord.read(out, format=fmt)) == GOLD


def test_xmi_folder_is_read_by_cassis_with_its_type_system(sides, tmp_path, capsys):
    cassis = pytest.importorskip("cassis")
    out = tmp_path / "gold"
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(out), "--out-format", "xmi"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["TypeSystem.xml", "d.xmi", "e.xmi"]
    with open(out / "TypeSystem.xml", "rb") as fh:
        ts = cassis.load_typesystem(fh)
    with open(out / "d.xmi", "rb") as fh:
        cas = cassis.load_cas_from_xmi(fh, typesystem=ts)
    entities = cas.select("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity")
    assert cas.sofa_string == TEXT
    assert [(e.value, e.begin, e.end) for e in entities] == GOLD["d"]


def test_queue_csv_and_html(sides, tmp_path, capsys):
    queue, page = tmp_path / "q.csv", tmp_path / "q.html"
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(tmp_path / "g.jsonl"),
                 "--queue", str(queue), "--queue-html", str(page)]) == 0
    with open(queue, newline="") as fh:
        rows = list(csv.DictReader(fh))
    # the four groups of d not all three gave alike (e's one group is unanimous)
    assert [(r["start"], r["end"], r["a"], r["b"], r["c"], r["method"], r["status"], r["choice"]) for r in rows] == [
        ("0", "3", "", "", "PER", "(none)", "decided", "none"),
        ("0", "7", "PER", "PER", "", "PER", "decided", "PER"),
        ("12", "15", "PER", "ORG", "LOC", "LOC = ORG = PER", "tie", "none"),
        ("25", "30", "", "", "MISC", "(none)", "decided", "none"),
    ]
    html = page.read_text()
    assert html.count('type="checkbox"') == 1 + 1 + 3 + 1       # the labels given in each row
    assert 'value="PER" checked' in html and "Content-Security-Policy" in html
    assert "agreement with the majority" in html


def test_decisions_read_back(sides, tmp_path, capsys):
    queue, gold = tmp_path / "q.csv", tmp_path / "g.jsonl"
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(gold), "--queue", str(queue)]) == 0
    with open(queue, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for r in rows:
        if r["status"] == "tie":
            r["choice"] = "ORG"              # the adjudicator settles the tie
        if r["start"] == "0" and r["end"] == "7":
            r["choice"] = "none"             # and drops a kept span
    # the page's decisions.csv holds only the identifying columns and the choice
    decisions = tmp_path / "decisions.csv"
    with open(decisions, "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=["document", "start", "end", "choice"], extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(gold), "--decisions", str(decisions)]) == 0
    assert _spans(accord.read(gold)) == {"d": [("ORG", 12, 15), ("LOC", 19, 24)], "e": [("PER", 0, 3)]}
    # a decision for a group this run does not have is an error naming it
    with open(decisions, "a") as fh:
        fh.write("d,1,2,PER\n")
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(gold), "--decisions",
                 str(decisions)]) == 2
    assert "name no group of this run, e.g. document 'd' [1, 2)" in capsys.readouterr().err


def test_reliability_as_json(sides, tmp_path, capsys):
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(tmp_path / "g.jsonl"),
                 "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    # untied groups: d's [0,3), [0,7), [19,24), [25,30) and e's [0,3): a and b agree with all 5, c with 2
    assert {r["annotator"]: r["reliability"] for r in report["annotators"]} == pytest.approx(
        {"a": 1.0, "b": 1.0, "c": 0.4})
    assert (report["groups"], report["kept"], report["disagreements"], report["tie"]) == (6, 3, 4, 1)


def test_ratings_table(tmp_path, capsys):
    table = tmp_path / "r.csv"
    table.write_text("id,x,y,z\ni1,pos,pos,pos\ni2,pos,neg,neg\ni3,pos,neg,\ni4,neu,neg,pos\n")
    gold = tmp_path / "gold.csv"
    assert main(["adjudicate", str(table), "--method", "majority", "--items", "id", "-o", str(gold),
                 "--queue", str(tmp_path / "q.csv")]) == 0
    with open(gold, newline="") as fh:
        rows = [(r["item"], r["label"], r["status"]) for r in csv.DictReader(fh)]
    # i3: pos/neg tie (neg first in category order: neg, neu, pos); i4: three-way tie
    assert rows == [("i1", "pos", "decided"), ("i2", "neg", "decided"), ("i3", "neg", "tie"), ("i4", "neg", "tie")]
    with open(tmp_path / "q.csv", newline="") as fh:
        assert [r["item"] for r in csv.DictReader(fh)] == ["i2", "i3", "i4"]


@pytest.mark.parametrize(("extra", "message"), [
    ([], "three or more sides are aggregated: give --method"),
    (["--method", "majority", "--take", "matches"], "--take apply to the two-sided adjudication"),
    (["--method", "majority", "--min-votes", "4"], "--min-votes must be between 1 and the number of annotators (3)"),
    (["--method", "majority", "--mace-method", "em"], "--mace-method applies with --method mace"),
])
def test_refusals(sides, tmp_path, capsys, extra, message):
    assert main(["adjudicate", *sides, "-o", str(tmp_path / "g.jsonl"), *extra]) == 2
    assert message in capsys.readouterr().err


def test_two_sides_without_method_keep_the_diff_adjudication(sides, tmp_path, capsys):
    out = tmp_path / "g.jsonl"
    assert main(["adjudicate", sides[0], sides[1], "-o", str(out)]) == 0
    # the default rule keeps the key side of the correct rows: [0,7) PER and [19,24) LOC agree; e's [0,3)
    assert _spans(accord.read(out)) == GOLD


HEADER = "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"


def _tsv(first, second):
    return (HEADER + "#Text=Alice met Bob\n1-1\t0-5\tAlice\t" + first + "\t\n1-2\t6-9\tmet\t_\t\n1-3\t10-13\tBob\t"
            + second + "\t\n")


def test_inception_export_to_an_xmi_folder(tmp_path, capsys):
    # INCEpTION's layout annotation/<document>/<user>.tsv, three users on two documents
    for doc in ("doc1.txt", "doc2.txt"):
        folder = tmp_path / "export" / "annotation" / doc
        folder.mkdir(parents=True)
        for user, labels in {"ann": ("PER", "PER"), "bea": ("PER", "ORG"), "cal": ("PER", "_")}.items():
            (folder / f"{user}.tsv").write_text(_tsv(*labels))
    out = tmp_path / "gold"
    assert main(["adjudicate", str(tmp_path / "export"), "--method", "majority", "-o", str(out), "--out-format",
                 "xmi", "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["annotator"] for r in report["annotators"]] == ["ann", "bea", "cal"]
    # Alice: PER 3-0; Bob: PER (ann), ORG (bea), nothing (cal): a three-way tie, left out
    back = accord.read(out)
    assert _spans(back) == {"doc1.txt": [("PER", 0, 5)], "doc2.txt": [("PER", 0, 5)]}
    # two of the three chosen with --annotators: Bob's PER/ORG a tie of two
    assert main(["adjudicate", str(tmp_path / "export"), "--method", "majority", "--annotators", "ann,cal", "-o",
                 str(tmp_path / "g.jsonl")]) == 0
    assert _spans(accord.read(tmp_path / "g.jsonl")) == {"doc1.txt": [("PER", 0, 5)], "doc2.txt": [("PER", 0, 5)]}


def test_bratiaa_project_majority_equals_a_count_of_the_ann_files(tmp_path, capsys):
    """Four annotators' brat folders (bratiaa's example project): the majority gold is every (span, label) that at
    least three of the four gave (a strict majority of four answers, "no span" one of them), counted here from the
    .ann files' T lines."""
    from collections import Counter
    from pathlib import Path

    project = Path(__file__).resolve().parents[2].parent / "shared" / "corpora" / "outside3b" / "bratiaa"
    project = project / "example-project"
    if not project.is_dir():
        pytest.skip(f"{project} is absent (../shared/corpora)")
    names = ["Lisa", "Maria", "Max", "Peter"]
    votes: Counter = Counter()
    for name in names:
        for ann in sorted((project / name).glob("*.ann")):
            seen = set()
            for line in ann.read_text(encoding="utf-8").splitlines():
                if line.startswith("T"):
                    label, start, end = line.split("\t")[1].split(" ")[:3]
                    assert (start, end) not in seen       # one label per span and annotator in this project
                    seen.add((start, end))
                    votes[(ann.stem, label, int(start), int(end))] += 1
    expected = sorted(k for k, v in votes.items() if v >= 3)
    out = tmp_path / "gold.jsonl"
    assert main(["adjudicate", *(str(project / n) for n in names), "--method", "majority", "-o", str(out),
                 "--quiet"]) == 0
    got = sorted((d.id, a.label, a.start, a.end) for d in accord.read(out).documents for a in d.annotations)
    assert got == expected and len(got) == 399


def test_long_ratings_table_with_dawid_skene(tmp_path, capsys):
    table = tmp_path / "long.csv"
    rows = ["item,who,label"] + [f"i{i},{w},{lab}" for i, labs in enumerate(
        [("a", "a", "a"), ("b", "b", "a"), ("a", "a", "b"), ("b", "b", "b"), ("a", "b", "a")])
        for w, lab in zip(("x", "y", "z"), labs)]
    table.write_text("\n".join(rows) + "\n")
    gold = tmp_path / "gold.csv"
    assert main(["adjudicate", str(table), "--items", "item", "--raters", "who", "--labels", "label", "--method",
                 "dawid-skene", "-o", str(gold), "--output", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [r["annotator"] for r in report["annotators"]] == ["x", "y", "z"]
    with open(gold, newline="") as fh:
        labels = [r["label"] for r in csv.DictReader(fh)]
    # x and y agree on every item but the last: the model trusts them; their answers win items 1 to 4
    assert labels[:4] == ["a", "b", "a", "b"]
    # an item nobody rated is an error naming it
    table.write_text("id,x,y\ni1,a,a\ni2,,\n")
    assert main(["adjudicate", str(table), "--items", "id", "--method", "majority", "-o", str(gold)]) == 2
    assert "item 'i2' has no rating" in capsys.readouterr().err


def test_queue_files_are_outputs(sides, tmp_path, capsys):
    queue, page, gold = tmp_path / "q.csv", tmp_path / "q.html", tmp_path / "g.jsonl"
    argv = ["adjudicate", *sides, "--method", "majority", "-o", str(gold), "--queue", str(queue), "--queue-html",
            str(page)]
    assert main(argv) == 0
    assert main(argv) == 0          # written again over the last run's files (they are outputs, not inputs)
    # never over an input
    assert main(["adjudicate", *sides, "--method", "majority", "-o", str(gold), "--queue",
                 str(Path(sides[0]) / "d.ann")]) == 2
    assert "accord never writes over its input" in capsys.readouterr().err
