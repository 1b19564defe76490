"""The peak resident memory of a child process, for tests that measure a command in one.

``resource.getrusage(RUSAGE_SELF).ru_maxrss`` is not the child's own peak on Linux: ``execve`` keeps the largest
resident size of the process before it, the fork of the test runner, which may hold a gigabyte after other tests.
``VmHWM`` in ``/proc/self/status`` is the peak of the process's own address space since ``execve``.
"""

from __future__ import annotations

__all__ = ["PEAK_KB"]

PEAK_KB = ("(lambda: next((int(line.split()[1]) for line in open('/proc/self/status') if line.startswith('VmHWM:')), "
           "None) if __import__('os').path.exists('/proc/self/status') else "
           "__import__('resource').getrusage(__import__('resource').RUSAGE_SELF).ru_maxrss)()")
"""A Python expression, for a child's code: its peak resident memory in KiB."""
