"""Every reader, through the commands that use it, on valid files and on corrupted ones.

A valid file is generated, written by accord's own writer or by hand in the format, then
corrupted (bytes replaced or inserted, cuts, lines repeated, dropped or swapped; for JSON, a
value of the wrong type or a deep nest). Whatever the input, each command must give a
result (exit 0) or one line naming what is wrong (exit 2), quickly: :func:`harness.run`
fails the test on a traceback, a defect (exit 3), a hang or a vague message.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats import write
from accord.formats.text.jsonl import document_from_json
from accord.model import Corpus

from ..result.contract import checked
from .harness import FULL, PROFILE, run
from .strategies import conll_text, corrupt_bytes, corrupt_json, dumps, jsonl_text, text_documents, token_documents

settings.load_profile(PROFILE)


def _corpus(docs: list[dict]) -> Corpus:
    return Corpus([document_from_json(d) for d in docs])


@settings(max_examples=700 if FULL else 100)     # seven commands per case (twice its peers' time): CI runs fewer
@given(token_documents(), st.data(), st.booleans())
def test_conll(docs, data, comments):
    text = conll_text(docs, comments=comments).encode()
    bad = data.draw(corrupt_bytes(text))
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.conll"), Path(d, "p.conll")
        g.write_bytes(text)
        p.write_bytes(bad)
        for extra in ([], ["--match", "clueval"], ["--match", "semeval"], ["--repair", "discard"],
                      ["--profile", "lenient", "--output", "json"]):
            run(["score", str(g), str(p), *extra])
        run(["errors", str(g), str(p)])
        run(["score", str(p), str(g), "--scheme", data.draw(st.sampled_from(["IOBES", "IOB1", "BILOU", "IO"]))])


@given(text_documents(fragments=True), st.data())
def test_jsonl_bytes(docs, data):
    text = jsonl_text(docs).encode()
    bad = data.draw(corrupt_bytes(text))
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.jsonl"), Path(d, "p.jsonl")
        g.write_bytes(text)
        p.write_bytes(bad)
        for extra in (["--profile", "mat"], ["--profile", "lenient"], ["--output", "csv"], ["--match", "semeval"],
                      ["--by-character"]):
            run(["score", str(g), str(p), *extra])
        run(["diff", str(g), str(p), "--pairing", data.draw(st.sampled_from(["gate", "optimal"]))])
        run(["agree", str(g), str(p), "--output", "json"])


@given(text_documents(fragments=True), st.data())
def test_jsonl_shapes(docs, data):
    k = data.draw(st.integers(0, len(docs) - 1))
    docs[k] = data.draw(corrupt_json(docs[k]))
    with tempfile.TemporaryDirectory() as d:
        p = Path(d, "p.jsonl")
        p.write_text("".join(dumps(x) + "\n" for x in docs), encoding="utf-8")
        run(["score", str(p), str(p), "--profile", "mat"])
        run(["qa", str(p), str(p)])


@given(text_documents(max_docs=1), st.data(), st.booleans())
def test_mat_json(docs, data, as_json):
    with tempfile.TemporaryDirectory() as d:
        g = Path(d, "doc.json")
        write(_corpus(docs), g, "mat-json")
        raw = g.read_bytes()
        if as_json:
            bad = dumps(data.draw(corrupt_json(json.loads(raw)))).encode()
        else:
            bad = data.draw(corrupt_bytes(raw))
        p = Path(d, "pred", "doc.json")
        p.parent.mkdir()
        p.write_bytes(bad)
        run(["score", str(g), str(p), "--format", "mat-json", "--profile", "mat"])


@given(text_documents(max_docs=2, fragments=True), st.data())
def test_brat(docs, data):
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g"), Path(d, "p")
        corpus = _corpus(docs)
        write(corpus, g, "brat")
        write(corpus, p, "brat")
        target = p / data.draw(st.sampled_from(sorted(f.name for f in p.iterdir())))
        target.write_bytes(data.draw(corrupt_bytes(target.read_bytes())))
        run(["score", str(g), str(p), "--discontinuous", data.draw(st.sampled_from(["fragments", "error", "merge"]))])
        run(["diff", str(g), str(p)])
        for ann in g.glob("*.ann"):     # the generated relations as coreference links
            ann.write_text(ann.read_text().replace("\tREL ", "\tCoreference "))
        run(["coref", str(g), str(p), "--allow-missing", "empty"])


@given(text_documents(max_docs=1, relations=False), st.data(), st.sampled_from(["xml-inline", "fake-xml-inline"]))
def test_xml_inline(docs, data, fmt):
    """MAT's inline XML written by accord (crossing spans refused with a message), then corrupted."""
    with tempfile.TemporaryDirectory() as d:
        g = Path(d, "g", "doc.xml")
        g.parent.mkdir()
        p = Path(d, "p", "doc.xml")
        p.parent.mkdir()
        run(["convert", str(Path(d, "missing.jsonl")), str(g)])   # a message, not a traceback
        try:
            write(_corpus(docs), g, "xml-inline")
        except Exception as exc:     # crossing or discontinuous spans: the writer's message
            assert "cross" in str(exc) or "discontinuous" in str(exc)
            return
        p.write_bytes(data.draw(corrupt_bytes(g.read_bytes())))
        run(["score", str(g.parent), str(p.parent), "--format", fmt, "--profile", "mat"])


