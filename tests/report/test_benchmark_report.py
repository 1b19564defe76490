"""The benchmark's HTML page shows what its terminal output shows (issue 44, item 9), counted by hand on the
corpus of tests/diff/test_benchmark.py."""

from html.parser import HTMLParser

from accord.cli import main

from ..diff.test_benchmark import AFTER, BEFORE, EXPECTED_CHANGES, KEY, write


class _Tables(HTMLParser):
    """The text of every cell of the tables with an id, row by row, and each cell's class."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[tuple[str, str]]]] = {}
        self.current: str | None = None
        self.cell: list[str] | None = None
        self.cls = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "table" and a.get("id"):
            self.current = a["id"]
            self.tables[self.current] = []
        elif tag == "tr" and self.current:
            self.tables[self.current].append([])
        elif tag == "td" and self.current:
            self.cell, self.cls = [], a.get("class") or ""

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)

    def handle_endtag(self, tag):
        if tag == "td" and self.cell is not None and self.current:
            self.tables[self.current][-1].append(("".join(self.cell), self.cls))
            self.cell = None
        elif tag == "table":
            self.current = None


def _page(tmp_path, *extra):
    args = ["benchmark", write(KEY, tmp_path / "k.jsonl"), write(BEFORE, tmp_path / "b.jsonl"),
            write(AFTER, tmp_path / "a.jsonl"), "--html", str(tmp_path / "b.html"), *extra]
    assert main(args) == 0
    parser = _Tables()
    page = (tmp_path / "b.html").read_text(encoding="utf-8")
    parser.feed(page)
    return page, {k: [r for r in v if r] for k, v in parser.tables.items()}


def test_the_page_holds_the_terminal_tables(tmp_path, capsys):
    page, tables = _page(tmp_path, "--threshold", "0.5")
    capsys.readouterr()
    # by document and type: 2 documents x 3 types + the total; d1 PER (by hand, average measure): before c=1 p=1
    # -> P 0.75, after c=2 s=1 -> P 2/3, worse; R 0.75 -> 1, better; one fixed and one broken
    rows = {(r[0][0], r[1][0]): r for r in tables["benchmark-rows"]}
    assert len(rows) == 7
    per = rows[("d1", "PER")]
    assert per[2] == ("0.7500 → 0.6667", "num worse") and per[3] == ("0.7500 → 1.0000", "num better")
    assert (per[-2][0], per[-1][0]) == ("1", "1")
    assert [c[0] for c in rows[("<all>", "<all>")][-2:]] == ["3", "2"]
    # the macro average over documents: before d1 (c1 p1 m1 s1: P 0.5) and d2 (c1: P 1) -> 0.75;
    # after d1 (c3 s1: P 3/4) and d2 (m1: P 1 on the empty response) -> 0.875; recall after (1 + 0)/2
    corpus = {r[0][0]: r for r in tables["benchmark-corpus-table"]}
    macro = corpus["macro over documents"]
    assert macro[5][0] == "0.7500 → 0.8750" and macro[6][0] == "0.7500 → 0.5000"
    # the micro row's counts, before → after (c 2→3, p 1→0, m 1→1, s 1→1)
    assert [c[0] for c in corpus["micro (all types)"][1:5]] == ["2 → 3", "1 → 0", "1 → 1", "1 → 1"]
    # the changed annotations, fixed and broken, as the terminal's table
    changes = [tuple(r[i][0] for i in (0, 1, 2, 3, 5, 6, 7)) for r in tables["benchmark-changes-table"]]
    assert sorted(changes) == sorted((d, t, side, f"{s}-{e}", b, a, x)
                                     for d, t, side, s, e, b, a, x in EXPECTED_CHANGES)
    # below 0.5 after: d2 PER (recall 0): its missing key "Jane"
    assert [[c[0] for c in r] for r in tables["benchmark-below-table"]] == [
        ["d2", "PER", "1.0000", "0.0000", "missing", "key", "0-4", "Jane"]]
    assert '<a href="#benchmark">Corpus Benchmark</a>' in page


def test_without_threshold_no_below_list(tmp_path, capsys):
    page, tables = _page(tmp_path)
    capsys.readouterr()
    section = page.split('id="benchmark"')[1].split("</section>")[0]
    assert "benchmark-below-table" not in tables and "below" not in section
