"""Progress on standard error: only when enabled (the command line without --quiet) and on a terminal."""

from __future__ import annotations

import sys

from accord._support.progress import MIN_ITEMS, progress_enabled, track


def test_nothing_is_shown_off_a_terminal_or_when_quiet(capsys, monkeypatch):
    items = list(range(MIN_ITEMS * 2))
    assert list(track(items, "x")) == items          # not enabled (a library call)
    with progress_enabled(True):                     # enabled, but standard error is not a terminal
        assert list(track(iter(items), "x")) == items
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress_enabled(False):                    # --quiet
        assert list(track(items, "x")) == items
    assert capsys.readouterr().err == ""


def test_a_long_loop_on_a_terminal_shows_a_bar(capsys, monkeypatch):
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    items = list(range(MIN_ITEMS * 2))
    with progress_enabled(True):
        assert list(track(items, "pairing documents")) == items
        assert list(track(items[:MIN_ITEMS - 1], "short")) == items[:MIN_ITEMS - 1]
    err = capsys.readouterr().err
    assert "pairing documents" in err and "short" not in err
