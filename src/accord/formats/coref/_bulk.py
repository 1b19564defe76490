"""The chains of a well-formed CoNLL-2012 file, read with arrays.

:func:`chains_in_bulk` parses every chain column of a file at once: the characters of all chains
are gathered into one array, split into parts at ``|``, each part checked against ``(N``, ``N)``
or ``(N)`` and its number read; opening and closing parts of one entity in one document are
matched as brackets are (by nesting depth), a token's openings before its closings as the
reference scorer (v8.01) reads them. Each document's entities are listed in the order the reference
scorer numbers them: that of their first one-token mention or opening, a token's one-token mentions
before its openings, each in written order. It returns ``None`` at the first thing it does not
find well formed (a fault, or what it leaves to the line-by-line reader: digits other than ASCII,
numbers of more than 18 digits), and the caller reads the file line by line to name the fault.
"""

from __future__ import annotations

import numpy as np

from ...model._text_fields import field_chars
from ._chains import CorefChains, _ranges

__all__ = ["CorefLines", "chains_in_bulk"]

_OPEN, _CLOSE, _BAR, _ZERO, _NINE = (ord(c) for c in "()|09")


class CorefLines:
    """The lines of a CoNLL-2012 file that matter, from its field layout.

    ``marks``: lines whose first field begins with ``#`` (``#begin document``, ``#end document``,
    comments), with ``mark_text`` their stripped text; ``token_lines``: the other non-blank lines;
    ``mention``: indices (among ``token_lines``) of those whose last field is not ``-`` or ``_``,
    ``chain_start``/``chain_end``: where that field is in the text (indexed like ``mention``).
    """

    __slots__ = ("text", "codes", "marks", "mark_text", "before_mark", "token_lines", "chain_start", "chain_end",
                 "mention")

    def __init__(self, text: str, codes: np.ndarray, marks: np.ndarray, mark_text: list[str],
                 token_lines: np.ndarray, chain_start: np.ndarray, chain_end: np.ndarray, mention: np.ndarray):
        self.text, self.codes = text, codes
        self.marks, self.mark_text = marks, mark_text
        self.before_mark: list[int] = np.searchsorted(token_lines, marks).tolist()
        """How many token lines come before each mark."""
        self.token_lines, self.chain_start, self.chain_end, self.mention = token_lines, chain_start, chain_end, mention


def _documents(lines: CorefLines) -> list[tuple[str, int, int]] | None:
    """``(name, first token line, token line after the last)`` of each document, or None if the marks are faulty."""
    out: list[tuple[str, int, int]] = []
    names: set[str] = set()
    current: tuple[str, int] | None = None
    outside_from = 0
    for index, stripped in zip(lines.before_mark, lines.mark_text):
        if stripped.startswith("#begin document"):
            name = stripped[len("#begin document"):].strip()
            if current is not None or name in names or index > outside_from:
                return None
            names.add(name)
            current = (name, index)
        elif stripped.startswith("#end document"):
            if current is None:
                return None
            out.append((current[0], current[1], index))
            current, outside_from = None, index
    if current is not None or len(lines.token_lines) > outside_from:
        return None
    return out


