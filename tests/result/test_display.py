"""print(result) and a notebook's view of a result (``_repr_html_``): every measure's headline figures, the labels,
the intervals after a bootstrap, every text escaped in the HTML; for every command's result."""

from __future__ import annotations

import contextlib
import io
import json
import math
import warnings
from typing import Any

import numpy as np
import pytest

import accord
from accord.agreement._result import AgreementResult
from accord.agreement._unitizing_result import UnitizingResult
from accord.cli import main
from accord.result import Result
from accord.result._display import MAX_ROWS, Display, Table, as_html, as_text, figure
from accord.stats import ComparisonResult
from accord.structured._amr_plain_result import PlainSmatchResult

from .commands import command_lines, command_names, write_inputs

# Two sentences, hand-counted: gold PER (Anna), LOC (Berlin), ORG (UN); predicted PER (Anna), MISC (saw), LOC
# (Berlin Zoo: a wrong extent), ORG (UN). Matches 2 (PER, ORG); gold 3, predicted 4:
# P = 2/4 = 0.5000, R = 2/3 = 0.6667, F1 = 2 * 0.5 * 0.6667 / 1.1667 = 0.5714. MISC: nothing in gold, its recall
# and F1 0/0, 0 under the default zero_division.
GOLD = ("-DOCSTART- O\n\nAnna B-PER\nsaw O\nBerlin B-LOC\nZoo O\n\n"
        "The O\nUN B-ORG\nmet O\n\n")
PRED = ("-DOCSTART- O\n\nAnna B-PER\nsaw B-MISC\nBerlin B-LOC\nZoo I-LOC\n\n"
        "The O\nUN B-ORG\nmet O\n\n")


@pytest.fixture()
def pair(tmp_path):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text(GOLD, encoding="utf-8")
    pred.write_text(PRED, encoding="utf-8")
    return str(gold), str(pred)


def test_the_text_lists_the_hand_counted_figures(pair):
    text = str(accord.score(*pair))
    lines = text.splitlines()
    assert lines[0] == "accord score (pairs): 1 document"
    total = next(line for line in lines if line.strip().startswith("pairs"))
    assert total.split() == ["pairs", "3", "4", "0.5000", "0.6667", "0.5714"]
    by_label = {line.split()[0]: line.split()[1:] for line in lines[lines.index("by label (pairs)") + 2:]}
    assert by_label == {"LOC": ["1", "1", "0.0000", "0.0000", "0.0000"],
                        "MISC": ["0", "1", "0.0000", "0.0000", "0.0000"],
                        "ORG": ["1", "1", "1.0000", "1.0000", "1.0000"],
                        "PER": ["1", "1", "1.0000", "1.0000", "1.0000"]}


def test_the_text_and_the_html_show_the_intervals_after_a_bootstrap(pair):
    result = accord.score(*pair)
    assert "[" not in str(result) and "interval" not in result._repr_html_()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result.bootstrap(50, seed=0)
    low, high = result.ci["pairs"]["rows"][("all",)]["f1"]
    shown = f"0.5714 [{low:.4f}, {high:.4f}]"
    assert shown in str(result) and shown in result._repr_html_()


def test_the_html_escapes_labels_and_file_names(tmp_path):
    gold, pred = tmp_path / "<g&1>.conll", tmp_path / "p.conll"
    gold.write_text(GOLD.replace("PER", "<b>PER&"), encoding="utf-8")
    pred.write_text(PRED.replace("PER", "<b>PER&"), encoding="utf-8")
    page = accord.score(str(gold), str(pred))._repr_html_()
    assert "<b>" not in page and "&lt;b&gt;PER&amp;" in page and "&lt;g&amp;1&gt;.conll" in page
    assert page.startswith('<div class="accord-result">') and page.count("<table>") == 2


def test_a_long_table_is_cut_with_a_count():
    display = Display("t", [], [Table("c", ["label", "f1"], [[f"L{k}", "0.5000"] for k in range(MAX_ROWS + 7)])])
    assert as_text(display).splitlines()[-1] == "  ... and 7 more"
    assert "... and 7 more" in as_html(display)


