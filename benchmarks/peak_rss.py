"""Run one accord command in this process and print its peak memory and CPU time (for the memory figures of
benchmarks/README.md): ``ru_maxrss`` of this process and of its largest child (a pool worker), and the CPU seconds
of both, on standard error.

    python benchmarks/peak_rss.py report gold.conll system.conll worse.conll -o r.html [--jobs 2]
"""

from __future__ import annotations

import resource
import sys

from accord.cli import main


def run(argv: list[str]) -> int:
    status = main(argv)
    me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime
    print(f"status {status} caller {me.ru_maxrss / 1024:.0f} MB, largest child {kids.ru_maxrss / 1024:.0f} MB, "
          f"cpu {cpu:.1f} s", file=sys.stderr)
    return status


if __name__ == "__main__":
    raise SystemExit(run(sys.argv[1:]))
