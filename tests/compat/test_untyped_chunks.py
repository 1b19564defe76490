"""Under --compat seqeval an untyped chunk (a bare B, I, E, S, L or U tag) is the type ``_`` in every scheme, as
seqeval 1.2.2 names it (run here as the peer); it was ``_`` for IOB1 and IOE1 but ``''`` for the others."""

from __future__ import annotations

import json
import random

import pytest

from accord.cli import main

seqeval_metrics = pytest.importorskip("seqeval.metrics")
seqeval_scheme = pytest.importorskip("seqeval.scheme")

LETTERS = {"IOB1": "IB", "IOB2": "BI", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}


def _write(path, sentences):
    path.write_text("".join("".join(f"w {t}\n" for t in s) + "\n" for s in sentences), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("scheme", sorted(LETTERS))
@pytest.mark.parametrize("seed", range(2))
def test_untyped_chunks_are_underscore_as_in_seqeval(tmp_path, capsys, scheme, seed):
    rng = random.Random(seed)
    # bare letters (untyped) mixed with typed tags
    tags = ["O", "O"] + list(LETTERS[scheme]) + [f"{x}-PER" for x in LETTERS[scheme]]
    y_true = [[rng.choice(tags) for _ in range(rng.randint(1, 8))] for _ in range(40)]
    y_pred = [[t if rng.random() < 0.6 else rng.choice(tags) for t in s] for s in y_true]
    args = ["score", _write(tmp_path / "g.conll", y_true), _write(tmp_path / "p.conll", y_pred), "--scheme", scheme,
            "--compat", "seqeval", "--output", "json", "-q"]
    assert main(args) == 0
    ours = json.loads(capsys.readouterr().out)["by_label"]
    theirs = seqeval_metrics.classification_report(y_true, y_pred, mode="strict", output_dict=True,
                                                   scheme=getattr(seqeval_scheme, scheme), zero_division=0)
    theirs = {k: v for k, v in theirs.items() if not k.endswith(" avg")}
    assert "" not in ours
    # every type seqeval reports, "_" among them, with its support (gold) and precision
    assert {k for k, v in ours.items() if v["gold"]} == {k for k, v in theirs.items() if v["support"]}
    for name, row in theirs.items():
        if row["support"]:
            assert ours[name]["gold"] == row["support"]
            assert ours[name]["precision"] == pytest.approx(row["precision"], abs=1e-12)
            assert ours[name]["recall"] == pytest.approx(row["recall"], abs=1e-12)
