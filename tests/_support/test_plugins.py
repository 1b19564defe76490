"""accord._support.plugins: a task file names code that runs only where the user enabled it."""

import json
import sys
import textwrap

import pytest

import accord
from accord._support.plugins import enabled_plugins, register_method, resolve_method, unregister_method
from accord.cli import main
from accord.errors import PluginError

TEXT = "John Smith went to Paris and Rome"
TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/><annotation label='LOCATION'/>
</annotation_set_descriptor></annotation_set_descriptors>
<score_profile><partition_decomposition method='{method}' true_labels='LOCATION'/></score_profile>
</task>"""


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A module on sys.path whose import leaves a mark file, and gold and predicted files with a task naming it."""
    name = f"accord_test_plugin_{tmp_path.name.replace('-', '_')}"
    mark = tmp_path / "imported"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""
        import pathlib
        pathlib.Path({str(mark)!r}).write_text("imported")

        def by_length(annotation, document):
            return "long" if annotation.end - annotation.start > 4 else "short"
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    spans = [("PERSON", 0, 10), ("LOCATION", 19, 24), ("LOCATION", 29, 33)]
    for side, kept in (("gold", spans), ("pred", spans[:2])):
        (tmp_path / f"{side}.jsonl").write_text(json.dumps({"id": "a", "text": TEXT, "annotations": [
            {"label": lbl, "start": s, "end": e} for lbl, s, e in kept]}) + "\n", encoding="utf-8")
    (tmp_path / "task.xml").write_text(TASK.format(method=f"{name}:by_length"), encoding="utf-8")
    yield name, mark, tmp_path
    sys.modules.pop(name, None)


def _argv(tmp_path, *extra):
    return ["score", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"), "--task", str(tmp_path / "task.xml"),
            "--output", "json", *extra]


def test_a_task_file_naming_a_module_imports_nothing(plugin, capsys):
    name, mark, tmp_path = plugin
    assert main(_argv(tmp_path)) == 2
    err = capsys.readouterr().err
    assert f"--plugins {name}" in err and "accord.register_method" in err and len(err.strip().splitlines()) == 1
    assert not mark.exists() and name not in sys.modules


def test_with_plugins_the_task_file_scores_as_before(plugin, capsys):
    name, mark, tmp_path = plugin
    assert main(_argv(tmp_path, "--plugins", name)) == 0
    assert mark.exists()
    rows = json.loads(capsys.readouterr().out)["decompositions"]["LOCATION"]
    # by hand: Paris (5 characters) found, Rome (4) missed
    assert rows[f"{name}:by_length=long"]["match"] == 1 and rows[f"{name}:by_length=short"]["missing"] == 1
    assert main(_argv(tmp_path)) == 2      # enabled for that run only


def test_a_registered_function_scores_without_any_import(plugin, capsys):
    name, mark, tmp_path = plugin
    accord.register_method(f"{name}:by_length", lambda a, d: "any")
    try:
        assert main(_argv(tmp_path)) == 0
    finally:
        unregister_method(f"{name}:by_length")
    assert not mark.exists()
    rows = json.loads(capsys.readouterr().out)["decompositions"]["LOCATION"]
    assert rows[f"{name}:by_length=any"]["gold"] == 2


@pytest.mark.parametrize("method", ["this:x", "os:system", "subprocess:call", "builtins:eval", "nonexistent:f",
                                    ":f", "a.b.c:d"])
def test_hostile_method_names_are_refused_before_any_import(method):
    before = set(sys.modules)
    with pytest.raises(PluginError, match="not enabled"):
        resolve_method(method, "partition method")
    assert set(sys.modules) == before


def test_plugins_that_cannot_be_imported_are_an_error():
    with pytest.raises(PluginError, match="--plugins no_such_module_here: cannot import it"):
        with enabled_plugins(["no_such_module_here"]):
            pass


def test_register_method_checks_its_arguments():
    with pytest.raises(PluginError):
        register_method("metadata:x", len)
    with pytest.raises(PluginError):
        register_method("m:f", 3)


@pytest.mark.parametrize("module", ["", ".x", "a..b", "x y"])
def test_plugins_that_are_not_module_names_are_an_error(module, capsys, plugin):
    _, _, tmp_path = plugin
    assert main(_argv(tmp_path, "--plugins", module)) == 2      # was exit 3 (an internal error)
    assert "not a module name" in capsys.readouterr().err


def test_a_plugin_failing_as_it_is_imported_is_an_error_naming_it(tmp_path, monkeypatch):
    (tmp_path / "accord_test_broken_plugin.py").write_text("raise RuntimeError('no licence key')\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError, match="accord_test_broken_plugin: importing it failed: RuntimeError: no licence"):
        with enabled_plugins(["accord_test_broken_plugin"]):
            pass
    sys.modules.pop("accord_test_broken_plugin", None)


def test_only_public_functions_of_an_enabled_module_are_named(plugin, capsys):
    """A task file may name the functions of a module enabled with --plugins, not its dunder attributes
    (``module:__class__`` was called as ``ModuleType(annotation, document)``)."""
    name, _, tmp_path = plugin
    (tmp_path / "task.xml").write_text(TASK.format(method=f"{name}:__class__"), encoding="utf-8")
    assert main(_argv(tmp_path, "--plugins", name)) == 2
    assert "not a public function name" in capsys.readouterr().err
