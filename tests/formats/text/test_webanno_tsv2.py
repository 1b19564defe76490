"""WebAnno TSV 2 (WebAnno 2's export): layers from '# TYPE | feature' headers, B-/I- spans, stacked entries,
relations by governor token id; read as TSV 3 reads the same document."""

from __future__ import annotations

import warnings

import pytest

import accord
from accord.cli import main
from accord.errors import AccordWarning, FormatError

POS = "de.tudarmstadt.ukp.dkpro.core.api.lexmorph.type.pos.POS"
NE = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
DEP = "de.tudarmstadt.ukp.dkpro.core.api.syntax.type.dependency.Dependency"
REL = "webanno.custom.Rel"
# written by hand in WebAnno 2's layout (the header as WebAnno's TSV 2 writer put it, one line, a leading space)
TSV2 = (f" # {POS} | PosValue # {DEP} | DependencyType | AttachTo={POS} # {NE} | value "
        f"# {REL} | label | AttachTo={NE}\n"
        "#id=1\n#text=Alice Smith met Bob\n"
        "1-1\tAlice\tB-NNP\tB-nsubj\t1-3\tB-PER|B-PERSON\t_\t_\t\n"
        "1-2\tSmith\tB-NNP\tB-flat\t1-1\tI-PER|I-PERSON\t_\t_\t\n"
        "1-3\tmet\tB-VBD\tB-ROOT\t1-3\tO\t_\t_\t\n"
        "1-4\tBob\tB-NNP\tB-obj\t1-3\tB-PER\tB-meets\t1-1\t\n\n"
        "#id=2\n#text=Rome .\n"
        f"2-1\tRome\tB-NNP\tB-root\t2-1\t{NE}\t_\t_\t\n"
        "2-2\t.\tB-.\tB-punct\t2-1\t_\t_\t_\t\n")
# the same document in TSV 3.3, by hand (offsets counted: 'Alice Smith met Bob' then a line break, 'Rome .')
TSV3 = ("#FORMAT=WebAnno TSV 3.3\n"
        f"#T_SP={NE}|value\n#T_RL={REL}|label|BT_{NE}\n\n\n"
        "#Text=Alice Smith met Bob\n"
        "1-1\t0-5\tAlice\tPER[1]|PERSON[2]\t_\t_\t\n"
        "1-2\t6-11\tSmith\tPER[1]|PERSON[2]\t_\t_\t\n"
        "1-3\t12-15\tmet\t_\t_\t_\t\n"
        "1-4\t16-19\tBob\tPER\tmeets\t1-1[1_0]\t\n\n"
        "#Text=Rome .\n"
        "2-1\t20-24\tRome\t*\t_\t_\t\n"
        "2-2\t25-26\t.\t_\t_\t_\t\n")


def _items(doc):
    def plain(v):
        return (v.label, v.start, v.end) if isinstance(v, accord.Annotation) else v
    return sorted((a.label, a.start, a.end, doc.text[a.start:a.end],
                   tuple(sorted((k, plain(v)) for k, v in a.attributes.items()))) for a in doc.annotations)


def test_reading_by_hand(tmp_path):
    """B-PER on Alice and I-PER on Smith are one span, stacked with PERSON (position 2); Rome's value is the layer's
    own name, so it has none (labelled by its type); the relation 'meets' goes from Alice Smith to Bob and spans
    Bob, its dependent. Sentences: the tokens joined by spaces, the sentences by a line break."""
    (tmp_path / "doc.tsv").write_text(TSV2, encoding="utf-8")
    (doc,) = accord.read(tmp_path / "doc.tsv", layer="NamedEntity,Rel").documents
    assert doc.text == "Alice Smith met Bob\nRome ." and doc.sentences == ((0, 19), (20, 26))
    assert _items(doc) == [
        ("NamedEntity", 20, 24, "Rome", ()),
        ("PER", 0, 11, "Alice Smith", ()),
        ("PER", 16, 19, "Bob", ()),
        ("PERSON", 0, 11, "Alice Smith", ()),
        ("meets", 16, 19, "Bob", (("Dependent", ("PER", 16, 19)), ("Governor", ("PER", 0, 11)))),
    ]
    (doc,) = accord.read(tmp_path / "doc.tsv", layer="POS").documents
    assert [a.label for a in doc.annotations] == ["NNP", "NNP", "VBD", "NNP", "NNP", "."]
    with pytest.warns(AccordWarning, match="endpoints of 6 relation.s. between tokens left out"):
        (doc,) = accord.read(tmp_path / "doc.tsv", layer="Dependency").documents
    assert [(a.label, doc.text[a.start:a.end]) for a in doc.annotations][:2] == [("nsubj", "Alice"), ("flat", "Smith")]


