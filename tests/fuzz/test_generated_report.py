"""Property: on any generated output (strings without offsets) placed on a gold text, the error browser's data gives
every unaligned string a row with a note naming it, a fuzzily placed string's false positive row its note, and the
report page renders; the page's alignment counts are the summary's."""

from __future__ import annotations

import re
import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.clueval._browser import span_views
from accord.formats.records.generated import records_corpus
from accord.model import Corpus, Document, make_annotation
from accord.report.html_report import report_html

from .harness import FULL, PROFILE

WORDS = ("Ann", "Bo", "Oslo", "Rome", "Acme", "Corp", "met", "in", "and")
LABELS = ("PER", "LOC", "ORG")


@st.composite
def cases(draw):
    docs, records = [], []
    for k in range(draw(st.integers(1, 3))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=10))
        text = " ".join(words)
        starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
        spans, at = [], 0
        while at < len(words):      # disjoint gold spans on word boundaries
            if draw(st.booleans()):
                n = draw(st.integers(1, min(2, len(words) - at)))
                spans.append(make_annotation(draw(st.sampled_from(LABELS)), starts[at],
                                             starts[at + n - 1] + len(words[at + n - 1])))
                at += n
            else:
                at += 1
        docs.append(Document(f"d{k}", tuple(spans), text))
        strings = draw(st.lists(st.tuples(st.sampled_from(WORDS + ("Paris", "Lisbon", "Acme Corp")),
                                          st.sampled_from(LABELS)), max_size=8))
        records.append({"id": f"d{k}", "entities": [{"text": s, "label": lab} for s, lab in strings]})
    return Corpus(docs), records


@settings(settings.get_profile(PROFILE), max_examples=200 if FULL else 40)
@given(cases())
def test_every_unaligned_string_has_a_noted_row_and_the_page_renders(case):
    gold, records = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = accord.score(gold, records_corpus(records))
    summary = result.options["alignment"]
    views = span_views({"model": result})
    page = report_html({"model": result}, views=views)
    counts = f"{summary['exact']} exact · {summary['fuzzy']} fuzzy · {summary['unaligned']} unaligned"
    assert f'<td class="alignment-counts">{counts}</td>' in page
    assert len(re.findall(r"<tr><td>d\d</td>", page.split('<table class="unaligned">')[1].split("</table>")[0])
               if summary["unaligned"] else []) == summary["unaligned"]
    if views["note"] is not None:       # spans placed over each other: no browser, and the page says why
        assert "overlap" in views["note"]
        return
    data = views["browser"]
    noted = [data["notes"][k] for k in data.get("row_note", []) if k >= 0]
    unaligned = [n for n in noted if n.startswith("unaligned")]
    assert len(unaligned) == summary["unaligned"]
    assert sorted(re.match("unaligned \u201c(.*)\u201d", n).group(1) for n in unaligned) == sorted(
        u["text"] for u in summary["unaligned_listed"])
