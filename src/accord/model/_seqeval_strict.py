"""seqeval's strict-mode chunking, for the schemes where it departs from accord's validity rules (IOB1, IOE1).

seqeval 1.2.2 reads a sentence in strict mode with three tables per scheme: which (previous tag, tag) pairs
start a chunk, continue it, and end it. A chunk starts at a tag that the start table allows after the previous
one, extends over the tags the inside table allows, and is kept only if the tag after it ends it by the end
table; reading then resumes at that tag. A (previous, current, condition) entry matches when the previous
tag's letter is among the first letters, the current one's among the second, and the types are the same
(``=``), different (``!``) or either (``*``). The tables below are the facts of seqeval's ``scheme`` module for
IOB1 and IOE1, written as strings; :func:`strict_chunks` applies them (sentences end with an implied ``O``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import SchemeError

__all__ = ["strict_chunks", "TABLES"]

# scheme -> (allowed letters, start, inside, end); an entry "PC=" is previous letters P, current C, same type
TABLES: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "IOB1": ("IOB",
             ("OI*", "II!", "BI*", "IB=", "BB="),
             ("BI=", "II="),
             ("II!", "IO*", "IB*", "BO*", "BI!", "BB=")),
    "IOE1": ("IOE",
             ("OI*", "II!", "EI*", "EE="),
             ("II=", "IE="),
             ("II!", "IO*", "IE!", "EI=", "EE=")),
}


def _parse(tag: str, suffix: bool, allowed: str, scheme: str) -> tuple[str, str]:
    letter = tag[-1:] if suffix else tag[:1]
    if not letter or letter not in allowed:
        raise SchemeError(f"tag {tag!r} is not a {scheme} tag (prefixes {', '.join(allowed)})")
    rest = tag[:-1] if suffix else tag[1:]
    return letter, rest.strip("-") or "_"


def _matches(table: tuple[str, ...], prev: tuple[str, str], cur: tuple[str, str]) -> bool:
    for entry in table:
        if prev[0] == entry[0] and cur[0] == entry[1]:
            if entry[2] == "*" or (entry[2] == "=") == (prev[1] == cur[1]):
                return True
    return False


def strict_chunks(tags: Sequence[str], scheme: str, suffix: bool = False) -> list[tuple[str, int, int]]:
    """The ``(type, start, end)`` chunks (end exclusive) of one sentence as seqeval's strict mode reads them."""
    allowed, start, inside, end = TABLES[scheme]
    outside = ("O", "_")
    tokens = [_parse(t, suffix, allowed, scheme) for t in tags] + [outside]
    out: list[tuple[str, int, int]] = []
    i, prev = 0, outside
    while i < len(tokens):
        cur = tokens[i]
        if _matches(start, prev, cur):
            j, last = i + 1, cur
            while j < len(tokens) and _matches(inside, last, tokens[j]):
                last = tokens[j]
                j += 1
            if j == len(tokens):    # never reached: the implied O continues no chunk
                j = len(tokens) - 2
            if _matches(end, tokens[j - 1], tokens[j]):
                out.append((cur[1], i, j))
            i = j
        else:
            i += 1
        prev = tokens[i - 1]
    return out
