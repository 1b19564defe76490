"""WebAnno TSV 3: span layers with stacked, multi-token and sub-token annotations, escapes and UTF-16 offsets."""

import shutil
import tracemalloc
import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import AccordError, AccordWarning, FormatError, OptionError

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
    (HEADER + "#Text=a\n1-1\t0-3\ta\t_\tPER\t_\t\n", FormatError, "fall outside its sentence's text"),
    (HEADER + "1-1\t0-3\ta\t_\tPER\t_\t\n", FormatError, "do not fit its text"),
    (HEADER + "#Text=abc\n1-1\t0-3\txyz\t_\tPER\t_\t\n", FormatError, "doc.tsv:7: token 'xyz' at 0-3, where its "),
    (HEADER + "#Text=a\nx\t0-1\ta\t_\tPER\t_\t\n", FormatError, "expected a token id"),
])
def test_errors_name_the_line(tmp_path, text, error, message):
    (tmp_path / "doc.tsv").write_text(text, encoding="utf-8")
    with pytest.raises(error, match=message):
        accord.read(tmp_path / "doc.tsv", format="webanno-tsv")


def test_an_unknown_layer_is_named(tmp_path):
    """INCEpTION writes only the layers a document annotates: a layer absent from the header is a document without
    such annotations, with a warning naming the layers the file declares; an unknown feature stays an error."""
    (tmp_path / "doc.tsv").write_text(HEADER + BODY, encoding="utf-8")
    with pytest.warns(AccordWarning, match="no layer POS in this file .it declares NamedEntity, Sent."):
        assert accord.read(tmp_path / "doc.tsv", layer="POS").documents[0].annotations == ()
    with pytest.raises(OptionError, match="has no feature 'colour'"):
        accord.read(tmp_path / "doc.tsv", layer="NamedEntity:colour")
    with pytest.raises(AccordError, match="does not write it"):
        accord.write(accord.read(tmp_path / "doc.tsv"), tmp_path / "out.tsv", "webanno-tsv")


# -- INCEpTION's own tsv3-suite: the TSV and the XMI of each case read the same ------------------------------------

CORPORA = Path(__file__).resolve().parents[3] / ".." / "shared" / "corpora"
WEBANNO = CORPORA / "outside3b" / "webanno"
TYPESYSTEM = WEBANNO / "TypeSystem.xml"      # DKPro Core's types merged with the suite's webannoTestTypes.xml
SUITES = [WEBANNO / "tsv3-suite", CORPORA / "outside3" / "uima_xmi2"]
CASES = sorted(case for suite in SUITES if suite.is_dir() for case in suite.iterdir()
               if (case / "reference.tsv").is_file() and (case / "reference.xmi").is_file())
MOVED = {
    # INCEpTION's TSV writer moves these annotations (the cases are named for it), so the TSV cannot hold the XMI's
    # offsets: a span is trimmed of the whitespace at its edges, a zero-width span outside every token goes to the
    # nearest token boundary. Checked below as that move, not as equal offsets.
    "testAnnotationWithLeadingWhitespace", "testAnnotationWithLeadingWhitespaceAtStart",
    "testAnnotationWithTrailingWhitespace", "testAnnotationWithTrailingWhitespaceAtEnd",
    "testZeroWidthAnnotationBeforeFirstTokenIsMovedToBeginOfFirstToken",
    "testZeroWidthAnnotationBetweenTokenIsMovedToEndOfPreviousToken",
    "testZeroWidthAnnotationBeyondLastTokenIsMovedToEndOfLastToken",
}


def _layers_of(tsv):
    from accord.formats.text.webanno_tsv import _header, _layers

    return list(_layers(_header(tsv.read_text(encoding="utf-8").split("\n"), tsv)[1]))


def _items(doc):
    """(label, start, end, attributes) with annotation-valued attributes as their (label, start, end)."""
    def plain(v):
        if isinstance(v, accord.Annotation):
            return (v.label, v.start, v.end)
        return tuple(plain(x) for x in v) if isinstance(v, tuple) else v

    return sorted((a.label, a.start, a.end, tuple(sorted((k, plain(v)) for k, v in a.attributes.items())))
                  for a in doc.annotations)


def _xmi_for(case, layer, tmp_path):
    """The case's XMI and the layer to read from it. Two kinds of reference.xmi predate changes INCEpTION made to
    the suite's TSV and type system (its round-trip test compares the TSV only, never the XMI): spans written as
    DKPro Core NamedEntity where the TSV now declares webanno.custom.Span (both with a 'value' feature; the
    writer test that made them, WebAnnoTsv3WriterTestBase, builds NamedEntity in the old version and Span in the
    new), and ComplexRelation's feature 'intValue', renamed 'integerValue' in webannoTestTypes.xml. The XMI is
    read as the current suite means it."""
    xmi = case / "reference.xmi"
    text = xmi.read_text(encoding="utf-8")
    if "intValue=" in text:
        xmi = tmp_path / "reference.xmi"
        xmi.write_text(text.replace("intValue=", "integerValue="), encoding="utf-8")
    stale = layer == "webanno.custom.Span" and "<custom:Span " not in text and "<type4:NamedEntity " in text
    return xmi, ("de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity" if stale else layer), stale


