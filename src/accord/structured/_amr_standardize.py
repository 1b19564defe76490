"""Smatch++'s graph standardization (Opitz et al. 2023, ``smatchpp`` 1.8), applied before the Smatch match.

Smatch++ reads a PENMAN graph into triples ``(source, relation, target)``: ``(v, :instance, concept)`` for each node,
``(ROOT_OF_GRAPH, :root, v)`` for the root, ``(v, :role, w)`` for each edge and attribute as written. Then, in order:

``generic`` (its ``-graph_type generic``)
    every label lower-cased; every ``"`` and ``'`` removed; variables renamed after their concept's first letter
    (``c``, ``c1``, ``c2`` ... in reading order, an ``x`` appended while the name equals a constant or a concept);
    every role ending in ``-of`` stripped of it, as often as it occurs, the edge turned round when that is an odd
    number of times (``:consist-of`` included: Smatch++ knows no exception). Duplicate triples are kept.
``amr`` (its ``-graph_type amr``, the AMR default, and accord's ``--standardize``)
    as ``generic``, with ``:domain`` read as ``:mod-of`` (and ``:domain-of`` as ``:mod``) before the edges are turned
    round; the root triple made ``(root, :root, its concept)``, so that two graphs whose roots have different
    concepts do not earn it; *dereification*: a node whose concept reifies a role (``be-located-at-91`` for
    ``:location``: :data:`DEREIFY`) with no incoming edge, exactly its two argument edges and nothing else going out
    becomes that role between its arguments (``(l / be-located-at-91 :ARG1 x :ARG2 y)`` is ``x :location y``), one
    pass over the graph; duplicate triples removed.

The match itself is accord's exact ILP (:mod:`accord.structured._latent`), which finds the same optimum as Smatch++'s
``-solver ilp``: ``precision = match / triples of the candidate``, ``recall = match / triples of the reference``.
"""

from __future__ import annotations

from typing import Any

from ..errors import FormatError, OptionError
from ._latent import Var

__all__ = ["STANDARDIZE", "DEREIFY", "raw_triples", "standardize", "standardized_triples"]

STANDARDIZE = ("amr", "generic")
"""Smatch++'s standardizations accord applies: its AMR standardizer and its generic one."""

DEREIFY: dict[str, tuple[str, str, str]] = {
    "accompany-01": (":accompanier", ":arg1", ":arg0"),
    "age-01": (":age", ":arg1", ":arg2"),
    "benefit-01": (":beneficiary", ":arg0", ":arg1"),
    "have-concession-91": (":concession", ":arg1", ":arg2"),
    "have-condition-91": (":condition", ":arg1", ":arg2"),
    "have-degree-91": (":degree", ":arg1", ":arg2"),
    "be-destined-for-91": (":destination", ":arg1", ":arg2"),
    "last-01": (":duration", ":arg1", ":arg2"),
    "exemplify-01": (":example", ":arg1", ":arg0"),
    "have-extent-91": (":extent", ":arg1", ":arg2"),
    "have-frequency-91": (":frequency", ":arg1", ":arg2"),
    "have-instrument-91": (":instrument", ":arg1", ":arg2"),
    "have-li-91": (":li", ":arg1", ":arg2"),
    "be-located-at-91": (":location", ":arg1", ":arg2"),
    "have-manner-91": (":manner", ":arg1", ":arg2"),
    "have-mod-91": (":mod", ":arg1", ":arg2"),
    "have-name-91": (":name", ":arg1", ":arg2"),
    "have-ord-91": (":ord", ":arg1", ":arg2"),
    "have-part-91": (":part", ":arg1", ":arg2"),
    "have-polarity-91": (":polarity", ":arg1", ":arg2"),
    "own-01": (":poss", ":arg1", ":arg0"),
    "have-purpose-91": (":purpose", ":arg1", ":arg2"),
    "have-quant-91": (":quant", ":arg1", ":arg2"),
    "be-from-91": (":source", ":arg1", ":arg2"),
    "have-subevent-91": (":subevent", ":arg1", ":arg2"),
    "be-temporally-at-91": (":time", ":arg1", ":arg2"),
    "concern-02": (":topic", ":arg0", ":arg1"),
    "have-value-91": (":value", ":arg1", ":arg2"),
}
"""The AMR guidelines' reifications read backwards: a reifying concept -> (the role it stands for, the argument that
becomes the edge's source, the one that becomes its target). ``:poss`` reifies as ``own-01`` or ``have-03``; like
Smatch++, only ``own-01`` is read back."""

Raw = tuple[str, str, str]


def raw_triples(tree: Any) -> list[Raw]:
    """A ``penman.Tree``'s triples as Smatch++ reads them, in its order: depth first as written, a node's instance
    triple, then its incoming edge, then its branches one by one."""
    out: list[Raw] = []

    def walk(node: Any, parent: str, role: str) -> None:
        var, branches = node
        concept = next((t for r, t in branches if r == "/"), None)
        out.append((var, ":instance", "" if concept is None else str(concept)))
        out.append((parent, role, var))
        for r, t in branches:
            if r == "/":
                continue
            if isinstance(t, tuple):
                walk(t, var, r)
            else:
                out.append((var, r, str(t)))

    walk(tree.node, "ROOT_OF_GRAPH", ":root")
    # a second ":root" is an edge named so in the graph, not the graph's root: Smatch++ renames it
    seen = False
    for k, (s, r, t) in enumerate(out):
        if r == ":root":
            if seen:
                out[k] = (s, ":root_but_not_the_graph_root", t)
            seen = True
    return out


