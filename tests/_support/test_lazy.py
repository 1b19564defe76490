"""``import accord`` then ``accord.<sub>.<name>``, as the README and the documentation write it, works without
importing the subpackage first (PEP 562 module attributes), and ``import accord`` alone still imports no numpy."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WRITTEN = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
"""The pages that name accord's objects for users: the README and the site's sources."""
DOTTED = re.compile(r"\baccord(?:\.[A-Za-z_][A-Za-z_0-9]*){2,}")


def _written_names() -> list[str]:
    names = sorted({n for page in WRITTEN for n in DOTTED.findall(page.read_text(encoding="utf-8"))})
    # not private names, nor names in spaCy's registry (accord.ner_scorer.v1: a string a config names, versioned)
    return [n for n in names if not any(part.startswith("_") for part in n.split(".")[1:])
            and not re.fullmatch(r"v\d+", n.rsplit(".", 1)[-1])]


def test_the_readme_names_subpackage_attributes():
    names = _written_names()
    assert "accord.agreement.iaa_allway_kappa" in names and len(names) >= 5, names


@pytest.mark.parametrize("name", _written_names())
def test_readme_name_reachable_after_import_accord(name):
    code = f"import accord\nobj = {name}\nassert obj is not None"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{name}: {done.stderr.strip().splitlines()[-1:]}"


def test_import_accord_imports_no_numpy_and_subpackages_load_on_use():
    code = ("import sys, accord\nassert 'numpy' not in sys.modules\nassert 'accord.agreement' not in sys.modules\n"
            "accord.match, accord.compat, accord.formats\nassert 'numpy' not in sys.modules\n"
            "assert accord.agreement is sys.modules['accord.agreement']\n"
            "try:\n    accord.no_such_thing\nexcept AttributeError as e:\n    assert 'no_such_thing' in str(e)\n"
            "else:\n    raise SystemExit('no AttributeError')\n"
            "try:\n    accord._api_not_there\nexcept AttributeError:\n    pass\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