@pytest.mark.skipif(not CASES or not TYPESYSTEM.is_file(), reason="../shared/corpora: INCEpTION's tsv3-suite absent")
@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_inception_suite_tsv_reads_as_its_xmi(case, tmp_path):
    """Every layer of every case: the same (label, span, attributes) from INCEpTION's TSV and from its XMI."""
    pytest.importorskip("cassis")
    from accord.formats.text.xmi import read_xmi

    tsv = case / "reference.tsv"
    layers = _layers_of(tsv)
    for layer in layers or [None]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)     # references to layers not read: checked elsewhere
            t = accord.read(tsv, format="webanno-tsv", layer=layer).documents[0]
            xmi, xmi_layer, stale = _xmi_for(case, layer, tmp_path)
            x = read_xmi(xmi, layer=xmi_layer, typesystem=TYPESYSTEM).documents[0]
        got, want = _items(t), _items(x)
        if stale:        # a valueless span is labelled with its type's name
            want = sorted(("Span" if label == "NamedEntity" else label, *rest) for label, *rest in want)
        if case.name in MOVED:
            assert [(i[0], i[3]) for i in got] == [(i[0], i[3]) for i in want]
            for (_, tb, te, _), (_, xb, xe, _) in zip(got, want):
                if xb == xe:
                    assert tb == te
                else:
                    assert t.text[tb:te] == x.text[xb:xe].strip()
        else:
            assert got == want, (layer, got, want)
        # the text: the sentences' text exactly (tabs and line breaks kept); INCEpTION's TSV does not keep what
        # follows the last sentence
        assert x.text.startswith(t.text) and not x.text[len(t.text):].strip()
    if layers:
        # every layer at once: references between them (links' targets, relations' endpoints, chains' next)
        t = accord.read(tsv, format="webanno-tsv", layer=",".join(layers)).documents[0]
        xmi, xmi_layers, stale = _xmi_for(case, layers[0], tmp_path)
        if not stale and all(_xmi_for(case, la, tmp_path)[2] is False for la in layers):
            x = read_xmi(xmi, layer=",".join(layers), typesystem=TYPESYSTEM).documents[0]
            if case.name not in MOVED:
                assert _items(t) == _items(x)


@pytest.mark.skipif(not CASES, reason="../shared/corpora: INCEpTION's tsv3-suite absent")
def test_the_suite_was_read_whole():
    """The parametrised test above ran over every case directory holding both files: 73 in each copy of the suite
    (counted with ls; tsv3-suite's two sampleSlotAnnotation cases have a TSV and no XMI)."""
    assert len(CASES) == 73 + 73


SUITE = WEBANNO / "tsv3-suite"
needs_suite = pytest.mark.skipif(not SUITE.is_dir(), reason="../shared/corpora: INCEpTION's tsv3-suite absent")


@needs_suite
def test_slot_features_are_roles_and_targets():
    """testSimpleSlotFeature: 'This' hosts two slots, roles p1 and p2, filled by the SimpleSpans 'is' and 'a'
    (read by hand in the file). The roles are not the label: the layer has no primitive feature."""
    tsv = SUITE / "testSimpleSlotFeature" / "reference.tsv"
    with pytest.warns(AccordWarning, match=r"SimpleLinkHost.links -> SimpleSpan: 2.*--layer SimpleLinkHost,SimpleSpan"):
        (doc,) = accord.read(tsv, layer="SimpleLinkHost").documents
    assert [(a.label, doc.text[a.start:a.end], dict(a.attributes)) for a in doc.annotations] == [
        ("SimpleLinkHost", "This", {"links": ("p1", "p2")})]
    (doc,) = accord.read(tsv, layer="SimpleLinkHost,SimpleSpan").documents
    host = next(a for a in doc.annotations if a.label == "SimpleLinkHost")
    assert [doc.text[t.start:t.end] for t in host.get("links.targets")] == ["is", "a"]


@needs_suite
def test_pos_is_labelled_by_its_tag():
    """testElevatedType: 'John' NN / NOUN. DKPro Core keeps the tag in PosValue: the label from TSV and XMI alike."""
    (doc,) = accord.read(SUITE / "testElevatedType" / "reference.tsv", layer="POS").documents
    assert [(a.label, dict(a.attributes)) for a in doc.annotations] == [("NN", {"coarseValue": "NOUN"})]