@given(text_documents(max_docs=1, relations=False), st.data())
def test_gate_xml(docs, data):
    with tempfile.TemporaryDirectory() as d:
        g = Path(d, "g.xml")
        write(_corpus(docs), g, "gate", annotation_set="Key")
        p = Path(d, "p.xml")
        p.write_bytes(data.draw(corrupt_bytes(g.read_bytes())))
        run(["score", str(g), str(p), "--gold-set", "Key", "--pred-set", "Key"])
        run(["score", str(g), str(p)])
        run(["qa", str(g), str(p), "--key-set", "Key", "--response-set", "Key"])


@given(token_documents(), token_documents(), st.data())
def test_vrt(gold_docs, pred_docs, data):
    with tempfile.TemporaryDirectory() as d:
        v = Path(d, "c.vrt")
        write(_corpus(gold_docs), v, "vrt")
        v.write_bytes(data.draw(corrupt_bytes(v.read_bytes())))
        run(["score", str(v), str(v), "--match", data.draw(st.sampled_from(["pairs", "clueval", "semeval"]))])
        run(["merge", str(v), "--columns", "2", "-o", str(Path(d, "m.vrt"))])


_CONLL = {"open": "({}", "close": "{})", "single": "({})"}
_COREFUD = {"open": "(e{}-x", "close": "e{})", "single": "(e{}-x)"}


@pytest.mark.parametrize("corefud", [False, True])
@given(data=st.data())
def test_coref(data, corefud):
    """Chains written in CoNLL-2012's column or CorefUD's Entity notation, then corrupted."""
    words: list[list[tuple[str, int]]] = []
    open_ids: list[int] = []
    for _ in range(data.draw(st.integers(1, 12))):
        parts = []
        for _ in range(data.draw(st.integers(0, 2))):
            e = data.draw(st.integers(0, 3))
            kind = data.draw(st.sampled_from(["open", "close", "single"]))
            if kind == "close":
                if not open_ids:
                    continue
                e = open_ids.pop()
            elif kind == "open":
                open_ids.append(e)
            parts.append((kind, e))
        words.append(parts)
    words.append([("close", e) for e in reversed(open_ids)])
    if corefud:
        lines = ["# newdoc id = d"] + [
            f"{k}\tw\t_\t_\t_\t_\t0\tdep\t_\t" + ("Entity=" + "".join(
                _COREFUD[kind].format(e) for kind, e in parts) if parts else "_") for k, parts in enumerate(words, 1)]
    else:
        lines = ["#begin document (d); part 000"] + [
            f"d 0 {k} w{k} {'|'.join(_CONLL[kind].format(e) for kind, e in parts) or '-'}"
            for k, parts in enumerate(words)] + ["#end document"]
    text = ("\n".join(lines) + "\n").encode()
    with tempfile.TemporaryDirectory() as d:
        ext = "conllu" if corefud else "conll"
        k, r = Path(d, f"k.{ext}"), Path(d, f"r.{ext}")
        k.write_bytes(text)
        r.write_bytes(data.draw(corrupt_bytes(text)))
        run(["coref", str(k), str(r), "--output", "json"])
        compared = run(["compare", str(k), str(k), str(r), "--structures", "coref", "--samples", "20", "--seed",
                        "1", "--output", "json"])
        if compared.status == 0:
            checked(compared.stdout)


