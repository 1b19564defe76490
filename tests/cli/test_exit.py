"""The accord command's own process leaves its objects out of the collection at exit (``gc.freeze``): with
``distributed`` loaded (``--dask``) that collection alone took 0.1-0.2 s; a caller's ``main([...])`` is left as is."""

import gc
import subprocess
import sys

from accord.cli import main

_RUN = """
import gc, sys
sys.argv = ["accord", "score", sys.argv[1], sys.argv[1], "--output", "json"]
from accord.cli import main
status = main()
print(status, gc.get_freeze_count(), file=sys.stderr)
"""


def test_the_command_freezes_its_objects_before_it_exits(tmp_path):
    conll = tmp_path / "one.conll"
    conll.write_text("EU B-ORG\n")
    done = subprocess.run([sys.executable, "-c", _RUN, str(conll)], capture_output=True, text=True, timeout=120)
    status, frozen = done.stderr.strip().splitlines()[-1].split()
    assert status == "0" and int(frozen) > 10_000


def test_a_caller_of_main_is_left_as_it_was(tmp_path, capsys):
    conll = tmp_path / "one.conll"
    conll.write_text("EU B-ORG\n")
    before = gc.get_freeze_count()
    assert main(["score", str(conll), str(conll), "--output", "json"]) == 0
    assert gc.get_freeze_count() == before
