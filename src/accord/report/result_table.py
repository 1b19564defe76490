"""The terminal tables of every result: counts and P, R, F, by measure and by label."""

from __future__ import annotations

from typing import Any

from .table import RATES, TableConsole, new_table, percent, print_table, row_interval

__all__ = ["render_result", "count_text"]


def count_text(value: Any) -> str:
    """A count: whole numbers as integers, credits with four decimals."""
    if isinstance(value, float) and not value.is_integer():
        return f"{value:.4f}"
    return str(int(value)) if isinstance(value, (int, float)) else str(value)


def _f_name(result: Any) -> str:
    beta = result.options.get("beta", 1.0)
    return "F1" if beta in (None, 1, 1.0) else f"F{beta:g}"


def _columns(kind: Any, blocks: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The kind's count columns, leaving out clash columns that are zero everywhere."""
    out = []
    for header, key in kind.columns:
        if key in ("gold_clash", "pred_clash") and not any(b.get(key) for b in blocks):
            continue
        out.append((header, key))
    return out


def _rows(table: Any, columns: list[tuple[str, str]], rows: list[tuple[str, dict[str, Any], str | None]],
          intervals: Any = lambda name, rate: None) -> None:
    for name, block, style in rows:
        table.add_row(name, *(count_text(block[k]) for _, k in columns),
                      *(percent(block.get(k), intervals(name, k)) for k in RATES), style=style)


def render_result(result: Any, console: Any = None, *, by_label: bool = True) -> None:
    """Measures with several: one row per measure, then the main measure by label; one measure: its labels,
    the total and the macro mean. Rates are percentages with two decimals; P, R, F in that order."""
    console = console or TableConsole()
    f = _f_name(result)
    main_name, main = next(iter(result.measures.items()))
    if result.nested:
        blocks = [m.totals() for m in result.measures.values()]
        columns = _columns(main.kind, blocks)
        table = new_table(f"{result.command} ({result.mode}): every measure",
                          ["measure"] + [h for h, _ in columns] + ["P %", "R %", f"{f} %"])
        _rows(table, columns, [(name, b, "bold" if k == 0 else None)
                               for k, (name, b) in enumerate(zip(result.measures, blocks))],
              lambda name, rate: row_interval(result, name, ("all",), rate))
        print_table(console, table)
    labels = main.by_label() if by_label else {}
    if labels or not result.nested:
        total = main.totals()
        columns = _columns(main.kind, list(labels.values()) + [total])
        title = f"{main_name}, by label" if result.nested else f"{result.command} ({result.mode}), by label"
        table = new_table(title, ["label"] + [h for h, _ in columns] + ["P %", "R %", f"{f} %"])
        rows: list[tuple[str, dict[str, Any], str | None]] = [(k, b, None) for k, b in labels.items()]

        def intervals(name: str, rate: str) -> Any:
            return row_interval(result, main_name, ("all",) if name == "ALL" else ("label", name), rate)
        _rows(table, columns, rows, intervals)
        table.add_section()
        _rows(table, columns, [("ALL", total, "bold")], intervals)
        if labels:
            macro = main.macro()
            table.add_row("macro", *([""] * len(columns)),
                          *(percent(macro[k], row_interval(result, main_name, ("macro",), k)) for k in RATES),
                          style="dim")
        print_table(console, table)
