"""``accord report --jobs N`` (and ``--dask local``) writes the page of ``--jobs 1``, byte for byte: the shards keep
the page's span views (:mod:`accord.parallel._views`), not the documents."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from accord.cli import main
from tests.parallel._corpora import noisy_pair, write_pair

pytestmark = pytest.mark.filterwarnings("error::accord.parallel.ShardedRunWarning")

SMALL = ["--shard-size", "600"]   # shards of a few documents each
QUICK = ["--samples", "200", "--bootstrap", "50", "--seed", "3"]
_FOOTER = re.compile(r'<footer class="generator">[^<]*</footer>')


def _page(tmp_path: Path, capsys, name: str, args: list[str]) -> str:
    out = tmp_path / name
    status = main(["report", *args, "-o", str(out)])
    err = capsys.readouterr().err
    assert status == 0, err
    assert "scored in one process" not in err
    return _FOOTER.sub("", out.read_text(encoding="utf-8"))    # (the footer names the command line)


def _same_page(tmp_path: Path, capsys, args: list[str], scaling: list[str]) -> str:
    serial = _page(tmp_path, capsys, "serial.html", args)
    sharded = _page(tmp_path, capsys, "sharded.html", [*args, *scaling])
    assert sharded == serial
    return serial


def _systems(tmp_path: Path, seed: int = 1, documents: int = 40, **options: object) -> list[str]:
    """A gold file, its noisy prediction and a third system: the prediction with B-LOC taken for B-ORG and I-PER
    dropped to O."""
    gold, pred = write_pair(tmp_path, seed=seed, documents=documents, **options)
    other = Path(pred).read_text().replace("B-LOC", "B-ORG").replace(" I-PER\n", " O\n")
    (tmp_path / "other.conll").write_text(other)
    return [gold, pred, str(tmp_path / "other.conll")]


@pytest.mark.parametrize("options", [
    [],
    ["--match", "clueval", "--leniency", "overlap"],
    ["--match", "clueval", "--unlabelled"],
    ["--resample", "sentences", "--no-labels"],
])
def test_report_of_three_systems_is_byte_identical(tmp_path, capsys, options):
    _same_page(tmp_path, capsys, [*_systems(tmp_path, comments=True, empty_every=7), *QUICK, *options],
               ["--jobs", "2", *SMALL])


def test_one_system_and_documents_on_one_side(tmp_path, capsys):
    g, p = noisy_pair(random.Random(3), 30)
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(g)
    pred.write_text(p + "-DOCSTART- X O\n\nextra X B-PER\n\n-DOCSTART- X O\n\nmore X O\n\n")
    for mode in ("empty", "skip"):
        _same_page(tmp_path, capsys, [str(gold), str(pred), "--allow-missing", mode, *QUICK],
                   ["--jobs", "2", *SMALL])


def test_brat_folders_hand_counted(tmp_path, capsys, monkeypatch):
    """Character documents shared out file by file; the browser's rows are counted by hand: in each of 5
    documents, Bob is missed as PER (FN) and predicted as LOC (FP), and Rome is missed (FN)."""
    for side in ("gold", "pred"):
        (tmp_path / side).mkdir()
    for k in range(5):
        text = f"Ann met Bob in Rome {k}.\n"
        (tmp_path / "gold" / f"d{k}.txt").write_text(text)
        (tmp_path / "pred" / f"d{k}.txt").write_text(text)
        (tmp_path / "gold" / f"d{k}.ann").write_text("T1\tPER 0 3\tAnn\nT2\tPER 8 11\tBob\nT3\tLOC 15 19\tRome\n")
        (tmp_path / "pred" / f"d{k}.ann").write_text("T1\tPER 0 3\tAnn\nT2\tLOC 8 11\tBob\n")
    import accord.report.html_report as html_report

    seen: list[dict] = []
    real = html_report.report_html

    def spy(*args, **kwargs):
        seen.append(kwargs["views"])
        return real(*args, **kwargs)

    monkeypatch.setattr(html_report, "report_html", spy)
    _same_page(tmp_path, capsys, [str(tmp_path / "gold"), str(tmp_path / "pred"), "--bootstrap", "0"],
               ["--jobs", "2", "--shard-size", "1"])
    assert seen[0] == seen[1]
    browser = seen[1]["browser"]
    assert len(browser["row_kind"]) == 15 and sum(browser["row_kind"]) == 5      # 10 FN, 5 FP
    assert sorted(browser["context_text"]) == sorted(f"Ann met Bob in Rome {k}.\n" for k in range(5))
    # gold rows LOC, PER, none against predicted columns: Rome (LOC) missed, Ann PER, Bob PER taken for LOC
    assert seen[1]["confusions"]["pred"] == {"labels": ["LOC", "PER", "none"],
                                             "counts": [[0, 0, 5], [5, 5, 0], [0, 0, 0]]}


def test_dask_local_is_byte_identical(tmp_path, capsys):
    pytest.importorskip("distributed")
    _same_page(tmp_path, capsys, [*_systems(tmp_path, seed=4, documents=30), *QUICK],
               ["--dask", "local", "--jobs", "2", *SMALL])


def test_align_is_refused_with_jobs(tmp_path, capsys):
    gold, pred = write_pair(tmp_path, seed=5, documents=10)
    assert main(["report", gold, pred, "--align", "exact", "--jobs", "2", "-o", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert "--align with --jobs or --dask" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("scaling", [[], ["--jobs", "2", *SMALL]])
def test_a_gold_files_repairs_are_shown_once(tmp_path, capsys, scaling):
    """Every system is scored against the gold file in shards (in one process too): the gold file's repair warning
    is still shown once, as reading it once shows it, and the page is the same."""
    gold, pred, other = _systems(tmp_path, seed=6, documents=30)
    out = tmp_path / "r.html"
    assert main(["report", gold, pred, other, "--bootstrap", "0", "--samples", "100", "-o", str(out), *scaling]) == 0
    err = capsys.readouterr().err
    assert err.count(f"{gold}: ") == 1 and "invalid IOB2 transition" in err, err


@pytest.mark.parametrize("options", [[], ["--match", "clueval", "--leniency", "tiling"]])
def test_the_page_is_that_of_reading_every_system_whole(tmp_path, capsys, monkeypatch, options):
    """The page made from the shards' views (in one process and with --jobs 2) is the page of reading each system
    whole and evaluating its corpora (accord.clueval._browser.span_views), as before the shards kept views."""
    import accord.clueval._shard_views as views
    import accord.parallel._run as run

    args = [*_systems(tmp_path, seed=8, documents=40, comments=True, empty_every=5), *QUICK, *options]
    streamed = _page(tmp_path, capsys, "streamed.html", args)
    sharded = _page(tmp_path, capsys, "sharded.html", [*args, "--jobs", "2", *SMALL])
    monkeypatch.setattr(run, "streamed", lambda: False)      # every system read whole ...
    monkeypatch.setattr(views, "views_of", lambda *a, **k: None)    # ... and its page from its corpora
    whole = _page(tmp_path, capsys, "whole.html", args)
    assert streamed == whole and sharded == whole


@pytest.mark.parametrize("documents", [12, 40])
def test_sentences_kept_only_where_the_statistics_resample_them(tmp_path, capsys, monkeypatch, documents):
    """--resample auto resamples sentences under 30 documents, documents from 30 on (issue 43): the shards keep
    their sentences' counts only in the first case, and the page (intervals and tests) is that of reading every
    system whole either way."""
    import accord.clueval._shard_views as views
    import accord.parallel._run as run
    import accord.parallel._score as shards

    kept: list[bool] = []
    merge = shards._merge_releasing

    def merged(outcomes):
        result = merge(outcomes)
        kept.extend(m.table.sentences is not None for m in result.measures.values())
        return result

    args = [*_systems(tmp_path, seed=9, documents=documents), *QUICK]
    with monkeypatch.context() as m:
        m.setattr(shards, "_merge_releasing", merged)
        streamed = _page(tmp_path, capsys, "streamed.html", args)
    assert kept and set(kept) == {documents < 30}
    monkeypatch.setattr(run, "streamed", lambda: False)
    monkeypatch.setattr(views, "views_of", lambda *a, **k: None)
    assert streamed == _page(tmp_path, capsys, "whole.html", args)
