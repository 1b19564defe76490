"""The balanced distance metric (Maynard, Peters and Li 2006) between the concepts of a taxonomy."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import NamedTuple

from ..errors import OntologyError
from ._taxonomy import Taxonomy

__all__ = ["BdmScore", "bdm_value", "bdm_scores", "BdmTable"]


class BdmScore(NamedTuple):
    """The BDM of a key concept and a response concept, with the parameters behind it.

    ``msca`` most specific common abstraction; ``cp`` edges from the top to it; ``dpk`` and
    ``dpr`` edges from the key and from the response up to it; ``n0`` the mean chain length
    of the taxonomy's leaves; ``n1`` and ``n2`` the mean length of the leaf chains through
    the key and through the response; ``bran`` the branching factor (see :func:`bdm_scores`).
    """

    key: str
    response: str
    bdm: float
    msca: str | None
    cp: int
    dpk: int
    dpr: int
    n0: float
    n1: float
    n2: float
    bran: float


def bdm_value(cp: float, dpk: float, dpr: float, n0: float, n1: float, n2: float, bran: float) -> float:
    """The BDM from its parameters (GATE guide 10.6).

    .. math:: BDM = \\frac{bran \\cdot cp / n_0}{bran \\cdot cp / n_0 + dpk / n_1 + dpr / n_2}

    A zero distance term counts 0 whatever its normaliser (so a top-level leaf, whose chains
    have length 0, causes no division by zero); ``cp = 0`` with a positive distance gives 0.
    """
    common = bran * cp / n0 if n0 else 0.0
    far = (dpk / n1 if dpk else 0.0) + (dpr / n2 if dpr else 0.0)
    if common + far == 0:
        return 1.0 if dpk == dpr == 0 else 0.0
    return common / (common + far)


def _chains(tax: Taxonomy) -> dict[str, list[tuple[str, ...]]]:
    """Every path from each concept up to a top concept, the concept first."""
    memo: dict[str, list[tuple[str, ...]]] = {}

    def up(c: str) -> list[tuple[str, ...]]:
        if c not in memo:
            ps = tax.parents[c]
            memo[c] = [(c,)] if not ps else [(c,) + ch for p in ps for ch in up(p)]
        return memo[c]

    for c in tax.concepts:
        up(c)
    return memo


def bdm_scores(tax: Taxonomy, *, pairs: str = "unordered") -> Iterator[BdmScore]:
    """The BDM of concept pairs of ``tax``, as GATE's BDM computation tool defines it.

    A *chain* is a path from a concept up to a top concept, its length counted in edges
    (with several superclasses a concept has several chains).

    - ``n0``: the mean length of the chains of all leaves;
    - ``n1``, ``n2``: the mean length of the leaf chains passing through the key, through
      the response;
    - for a key chain and a response chain, ``msca`` is the first concept of the key chain
      that lies on the response chain; ``cp`` is the length of the key chain above it,
      ``dpk`` and ``dpr`` the positions of ``msca`` on the two chains;
    - ``bran``: the mean number of direct subclasses of ``msca`` and of the concepts strictly
      between it and the key and the response, divided by the mean number of direct
      subclasses over all non-leaf concepts.

    Every pair of chains is tried and the highest BDM kept, with the parameters of that pair
    (GATE reports the ``msca`` of the last pair tried; and where a pair of chains shares no
    concept GATE overwrites the best value with 0, accord keeps the best). Chains of
    unrelated concepts give 0 with no ``msca``. A concept paired with itself gets
    ``bdm = 1``, ``cp`` its depth (shortest chain), ``dpk = dpr = 0``, ``n1 = n2 = 1``,
    ``bran = 1``. The BDM is symmetric.

    Parameters
    ----------
    pairs : {"unordered", "ordered"}
        Each unordered pair once (self-pairs included) in the taxonomy's concept order, or
        every ordered pair.
    """
    if pairs not in ("unordered", "ordered"):
        raise OntologyError(f"pairs must be 'unordered' or 'ordered', got {pairs!r}")
    chains = _chains(tax)
    leaves = [c for c in tax.concepts if not tax.children[c]]
    leaf_chains = [ch for c in leaves for ch in chains[c]]
    n0 = sum(len(ch) - 1 for ch in leaf_chains) / len(leaf_chains)
    through: dict[str, list[int]] = {c: [] for c in tax.concepts}
    for ch in leaf_chains:
        for c in set(ch):
            through[c].append(len(ch) - 1)
    n_of = {c: (sum(v) / len(v) if v else 0.0) for c, v in through.items()}
    branching = [len(tax.children[c]) for c in tax.concepts if tax.children[c]]
    aver_bran = sum(branching) / len(branching) if branching else 1.0

    def pair(k: str, r: str) -> BdmScore:
        if k == r:
            return BdmScore(k, r, 1.0, k, min(len(ch) for ch in chains[k]) - 1, 0, 0, n0, 1.0, 1.0, 1.0)
        best: BdmScore | None = None
        for ck, cr in itertools.product(chains[k], chains[r]):
            on_r = {c: i for i, c in enumerate(cr)}
            ik = next((i for i, c in enumerate(ck) if c in on_r), None)
            if ik is None:
                continue
            msca = ck[ik]
            ir = on_r[msca]
            nodes = {msca, *ck[1:ik], *cr[1:ir]}
            bran = sum(len(tax.children[c]) for c in nodes) / len(nodes) / aver_bran
            cp = len(ck) - 1 - ik
            score = BdmScore(k, r, bdm_value(cp, ik, ir, n0, n_of[k], n_of[r], bran), msca, cp, ik, ir,
                             n0, n_of[k], n_of[r], bran)
            if best is None or score.bdm > best.bdm:
                best = score
        return best or BdmScore(k, r, 0.0, None, 0, 0, 0, n0, n_of[k], n_of[r], 0.0)

    concepts = tax.concepts
    if pairs == "ordered":
        for k, r in itertools.product(concepts, concepts):
            yield pair(k, r)
    else:
        for i, k in enumerate(concepts):
            for r in concepts[i:]:
                yield pair(k, r)


class BdmTable:
    """BDM values by concept pair, looked up in either order (as GATE reads its BDM file)."""

    def __init__(self, scores: Iterator[BdmScore] | list[BdmScore]):
        self._scores: dict[tuple[str, str], BdmScore] = {}
        for s in scores:
            self._scores[(s.key, s.response)] = s

    def __len__(self) -> int:
        return len(self._scores)

    def __iter__(self) -> Iterator[BdmScore]:
        return iter(self._scores.values())

    def score(self, key: str, response: str) -> BdmScore | None:
        """The entry for ``(key, response)``, else for ``(response, key)``, else ``None``."""
        return self._scores.get((key, response)) or self._scores.get((response, key))

    def bdm(self, key: str, response: str) -> float:
        """The BDM of the pair in either order; 0.0 for a pair not in the table."""
        s = self.score(key, response)
        return 0.0 if s is None else s.bdm
