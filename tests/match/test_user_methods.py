"""User-defined dimension methods (MAT's <dimension method="module:function">, aggregator_method,
param_digester_method): enabled with --plugins only, scored as the manual describes the built-ins ("Each method returns
a value between 0 and 1, and this value is multiplied by the weight"), hand-counted."""

from __future__ import annotations

import json
import textwrap

import pytest

import accord
from accord._support.plugins import register_method, unregister_method
from accord.cli import main
from accord.errors import PluginError, ProfileError
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.model.schema import parse_task

TEXT = "John Smith went to Paris"
TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/>
<attribute name='nomtype' of_annotation='PERSON'/>
<attribute name='tags' of_annotation='PERSON' aggregation='set'/>
</annotation_set_descriptor></annotation_set_descriptors>
<similarity_profile><tag_profile true_labels='PERSON'>
  <dimension name='_label' weight='.2'/><dimension name='_span' weight='.6'/>
  <dimension name='{attr}' weight='.2' method='{method}'{extra}/>
</tag_profile></similarity_profile></task>"""


def corpora(gold_value: object, pred_value: object, attr: str = "nomtype") -> tuple[Corpus, Corpus]:
    return (Corpus([Document("a", (A("PERSON", 0, 10, {attr: gold_value}),), TEXT)]),
            Corpus([Document("a", (A("PERSON", 0, 10, {attr: pred_value}),), TEXT)]))


def similarity(task: str, gold_value: object, pred_value: object, attr: str = "nomtype") -> float:
    g, p = corpora(gold_value, pred_value, attr)
    report = accord.score(g, p, task=parse_task(task))
    (pair,) = report.alignments[0].pairs
    return pair.similarity


@pytest.fixture
def registered():
    names = []

    def register(name, fn):
        register_method(name, fn)
        names.append(name)
    yield register
    for name in names:
        unregister_method(name)


def test_a_user_method_is_weighted_like_a_built_in(registered):
    registered("mine:half", lambda r, h: 0.5)
    # (.2 * 1 (label) + .6 * 1 (span) + .2 * .5) / 1.0 = 0.9: a clash
    assert similarity(TASK.format(attr="nomtype", method="mine:half", extra=""), "NAM", "NOM") == pytest.approx(0.9)
    registered("mine:caseless", lambda r, h: float(str(r).lower() == str(h).lower()))
    task = TASK.format(attr="nomtype", method="mine:caseless", extra="")
    assert similarity(task, "NAM", "nam") == 1.0       # the user's equality: a match
    # the built-in equality: 'NAM' != 'nam', (.2 + .6 + 0) / 1.0
    assert similarity(TASK.format(attr="nomtype", method="equality", extra=""), "NAM", "nam") == pytest.approx(0.8)


def test_the_method_gets_the_values_and_the_dimension_parameters(registered):
    seen = []

    def method(r, h, **params):
        seen.append((r, h, params))
        return 1.0, None
    registered("mine:method", method)
    similarity(TASK.format(attr="nomtype", method="mine:method", extra=" floor='0.5'"), "NAM", None)
    assert seen == [("NAM", None, {"floor": "0.5"})]


def test_param_digester_and_aggregator(registered):
    registered("mine:digest", lambda params: {k: float(v) for k, v in params.items()})
    registered("mine:jaccard_floor", lambda r, h, floor: max(floor, len(r & h) / len(r | h)))
    registered("mine:aggregate", lambda r, h, method, **params: (method(frozenset(r), frozenset(h), **params),
                                                                  "setclash"))
    extra = " floor='0.25' param_digester_method='mine:digest' aggregator_method='mine:aggregate'"
    task = TASK.format(attr="tags", method="mine:jaccard_floor", extra=extra)
    # {a, b} against {b, c}: Jaccard 1/3 above the floor .25: (.2 + .6 + .2/3) / 1.0
    assert similarity(task, frozenset("ab"), frozenset("bc"), "tags") == pytest.approx(0.8 + 0.2 / 3)
    # {a} against {b}: Jaccard 0, the floor .25: (.2 + .6 + .05)
    assert similarity(task, frozenset("a"), frozenset("b"), "tags") == pytest.approx(0.85)


@pytest.mark.parametrize("returned", ["yes", 1.5, -0.1, float("nan"), (0.5, 3), None, True])
def test_a_method_returning_something_else_is_an_error(registered, returned):
    registered("mine:bad", lambda r, h: returned)
    with pytest.raises(ProfileError, match=r"dimension 'nomtype': method mine:bad returned .*a number from 0 to 1"):
        similarity(TASK.format(attr="nomtype", method="mine:bad", extra=""), "NAM", "NOM")


def test_a_method_that_fails_is_an_error_naming_it(registered):
    registered("mine:fails", lambda r, h: 1 / 0)
    with pytest.raises(ProfileError, match=r"method mine:fails failed on 'NAM' and 'NOM': ZeroDivisionError"):
        similarity(TASK.format(attr="nomtype", method="mine:fails", extra=""), "NAM", "NOM")


def test_aggregator_or_digester_with_a_built_in_method_is_an_error():
    with pytest.raises(ProfileError, match="aggregator_method applies to an attribute dimension with a user method"):
        similarity(TASK.format(attr="nomtype", method="equality", extra=" aggregator_method='x:y'"), "NAM", "NOM")


def test_a_name_without_a_module_is_an_unknown_method():
    with pytest.raises(ProfileError, match="unknown method 'jaccard'.*module:function"):
        similarity(TASK.format(attr="nomtype", method="jaccard", extra=""), "NAM", "NOM")


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """A module on sys.path that leaves a mark when imported, and a task naming its function."""
    name = f"accord_dimension_plugin_{tmp_path.name.replace('-', '_')}"
    mark = tmp_path / "imported"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(f"""
        import pathlib
        pathlib.Path({str(mark)!r}).write_text("imported")

        def caseless(ref, hyp):
            return float(str(ref).lower() == str(hyp).lower())
        """), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    for side, value in (("gold", "NAM"), ("pred", "nam")):
        (tmp_path / f"{side}.jsonl").write_text(json.dumps({"id": "a", "text": TEXT, "annotations": [
            {"label": "PERSON", "start": 0, "end": 10, "attributes": {"nomtype": value}}]}) + "\n", encoding="utf-8")
    (tmp_path / "task.xml").write_text(TASK.format(attr="nomtype", method=f"{name}:caseless", extra=""),
                                       encoding="utf-8")
    return name, mark, tmp_path


def test_a_task_file_naming_a_module_imports_nothing(plugin, capsys):
    name, mark, d = plugin
    assert main(["score", str(d / "gold.jsonl"), str(d / "pred.jsonl"), "--task", str(d / "task.xml"), "-q"]) == 2
    err = capsys.readouterr().err
    assert f"--plugins {name}" in err and err.count("\n") == 1
    assert not mark.exists()      # refused before any import
    with pytest.raises(PluginError):
        similarity(TASK.format(attr="nomtype", method="os:system", extra=""), "NAM", "nam")


def test_with_plugins_the_users_method_scores(plugin, capsys):
    name, mark, d = plugin
    assert main(["score", str(d / "gold.jsonl"), str(d / "pred.jsonl"), "--task", str(d / "task.xml"), "-q",
                 "--plugins", name, "--output", "json"]) == 0
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert (totals["match"], totals["gold_clash"]) == (1, 0)     # 'NAM' and 'nam' equal for the user's method
    assert mark.exists()
