"""The leaderboard of ``accord compare`` as a terminal table, a Markdown or LaTeX table for a paper, and the
geometry of the HTML report's forest plot.

Every table shows the systems in the order of :meth:`accord.stats.ComparisonResult.leaderboard`: rank, key,
name, the headline figure in percent (``mean ± sd`` for a system of several runs), its interval (after
``--bootstrap``), the runs, and the keys of the systems it beats significantly (superscripts in LaTeX, as ranx
prints them). The caption says what the figures are and how the significance was decided: the test, its
samples, the correction and the size of its family, the resampling unit and how many there were, and alpha.
"""

from __future__ import annotations

import math
import unicodedata
from typing import Any

__all__ = ["caption_text", "detectable_lines", "forest_plot", "latex", "latex_escape", "markdown",
           "markdown_escape", "render_leaderboard", "significance_text", "value_text"]

_RATE_NAMES = {"f1": "F1", "precision": "precision", "recall": "recall"}
_CORRECTED = {"holm": "Holm-adjusted", "bonferroni": "Bonferroni-adjusted", "none": "not adjusted"}


def rate_name(rate: str) -> str:
    """A rate as shown in captions (``F1``)."""
    return _RATE_NAMES.get(rate, rate)


def _visible(text: str) -> str:
    """``text`` with its control characters (line breaks, tabs, escapes) written as ``\\xNN``: a name is one line."""
    if not any(unicodedata.category(c) == "Cc" for c in text):
        return text
    return "".join(f"\\x{ord(c):02x}" if unicodedata.category(c) == "Cc" else c for c in text)


def _pct(x: float | None, digits: int = 2) -> str:
    return "—" if x is None or not math.isfinite(x) else f"{100 * x:.{digits}f}"


def value_text(s: Any, pm: str = "±") -> str:
    """A standing's figure in percent: ``93.69``, ``93.69 ± 0.12`` for several runs, ``—`` when undefined."""
    text = _pct(s.value)
    if s.runs > 1 and s.value is not None:
        text += f" {pm} " + ("—" if s.sd is None else f"{100 * s.sd:.2f}")
    return text


def interval_text(s: Any) -> str:
    """``[93.1, 94.2]``, or empty without an interval."""
    if s.interval is None or None in s.interval:
        return ""
    return f"[{_pct(s.interval[0], 1)}, {_pct(s.interval[1], 1)}]"


def _headline_comparisons(result: Any, board: Any) -> list[Any]:
    return [c for c in result.comparisons
            if c.label is None and c.measure == board.measure and c.rate == board.rate]


def _units(result: Any) -> str:
    o = result.options
    n = o.get("resampled_units")
    unit = o.get("resample", "documents")
    if n == 1:
        unit = unit.removesuffix("s")
    return unit if n is None else f"{n:,} {unit}"


def significance_text(result: Any, board: Any = None) -> str:
    """How the significance of the headline comparisons was decided: ``paired permutation test, 10000 samples
    over the 231 documents, p-values Holm-adjusted within their family of 3 tests (separate families), α = 0.05``."""
    o = result.options
    board = board if board is not None else result.leaderboard()
    heads = _headline_comparisons(result, board)
    test = o.get("test", "permutation")
    if any(c.test != test for c in heads):   # several runs: the paired bootstrap over units and runs
        test += " test (the bootstrap for systems of several runs)"
    else:
        test += " test"
    sizes = sorted({c.family_size for c in heads})
    family = "" if not sizes else (f" within their family of {sizes[0]} test{'s' if sizes[0] != 1 else ''}"
                                   if len(sizes) == 1 else f" within their families of {sizes[0]}–{sizes[-1]} tests")
    correction = o.get("correction", "holm")
    adjusted = "p-values not adjusted" if correction == "none" else f"p-values {_CORRECTED[correction]}{family}"
    return (f"paired {test}, {o.get('samples')} samples over the {_units(result)}, {adjusted} "
            f"({o.get('families', 'separate')} families), α = {o.get('alpha', 0.05):g}")


def caption_text(result: Any, board: Any = None, marks: str = "Superscripts") -> str:
    """The caption of a table: what the figures are, the intervals, and how the marks (``marks``: the
    superscripts, or the column) were decided (:func:`significance_text`)."""
    board = board if board is not None else result.leaderboard()
    o = result.options
    several = any(s.runs > 1 for s in board)
    text = (f"{rate_name(board.rate)} (%) of the {board.measure} totals"
            + (", mean ± standard deviation over the runs" if several else "") + ", highest first")
    if any(s.interval is not None for s in board):
        text += (f"; {100 * o.get('confidence', 0.95):g} % {o.get('ci_method', 'percentile')} intervals from "
                 f"{o.get('bootstrap')} resamples of the {_units(result)}"
                 + (" and of the runs" if several else "") + f" (seed {o.get('seed')})")
    return text + f". {marks}: the systems a system beats significantly, {significance_text(result, board)}."


