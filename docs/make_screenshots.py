"""Regenerate the screenshots in docs/ (README): the report of CoNLL-2003's system and a worse copy of it, and the
error browser of the worse copy filtered to the errors it adds. Needs headless Chromium (Debian's ``chromium``).

    python docs/make_screenshots.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.result.commands import CONLL_GOLD, CONLL_PRED, worse_copy  # noqa: E402


def shoot(page: Path, out: Path, size: str, fragment: str = "") -> None:
    exe = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if exe is None:
        raise SystemExit("headless Chromium is needed (Debian package 'chromium')")
    subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", f"--window-size={size}",
                    "--virtual-time-budget=10000", f"--screenshot={out}",
                    page.as_uri() + (f"#{fragment}" if fragment else "")], check=True, capture_output=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        worse = worse_copy(folder)
        report, errors = folder / "report.html", folder / "errors.html"
        accord = [sys.executable, "-m", "accord"]
        subprocess.run(accord + ["report", CONLL_GOLD, CONLL_PRED, worse, "--seed", "1", "-o", str(report), "-q"],
                       check=True)
        subprocess.run(accord + ["errors", CONLL_GOLD, worse, "--html", str(errors), "-q"], check=True)
        shoot(report, ROOT / "docs" / "report.png", "1280,1500")
        shoot(errors, ROOT / "docs" / "errors.png", "1280,900", "kind=FN&label=ORG")


if __name__ == "__main__":
    main()
