"""Modes as plug-ins: a toy mode added by one registration line runs through accord.score and the command line,
and its counts (exact span and label, counted with Python sets) equal the strict pairs mode's on CoNLL-2003."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.modes import Mode, ModeOptions, mode, mode_names, register_mode
from accord.result import ALL, CountTable, Measure, PairsKind, Result

from .result.commands import CONLL_GOLD, CONLL_PRED


def toy_measure(gold, pred, options: ModeOptions) -> Result:
    """Exact matches of (start, end, label) per document, as sets: match, missing and spurious."""
    docs = list(dict.fromkeys([*gold, *pred]))
    values = np.zeros((len(docs), 1, 5), dtype=np.int64)
    for k, d in enumerate(docs):
        g = {(a.start, a.end, a.label) for a in gold[d].annotations} if d in gold else set()
        p = {(a.start, a.end, a.label) for a in pred[d].annotations} if d in pred else set()
        values[k, 0] = [len(g & p), 0, 0, len(g - p), len(p - g)]
    table = CountTable(PairsKind.fields, tuple(docs), (ALL,), values)
    return Result("score", "toy", {"toy": Measure(PairsKind(options.beta, options.zero_division), table)},
                  nested=False, options=options.options, inputs=options.inputs)


@pytest.fixture()
def toy():
    from accord import modes

    register_mode(Mode("toy", "exact spans as sets (a test's mode)", "tests.test_modes:toy_measure"))
    try:
        yield
    finally:
        del modes._MODES["toy"]


def test_a_mode_added_in_one_line_scores_like_the_strict_pairs(toy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = accord.score(CONLL_GOLD, CONLL_PRED, match="toy")
        strict = accord.score(CONLL_GOLD, CONLL_PRED)
    assert ours.mode == "toy" and ours.repairs == strict.repairs
    for k in ("gold", "pred", "match", "missing", "spurious", "precision", "recall", "f1"):
        assert ours.totals[k] == strict.totals[k], k
    assert ours.totals["match"] == 5339   # conlleval's count on these files (tests/test_scoring_conll03.py)


def test_the_command_line_offers_it(toy, capsys):
    assert "toy" in mode_names()
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--match", "toy", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "toy" and out["totals"]["match"] == 5339
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--match", "toy", "--leniency", "2"]) == 2
    assert "do not apply to --match toy" in capsys.readouterr().err


def test_the_registry_refuses_what_it_cannot_run():
    with pytest.raises(OptionError, match="registered already"):
        register_mode(Mode("pairs", "again", "accord.pairs._score:measure_corpora"))
    with pytest.raises(OptionError, match="module:function"):
        register_mode(Mode("broken", "no function", "accord.pairs._score"))
    with pytest.raises(OptionError, match="match must be one of pairs, clueval, semeval"):
        mode("nothing")
    with pytest.raises(OptionError, match="match must be one of"):
        accord.score(CONLL_GOLD, CONLL_PRED, match="nothing")
