"""The command's allocator setting: glibc's mallopt where it exists, nothing elsewhere, never an error."""

import subprocess
import sys

from accord import _memory


def test_return_large_blocks_in_a_fresh_process():
    """Done in a child process (it changes the allocator of the process that calls it)."""
    code = "from accord._memory import return_large_blocks; print(return_large_blocks())"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()
    expected = sys.platform.startswith("linux") and _has_glibc()
    assert out == str(expected)


def test_thresholds_are_those_the_docstring_names():
    assert _memory.MMAP_THRESHOLD == 4 * 2**20
    assert _memory.TRIM_THRESHOLD == 256 * 2**20
    assert "4 MiB" in _memory.__doc__


def _has_glibc():
    import platform

    return platform.libc_ver()[0] == "glibc"
