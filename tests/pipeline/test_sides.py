"""Two single files of different names pair as given (accord.pipeline._sides; issue 33, item 5).

Before the fix ``accord score gold.json pred.json`` exited 2 with "only in the gold side": each file's document is
named after the file. MATScore's ``--file``/``--ref_file`` and every peer pair the two files as given.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.formats import read, write
from accord.formats.convert import for_format
from accord.model import Corpus, Document
from accord.model import make_annotation as A

TEXT = "John lives in New York"
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora" / "outside3b" / "webanno" / "curation"


def _gold_pred() -> tuple[Corpus, Corpus]:
    """Gold PER John, LOC New York; predicted PER John, ORG New York: 1 match, 1 missing, 1 spurious (strict)."""
    gold = Corpus([Document("doc-a", (A("PER", 0, 4), A("LOC", 14, 22)), text=TEXT)])
    pred = Corpus([Document("doc-b", (A("PER", 0, 4), A("ORG", 14, 22)), text=TEXT)])
    return gold, pred


@pytest.mark.parametrize("fmt,ext", [("mat-json", "json"), ("gate", "xml"), ("xmi", "xmi"), ("jsonl", "jsonl"),
                                     ("label-studio", "json"), ("doccano", "jsonl"), ("conll", "conll"),
                                     ("conllu", "conllu"), ("vrt", "vrt")])
def test_two_files_of_different_names_pair(tmp_path, capsys, fmt, ext):
    gold, pred = _gold_pred()
    g, p = tmp_path / f"gold.{ext}", tmp_path / f"system-output.{ext}"
    write(for_format(gold, fmt), g, fmt)
    write(for_format(pred, fmt), p, fmt)
    gold_ids, pred_ids = list(read(g, format=fmt)), list(read(p, format=fmt))
    assert len(gold_ids) == len(pred_ids) == 1
    assert main(["score", str(g), str(p), "--format", fmt, "--output", "json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert (out["totals"]["match"], out["totals"]["missing"], out["totals"]["spurious"]) == (1, 1, 1)
    assert list(out["by_document"]) == gold_ids     # named as the gold file names its document
    r = accord.score(str(g), str(p), format=fmt)
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 1, 1)


def test_two_brat_files(tmp_path):
    for stem, label in (("a", "LOC"), ("b", "ORG")):
        (tmp_path / f"{stem}.txt").write_text(TEXT, encoding="utf-8")
        (tmp_path / f"{stem}.ann").write_text(f"T1\tPER 0 4\tJohn\nT2\t{label} 14 22\tNew York\n", encoding="utf-8")
    r = accord.score(str(tmp_path / "a.ann"), str(tmp_path / "b.ann"))
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 1, 1)
    assert list(r.by_document) == ["a"]


def test_qa_diff_benchmark_agree_adjudicate_pair_two_files(tmp_path, capsys):
    gold, pred = _gold_pred()
    g, p = tmp_path / "key.json", tmp_path / "response.json"
    write(gold, g, "mat-json")
    write(pred, p, "mat-json")
    for argv in (["qa", str(g), str(p)], ["diff", str(g), str(p)], ["benchmark", str(g), str(p), str(g)],
                 ["agree", str(g), str(p)], ["errors", str(g), str(p)],
                 ["score", str(g), str(p), "--match", "clueval"], ["score", str(g), str(p), "--match", "semeval"],
                 ["adjudicate", str(g), str(p), "-o", str(tmp_path / "adj.json")]):
        assert main(argv) == 0, (argv, capsys.readouterr().err)
        capsys.readouterr()


def test_files_of_several_documents_pair_by_their_ids(tmp_path):
    # JSON lines holding d1, d2 in gold and d2, d1 in the prediction: paired by id inside the files
    def line(doc_id: str, label: str) -> str:
        return json.dumps({"id": doc_id, "text": TEXT, "annotations": [{"label": label, "start": 0, "end": 4}]})
    (tmp_path / "g.jsonl").write_text(line("d1", "PER") + "\n" + line("d2", "LOC") + "\n", encoding="utf-8")
    (tmp_path / "p.jsonl").write_text(line("d2", "LOC") + "\n" + line("d1", "ORG") + "\n", encoding="utf-8")
    r = accord.score(str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"))
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 1, 1)     # d2 matches, d1 does not
    assert r.by_document["d2"].match == 1 and r.by_document["d1"].match == 0


def test_folders_still_pair_by_file_name(tmp_path, capsys):
    gold, pred = _gold_pred()
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    write(gold, tmp_path / "g" / "a.json", "mat-json")
    write(pred, tmp_path / "p" / "b.json", "mat-json")
    assert main(["score", str(tmp_path / "g"), str(tmp_path / "p")]) == 2
    assert "only in the gold side" in capsys.readouterr().err


def test_a_file_against_a_folder_pairs_by_name(tmp_path, capsys):
    gold, pred = _gold_pred()
    (tmp_path / "p").mkdir()
    write(gold, tmp_path / "a.json", "mat-json")
    write(pred, tmp_path / "p" / "b.json", "mat-json")
    assert main(["score", str(tmp_path / "a.json"), str(tmp_path / "p")]) == 2
    assert "only in the gold side" in capsys.readouterr().err


def test_mat_csv_names_the_files(tmp_path):
    gold, pred = _gold_pred()
    write(gold, tmp_path / "ref.json", "mat-json")
    write(pred, tmp_path / "hyp.json", "mat-json")
    r = accord.score(str(tmp_path / "ref.json"), str(tmp_path / "hyp.json"))
    assert list(r.by_document) == ["ref"]
    assert r.corpora[1].files == {"ref": "hyp.json"} and r.corpora[0].files == {"ref": "ref.json"}


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/corpora/outside3b (INCEpTION's curation tests) absent")
def test_webanno_tsv_user1_user2(tmp_path, capsys):
    # INCEpTION's simpleSpanNoDiffWithLabelTest: both users put POS NN on 'sentence' (characters 17-25)
    case = SHARED / "simpleSpanNoDiffWithLabelTest"
    for name in ("user1.tsv", "user2.tsv"):
        shutil.copy(case / name, tmp_path / name)
    assert main(["score", str(tmp_path / "user1.tsv"), str(tmp_path / "user2.tsv"), "--layer", "POS",
                 "--output", "json"]) == 0, capsys.readouterr().err
    out = json.loads(capsys.readouterr().out)
    assert (out["totals"]["gold"], out["totals"]["match"]) == (1, 1)


def test_documents_named_inside_both_files_pair_with_a_warning(tmp_path):
    from accord.errors import AccordWarning

    for name, doc_id, label in (("g.jsonl", "news-17", "LOC"), ("p.jsonl", "news-18", "ORG")):
        line = {"id": doc_id, "text": TEXT, "annotations": [{"label": "PER", "start": 0, "end": 4},
                                                            {"label": label, "start": 14, "end": 22}]}
        (tmp_path / name).write_text(json.dumps(line) + "\n", encoding="utf-8")
    with pytest.warns(AccordWarning, match="named 'news-17' and 'news-18' inside the files: compared as given"):
        r = accord.score(str(tmp_path / "g.jsonl"), str(tmp_path / "p.jsonl"))
    assert (r.totals.match, r.totals.missing, r.totals.spurious) == (1, 1, 1)
    assert list(r.by_document) == ["news-17"]


def test_coref_pairs_two_single_files(tmp_path, capsys):
    # the same brat chain in two files of different names: every metric 1 (before: "only in the key")
    for stem in ("key", "response"):
        (tmp_path / f"{stem}.txt").write_text("John saw him there", encoding="utf-8")
        (tmp_path / f"{stem}.ann").write_text("T1\tPER 0 4\tJohn\nT2\tPER 9 12\thim\n*\tCoreference T1 T2\n",
                                              encoding="utf-8")
    assert main(["coref", str(tmp_path / "key.ann"), str(tmp_path / "response.ann"), "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["conll_f1"] == 1.0
