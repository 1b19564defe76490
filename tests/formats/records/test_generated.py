"""The records format (generated output without offsets): reading, sniffing, malformed input, Python lists."""

from __future__ import annotations

import json

import pytest

import accord
from accord.errors import FormatError
from accord.formats import read, sniff
from accord.formats.records.generated import TEXT, is_records, records_corpus


def _write(tmp_path, *lines, name="pred.jsonl"):
    p = tmp_path / name
    p.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return p


def test_a_file_of_records_is_read_and_sniffed(tmp_path):
    p = _write(tmp_path, {"id": "a", "entities": [{"text": "New York", "label": "LOC", "attributes": {"n": 1}}],
                          "relations": [{"head": "Ann", "tail": "New York", "label": "lives_in"}]},
               {"id": "b"}, {"id": 3, "entities": []})
    assert sniff(p).name == "records"
    corpus = read(p)
    assert list(corpus) == ["a", "b", "3"] and is_records(corpus)
    ent, rel = corpus["a"].annotations
    assert (ent.label, ent.get(TEXT), ent.get("n"), ent.start) == ("LOC", "New York", 1, None)
    assert rel.label == "lives_in"
    assert corpus["b"].annotations == ()


def test_doccano_and_accords_json_lines_are_not_taken_for_records(tmp_path):
    doccano = _write(tmp_path, {"id": 1, "text": "Ann", "entities": [{"id": 1, "start_offset": 0, "end_offset": 3,
                                                                       "label": "PER"}]}, name="d.jsonl")
    assert sniff(doccano).name == "doccano"
    ours = _write(tmp_path, {"id": "x", "text": "Ann", "annotations": [{"label": "PER", "start": 0, "end": 3}]},
                  name="j.jsonl")
    assert sniff(ours).name == "jsonl"


@pytest.mark.parametrize("line, where", [
    ({"id": "a", "entities": [{"text": "Ann"}]}, r"\$\.entities\[0\]: label"),
    ({"id": "a", "entities": [{"text": "", "label": "PER"}]}, r"\$\.entities\[0\]: text"),
    ({"id": "a", "entities": [{"text": "Ann", "label": "PER", "start": 0}]}, r"\$\.entities\[0\]: unknown field"),
    ({"id": "a", "entities": {"text": "Ann"}}, r"\$\.entities: expected a list"),
    ({"id": "a", "relations": [{"head": "Ann", "label": "r"}]}, r"\$\.relations\[0\]: tail"),
    ({"id": "a", "entities": [{"text": "A", "label": "P", "attributes": {"x": [1]}}]}, r"attributes"),
    ({"entities": []}, r"\$\.id"),
    ({"id": "a", "entitys": []}, r"unknown field 'entitys'"),
    ("[1, 2]", r"expected an object"),
])
def test_malformed_records_name_the_line_and_the_field(tmp_path, line, where):
    p = _write(tmp_path, {"id": "ok", "entities": []}, line)
    with pytest.raises(FormatError, match=where) as caught:
        read(p, format="records")
    assert caught.value.line == 2


def test_a_repeated_document_id_is_an_error(tmp_path):
    p = _write(tmp_path, {"id": "a", "entities": []}, {"id": "a", "entities": []})
    with pytest.raises(FormatError, match="appears twice"):
        read(p, format="records")


def test_python_lists_of_records_are_scored(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"id": "a", "text": "Ann met Bob.", "annotations": [
        {"label": "PER", "start": 0, "end": 3}, {"label": "PER", "start": 8, "end": 11}]}) + "\n", encoding="utf-8")
    pred = [{"id": "a", "entities": [{"text": "Bob", "label": "PER"}, {"text": "Carl", "label": "PER"}]}]
    totals = accord.score(gold, pred, format="jsonl").to_dict()["totals"]
    assert (totals["gold"], totals["pred"], totals["match"]) == (2, 2, 1)     # by hand: Bob found, Carl is not
    with pytest.raises(FormatError, match=r"<list>.*\$\.entities\[0\]: label"):
        records_corpus([{"id": "a", "entities": [{"text": "Bob"}]}], name="<list>")


def test_written_records_read_back(tmp_path):
    from accord.formats import write

    corpus = records_corpus([{"id": "a", "entities": [{"text": "Ann", "label": "PER"}]}])
    out = tmp_path / "out.jsonl"
    write(corpus, out, "records")
    assert read(out)["a"].annotations[0].get(TEXT) == "Ann"


def test_a_deeply_nested_line_is_sniffed_without_a_crash(tmp_path):
    # before: RecursionError from the records and doccano sniffers (found by tests/fuzz/test_readers.py)
    p = tmp_path / "deep.jsonl"
    p.write_text('{"id": "a", "text": "<", "annotations": ' + "[" * 3000 + "]" * 3000 + "}\n", encoding="utf-8")
    assert sniff(p).name == "jsonl"
