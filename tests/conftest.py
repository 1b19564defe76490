from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"

SHARED_GATE = Path(__file__).resolve().parents[2] / "shared" / "data" / "gate"
"""GATE's test documents (other projects' data: read from ../shared, never committed here)."""
GATE_DOCUMENTS = ("beijing-opera.xml", "beijing-opera-2.xml", "in-outlook-09-aug-2001.xml")


def pytest_configure(config: pytest.Config) -> None:
    """The GATE documents the tests name under tests/data/gate/ are links made here to ../shared/data/gate (ignored
    by git), so that the repository holds no copy of them."""
    target = DATA / "gate"
    for name in GATE_DOCUMENTS:
        link, source = target / name, SHARED_GATE / name
        if source.exists() and not link.exists():
            if link.is_symlink():          # a link left dangling by an earlier checkout
                link.unlink()
            link.symlink_to(source)


SHARED = Path(__file__).resolve().parents[2] / "shared"
"""Real corpora and other tools' test files (../shared beside the project's clone, as in CI)."""
_NEEDS_SHARED = ("tests/data/", "commands import", '"data"', "data_dir", "DATA", "shared", "CONLL_GOLD", "GATE")
"""What in a test module's text says it reads data that lives in ../shared (tests/data's folders link there)."""


def _needs_shared(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return False
    return any(word in text for word in _NEEDS_SHARED)


class _WithoutShared(pytest.Module):
    """A test module that reads ../shared, collected where ../shared is absent: skipped, saying what is missing."""

    def collect(self):  # type: ignore[override]
        pytest.skip(f"reads data from {SHARED} (absent: clone the project beside shared/, as CI does)")


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    """Without ../shared beside the clone, the test modules that read it are skipped, each naming the absent folder
    (rather than failing on a missing file, at import or in a test); with it, nothing changes."""
    if (SHARED / "data").is_dir() or module_path.name == "conftest.py" or not _needs_shared(module_path):
        return None
    return _WithoutShared.from_parent(parent, path=module_path)


BENCHMARK_TESTS = Path(__file__).parent / "benchmarks"


@pytest.hookimpl(tryfirst=True)     # before ``-m`` selects by markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The speed and memory floors (tests/benchmarks/) are ``timing`` tests, like the tests marked so one by one:
    their bounds hold on cores they do not share, so the README's command runs them after the others, alone."""
    timing = pytest.mark.timing
    for item in items:
        if item.path.parent == BENCHMARK_TESTS:
            item.add_marker(timing)


@pytest.fixture
def data_dir() -> Path:
    return DATA


def read_conll_sentences(path: Path) -> list[list[str]]:
    """Tag sequences per sentence, with documents split as seqeval users do (DOCSTART dropped)."""
    sents, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            if cur:
                sents.append(cur)
                cur = []
            continue
        cur.append(cols[-1])
    if cur:
        sents.append(cur)
    return sents


ARTEFACTS = Path(__file__).resolve().parents[1] / "build" / "test-artefacts"
"""Where page tests leave their screenshots (not committed; CI keeps the folder as an artefact). The environment
variable ACCORD_TEST_ARTEFACTS moves it."""


def artefact_path(name: str) -> Path:
    """A path for a test's artefact (a screenshot), its folder created."""
    import os

    folder = Path(os.environ.get("ACCORD_TEST_ARTEFACTS", ARTEFACTS))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def _chromium() -> str:
    import shutil

    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        pytest.skip("headless Chromium is not installed (Debian package 'chromium'; .ci/run installs it)")
    return exe


CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking")


def headless_dom(page: Path, fragment: str = "") -> tuple[str, list[str]]:
    """Open a local HTML page (with ``#fragment``) in headless Chromium: the DOM after its scripts ran, and the
    console errors it logged, a request the page's Content-Security-Policy blocked among them (accord's pages
    allow none). Skips the test where Chromium is not installed (``.ci/run`` installs Debian's ``chromium``)."""
    import subprocess

    url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
    # the virtual time budget lets the page's asynchronous work (inflating compressed data) finish before the dump
    run = subprocess.run([_chromium(), *CHROMIUM_FLAGS, "--enable-logging=stderr", "--v=0",
                          "--virtual-time-budget=10000", "--dump-dom", url],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    errors = [line for line in run.stderr.splitlines() if ":CONSOLE" in line and
              any(word in line for word in ("Uncaught", "Error", "Content Security Policy", "Refused"))]
    return run.stdout, errors


def screenshot(page: Path, name: str, fragment: str = "", size: str = "1280,1600") -> Path:
    """A PNG of the page as headless Chromium draws it, saved under the test artefacts (see ARTEFACTS)."""
    import subprocess

    out = artefact_path(name)
    url = page.resolve().as_uri() + (f"#{fragment}" if fragment else "")
    run = subprocess.run([_chromium(), *CHROMIUM_FLAGS, "--hide-scrollbars", f"--window-size={size}",
                          "--virtual-time-budget=10000",
                          f"--screenshot={out}", url], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and out.exists(), run.stderr[-2000:]
    return out
