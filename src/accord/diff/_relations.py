"""Relations, events and equivalences in the Annotation Diff, when their types are asked for.

GATE's Annotation Diff compares spans only. accord extends it to spanless annotations (brat's
relations ``R``, events ``E`` and equivalences ``*``; MAT's spanless labels) by what they point
to: a key and a response of the same type are candidates when they have the same roles
(annotation-valued attributes) and each role's key target was paired, in the diff of its own
type, with the response's target in that role (a set-valued role: the key's targets paired with
the response's, one to one). The candidate's value follows the span rule, with "all targets
paired as correct" in place of "coextensive":

============================  ================  ==================
targets                       features agree    features disagree
============================  ================  ==================
all paired as correct         correct           mismatch
paired, some as partial       partial           wrong (no pair)
============================  ================  ==================

Targets paired as mismatch, or not paired, make no candidate. Spanless annotations are
compared after every spanned type and in order of depth (an event whose argument is an event
after that argument), so that their targets' pairs are known; the types their targets have
must be compared too (an error says which to add). The pairing among candidates is the span
diff's (GATE's greedy pairing, or the optimal one).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..errors import OptionError
from ..match.engine import reference_depths
from ..model import Annotation, is_aggregate
from ._features import subsumes
from ._pairing import CORRECT, MISMATCH, PARTIAL, WRONG, _gate_greedy, _optimal

__all__ = ["spanless_depths", "targets", "pair_spanless", "scalar_features"]


def targets(a: Annotation) -> dict[str, Any]:
    """The annotation-valued roles of ``a``: role -> target, or frozenset / tuple of targets."""
    out: dict[str, Any] = {}
    for name, value in a.attributes.items():
        if isinstance(value, Annotation):
            out[name] = value
        elif is_aggregate(value) and value and all(isinstance(v, Annotation) for v in value):
            out[name] = value
    return out


def scalar_features(a: Annotation) -> dict[str, Any]:
    """The attributes of ``a`` that do not point to annotations (those the feature test compares)."""
    roles = targets(a)
    return {k: v for k, v in a.attributes.items() if k not in roles}


def spanless_depths(anns: Sequence[Annotation], doc_id: str | None, side: str) -> list[int]:
    """For each annotation, how many levels of spanless annotations it reaches through those it points to
    (:func:`accord.match.engine.reference_depths`: 0 for spans and for relations between spans); a cycle is a
    :class:`~accord.errors.PairingError` naming it."""
    spanless = np.fromiter((a.start is None for a in anns), dtype=bool, count=len(anns)).astype(np.int64)
    return reference_depths(list(anns), spanless, str(doc_id), side).tolist()


def pair_spanless(keys: list[Annotation], resps: list[Annotation], paired: dict[int, tuple[Annotation, int]],
                  features: Sequence[str] | None, as_strings: bool, pairing: str
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pair spanless keys and responses of one type (and depth) through their targets' pairs.

    ``paired`` maps ``id(key target)`` to ``(response target, value)`` for every pair made so far.
    Returns the key indices, response indices and values (:data:`CORRECT`, :data:`PARTIAL`,
    :data:`MISMATCH`) of the pairs, as :func:`accord.diff._pairing.pair` does.
    """
    by_signature: dict[tuple, list[int]] = {}
    for j, r in enumerate(resps):
        by_signature.setdefault(_signature(targets(r), id), []).append(j)
    ki: list[int] = []
    ri: list[int] = []
    all_correct: list[bool] = []
    for i, k in enumerate(keys):
        roles = targets(k)
        worst = CORRECT
        partner: dict[int, int] = {}
        for t in (t for v in roles.values() for t in (v if is_aggregate(v) else (v,))):
            got = paired.get(id(t))
            if got is None or got[1] not in (CORRECT, PARTIAL):
                break
            partner[id(t)] = id(got[0])
            worst = min(worst, got[1])
        else:
            for j in by_signature.get(_signature(roles, functools.partial(_partner_of, partner)), ()):
                ki.append(i)
                ri.append(j)
                all_correct.append(worst == CORRECT)
    if not ki:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    compatible = np.fromiter((subsumes(scalar_features(resps[j]), scalar_features(keys[i]), features,
                                       as_strings=as_strings) for i, j in zip(ki, ri)), dtype=bool, count=len(ki))
    correct = np.asarray(all_correct, dtype=bool)
    value = np.where(correct, np.where(compatible, CORRECT, MISMATCH),
                     np.where(compatible, PARTIAL, WRONG)).astype(np.int64)
    k_arr, r_arr = np.asarray(ki, dtype=np.int64), np.asarray(ri, dtype=np.int64)
    chosen = (_gate_greedy if pairing == "gate" else _optimal)(k_arr, r_arr, value, len(keys), len(resps))
    return k_arr[chosen], r_arr[chosen], value[chosen]


def _partner_of(partner: dict[int, int], target: Any) -> int:
    """The identity of the response's partner of a key target (``partner`` by the target's identity)."""
    return partner[id(target)]


def _signature(roles: dict[str, Any], ident: Callable[[Any], int]) -> tuple:
    """The roles and (identities of) their targets, comparable across the two sides once the key's targets are
    replaced by their partners."""
    out: list[tuple[str, str, Any]] = []
    for name in sorted(roles):
        value = roles[name]
        if isinstance(value, frozenset):
            out.append((name, "set", tuple(sorted(map(ident, value)))))
        elif is_aggregate(value):
            out.append((name, "list", tuple(map(ident, value))))
        else:
            out.append((name, "one", ident(value)))
    return tuple(out)


def check_target_types(keys: Sequence[Annotation], resps: Sequence[Annotation], compared: set[str]) -> None:
    """An :class:`~accord.errors.OptionError` when a compared spanless annotation points to a type not compared."""
    missing: dict[str, set[str]] = {}
    for a in list(keys) + list(resps):
        if a.start is None:
            for t in a.referenced():
                if t.label not in compared:
                    missing.setdefault(t.label, set()).add(a.label)
    if missing:
        pointing = sorted(set().union(*missing.values()))
        raise OptionError(f"{', '.join(pointing)} annotations point to {', '.join(sorted(missing))} annotations, "
                          f"which are not compared; add {','.join(sorted(missing))} to --types (a relation pairs when "
                          "its arguments pair)")
