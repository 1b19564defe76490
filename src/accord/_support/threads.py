"""How many threads a command's numerical libraries start.

numpy and scipy link OpenBLAS, which starts one thread a core when it is loaded; those threads spin waiting for
work. accord's arithmetic is sorting, hashing and element-wise array operations, which OpenBLAS does not run, so
the threads only cost CPU time: on this project's 2-core machine, ``python -c 'import numpy'`` took 0.25 CPU-s with
them and 0.12 with one (the same wall time). The ``accord`` command therefore asks OpenBLAS for one thread when the
user has set none of the variables it reads (``OPENBLAS_NUM_THREADS``, ``GOTO_NUM_THREADS``, ``OMP_NUM_THREADS``);
a value the user set is kept, and ``import accord`` changes nothing. The variable reaches the command's worker
processes (``--jobs``, ``--dask local``) too.
"""

from __future__ import annotations

import os
import sys

__all__ = ["one_blas_thread", "BLAS_THREAD_VARIABLES"]

BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""The variables OpenBLAS reads for its number of threads, in its order."""


def one_blas_thread() -> bool:
    """Ask OpenBLAS for one thread, before numpy is loaded, unless the user chose a number; whether it was asked."""
    if "numpy" in sys.modules or any(os.environ.get(name) for name in BLAS_THREAD_VARIABLES):
        return False
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    return True
