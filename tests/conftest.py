from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


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


def headless_dom(page: Path) -> tuple[str, list[str]]:
    """Open a local HTML page in headless Chromium: the DOM after its scripts ran, and the
    console errors it logged. Skips the test where Chromium is not installed (``.ci/run``
    installs Debian's ``chromium`` package)."""
    import shutil
    import subprocess

    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        pytest.skip("headless Chromium is not installed (Debian package 'chromium'; .ci/run installs it)")
    run = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                          "--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri()],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    errors = [line for line in run.stderr.splitlines() if ":CONSOLE" in line and
              ("Uncaught" in line or "Error" in line)]
    return run.stdout, errors
