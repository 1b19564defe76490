"""``accord score`` in one process scores shard by shard as ``--jobs`` does when its outputs need only the count
tables (issue 43, part 3): one shard's documents alive at a time, the output byte for byte that of reading the whole
corpus at once; ``--details``, ``--html`` and ``--mat-csv`` read the documents whole as before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import accord.parallel._run as run_module
import accord.parallel._score as score_module
from accord.cli import main
from tests.parallel._corpora import write_pair

ROOT = Path(__file__).resolve().parents[2]
CONLL03 = ROOT / "tests" / "data" / "conll03"

pytestmark = pytest.mark.filterwarnings("error::accord.parallel.ShardedRunWarning")


@pytest.fixture
def shards(monkeypatch) -> list[int]:
    """Small shards (a few documents each), and the number of shards scored so far (one item per shard)."""
    monkeypatch.setattr(score_module, "DEFAULT_SHARD_BYTES", 600)
    seen: list[int] = []
    real = score_module.score_shard

    def counted(work):
        seen.append(1)
        return real(work)

    monkeypatch.setattr(score_module, "score_shard", counted)
    return seen


def _run(capsys, argv: list[str], expected: int = 0) -> tuple[str, str]:
    status = main(["score", *argv])
    out, err = capsys.readouterr()
    assert status == expected, err
    return out, err


def _whole(monkeypatch, capsys, argv: list[str], expected: int = 0) -> tuple[str, str]:
    """The output of reading the whole corpus at once (the one-process path before streaming)."""
    with monkeypatch.context() as m:
        m.setattr(run_module, "streamed", lambda: False)
        m.setattr(score_module, "streamed", lambda: False)
        return _run(capsys, argv, expected)


@pytest.mark.parametrize("options", [
    ["--output", "json"],
    ["--output", "csv"],
    [],                                                  # the table
    ["--output", "json", "--bootstrap", "40", "--seed", "2"],
    ["--bootstrap", "40", "--seed", "2", "--resample", "sentences"],
    ["--output", "json", "--match", "clueval", "--leniency", "overlap"],
    ["--output", "json", "--match", "clueval", "--unlabelled"],
    ["--output", "json", "--match", "semeval"],
    ["--output", "json", "--by-token"],
    ["--output", "json", "--scheme", "IOBES"],
    ["--output", "json", "--scheme", "IOBES", "--repair", "discard"],
])
def test_streamed_output_is_byte_identical(tmp_path, monkeypatch, capsys, shards, options):
    gold, pred = write_pair(tmp_path, seed=5, documents=40, comments=True, empty_every=7)
    argv = [gold, pred, *options]
    whole = _whole(monkeypatch, capsys, argv)
    assert not shards
    streamed = _run(capsys, argv)
    assert len(shards) > 5        # scored shard by shard (before: none; the corpus read whole)
    assert streamed == whole


def test_conll03_counts_are_seqscores(tmp_path, monkeypatch, capsys, shards):
    """The real CoNLL-2003 test set and system output, streamed: every type's counts are those seqscore printed
    (tests/data/conll03/xlm_flert.seqscore.txt), and the JSON that of the whole corpus."""
    argv = [str(CONLL03 / "gold.conll"), str(CONLL03 / "xlm_flert.conll"), "--output", "json"]
    monkeypatch.setattr(score_module, "DEFAULT_SHARD_BYTES", 64 << 10)
    out, _ = _run(capsys, argv)
    assert len(shards) > 5
    result = json.loads(out)
    table = (CONLL03 / "xlm_flert.seqscore.txt").read_text().split("\n\n")[0]
    rows = [re.split(r"\s*\|\s*", line.strip("| ")) for line in table.splitlines()[2:]]
    for name, *_, reference, predicted, correct in rows:
        counts = result["totals"] if name == "ALL" else result["by_label"][name]
        assert (counts["gold"], counts["pred"], counts["match"]) == (int(reference), int(predicted), int(correct))
    assert out == _whole(monkeypatch, capsys, argv)[0]


def test_an_error_is_the_same_error(tmp_path, monkeypatch, capsys, shards):
    """An E- tag read as IOB2 with --repair error: the same one-line error (the first in file order), exit 2."""
    gold, pred = write_pair(tmp_path, seed=5, documents=40)
    argv = [gold, pred, "--output", "json", "--repair", "error"]
    whole = _whole(monkeypatch, capsys, argv, expected=2)
    assert "is not a IOB2 tag" in whole[1] or "invalid" in whole[1], whole[1]
    assert _run(capsys, argv, expected=2) == whole


@pytest.mark.parametrize("output", ["--details", "--html", "--mat-csv"])
def test_outputs_of_every_item_read_the_documents_whole(tmp_path, capsys, shards, output):
    gold, pred = write_pair(tmp_path, seed=6, documents=20)
    _run(capsys, [gold, pred, "--output", "json", output, str(tmp_path / "out")])
    assert not shards


def _has_sentences(result) -> list[bool]:
    return [m.table.sentences is not None for m in result.measures.values()]


@pytest.mark.parametrize("options, documents, shard_bytes, kept", [
    (["--output", "json"], 40, 600, False),                                    # no bootstrap
    (["--output", "json", "--bootstrap", "30", "--seed", "3", "--resample", "documents"], 40, 600, False),
    (["--output", "json", "--bootstrap", "30", "--seed", "3"], 40, 600, False),  # auto, 40 documents: documents
    (["--output", "json", "--bootstrap", "30", "--seed", "3"], 80, 1 << 20, False),  # two shards of 40: dropped there
    (["--output", "json", "--bootstrap", "30", "--seed", "3"], 12, 600, True),   # auto under 30: sentences
    (["--output", "json", "--bootstrap", "30", "--seed", "3", "--resample", "sentences"], 40, 600, True),
    (["--output", "json", "--confidence-data", "--seed", "3"], 12, 600, True),
])
def test_shards_keep_sentences_only_for_a_bootstrap_of_sentences(tmp_path, monkeypatch, capsys, shards, options,
                                                                  documents, shard_bytes, kept):
    """The caller holds the count tables' sentences (a few cells per sentence: most of what it held at 30M tokens,
    755 MiB) only when the output may resample sentences: --resample sentences, or auto under 30 documents (issue
    43). Before, every shard sent them back and the merges copied them whatever the options; the JSON is the
    whole corpus's in every case (the reference: the one-process path that reads it whole)."""
    monkeypatch.setattr(score_module, "DEFAULT_SHARD_BYTES", shard_bytes)
    gold, pred = write_pair(tmp_path, seed=7, documents=documents)
    argv = [gold, pred, *options]
    whole = _whole(monkeypatch, capsys, argv)
    sent: list[bool] = []
    merged: list[bool] = []
    real_shard, real_merge = score_module.score_shard, score_module._merge_releasing

    def shard(work):
        out = real_shard(work)
        sent.extend(_has_sentences(out.result))
        return out

    def merge(outcomes):
        result = real_merge(outcomes)
        merged.extend(_has_sentences(result))
        return result

    monkeypatch.setattr(score_module, "score_shard", shard)
    monkeypatch.setattr(score_module, "_merge_releasing", merge)
    assert _run(capsys, argv) == whole
    assert merged and set(merged) == {kept}
    if shard_bytes > 1 << 16 or options == ["--output", "json"]:
        assert set(sent) == {kept}      # dropped in the worker (a shard of 30 documents or more, no bootstrap)
