"""The leaderboard's renderings (issue 34, part 3): the Markdown and LaTeX tables for a paper (exact text of a small
case written by hand), LaTeX escaping, the terminal table with the detectable differences, ``accord compare
--output markdown|latex`` (and ``-o x.md|x.tex``), and the report's forest plot (its coordinates counted by hand,
and in headless Chromium at the intervals of ``compare --bootstrap``)."""

from __future__ import annotations

import io
import re
import warnings

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.report.leaderboard import (
    detectable_lines,
    forest_plot,
    latex,
    latex_escape,
    markdown,
    markdown_escape,
    render_leaderboard,
)
from accord.report.table import TableConsole, row_interval
from accord.result import ALL
from accord.stats import Comparison, compare

from ..conftest import headless_dom
from ..result.commands import CONLL_GOLD, CONLL_PRED, worse_copy
from ..stats.test_leaderboard import _head, hand_built


def small_case(second: str = "B|<x>"):
    """A (three runs, 90 ± 1, [88, 92]) beats the second system (80, [75, 85]) on the totals."""
    headline = {second: _head(0.80, interval=[0.75, 0.85]), "A": _head(0.90, runs=3, sd=0.01, interval=[0.88, 0.92])}
    beaten = Comparison(second, "A", "pairs", None, "f1", 0.8, 0.9, 0.1, 0.001, 0.001, "permutation", True,
                        family="pairs/f1/ALL", family_size=1, standard_error=0.01, detectable=0.028)
    out = hand_built(headline, [beaten])
    out.options.update(bootstrap=1000, confidence=0.95, ci_method="percentile")
    return out


def test_markdown_of_a_small_case():
    assert markdown(small_case()) == (
        "| Rank | # | System | F1 % | 95 % interval | Runs | Beats |\n"
        "|---:|:---|:---|---:|:---:|---:|:---|\n"
        "| 1 | a | A | 90.00 ± 1.00 | [88.0, 92.0] | 3 | b |\n"
        "| 2 | b | B\\|\\<x\\> | 80.00 | [75.0, 85.0] | 1 |  |\n"
        "\n"
        "F1 (%) of the pairs totals, mean ± standard deviation over the runs, highest first; 95 % percentile "
        "intervals from 1000 resamples of the 30 documents and of the runs (seed 1). Beats: the systems a system "
        "beats significantly, paired permutation test, 1000 samples over the 30 documents, p-values Holm-adjusted "
        "within their family of 1 test (separate families), α = 0.05.\n")


def test_latex_of_a_small_case_escapes_the_name_and_marks_superscripts():
    assert latex(small_case("A_&_B%")) == (
        "\\begin{table}[t]\n"
        "\\centering\n"
        "\\begin{tabular}{rllrcr}\n"
        "\\toprule\n"
        "Rank & \\# & System & F1 (\\%) & 95\\,\\% interval & Runs \\\\\n"
        "\\midrule\n"
        "1 & a & A & 90.00 $\\pm$ 1.00$^{\\mathrm{b}}$ & [88.0, 92.0] & 3 \\\\\n"
        "2 & b & A\\_\\&\\_B\\% & 80.00 & [75.0, 85.0] & 1 \\\\\n"
        "\\bottomrule\n"
        "\\end{tabular}\n"
        "\\caption{F1 (\\%) of the pairs totals, mean $\\pm$ standard deviation over the runs, highest first; 95 \\% "
        "percentile intervals from 1000 resamples of the 30 documents and of the runs (seed 1). Superscripts: the "
        "systems a system beats significantly, paired permutation test, 1000 samples over the 30 documents, "
        "p-values Holm-adjusted within their family of 1 test (separate families), $\\alpha$ = 0.05.}\n"
        "\\label{tab:leaderboard}\n"
        "\\end{table}\n")


def test_one_run_each_and_no_bootstrap_leaves_out_the_interval_and_runs_columns():
    headline = {"X": _head(0.5), "Y": _head(None)}
    out = hand_built(headline, [])
    assert markdown(out).split("\n")[:4] == ["| Rank | # | System | F1 % | Beats |", "|---:|:---|:---|---:|:---|",
                                             "| 1 | a | X | 50.00 |  |", "| — | b | Y | — |  |"]
    assert "\\begin{tabular}{rllr}" in latex(out) and "-- & b & Y & -- \\\\" in latex(out)


