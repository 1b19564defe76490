"""WebAnno TSV and UIMA XMI under generated and hostile input, and a round trip through XMI.

Generated TSV files mix every kind of column (span features, link roles and targets, relation sources, chain links)
with stacked, numbered and escaped entries, then are broken (huge offsets, no header, bytes corrupted): every
command gives a result or one line naming the fault, and a hostile file of about 150 bytes costs a few megabytes,
not gigabytes. A corpus written by ``accord convert ... --to xmi`` reads back with its annotations.
"""

from __future__ import annotations

import json
import tempfile
import tracemalloc
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import AccordError

from .harness import FULL, PROFILE, run
from .strategies import corrupt_bytes

cassis = pytest.importorskip("cassis")

settings.load_profile(PROFILE)
EXAMPLES = 300 if FULL else 40

HEADER = ("#FORMAT=WebAnno TSV 3.3\n"
          "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
          "#T_SP=webanno.custom.Span|value\n"
          "#T_SP=webanno.custom.Host|ROLE_webanno.custom.Host:links_webanno.custom.Link|webanno.custom.Span|value\n"
          "#T_RL=webanno.custom.Rel|value|BT_webanno.custom.Span\n"
          "#T_CH=de.tudarmstadt.ukp.dkpro.core.api.coref.type.CoreferenceLink|referenceType|referenceRelation\n\n\n")
COLUMNS = 9
LAYERS = ["NamedEntity", "Span", "Host", "Host,Span", "Rel", "Rel,Span", "CoreferenceLink", "NamedEntity:identifier",
          "Span,NamedEntity,Host,Rel,CoreferenceLink"]
ENTRY = st.sampled_from(["*", "PER", "X[1]", "*[2]", "A\\|B", "a\\_b", "p1;p2", "*;r", "1-1", "1-2[1]", "1-1[1_2]",
                         "1-1[0_0]", "*->1-1", "coref->1-2", "v->2-1", "\\*", "[3]", "x[99999999999]", "1-1.1",
                         "9-9", "\\;\\->", "😀", ""])
WORDS = st.sampled_from(["a", "bc", "😀", "d\\e", "Ünï", "x"])


@st.composite
def webanno_tsv(draw) -> str:
    """A TSV of one to three sentences, each cell ``_`` or one to three stacked entries of any column kind."""
    out = [HEADER]
    at = 0
    for s in range(1, draw(st.integers(1, 3)) + 1):
        words = draw(st.lists(WORDS, min_size=1, max_size=4))
        text = " ".join(words)
        out.append(f"#Text={text}\n")
        for t, w in enumerate(words, 1):
            cells = [draw(st.one_of(st.just("_"), st.lists(ENTRY, min_size=1, max_size=3).map("|".join)))
                     for _ in range(COLUMNS)]
            size = len(w.encode("utf-16-le")) // 2
            out.append(f"{s}-{t}\t{at}-{at + size}\t{w}\t" + "\t".join(cells) + "\t\n")
            if draw(st.booleans()):
                out.append(f"{s}-{t}.1\t{at}-{at}\t\t" + "\t".join("_" for _ in range(COLUMNS)) + "\t\n")
            at += size + 1
        out.append("\n")
    return "".join(out)


@st.composite
def broken(draw, text: str) -> str:
    """``text`` with one of: a huge offset, no header line, a layer line dropped, a missing #Text=, bytes corrupted."""
    kind = draw(st.sampled_from(["offset", "format", "layer", "text", "bytes", "none"]))
    if kind == "offset":
        big = draw(st.sampled_from(["2147483647", "99999999999", "1" + "0" * 5000, "2000000000"]))
        lines = text.split("\n")
        rows = [k for k, line in enumerate(lines) if line[:1].isdigit()]
        k = draw(st.sampled_from(rows))
        cells = lines[k].split("\t")
        cells[1] = draw(st.sampled_from([f"{big}-{big}", f"0-{big}", f"{big}-1"]))
        lines[k] = "\t".join(cells)
        return "\n".join(lines)
    if kind == "format":
        return text.split("\n", 1)[1]
    if kind == "layer":
        lines = text.split("\n")
        del lines[draw(st.integers(1, 5))]
        return "\n".join(lines)
    if kind == "text":
        return "\n".join(line for line in text.split("\n") if not line.startswith("#Text="))
    if kind == "bytes":
        return draw(corrupt_bytes(text.encode())).decode("utf-8", "replace")
    return text


@settings(max_examples=EXAMPLES)
@given(webanno_tsv().flatmap(broken), st.sampled_from(LAYERS))
def test_generated_tsv(text, layer):
    with tempfile.TemporaryDirectory() as d:
        g = Path(d, "g.tsv")
        g.write_text(text, encoding="utf-8")
        run(["score", str(g), str(g), "--layer", layer])
        run(["convert", str(g), str(Path(d, "o.jsonl")), "--layer", layer])
        if text.startswith("#FORMAT=WebAnno TSV 3"):     # else read as CoNLL-2012, that reader's own fuzz
            run(["coref", str(g), str(g)])


