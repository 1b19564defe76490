"""Property: a corpus scored against a copy of itself written in another format (through ``accord convert``) is
perfect, whichever units the two count in (issue 33, "Done when").

Generated token corpora are written as JSON lines (tokens), converted to every text format (characters) and
every column format (tokens), and scored against the original: the token side is placed on the text of the
character side (:mod:`accord.pipeline._offset_units`), so F1 is 1 and every item is matched. The other way round, the
text copy (brat) is converted to each column format and the two scored: characters against tokens again.
GATE XML and XMI hold one document per file: their copies are of one document, compared as two single files
(:mod:`accord.pipeline._sides`).
"""

from __future__ import annotations

import json
import tempfile
import warnings
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

import accord

from .harness import FULL, PROFILE, run
from .strategies import token_documents

settings.load_profile(PROFILE)

TEXT_FORMATS = [("brat", "ann"), ("mat-json", "json"), ("label-studio", "json"), ("doccano", "jsonl"),
                ("gate", "xml"), ("xmi", "xmi")]
TOKEN_FORMATS = [("conll", "conll"), ("conllu", "conllu"), ("vrt", "vrt")]
ONE_DOCUMENT = ("gate", "xmi")
"""Formats of one document per file."""

EXAMPLES = 120 if FULL else 15


def _perfect(gold: str, pred: str, gold_format: str, pred_format: str, what: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = accord.score(gold, pred, gold_format=gold_format, pred_format=pred_format)
    t = r.totals
    assert t.gold == t.pred == t.match, f"{what}: {t}"
    assert t.missing == t.spurious == t.gold_clash == 0, f"{what}: {t}"
    assert t.gold == 0 or r.f1 == 1.0, f"{what}: F1 {r.f1}"


def _write_jsonl(docs: list[dict], path: Path) -> None:
    path.write_text("".join(json.dumps(d) + "\n" for d in docs), encoding="utf-8")


@settings(max_examples=EXAMPLES, deadline=None)
@given(docs=token_documents(max_docs=3, max_tokens=12), target=st.sampled_from(TEXT_FORMATS + TOKEN_FORMATS))
def test_a_copy_in_another_format_scores_perfectly(docs, target):
    fmt, ext = target
    docs = [dict(d, id=str(k + 1)) for k, d in enumerate(docs[:1] if fmt in ONE_DOCUMENT else docs)]
    with tempfile.TemporaryDirectory() as tmp:
        original, copy = Path(tmp) / "original.jsonl", Path(tmp) / f"copy.{ext}"
        _write_jsonl(docs, original)
        done = run(["convert", str(original), str(copy), "--to", fmt])
        assert done.status == 0, done.stderr
        _perfect(str(original), str(copy), "jsonl", fmt, f"tokens -> {fmt}")
        _perfect(str(copy), str(original), fmt, "jsonl", f"{fmt} -> tokens")


@settings(max_examples=EXAMPLES, deadline=None)
@given(docs=token_documents(max_docs=3, max_tokens=12), source=st.sampled_from(TEXT_FORMATS[:4]),
       target=st.sampled_from(TOKEN_FORMATS))
def test_a_text_copy_converted_to_tokens_scores_perfectly(docs, source, target):
    (sfmt, sext), (tfmt, text_) = source, target
    docs = [dict(d, id=str(k + 1)) for k, d in enumerate(docs)]
    with tempfile.TemporaryDirectory() as tmp:
        original, text_copy, token_copy = Path(tmp) / "o.jsonl", Path(tmp) / f"t.{sext}", Path(tmp) / f"c.{text_}"
        _write_jsonl(docs, original)
        assert run(["convert", str(original), str(text_copy), "--to", sfmt]).status == 0
        done = run(["convert", str(text_copy), str(token_copy), "--from", sfmt, "--to", tfmt])
        assert done.status == 0, done.stderr
        _perfect(str(text_copy), str(token_copy), sfmt, tfmt, f"{sfmt} -> {tfmt}")
        _perfect(str(token_copy), str(text_copy), tfmt, sfmt, f"{tfmt} -> {sfmt}")
