"""WebAnno TSV 3: span layers with stacked, multi-token and sub-token annotations, escapes and UTF-16 offsets."""

import pytest

import accord
from accord.errors import AccordError, FormatError, OptionError

HEADER = ("#FORMAT=WebAnno TSV 3.3\n"
          "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
          "#T_SP=webanno.custom.Sent|polarity\n\n\n")
BODY = ("#Text=Alice 😀 met Bob Smith .\n"
        "1-1\t0-5\tAlice\t_\tPER\t_\t\n"
        "1-2\t6-8\t😀\t_\t_\tpositive\t\n"
        "1-3\t9-12\tmet\t_\t_\t_\t\n"
        "1-4\t13-16\tBob\thttp://x[2]\tPER[2]\t_\t\n"
        "1-5\t17-22\tSmith\thttp://x[2]\tPER[2]\t_\t\n"
        "1-6\t23-24\t.\t_\t_\t_\t\n\n"
        "#Text=In Paris-Nord .\n"
        "2-1\t25-27\tIn\t_\t_\t_\t\n"
        "2-2\t28-38\tParis-Nord\t_\tLOC|*[3]\t_\t\n"
        "2-2.1\t28-33\tParis\t_\tGPE\\|city\t_\t\n"
        "2-3\t39-40\t.\t_\t*[3]\t_\t\n")


def _spans(corpus):
    (doc,) = corpus.documents
    return [(a.label, doc.surface(a.start, a.end)) for a in doc.annotations]


def test_reading_by_hand(tmp_path):
    (tmp_path / "doc.tsv").write_text(HEADER + BODY, encoding="utf-8")
    corpus = accord.read(tmp_path / "doc.tsv")
    # UTF-16 offsets: the emoji is two units, so "met" (9-12) is code points 8-11; [2] spans two tokens, [3] a
    # token and the next, "GPE|city" (an escaped bar) a sub-token; "*" has no value: the layer's name is the label
    assert _spans(corpus) == [("PER", "Alice"), ("PER", "Bob Smith"), ("GPE|city", "Paris"), ("LOC", "Paris-Nord"),
                              ("NamedEntity", "Paris-Nord .")]
    assert corpus.documents[0].annotations[1].get("identifier") == "http://x"
    assert _spans(accord.read(tmp_path / "doc.tsv", layer="Sent:polarity")) == [("positive", "😀")]


def test_scores_against_a_changed_copy(tmp_path):
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    (tmp_path / "g" / "doc.tsv").write_text(HEADER + BODY, encoding="utf-8")
    changed = BODY.replace("1-1\t0-5\tAlice\t_\tPER", "1-1\t0-5\tAlice\t_\tORG").replace(
        "1-5\t17-22\tSmith\thttp://x[2]\tPER[2]", "1-5\t17-22\tSmith\t_\t_")
    (tmp_path / "p" / "doc.tsv").write_text(HEADER + changed, encoding="utf-8")
    report = accord.score(tmp_path / "g", tmp_path / "p")
    # by hand: Alice PER -> ORG fails; Bob Smith becomes Bob alone (its [2] on one token): fails; 3 of 5 match
    assert (report.totals["gold"], report.totals["pred"], report.totals["match"]) == (5, 5, 3)


@pytest.mark.parametrize("text, error, message", [
    ("#FORMAT=CoNLL\n", FormatError, "not WebAnno TSV 3"),
    (HEADER + "#Text=a\n1-1\t0-1\ta\t_\n", FormatError, "doc.tsv:7: expected 6 tab-separated columns"),
    (HEADER + "#Text=a\n1-1\t0-3\ta\t_\tPER\t_\t\n", FormatError, "do not fit its text"),
    (HEADER + "#Text=a\nx\t0-1\ta\t_\tPER\t_\t\n", FormatError, "expected a token id"),
])
def test_errors_name_the_line(tmp_path, text, error, message):
    (tmp_path / "doc.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(error, match=message):
        accord.read(tmp_path / "doc.tsv", format="webanno-tsv")


def test_an_unknown_layer_is_named(tmp_path):
    (tmp_path / "doc.tsv").write_text(HEADER + BODY, encoding="utf-8")
    with pytest.raises(OptionError, match="no span layer 'POS'"):
        accord.read(tmp_path / "doc.tsv", layer="POS")
    with pytest.raises(AccordError, match="does not write it"):
        accord.write(accord.read(tmp_path / "doc.tsv"), tmp_path / "out.tsv", "webanno-tsv")
