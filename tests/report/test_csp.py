"""The pages' inline scripts run by their hashes (accord.report._csp); a script injected into a page does not."""

import base64
import hashlib
import re

from accord.cli import main
from accord.report._csp import PLACEHOLDER, script_hash

from ..conftest import headless_dom


def _policy(html: str) -> str:
    return re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)


def _scripts(html: str) -> list[str]:
    return re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)


def _page(tmp_path):
    """accord agree --html on two raters' labels: a page with the layout's script, the disagreement browser's and
    the page's own."""
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,r1,r2\n1,a,a\n2,b,b\n3,a,b\n", encoding="utf-8")
    page = tmp_path / "ratings.html"
    assert main(["agree", str(ratings), "--items", "item", "--html", str(page), "-q"]) == 0
    return page, page.read_text(encoding="utf-8")


def test_the_policy_lists_the_hash_of_every_script_and_no_unsafe_inline_script(tmp_path):
    _, html = _page(tmp_path)
    policy = _policy(html)
    scripts_policy = policy.split("script-src")[1].split(";")[0]
    assert "'unsafe-inline'" not in scripts_policy and "default-src 'none'" in policy
    assert PLACEHOLDER not in html
    scripts = _scripts(html)
    assert len(scripts) == 3     # the layout's helpers, the disagreement browser's filters and the page's ready mark
    # the hash as CSP Level 2 defines it (base64 of the SHA-256 of the script's UTF-8 text), computed here apart
    for text in scripts:
        digest = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
        assert f"'sha256-{digest}'" in scripts_policy
        assert script_hash(text) == f"'sha256-{digest}'"
    assert len(scripts_policy.split()) == 3


def test_every_page_writes_its_scripts_through_the_hash_filter():
    from pathlib import Path

    templates = Path(__file__).resolve().parents[2] / "src" / "accord" / "report" / "templates"
    for t in templates.glob("*.html"):
        text = t.read_text(encoding="utf-8")
        assert text.count("<script>") == text.count("<script>{% filter csp_script %}"), t.name
        assert not re.search(r"\son[a-z]+=", text), f"{t.name}: an inline event handler, which the policy refuses"


def test_in_chromium_the_page_scripts_run_and_an_injected_script_does_not(tmp_path):
    page, html = _page(tmp_path)
    dom, errors = headless_dom(page)
    assert errors == [] and 'data-ready="yes"' in dom     # the page's own scripts ran
    # an escaping slip: a label that reached the page as markup
    bad = tmp_path / "injected.html"
    bad.write_text(html.replace("</h1>", '</h1><script>document.body.dataset.injected = "ran";</script>', 1),
                   encoding="utf-8")
    dom, errors = headless_dom(bad)
    assert 'data-ready="yes"' in dom and "data-injected" not in dom
    assert any("Content Security Policy" in e or "Refused" in e for e in errors)
    # the same page under the former policy ('unsafe-inline') runs it: the test sees the difference
    old = tmp_path / "former.html"
    old.write_text(bad.read_text(encoding="utf-8").replace(_policy(html), _policy(html).split("script-src")[0]
                                                            + "script-src 'unsafe-inline'; img-src data:"),
                   encoding="utf-8")
    assert 'data-injected="ran"' in headless_dom(old)[0]
