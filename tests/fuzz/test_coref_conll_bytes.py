"""``accord coref`` on generated CoNLL-2012 files: the byte reading of the lines (``formats/coref/_layout.py``), the
chains kept as arrays and the JSON written a table at a time give what the general paths give (every field laid
out, the chains as lists, ``json_text`` of the result's dict): the same output, or the same one-line error."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats.coref import _layout, clusters
from accord.formats.coref._chains import CorefChains
from accord.structured import _result

from .harness import PROFILE, run

settings.load_profile(PROFILE)

_CHAIN = st.sampled_from(["-", "_", "(0)", "(1", "1)", "(0)|(1", "(2|(0", "0)|2)", "(01)", "1)|(1", "(1(2", "(x)",
                          "(" + "7" * 25 + ")", "2)"])
_TOKEN = st.sampled_from(["w", "wörd", "a\tb", "#x", "中", "-"])
_BLANK = st.sampled_from(["\t", " ", "  ", "\t\t"])
_END = st.sampled_from(["", "", "\t", " ", "\r", " " * 10])


@st.composite
def _line(draw):
    if draw(st.integers(0, 9)) == 0:
        return draw(st.sampled_from(["", "   ", "# a comment", "\u00a0w (1)", "w\u2028(0)"]))
    lead = draw(st.sampled_from(["", "", " "]))
    return lead + draw(_TOKEN) + draw(_BLANK) + draw(_CHAIN) + draw(_END)


@st.composite
def _file(draw):
    lines = []
    for k in range(draw(st.integers(0, 3))):
        lines.append(f"#begin document d{k}")
        lines += draw(st.lists(_line(), max_size=8))
        if draw(st.integers(0, 12)):
            lines.append("#end document")
    return "\n".join(lines) + draw(st.sampled_from(["\n", ""]))


def _general(monkeypatch_context, argv):
    """The command with the byte reading, the chains as arrays and the table writer turned off."""
    chains = clusters.read_coref_chains

    def as_lists(path):
        docs = chains(path)
        return docs.to_dict() if isinstance(docs, CorefChains) else docs
    with monkeypatch_context() as m:
        m.setattr(_layout, "_ascii_lines", lambda text, codes: None)
        m.setattr(clusters, "read_coref_chains", as_lists)
        m.setattr(_result.CorefResult, "to_json", lambda self, indent=2: _result.Result.to_json(self, indent))
        return run(argv)


@settings(max_examples=100 if PROFILE == "accord-ci" else 700)
@given(key=_file(), response=_file())
def test_coref_command_equals_its_general_paths(tmp_path_factory, key, response):
    import pytest

    folder = tmp_path_factory.mktemp("coref")
    k, r = folder / "key.conll", folder / "response.conll"
    k.write_text(key, encoding="utf-8")
    r.write_text(response, encoding="utf-8")
    argv = ["coref", str(k), str(r), "--output", "json", "--allow-missing", "empty"]
    fast = run(argv)
    general = _general(pytest.MonkeyPatch.context, argv)
    assert (fast.status, fast.stderr) == (general.status, general.stderr)
    if fast.status == 0:
        assert fast.stdout == general.stdout
        json.loads(fast.stdout)
