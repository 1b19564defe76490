"""The fine-grained AMR scores of Damonte et al. (2017), as the published ``amr-evaluation`` scripts compute them.

Nine aspects, each counts ``(match, gold, pred)`` per graph pair, summed over the corpus (micro), so that each is a
measure of one result:

``smatch``
    Smatch on the triples of the smatch version those scripts ship: ``TOP(root, root concept)`` (so the top triple
    needs the root's concept too), a role ``X-of`` to a node turned round as ``X`` (no exception), a role ``X-of`` to a
    constant dropped, ``:mod`` and ``:domain`` as written, repeated triples counted each time.
``unlabeled``
    the same after every role name is replaced by ``label`` (the scripts' ``sed 's/:[a-zA-Z0-9-]*/:label/g'``, also
    inside constants such as times, so ``:ARG0-of`` keeps its written direction).
``no_wsd``
    the same after every concept's sense is replaced by ``-01`` (``want-02`` as ``want-01``).
``concepts``, ``named_entities``, ``negations``, ``wikification``
    multisets compared by their intersection: every concept; the concept of each node with a ``:name``; of each node
    with a ``:polarity``; each ``:wiki`` value (role names and concepts as written: case counts).
``reentrancies``, ``srl``
    Smatch of sub-graphs: every edge into a node with two or more incoming edges, or every ``:ARG``\\ *n* edge, with the
    concepts of the nodes they touch and a top triple on the first of them.

The variable mapping is accord's exact ILP where the scripts climb hills (five restarts): the counts are the optimum,
never below theirs, equal to theirs on the Little Prince test set against the JAMR and CAMR parses.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ._latent import LATENT, Var, latent_match
from ._similarity import exact, func

__all__ = ["ASPECTS", "ASPECT_NAMES", "FineScore", "fine_grained", "fine_grained_corpus"]

ASPECTS = ("smatch", "unlabeled", "no_wsd", "concepts", "named_entities", "negations", "wikification",
           "reentrancies", "srl")
"""The nine aspects, in the order the scripts print them."""

ASPECT_NAMES = {"smatch": "Smatch", "unlabeled": "Unlabeled", "no_wsd": "No WSD", "concepts": "Concepts",
                "named_entities": "Named Ent.", "negations": "Negations", "wikification": "Wikification",
                "reentrancies": "Reentrancies", "srl": "SRL"}
"""Each aspect's name in the scripts' output."""

_FIELDS = (exact, LATENT, LATENT)
_COUNTED = (exact, LATENT, LATENT, func(lambda a, b: float(a * b), normalized=False))
_LABEL = re.compile(r":[a-zA-Z0-9-]*")
_SENSE = re.compile(r"^([a-zA-Z0-9-][a-zA-Z0-9-]*)-[0-9][0-9]*")

Triple = tuple[str, Any, Any]


@dataclass(frozen=True)
class _Parsed:
    """A graph as the scripts' smatch parser leaves it: nodes in order (variable, concept), attributes
    ``(role, node, value)`` and relations ``(role, node, node)``, each grouped by their node in node order,
    roles without their colon and in their written case."""

    nodes: list[tuple[str, str]]
    attributes: list[tuple[str, str, str]]
    relations: list[tuple[str, str, str]]


def _parse(tree: Any, where: str, *, unlabel: bool = False) -> _Parsed:
    """Read a ``penman.Tree`` as the scripts' parser reads its text (``unlabel``: after their ``sed`` has made every
    ``:name`` ``:label``). That parser turns an ``X-of`` edge round as ``X`` when it opens a node or ends the
    node it is written in (a ``)`` follows), and keeps it as written (``X-of``) when another role follows; an
    ``X-of`` turned round onto a constant is lost. An edge to a node whose concept comes later in the text is
    listed after its node's other relations."""
    from ..errors import FormatError

    nodes: list[tuple[str, str]] = []
    seen: set[str] = set()
    known: dict[str, list[tuple[str, str]]] = {}
    later: dict[str, list[tuple[str, str]]] = {}

    def label(text: str) -> str:
        return _LABEL.sub(":label", text) if unlabel else text

    def walk(node: Any) -> None:
        var, branches = node
        concept = next((t for r, t in branches if r == "/"), None)
        if concept is None:
            raise FormatError(f"{where}: node {var!r} has no concept (expected '({var} / concept ...)')")
        if var in seen:
            raise FormatError(f"{where}: variable {var!r} is defined twice")
        nodes.append((var, str(concept)))
        seen.add(var)
        edges = [(r, t) for r, t in branches if r != "/"]
        for k, (r, t) in enumerate(edges):
            role = label(r)[1:]
            if isinstance(t, tuple):
                if role.endswith("-of"):
                    known.setdefault(t[0], []).append((role[:-3], var))
                else:
                    known.setdefault(var, []).append((role, t[0]))
                walk(t)
                continue
            value = _constant(label(str(t)))
            if k == len(edges) - 1 and role.endswith("-of"):
                known.setdefault(value, []).append((role[:-3], var))
            elif value in seen:
                known.setdefault(var, []).append((role, value))
            else:
                later.setdefault(var, []).append((role, value))

    walk(tree.node)
    attributes, relations = [], []
    for v, _ in nodes:
        relations += [(r, v, w) for r, w in known.get(v, ())]
        relations += [(r, v, w) for r, w in later.get(v, ()) if w in seen]
        attributes += [(r, v, w) for r, w in later.get(v, ()) if w not in seen]
    return _Parsed(nodes, attributes, relations)


