"""PENMAN text read into ``penman.Tree`` objects quickly, for the plain graphs that make up AMR files.

penman's parser lexes a graph line by line into token objects and logs as it goes; Smatch spends a third of its
time there on short graphs. :func:`parse_plain` and :func:`iterparse_plain` read the common shape of an AMR file
(comment lines starting with ``#``, then a graph: nodes ``(var / concept role target ...)``, targets that are
symbols, double-quoted strings on one line, or nodes) with one regular expression and a small descent, and build
the same trees, metadata included (a comment's ``::key value`` fields, the rightmost read first, so that the first
of a repeated key wins, as penman keeps them). Anything else (a ``#`` or ``~`` inside a graph, a node without a
concept, a role without a target, a quote that does not close on its line, text after the graph) returns ``None``
and the caller hands the text to penman, which reads it or names the fault as before.
"""

from __future__ import annotations

import re
from typing import Any

__all__: list[str] = []

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\[^\n])*"|[()/]|:[^ \t\r\n\v\f"()/:~]*|[^ \t\r\n\v\f"()/:~]+|["~]')
"""The tokens: a string closed on its line, a parenthesis or slash, a role, a symbol, or a stray quote or tilde (every
character but penman's white space, the space, tab, line breaks, vertical tab and form feed, is in one)."""
_KIND = {"(": "o", ")": "c", "/": "sl", ":": "r"}


class _Unsure(Exception):
    """The text is not of the plain shape: penman reads it."""


def _tokens(text: str) -> list[tuple[str, str]]:
    out = []
    for token in _TOKEN.findall(text):
        first = token[0]
        if first == '"':
            if len(token) == 1:
                raise _Unsure
            out.append(("s", token))
        elif first == "~":
            raise _Unsure
        else:
            out.append((_KIND.get(first, "y"), token))
    return out


def _node(tokens: list[tuple[str, str]], at: int) -> tuple[tuple[str, list[tuple[str, Any]]], int]:
    """The node starting at ``tokens[at]`` (an opening parenthesis) and the index after it."""
    n = len(tokens)
    if at + 3 >= n or tokens[at][0] != "o" or tokens[at + 1][0] != "y" or tokens[at + 2][0] != "sl" \
            or tokens[at + 3][0] not in ("y", "s"):
        raise _Unsure
    var = tokens[at + 1][1]
    edges: list[tuple[str, Any]] = [("/", tokens[at + 3][1])]
    at += 4
    while True:
        if at >= n:
            raise _Unsure
        kind, text = tokens[at]
        if kind == "c":
            return (var, edges), at + 1
        if kind != "r" or at + 1 >= n:
            raise _Unsure
        target_kind = tokens[at + 1][0]
        if target_kind in ("y", "s"):
            edges.append((text, tokens[at + 1][1]))
            at += 2
        elif target_kind == "o":
            child, at = _node(tokens, at + 1)
            edges.append((text, child))
        else:
            raise _Unsure


class PlainTree:
    """A tree read by :func:`iterparse_plain` without penman: the ``node`` and ``metadata`` of the
    ``penman.Tree`` it stands for (all that Smatch's triples read, :func:`accord.structured.amr.amr_triples`);
    :meth:`penman_tree` gives that tree."""

    __slots__ = ("node", "metadata")

    def __init__(self, node: Any, metadata: dict[str, str] | None = None):
        self.node = node
        self.metadata = metadata or {}

    def penman_tree(self) -> Any:
        from penman.tree import Tree

        return Tree(self.node, metadata=self.metadata)


def parse_plain(text: str) -> Any:
    """``penman.parse(text)`` for a plain graph (see the module), else None."""
    if "#" in text or "~" in text:
        return None
    try:
        tokens = _tokens(text)
        node, end = _node(tokens, 0)
    except (_Unsure, RecursionError):
        return None
    if end != len(tokens):
        return None
    from penman.tree import Tree

    return Tree(node)


def _metadata(comments: list[str]) -> dict[str, str]:
    """The ``::key value`` fields of a graph's comment lines: within a line from the right, later lines over
    earlier ones (penman's reading)."""
    meta: dict[str, str] = {}
    for comment in comments:
        fields = comment.split("::")
        for field in reversed(fields[1:]):
            key, _, value = field.partition(" ")
            meta[key] = value.rstrip()
    return meta


def iterparse_plain(text: str, penman_trees: bool = True) -> list[Any] | None:
    """``list(penman.iterparse(text))`` for a file of plain graphs each after its comment lines, else None; with
    ``penman_trees=False``, :class:`PlainTree` objects (penman is not imported)."""
    if penman_trees:
        from penman.tree import Tree
    else:
        Tree = PlainTree    # noqa: N806 - the class of the trees made

    trees = []
    comments: list[str] = []
    block: list[str] = []
    depth = 0
    try:
        for line in text.splitlines():
            stripped = line.lstrip(" \t\r\v\f")
            if not block and stripped.startswith("#"):
                comments.append(stripped.rstrip("\n"))
                continue
            if "#" in line or "~" in line:
                return None
            if not block and not stripped.strip():
                continue
            block.append(line)
            depth += line.count("(") - line.count(")") if '"' not in line else _depth(line)
            if depth < 0:
                return None
            if depth == 0:
                tokens = _tokens("\n".join(block))
                node, end = _node(tokens, 0)
                if end != len(tokens):
                    return None
                trees.append(Tree(node, metadata=_metadata(comments)))
                comments, block = [], []
    except (_Unsure, RecursionError):
        return None
    if block or comments:
        return None
    return trees


def _depth(line: str) -> int:
    """Opening minus closing parentheses of a line, outside its double-quoted strings."""
    return sum(1 if kind == "o" else -1 for kind, _ in _tokens(line) if kind in ("o", "c"))
