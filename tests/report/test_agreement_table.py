"""The agreement table of the default convention prints each pair's contingency table (it was in the JSON only)."""

from __future__ import annotations

from accord.cli import main


def test_each_pairs_contingency_table_is_printed_by_hand(tmp_path, capsys, monkeypatch):
    """Six items rated by a and b. By hand, a's categories in rows and b's in columns (x, y):
    x~x: items 1, 2 (2); x~y: item 3 (1); y~x: none (0); y~y: items 4, 5, 6 (3)."""
    table = tmp_path / "r.csv"
    table.write_text("item,a,b\n1,x,x\n2,x,x\n3,x,y\n4,y,y\n5,y,y\n6,y,y\n")
    monkeypatch.setenv("COLUMNS", "150")
    assert main(["agree", str(table), "--items", "item"]) == 0
    out = capsys.readouterr().out
    assert "a (rows) against b (columns)" in " ".join(out.split())     # the title wraps to the table
    rows = [line.split("│") for line in out.splitlines() if line.lstrip().startswith(("x ", "y "))
            and line.count("│") == 2]
    # the last table printed
    assert [[cell.strip() for cell in row] for row in rows[-2:]] == [["x", "2", "1"], ["y", "0", "3"]]


def test_many_pairs_are_left_to_the_json_with_a_line(tmp_path, capsys, monkeypatch):
    """Twelve raters make 66 pairs, past the 10 printed: one line says where they are."""
    header = "item," + ",".join(f"r{k}" for k in range(12))
    table = tmp_path / "r.csv"
    table.write_text(header + "\n" + "\n".join(f"{i}," + ",".join("xy"[(i + k) % 2] for k in range(12))
                                             for i in range(6)) + "\n")
    assert main(["agree", str(table), "--items", "item"]) == 0
    out = capsys.readouterr().out
    assert "66 pairwise contingency table(s) of 2 categories: in the JSON" in out
    assert "(rows) against" not in out