@given(st.data())
def test_structured_records(data):
    mention = st.lists(st.integers(0, 9), min_size=2, max_size=2).map(sorted)
    recs = {"id": "d1",
            "relations": data.draw(st.lists(st.fixed_dictionaries(
                {"type": st.sampled_from(["A", "B"]), "subj": mention, "obj": mention}), max_size=4)),
            "entities": data.draw(st.lists(st.fixed_dictionaries(
                {"role": st.sampled_from(["V", "P"]), "mentions": st.lists(mention, min_size=1, max_size=3)}),
                max_size=4))}
    bad = data.draw(corrupt_json(recs)) if data.draw(st.booleans()) else recs
    with tempfile.TemporaryDirectory() as d:
        k, r = Path(d, "k.jsonl"), Path(d, "r.jsonl")
        k.write_text(json.dumps(recs) + "\n")
        r.write_text(dumps(bad) + "\n")
        for metric in ("relation", "relation-boundaries", "ceaf-ree", "ceaf-rme-phi3", "ceaf-rme-subset", "uas"):
            run(["structured", str(k), str(r), "--metric", metric, "--output", "json"])
        compared = run(["compare", str(k), str(k), str(r), "--structures", "structured", "--metrics", "relation",
                        "--samples", "20", "--seed", "1", "--output", "json"])
        if compared.status == 0:
            checked(compared.stdout)


@given(st.data())
def test_penman(data):
    def graph(depth: int) -> str:
        if depth == 0 or not data.draw(st.booleans()):
            return data.draw(st.sampled_from(['"x"', "-", "5"]))
        v = f"v{data.draw(st.integers(0, 99))}"
        role = data.draw(st.sampled_from([":ARG0", ":ARG1-of", ":mod", ":name"]))
        return f"({v} / {data.draw(st.sampled_from(['want-01', 'boy', 'go']))} {role} {graph(depth - 1)})"

    text = ("\n\n".join(f"# ::id {i}\n" + graph(3).replace('"x"', "(z / z)") for i in range(2)) + "\n").encode()
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.amr"), Path(d, "p.amr")
        g.write_bytes(text)
        p.write_bytes(data.draw(corrupt_bytes(text)))
        run(["smatch", str(g), str(p)])
        compared = run(["compare", str(g), str(g), str(p), "--structures", "smatch", "--samples", "20", "--seed",
                        "1", "--output", "json"])
        if compared.status == 0:
            checked(compared.stdout)


TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/><annotation label='LOC'/><annotation label='ORG'/><annotation label='MISC'/>
<annotation label='REL' span='no'/>
<attribute name='kind' of_annotation='PER,LOC,ORG,MISC'><choice>a</choice><choice>b</choice></attribute>
<attribute name='arg1' of_annotation='REL' type='annotation'><label_restriction label='PER'/><label_restriction label='LOC'/><label_restriction label='ORG'/><label_restriction label='MISC'/></attribute>
<attribute name='arg2' of_annotation='REL' type='annotation'><label_restriction label='PER'/><label_restriction label='LOC'/><label_restriction label='ORG'/><label_restriction label='MISC'/></attribute>
</annotation_set_descriptor></annotation_set_descriptors>
<similarity_profile><stratum true_labels='PER,LOC,ORG,MISC'/><stratum true_labels='REL'/>
<tag_profile true_labels='PER,LOC,ORG,MISC'><dimension name='_label' weight='.1'/><dimension name='_span' weight='.9'/>
<dimension name='kind' weight='.2'/></tag_profile></similarity_profile></task>"""


@given(text_documents(), st.data())
def test_task_file(docs, data):
    with tempfile.TemporaryDirectory() as d:
        t, g = Path(d, "task.xml"), Path(d, "g.jsonl")
        corrupted = data.draw(st.booleans())
        t.write_bytes(data.draw(corrupt_bytes(TASK.encode())) if corrupted else TASK.encode())
        g.write_text(jsonl_text(docs), encoding="utf-8")
        result = run(["score", str(g), str(g), "--task", str(t)])
        assert corrupted or result.status == 0, result.stderr


@given(st.data())
def test_ratings_table(data):
    n = data.draw(st.integers(1, 8))
    rows = ["item,r1,r2,r3"] + [f"i{k}," + ",".join(data.draw(st.sampled_from(["a", "b", "c", ""])) for _ in range(3))
                                for k in range(n)]
    text = ("\n".join(rows) + "\n").encode()
    with tempfile.TemporaryDirectory() as d:
        p = Path(d, "r.csv")
        p.write_bytes(data.draw(corrupt_bytes(text)) if data.draw(st.booleans()) else text)
        run(["agree", str(p), "--items", "item", "--output", "json"])
        run(["agree", str(p), "--items", "item", "--bootstrap", "20", "--seed", "1", "--ci-method", "bca",
             "--html", str(Path(d, "agree.html"))])
        run(["agree", str(p)])


@given(st.data())
def test_taxonomy(data):
    lines = ["Thing"] + [f"C{k}\t{data.draw(st.sampled_from(['Thing'] + [f'C{j}' for j in range(k)]))}"
                         for k in range(data.draw(st.integers(1, 6)))]
    text = ("\n".join(lines) + "\n").encode()
    with tempfile.TemporaryDirectory() as d:
        p = Path(d, "t.tsv")
        p.write_bytes(data.draw(corrupt_bytes(text)))
        run(["bdm", str(p)])


@given(token_documents(), st.data(), st.sampled_from([("conllu", ["--columns", "NER"]), ("spacy", [])]))
def test_token_formats_of_other_tools(docs, data, fmt):
    """CoNLL-U (through conllu) and spaCy's DocBin files (through spaCy), written by accord, then corrupted."""
    name, options = fmt
    corpus = _corpus(docs)
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, f"g.{name}"), Path(d, f"p.{name}")
        write(corpus, g, name)
        p.write_bytes(data.draw(corrupt_bytes(g.read_bytes())))
        for extra in ([], options, ["--repair", "discard", "--output", "json"]):
            run(["score", str(g), str(p), *extra])
        run(["score", str(p), str(g)])


