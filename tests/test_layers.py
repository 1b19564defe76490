"""The layers' import contracts of pyproject.toml ([tool.importlinter]) hold: the layers from the command line down
to the model (no module imports one of a layer above it), readers import no mode, the pipeline's stages import no
mode, the sharded runner never imports the scoring it runs, no cycle among a package's modules. A new upward import
fails here; the captured output names the chain of imports."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    """Run as its own process: import-linter's command line, run inside the test process, took the process's
    standard error with it when a contract broke, and the rest of the suite did not run."""
    pytest.importorskip("importlinter", reason="import-linter is in the test extra")
    import os
    import subprocess

    import tomllib

    code = ("import sys; from importlinter.cli import lint_imports; "
            "sys.exit(lint_imports(config_filename='pyproject.toml', no_cache=True, no_logo=True))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "src"),
                                                                     os.environ.get("PYTHONPATH")]))}
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600,
                         env=env)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert f"{len(contracts)} kept, 0 broken" in out


def test_no_module_imports_itself_back():
    """No circle of imports between accord's modules (imports for type checking only left out): each module can be
    read, and moved, after the ones it imports."""
    grimp = pytest.importorskip("grimp", reason="grimp comes with import-linter (the test extra)")
    import sys as _sys

    _sys.path.insert(0, str(ROOT / "src"))
    try:
        graph = grimp.build_graph("accord", cache_dir=None, exclude_type_checking_imports=True)
    finally:
        _sys.path.remove(str(ROOT / "src"))
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    circles = _strongly_connected(edges)
    assert not circles, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in circles)


def _strongly_connected(edges: dict[str, set[str]]) -> list[set[str]]:
    """The components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[set[str]] = []
    counter = 0
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1:
                    out.append(component)
    return out


def test_the_circle_finder_finds_a_circle():
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _strongly_connected(edges) == [{"a", "b", "c"}]
