"""Every page accord writes shares one layout whose Content-Security-Policy forbids network requests, and the page
tests' browser harness notices a request the policy blocks."""

from pathlib import Path

from accord.report._csp import page_environment

from ..conftest import headless_dom

TEMPLATES = Path(__file__).resolve().parents[2] / "src" / "accord" / "report" / "templates"


def test_every_page_template_extends_the_shared_layout():
    pages = [p for p in TEMPLATES.glob("*.html") if not p.name.startswith("_")]
    assert {p.name for p in pages} >= {"report.html", "errors.html", "agreement.html", "matrix.html", "diff.html"}
    for page in pages:
        assert page.read_text(encoding="utf-8").startswith('{% extends "_base.html" %}'), page.name
    base = (TEMPLATES / "_base.html").read_text(encoding="utf-8")
    assert "Content-Security-Policy" in base and "default-src 'none'" in base


def test_a_request_the_policy_blocks_is_reported(tmp_path):
    layout = page_environment().get_template("_base.html").render(title="t")
    page = tmp_path / "leaky.html"
    page.write_text(layout.replace("</body>", '<img src="http://example.org/x.png"></body>'), encoding="utf-8")
    _, errors = headless_dom(page)
    assert errors and "Content Security Policy" in errors[0]
    clean = tmp_path / "clean.html"
    clean.write_text(layout, encoding="utf-8")
    assert headless_dom(clean)[1] == []
