"""MUC-4 as the original evaluation scored it (Chen et al., appendix C): interactive half credit, key-slot alignment.

Two versions of ``φ_str`` were used in 1992: the automatic one (equations 48, 49) chose the template
alignment, and the score given that alignment was the automatic one "enhanced" by a person who,
where a mismatch could not be resolved automatically, awarded full, half or no credit. A template
pair was allowed only when at least one of seven key slots matched at least partly (Chinchor 1992:
to keep out "fortuitous" alignments), and the generic ``attack`` type earned half the type credit in
place of a specific one.

Here the person's answers are *judgements*: a mapping ``{(predicted string, reference mention):
credit}`` (a recorded session) or a callable ``judge(predicted string, reference mentions) ->
credit``; a credit is 0, 0.5 or 1. A string fill the automatic ``φ_str`` fails gets the best credit
judged for it against any of the reference entity's mentions, 0 when none was judged.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.assign import assign
from ._matching import MatchScore, _items, match
from ._similarity import Similarity, _as_similarity, func, get_field, product
from .ie import Parents

__all__ = ["MUC4_KEY_SLOTS", "Judgements", "judged_string_fill", "muc4_original", "read_judgements"]

MUC4_KEY_SLOTS: tuple[str, ...] = ("PHYS TGT: ID", "PHYS TGT: TYPE", "HUM TGT: NAME", "HUM TGT: DESCRIPTION",
                                   "HUM TGT: TYPE", "PERP: INDIVIDUAL ID", "PERP: ORGANIZATION ID")
"""The seven slots of which one must match at least partly for two MUC-4 templates to align (appendix C:
physical target identifier and type, human target name, description and type, perpetrator individual and
organization identifiers), spelled as in the MUC-4 key templates (a leading ``12.`` is ignored)."""

Judgements = Mapping[tuple[str, str], float] | Callable[[str, tuple[str, ...]], float]
"""Recorded interactive credits ``{(predicted string, reference mention): credit}``, or a callable
``judge(predicted string, reference mentions)``; a credit is 0, 0.5 or 1."""

_CREDITS = (0.0, 0.5, 1.0)


def _slot_name(slot: Any) -> str:
    return re.sub(r"^\s*\d+\s*\.\s*", "", str(slot)).strip().upper()


def _credit(value: Any, where: str) -> float:
    try:
        c = float(value)
    except (TypeError, ValueError):
        c = float("nan")
    if c not in _CREDITS:
        raise OptionError(f"an interactive MUC-4 judgement is 0, 0.5 or 1 (none, half or full credit); "
                          f"got {value!r} for {where}")
    return c


def judged_string_fill(judgements: Judgements, automatic: Similarity) -> Similarity:
    """``φ_str`` for the score (appendix C, second version): the automatic ``φ_str`` where it gives credit,
    else the judged credit (0, 1/2 or 1) of the predicted string against the reference entity.

    Parameters
    ----------
    judgements : mapping or callable
        ``{(predicted string, reference mention): credit}`` (the best over the entity's mentions is taken;
        a pair not recorded gets 0) or ``judge(predicted string, reference mentions) -> credit``.
    automatic : similarity
        The automatic ``φ_str`` (equation 49), e.g. :func:`accord.structured.templates.string_fill`.
    """
    if isinstance(judgements, Mapping):
        table = {}
        for k, v in judgements.items():
            if not (isinstance(k, tuple) and len(k) == 2):
                raise OptionError(f"an interactive MUC-4 judgement is keyed by (predicted string, reference "
                                  f"mention); got {k!r}")
            table[(str(k[0]).lower(), str(k[1]).lower())] = _credit(v, repr(k))

        def judge(p: str, ref: tuple[str, ...]) -> float:
            return max((table.get((p.lower(), m.lower()), 0.0) for m in ref), default=0.0)
    elif callable(judgements):
        def judge(p: str, ref: tuple[str, ...]) -> float:
            return _credit(judgements(p, ref), repr((p, ref)))
    else:
        raise OptionError(f"MUC-4 judgements must be a mapping or a callable, got {type(judgements).__name__}")

    def phi(p: Any, r: Any) -> float:
        a = float(automatic(p, r))
        if a > 0:
            return a
        pred = [p] if isinstance(p, str) else list(p)
        ref = (r,) if isinstance(r, str) else tuple(r)
        return max((judge(str(m), ref) for m in pred), default=0.0)

    return func(phi)


class _Original(Similarity):
    """Align templates with the automatic similarities (under the key-slot rule), score fillers with the judged."""

    def __init__(self, type_similarity: Similarity, align_filler: Similarity, score_filler: Similarity,
                 key_slots: Collection[str] | None):
        self.type_sim = type_similarity
        self.align_filler = align_filler
        self.align = product(type=type_similarity, fillers=match(align_filler, "1:1"))
        self.score = product(type=type_similarity, fillers=match(score_filler, "1:1"))
        self.key_slots = None if key_slots is None else frozenset(_slot_name(s) for s in key_slots)

    def _allowed(self, a: Any, b: Any) -> bool:
        """Appendix C: one key slot of the pair matches at least partly (a reference template with no key slot
        filled has nothing to match there, so the rule does not apply to it)."""
        if self.key_slots is None:
            return True
        key = self.key_slots
        gf = [f for f in _items(get_field(b, "fillers")) if _slot_name(get_field(f, "slot")) in key]
        if not gf:
            return True
        pf = [f for f in _items(get_field(a, "fillers")) if _slot_name(get_field(f, "slot")) in key]
        return any(self.align_filler(x, y) > 0 for x in pf for y in gf)

    def __call__(self, pred: Any, gold: Any) -> MatchScore:
        p, g = _items(pred), _items(gold)
        m = np.array([[self.align(a, b) if self._allowed(a, b) else 0.0 for b in g] for a in p],
                     dtype=float).reshape(len(p), len(g))
        pairs: list[tuple[int, int, float]] = []
        if m.size:
            rows, cols = assign(m, "1:1")
            pairs = [(int(i), int(j), float(self.score(p[i], g[j]))) for i, j in zip(rows, cols) if m[i, j] > 0]
        total = sum(s for _, _, s in pairs)
        pt = float(sum(self.score.self_score(a) for a in p))
        gt = float(sum(self.score.self_score(b) for b in g))
        value = MatchScore(0.0, total, pt, gt, pairs).f1
        return MatchScore(value, total, pt, gt, pairs)

    def self_score(self, x: Any) -> float:
        return 1.0

    def __repr__(self) -> str:
        return "muc4_original"


def muc4_original(*, set_parent: Parents | None = None, premodifiers: Collection[str] = (),
                  judgements: Judgements | None = None, key_slots: Collection[str] | None = MUC4_KEY_SLOTS,
                  type_similarity: Any = None) -> Similarity:
    """MUC-4 scored as the 1992 evaluation did (appendix C): F1 over slot fillers (equation 32) of the best
    template alignment among those the key-slot rule allows, with the generic ``attack`` type's half credit and,
    given ``judgements``, the interactive half credit for string fills.

    Parameters
    ----------
    set_parent : mapping or callable, optional
        The hierarchy of set-fill values for ``φ_set`` (equation 33).
    premodifiers : collection of str
        Words that do not count as an overlap for the automatic ``φ_str`` (equation 48).
    judgements : mapping or callable, optional
        The interactive credits (see :func:`judged_string_fill`); without them the score is the automatic one.
    key_slots : collection of str or None
        The slots of which one must match at least partly (automatic similarities, half credit included)
        for a template pair to align; :data:`MUC4_KEY_SLOTS` by default, ``None`` for no such rule.
    type_similarity : similarity, optional
        Template types; :data:`accord.structured.templates.attack_half_credit` by default.
    """
    from .templates import attack_half_credit, set_fill, slot_filler, string_fill

    automatic = string_fill(premodifiers)
    align_filler = slot_filler(set_similarity=set_fill(set_parent), string_similarity=automatic)
    score_filler = align_filler if judgements is None else slot_filler(
        set_similarity=set_fill(set_parent), string_similarity=judged_string_fill(judgements, automatic))
    if key_slots is not None and (isinstance(key_slots, str) or not key_slots):
        raise OptionError(f"key_slots must be a non-empty collection of slot names (or None), got {key_slots!r}")
    typ = _as_similarity(attack_half_credit if type_similarity is None else type_similarity, "type_similarity")
    return _Original(typ, align_filler, score_filler, key_slots)



def read_judgements(path: str | os.PathLike[str]) -> dict[tuple[str, str], float]:
    """Recorded interactive judgements from a JSON file: a list of ``[predicted string, reference mention,
    credit]`` (credit 0, 0.5 or 1); an item of another shape is an error naming its index."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise OptionError(f"{p}: cannot read the judgements ({exc.strerror})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise OptionError(f"{p}: the judgements are not JSON ({exc})") from None
    if not isinstance(data, list):
        raise OptionError(f"{p}: expected a JSON list of [predicted string, reference mention, credit]")
    out: dict[tuple[str, str], float] = {}
    for i, item in enumerate(data):
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str) and isinstance(item[1], str)):
            raise OptionError(f"{p}: item {i} is not [predicted string, reference mention, credit]: {item!r}")
        out[(item[0], item[1])] = _credit(item[2], f"{p}: item {i}")
    return out
