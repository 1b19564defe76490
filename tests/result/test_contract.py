"""Every command, in every mode, writes JSON that validates against the shipped contract."""

from __future__ import annotations

import json
import math

import jsonschema
import pytest

from accord.cli import main
from accord.result import SCHEMA_VERSION, contract_schema

from .commands import command_lines, command_names, write_inputs


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    return write_inputs(tmp_path_factory.mktemp("contract"))


@pytest.fixture(scope="module")
def validator():
    schema = contract_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


_OUTPUTS: dict[str, str] = {}
"""Each command's JSON output, for the comparison of the inlined contract (run there where not run here)."""


def _no_nan(obj):
    return json.loads(obj, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


@pytest.mark.parametrize("name", command_names())
def test_every_command_validates(name, inputs, validator, capsys, recwarn):
    argv = command_lines(inputs)[name]
    assert main([*argv, "--output", "json"]) == 0, capsys.readouterr().err
    _OUTPUTS[name] = text = capsys.readouterr().out
    out = _no_nan(text)
    errors = sorted(validator.iter_errors(out), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:5])
    assert out["schema_version"] == SCHEMA_VERSION and out["command"] == argv[0]


def test_the_contract_catches_what_it_forbids(inputs, validator, capsys):
    assert main(["score", *command_lines(inputs)["score pairs"][1:], "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not list(validator.iter_errors(out))
    for path, value in ((("totals", "match"), 1.5), (("totals", "f1"), 1.2), (("totals", "f"), 0.5),
                        (("by_label", "PER", "precision"), "93"), (("schema_version",), "0.9")):
        broken = json.loads(json.dumps(out))
        node = broken
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
        assert list(validator.iter_errors(broken)), path
    assert list(validator.iter_errors({k: v for k, v in out.items() if k != "inputs"}))


def test_rates_are_fractions_and_counts_integers(inputs, capsys):
    assert main(["structured", inputs["rel_key"], inputs["rel_resp"], "--metrics", "relation", "--output",
                 "json"]) == 0
    block = json.loads(capsys.readouterr().out)["measures"]["relation"]["totals"]
    # a: 1 of 1 gold, 1 of 2 predicted; b: nothing predicted -> 1 match of 1 gold and 2 predicted records
    assert (block["gold"], block["pred"], block["match"]) == (1, 2, 1.0)
    assert isinstance(block["gold"], int) and math.isclose(block["precision"], 0.5) and block["recall"] == 1.0


def test_the_inlined_contract_passes_and_fails_what_the_contract_does(inputs, validator, capsys, recwarn):
    """tests/result/contract.py checks outputs against the contract with its references inlined (for speed): on the
    output of every command and on copies broken at random places (a value replaced, a key dropped or added), it
    accepts and refuses exactly what the shipped contract does."""
    import random

    from .contract import inlined

    fast = jsonschema.Draft202012Validator(inlined(contract_schema()))
    assert '"$ref": "#/$defs/' not in json.dumps(fast.schema)
    rng = random.Random(7)
    values = [None, -1, 1.5, 2.0, "x", "0.9", [], {}, True, {"a": 1}]
    refused = 0
    for name in command_names():
        if name not in _OUTPUTS:
            assert main([*command_lines(inputs)[name], "--output", "json"]) == 0
            _OUTPUTS[name] = capsys.readouterr().out
        out = _few_documents(json.loads(_OUTPUTS[name]))
        places = [()]
        for place in places:
            node = _at(out, place)
            keys = node.keys() if isinstance(node, dict) else range(len(node)) if isinstance(node, list) else ()
            places.extend((*place, k) for k in keys)
        for trial in range(12):
            broken = json.loads(json.dumps(out))
            if trial:
                *parent, key = rng.choice(places[1:])
                node, how = _at(broken, parent), rng.random()
                if how < 0.6:
                    node[key] = rng.choice(values)
                elif isinstance(node, dict) and how < 0.8:
                    del node[key]
                elif isinstance(node, dict):
                    node[f"extra_{trial}"] = 1
            expected = validator.is_valid(broken)
            assert fast.is_valid(broken) == expected, (name, trial)
            refused += not expected
    assert refused > 5 * len(command_names()), refused     # most broken copies are refused, by both


def _at(obj, place):
    for key in place:
        obj = obj[key]
    return obj


def _few_documents(obj):
    """The output with 3 entries in each table by document (CoNLL-2003's 231 make the check of a copy take 1-4 s)."""
    if isinstance(obj, list):
        return [_few_documents(v) for v in obj]
    if not isinstance(obj, dict):
        return obj
    return {k: dict(list(_few_documents(v).items())[:3]) if k.startswith("by_document") and isinstance(v, dict)
            else _few_documents(v) for k, v in obj.items()}
