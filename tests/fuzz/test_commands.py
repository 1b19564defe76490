"""Every command and the remaining readers on generated input: files handed over under the wrong format, spans
tables, decisions files, BDM files, and each command with its output options on valid pairs.

As in :mod:`tests.fuzz.test_readers`, the harness fails a test on a traceback, a defect (exit 3), a hang or a
message of several lines; where the input is valid, the command must succeed.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats import write
from accord.formats.text.jsonl import document_from_json
from accord.model import Corpus

from .harness import FULL, PROFILE, run
from .strategies import conll_text, corrupt_bytes, jsonl_text, token_documents, token_pairs

settings.load_profile(PROFILE)

FORMATS = ["conll", "brat", "mat-json", "jsonl", "gate", "vrt", "spans"]


def _corpus(docs: list[dict]) -> Corpus:
    return Corpus([document_from_json(d) for d in docs])


def _write_pair(folder: Path, gold_docs: list[dict], pred_docs: list[dict]) -> tuple[Path, Path]:
    g, p = folder / "g.jsonl", folder / "p.jsonl"
    g.write_text(jsonl_text(gold_docs), encoding="utf-8")
    p.write_text(jsonl_text(pred_docs), encoding="utf-8")
    return g, p


def _sample(kind: str, docs: list[dict], folder: Path) -> Path:
    """A valid file of one format holding ``docs`` (token documents)."""
    if kind == "conll":
        p = folder / "x.conll"
        p.write_text(conll_text(docs), encoding="utf-8")
    elif kind == "jsonl":
        p = folder / "x.jsonl"
        p.write_text(jsonl_text(docs), encoding="utf-8")
    elif kind == "vrt":
        p = folder / "x.vrt"
        write(_corpus(docs), p, "vrt")
    else:
        p = folder / "x.bin"
        p.write_bytes(bytes(range(256)))
    return p


@given(token_documents(), st.sampled_from(["conll", "jsonl", "vrt", "bytes"]), st.sampled_from(FORMATS + [None]),
       st.data())
def test_a_file_under_any_format(docs, kind, fmt, data):
    with tempfile.TemporaryDirectory() as d:
        p = _sample(kind, docs, Path(d))
        if data.draw(st.booleans()):
            p.write_bytes(data.draw(corrupt_bytes(p.read_bytes())))
        options = ["--format", fmt] if fmt else []
        run(["score", str(p), str(p), *options])
        run(["errors", str(p), str(p), *options])
        run(["diff", str(p), str(p), *options])


@given(token_documents(), st.data())
def test_spans_table(docs, data):
    with tempfile.TemporaryDirectory() as d:
        v = Path(d, "c.vrt")
        write(_corpus(docs), v, "vrt")
        base = [0]
        for doc in docs[:-1]:
            base.append(base[-1] + len(doc["tokens"]))
        rows = ["document,start,end,label,text"]
        for b, doc in zip(base, docs):
            for a in doc["annotations"]:
                text = " ".join(doc["tokens"][a["start"]:a["end"]]).replace('"', '""')
                rows.append(f'{doc["id"]},{b + a["start"]},{b + a["end"] - 1},{a["label"]},"{text}"')
        t = Path(d, "spans.csv")
        raw = ("\n".join(rows) + "\n").encode()
        corrupted = data.draw(st.booleans())
        t.write_bytes(data.draw(corrupt_bytes(raw)) if corrupted else raw)
        result = run(["score", str(v), str(t), "--pred-format", "spans", "--spans-vrt", str(v), "--columns", "ner",
                      "--output", "json"])
        if not corrupted:
            assert result.status == 0, result.stderr
            totals = json.loads(result.stdout)["totals"]
            n = sum(len(doc["annotations"]) for doc in docs)
            assert totals["match"] == totals["gold"] == totals["pred"] == n


@given(token_pairs(), st.data())
def test_decisions_file(pair, data):
    gold_docs, pred_docs = pair
    with tempfile.TemporaryDirectory() as d:
        g, p = _write_pair(Path(d), gold_docs, pred_docs)
        rows = ["document,type,key_start,key_end,response_start,response_end,choice"]
        for doc in gold_docs:
            for a in doc["annotations"]:
                choice = data.draw(st.sampled_from(["key", "response", "both", "none"]))
                rows.append(f'{doc["id"]},{a["label"]},{a["start"]},{a["end"]},,,{choice}')
        c = Path(d, "decisions.csv")
        c.write_bytes(data.draw(corrupt_bytes(("\n".join(rows) + "\n").encode())))
        run(["adjudicate", str(g), str(p), "--decisions", str(c), "-o", str(Path(d, "out.jsonl"))])


@given(token_pairs(), st.data())
def test_bdm_file(pair, data):
    gold_docs, pred_docs = pair
    with tempfile.TemporaryDirectory() as d:
        g, p = _write_pair(Path(d), gold_docs, pred_docs)
        taxonomy = Path(d, "t.tsv")
        taxonomy.write_text("Entity\tThing\nPER\tEntity\nLOC\tEntity\nORG\tEntity\nMISC\tThing\n", encoding="utf-8")
        bdm = Path(d, "bdm.txt")
        assert run(["bdm", str(taxonomy), "-o", str(bdm)]).status == 0
        bdm.write_bytes(data.draw(corrupt_bytes(bdm.read_bytes())))
        run(["qa", str(g), str(p), "--bdm", str(bdm), "--features", "", "--output", "json"])
        run(["score", str(g), str(p), "--bdm", str(bdm)])


def _labels(*sides: list[dict]) -> list[str]:
    """The labels of generated documents (a command's --types), PER when they have none."""
    return sorted({a["label"] for docs in sides for d in docs for a in d["annotations"]}) or ["PER"]


@settings(max_examples=700 if FULL else 70)      # twelve commands per case (55 s at 200): CI runs fewer
@given(token_pairs(), st.sampled_from(["table", "json", "csv"]))
def test_every_command_on_valid_pairs(pair, output):
    gold_docs, pred_docs = pair
    with tempfile.TemporaryDirectory() as d:
        g, p = _write_pair(Path(d), gold_docs, pred_docs)
        third = Path(d, "third.jsonl")
        third.write_bytes(g.read_bytes())
        out = Path(d, "out")
        commands = [
            ["score", str(g), str(p), "--output", output, "--details", str(out) + ".csv"],
            ["score", str(g), str(p), "--match", "clueval", "--output", output],
            ["score", str(g), str(p), "--match", "semeval", "--output", output],
            ["score", str(g), str(p), "--by-token", "--confusability", "--output", output],
            ["score", str(g), str(p), "--profile", "mat", "--by-character", "--mat-csv", str(out) + "-mat",
             "--tag-output-mismatch-details", "--csv-formula-output", "excel,oo,literal", "--file-re", ".*",
             "--gold-only", "--output", output],
            ["diff", str(g), str(p), "--output", output],
            ["qa", str(g), str(p), "--pairing", "optimal", "--output", output],
            ["benchmark", str(g), str(p), str(g), "--threshold", "0.5", "--output", output],
            ["agree", str(g), str(p), "--output", output],
            ["agree", str(g), str(p), str(third), "--types", ",".join(_labels(gold_docs, pred_docs)), "--convention",
             "iaa", "--output", output],
            ["errors", str(g), str(p), "--tsv", str(out) + ".tsv"],
            ["adjudicate", str(g), str(p), "--rest", "both", "-o", str(out) + ".jsonl"],
        ]
        for argv in commands:
            result = run(argv)
            assert result.status == 0, (argv, result.stderr)


@st.composite
def units_table(draw):
    """A units table (annotator, document, start, end, category) of two to four annotators, with or without a header."""
    annotators = draw(st.integers(2, 4))
    rows = []
    for a in range(annotators):
        for _ in range(draw(st.integers(1, 6))):
            start = draw(st.integers(0, 60))
            rows.append((f"a{a}", f"d{draw(st.integers(0, 1))}", start, start + draw(st.integers(1, 12)),
                         draw(st.sampled_from(["x", "y"]))))
    header = draw(st.booleans())
    lines = (["annotator,document,start,end,category"] if header else []) + [",".join(map(str, r)) for r in rows]
    return ("\n".join(lines) + "\n").encode()


@given(units_table(), st.data(), st.sampled_from(["gamma", "alpha-u"]))
def test_units_table_unitizing(raw, data, measure):
    """Units tables, valid or corrupted, under γ and uα: a result or one clear error; a valid table under γ always
    gives a result whose alignment holds every unit once."""
    with tempfile.TemporaryDirectory() as d:
        path = Path(d, "units.csv")
        corrupted = data.draw(st.booleans())
        path.write_bytes(data.draw(corrupt_bytes(raw)) if corrupted else raw)
        result = run(["agree", str(path), "--unitizing", measure, "--samples", "3", "--output", "json"])
        if not corrupted and measure == "gamma":
            assert result.status == 0, result.stderr
            out = json.loads(result.stdout)
            placed = sum(u is not None for e in out["alignment"] for u in e["units"].values())
            assert placed == sum(out["totals"]["units_per_annotator"].values())
