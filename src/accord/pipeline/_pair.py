"""The pairing stage: documents of both sides paired by id (a side counting tokens placed on the other's text
first), their tokens, texts and sentences checked to be the same, MATScore's pairing by file names."""

from __future__ import annotations

from collections.abc import Sequence

from .._support.surface import spelled
from ..errors import OptionError, PairingError
from ..model import Corpus, Document
from ..model._text_fields import TextFields
from ._offset_units import unify_units

__all__ = ["ALLOW_MISSING", "pair_documents", "missing_documents", "match_file_names"]

ALLOW_MISSING = ("empty", "skip")


def pair_documents(gold: Corpus, pred: Corpus, allow_missing: str | None = None
                   ) -> list[tuple[str, Document | None, Document | None]]:
    """Pair documents by id, checking that paired token sequences agree (a side counting tokens is placed on the
    text of a side counting characters first: :func:`accord.pipeline._offset_units.unify_units`).

    Parameters
    ----------
    allow_missing : {None, "empty", "skip"}
        ``None``: a document on one side only is an error. ``"empty"``: it is scored
        against an empty document (its items all missing or all spurious). ``"skip"``:
        it is left out.
    """
    if allow_missing not in (None,) + ALLOW_MISSING:
        raise OptionError(f"{spelled('allow_missing')} must be one of {', '.join(ALLOW_MISSING)}; "
                          f"got {allow_missing!r}")
    gold, pred = unify_units((gold, pred), sides=("gold", "predicted"))    # corpora given in Python
    only_gold = [d for d in gold if d not in pred]
    only_pred = [d for d in pred if d not in gold]
    if (only_gold or only_pred) and allow_missing is None:
        raise missing_documents(only_gold, only_pred, gold.name, pred.name)
    out: list[tuple[str, Document | None, Document | None]] = []
    for doc_id, gdoc in gold.items():
        pdoc = pred.get(doc_id)
        if pdoc is None:
            if allow_missing == "empty":
                out.append((doc_id, gdoc, None))
            continue
        _check_tokens(gdoc, pdoc, gold.name, pred.name)
        out.append((doc_id, gdoc, pdoc))
    if allow_missing == "empty":
        out.extend((d, None, pred[d]) for d in only_pred)
    return out


def missing_documents(only_gold: Sequence[str], only_pred: Sequence[str], gold_name: str | None,
                      pred_name: str | None) -> PairingError:
    """The error of documents found on one side only (the first five of each side named)."""
    def show(ids: Sequence[str]) -> str:
        return ", ".join(map(repr, ids[:5])) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
    parts = []
    if only_gold:
        parts.append(f"{len(only_gold)} document(s) only in the gold side ({gold_name}): {show(only_gold)}")
    if only_pred:
        parts.append(f"{len(only_pred)} document(s) only in the predicted side ({pred_name}): {show(only_pred)}")
    return PairingError("; ".join(parts) + f". Use {spelled('allow_missing', 'empty')} or "
                        f"{spelled('allow_missing', 'skip')} to score anyway")


def match_file_names(gold: Corpus, pred: Corpus, file_re: str | None = None, ref_fsuff_off: str | None = None,
                     ref_fsuff_on: str | None = None) -> tuple[Corpus, Corpus]:
    """MATScore's file selection: the predicted documents whose file name matches ``file_re`` in full, each paired
    with the gold document of the file named like it with the suffix ``ref_fsuff_off`` taken off and
    ``ref_fsuff_on`` put on (``--file-re``, ``--ref-fsuff-off``, ``--ref-fsuff-on``).

    With ``file_re`` the gold documents of no selected predicted file are left out, as MAT looks up only the
    reference files of the hypothesis files it scores. A predicted document is renamed to the id of its gold
    document, so that the pairing (and ``allow_missing``) works on ids as everywhere else; its file name stays in
    ``pred.files``.
    """
    import re

    if file_re is None and ref_fsuff_off is None and ref_fsuff_on is None:
        return gold, pred
    pattern = None
    if file_re is not None:
        try:
            pattern = re.compile(file_re)
        except re.error as exc:
            raise OptionError(f"--file-re {file_re!r} is not a regular expression: {exc}") from None
    pred_files = {d: pred.files.get(d, d) for d in pred}
    selected = [d for d in pred if pattern is None or pattern.fullmatch(pred_files[d])]
    if pattern is not None and not selected:
        raise OptionError(f"--file-re {file_re!r} matches none of the {len(pred)} predicted file name(s) "
                          f"({', '.join(sorted(pred_files.values())[:5])}...); it must match a whole name")
    gold_by_file = {gold.files.get(d, d): d for d in gold}
    renamed, files = [], {}
    for d in selected:
        name = pred_files[d]
        if ref_fsuff_off and name.endswith(ref_fsuff_off):
            name = name[: -len(ref_fsuff_off)]
        name += ref_fsuff_on or ""
        target = gold_by_file.get(name, d if ref_fsuff_off is None and ref_fsuff_on is None else name)
        renamed.append(pred[d]._replace(id=target))
        files[target] = pred_files[d]
    pred_out = Corpus(renamed, name=pred.name, files=files)
    if pattern is not None:
        gold = Corpus([doc for d, doc in gold.items() if d in pred_out], name=gold.name,
                      files={d: f for d, f in gold.files.items() if d in pred_out})
    return gold, pred_out


