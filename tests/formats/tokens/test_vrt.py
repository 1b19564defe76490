"""The VRT reader and writer: structures, names, numbers, token ids, edge cases, errors."""

import pytest

from accord import score
from accord.errors import FormatError, OptionError, PairingError
from accord.formats import read
from accord.formats.tokens.vrt import parse_vrt, read_vrt_layers, write_vrt

SAMPLE = """<!-- #vrt positional-attributes: word id ner_cat ner_risk -->
<text id="t1" domain="civil">
<p n="1">
<s id="s1">
Anna\tw1\tB-PER\tB-high
Schmidt\tw2\tI-PER\tI-high
klagt\tw3\tO\tO
</s>
<s id="s2">
</s>
</p>
<s id="s3">
in\tw4\tO\tO
Berlin\tw5\tB-LOC\tB-low
</s>
</text>
<text id="t2" domain="penal">
AT&amp;T\tw6\tB-ORG\tB-low
Inc\tw7\tI-ORG\tO
</text>
"""


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "sample.vrt"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def test_documents_sentences_and_metadata(sample):
    c = read(sample, columns=["ner_cat"], token_id_column="id")
    t1, t2 = c["t1"], c["t2"]
    assert [(a.label, a.start, a.end) for a in t1.annotations] == [("PER", 0, 2), ("LOC", 4, 5)]
    assert t1.tokens == ("Anna", "Schmidt", "klagt", "in", "Berlin")
    assert t2.tokens == ("AT&T", "Inc")              # entities in tokens are decoded
    # nested <p><s>, an empty sentence kept, sentence attributes, other structures
    assert t1.sentences == ((0, 3), (3, 3), (3, 5))
    assert [dict(a) for a in t1.metadata["sentence_attributes"]] == [{"id": "s1"}, {"id": "s2"}, {"id": "s3"}]
    assert t1.metadata["structures"] == (("p", {"n": "1"}, 0, 3),)
    assert t1.metadata["domain"] == "civil" and t2.metadata["domain"] == "penal"
    # corpus positions count tokens only, over the whole file
    assert (t1.metadata["cpos"], t2.metadata["cpos"]) == (0, 5)
    assert t2.metadata["token_ids"] == ("w6", "w7")


def test_columns_by_name_number_and_option(sample, tmp_path):
    by_name = read(sample, columns=["ner_risk"])
    by_number = read(sample, columns=["4"])
    assert [(a.label, a.start) for a in by_name["t2"].annotations] == [("low", 0)]
    assert [(a.label, a.start) for a in by_number["t2"].annotations] == [("low", 0)]
    assert [a.label for a in read(sample)["t1"].annotations] == ["high", "low"]   # default: the last column
    plain = tmp_path / "plain.vrt"
    plain.write_text("\n".join(line for line in SAMPLE.splitlines() if not line.startswith("<!--")) + "\n")
    with pytest.raises(OptionError, match="no positional-attribute names"):
        read(plain, columns=["ner_cat"])
    named = read(plain, columns=["ner_cat"], positional_attributes=["word", "id", "ner_cat", "ner_risk"])
    assert [a.label for a in named["t1"].annotations] == ["PER", "LOC"]
    with pytest.raises(OptionError, match="no column named 'ner'.*word, id, ner_cat, ner_risk"):
        read(sample, columns=["ner"])
    with pytest.raises(OptionError, match="column 7 does not exist"):
        read(sample, columns=["7"])
    with pytest.raises(OptionError, match="choose one BIO column"):
        read(sample, columns=["ner_cat", "ner_risk"])
    layers = read_vrt_layers(sample, ["ner_cat", "ner_risk"])
    assert list(layers) == ["ner_cat", "ner_risk"]


def test_gold_and_prediction_as_two_columns_of_one_file(sample):
    report = score(sample, None, gold_column="ner_cat", pred_column="ner_cat")
    assert report.totals.match == 3
    with pytest.raises(OptionError, match="give the predicted file"):
        score(sample, None, gold_column="ner_cat")