def test_figures_undefined_integers_and_gate_means():
    assert figure(None) == figure(math.nan) == "—"
    assert figure(3) == figure(np.int64(3)) == "3" and figure(0.123456) == figure(np.float32(0.123456)) == "0.1235"
    assert figure({"mean": 0.5, "sd": 0.1}) == "0.5000"
    assert figure(0.5, [0.25, None]) == "0.5000 [0.2500, —]"
    assert figure(math.nan, [0.1, 0.2]) == "—"


def test_a_comparison_shows_the_leaderboard_and_each_test(pair, tmp_path):
    gold, pred = pair
    a, b = accord.score(gold, pred), accord.score(gold, gold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        compared = accord.compare({"sys<1>": a, "oracle": b}, samples=20, seed=0)
    text = str(compared)
    assert text.splitlines()[0].startswith("accord compare (pairs): 2 systems")
    board = text.splitlines()[text.splitlines().index("leaderboard (pairs, f1)") + 2:][:2]
    assert [row.split()[:3] for row in board] == [["1", "oracle", "1.0000"], ["2", "sys<1>", "0.5714"]]
    total = next(c for c in compared.comparisons if c.label is None)
    assert f"{total.p_adjusted:.4f}" in text and "0.4286" in text      # the difference, 1 - 0.5714
    page = compared._repr_html_()
    assert "sys&lt;1&gt;" in page and "sys<1>" not in page


def test_an_agreement_result_lists_its_coefficients(pair):
    agreed = accord.agree(list(pair), format="conll")
    text = str(agreed)
    for name, value in agreed.totals["coefficients"].items():
        assert any(line.split() == [name, f"{value:.4f}"] for line in text.splitlines()), name


def _captured(argv: list[str], monkeypatch) -> Any:
    """The result object a command line makes (the first whose JSON is written)."""
    seen: list[Any] = []
    for cls in (Result, ComparisonResult, AgreementResult, UnitizingResult, PlainSmatchResult):
        original = cls.to_dict

        def spy(self, *args, _original=original, **kwargs):
            seen.append(self)
            return _original(self, *args, **kwargs)
        monkeypatch.setattr(cls, "to_dict", spy)
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert main([*argv, "--output", "json"]) == 0
    monkeypatch.undo()
    made = seen[-1]
    if isinstance(made, PlainSmatchResult):   # accord smatch writes from plain counts; Python shows the Result
        made = made.to_result()
    return made, json.loads(out.getvalue())


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return write_inputs(tmp_path_factory.mktemp("display"))


@pytest.mark.parametrize("name", command_names())
def test_every_commands_result_prints_its_headline_figures(inputs, name, monkeypatch):
    argv = command_lines(inputs)[name]
    if name == "agree gamma":
        argv = [*argv, "--seed", "0"]
    result, out = _captured(argv, monkeypatch)
    text, page = str(result), result._repr_html_()
    assert "\n" in text and text.splitlines()[0].startswith(f"accord {out['command']}")
    assert page.startswith('<div class="accord-result">') and "<table>" in page
    measures = out.get("measures") or ({out["kind"]: out} if "kind" in out else {})
    for measure, data in measures.items():
        if isinstance(result, Result) and measure in result.measures:
            for rate in result.measures[measure].kind.rate_names:
                value = data["totals"].get(rate)
                assert figure(value) in text, (measure, rate)
    coefficients = out.get("totals", {}).get("coefficients", {}) if out["command"] == "agree" else {}
    for coefficient, value in coefficients.items():
        assert figure(value) in text, coefficient


def test_a_coreference_result_prints_its_conll_f1():
    """Key: one entity {a, b, c}; response: {a, b} and {c}. By hand: MUC R 1/2, P 1/1, F1 2/3; B-cubed R
    (2/3 + 2/3 + 1/3) / 3 = 5/9, P 1, F1 5/7; CEAFe (phi4: 2*2/(3+2) = 0.8) R 0.8/1, P 0.8/2, F1 8/15. CoNLL F1 =
    (2/3 + 5/7 + 8/15) / 3 = 201/315 = 0.6381."""
    a, b, c = (0, 1), (2, 3), (4, 5)
    result = accord.coref({"d": [[a, b, c]]}, {"d": [[a, b], [c]]})
    assert f"CoNLL F1 (mean of MUC, B-cubed, CEAFe F1): {201 / 315:.4f}" in str(result)
    assert "0.6381" in result._repr_html_()