def _check_tokens(g: Document, p: Document, gname: str | None, pname: str | None) -> None:
    gmeta, pmeta = g.metadata or {}, p.metadata or {}
    gids, pids = gmeta.get("token_ids"), pmeta.get("token_ids")
    if gids is not None and pids is not None and gids != pids:
        n = min(len(gids), len(pids))
        i = next((k for k in range(n) if gids[k] != pids[k]), n)
        if i == n:
            raise PairingError(f"document {g.id!r}: the gold side has {len(gids)} token ids and the predicted side "
                               f"{len(pids)} ({_where(g, gname, i)} / {_where(p, pname, i)})")
        raise PairingError(f"document {g.id!r}: token id {gids[i]!r} at {_where(g, gname, i)} but {pids[i]!r} at "
                           f"{_where(p, pname, i)}; gold and prediction must hold the same tokens in the same order")
    if g.text is not None and p.text is not None and g.text != p.text:
        _text_differs(g, p, gname, pname)
    bare = (g.tokens is None and g.text is None) or (p.tokens is None and p.text is None)
    if bare and g.sentences is not None and p.sentences is not None:   # tag lists given in Python
        _check_sentences(g, p)
    if g.tokens is None or p.tokens is None or g.tokens == p.tokens:
        return
    n = min(len(g.tokens), len(p.tokens))
    if isinstance(g.tokens, TextFields):
        first = g.tokens.first_difference(p.tokens)
        i = n if first is None else first
    else:
        i = next((k for k in range(n) if g.tokens[k] != p.tokens[k]), n)
    if i == n:
        raise PairingError(f"document {g.id!r}: the gold side has {len(g.tokens)} tokens and the predicted side "
                           f"{len(p.tokens)}; the files must hold the same tokens ({_where(g, gname, i)} / "
                           f"{_where(p, pname, i)})")
    raise PairingError(f"document {g.id!r}: token {i} differs: {g.tokens[i]!r} at {_where(g, gname, i)} but "
                       f"{p.tokens[i]!r} at {_where(p, pname, i)}; gold and prediction must hold the same tokens")


def _text_differs(g: Document, p: Document, gname: str | None, pname: str | None) -> None:
    """A paired document whose two sides hold different texts: the first character that differs, in context."""
    g_text, p_text = g.text or "", p.text or ""
    n = min(len(g_text), len(p_text))
    i = next((k for k in range(n) if g_text[k] != p_text[k]), n)
    line = (g.text or "").count("\n", 0, i) + 1
    raise PairingError(f"document {g.id!r}: the texts differ from character {i} (line {line}): gold "
                       f"{(g.text or '')[max(0, i - 10):i + 20]!r} ({gname}), predicted "
                       f"{(p.text or '')[max(0, i - 10):i + 20]!r} ({pname}); offsets of the two sides would not "
                       "mean the same characters")


def _check_sentences(g: Document, p: Document) -> None:
    """Documents without tokens or text (tag lists given in Python): the same sentences, of the same lengths."""
    gs, ps = g.sentences or (), p.sentences or ()
    if len(gs) != len(ps):
        raise PairingError(f"document {g.id!r}: the gold side has {len(gs)} sentences and the predicted side "
                           f"{len(ps)}")
    for k, (a, b) in enumerate(zip(gs, ps)):
        if a != b:
            raise PairingError(f"document {g.id!r}: sentence {k + 1} has {a[1] - a[0]} gold tags and "
                               f"{b[1] - b[0]} predicted tags; both sides must tag the same tokens")


def _where(doc: Document, name: str | None, i: int) -> str:
    """Where token ``i`` of a document is: file and line (column files), or the corpus position (VRT)."""
    meta = doc.metadata or {}
    lines = meta.get("lines")
    if "cpos" in meta:
        at = f"{name}, corpus position {meta['cpos'] + i}"
        if lines and doc.sentences:
            for (a, b), line in zip(doc.sentences, lines):
                if a <= i < b:
                    return f"{at} (sentence from line {line})"
        return at
    if lines and doc.sentences:
        for (a, b), line in zip(doc.sentences, lines):
            if a <= i < b or (i >= b and (a, b) == doc.sentences[-1]):
                return f"{name}:{line + (i - a)}"
    return f"{name}, token {i}"
