"""What would be uploaded: the sdist and the wheel build, `twine check` passes, the wheel holds the license, the
type marker, the page templates and the contract's schema and nothing of the tests, the core install is the six
justified packages, and ``python -m accord`` runs."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    for module in ("build", "setuptools"):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is needed to build the packages (pip install -e '.[test]')")
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", str(out),
                          str(ROOT)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return out


def test_the_wheel_holds_what_the_package_needs_and_nothing_of_the_tests(dist):
    (wheel,) = dist.glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "accord/py.typed" in names
    assert {"accord/examples/gold.conll", "accord/examples/system.conll"} <= set(names)   # the README's first command
    assert "accord/result/contract.schema.json" in names
    assert any(n.startswith("accord/report/templates/") and n.endswith(".html") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") or n.endswith(".dist-info/LICENSE") for n in names)
    assert not [n for n in names if n.startswith("tests/") or "/data/" in n]
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Classifier: License :: OSI Approved :: MIT License" in text
    assert "Provides-Extra: all" in text


def test_twine_accepts_both_packages(dist):
    if importlib.util.find_spec("twine") is None:
        pytest.skip("twine is in the test extra (pip install -e '.[test]')")
    files = [str(p) for p in sorted(dist.iterdir())]
    assert len(files) == 2, files
    run = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *files], capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


def test_the_core_install_is_the_justified_six():
    """A dependency added to the core install must be justified in pyproject.toml's comment and here."""
    names = sorted(d.split(">")[0].split("=")[0].split("[")[0] for d in PYPROJECT["project"]["dependencies"])
    assert names == ["defusedxml", "jinja2", "numpy", "penman", "rich", "scipy"]
    extras = PYPROJECT["project"]["optional-dependencies"]
    listed = extras["all"][0].split("[")[1].rstrip("]").split(",")
    assert sorted(listed) == sorted(k for k in extras if k not in ("all", "test", "docs"))


def test_python_dash_m_accord_runs():
    run = subprocess.run([sys.executable, "-m", "accord", "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout.startswith("accord "), run.stdout + run.stderr
