"""The other forms of generated records (accord.formats.records.generated_forms): a JSON array, {"documents": [...]},
CSV and TSV files, Python tuples and pandas DataFrames, each scoring as the JSON-lines form does (hand-counted), and
their malformed input named by line (row) and field."""

from __future__ import annotations

import json

import pytest

import accord
from accord.errors import FormatError
from accord.formats import read, sniff
from accord.formats.records.generated import HEAD, TAIL, TEXT, is_records
from accord.formats.records.generated_forms import python_records

GOLD = {"id": "d1", "text": "Maria works for Aurora Air. Maria Lund met her in Bergen.",
        "annotations": [{"label": "PER", "start": 0, "end": 5}, {"label": "ORG", "start": 16, "end": 26},
                        {"label": "PER", "start": 28, "end": 38}, {"label": "LOC", "start": 50, "end": 56}]}
ENTITIES = [("Maria", "PER"), ("Aurora Air", "ORG"), ("Maria", "PER"), ("Oslo", "LOC")]
RECORD = {"id": "d1", "entities": [{"text": t, "label": lab} for t, lab in ENTITIES]}
# by hand: Maria -> [0, 5) PER (a gold span), the second Maria -> [28, 33) (overlaps the gold PER "Maria Lund": not
# a match), Aurora Air -> [16, 26) ORG, Oslo not in the text; gold 4, predicted 4, matches 2
HAND = (4, 4, 2)


@pytest.fixture
def gold(tmp_path):
    p = tmp_path / "gold.jsonl"
    p.write_text(json.dumps(GOLD) + "\n", encoding="utf-8")
    return p


def _totals(gold, pred, **options):
    t = accord.score(gold, pred, **options).to_dict()["totals"]
    return t["gold"], t["pred"], t["match"]


def test_every_file_form_scores_as_the_hand_count(tmp_path, gold):
    forms = {
        "lines.jsonl": json.dumps(RECORD) + "\n",
        "array.json": json.dumps([RECORD], indent=2),
        "docs.json": json.dumps({"documents": [RECORD]}, indent=1),
        "rows.csv": "id,text,label\n" + "".join(f"d1,{t},{lab}\n" for t, lab in ENTITIES),
        "rows.tsv": "id\ttext\tlabel\n" + "".join(f"d1\t{t}\t{lab}\n" for t, lab in ENTITIES),
    }
    for name, content in forms.items():
        p = tmp_path / name
        p.write_text(content, encoding="utf-8")
        assert sniff(p).name == "records", name
        assert is_records(read(p)), name
        assert _totals(gold, p) == HAND, name
        assert _totals(gold, p, pred_format="records") == HAND, name


def test_every_python_form_scores_as_the_hand_count(gold):
    assert _totals(gold, [RECORD]) == HAND
    assert _totals(gold, [("d1", t, lab) for t, lab in ENTITIES]) == HAND
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame([{"id": "d1", "text": t, "label": lab} for t, lab in ENTITIES])
    assert _totals(gold, frame) == HAND


def test_csv_relations_attributes_and_empty_documents(tmp_path):
    p = tmp_path / "r.csv"
    p.write_text('id,text,label,head,tail,kind\n'
                 'a,"New York, NY",LOC,,,city\n'
                 'a,Ann,PER,,,\n'
                 'a,,lives_in,Ann,"New York, NY",\n'
                 '\n'
                 'b,,,,,\n', encoding="utf-8")
    corpus = read(p)
    assert list(corpus) == ["a", "b"] and corpus["b"].annotations == ()
    ny, ann, rel = corpus["a"].annotations
    assert (ny.get(TEXT), ny.label, ny.get("kind")) == ("New York, NY", "LOC", "city")
    assert ann.get("kind") is None
    assert (rel.label, rel.get(HEAD), rel.get(TAIL)) == ("lives_in", "Ann", "New York, NY")