def _var_concepts(triples: list[Raw]) -> dict[str, str]:
    return {s: t for s, r, t in triples if r == ":instance"}


def _relabel(triples: list[Raw], names: dict[str, str] | None = None) -> list[Raw]:
    """Variables renamed after their concepts' first letters, never equal to a constant or a concept (``names``,
    when given, receives each new name's old one)."""
    v2c = _var_concepts(triples)
    constants = set(v2c.values())
    for s, r, t in triples:
        if r != ":instance":
            constants.update(x for x in (s, t) if x not in v2c)
    new: dict[str, str] = {}
    used: dict[str, int] = {}
    for v, c in v2c.items():
        name = c[:1]
        n = used.get(name, 0)
        new[v] = name if n == 0 else f"{name}{n}"
        used[name] = n + 1
    for v, name in new.items():
        while name in constants:
            name += "x"
        new[v] = name
    if names is not None:
        names.update((n, v) for v, n in new.items())
    return [(new.get(s, s), r, t if r == ":instance" else new.get(t, t)) for s, r, t in triples]


def _deinvert(triples: list[Raw]) -> list[Raw]:
    out = []
    for s, r, t in triples:
        flips = 0
        while r.endswith("-of"):
            r, flips = r[:-3], flips + 1
        out.append((t, r, s) if flips % 2 else (s, r, t))
    return out


def _dereify(triples: list[Raw]) -> list[Raw]:
    """One pass of dereification (see the module's docstring); the graph read before any change."""
    v2c = _var_concepts(triples)
    targets = {t for _, _, t in triples}
    new: list[Raw] = []
    drop: set[int] = set()
    done: set[str] = set()
    for s, _, _ in triples:
        if s in done:
            continue
        done.add(s)
        rule = DEREIFY.get(v2c.get(s, ""))
        if rule is None or s in targets:
            continue
        role, first, second = rule
        found: dict[str, list[int]] = {first: [], second: []}
        other = 0
        instance = None
        for k, (s2, r2, _) in enumerate(triples):
            if s2 != s:
                continue
            if r2 == ":instance":
                instance = k if instance is None else instance
            elif r2 in found:
                found[r2].append(k)
            else:
                other += 1
        if other or len(found[first]) != 1 or len(found[second]) != 1 or instance is None:
            continue
        x, y = found[first][0], found[second][0]
        new.append((triples[x][2], role, triples[y][2]))
        drop.update((x, y, instance))
    return [t for k, t in enumerate(triples) if k not in drop] + new


def standardize(triples: list[Raw], how: str, names: dict[str, str] | None = None) -> list[Raw]:
    """Smatch++'s ``generic`` or ``amr`` standardization of raw triples (:func:`raw_triples`); ``names``, when
    given, receives the old (lower-cased, unquoted) name of each renamed variable."""
    if how not in STANDARDIZE:
        raise OptionError(f"unknown standardization {how!r}; expected one of {', '.join(STANDARDIZE)}")
    out = [(s.lower(), r.lower(), t.lower()) for s, r, t in triples]
    out = [tuple(x.replace('"', "").replace("'", "") for x in tr) for tr in out]  # type: ignore[misc]
    out = _relabel(out, names)
    if how == "amr":
        out = [(s, {":domain": ":mod-of", ":domain-of": ":mod"}.get(r, r), t) for s, r, t in out]
    out = _deinvert(out)
    if how == "generic":
        return out
    v2c = _var_concepts(out)
    for k, (_, r, t) in enumerate(out):
        if r == ":root":
            out[k] = (t, ":root", v2c.get(t, ""))
            break
    out = _dereify(out)
    return list(dict.fromkeys(out))


def standardized_triples(graph: Any, how: str, *, where: str = "graph") -> list[tuple[str, Any, Any]]:
    """The standardized triples of a graph as ``(relation, source, target)``, variables as
    :class:`~accord.structured._latent.Var` named as in the graph (a list: ``generic`` keeps duplicates)."""
    from ._amr_read import _tree

    tree = _tree(graph, where)
    raw = raw_triples(tree)
    seen: set[str] = set()
    for s, r, t in raw:
        if r == ":instance":
            if not t:
                raise FormatError(f"{where}: node {s!r} has no concept (expected '({s} / concept ...)')")
            if s in seen:
                raise FormatError(f"{where}: variable {s!r} is defined twice")
            seen.add(s)
    names: dict[str, str] = {}
    out = standardize(raw, how, names)
    written: dict[str, str] = {}
    for s, r, _ in raw:
        if r == ":instance":
            written.setdefault(s.lower().replace('"', "").replace("'", ""), s)

    def var(name: str) -> Var:
        old = names.get(name, name)
        return Var(written.get(old, old))

    variables = set(_var_concepts(out))
    return [(r, var(s) if s in variables else s, var(t) if r != ":instance" and t in variables else t)
            for s, r, t in out]