def test_an_annotation_without_a_label_value_is_kept(tmp_path):
    """A layer of two features, the first empty ('_') for an annotation that the second shows to exist ('*', or a
    value): both annotations are read (by hand: two tokens annotated)."""
    (tmp_path / "doc.tsv").write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Pair|left|right\n\n\n"
                                      "#Text=a b c\n1-1\t0-1\ta\t_\t*\t\n1-2\t2-3\tb\t_\t_\t\n1-3\t4-5\tc\t_\tR\t\n",
                                      encoding="utf-8")
    (doc,) = accord.read(tmp_path / "doc.tsv", layer="Pair").documents
    assert [(a.label, a.start, dict(a.attributes)) for a in doc.annotations] == [("Pair", 0, {}),
                                                                                  ("Pair", 4, {"right": "R"})]


@needs_suite
@pytest.mark.parametrize("case, text", [("testSentenceWithTab", "This is\ta test ."),
                                        ("testSentenceWithLineBreak", "This is\na test ."),
                                        ("testTwoSentencesWithNoSpaceInBetween", "onetwo")])
def test_text_keeps_tabs_and_line_breaks(case, text):
    """The texts as the cases' XMI sofaString holds them (read by hand)."""
    assert accord.read(SUITE / case / "reference.tsv", format="webanno-tsv").documents[0].text == text


@needs_suite
def test_an_unannotated_document_reads_as_one_without_annotations(tmp_path):
    """testTwoSentencesWithNoSpaceInBetween has no layer (no #T_SP): a document without annotations, no warning;
    scored as the prediction against an annotated copy, its gold items are missing."""
    case = SUITE / "testTwoSentencesWithNoSpaceInBetween" / "reference.tsv"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (doc,) = accord.read(case).documents
    assert doc.annotations == () and doc.sentences == ((0, 3), (3, 6))
    (tmp_path / "g").mkdir()
    (tmp_path / "p").mkdir()
    annotated = case.read_text(encoding="utf-8").replace(
        "#FORMAT=WebAnno TSV 3.3\n", "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type."
        "NamedEntity|value\n").replace("1-1\t0-3\tone\t", "1-1\t0-3\tone\tX\t").replace("2-1\t3-6\ttwo\t",
                                                                                       "2-1\t3-6\ttwo\t_\t")
    (tmp_path / "g" / "d.tsv").write_text(annotated, encoding="utf-8")
    shutil.copy(case, tmp_path / "p" / "d.tsv")
    report = accord.score(tmp_path / "g", tmp_path / "p")
    assert (report.totals["gold"], report.totals["pred"], report.totals["missing"]) == (1, 0, 1)