def test_a_dataframe_with_missing_cells_and_numeric_ids():
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame({"id": [1, 1, 2], "text": ["Ann", "Bob", None], "label": ["PER", "PER", None],
                              "conf": [0.5, None, None]})
    corpus = python_records(frame)
    assert list(corpus) == ["1", "2"]
    assert [a.get("conf") for a in corpus["1"].annotations] == [0.5, None]
    assert corpus["2"].annotations == ()


@pytest.mark.parametrize("name, content, where", [
    ("a.json", '[\n{"id": "a", "entities": []},\n{"id": "b", "entities": [{"text": "x"}]}\n]',
     ":3: $.entities[0]: label"),
    ("b.json", '[\n{"id": "a", "entities": []},\n\n  {"id": "b", "entities": 5}]', ":4: $.entities: expected a list"),
    ("c.json", '{"documents": [\n{"id": "a"},\n{"id": "a"}\n]}', "twice"),
    ("d.json", '{"documents": [\n{"id": "a", "entities": []}\n], "x": 1}', ':3: expected {"documents": [...]}'),
    ("e.json", '[\n{"id": "a", "entities": []}\n{"id": "b"}]', ":3: not valid JSON (expected ','"),
    ("f.json", '[{"id": "a", "entities": [{"text": "x", "label": NaN}]}]', ":1: not valid JSON"),
    ("g.csv", "id,text,label\na,Ann,PER\nb,,PER\n", ":3: row 2, column 'text'"),
    ("h.csv", "id,text,label\na,Ann\n", ":2: row 1: 2 cells under 3 columns"),
    ("i.csv", "id,text,labl\na,Ann,PER\n", ":1: the header names"),
    ("j.tsv", "id\ttext\tlabel\thead\ttail\na\tAnn\tR\tAnn\tBob\n", ":2: row 1, column 'text': a relation row"),
    ("k.csv", 'id,text,label\na,"Ann\nSmith",PER\nb,Bob,\n', ":4: row 2, column 'label'"),
    ("l.csv", "id,text,label,_x\na,Ann,PER,1\n", ":1: column '_x'"),
    ("m.json", '[{"id": "a", "events": [{"trigger": "t", "label": "E", "arguments": [{"role": "A"}]}]}]',
     ":1: $.events[0].arguments[0]: text"),
])
def test_malformed_input_names_the_file_line_and_field(tmp_path, name, content, where):
    p = tmp_path / name
    p.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError) as err:
        read(p, format="records")
    message = str(err.value)
    assert message.startswith(str(p)) and where in message and "\n" not in message, message


def test_malformed_python_forms_name_the_item_and_field(gold):
    with pytest.raises(FormatError, match=r"<list>: item 2: expected a tuple \(id, text, label\); got 2 values"):
        accord.score(gold, [("d", "Ann", "PER"), ("d", "Ann")])
    with pytest.raises(FormatError, match=r"item 2, column 'label'"):
        python_records([("d", "Ann", "PER"), ("d", "Ann", 5)])
    pandas = pytest.importorskip("pandas")
    with pytest.raises(FormatError, match=r"<DataFrame>: row 1, column 'text'"):
        python_records(
            pandas.DataFrame({"id": ["a"], "text": [None], "label": ["PER"]}))


def test_other_json_and_tsv_files_are_not_taken_for_records(tmp_path):
    conll = tmp_path / "x.tsv"
    conll.write_text("John\tB-PER\nlives\tO\n", encoding="utf-8")
    assert sniff(conll).name != "records"
    array = tmp_path / "y.json"
    array.write_text('[{"id": 1, "text": "Ann", "annotations": []}]', encoding="utf-8")
    try:
        assert sniff(array).name != "records"
    except FormatError:
        pass        # no format claims it: not records either


def test_a_dataframe_of_strings_without_ids_is_named_as_records():
    # before: the frame was taken for a table of spans ("expected the columns start, end, label ...")
    pandas = pytest.importorskip("pandas")
    with pytest.raises(FormatError, match=r"<DataFrame>: the frame has the columns doc, text, label; generated "
                                          r"records need id"):
        python_records(pandas.DataFrame({"doc": ["d1"], "text": ["Maria"], "label": ["PER"]}))
