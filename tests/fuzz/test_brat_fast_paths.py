"""The brat reader's fast paths against its general ones (``accord.formats.text.brat``): a file read by one
``open`` and decoded (``_utf8_text``) against :func:`accord._support.io.read_text`, a ``.ann`` text of one-piece
``T`` lines read by one regular expression and passes of C code (``_one_piece_lines``) against the line loop, and a
folder listed by name (``_file_names``) against ``sorted(folder.glob("*.ann"))``. Random files near the edges of what
the fast paths take (other line breaks, ``;``, other digits and spaces, a fourth field, quotes that differ, offsets
past the text, ids used twice, byte-order marks, NUL bytes and bytes that are not UTF-8, no last line feed): the same
documents, or the same error and message, and the same warnings."""

from __future__ import annotations

import warnings
from pathlib import Path
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from accord.formats import read
from accord.formats.text import brat

from .harness import PROFILE

settings.load_profile(PROFILE)

_TEXT = st.one_of(st.text(st.sampled_from(list("a\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")), max_size=8),
                  st.text(st.sampled_from(list("ab T;\t\n\r\x85\u2028\u2029\x0b\x0c\x1c\x1d\x1e\xa0é٣0")), max_size=30),
                  st.text(st.sampled_from(list("ab é")), max_size=30))


_FORMS = ["past", "backwards", "label", "sep", "zeros", "plus", "digits", "tabs", "noquote", "quote", "id", "note",
          "blank", "attr", "dup", "pieces"]
"""The ways a line is off (one line of a document at most; the others well formed)."""


@st.composite
def _line(draw: st.DrawFn, text: str, k: int, form: str) -> str:
    """A ``T`` line over ``text``, well formed (``ok``) or off in the way ``form`` says."""
    size = len(text)
    s = draw(st.integers(min(size, 1) if form == "backwards" else 0, size))
    e = draw(st.integers(s, size))
    label = draw(st.sampled_from(["A;B", "X\xa0Y", "T1;", ";"] if form == "label" else ["PER", "ORG", "é", "T"]))
    ident = "T1" if form == "dup" else f"T{k}"
    quote = text[s:e]
    first, last = str(s), str(size + 1 if form == "past" else e)
    if form == "backwards" and s:
        first, last, quote = str(s), str(s - 1), draw(st.sampled_from(["", quote]))
    sep = " "
    if form == "sep":
        sep = draw(st.sampled_from(["  ", "\xa0", "\t"]))
    elif form == "zeros":
        first = "00" + first
    elif form == "plus":
        last = "+" + last
    elif form == "digits":
        first = "".join("٠١٢٣٤٥٦٧٨٩"[int(c)] for c in first)
    elif form == "quote":
        quote = draw(_TEXT)
    elif form == "id":
        ident = draw(st.sampled_from(["X1", "", "T 1", "T\u20281"]))
    elif form == "note":
        return f"#1\tAnnotatorNotes {ident}\tnote"
    elif form == "blank":
        return draw(st.sampled_from(["", " ", "\t"]))
    elif form == "attr":
        return "A1\tNeg T1"
    elif form == "pieces":
        return f"{ident}\t{label} {first} {first};{first} {last}\t{quote} {quote}"
    line = f"{ident}\t{label}{sep}{first}{sep}{last}"
    if form == "tabs":
        return line + f"\t{quote}\textra"
    return line if form == "noquote" else f"{line}\t{quote}"


@st.composite
def _documents(draw: st.DrawFn) -> tuple[bytes, bytes]:
    """A ``.txt`` and a ``.ann`` file's bytes."""
    text = draw(_TEXT)
    n = draw(st.integers(0, 6))
    off, at = draw(st.sampled_from(["ok", *_FORMS])), draw(st.integers(0, max(n - 1, 0)))
    lines = [draw(_line(text, k + 1, off if k == at else "ok")) for k in range(n)]
    ending = draw(st.sampled_from(["\n"] * 8 + ["\r\n", "\x85", "\u2028"]))
    ann = ending.join(lines) + (ending if lines and draw(st.booleans()) else "")
    txt_bytes, ann_bytes = text.encode(), ann.encode()
    for name in ("txt", "ann"):
        odd = draw(st.sampled_from([b""] * 20 + [b"\xef\xbb\xbf", b"\xef\xbb\xbf\xef\xbb\xbf", b"\0", b"\xff"]))
        if name == "txt":
            txt_bytes = odd + txt_bytes if odd.startswith(b"\xef") else txt_bytes + odd
        else:
            ann_bytes = odd + ann_bytes if odd.startswith(b"\xef") else ann_bytes + odd
    return txt_bytes, ann_bytes


def _outcome(fn):
    """``fn()``'s documents (id, text, annotations as tuples, as they compare by identity, with their attributes'
    types) or error, and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            docs = fn()
            got = [(d.id, d.text, [(*a, type(a.attributes)) for a in d.annotations]) for d in docs]
        except Exception as exc:   # (compared: the same error either way)
            got = (type(exc), str(exc))
    return got, [(type(w.message), str(w.message)) for w in caught]


def _general(fn):
    """``fn()`` by the general paths only: every file by ``read_text``, every ``.ann`` text by the line loop, the
    folder listed by ``glob``."""
    with mock.patch.object(brat, "_utf8_text", lambda file: None), \
            mock.patch.object(brat, "_one_piece_lines", lambda ann_text, text: None), \
            mock.patch.object(brat, "_file_names", brat.directory_files):
        return _outcome(fn)


@given(st.lists(_documents(), min_size=1, max_size=3), st.sampled_from(["fragments", "merge"]))
def test_the_fast_paths_read_what_the_general_ones_read(tmp_path_factory, docs, discontinuous):
    folder = tmp_path_factory.mktemp("brat")
    for k, (txt, ann) in enumerate(docs):
        (folder / f"d{k}.txt").write_bytes(txt)
        (folder / f"d{k}.ann").write_bytes(ann)

    def whole() -> list:
        return read(folder, "brat", discontinuous=discontinuous).documents

    def one() -> list:
        return brat.read_brat(folder / "d0.txt", discontinuous=discontinuous).documents

    assert _outcome(whole) == _general(whole)
    assert _outcome(one) == _general(one)


def test_a_folders_names_are_globs(tmp_path, monkeypatch):
    """Hidden ``.ann`` files, ``..ann``, ``x.ANN`` (not listed on POSIX), a folder named ``d.ann``, names in
    another case order, the folder given as ``.``: the listing by name is the ``glob``'s, as the same strings."""
    for name in [".ann", "..ann", "b.ann", "B.ann", "a.ann", "x.ANN", "é.ann", "c.annx", "d.ann.txt"]:
        (tmp_path / name).write_text("")
    (tmp_path / "d.ann").mkdir()
    expected = ["..ann", ".ann", "B.ann", "a.ann", "b.ann", "d.ann", "é.ann"]   # (by hand: code point order)
    assert brat._file_names(tmp_path) == [str(p) for p in brat.directory_files(tmp_path)] \
        == [str(tmp_path / n) for n in expected]
    monkeypatch.chdir(tmp_path)
    assert brat._file_names(Path(".")) == [str(p) for p in brat.directory_files(Path("."))] == expected
    assert brat._file_names(Path("/")) == [str(p) for p in brat.directory_files(Path("/"))]
