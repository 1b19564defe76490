"""The accord command asks OpenBLAS for one thread unless the user chose a number; ``import accord`` does not."""

import os
import subprocess
import sys

import pytest

from accord._support.threads import BLAS_THREAD_VARIABLES, one_blas_thread

_RUN = """
import os, sys
sys.argv = ["accord", "score", sys.argv[1], sys.argv[1], "--output", "json"]
from accord.cli import main
status = main()
threads = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("Threads:"))
print(status, os.environ.get("OPENBLAS_NUM_THREADS"), threads, file=sys.stderr)
"""


def _command(tmp_path, **env):
    conll = tmp_path / "one.conll"
    conll.write_text("EU B-ORG\n")
    clean = {k: v for k, v in os.environ.items() if k not in BLAS_THREAD_VARIABLES}
    done = subprocess.run([sys.executable, "-c", _RUN, str(conll)], capture_output=True, text=True, timeout=120,
                          env={**clean, **env})
    status, variable, threads = done.stderr.strip().splitlines()[-1].split()
    return int(status), variable, int(threads)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="threads counted from /proc")
def test_the_command_starts_no_blas_threads(tmp_path):
    status, variable, threads = _command(tmp_path)
    assert status == 0 and variable == "1"
    assert threads == 1          # numpy was loaded by the command, after the variable was set: no OpenBLAS thread


@pytest.mark.skipif(not sys.platform.startswith("linux") or (os.cpu_count() or 1) < 2,
                    reason="threads counted from /proc; OpenBLAS starts one thread a core")
def test_a_number_the_user_chose_is_kept(tmp_path):
    status, variable, threads = _command(tmp_path, OMP_NUM_THREADS="2")
    assert status == 0 and variable == "None"    # OPENBLAS_NUM_THREADS left unset: OMP_NUM_THREADS rules
    assert threads == 2


def test_nothing_is_set_once_numpy_is_loaded(monkeypatch):
    import numpy  # noqa: F401  (loaded: its threads are already started, a variable would change nothing)

    for name in BLAS_THREAD_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    assert one_blas_thread() is False
    assert "OPENBLAS_NUM_THREADS" not in os.environ
