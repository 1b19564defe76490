"""Random tables drawn by the plain writer (report/plain_table.py) and by rich on consoles of random widths: the
same characters every time, whichever of the two ends up drawing."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.report.plain_table import PlainConsole
from accord.report.table import TableConsole, new_table, print_table

from .harness import PROFILE

WORDS = st.lists(st.text(st.sampled_from(list("aZ09%-_.,·—→éßЖ/")), min_size=1, max_size=6), min_size=1,
                 max_size=3).map(" ".join)
"""Text the plain writer draws itself (words and single spaces)."""
TEXT = st.one_of(WORDS, st.text(st.sampled_from(list("aZ09 %-_.,·—→éßЖ[]:/\t東") + ["\u0301"]),
                                               max_size=12))
NUMBER = st.one_of(st.integers(0, 10 ** 7).map(str), st.sampled_from(["—", "", "100.00", "93.69 [93.1, 94.2]"]))


@st.composite
def tables(draw):
    text = WORDS if draw(st.booleans()) else TEXT      # half the tables are the plain writer's own
    n = draw(st.integers(1, 6))
    first = draw(st.integers(1, n))
    headers = draw(st.lists(text, min_size=n, max_size=n))
    title = draw(st.one_of(st.none(), text))
    rows = draw(st.lists(st.tuples(st.lists(text, min_size=first, max_size=first),
                                   st.lists(NUMBER, min_size=n - first, max_size=n - first),
                                   st.sampled_from([None, "dim", "bold"]), st.booleans()), max_size=6))
    return headers, first, title, rows


def build(spec):
    headers, first, title, rows = spec
    t = new_table(title, headers, first=first)
    for names, numbers, style, section in rows:
        t.add_row(*names, *numbers, style=style)
        if section:
            t.add_section()
    return t


@settings(settings.get_profile(PROFILE))
@given(tables(), st.integers(1, 130), st.one_of(st.none(), WORDS, TEXT))
def test_the_plain_writer_writes_what_rich_writes(spec, width, caption):
    plain, rich = io.StringIO(), io.StringIO()
    print_table(PlainConsole(TableConsole, file=plain, width=width, caption=caption), build(spec))
    print_table(TableConsole(file=rich, width=width, caption=caption), build(spec))
    assert plain.getvalue() == rich.getvalue()