def test_gold_and_prediction_columns_of_a_conll_file(tmp_path):
    path = tmp_path / "two.conll"
    path.write_text("EU B-ORG B-ORG\nrejects O O\nGerman B-MISC B-LOC\ncall O O\n")
    report = score(path, None, gold_column=1, pred_column=2)
    assert (report.totals.gold, report.totals.match) == (2, 1)
    with pytest.raises(OptionError, match="chosen by number"):
        score(path, None, gold_column="gold", pred_column="pred")


def test_token_id_mismatch_names_both_files_and_the_position(sample, tmp_path):
    other = tmp_path / "other.vrt"
    other.write_text(SAMPLE.replace("in\tw4", "in\tw9"), encoding="utf-8")
    with pytest.raises(PairingError, match=r"token id 'w4' at .*sample.vrt, corpus position 3 .* but 'w9' at "
                                           r".*other.vrt, corpus position 3"):
        score(sample, other, columns=["ner_cat"], token_id_column="id")


@pytest.mark.parametrize("text, message, line", [
    ("<text id='a'>\nx\tO\n</s>\n", r"</s> does not close the open element; expected </text> \(opened on line 1\)",
     3),
    ("<text>\nx\tO\n", "<text> opened on line 1 is never closed", None),
    ("<text>\nx\tO\ny\tO\tO\n</text>\n", "expected 2 tab-separated fields", 3),
    ("x\tO\n<text>\ny\tO\n</text>\n", "a token outside every <text> element", 1),
    ("<text>\n<text>\n</text>\n</text>\n", "<text> inside another <text>", 2),
    ("<text id='a' id='b'>\n</text>\n", "attribute 'id' appears twice", 1),
    ("<text>\nx\tO\n<s foo>\n</text>\n", "expected a token line or one XML tag", 3),
])
def test_malformed_files_give_the_line(tmp_path, text, message, line):
    path = tmp_path / "bad.vrt"
    path.write_text(text)
    with pytest.raises(FormatError, match=message) as info:
        read(path)
    assert info.value.line == line


def test_overlapping_sentences_are_an_error():
    with pytest.raises(FormatError, match="<s> elements overlap or nest"):
        parse_vrt("<text>\n<s>\n<s>\nx\tO\n</s>\n</s>\n</text>\n")


def test_an_element_around_the_texts_belongs_to_no_document(tmp_path):
    path = tmp_path / "wrapped.vrt"
    path.write_text("<corpus name='c'>\n<text id='a'>\n<p>\nx\tB-X\n</p>\n</text>\n<text id='b'>\ny\tO\n</text>\n"
                    "</corpus>\n")
    c = read(path)
    assert c["a"].metadata["structures"] == (("p", {}, 0, 1),) and c["b"].metadata["structures"] == ()
    assert [(a.start, a.end) for a in c["a"].annotations] == [(0, 1)]


def test_file_without_text_elements_is_one_document(tmp_path):
    path = tmp_path / "bare.vrt"
    path.write_text("<p>\n<s>\nA\tB-X\n</s>\n<s>\nB\tI-X\n</s>\n</p>\n")
    c = read(path)
    assert list(c) == ["1"]
    assert c["1"].metadata["structures"] == (("p", {}, 0, 2),) and c["1"].sentences == ((0, 1), (1, 2))
    # a chunk never crosses a sentence: I-X after a sentence break starts a new chunk
    assert [(a.start, a.end) for a in c["1"].annotations] == [(0, 1), (1, 2)]


def test_writer_round_trip_keeps_spans_metadata_and_ids(sample, tmp_path):
    layers = read_vrt_layers(sample, ["ner_cat", "ner_risk"], token_id_column="id")
    out = tmp_path / "out.vrt"
    write_vrt(layers, out)
    text = out.read_text()
    assert text.startswith("<!-- #vrt positional-attributes: word id ner_cat ner_risk -->\n")
    assert '<text id="t2" domain="penal">' in text and "AT&amp;T\tw6\tB-ORG\tB-low" in text
    again = read_vrt_layers(out, ["ner_cat", "ner_risk"], token_id_column="id")
    for name in layers:
        for doc_id, doc in layers[name].items():
            other = again[name][doc_id]
            assert [(a.label, a.start, a.end) for a in other.annotations] == \
                [(a.label, a.start, a.end) for a in doc.annotations]
            assert other.tokens == doc.tokens and other.sentences == doc.sentences
            assert other.metadata["token_ids"] == doc.metadata["token_ids"]
