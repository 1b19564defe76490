"""The shards of a column file, read piece by piece, are the file read whole: the same documents (ids, tokens,
spans, sentences, line numbers), or the same first error, or a disagreement the caller sees (and scores in one
process). Property tests over generated and corrupted CoNLL files, and the byte scan against a whole-file scan."""

from __future__ import annotations

import tempfile
import warnings
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import AccordError
from accord.formats.tokens.conll import read_conll
from accord.parallel._plan import Marks, byte_ranges, plan_shards, scan_marks
from accord.parallel._run import runner
from accord.parallel._score import ShardOutcome, _describe, _read_side, _scan_columns, plan_disagreement

from ..fuzz.harness import PROFILE
from ..fuzz.strategies import conll_text, corrupt_bytes, token_documents

settings.load_profile(PROFILE)


def _documents(corpus_docs):
    """Documents as values (annotations compare by identity)."""
    return [(d.id, list(d.tokens), [tuple(a) for a in d.annotations], d.sentences, d.metadata.get("lines"))
            for d in corpus_docs]


def _shards_against_whole(data: bytes, shard_bytes: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        path = Path(tmp, "g.conll")
        path.write_bytes(data)
        try:
            whole, error = _documents(read_conll(path).documents), None
        except AccordError as exc:
            whole, error = None, str(exc)
        plan = _describe(str(path), "conll", "utf-8")
        if plan.kind != "column":
            return
        with runner(1) as run:
            _scan_columns([plan], run, "utf-8")
        shards = plan_shards(plan, plan, shard_bytes, min_shards=2)
        if isinstance(shards, str):
            return
        outcomes, docs, first_error = [], [], None
        for shard in shards:
            out = ShardOutcome(shard.index)
            try:
                docs += _read_side(shard.gold, {}, out.ids[0], out.origins[0], out.columns[0]).documents
            except AccordError as exc:
                out.error = ("gold", ())
                first_error = first_error or str(exc)
            out.ids[1].extend(out.ids[0])
            out.columns[1].extend(out.columns[0])
            outcomes.append(out)
        if plan_disagreement(outcomes, shards, [plan, plan]):
            return      # the caller scores in one process
        if error is not None:
            assert first_error == error
        else:
            assert first_error is None
            assert _documents(docs) == whole


@given(token_documents(max_docs=6), st.booleans(), st.integers(1, 400))
def test_valid_files(docs, comments, shard_bytes):
    _shards_against_whole(conll_text(docs, comments=comments).encode("utf-8"), shard_bytes)


@given(st.data(), st.integers(1, 400))
def test_corrupted_files(data, shard_bytes):
    text = conll_text(data.draw(token_documents(max_docs=6)))
    _shards_against_whole(data.draw(corrupt_bytes(text.encode("utf-8"))), shard_bytes)


@given(st.data())
def test_scan_by_ranges_is_the_whole_scan(data):
    text = conll_text(data.draw(token_documents(max_docs=8)), comments=data.draw(st.booleans()))
    raw = data.draw(corrupt_bytes(text.encode("utf-8"))) if data.draw(st.booleans()) else text.encode("utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp, "g.conll")
        path.write_bytes(raw)
        whole = scan_marks(str(path), 0, len(raw))
        parts = data.draw(st.integers(1, 8))
        joined = Marks.join([scan_marks(str(path), a, b) for a, b in byte_ranges(len(raw), parts)])
    assert (joined.offsets, joined.lines, joined.newlines) == (whole.offsets, whole.lines, whole.newlines)
    assert whole.newlines == raw.count(b"\n")
    for offset, line in zip(whole.offsets, whole.lines):
        assert raw[:offset].count(b"\n") == line
        assert raw[offset:].lstrip(b" \t").startswith(b"-DOCSTART-")