@pytest.mark.parametrize("body, line", [
    ("#Text=a\n1-1\t3000000000-3000000001\ta\t_\tPER\t_\t\n", 7),      # past the Java int range
    ("#Text=a\n1-1\t0-1\ta\t_\tPER\t_\t\n1-2\t5-6\tb\t_\t_\t_\t\n", 8),       # past its sentence's text
    ("1-1\t2000000000-2000000001\ta\t_\tPER\t_\t\n", 6),                # no #Text=: the token placed at its offset
    ("#Text=a\n1-1\t0-1\ta\t_\tPER\t_\t\n\n#Text=b\n2-1\t2000000000-2000000001\tb\t_\t_\t_\t\n", 10),  # a gap
    ("#Text=a\n1-1\t" + "9" * 5000 + "-1\ta\t_\tPER\t_\t\n", 7),          # more digits than int() converts
])
def test_an_offset_far_past_the_text_is_refused_before_memory_is_spent(tmp_path, body, line):
    """A file of about 150 bytes once allocated gigabytes (the text filled up to the offset): now an error naming
    the line, within a few megabytes."""
    (tmp_path / "doc.tsv").write_text(HEADER + body, encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(FormatError, match=rf"doc.tsv:{line}: "):
            accord.read(tmp_path / "doc.tsv")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000


def test_relations_read_with_their_endpoints(tmp_path):
    """A relation from 'Alice' to 'Bob' (hand-written): with its base layer read, Governor and Dependent are the
    spans; alone, they are left out with a warning that counts them and names the option to add."""
    (tmp_path / "doc.tsv").write_text(
        "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Span|value\n"
        "#T_RL=webanno.custom.Relation|value|BT_webanno.custom.Span\n\n\n#Text=Alice met Bob\n"
        "1-1\t0-5\tAlice\tPER\t_\t_\t\n1-2\t6-9\tmet\t_\t_\t_\t\n1-3\t10-13\tBob\tPER\tmeets\t1-1\t\n",
        encoding="utf-8")
    (doc,) = accord.read(tmp_path / "doc.tsv", layer="Relation,Span").documents
    (rel,) = [a for a in doc.annotations if a.label == "meets"]
    assert (rel.get("Governor").start, rel.get("Dependent").start, rel.start) == (0, 10, 10)
    with pytest.warns(AccordWarning, match=r"Relation.Dependent -> Span: 1; Relation.Governor -> Span: 1.*--layer "
                                           "Relation,Span"):
        (doc,) = accord.read(tmp_path / "doc.tsv", layer="Relation").documents
    assert [(a.label, a.start, dict(a.attributes)) for a in doc.annotations] == [("meets", 10, {})]


@needs_suite
def test_coref_reads_the_chains_of_webanno_tsv(capsys):
    """testMultiTokenChain: one chain of 'This is a' and 'test .' (characters 0-6 and 8-13 inclusive, by hand);
    a TSV without a chain layer is named as such by accord coref."""
    from accord.cli import main
    from accord.formats.coref.clusters import read_coref

    assert read_coref(SUITE / "testMultiTokenChain" / "reference.tsv") == {"reference": [[(0, 6), (8, 13)]]}
    plain = SUITE / "testSimpleSlotFeature" / "reference.tsv"
    assert main(["coref", str(plain), str(plain)]) == 2
    err = capsys.readouterr().err
    assert "WebAnno TSV without a chain layer" in err and "#begin document" not in err


@needs_suite
def test_link_targets_of_any_layer():
    """sampleSlotAnnotation1: the link's target type is uima.tcas.Annotation, any layer; INCEpTION numbers the
    annotations of all layers together, so 1-3[1] is the SimpleSpan 'a' and 1-2[2] the SimpleSpan 'is' (by hand)."""
    tsv = SUITE / "sampleSlotAnnotation1" / "reference.tsv"
    (doc,) = accord.read(tsv, layer="SimpleSlotHost,SimpleSpan").documents
    (host,) = [a for a in doc.annotations if a.label == "SimpleSlotHost"]
    assert host.get("links") == ("pr2", "pr1")
    assert [doc.text[t.start:t.end] for t in host.get("links.targets")] == ["a", "is"]


def _declared(tsv):
    """The relation layers (with their base layer) and the chain layers a TSV file declares."""
    from accord.formats.text.webanno_tsv import _header

    cols = _header(tsv.read_text(encoding="utf-8").split("\n"), tsv)[1]
    relations = {c.layer: c.target for c in cols if c.kind == "relation" and c.role == "source"}
    chains = sorted({c.layer for c in cols if c.kind == "chain"})
    return relations, chains


LINKED = [c for c in CASES if any(_declared(c / "reference.tsv"))]


def _relations(doc):
    """(label, span, governor's span, dependent's span, other attributes) of the relations of ``layer``."""
    out = []
    for a in doc.annotations:
        gov, dep = a.get("Governor"), a.get("Dependent")
        if gov is None and dep is None:
            continue
        rest = tuple(sorted((k, v) for k, v in a.attributes.items() if k not in ("Governor", "Dependent")))
        out.append((a.label, a.start, a.end, (gov.start, gov.end), (dep.start, dep.end), rest))
    return sorted(out)


@pytest.mark.skipif(not LINKED or not TYPESYSTEM.is_file(), reason="../shared/corpora: INCEpTION's tsv3-suite absent")
@pytest.mark.parametrize("case", LINKED, ids=[f"{c.parent.name}/{c.name}" for c in LINKED])
def test_relations_and_chains_read_the_same_from_tsv_and_xmi(case, tmp_path):
    """Every case of INCEpTION's suite with a relation (#T_RL) or chain (#T_CH) layer: the same relations (label,
    span, governor, dependent, features) from its TSV and from its XMI, and the same coreference chains from both
    (custom chain layers, webanno.custom.*Chain, are coreference input too: read from XMI they gave no chain
    before)."""
    pytest.importorskip("cassis")
    from accord.formats.coref.clusters import read_coref
    from accord.formats.text.xmi import read_coref_xmi, read_xmi

    tsv = case / "reference.tsv"
    relations, chains = _declared(tsv)
    for layer, base in relations.items():
        if base.endswith(".Token") or layer.endswith(".Dependency"):
            continue        # between tokens: TSV holds no Token layer (its endpoints are left out, with a warning)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AccordWarning)
            t = accord.read(tsv, format="webanno-tsv", layer=f"{layer},{base}").documents[0]
            xmi, xmi_base, _ = _xmi_for(case, base, tmp_path)
            x = read_xmi(xmi, layer=f"{layer},{xmi_base}", typesystem=TYPESYSTEM).documents[0]
        got, want = _relations(t), _relations(x)
        assert got and got == want
    if chains:
        got = read_coref(tsv)
        assert got["reference"] and got == read_coref_xmi(case / "reference.xmi", TYPESYSTEM)