def chains_in_bulk(lines: CorefLines) -> CorefChains | None:
    """``{document: [entity, ...]}`` (entities in the order of their first part, mentions sorted) as arrays, or
    None (see the module)."""
    docs = _documents(lines)
    if docs is None:
        return None
    names = [name for name, _, _ in docs]
    mention = lines.mention
    if not len(mention):
        none = np.zeros(0, dtype=np.int64)
        return CorefChains(names, none, none, np.zeros(1, dtype=np.int64), np.zeros(len(names) + 1, dtype=np.int64))
    doc_first = np.array([lo for _, lo, _ in docs], dtype=np.int64)
    doc_of = np.searchsorted(doc_first, mention, side="right") - 1     # every token line lies in a document
    token = mention - doc_first[doc_of]

    # the characters of every chain, one after the other
    starts = lines.chain_start.astype(np.int64)
    lens = lines.chain_end.astype(np.int64) - starts
    before = np.cumsum(lens) - lens
    chars = field_chars(lines.codes, starts, starts + lens)
    chain_of = np.repeat(np.arange(len(mention)), lens)

    # parts: runs between bars; an empty part (a bar at either end, two bars together) is a fault
    bar = chars == _BAR
    first_char = np.zeros(len(chars), dtype=bool)
    first_char[before] = True
    last_char = np.zeros(len(chars), dtype=bool)
    last_char[before + lens - 1] = True
    part_begin = ~bar & (first_char | np.concatenate([[False], bar[:-1]]))
    part_end = ~bar & (last_char | np.concatenate([bar[1:], [False]]))
    if np.count_nonzero(part_begin) != np.count_nonzero(bar) + len(mention):
        return None
    begin, end = np.flatnonzero(part_begin), np.flatnonzero(part_end) + 1
    opens = chars[begin] == _OPEN
    closes = chars[end - 1] == _CLOSE
    digit_lo, digit_hi = begin + opens, end - closes
    width = digit_hi - digit_lo
    if np.any(width < 1) or np.any(width > 18) or not np.all(opens | closes):
        return None
    # the numbers, a digit place at a time over the parts that have it (numbers are short); every character between
    # the brackets is an ASCII digit (the brackets are at the ends)
    entity = np.zeros(len(begin), dtype=np.int64)
    having = np.arange(len(begin))
    for place in range(int(width.max()) if len(width) else 0):
        having = having[width[having] > place]
        digit = chars[digit_lo[having] + place].astype(np.int64) - _ZERO
        if np.any((digit < 0) | (digit > 9)):
            return None
        entity[having] = entity[having] * 10 + digit

    chain = chain_of[begin]
    part_doc, part_token = doc_of[chain], token[chain]
    kind = np.where(opens & closes, 0, np.where(opens, 1, -1))    # one-token mention, opening, closing
    # opening and closing parts matched per (document, entity), in file order, by nesting depth; within one token
    # the openings come before the closings, as the reference scorer reads them ("1)|(1" closes the mention it opens)
    rank = np.where(kind == -1, 2, kind)
    order = _stable_order(part_doc, entity, part_token, rank)
    k_doc, k_ent, k_kind, k_tok = part_doc[order], entity[order], kind[order], part_token[order]
    group_start = np.ones(len(order), dtype=bool)
    group_start[1:] = (k_doc[1:] != k_doc[:-1]) | (k_ent[1:] != k_ent[:-1])
    group_id = np.cumsum(group_start) - 1
    depth = np.cumsum(k_kind)
    depth_before_group = (depth - k_kind)[group_start]
    depth -= depth_before_group[group_id]
    if np.any(depth < 0):
        return None
    group_last = np.append(np.flatnonzero(group_start)[1:], len(order)) - 1
    if np.any(depth[group_last] != 0):
        return None
    # each entity's first part (never a closing: its depth would be below 0), and their order as the reference
    # scorer meets them: by token (the chain's line), a token's one-token mentions before its openings, each in
    # written order; entities in (document, entity) order, as the clusters below
    firsts = order[group_start]
    appearance = _stable_order(chain[firsts], rank[firsts], begin[firsts])
    bracket = k_kind != 0
    level = np.where(k_kind == 1, depth, depth + 1)[bracket]
    b_doc, b_ent, b_kind, b_tok = k_doc[bracket], k_ent[bracket], k_kind[bracket], k_tok[bracket]
    pairing = _stable_order(b_doc, b_ent, level)
    b_kind, b_tok = b_kind[pairing], b_tok[pairing]
    if np.any(b_kind[0::2] != 1) or np.any(b_kind[1::2] != -1):
        return None
    single = k_kind == 0
    m_doc = np.concatenate([k_doc[single], b_doc[pairing][0::2]])
    m_ent = np.concatenate([k_ent[single], b_ent[pairing][0::2]])
    m_start = np.concatenate([k_tok[single], b_tok[0::2]])
    m_end = np.concatenate([k_tok[single], b_tok[1::2]])
    final = _stable_order(m_doc, m_ent, m_start, m_end)
    m_doc, m_ent = m_doc[final], m_ent[final]
    # clusters: runs of one (document, entity), put in the order of the entities' first parts (document by document)
    new_cluster = np.ones(len(m_doc), dtype=bool)
    new_cluster[1:] = (m_doc[1:] != m_doc[:-1]) | (m_ent[1:] != m_ent[:-1])
    first = np.flatnonzero(new_cluster)
    size = np.diff(np.append(first, len(m_doc)))
    picked = final[_ranges(first[appearance], size[appearance])]
    entity_bounds = np.concatenate([[0], np.cumsum(size[appearance])])
    per_doc = np.bincount(m_doc[first], minlength=len(names))
    return CorefChains(names, m_start[picked], m_end[picked], entity_bounds, np.concatenate([[0], np.cumsum(per_doc)]))


def _stable_order(*keys: np.ndarray) -> np.ndarray:
    """The stable sort order by non-negative integer keys, the first the most significant: one sort of the keys
    packed into one integer where their ranges fit in 63 bits (with the position last where it fits too: the keys
    then distinct, numpy's default sort, several times faster than its stable one, gives the stable order), else a
    lexicographic sort."""
    n = len(keys[0])
    bits = [max(1, int(k.max()).bit_length()) if len(k) else 1 for k in keys]
    if sum(bits) > 63:
        return np.lexsort(keys[::-1])
    position = max(1, n.bit_length())
    packed = np.zeros(n, dtype=np.int64)
    for key, width in zip(keys, bits):
        packed <<= width
        packed |= key.astype(np.int64)
    if sum(bits) + position > 63:
        return np.argsort(packed, kind="stable")
    packed <<= position
    packed |= np.arange(n, dtype=np.int64)
    return np.argsort(packed)
