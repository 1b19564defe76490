"""Smatch: AMR graphs compared as sets of triples under the best variable mapping, solved exactly.

Triples follow smatch 1.0.4's conventions:

* one ``instance(v, concept)`` per node, one ``top(root, "top")`` for the root;
* an edge to another node is a relation triple; a role ``:X-of`` is stored inverted as
  ``X(target, source)`` (except ``prep-on-behalf-of``, ``prep-out-of`` and ``consist-of``,
  which are role names in their own right), and ``:mod`` as ``domain(target, source)``, the
  two rules applied one after the other, so that ``:mod-of`` is ``domain(source, target)``
  (smatch 1.0.4 stores it as ``mod(target, source)``, which no ``:mod`` edge matches);
* an edge to anything that is not a node is an attribute triple ``X(v, constant)``, the
  constant without its double quotes;
* concepts, role names and constants are compared lower-cased, trailing ``_`` removed.

Where accord differs from smatch 1.0.4, on purpose:

* **duplicate triples count once** (a graph is a *set* of triples). smatch counts a repeated
  triple on each side, so a graph with a repeated edge can score above 1 against itself;
* an inverted role or ``:mod`` pointing at a constant is kept as written (smatch 1.0.4
  loses the triple);
* the mapping is the optimum of an integer linear program (appendix A.1 of the
  specification), so the score never depends on random restarts and is never below
  smatch's hill-climbing result.

``precision = match / test_triples``, ``recall = match / gold_triples``,
``f1 = 2PR / (P + R)``; all three are 0 when either graph has no triple, as in smatch.
A corpus score sums ``match``, ``test_triples`` and ``gold_triples`` over the pairs first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..errors import FormatError, OptionError
from ._amr_read import _no_target, _penman_log, _short, _tree
from ._latent import LATENT, Var, latent_match
from ._similarity import exact

__all__ = ["SmatchScore", "amr_triples", "smatch", "smatch_corpus", "read_amr"]

_INVERSE_EXCEPTIONS = frozenset({"prep-on-behalf-of", "prep-out-of", "consist-of"})
_FIELDS = (exact, LATENT, LATENT)

Triple = tuple[str, Any, Any]


def _norm(s: str) -> str:
    return s.lower().rstrip("_")


class SmatchScore:
    """Smatch counts and rates for one graph pair or a corpus.

    Immutable; two scores are equal when their ``match``, ``test_triples`` and ``gold_triples`` are (a plain class
    rather than a dataclass: :mod:`dataclasses` imports :mod:`inspect`, a sizeable part of a short ``accord smatch``).

    Attributes
    ----------
    match, test_triples, gold_triples : int
        The triples matched under the best mapping, and those of each graph.
    mapping : dict of str to str
        The variable mapping (test variable -> gold variable).
    by_pair : tuple of SmatchScore
        Each pair's score, for a corpus.
    bound : int or None
        ``None`` when ``match`` is the optimum; else (the ILP stopped by its time limit, on this pair or on some pair
        of a corpus) the most triples the best mapping could match: the optimum lies in ``[match, bound]``.
    """

    __slots__ = ("match", "test_triples", "gold_triples", "mapping", "by_pair", "bound")
    match: int
    test_triples: int
    gold_triples: int
    mapping: dict[str, str]
    by_pair: tuple[SmatchScore, ...]
    bound: int | None

    def __init__(self, match: int, test_triples: int, gold_triples: int, mapping: dict[str, str] | None = None,
                 by_pair: tuple[SmatchScore, ...] = (), bound: int | None = None) -> None:
        for name, value in (("match", match), ("test_triples", test_triples), ("gold_triples", gold_triples),
                            ("mapping", {} if mapping is None else mapping), ("by_pair", by_pair), ("bound", bound)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a SmatchScore is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: a SmatchScore is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (SmatchScore, (self.match, self.test_triples, self.gold_triples, self.mapping, self.by_pair,
                              self.bound))

    def _key(self) -> tuple[int, int, int]:
        return (self.match, self.test_triples, self.gold_triples)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"SmatchScore(match={self.match!r}, test_triples={self.test_triples!r}, "
                f"gold_triples={self.gold_triples!r}, mapping={self.mapping!r}, bound={self.bound!r})")

    @property
    def gap(self) -> int:
        """``bound - match``: the triples the time limit may have cost (0 when the optimum was proved)."""
        return 0 if self.bound is None else self.bound - self.match

    @property
    def precision(self) -> float:
        return self.match / self.test_triples if self.test_triples and self.gold_triples else 0.0

    @property
    def recall(self) -> float:
        return self.match / self.gold_triples if self.test_triples and self.gold_triples else 0.0

    @property
    def f1(self) -> float:
        """``2 match / (test + gold)``, one division of the counts (equal to ``2PR / (P + R)``)."""
        if not self.test_triples or not self.gold_triples:
            return 0.0
        return 2 * self.match / (self.gold_triples + self.test_triples)

    def to_dict(self) -> dict[str, float]:
        return {"precision": self.precision, "recall": self.recall, "f1": self.f1, "match": self.match,
                "test_triples": self.test_triples, "gold_triples": self.gold_triples}


def amr_triples(graph: Any, *, where: str = "graph") -> set[Triple]:
    """The smatch triples of a graph (PENMAN text, ``penman.Tree`` or ``penman.Graph``), as a set.

    Variables are :class:`~accord.structured._latent.Var`; everything else is a string.
    """
    tree = _tree(graph, where)
    nodes: dict[str, str] = {}
    stack = [tree.node]
    while stack:
        var, branches = stack.pop()
        concepts = [t for r, t in branches if r == "/"]
        if not concepts or concepts[0] is None:
            raise FormatError(f"{where}: node {var!r} has no concept (expected '({var} / concept ...)')")
        if var in nodes:
            raise FormatError(f"{where}: variable {var!r} is defined twice")
        nodes[var] = concepts[0]
        stack.extend(t for r, t in branches if r != "/" and isinstance(t, tuple))
    triples: set[Triple] = set()
    root = tree.node[0]
    triples.add(("top", Var(root), "top"))
    stack = [tree.node]
    while stack:
        var, branches = stack.pop()
        triples.add(("instance", Var(var), _norm(nodes[var])))
        for role, target in branches:
            if role == "/":
                continue
            r = _norm(role.lstrip(":"))
            if isinstance(target, tuple):
                stack.append(target)
                target_var: str | None = target[0]
            else:
                target_var = target if target in nodes else None
            if target_var is None:
                value = str(target)
                if len(value) >= 2 and value[0] == value[-1] == '"':
                    value = value[1:-1]
                triples.add((r, Var(var), _norm(value)))
            else:
                triples.add(_canonical(r, Var(var), Var(target_var)))
    return triples


def _canonical(role: str, source: Var, target: Var) -> Triple:
    """One triple for every spelling of an edge between nodes: an inverted role ``X-of`` is ``X`` with its ends
    swapped (except the roles named with ``-of``), then ``mod`` is ``domain`` with its ends swapped. So ``a :mod b``,
    ``b :mod-of a`` and ``b :domain a`` are all ``domain(b, a)``."""
    if role.endswith("-of") and role not in _INVERSE_EXCEPTIONS:
        role, source, target = role[:-3], target, source
    if role == "mod":
        role, source, target = "domain", target, source
    return (role, source, target)


def smatch(test: Any, gold: Any, *, standardize: str | bool | None = None,
           time_limit: float | None = None) -> SmatchScore:
    """Smatch of a test graph against a gold graph, with the optimal variable mapping.

    Parameters
    ----------
    test, gold : str or penman.Tree or penman.Graph
        PENMAN notation or parsed graphs.
    standardize : {None, "amr", "generic"} or bool
        Smatch++'s standardization of both graphs first (:mod:`accord.structured._amr_standardize`; ``True`` is
        ``"amr"``, its AMR default); ``None`` (or ``False``): smatch 1.0.4's triples.
    time_limit : float, optional
        Seconds the integer program may run on this pair; stopped there, the score holds the best mapping found
        and ``bound``, the most triples any mapping could match.

    Returns
    -------
    SmatchScore
        ``precision``, ``recall``, ``f1``, ``match``, ``test_triples``, ``gold_triples``
        and the variable ``mapping`` (test variable -> gold variable).
    """
    how = _standardization(standardize)
    if how is None:
        t = sorted(amr_triples(test, where="test graph"), key=repr)
        g = sorted(amr_triples(gold, where="gold graph"), key=repr)
    else:
        from ._amr_standardize import standardized_triples

        t = sorted(standardized_triples(test, how, where="test graph"), key=repr)
        g = sorted(standardized_triples(gold, how, where="gold graph"), key=repr)
    res = latent_match(t, g, _FIELDS, constraint="1:1", time_limit=time_limit)
    bound = None if res.bound is None else min(int(res.bound + 1e-6), len(t), len(g))   # a triple matches once
    return SmatchScore(int(round(res.score)), len(t), len(g), res.mapping, bound=bound)


def _standardization(standardize: str | bool | None) -> str | None:
    if standardize is None or standardize is False:
        return None
    if standardize is True:
        return "amr"
    from ._amr_standardize import STANDARDIZE

    if standardize not in STANDARDIZE:
        raise OptionError(f"unknown standardization {standardize!r}; expected one of {', '.join(STANDARDIZE)}")
    return standardize


def smatch_corpus(tests: Iterable[Any], golds: Iterable[Any], *, standardize: str | bool | None = None,
                  time_limit: float | None = None) -> SmatchScore:
    """Smatch over aligned lists of graphs: counts summed over the pairs, then divided (``standardize`` and
    ``time_limit``, per pair: as :func:`smatch`)."""
    tests, golds = list(tests), list(golds)
    if len(tests) != len(golds):
        raise OptionError(f"{len(tests)} test graphs but {len(golds)} gold graphs; they pair in order")
    from .._support.progress import track

    _standardization(standardize)
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0):
        raise OptionError(f"the time limit must be a positive number of seconds; got {time_limit!r}")
    scores = tuple(smatch(t, g, standardize=standardize, time_limit=time_limit)
                   for t, g in track(zip(tests, golds), "Smatch pairs", len(tests)))
    stopped = any(s.bound is not None for s in scores)
    bound = sum(s.match if s.bound is None else s.bound for s in scores) if stopped else None
    return SmatchScore(sum(s.match for s in scores), sum(s.test_triples for s in scores),
                       sum(s.gold_triples for s in scores), by_pair=scores, bound=bound)


MAX_DEPTH = 200
"""Deepest nesting of nodes accepted in a PENMAN graph (real AMR graphs stay far below it)."""

_PARENTHESIS = re.compile(r"[()]")

def _check_depth(text: str, p: Any) -> None:
    """Refuse graphs nested deeper than :data:`MAX_DEPTH` before the (recursive) PENMAN parser sees them."""
    if text.count("(") <= MAX_DEPTH:
        return
    # blank out comment lines and quoted constants, then follow the depth from parenthesis to parenthesis (the
    # first place of the greatest depth is the one named)
    blank = re.sub(r'(?m)^\s*#.*$|"(?:[^"\\]|\\.)*"', lambda m: " " * len(m.group()), text)
    depth = deepest = 0
    at = -1
    for m in _PARENTHESIS.finditer(blank):
        if m.group() == "(":
            depth += 1
            if depth > deepest:
                deepest, at = depth, m.start()
        else:
            depth -= 1
    if deepest > MAX_DEPTH:
        line = text.count("\n", 0, at) + 1
        raise FormatError(f"a graph nests nodes more than {MAX_DEPTH} deep (or its parentheses do not balance) "
                          f"at line {line}", path=p)


def read_amr(path: Any, *, plain: bool = False) -> list[Any]:
    """The graphs of a PENMAN file (blank-line separated, ``#`` comment lines allowed), as ``penman.Tree``.

    A file holding no graph, a graph that is not PENMAN notation and a graph nested deeper
    than :data:`MAX_DEPTH` are :class:`~accord.errors.FormatError` naming the file and line.
    With ``plain=True``, a file of plain graphs (:mod:`._amr_fast`) gives
    :class:`~accord.structured._amr_fast.PlainTree` objects instead, without importing penman (what
    :func:`amr_triples` reads of a tree; Smatch++'s standardization and the fine-grained aspects need penman's).
    """
    from pathlib import Path

    from .._support.io import read_text

    p = Path(path)
    text = read_text(p)
    if not any(line.strip() and not line.lstrip().startswith("#") for line in text.splitlines()):
        raise FormatError(_NO_GRAPH, path=p)
    _check_depth(text, p)
    from ._amr_fast import iterparse_plain

    trees = iterparse_plain(text, penman_trees=not plain)   # plain graphs read without penman's lexer (same trees)
    if trees:
        return trees
    import penman

    try:
        with _penman_log() as log:
            trees = list(penman.iterparse(text))
    except penman.DecodeError as exc:
        where = f"line {exc.lineno}, column {exc.offset}: " if getattr(exc, "lineno", None) else ""
        raise FormatError(f"not PENMAN notation: {where}{getattr(exc, 'message', None) or exc}", path=p) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise FormatError(f"a graph nests nodes too deeply (at most {MAX_DEPTH})", path=p) from None
    line = _no_target(log)
    if line is not None:
        lines = text.splitlines()
        at = lines.index(line) + 1 if line in lines else None
        raise FormatError(f"not PENMAN notation: a role without a target in {_short(line)!r}", path=p,
                          line=at)
    if not trees:
        raise FormatError(_NO_GRAPH, path=p)
    return trees


_NO_GRAPH = ("no PENMAN graph in this file (expected graphs such as '(w / want-01 :ARG0 (b / boy))', separated by "
             "blank lines)")