def test_latex_escape_of_every_special_character():
    assert latex_escape("\\&%$#_{}~^<>|") == ("\\textbackslash{}\\&\\%\\$\\#\\_\\{\\}\\textasciitilde{}"
                                             "\\textasciicircum{}\\textless{}\\textgreater{}\\textbar{}")
    assert latex_escape("a\nb\tc") == "a\\textbackslash{}x0ab\\textbackslash{}x09c"    # one line, visible
    assert markdown_escape("*a*|b\n") == "\\*a\\*\\|b\\\\x0a"


def test_forest_plot_coordinates_counted_by_hand():
    headline = {"low": _head(0.7, interval=[0.6, 0.8]), "high": _head(0.9, interval=[0.85, 0.95]),
                "none": _head(None)}
    plot = forest_plot(hand_built(headline, []).leaderboard())
    # figures and ends from 60 to 95 %: ticks every 10 points (a span of 35 / 5 = 7, rounded up to 10), the axis
    # from 60 to 100 over the 640 - 180 - 24 = 436 units right of the names
    assert (plot["low"], plot["high"], plot["left"], plot["right"]) == (60, 100, 180, 616)
    assert [(t["x"], t["label"]) for t in plot["ticks"]] == [(180, "60"), (289, "70"), (398, "80"), (507, "90"),
                                                             (616, "100")]
    high, low = plot["rows"]            # highest first; the undefined figure has no row
    assert (high["system"], high["x_lo"], high["x"], high["x_hi"], high["y"]) == ("high", 452.5, 507, 561.5, 30)
    assert (low["system"], low["x_lo"], low["x"], low["x_hi"], low["y"]) == ("low", 180, 289, 398, 58)
    assert forest_plot(hand_built({"u": _head(None), "v": _head(None)}, []).leaderboard()) is None


def _close_systems():
    rng = np.random.default_rng(11)
    gold = rng.integers(4, 12, 30)

    def system(rate):
        found = rng.binomial(gold, rate)
        return np.stack([found, 0 * gold, 0 * gold, gold - found, rng.binomial(gold, 1 - rate)], axis=1)

    from accord.result import CountTable, Measure, PairsKind, Result
    out = {}
    for name, rate in (("A", 0.75), ("B", 0.74)):
        values = system(rate)
        table = CountTable(PairsKind.fields, tuple(f"d{k}" for k in range(30)), (ALL,), values.reshape(30, 1, 5))
        out[name] = Result("score", "pairs", {"pairs": Measure(PairsKind(), table)}, nested=False)
    return out


def test_terminal_leaderboard_and_what_a_non_significant_test_could_not_detect():
    out = compare(_close_systems(), samples=500, seed=2)
    (c,) = out.comparisons
    assert not c.significant and c.detectable > 0.01       # the precondition: 1 point apart on 30 documents
    shown = f"{100 * c.detectable:.1f}"
    assert detectable_lines(out) == [(f"B vs A, pairs F1: not significant; with 30 documents, differences below "
                                      f"{shown} F1 points are not detectable")]
    from accord.cli.compare import render_comparison

    buf = io.StringIO()
    render_comparison(out, TableConsole(file=buf, width=200))
    text = buf.getvalue()
    assert text.index("leaderboard") < text.index("systems (every") < text.index("differences (b - a")
    assert f"differences below {shown} F1 points are not detectable" in text
    board = re.search(r"leaderboard.*?\n(.*?)\n\n", text + "\n\n", re.DOTALL).group(1)
    assert re.search(r"a\s+│\s+1\s+│\s+A\s+│", board) and re.search(r"b\s+│\s+2\s+│\s+B\s+│", board)


def test_terminal_leaderboard_shows_markup_as_text():
    out = small_case("[red]X[/red]")
    buf = io.StringIO()
    render_leaderboard(out, TableConsole(file=buf, width=200))
    assert "[red]X[/red]" in buf.getvalue() and "90.00 ± 1.00" in buf.getvalue()


