"""Spans tables over a VRT file: corpus positions, checks against the tokens, scoring against VRT gold."""


import pytest

from accord.cli import main
from accord.errors import FormatError, OptionError
from accord.formats import read, write
from accord.formats.tokens.spans_table import read_spans_table
from tests.result.contract import checked

VRT = """<!-- #vrt positional-attributes: word id ner -->
<text id="t1">
<s>
Anna\tw1\tB-PER
Schmidt\tw2\tI-PER
klagt\tw3\tO
</s>
</text>
<text id="t2">
<s>
in\tw4\tO
Berlin\tw5\tB-LOC
</s>
</text>
"""


@pytest.fixture
def vrt(tmp_path):
    path = tmp_path / "corpus.vrt"
    path.write_text(VRT, encoding="utf-8")
    return path


def table(tmp_path, text, name="spans.tsv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_spans_land_on_the_right_documents_and_tokens(tmp_path, vrt):
    path = table(tmp_path, "document\tstart\tend\tlabel\ttext\tstart_id\tend_id\trisk\n"
                           "t1\t0\t1\tPER\tAnna Schmidt\tw1\tw2\thigh\nt2\t4\t4\tLOC\tBerlin\tw5\tw5\t\n")
    c = read_spans_table(path, spans_vrt=vrt, token_id_column="id")
    assert [(a.label, a.start, a.end, dict(a.attributes)) for a in c["t1"].annotations] == [
        ("PER", 0, 2, {"risk": "high"})]
    assert [(a.label, a.start, a.end, dict(a.attributes)) for a in c["t2"].annotations] == [("LOC", 1, 2, {})]
    # CSV, without a document column: the document is found from the positions
    csv_path = table(tmp_path, "start,end,label\n4,4,LOC\n", "spans.csv")
    assert [(a.start, a.end) for a in read_spans_table(csv_path, spans_vrt=vrt)["t2"].annotations] == [(1, 2)]


@pytest.mark.parametrize("row, message", [
    ("t1\t5\t5\tLOC", "outside the VRT's tokens"),
    ("t1\t2\t3\tLOC", "across the end of document 't1'"),
    ("t1\t4\t4\tLOC", "positions 4-4 are in document 't2', not 't1'"),
    ("t9\t0\t0\tLOC", "the VRT has no document 't9'"),
    ("t1\t1\t0\tLOC", "end 0 before start 1"),
    ("t1\tx\t0\tLOC", "must be corpus positions"),
    ("t1\t0\t0", "expected 4 cells"),
])
def test_bad_rows_name_the_line(tmp_path, vrt, row, message):
    path = table(tmp_path, "document\tstart\tend\tlabel\n" + row + "\n")
    with pytest.raises(FormatError, match=message) as info:
        read_spans_table(path, spans_vrt=vrt)
    assert info.value.line == 2


def test_text_and_token_ids_must_match_the_vrt(tmp_path, vrt):
    path = table(tmp_path, "start\tend\tlabel\ttext\n0\t1\tPER\tAnna Schmitt\n")
    with pytest.raises(FormatError, match="does not match the VRT's tokens 'Anna Schmidt'"):
        read_spans_table(path, spans_vrt=vrt)
    path = table(tmp_path, "start\tend\tlabel\tend_id\n0\t1\tPER\tw3\n")
    with pytest.raises(FormatError, match="end_id 'w3' does not match the VRT's token id 'w2' at corpus position 1"):
        read_spans_table(path, spans_vrt=vrt, token_id_column="id")
    with pytest.raises(OptionError, match="--token-id-column"):
        read_spans_table(path, spans_vrt=vrt)
    with pytest.raises(OptionError, match="needs the VRT file"):
        read_spans_table(path)
    with pytest.raises(FormatError, match="lacks the column"):
        read_spans_table(table(tmp_path, "document\tfrom\tto\tlabel\n"), spans_vrt=vrt)


def test_written_table_reads_back_and_scores_against_the_vrt(tmp_path, vrt, capsys):
    gold = read(vrt, columns=["ner"])
    out = tmp_path / "gold_spans.tsv"
    write(gold, out, "spans")
    assert out.read_text().splitlines()[1] == "t1\t0\t1\tPER\tAnna Schmidt"
    again = read_spans_table(out, spans_vrt=vrt)
    assert [(a.label, a.start, a.end) for d in again.values() for a in d.annotations] == \
        [(a.label, a.start, a.end) for d in gold.values() for a in d.annotations]
    pred = table(tmp_path, "document\tstart\tend\tlabel\nt1\t0\t0\tPER\nt2\t4\t4\tLOC\n")
    assert main(["score", str(vrt), str(pred), "--columns", "ner", "--pred-format", "spans", "--spans-vrt",
                 str(vrt), "--match", "clueval", "--output", "json"]) == 0
    result = checked(capsys.readouterr().out)
    assert result["measures"]["exact"]["totals"]["gold_hits"] == 1
    assert result["measures"]["superset"]["totals"]["gold_hits"] == 1
    assert result["measures"]["superset"]["totals"]["pred_hits"] == 2
