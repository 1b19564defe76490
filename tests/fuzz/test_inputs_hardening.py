"""Hostile and unusual inputs of the reading layer (issue 33): file lists of random bytes, ``--dask`` addresses,
binary files under every ``--format``, byte-order marks, Label Studio task objects, folders of mixed files.

Each command must give a result (exit 0) or one line naming what is wrong (exit 2), quickly (:func:`harness.run`);
the byte-order mark and the task object are properties: the same corpus as without them.
"""

from __future__ import annotations

import codecs
import json
import tempfile
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.errors import AccordError, OptionError
from accord.formats._registry import BUILTIN_FORMATS

from .harness import FULL, PROFILE, run
from .strategies import LABELS, text_documents

settings.load_profile(PROFILE)

FORMATS = sorted(BUILTIN_FORMATS)


@given(st.binary(max_size=300), st.booleans())
def test_file_lists_of_random_bytes(data, with_a_file):
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "a.conll").write_text("John B-PER\nlives O\n")
        listing = Path(d) / "list.txt"
        listing.write_bytes((b"a.conll\n" if with_a_file else b"") + data)
        result = run(["score", f"@{listing}", f"@{listing}"])
        if result.status == 2:
            assert "list.txt" in result.stderr or "a.conll" in result.stderr, result.stderr


_ADDRESS = st.one_of(
    st.text(max_size=40),
    st.builds(lambda s, h, p: f"{s}{h}:{p}", st.sampled_from(["", "tcp://", "tls://", "ucx://", "inproc://", "ws://",
                                                               "tcp:/", "://", "TCP://"]),
              st.text(alphabet="abc.-[]:0123456789 /@", max_size=12),
              st.one_of(st.integers(-5, 70000).map(str), st.text(max_size=6))),
)


@settings(max_examples=700 if FULL else 150)
@given(_ADDRESS)
def test_dask_addresses(address):
    pytest.importorskip("distributed")
    from accord.parallel._run import check_address

    if address == "local":
        return
    try:
        normal = check_address(address)
    except OptionError as exc:
        assert str(exc).startswith("--dask ") and "\n" not in str(exc)
    else:   # a well-formed address: not connected to here (a connection is tried for 20 s)
        assert normal.startswith("tcp://") and 0 < int(normal.rsplit(":", 1)[1]) < 65536
        return
    with tempfile.TemporaryDirectory() as d:
        g = Path(d) / "g.conll"
        g.write_text("John B-PER\n")
        result = run(["score", str(g), str(g), "--dask", address])
        assert result.status == 2 and "--dask" in result.stderr


def _binary_cases():
    return st.one_of(
        st.integers(1, 200_000).map(lambda n: b"\0" * n),
        st.binary(min_size=1, max_size=3000),
        st.tuples(st.binary(max_size=50), st.integers(1, 5000)).map(lambda t: t[0] + b"\0" * t[1]),
        st.tuples(st.text(alphabet="ab O\n\t", max_size=200), st.binary(max_size=20)).map(
            lambda t: t[0].encode() + t[1]),
    )


@settings(max_examples=200 if FULL else 25)
@given(_binary_cases())
def test_binary_files_under_every_format(data):
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "x.bin"
        f.write_bytes(data)
        for fmt in FORMATS:
            if fmt == "spans":     # a spans table needs its VRT: the option's error, not the file's
                continue
            run(["score", str(f), str(f), "--format", fmt])
        run(["convert", str(f), str(Path(d) / "o.jsonl"), "--from", "conll"])


@given(text_documents(relations=False), st.sampled_from(["utf-8", "utf-16", "utf-16-be", "utf-32"]))
def test_a_byte_order_mark_changes_nothing_for_doccano_and_label_studio(docs, encoding):
    with tempfile.TemporaryDirectory() as d:
        lines, tasks = [], []
        for k, doc in enumerate(docs):
            spans = [(a["start"], a["end"], a["label"]) for a in doc["annotations"]]
            lines.append(json.dumps({"id": k + 1, "text": doc["text"], "label": [list(s) for s in spans]}))
            tasks.append({"id": k + 1, "data": {"text": doc["text"]}, "annotations": [{"result": [
                {"id": f"r{n}", "type": "labels", "value": {"start": s, "end": e, "labels": [label]}}
                for n, (s, e, label) in enumerate(spans)]}]})
        for name, text in (("d.jsonl", "\n".join(lines) + "\n"), ("t.json", json.dumps(tasks))):
            plain, marked = Path(d) / f"plain-{name}", Path(d) / f"bom-{name}"
            plain.write_text(text, encoding="utf-8")
            # a BOM as the codec writes it (UTF-16 and UTF-32 do), or added to UTF-8 by hand
            body = text.encode(encoding)
            marked.write_bytes(codecs.BOM_UTF8 + body if encoding == "utf-8" else body)
            expected = accord.formats.sniff(plain).name
            assert expected == ("doccano" if name.endswith("jsonl") else "label-studio")
            with accord._support.io.text_encoding(None if encoding == "utf-8" else encoding), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                assert accord.formats.sniff(marked).name == expected
                got = accord.read(marked)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = accord.read(plain)
            assert [(d_id, doc.text, [(a.label, a.start, a.end) for a in doc.annotations]) for d_id, doc in got.items()] \
                == [(d_id, doc.text, [(a.label, a.start, a.end) for a in doc.annotations]) for d_id, doc in want.items()]