def detectable_lines(result: Any) -> list[str]:
    """For each comparison of totals that is not significant, what it could not have detected: ``A vs B: with 231
    documents, differences below 0.71 F1 points are not detectable``."""
    from ..stats._power import detectable_text

    o = result.options
    n = o.get("resampled_units")
    unit = o.get("resample", "documents")
    singular = unit.removesuffix("s")
    out = []
    for c in result.comparisons:
        if c.label is not None or c.significant or c.p_value is None or n is None:
            continue
        what = f"{_visible(c.b)} vs {_visible(c.a)}, {_visible(c.measure)} {rate_name(c.rate)}"
        if c.detectable is not None:
            why = detectable_text(n, singular, c.detectable, rate_name(c.rate))
        elif not c.standard_error:
            why = "the two systems differ on no resampled unit (the test's differences do not vary)"
        else:
            level = o.get("alpha", 0.05) / max(1, c.family_size if o.get("correction", "holm") != "none" else 1)
            why = (f"with {o.get('samples')} samples no p-value can fall below {1 / (1 + o.get('samples', 1)):.2g}, "
                   f"above the level {level:.2g} a test of its family needs (--samples)")
        out.append(f"{what}: not significant; {why}")
    return out


def _columns(board: Any) -> tuple[bool, bool]:
    """Whether the paper tables show an interval column and a runs column."""
    return any(s.interval is not None for s in board), any(s.runs > 1 for s in board)


def render_leaderboard(result: Any, console: Any) -> None:
    """The leaderboard as a terminal table (captioned by the console's caption)."""
    from rich.text import Text

    from .table import new_table, print_table

    board = result.leaderboard()
    intervals, _ = _columns(board)
    o = result.options
    columns = ["#", "rank", "system", f"{rate_name(board.rate)} %"]
    if intervals:
        columns.append(f"{100 * o.get('confidence', 0.95):g} % interval")
    columns += ["runs", "beats"]
    table = new_table(f"leaderboard: {rate_name(board.rate)} of the {board.measure} totals", columns, first=3,
                      text=(len(columns) - 1,))
    for s in board:
        cells = [s.key, "—" if s.rank is None else str(s.rank), _visible(s.system), value_text(s)]
        if intervals:
            cells.append(interval_text(s))
        cells += [str(s.runs), s.marks]
        table.add_row(*cells)
    print_table(console, table)
    console.print(Text(caption_text(result, board, marks="Beats"), style="dim"))


_MARKDOWN_SPECIAL = frozenset("\\`*_{}[]()<>#+-.!|&~^=:;\"'$%@/?,")


def markdown_escape(text: str) -> str:
    """``text`` as literal Markdown inside a table cell: ASCII punctuation backslash-escaped (CommonMark reads
    ``\\|``, ``\\<``, ``\\*`` … as the character itself), control characters written as ``\\xNN``."""
    return "".join("\\" + c if c in _MARKDOWN_SPECIAL else c for c in _visible(text))


def markdown(result: Any) -> str:
    """The leaderboard as a Markdown pipe table, its caption the paragraph below it."""
    board = result.leaderboard()
    intervals, runs = _columns(board)
    o = result.options
    header = ["Rank", "#", "System", f"{rate_name(board.rate)} %"]
    align = ["---:", ":---", ":---", "---:"]
    if intervals:
        header.append(f"{100 * o.get('confidence', 0.95):g} % interval")
        align.append(":---:")
    if runs:
        header.append("Runs")
        align.append("---:")
    header.append("Beats")
    align.append(":---")
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(align) + "|"]
    for s in board:
        cells = ["—" if s.rank is None else str(s.rank), s.key, markdown_escape(s.system), value_text(s)]
        if intervals:
            cells.append(interval_text(s))
        if runs:
            cells.append(str(s.runs))
        cells.append(s.marks)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n\n" + _markdown_caption(caption_text(result, board, marks="Beats")) + "\n"


def _markdown_caption(text: str) -> str:
    """The caption as Markdown: only what Markdown would read as markup is escaped (the caption is accord's own
    text, with the measure's name from the data)."""
    return "".join("\\" + c if c in "\\`*_[]<>|" else c for c in _visible(text))


_LATEX = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
          "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}",
          ">": r"\textgreater{}", "|": r"\textbar{}", "`": r"\textasciigrave{}"}


