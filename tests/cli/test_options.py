"""One vocabulary of options: shared declarations, plural names with their old spelling as aliases,
--version from the package metadata, the garbage collector left as found."""

from __future__ import annotations

import gc
from importlib.metadata import version

import pytest

from accord.cli import build_parser, main
from tests.result.contract import checked

from ..result.commands import CONLL_GOLD, GATE


def _options(command: str) -> dict[str, object]:
    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    return {o: a for a in sub._actions for o in a.option_strings}


def test_shared_options_have_one_help_text():
    texts: dict[str, set[str]] = {}
    for command in ("score", "errors", "coref", "smatch", "structured", "agree", "diff", "qa", "benchmark"):
        for option, action in _options(command).items():
            if option in ("--beta", "--allow-missing", "--scheme", "--repair", "--encoding", "--quiet", "--output",
                          "-o", "--zero-division", "--format", "--gold-format", "--columns", "--spans-vrt"):
                texts.setdefault(option, set()).add(action.help)
    for command in ("diff", "qa", "benchmark", "adjudicate"):
        for option, action in _options(command).items():
            if option in ("--pairing", "--features", "--types", "--compare-as-strings", "--key-set"):
                texts.setdefault(option, set()).add(action.help)
    varying = {k: v for k, v in texts.items() if len(v) > 1 and k != "--format" and k != "-o"}
    assert not varying, varying
    assert len(texts["--beta"]) == 1 and len(texts["--allow-missing"]) == 1


def test_plural_names_with_the_old_spelling_as_alias():
    for command, plural, singular in (("structured", "--metrics", "--metric"), ("coref", "--metrics", "--metric"),
                                      ("diff", "--measures", "--measure"), ("qa", "--features", "--feature"),
                                      ("diff", "--types", "--type"), ("agree", "--types", "--type"),
                                      ("score", "--gold-set", "--key-set")):
        options = _options(command)
        assert options[plural] is options[singular], (command, plural)


def test_version_comes_from_the_package_metadata(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"accord {version('accord')}"


def test_score_help_lists_every_registered_format(capsys):
    from accord.formats._registry import names

    with pytest.raises(SystemExit):
        main(["score", "-h"])
    text = capsys.readouterr().out
    assert "registered formats" in text and all(name in text for name in names())


@pytest.mark.parametrize("enabled", [True, False])
def test_the_garbage_collector_is_left_as_found(enabled, capsys, recwarn):
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        assert main(["score", CONLL_GOLD, CONLL_GOLD, "--output", "json"]) == 0
        assert gc.isenabled() is enabled
        assert main(["score", "missing.conll", CONLL_GOLD]) == 2
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    capsys.readouterr()


def test_gold_and_pred_in_json_key_and_response_in_gate_tables(capsys):
    assert main(["diff", GATE, GATE, "--key-set", "ann1", "--response-set", "ann2", "--output", "json"]) == 0
    block = checked(capsys.readouterr().out)["measures"]["strict"]["totals"]
    assert {"gold", "pred", "f1"} <= set(block) and not {"keys", "responses", "f"} & set(block)
    assert main(["diff", GATE, GATE, "--key-set", "ann1", "--response-set", "ann2"]) == 0
    assert "A = key, B = response" in capsys.readouterr().out


# Every numeric or list option of compare, score, report, agree and benchmark refuses a meaningless value in the
# argument parser (one validator each, in accord.cli._options): exit 2 and a message naming the option. Before,
# compare --alpha 2 marked every difference significant, --alpha nan none, --rates '' compared nothing, and
# --seed -1 ended in an internal error.
_HOSTILE = ("nan", "inf", "-inf", "-0.5", "1e400", "", "x")
_NUMERIC = {
    "compare": {"--alpha": ("2", "0", "1", *_HOSTILE), "--samples": ("0", "-5", "2.5", "10000000000", *_HOSTILE),
                "--seed": ("-1", "1.5", *_HOSTILE), "--rates": ("", ",", "foo", "f1,nope"),
                "--beta": (*_HOSTILE, "1e7")},
    "score": {"--bootstrap": ("0", "1", "-3", "1e12", *_HOSTILE), "--seed": ("-1", *_HOSTILE),
              "--confidence": ("0", "1", "1.5", *_HOSTILE), "--beta": _HOSTILE},
    "report": {"--bootstrap": ("1", "-1", *_HOSTILE), "--seed": ("-1", *_HOSTILE),
               "--confidence": ("1", *_HOSTILE), "--alpha": ("2", *_HOSTILE), "--samples": ("0", *_HOSTILE),
               "--rates": ("", "foo")},
    "agree": {"--samples": ("0", "-1", *_HOSTILE), "--gamma-alpha": (*_HOSTILE, "1e7"),
              "--gamma-beta": (*_HOSTILE, "1e7"), "--delta-empty": ("0", "1e7", *_HOSTILE), "--bootstrap": ("1", *_HOSTILE), "--seed": ("-1", *_HOSTILE),
              "--confidence": ("2", *_HOSTILE)},
    "benchmark": {"--threshold": ("1.5", "-0.1", "nan", "inf", "", "x"), "--beta": _HOSTILE,
                  "--bootstrap": ("1", *_HOSTILE), "--seed": ("-1", *_HOSTILE), "--confidence": ("0", *_HOSTILE)},
}
_POSITIONAL = {"compare": ["g", "a", "b"], "score": ["g", "p"], "report": ["g", "a", "-o", "r.html"],
               "agree": ["a", "b"], "benchmark": ["k", "b", "a"]}


@pytest.mark.parametrize("command, option, value", [(c, o, v) for c, options in _NUMERIC.items()
                                                    for o, values in options.items() for v in values])
def test_meaningless_option_values_are_refused_naming_the_option(capsys, command, option, value):
    with pytest.raises(SystemExit) as exc:
        main([command, *_POSITIONAL[command], f"{option}={value}"])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and f"argument {option}" in err.splitlines()[-1], err


@pytest.mark.parametrize("command, option, value, expected", [
    ("compare", "--alpha", "0.01", 0.01), ("compare", "--samples", "1e3", 1000), ("compare", "--rates", "f1,recall",
                                                                                  ["f1", "recall"]),
    ("compare", "--seed", "0", 0), ("score", "--bootstrap", "2", 2), ("report", "--bootstrap", "0", 0),
    ("benchmark", "--threshold", "1", 1.0), ("agree", "--delta-empty", "0.5", 0.5), ("agree", "--gamma-beta", "0",
                                                                                      0.0)])
def test_meaningful_option_values_are_taken(command, option, value, expected):
    args = build_parser().parse_args([command, *_POSITIONAL[command], f"{option}={value}"])
    assert getattr(args, option[2:].replace("-", "_")) == expected
