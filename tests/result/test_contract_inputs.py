"""The JSON of commands on the inputs added for annotation tools validates against the contract."""

import pytest

from accord.cli import main
from tests.conftest import DATA

from .contract import checked

COMMANDS = [
    ["score", str(DATA / "bionlp-st-ge"), str(DATA / "bionlp-st-ge")],
    ["score", str(DATA / "brat-news"), str(DATA / "brat-news"), "--profile", "mat"],
    ["structured", str(DATA / "bionlp-st-ge"), str(DATA / "bionlp-st-ge"), "--metrics", "event-trigger,event-argument"],
    ["qa", str(DATA / "doccano" / "relation_extraction.jsonl"), str(DATA / "doccano" / "relation_extraction.jsonl")],
    ["score", str(DATA / "doccano" / "sequence_labeling.jsonl"), str(DATA / "doccano" / "sequence_labeling.jsonl"),
     "--match", "clueval"],
    ["score", str(DATA / "conll03" / "gold.conll"), str(DATA / "conll03" / "xlm_flert.conll"), "--compat", "seqeval"],
    ["diff", str(DATA / "bionlp-st-ge"), str(DATA / "bionlp-st-ge"), "--types",
     "Protein,Gene_expression,Negative_regulation,Binding"],      # events compared through their arguments
]


@pytest.mark.parametrize("argv", COMMANDS, ids=[" ".join(a[:1] + a[3:]) or a[0] for a in COMMANDS])
@pytest.mark.filterwarnings("ignore")
def test_json_follows_the_contract(argv, capsys):
    assert main([*argv, "--output", "json"]) == 0
    checked(capsys.readouterr().out)


def test_xmi_input(capsys):
    pytest.importorskip("cassis")
    assert main(["score", str(DATA / "cassis"), str(DATA / "cassis"), "--layer", "Token:pos", "--output", "json"]) == 0
    checked(capsys.readouterr().out)


@pytest.mark.parametrize("extra", [["--by-character"], ["--match", "semeval"], ["--profile", "mat"]])
def test_discontinuous_spans(tmp_path, capsys, extra):
    for side, ann in (("g", "T1\tPER 0 3;8 11\tAda Bob\n"), ("p", "T1\tPER 0 11\tAda and Bob\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.txt").write_text("Ada and Bob")
        (tmp_path / side / "d.ann").write_text(ann)
    assert main(["score", str(tmp_path / "g"), str(tmp_path / "p"), *extra, "--output", "json"]) == 0
    checked(capsys.readouterr().out)
