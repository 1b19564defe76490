"""Writing the HTML report of one or more systems (``accord report``, ``accord score --html``)."""

from __future__ import annotations

import argparse

__all__ = ["write_report"]


def write_report(path: str, systems: dict, comparison: object = None, title: str | None = None,
                 args: argparse.Namespace | None = None) -> None:
    """The page of ``systems``; its errors at the leniency of ``args`` (``--match clueval``) or exact."""
    from ..clueval import leniency_level
    from ..clueval._browser import span_views
    from ..report.html_report import report_html

    level, labelled = 1, True
    if args is not None and getattr(args, "match", None) == "clueval":
        level, labelled = leniency_level(args.leniency), not args.unlabelled
    from .._support.safe_paths import write_text

    views = span_views(systems, level, labelled)     # the errors at the leniency shown (exact and labelled: strict)
    write_text(path, report_html(systems, comparison, title=title or "accord report", views=views))