def test_tsv2_reads_as_the_same_document_in_tsv3(tmp_path):
    """The TSV 3 reader (an independent path: offsets from the file, [N] numbers, BT_ references) gives the same
    annotations and text."""
    (tmp_path / "two.tsv").write_text(TSV2, encoding="utf-8")
    (tmp_path / "three.tsv").write_text(TSV3, encoding="utf-8")
    two = accord.read(tmp_path / "two.tsv", layer="NamedEntity,Rel").documents[0]
    three = accord.read(tmp_path / "three.tsv", layer="NamedEntity,Rel").documents[0]
    assert _items(two) == _items(three) and two.text == three.text


def test_scores_between_tsv2_files(tmp_path, capsys):
    """Sniffed by its header; Bob as ORG in the prediction: 3 of 4 entities match (by hand)."""
    (tmp_path / "gold.tsv").write_text(TSV2, encoding="utf-8")
    (tmp_path / "pred.tsv").write_text(TSV2.replace("1-4\tBob\tB-NNP\tB-obj\t1-3\tB-PER", "1-4\tBob\tB-NNP\tB-obj"
                                                    "\t1-3\tB-ORG"), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        report = accord.score(tmp_path / "gold.tsv", tmp_path / "pred.tsv")
    assert (report.totals["gold"], report.totals["pred"], report.totals["match"]) == (4, 4, 3)


@pytest.mark.parametrize("body, message", [
    ("#id=1\n1-1\tA\tB-NNP\n", "doc.tsv:3: expected 8 tab-separated columns"),
    ("#id=1\n1-1\tA\tI-NNP\tB-x\t1-1\t_\t_\t_\n", "doc.tsv:3: 'I-NNP' continues no annotation begun"),
    ("#id=1\n1-1\tA\tNNP\tx|y\t1-1\t_\t_\t_\n", "doc.tsv:3: 1 governor.s. for 2 Dependency relation"),
    ("#id=1\nxyz\tA\n", "doc.tsv:3: expected a token line"),
    ("#id=1\n1-1\tA\tNNP\tx\t1-1\tPER\tr\t9-9\n", "doc.tsv:3: a relation of Rel from or to token '9-9', where there"),
])
def test_errors_name_the_line(tmp_path, capsys, body, message):
    header = TSV2.split("\n", 1)[0] + "\n"
    (tmp_path / "doc.tsv").write_text(header + body, encoding="utf-8")
    with pytest.raises(FormatError, match=message), warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        accord.read(tmp_path / "doc.tsv", layer="POS,Dependency,NamedEntity,Rel")
    assert main(["convert", str(tmp_path / "doc.tsv"), str(tmp_path / "o.jsonl"), "--layer", "POS,Rel,"
                 "NamedEntity,Dependency"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "doc.tsv:3:" in err


def test_a_sentence_text_over_several_lines(tmp_path):
    """A #text= line holding a line break continues on the next lines (skipped, as WebAnno's reader skips them)."""
    header = TSV2.split("\n", 1)[0] + "\n"
    (tmp_path / "doc.tsv").write_text(header + "#id=1\n#text=A\nsecond line\n1-1\tA\tNN\tx\t1-1\t_\t_\t_\n",
                                      encoding="utf-8")
    (doc,) = accord.read(tmp_path / "doc.tsv", layer="POS").documents
    assert [(a.label, doc.text[a.start:a.end]) for a in doc.annotations] == [("NN", "A")]
