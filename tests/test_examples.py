"""The sample data the README's first command scores (examples/): accord's figures against a hand count and
against seqeval run on the same tags."""

import json
from pathlib import Path

import pytest

from accord.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


def _tags(path: Path) -> list[list[str]]:
    sentences, current = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("-DOCSTART-"):
            if current:
                sentences.append(current)
            current = []
        else:
            current.append(line.split()[-1])
    if current:
        sentences.append(current)
    return sentences


def test_the_sample_scores_its_hand_count(capsys):
    assert main(["score", str(EXAMPLES / "gold.conll"), str(EXAMPLES / "system.conll"), "--output", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    t = result["totals"]
    # by hand (examples/README.md): Maria Lindqvist, Tampere, Oskar, Oslo, Aurora Air matched; Nordic Baking Guild
    # cut to Nordic Baking; Lisbon called ORG
    assert (t["gold"], t["pred"], t["match"]) == (7, 7, 5)
    assert t["f1"] == pytest.approx(5 / 7)
    by_label = {k: (v["gold"], v["pred"], v["match"]) for k, v in result["by_label"].items()}
    assert by_label == {"PER": (2, 2, 2), "LOC": (3, 2, 2), "ORG": (2, 3, 1)}


def test_the_sample_scores_what_seqeval_gives():
    metrics = pytest.importorskip("seqeval.metrics")
    gold, system = _tags(EXAMPLES / "gold.conll"), _tags(EXAMPLES / "system.conll")
    assert metrics.f1_score(gold, system) == pytest.approx(5 / 7)
    assert metrics.precision_score(gold, system) == pytest.approx(5 / 7)


def test_the_installed_sample_is_the_one_of_the_clone_and_its_paths_print_on_one_line():
    """``accord score $(python -m accord.examples)``: the README's first command from any install (the sample is
    package data; the clone's examples/ is a link to it)."""
    import subprocess
    import sys

    import accord.examples as sample

    assert sample.GOLD.read_bytes() == (EXAMPLES / "gold.conll").read_bytes()
    assert sample.SYSTEM.read_bytes() == (EXAMPLES / "system.conll").read_bytes()
    run = subprocess.run([sys.executable, "-m", "accord.examples"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.split() == [str(sample.GOLD), str(sample.SYSTEM)]
