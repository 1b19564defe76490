"""Hypothesis strategies: valid annotation corpora in accord's formats, and ways to corrupt them."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import strategies as st

LABELS = ["PER", "LOC", "ORG", "MISC"]
WORDS = ["EU", "rejects", "German", "call", "to", "boycott", "British", "lamb", ".", "Peter", "Blackburn", "<b>",
         "&amp;", "naïve", "東京", "#", "\"q\""]


@st.composite
def token_documents(draw: Any, max_docs: int = 3, max_tokens: int = 14, overlapping: bool = False) -> list[dict]:
    """Token-unit documents: ``{"id", "tokens", "annotations"}`` with spans over the tokens (non-overlapping
    unless ``overlapping``), labels from :data:`LABELS`."""
    docs = []
    for k in range(draw(st.integers(1, max_docs))):
        n = draw(st.integers(1, max_tokens))
        tokens = [draw(st.sampled_from(WORDS)) for _ in range(n)]
        anns = []
        pos = 0
        while pos < n and len(anns) < 6:
            start = draw(st.integers(pos, n - 1))
            end = draw(st.integers(start + 1, min(n, start + 4)))
            anns.append({"label": draw(st.sampled_from(LABELS)), "start": start, "end": end})
            pos = start + (1 if overlapping else end - start)
            if draw(st.booleans()):
                break
        docs.append({"id": f"d{k}", "tokens": tokens, "annotations": anns})
    return docs


@st.composite
def token_pairs(draw: Any, max_docs: int = 3) -> tuple[list[dict], list[dict]]:
    """Gold and predicted token documents over the same tokens (different spans)."""
    gold = draw(token_documents(max_docs=max_docs))
    other = draw(token_documents(max_docs=len(gold)))
    pred = []
    for g, o in zip(gold, other + gold[len(other):]):
        n = len(g["tokens"])
        anns = [a for a in o["annotations"] if a["end"] <= n]
        pred.append({"id": g["id"], "tokens": g["tokens"], "annotations": anns})
    return gold, pred


@st.composite
def text_documents(draw: Any, max_docs: int = 3, relations: bool = True, fragments: bool = False) -> list[dict]:
    """Character-offset documents with attributes, zero-length spans and relations pointing to spans; with
    ``fragments``, some spans discontinuous (two pieces around a gap)."""
    docs = []
    for k in range(draw(st.integers(1, max_docs))):
        text = draw(st.text(alphabet="ab c<&>é\n", min_size=1, max_size=40))
        anns: list[dict] = []
        for i in range(draw(st.integers(0, 6))):
            start = draw(st.integers(0, len(text)))
            end = draw(st.integers(start, min(len(text), start + 8)))
            ann: dict = {"id": f"T{i}", "label": draw(st.sampled_from(LABELS)), "start": start, "end": end}
            if fragments and end - start >= 3 and draw(st.booleans()):
                cut = draw(st.integers(start + 1, end - 2))
                ann["fragments"] = [[start, cut], [draw(st.integers(cut + 1, end - 1)), end]]
            if draw(st.booleans()):
                ann["attributes"] = {"kind": draw(st.sampled_from(["a", "b"]))}
            anns.append(ann)
        spanned = [a["id"] for a in anns]
        if relations and len(spanned) >= 2:
            for i in range(draw(st.integers(0, 2))):
                a, b = draw(st.sampled_from(spanned)), draw(st.sampled_from(spanned))
                anns.append({"id": f"R{i}", "label": "REL", "attributes": {"arg1": {"ref": a}, "arg2": {"ref": b}}})
        docs.append({"id": f"d{k}", "text": text, "annotations": anns})
    return docs


def share_texts(gold_docs: list[dict], pred_docs: list[dict]) -> None:
    """Give a document of both sides one text (the longer of the two, so that every span still fits): accord
    refuses to pair documents whose texts differ."""
    by_id = {d["id"]: d for d in gold_docs}
    for d in pred_docs:
        g = by_id.get(d["id"])
        if g is not None:
            g["text"] = d["text"] = max(g["text"], d["text"], key=len)


def jsonl_text(docs: list[dict]) -> str:
    return "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)


def conll_text(docs: list[dict], comments: bool = False) -> str:
    """Token documents as a CoNLL file (IOB2), one sentence per document, -DOCSTART- between them."""
    from accord.model.tagging import encode

    lines: list[str] = []
    for d in docs:
        tags = encode([(a["label"], a["start"], a["end"]) for a in d["annotations"]], len(d["tokens"]), "IOB2")
        if len(docs) > 1:
            lines += ["-DOCSTART- O", ""]
        if comments:
            lines.append(f"# sent_id = {d['id']}")
        lines += [f"{t} {g}" for t, g in zip(d["tokens"], tags)]
        lines.append("")
    return "\n".join(lines) + "\n"


JUNK = [b"\xff", b"\xfe\xff", b"\x00", b"\xc3", b"\xe2\x82", b"\t", b"\n", b"\r\n", b" ", b"{", b"}", b"[", b"]",
        b"\"", b"<", b">", b"</", b"&", b"-DOCSTART-", b"B-", b"I-X", b"#", b"\\", b"1e400", b"NaN", b"-1",
        b"999999999999999999999", b";", b":", b"*", b"T1", b"(", b")", b"/", b"<!ENTITY a \"&a;\">",
        b"<text>", b"</s>", b"\xef\xbb\xbf"]


@st.composite
def corrupt_bytes(draw: Any, data: bytes) -> bytes:
    """``data`` with one to three corruptions: a byte replaced, bytes inserted, a cut, a line repeated or dropped."""
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["replace", "insert", "truncate", "dup_line", "drop_line", "swap_lines"]))
        n = len(data)
        if kind == "replace" and n:
            i = draw(st.integers(0, n - 1))
            data = data[:i] + draw(st.sampled_from(JUNK)) + data[i + 1:]
        elif kind == "insert":
            i = draw(st.integers(0, n))
            piece = draw(st.sampled_from(JUNK)) if draw(st.booleans()) else draw(st.binary(max_size=6))
            data = data[:i] + piece + data[i:]
        elif kind == "truncate" and n:
            data = data[:draw(st.integers(0, n - 1))]
        else:
            lines = data.split(b"\n")
            if len(lines) > 1:
                i = draw(st.integers(0, len(lines) - 1))
                if kind == "dup_line":
                    lines.insert(i, lines[i])
                elif kind == "drop_line":
                    del lines[i]
                else:
                    j = draw(st.integers(0, len(lines) - 1))
                    lines[i], lines[j] = lines[j], lines[i]
                data = b"\n".join(lines)
    return data


DEEP = "@@deep@@"
"""A placeholder :func:`dumps` replaces by arrays nested that many levels (json.dumps itself would recurse)."""


def dumps(obj: Any) -> str:
    """JSON text of a corrupted object, deep nests written out."""
    import re

    return re.sub(f'"{DEEP}(\\d+)"', lambda m: "[" * int(m.group(1)) + "]" * int(m.group(1)), json.dumps(obj))


WRONG_VALUES = [None, True, False, 0, -1, 1.5, 10**30, "", "x", [], {}, [[]], {"a": 1}, [1, "a"], {"ref": "nope"},
                {"set": [[1]]}, [None], ["x", ["y"]]]


def _paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


@st.composite
def corrupt_json(draw: Any, obj: Any) -> Any:
    """A deep copy of ``obj`` with one value replaced by a value of another type (or a deep nest)."""
    obj = json.loads(json.dumps(obj))
    path = draw(st.sampled_from(_paths(obj)))
    if draw(st.integers(0, 9)) == 0:
        value: Any = f"{DEEP}{draw(st.sampled_from([5, 150, 3000]))}"
    else:
        value = draw(st.sampled_from(WRONG_VALUES))
    if not path:
        return value
    target = obj
    for k in path[:-1]:
        target = target[k]
    if draw(st.booleans()) or not isinstance(target, dict):
        target[path[-1]] = value
    else:
        target[draw(st.sampled_from(["id", "label", "start", "end", "text", "tokens", "annotations", "metadata",
                                     "sentences", "signal", "asets", "type", "annots", "attrs", "version"]))] = value
    return obj