@settings(max_examples=700 if FULL else 60)
@given(text_documents(max_docs=1, relations=False), st.booleans())
def test_a_label_studio_task_object_reads_as_a_list_of_it(docs, indent):
    doc = docs[0]
    task = {"id": 5, "data": {"text": doc["text"]}, "annotations": [{"result": [
        {"id": a["id"], "type": "labels", "value": {"start": a["start"], "end": a["end"], "labels": [a["label"]]}}
        for a in doc["annotations"]]}]}
    with tempfile.TemporaryDirectory() as d:
        one, listed = Path(d) / "1.json", Path(d) / "all.json"
        one.write_text(json.dumps(task, indent=2 if indent else None))
        listed.write_text(json.dumps([task]))
        assert accord.formats.sniff(one).name == "label-studio"
        a, b = accord.read(one), accord.read(listed)
        assert [(x.label, x.start, x.end) for x in a["5"].annotations] == \
            [(x.label, x.start, x.end) for x in b["5"].annotations]
        run(["score", str(one), str(listed)])
        run(["convert", str(one), str(Path(d) / "o.jsonl")])


_FILES = {
    "jsonl": lambda: json.dumps({"id": "d", "text": "John", "annotations": [{"label": "PER", "start": 0, "end": 4}]}),
    "doccano": lambda: json.dumps({"text": "John", "label": [[0, 4, "PER"]]}),
    "ls": lambda: json.dumps([{"id": 1, "data": {"text": "John"}, "annotations": [{"result": []}]}]),
    "mat": lambda: json.dumps({"signal": "John", "version": 2, "asets": []}),
    "conll": lambda: "John B-PER\n",
    "junk": lambda: "\0\xff",
}


@settings(max_examples=700 if FULL else 60)
@given(st.lists(st.tuples(st.sampled_from(sorted(_FILES)), st.sampled_from([".jsonl", ".json", ".conll", ".txt",
                                                                             ".xml", ".tsv", ""]),
                          st.booleans()), min_size=1, max_size=5),
       st.sampled_from([None, "jsonl", "doccano", "label-studio", "fake-xml-inline", "conll"]))
def test_folders_of_mixed_files(files, fmt):
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "in"
        folder.mkdir()
        for k, (kind, ext, bom) in enumerate(files):
            content = _FILES[kind]().encode("utf-8", "surrogateescape") if kind != "junk" else b"\0\xff"
            (folder / f"f{k}{ext}").write_bytes((codecs.BOM_UTF8 if bom else b"") + content)
        extra = ["--format", fmt] if fmt else []
        run(["score", str(folder), str(folder), *extra])
        run(["convert", str(folder), str(Path(d) / "out.jsonl"), *(["--from", fmt] if fmt else [])])
        try:
            accord.formats.sniff(folder)
        except AccordError as exc:
            assert "\n" not in str(exc)


@pytest.mark.parametrize("jobs", ["1000", "3"])
def test_jobs_beyond_the_work_on_a_folder(tmp_path, jobs):
    for side in ("g", "p"):
        (tmp_path / side).mkdir()
        for k in range(3):
            (tmp_path / side / f"d{k}.conll").write_text(f"-DOCSTART- O\n\nw{k} B-{LABELS[k]}\n")
    result = run(["score", str(tmp_path / "g"), str(tmp_path / "p"), "--jobs", jobs])
    assert result.status == 0


_SPAN_VALUE = st.one_of(st.integers(-3, 40), st.none(), st.text(max_size=3), st.floats(allow_nan=False))


@given(st.text(max_size=30), st.lists(st.fixed_dictionaries(
    {"start": _SPAN_VALUE, "end": _SPAN_VALUE, "label": st.one_of(st.sampled_from(LABELS), st.text(max_size=4),
                                                                 st.none())}), max_size=4),
       st.sampled_from(["spans", "ents", "entities", "label"]))
def test_prodigy_and_other_span_keys(text, spans, key):
    """JSON lines whose spans sit under Prodigy's 'spans' (read) or an unknown key (refused): a result or one
    line, and never a document read as unannotated while it holds spans under a key accord does not read."""
    with tempfile.TemporaryDirectory() as d:
        gold = Path(d, "g.jsonl")
        gold.write_text(json.dumps({"id": "1", "text": text, "annotations": []}) + "\n", encoding="utf-8")
        pred = Path(d, "p.jsonl")
        pred.write_text(json.dumps({"text": text, key: spans}) + "\n", encoding="utf-8")
        result = run(["score", str(gold), str(pred), "--output", "json"])
        if key == "ents" and spans:
            assert result.status == 2
