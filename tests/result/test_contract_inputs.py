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
