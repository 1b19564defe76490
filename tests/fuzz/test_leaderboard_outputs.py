"""The leaderboard's outputs on hostile system names (issue 34, part 3): markup, LaTeX's special characters, line
breaks and control characters, spreadsheet formulas.

Properties: the Markdown table keeps one line per system and its number of cells (every ``|`` of a name escaped);
each LaTeX row keeps its number of ``&`` separators, has no unescaped ``%``, ``#``, ``$`` or line break, balances
its braces and gives the name back when unescaped; the CSV has one row per system then one per comparison, and a
name that starts like a formula is quoted with ``'``; the JSON passes the contract; the HTML page (with its forest
plot) holds no markup from a name. ``accord compare`` with such file names ends in exit 0 for every output.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.report.leaderboard import latex, markdown
from tests.result.contract import checked
from tests.stats.test_leaderboard import _cmp, _head, hand_built

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 40

PIECES = ["|", "\\", "&", "%", "$", "#", "_", "{", "}", "~", "^", "<", ">", "<script>", "</td>", "*", "`", "[red]",
          "\n", "\r", "\t", "\x1b[31m", "=", "+", "-", "@", "=cmd|' /C calc'!A0", "α", "'", '"', " ", "a", "B"]
NAMES = st.lists(st.sampled_from(PIECES), min_size=1, max_size=6).map("".join)
VALUES = st.one_of(st.none(), st.floats(0, 1), st.just(float("nan")))


@st.composite
def boards(draw):
    names = draw(st.lists(NAMES, min_size=2, max_size=5, unique=True))
    headline = {}
    for name in names:
        value = draw(VALUES)
        runs = draw(st.integers(1, 3))
        sd = draw(st.one_of(st.none(), st.floats(0, 0.1))) if runs > 1 else None
        defined = value is not None and not math.isnan(value)
        interval = sorted(draw(st.lists(st.floats(0, 1), min_size=2, max_size=2))) if defined and \
            draw(st.booleans()) else None
        headline[name] = _head(value if defined else None, runs=runs, sd=sd, interval=interval)
    comparisons = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            comparisons.append(_cmp(a, b, draw(st.floats(-0.5, 0.5)), draw(st.booleans())))
    out = hand_built(headline, comparisons)
    if any(h["interval"] for h in headline.values()):
        out.options.update(bootstrap=100, confidence=0.95, ci_method="percentile")
    return out


def _unescaped(line: str, char: str) -> int:
    """How many ``char`` in ``line`` are not preceded by a backslash (an escaped backslash counts as escaped)."""
    count, k = 0, 0
    while k < len(line):
        if line[k] == "\\":
            k += 2
            continue
        count += line[k] == char
        k += 1
    return count


_UNLATEX = [("\\textbackslash{}", "\\"), ("\\textasciitilde{}", "~"), ("\\textasciicircum{}", "^"),
            ("\\textless{}", "<"), ("\\textgreater{}", ">"), ("\\textbar{}", "|"), ("\\textasciigrave{}", "`"),
            ("\\&", "&"), ("\\%", "%"), ("\\$", "$"), ("\\#", "#"), ("\\_", "_"), ("\\{", "{"), ("\\}", "}")]


def _unlatex(text: str) -> str:
    out, k = [], 0
    while k < len(text):
        for escaped, plain in _UNLATEX:
            if text.startswith(escaped, k):
                out.append(plain)
                k += len(escaped)
                break
        else:
            out.append(text[k])
            k += 1
    return "".join(out)


def _visible(name: str) -> str:
    return "".join(f"\\x{ord(c):02x}" if ord(c) < 32 or ord(c) == 127 else c for c in name)


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards())
def test_markdown_keeps_its_rows_and_cells(result):
    text = markdown(result)
    table, caption = text.split("\n\n", 1)
    lines = table.split("\n")
    n = len(result.systems)
    assert len(lines) == 2 + n and caption.count("\n") == 1
    cells = _unescaped(lines[0], "|")
    assert all(_unescaped(line, "|") == cells for line in lines)
    assert not re.search(r"(?<!\\)<", table)                      # no tag from a name


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards())
def test_latex_rows_keep_their_columns_and_give_the_names_back(result):
    text = latex(result)
    lines = text.split("\n")
    start, end = lines.index("\\midrule"), lines.index("\\bottomrule")
    rows = lines[start + 1:end]
    header = lines[start - 1]
    assert len(rows) == len(result.systems)
    board = result.leaderboard()
    for line, standing in zip(rows, board):
        assert _unescaped(line, "&") == _unescaped(header, "&")
        for char in "%#":
            assert _unescaped(line, char) == 0
        assert _unescaped(line, "{") == _unescaped(line, "}")
        name = line.split(" & ")[2]
        assert _unlatex(name) == _visible(standing.system)
    assert _unescaped(text, "%") == 0 and text.count("\\begin{table}") == 1


@settings(max_examples=EXAMPLES, deadline=None)
@given(boards())
def test_csv_and_json_of_hostile_names(result):
    rows = list(csv.DictReader(io.StringIO(result.to_csv())))
    n = len(result.systems)
    assert [r["row"] for r in rows] == ["system"] * n + ["comparison"] * len(result.comparisons)
    for r, standing in zip(rows, result.leaderboard()):
        name = standing.system
        starts_like_a_formula = name.startswith(("=", "+", "-", "@", "\t", "\r"))
        assert r["system"] == ("'" + name if starts_like_a_formula else name)
    data = checked(result.to_json())
    assert [s["system"] for s in data["leaderboard"]["standings"]] == [s.system for s in result.leaderboard()]


@settings(max_examples=max(10, EXAMPLES // 4), deadline=None)
@given(boards())
def test_html_page_holds_no_markup_from_a_name(result):
    from accord.report.html_report import report_html

    html = report_html(result.systems, result)
    body = html[html.index('<h2 id="comparisons">'):html.index('<h2 id="system-1">')]
    assert "<script" not in body
    for name in result.systems:
        if "<" in name:
            assert name not in body                          # escaped wherever it is shown
    assert body.count('<g class="system"') == sum(s.value is not None for s in result.leaderboard())


HOSTILE_FILES = ["a_&_b%.conll", "=cmd.conll", "<i>x.conll", "$x^{2}#.conll", "tab\tname.conll"]


@pytest.fixture(scope="module")
def tiny_corpus(tmp_path_factory):
    """One gold file of 24 sentences and systems under hostile names (a few tags changed in each)."""
    folder = tmp_path_factory.mktemp("leaderboard")
    sentences = [[("Peter", "B-PER"), ("Blackburn", "I-PER"), ("visited", "O"), ("Paris", "B-LOC"), (".", "O")]] * 24
    gold = "\n\n".join("\n".join(f"{w} {t}" for w, t in s) for s in sentences) + "\n"
    (folder / "gold.conll").write_text(gold, encoding="utf-8")
    paths = []
    for k, name in enumerate(HOSTILE_FILES):
        lines = []
        for j, s in enumerate(sentences):
            lines.append("\n".join(f"{w} {'O' if (j + k) % (k + 2) == 0 and t != 'O' else t}" for w, t in s))
        path = folder / name
        path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
        paths.append(str(path))
    return str(folder / "gold.conll"), paths


@pytest.mark.parametrize("output", ["table", "json", "csv", "markdown", "latex"])
def test_compare_with_hostile_file_names(tiny_corpus, output):
    gold, paths = tiny_corpus
    result = run(["compare", gold, *paths, "--samples", "50", "--seed", "1", "--bootstrap", "20", "--no-labels",
                  "-q", "--output", output])
    assert result.status == 0, result.stderr
    if output == "json":
        data = checked(result.stdout)
        assert len(data["leaderboard"]["standings"]) == len(paths)
    if output == "markdown":
        assert sum(line.startswith("| ") for line in result.stdout.split("\n")) == len(paths) + 1   # header, rows
    if output == "latex":
        assert "a\\_\\&\\_b\\%" in result.stdout and "\\$x\\textasciicircum{}\\{2\\}\\#" in result.stdout
    json.dumps(result.stdout)
