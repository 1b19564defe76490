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


def _no_nan(obj):
    return json.loads(obj, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))


@pytest.mark.parametrize("name", command_names())
def test_every_command_validates(name, inputs, validator, capsys, recwarn):
    argv = command_lines(inputs)[name]
    assert main([*argv, "--output", "json"]) == 0, capsys.readouterr().err
    out = _no_nan(capsys.readouterr().out)
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
