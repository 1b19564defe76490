"""The fuzzing harness: run the ``accord`` command in process and classify what it did.

Every run must end in exit status 0 (a result) or 2 (a one-line ``accord: error: ...``
naming what was wrong), within :data:`TIME_LIMIT` seconds. Exit status 3 (a defect caught
at the top), any exception escaping ``main``, a message of several lines and a run over
the time limit are failures: they are what this suite searches for.

``ACCORD_FULL=1`` raises the number of generated inputs (the ``accord-full`` profile below: 700 per test).
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import warnings
from dataclasses import dataclass

from hypothesis import HealthCheck, settings

from accord.cli import main

FULL = os.environ.get("ACCORD_FULL") == "1"
TIME_LIMIT = 20 if FULL else 30
"""Seconds one command may take on a generated input (the inputs are small: a hang, not slowness)."""

settings.register_profile("accord-ci", max_examples=200, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])
settings.register_profile("accord-full", max_examples=700, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                                 HealthCheck.filter_too_much])
PROFILE = "accord-full" if FULL else "accord-ci"


class Hang(Exception):
    pass


@dataclass
class Run:
    status: int
    stdout: str
    stderr: str


def _alarm(signum: int, frame: object) -> None:
    raise Hang(f"the command ran longer than {TIME_LIMIT} s")


def run(argv: list[str]) -> Run:
    """Run ``accord ARGV`` in process; fail the test on a traceback, a defect, a hang or a vague message."""
    out, err = io.StringIO(), io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIME_LIMIT)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            status = main(argv)
    except SystemExit as exc:   # argparse refusing an option: its usage line and message
        signal.alarm(0)
        assert exc.code == 2, f"accord {' '.join(argv)}: argparse exit {exc.code}"
        return Run(2, out.getvalue(), err.getvalue())
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    result = Run(status, out.getvalue(), err.getvalue())
    assert status != 3, f"accord {' '.join(argv)}: a defect: {result.stderr}"
    assert status in (0, 2), f"accord {' '.join(argv)}: exit status {status}: {result.stderr}"
    if status == 2:
        errors = [line for line in result.stderr.splitlines() if line.startswith("accord: error:")]
        assert len(errors) == 1, f"accord {' '.join(argv)}: expected one error line, got {result.stderr!r}"
        assert "Traceback" not in result.stderr
    return result