def _norm(s: str) -> str:
    return s.lower().rstrip("_")


def _constant(value: str) -> str:
    """A constant as the scripts' parser reads it: a quoted string without its quotes, a ``_`` for the closing one,
    cut at its first space."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1] + "_"
    parts = value.split()
    return parts[0] if parts else value


def _sense(concept: str) -> str:
    return _SENSE.sub(r"\1-01", concept, count=1)


def _smatch_triples(p: _Parsed, *, no_wsd: bool = False) -> list[Triple]:
    """The scripts' smatch triples (see the module's docstring)."""
    def concept(c: str) -> str:
        return _norm(_sense(c) if no_wsd else c)

    out: list[Triple] = [("instance", Var(v), concept(c)) for v, c in p.nodes]
    out.append(("top", Var(p.nodes[0][0]), concept(p.nodes[0][1])))
    out += [(_norm(r), Var(v), _norm(w)) for r, v, w in p.attributes]
    out += [(_norm(r), Var(v), Var(w)) for r, v, w in p.relations]
    return out


def _script_triples(p: _Parsed) -> list[tuple[str, str, str]]:
    """``scores.py``'s list: the attributes (the top one after the first node's), then the relations, each
    ``X-of`` turned round."""
    root = p.nodes[0][0]
    first = [a for a in p.attributes if a[1] == root]
    rest = [a for a in p.attributes if a[1] != root]
    out = []
    for r, v, w in first + [("TOP", root, p.nodes[0][1])] + rest + p.relations:
        out.append((r[:-3], w, v) if r.endswith("-of") else (r, v, w))
    return out


def _sub_triples(p: _Parsed, chosen: list[tuple[str, str, str]]) -> list[Triple]:
    """A sub-graph of chosen triples as the scripts score it (``smatch_fromlists.parse_relations``): the concepts
    of the nodes the triples touch, in the order they first appear, the triples whose source is one of them, and a
    top triple on the first node with its concept."""
    concept = {v: c for v, c in p.nodes if any(v in (s, t) for _, s, t in chosen)}
    order: list[str] = []
    for _, s, t in chosen:
        for v in (s, t):
            if v in concept and v not in order:
                order.append(v)
    out: list[Triple] = [("instance", Var(v), _norm(concept[v])) for v in order]
    for r, s, t in chosen:
        if s in concept:
            out.append((_norm(r), Var(s), Var(t) if t in concept else _norm(t)))
    if order:
        out.append(("top", Var(order[0]), _norm(concept[order[0]])))
    return out


def _reentrant(p: _Parsed) -> list[tuple[str, str, str]]:
    triples = _script_triples(p)
    out = []
    for v, _ in p.nodes:
        parents = [t for t in triples if t[2] == v]
        if len(parents) > 1:
            out += parents
    return out


def _srl(p: _Parsed) -> list[tuple[str, str, str]]:
    return [(r[:-3], t, s) if r.endswith("of") else (r, s, t) for r, s, t in _script_triples(p)
            if r.startswith("ARG")]


def _multiset(p: _Parsed, aspect: str) -> Counter[str]:
    concept = dict(p.nodes)
    triples = _script_triples(p)
    if aspect == "concepts":
        return Counter(c for _, c in p.nodes)
    if aspect == "named_entities":
        return Counter(concept.get(s, s) for r, s, _ in triples if r == "name")
    if aspect == "negations":
        return Counter(concept.get(s, s) for r, s, _ in triples if r == "polarity")
    return Counter(t for r, _, t in triples if r == "wiki")


def _match(test: list[Triple], gold: list[Triple], time_limit: float | None = None) -> tuple[int, int, int, bool]:
    """The best count over variable mappings, as the scripts' smatch counts a mapping: every pair of equal
    triples, so a triple written twice on both sides counts four times; last, whether the time limit stopped the
    integer program."""
    t, g = Counter(test), Counter(gold)
    if max(t.values(), default=1) == 1 and max(g.values(), default=1) == 1:
        res = latent_match(sorted(t, key=repr), sorted(g, key=repr), _FIELDS, constraint="1:1",
                           time_limit=time_limit)
    else:
        res = latent_match(sorted(((*k, n) for k, n in t.items()), key=repr),
                           sorted(((*k, n) for k, n in g.items()), key=repr), _COUNTED, constraint="1:1",
                           time_limit=time_limit)
    return int(round(res.score)), len(gold), len(test), res.bound is not None


@dataclass(frozen=True)
class FineScore:
    """Counts ``(match, gold, pred)`` of every aspect for one pair (``by_pair`` empty) or a corpus."""

    counts: dict[str, tuple[int, int, int]]
    by_pair: tuple[FineScore, ...] = ()
    stopped: tuple[str, ...] = ()
    """The aspects whose integer program the time limit stopped (on this pair, or on any pair of a corpus)."""

    def f1(self, aspect: str) -> float:
        m, g, p = self.counts[aspect]
        return 2 * m / (g + p) if g and p else 0.0


def fine_grained(test: Any, gold: Any, *, time_limit: float | None = None) -> FineScore:
    """The nine aspects of one graph pair (PENMAN strings, ``penman.Tree`` or ``penman.Graph``); ``time_limit``:
    seconds each integer program may run."""
    from ._amr_read import _tree

    trees = _tree(test, "test graph"), _tree(gold, "gold graph")
    t, g = (_parse(x, w) for x, w in zip(trees, ("test graph", "gold graph")))
    tl, gl = (_parse(x, w, unlabel=True) for x, w in zip(trees, ("test graph", "gold graph")))
    solved = {
        "smatch": _match(_smatch_triples(t), _smatch_triples(g), time_limit),
        "unlabeled": _match(_smatch_triples(tl), _smatch_triples(gl), time_limit),
        "no_wsd": _match(_smatch_triples(t, no_wsd=True), _smatch_triples(g, no_wsd=True), time_limit),
        "reentrancies": _match(_sub_triples(t, _reentrant(t)), _sub_triples(g, _reentrant(g)), time_limit),
        "srl": _match(_sub_triples(t, _srl(t)), _sub_triples(g, _srl(g)), time_limit),
    }
    counts: dict[str, tuple[int, int, int]] = {a: v[:3] for a, v in solved.items()}
    for aspect in ("concepts", "named_entities", "negations", "wikification"):
        a, b = _multiset(t, aspect), _multiset(g, aspect)
        counts[aspect] = (sum((a & b).values()), sum(b.values()), sum(a.values()))
    stopped = tuple(a for a in ASPECTS if a in solved and solved[a][3])
    return FineScore({a: counts[a] for a in ASPECTS}, stopped=stopped)


def fine_grained_corpus(tests: Sequence[Any], golds: Sequence[Any], *,
                        time_limit: float | None = None) -> FineScore:
    """The nine aspects over graphs paired in order: counts summed over the pairs."""
    from .._support.progress import track

    pairs = tuple(fine_grained(t, g, time_limit=time_limit)
                  for t, g in track(zip(tests, golds), "fine-grained pairs", len(tests)))
    total = {a: (sum(p.counts[a][0] for p in pairs), sum(p.counts[a][1] for p in pairs),
                 sum(p.counts[a][2] for p in pairs)) for a in ASPECTS}
    stopped = tuple(a for a in ASPECTS if any(a in p.stopped for p in pairs))
    return FineScore(total, pairs, stopped)
