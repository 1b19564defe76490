"""The command's allocator setting: glibc's mallopt where it exists, nothing elsewhere, never an error."""

import subprocess
import sys


def test_return_large_blocks_in_a_fresh_process():
    """Done in a child process (it changes the allocator of the process that calls it)."""
    code = "from accord._support.memory import return_large_blocks; print(return_large_blocks())"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout.strip()
    expected = sys.platform.startswith("linux") and _has_glibc()
    assert out == str(expected)


def _has_glibc():
    import platform

    return platform.libc_ver()[0] == "glibc"