def _spans_and_relations(docs: list[dict]) -> list[dict]:
    """The documents without span attributes (what Label Studio and doccano exports hold)."""
    for d in docs:
        for a in d["annotations"]:
            if "start" in a:
                a.pop("attributes", None)
    return docs


@given(text_documents(), st.data(), st.sampled_from([("label-studio", "json"), ("doccano", "jsonl")]))
def test_annotation_tool_exports(docs, data, fmt):
    name, ext = fmt
    corpus = _corpus(_spans_and_relations(docs))
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, f"g.{ext}"), Path(d, f"p.{ext}")
        write(corpus, g, name)
        p.write_bytes(data.draw(corrupt_bytes(g.read_bytes())))
        run(["score", str(g), str(p), "--format", name])
        run(["score", str(g), str(p)])
        run(["diff", str(g), str(p), "--format", name])


@given(text_documents(max_docs=1, relations=False), st.data())
def test_uima_xmi(docs, data):
    """XMI written by accord through cassis (with TypeSystem.xml beside it), then corrupted."""
    corpus = _corpus(_spans_and_relations(docs))
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.xmi"), Path(d, "p.xmi")
        write(corpus, g, "xmi")
        p.write_bytes(data.draw(corrupt_bytes(g.read_bytes())))
        run(["score", str(g), str(p)])
        run(["score", str(g), str(p), "--layer", "NamedEntity:value", "--output", "json"])
        run(["diff", str(p), str(g)])


_WEBANNO = ("#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value\n"
            "\n\n#Text=Ada 😀 met Bob Smith .\n1-1\t0-3\tAda\t_\tPER\t\n1-2\t4-6\t😀\t_\t*\t\n1-3\t7-10\tmet\t_\t_\t\n"
            "1-4\t11-14\tBob\tq[2]\tPER[2]\t\n1-5\t15-20\tSmith\tq[2]\tPER[2]\t\n1-5.1\t15-17\tSm\t_\tX\\|Y\t\n"
            "1-6\t21-22\t.\t_\t_\t\n")


@given(st.data())
def test_webanno_tsv(data):
    text = _WEBANNO.encode()
    with tempfile.TemporaryDirectory() as d:
        g, p = Path(d, "g.tsv"), Path(d, "p.tsv")
        g.write_bytes(text)
        p.write_bytes(data.draw(corrupt_bytes(text)))
        run(["score", str(g), str(p)])
        run(["score", str(g), str(p), "--format", "webanno-tsv", "--layer", "NamedEntity:identifier"])