HOSTILE = [
    # about 150 bytes each; the first once allocated 5.8 GB before a MemoryError
    HEADER.split("#T_SP=webanno")[0] + "\n\n#Text=a\n1-1\t0-1\ta\t_\tX\t\n1-2\t2900000000-2900000001\tb\t_\tY\t\n",
    HEADER.split("#T_SP=webanno")[0] + "\n\n1-1\t2000000000-2000000001\ta\t_\tX\t\n",
    HEADER.split("#T_SP=webanno")[0] + "\n\n#Text=a\n1-1\t0-1\ta\t_\tX\t\n\n#Text=b\n2-1\t2000000000-2000000001\tb\t_\t_\t\n",
    HEADER.split("#T_SP=webanno")[0] + "\n\n#Text=a\n1-1\t0-1\ta\t_\tX\t\n1-1.1\t0-2000000000\ta\t_\tY\t\n",
    HEADER.split("#T_SP=webanno")[0] + "\n\n#Text=a\n1-1\t0-1\ta\t_\tX[" + "9" * 80 + "]\t\n",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_tsv_in_bounded_memory(text, tmp_path):
    assert len(text.encode()) < 260
    path = tmp_path / "h.tsv"
    path.write_text(text, encoding="utf-8")
    tracemalloc.start()
    try:
        with pytest.raises(AccordError):
            accord.read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000_000 and peak < 20_000_000     # the bound, and what it takes now
    assert run(["score", str(path), str(path)]).status == 2


def test_hostile_xmi_text_in_bounded_memory(tmp_path):
    """An XMI whose text is 12 MB (over lxml's limit) is refused before it is parsed, in a few megabytes."""
    path = tmp_path / "h.xmi"
    path.write_bytes(b'<?xml version="1.0"?><xmi:XMI xmlns:xmi="http://www.omg.org/XMI" xmlns:cas="http:///uima/cas.ecore" '
                     b'xmi:version="2.0"><cas:Sofa xmi:id="1" sofaNum="1" sofaID="_InitialView" sofaString="'
                     + b"a" * 12_000_000 + b'"/></xmi:XMI>')
    tracemalloc.start()
    try:
        with pytest.raises(AccordError, match="10,000,000 bytes"):
            accord.read(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20_000_000
    result = run(["score", str(path), str(path)])
    assert result.status == 2 and "10,000,000 bytes" in result.stderr


TEXT = st.text(st.sampled_from("ab é😀\t\n|_*;[]\\"), max_size=30)


@st.composite
def corpora(draw) -> list[dict]:
    """One to three documents of texts with astral characters, tabs and line breaks, with spans anywhere (zero-width,
    overlapping, stacked) labelled with TSV's special characters; some without any annotation."""
    docs = []
    for k in range(draw(st.integers(1, 3))):
        text = draw(TEXT)
        spans = []
        for _ in range(draw(st.integers(0, 4))):
            a = draw(st.integers(0, len(text)))
            b = draw(st.integers(a, len(text)))
            spans.append({"label": draw(st.sampled_from(["PER", "a|b", "_", "*", "x;y", "[1]", "é"])),
                          "start": a, "end": b})
        docs.append({"id": f"d{k}", "text": text, "annotations": spans})
    return docs


@settings(max_examples=30 if FULL else 8)
@given(corpora())
def test_a_corpus_converted_to_xmi_reads_back_the_same(docs):
    """``accord convert doc.jsonl doc.xmi`` then reading the XMI: the same text and (label, start, end) multiset,
    documents without annotations included."""
    with tempfile.TemporaryDirectory() as d:
        for doc in docs:
            src, out = Path(d, f"{doc['id']}.jsonl"), Path(d, "x", f"{doc['id']}.xmi")
            out.parent.mkdir(exist_ok=True)
            src.write_text(json.dumps(doc) + "\n", encoding="utf-8")
            assert run(["convert", str(src), str(out)]).status == 0
        for doc in docs:
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                (back,) = accord.read(Path(d, "x", f"{doc['id']}.xmi")).documents
            assert back.text == doc["text"]
            assert sorted((a.label, a.start, a.end) for a in back.annotations) == sorted(
                (s["label"], s["start"], s["end"]) for s in doc["annotations"])
        # and scored against itself through XMI: perfect, or nothing to score
        report = accord.score(Path(d, "x"), Path(d, "x"))
        assert report.totals["match"] == report.totals["gold"] == sum(len(x["annotations"]) for x in docs)


@settings(max_examples=30 if FULL else 8)
@given(st.lists(st.tuples(WORDS, st.sampled_from(["_", "PER", "LOC[1]", "*", "PER|ORG", "a\\|b"])), min_size=1,
                max_size=6))
def test_tsv_converted_to_xmi_reads_back_the_same(rows):
    """A WebAnno TSV (one NamedEntity layer) converted to XMI reads back as the TSV reads."""
    lines = ["#FORMAT=WebAnno TSV 3.3", "#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value", "", "",
             "#Text=" + " ".join(w for w, _ in rows)]
    at = 0
    for k, (w, cell) in enumerate(rows, 1):
        size = len(w.encode("utf-16-le")) // 2
        lines.append(f"1-{k}\t{at}-{at + size}\t{w}\t{cell}\t")
        at += size + 1
    with tempfile.TemporaryDirectory() as d:
        tsv, xmi = Path(d, "doc.tsv"), Path(d, "doc.xmi")
        tsv.write_text("\n".join(lines) + "\n", encoding="utf-8")
        assert run(["convert", str(tsv), str(xmi)]).status == 0
        (a,) = accord.read(tsv).documents
        (b,) = accord.read(xmi).documents
        assert a.text == b.text
        assert sorted((x.label, x.start, x.end) for x in a.annotations) == sorted(
            (x.label, x.start, x.end) for x in b.annotations)
