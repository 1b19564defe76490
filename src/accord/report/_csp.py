"""The pages' Content-Security-Policy: scripts run only where the template wrote them, each allowed by its hash.

Every page forbids the network (``default-src 'none'``). Its inline scripts are allowed one by one by their
SHA-256 (``script-src 'sha256-...'``), computed as the page is rendered: a template writes a script as
``<script>{% filter csp_script %}...{% endfilter %}</script>`` and the hash of what the filter received goes into
the policy. A script that reached the page any other way (an escaping slip in a label) has no hash and does not
run. Styles stay ``'unsafe-inline'``: the pages colour cells with ``style`` attributes, which hashes cannot allow
(CSS cannot run script).
"""

from __future__ import annotations

import base64
import hashlib
from contextvars import ContextVar
from typing import Any

__all__ = ["PLACEHOLDER", "page_environment", "script_hash"]

PLACEHOLDER = "'accord-script-hashes'"
"""What ``_base.html`` writes in ``script-src``, replaced by the hashes of the page's scripts."""

_HASHES: ContextVar[list[str] | None] = ContextVar("accord_csp_hashes", default=None)


def script_hash(text: str) -> str:
    """A CSP source allowing the inline script ``text``: ``'sha256-<base64>'``."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def _csp_script(body: Any) -> Any:
    from markupsafe import Markup

    text = str(body)
    hashes = _HASHES.get()
    if hashes is None:   # pragma: no cover - a template rendered outside page_environment
        raise RuntimeError("csp_script used outside accord.report._csp.page_environment")
    hashes.append(script_hash(text))
    return Markup(text)


def page_environment() -> Any:
    """The Jinja environment of accord's pages: its templates fill in the policy's script hashes when rendered."""
    from jinja2 import Environment, PackageLoader, Template, select_autoescape

    from .._support.surface import generator_line

    class PageTemplate(Template):
        def render(self, *args: Any, **kwargs: Any) -> str:
            token = _HASHES.set([])
            try:
                html = super().render(*args, **kwargs)
                hashes = list(dict.fromkeys(_HASHES.get() or ()))
            finally:
                _HASHES.reset(token)
            return html.replace(PLACEHOLDER, " ".join(hashes) or "'none'", 1)

    env = Environment(loader=PackageLoader("accord.report", "templates"), autoescape=select_autoescape(["html"]))
    env.template_class = PageTemplate
    env.filters["csp_script"] = _csp_script
    env.globals["generator_line"] = generator_line
    return env
