"""Modes as plug-ins: a toy mode added by one registration line runs through accord.score and the command line,
and its counts (exact span and label, counted with Python sets) equal the strict pairs mode's on CoNLL-2003."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.modes import Mode, ModeOptions, mode, mode_names, register_mode
from accord.result import ALL, CountTable, Measure, PairsKind, Result

from .result.commands import CONLL_GOLD, CONLL_PRED


def toy_measure(gold, pred, options: ModeOptions) -> Result:
    """Exact matches of (start, end, label) per document, as sets: match, missing and spurious."""
    docs = list(dict.fromkeys([*gold, *pred]))
    values = np.zeros((len(docs), 1, 5), dtype=np.int64)
    for k, d in enumerate(docs):
        g = {(a.start, a.end, a.label) for a in gold[d].annotations} if d in gold else set()
        p = {(a.start, a.end, a.label) for a in pred[d].annotations} if d in pred else set()
        values[k, 0] = [len(g & p), 0, 0, len(g - p), len(p - g)]
    table = CountTable(PairsKind.fields, tuple(docs), (ALL,), values)
    return Result("score", "toy", {"toy": Measure(PairsKind(options.beta, options.zero_division), table)},
                  nested=False, options=options.options, inputs=options.inputs)


@pytest.fixture()
def toy():
    from accord import modes

    register_mode(Mode("toy", "exact spans as sets (a test's mode)", "tests.test_modes:toy_measure"))
    try:
        yield
    finally:
        del modes._MODES["toy"]


def test_a_mode_added_in_one_line_scores_like_the_strict_pairs(toy):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = accord.score(CONLL_GOLD, CONLL_PRED, match="toy")
        strict = accord.score(CONLL_GOLD, CONLL_PRED)
    assert ours.mode == "toy" and ours.repairs == strict.repairs
    for k in ("gold", "pred", "match", "missing", "spurious", "precision", "recall", "f1"):
        assert ours.totals[k] == strict.totals[k], k
    assert ours.totals["match"] == 5339   # conlleval's count on these files (tests/test_scoring_conll03.py)


def test_the_command_line_offers_it(toy, capsys):
    assert "toy" in mode_names()
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--match", "toy", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["mode"] == "toy" and out["totals"]["match"] == 5339
    assert main(["score", CONLL_GOLD, CONLL_PRED, "--match", "toy", "--leniency", "2"]) == 2
    assert "do not apply to --match toy" in capsys.readouterr().err


def test_the_registry_refuses_what_it_cannot_run():
    with pytest.raises(OptionError, match="registered already"):
        register_mode(Mode("pairs", "again", "accord.pairs._score:measure_corpora"))
    with pytest.raises(OptionError, match="module:function"):
        register_mode(Mode("broken", "no function", "accord.pairs._score"))
    with pytest.raises(OptionError, match="match must be one of pairs, clueval, semeval"):
        mode("nothing")
    with pytest.raises(OptionError, match="match must be one of"):
        accord.score(CONLL_GOLD, CONLL_PRED, match="nothing")


# --- every mode in the registry: those of two sides run through accord.score, the rest are named ---------------


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    from .result.commands import write_inputs

    return write_inputs(tmp_path_factory.mktemp("modes"))


def _json(result) -> dict:
    out = json.loads(result.to_json())
    out.pop("inputs", None)      # the Python entry and accord.score name objects alike; the rest is the result
    return out


def test_score_runs_coreference_as_accord_coref_does(inputs):
    ours = accord.score(inputs["coref_key"], inputs["coref_resp"], match="coref")
    direct = accord.coref(inputs["coref_key"], inputs["coref_resp"])
    assert ours.command == "coref" and _json(ours) == _json(direct)
    some = accord.score(inputs["coref_key"], inputs["coref_resp"], match="coref", metrics=["muc"])
    assert list(some.measures) == ["muc", "mentions"]    # mention identification is in every coreference result


def test_score_runs_smatch_and_structured_as_their_functions_do(inputs):
    assert _json(accord.score(inputs["amr_gold"], inputs["amr_pred"], match="smatch")) == _json(
        accord.smatch(inputs["amr_gold"], inputs["amr_pred"]))
    ours = accord.score(inputs["rel_key"], inputs["rel_resp"], match="structured", metrics=["relation"])
    assert _json(ours) == _json(accord.structured_metrics(inputs["rel_key"], inputs["rel_resp"], ["relation"]))


def test_a_mode_refuses_what_it_does_not_take(inputs):
    with pytest.raises(OptionError, match='scheme do not apply to match="coref"'):
        accord.score(inputs["coref_key"], inputs["coref_resp"], match="coref", scheme="IOB2")
    with pytest.raises(OptionError, match='task do not apply to match="coref"'):
        accord.score(inputs["coref_key"], inputs["coref_resp"], match="coref", task=inputs["task"])
    with pytest.raises(OptionError, match='gold_only do not apply to match="clueval"'):
        accord.score(CONLL_GOLD, CONLL_PRED, match="clueval", gold_only=True)
    with pytest.raises(OptionError, match="several sides: run it with accord.agree"):
        accord.score(CONLL_GOLD, CONLL_PRED, match="agreement")
    with pytest.raises(OptionError, match="jobs"):
        accord.score(inputs["amr_gold"], inputs["amr_pred"], match="smatch", jobs=2)


def test_every_result_mode_belongs_to_a_registered_mode():
    """The ``mode`` of every command's JSON (the stored outputs of tests/golden) is a registered mode's, and the
    command that made it is that mode's command (``score --profile gate`` is GATE's diff, run by ``score``)."""
    import gzip
    from pathlib import Path

    from accord.modes import mode as registered
    from accord.modes import result_modes

    seen = set()
    for path in sorted((Path(__file__).parent / "golden").glob("*.json.gz")):
        out = json.loads(gzip.decompress(path.read_bytes()))
        owners = result_modes().get(out["mode"])
        assert owners, (path.name, out["mode"])
        assert out["command"] in {registered(o).command for o in owners} | {"score"}, path.name
        seen.update(owners)
    assert {"pairs", "clueval", "semeval", "coref", "smatch", "structured", "qa", "diff", "benchmark",
            "agreement"} <= seen


def test_the_command_line_and_the_readme_list_the_registry():
    from pathlib import Path

    from accord.cli import build_parser

    score = build_parser()._subparsers._group_actions[0].choices["score"]
    match = next(a for a in score._actions if "--match" in a.option_strings)
    assert tuple(match.choices) == mode_names("score")
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("<!-- modes -->"):readme.index("<!-- /modes -->")]
    listed = [line.split("|")[1].strip().strip("`") for line in table.splitlines()[3:] if line.startswith("|")]
    assert listed == list(mode_names())
    for name in mode_names():
        assert f"`accord {mode(name).command}" in table, name


def test_a_mode_with_forwarded_options_still_refuses_unknown_ones(inputs):
    """GATE's diff forwards its options to Corpus QA: an option neither takes is an OptionError naming it (before: a
    TypeError from Python)."""
    from .result.commands import GATE

    with pytest.raises(OptionError, match="foo do not apply to match=.diff."):
        accord.score(GATE, GATE, match="diff", foo=1)
    with pytest.raises(OptionError, match="zero_division do not apply to match=.diff."):
        accord.score(GATE, GATE, match="diff", zero_division="one")


def test_coreference_of_lists_is_refused_naming_what_it_reads():
    with pytest.raises(OptionError, match="two files or two mappings .* the key is a list"):
        accord.score([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]], match="coref")
    with pytest.raises(OptionError, match="the key is a list"):
        accord.coref([1, 2], [1, 2])


def test_one_metric_named_as_a_string_is_one_metric():
    """``metrics="muc"`` is the metric muc, not the letters m, u, c."""
    clusters = {"d": [[(0, 1), (3, 4)], [(6, 6)]]}
    assert list(accord.coref(clusters, clusters, metrics="muc").measures) == ["muc", "mentions"]


def test_dir_of_accord_is_its_public_names():
    public = [name for name in dir(accord) if not name.startswith("__")]
    assert public == sorted(n for n in accord.__all__ if not n.startswith("__")) and "Any" not in dir(accord)