def test_compare_writes_markdown_and_latex(tmp_path, capsys, recwarn):
    worse = worse_copy(tmp_path)
    args = ["compare", CONLL_GOLD, CONLL_PRED, worse, "--samples", "200", "--seed", "1", "--no-labels", "-q"]
    assert main([*args, "--output", "markdown"]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert lines[0] == "| Rank | # | System | F1 % | Beats |"
    assert lines[2] == "| 1 | a | xlm\\_flert | 93.69 | b |" and lines[3] == "| 2 | b | worse | 85.68 |  |"
    assert main([*args, "-o", str(tmp_path / "t.tex"), "--bootstrap", "100"]) == 0
    tex = (tmp_path / "t.tex").read_text(encoding="utf-8")
    assert tex.startswith("\\begin{table}") and "1 & a & xlm\\_flert & 93.69$^{\\mathrm{b}}$ & [" in tex
    assert "100 resamples of the 231 documents" in tex and "over the 231 documents" in tex
    assert main([*args, "-o", str(tmp_path / "t.md"), "--output", "json"]) == 0       # --output wins
    assert (tmp_path / "t.md").read_text(encoding="utf-8").startswith("{")


def test_report_forest_plot_in_chromium_at_the_intervals_of_compare(tmp_path, capsys, recwarn):
    worse = worse_copy(tmp_path)
    page = tmp_path / "report.html"
    assert main(["report", CONLL_GOLD, CONLL_PRED, worse, "--samples", "200", "--bootstrap", "200", "--seed", "1",
                 "--no-labels", "-o", str(page)]) == 0
    dom, errors = headless_dom(page)
    assert errors == [] and 'data-ready="yes"' in dom
    svg = re.search(r'<svg id="forest-plot".*?</svg>', dom, re.DOTALL).group(0)
    low, high, left, right = (float(re.search(f'data-{k}="([^"]+)"', svg).group(1))
                              for k in ("low", "high", "left", "right"))

    def x_of(v):
        return left + (100 * v - low) / (high - low) * (right - left)

    groups = re.findall(r'<g class="system" data-system="([^"]+)">(.*?)</g>', svg, re.DOTALL)
    assert [name for name, _ in groups] == ["xlm_flert", "worse"]
    for (name, body), path in zip(groups, (CONLL_PRED, worse)):
        result = accord.score(CONLL_GOLD, path)
        result.bootstrap(200, seed=1, resample="documents")     # the report's draws: seed 1, the 231 documents
        lo, hi = row_interval(result, next(iter(result.measures)), ALL, "f1")
        value = result.measures[next(iter(result.measures))].totals()["f1"]
        line = re.search(r'<line class="interval" x1="([^"]+)" y1="[^"]+" x2="([^"]+)"', body)
        cx = float(re.search(r'<circle class="value" cx="([^"]+)"', body).group(1))
        assert (float(line.group(1)), cx, float(line.group(2))) == pytest.approx((x_of(lo), x_of(value), x_of(hi)),
                                                                                abs=0.01)
        assert lo < value < hi
    assert svg.count('class="interval"') == 2 and svg.count('class="value"') == 2
    board = re.search(r'<table id="leaderboard-table".*?</table>', dom, re.DOTALL).group(0)
    assert re.search(r"<td>a</td><td[^>]*>1</td><td>xlm_flert</td><td[^>]*>93.69</td>", board)
    assert "over the 231 documents, p-values adjusted by Holm's method within separate families" in \
        re.sub(r"\s+", " ", dom)
    # the plot sits above the pairwise table
    assert dom.index('id="forest-plot"') < dom.index('id="comparison-table"')


def test_report_text_names_another_correction(tmp_path, capsys, recwarn):
    from html import unescape

    from accord.report.html_report import report_html

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        systems = _close_systems()
        out = compare(systems, samples=100, seed=1, correction="bonferroni", families="all")
    html = report_html(systems, out)
    text = re.sub(r"\s+", " ", unescape(html))
    assert "over the 30 documents, p-values adjusted by Bonferroni's method within one family of every comparison" \
        in text
    assert "differences below" in text