def latex_escape(text: str) -> str:
    """``text`` as literal LaTeX text: the special characters ``\\ & % $ # _ { } ~ ^`` (and ``< > |``, which
    the default font encoding prints as other glyphs) as commands, control characters as ``\\xNN``."""
    return "".join(_LATEX.get(c, c) for c in _visible(text))


def latex(result: Any, label: str = "tab:leaderboard") -> str:
    """The leaderboard as a LaTeX table (booktabs: ``\\toprule``, ``\\midrule``, ``\\bottomrule``), the keys of the
    systems each one beats significantly as superscripts of its figure, the caption stating the test, the
    correction, the resampling unit and count, and alpha."""
    board = result.leaderboard()
    intervals, runs = _columns(board)
    o = result.options
    spec = "rll" + "r" + ("c" if intervals else "") + ("r" if runs else "")
    header = ["Rank", r"\#", "System", latex_escape(rate_name(board.rate)) + r" (\%)"]
    if intervals:
        header.append(f"{100 * o.get('confidence', 0.95):g}" + r"\,\% interval")
    if runs:
        header.append("Runs")
    lines = [r"\begin{table}[t]", r"\centering", r"\begin{tabular}{" + spec + "}", r"\toprule",
             " & ".join(header) + r" \\", r"\midrule"]
    for s in board:
        value = value_text(s, pm=r"$\pm$")
        if s.marks:
            value += r"$^{\mathrm{" + s.marks + "}}$"
        cells = ["--" if s.rank is None else str(s.rank), s.key, latex_escape(s.system),
                 value.replace("—", "--")]
        if intervals:
            cells.append(interval_text(s))
        if runs:
            cells.append(str(s.runs))
        lines.append(" & ".join(cells) + r" \\")
    caption = latex_escape(caption_text(result, board)).replace("±", r"$\pm$").replace("α", r"$\alpha$")
    caption = caption.replace("–", "--")
    lines += [r"\bottomrule", r"\end{tabular}", r"\caption{" + caption + "}", r"\label{" + label + "}",
              r"\end{table}"]
    return "\n".join(lines) + "\n"


def forest_plot(board: Any, *, width: int = 640, row_height: int = 28, left: int = 180,
                right: int = 24, top: int = 16, bottom: int = 36) -> dict[str, Any] | None:
    """The geometry of the forest plot (SVG user units): one row per system with a defined figure, in the order
    of the leaderboard, its interval a line from ``x_lo`` to ``x_hi`` and its figure a point at ``x``, on one
    axis whose ends ``low`` and ``high`` (percent) are the smallest and largest figure or interval end, widened
    to whole ticks. ``x = left + (v - low) / (high - low) * (width - left - right)``. None when no system has a
    figure."""
    rows = [s for s in board if s.value is not None]
    if not rows:
        return None
    points = [100 * s.value for s in rows]
    for s in rows:
        if s.interval is not None:
            points += [100 * x for x in s.interval if x is not None and math.isfinite(x)]
    low, high = min(points), max(points)
    step = _tick_step(high - low)
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high <= low:
        low, high = low - step, high + step
    span = width - left - right

    def x_of(v: float) -> float:
        return round(left + (v - low) / (high - low) * span, 2)

    plotted = []
    for k, s in enumerate(rows):
        y = top + row_height * k + row_height / 2
        lo = hi = None
        if s.interval is not None and None not in s.interval:
            lo, hi = x_of(100 * s.interval[0]), x_of(100 * s.interval[1])
        plotted.append({"system": s.system, "key": s.key, "y": y, "x": x_of(100 * s.value), "x_lo": lo, "x_hi": hi,
                        "text": value_text(s) + (f" {interval_text(s)}" if interval_text(s) else "")})
    axis_y = top + row_height * len(rows) + 4
    ticks = []
    n = round((high - low) / step)
    for k in range(n + 1):
        v = low + k * step
        ticks.append({"x": x_of(v), "label": _tick_label(v, step)})
    return {"width": width, "height": axis_y + bottom, "left": left, "right": width - right, "top": top,
            "axis_y": axis_y, "low": low, "high": high, "rows": plotted, "ticks": ticks}


def _tick_step(span: float) -> float:
    """A step of 1, 2 or 5 times a power of ten giving about four to eight ticks over ``span`` (percent)."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / 5
    power = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 5, 10):
        if raw <= m * power:
            return m * power
    return 10 * power   # pragma: no cover


def _tick_label(v: float, step: float) -> str:
    digits = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    return f"{v:.{digits}f}"
