"""MAT-style documents for tests: spans over a text found by their words, and a ``lex`` token annotation for every
whitespace word of the text (MAT's tokens)."""

from __future__ import annotations

from accord.model import Corpus, Document, make_annotation


def text_document(text: str, spans: list[tuple[str, str]], *, tokens: bool = True, ids: bool = False) -> Corpus:
    """A one-document corpus (``d``): each ``(label, words)`` at the first place ``words`` occur in ``text`` (ids
    ``a0``, ``a1``... with ``ids``), then the tokens."""
    anns = [make_annotation(label, text.index(words), text.index(words) + len(words),
                            **({"id": f"a{k}"} if ids else {}))
            for k, (label, words) in enumerate(spans)]
    if tokens:
        at = 0
        for word in text.split():
            a = text.index(word, at)
            anns.append(make_annotation("lex", a, a + len(word)))
            at = a + len(word)
    return Corpus([Document("d", tuple(anns), text=text)])
