"""A message names the option as the caller wrote it: ``repair="error"`` from Python, ``--repair error`` from the
command line (accord._support.surface.spelled), for the messages a user meets most."""

from __future__ import annotations

import warnings

import pytest

import accord
from accord.cli import main
from accord.errors import LabelCaseWarning, OptionError, PairingError, RepairWarning, SchemeError

GOLD = "-DOCSTART- O\n\nAnna B-PER\nsaw O\nBerlin B-LOC\n.\tO\n\n"
# I-LOC after O: an invalid IOB2 transition (conlleval starts a chunk there)
BAD = "-DOCSTART- O\n\nAnna B-PER\nsaw O\nBerlin I-LOC\n.\tO\n\n"
# the two sides differ by case in a label: per and PER
CASED = "-DOCSTART- O\n\nAnna B-per\nsaw O\nBerlin B-LOC\n.\tO\n\n"


@pytest.fixture()
def files(tmp_path):
    out = {}
    for name, text in (("gold", GOLD), ("bad", BAD), ("cased", CASED), ("letters", GOLD.replace("B-LOC", "S-LOC"))):
        out[name] = tmp_path / f"{name}.conll"
        out[name].write_text(text.replace(".\tO", ". O"), encoding="utf-8")
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.conll").write_text(GOLD.replace(".\tO", ". O"), encoding="utf-8")
    (other / "b.conll").write_text(GOLD.replace(".\tO", ". O"), encoding="utf-8")
    only = tmp_path / "only"
    only.mkdir()
    (only / "a.conll").write_text(GOLD.replace(".\tO", ". O"), encoding="utf-8")
    out["two"], out["one"] = other, only
    return out


def _warned(call, category):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if issubclass(w.category, category)]


def _cli(argv, capsys):
    status = main([*argv, "-q", "--output", "json"])
    return status, capsys.readouterr().err


def test_the_repair_warning_from_python_names_the_argument(files):
    [message] = _warned(lambda: accord.score(files["gold"], files["bad"]), RepairWarning)
    assert '(repair="error" refuses them)' in message and "--repair" not in message


def test_the_repair_warning_from_the_command_line_names_the_flag(files, capsys):
    status, err = _cli(["score", str(files["gold"]), str(files["bad"])], capsys)
    assert status == 0
    assert "(--repair error refuses them)" in err and 'repair="error"' not in err


def test_the_letters_warning_names_scheme_and_repair_both_ways(files, capsys):
    [message] = _warned(lambda: accord.score(files["gold"], files["letters"]), RepairWarning)
    assert '(scheme="IOBES" reads them as IOBES, repair="error" refuses them)' in message
    _, err = _cli(["score", str(files["gold"]), str(files["letters"])], capsys)
    assert "(--scheme IOBES reads them as IOBES, --repair error refuses them)" in err


def test_repair_error_names_the_other_repairs_both_ways(files, capsys):
    with pytest.raises(SchemeError, match='use repair="conlleval" or repair="discard" to accept it'):
        accord.score(files["gold"], files["bad"], repair="error")
    status, err = _cli(["score", str(files["gold"]), str(files["bad"]), "--repair", "error"], capsys)
    assert status == 2 and "use --repair conlleval or --repair discard to accept it" in err


def test_a_tag_of_another_scheme_names_the_scheme_option_both_ways(files, capsys):
    with pytest.raises(SchemeError, match=r"choose the scheme \(scheme\)"):
        accord.score(files["gold"], files["letters"], scheme="IO")
    status, err = _cli(["score", str(files["gold"]), str(files["letters"]), "--scheme", "IO"], capsys)
    assert status == 2 and "choose the scheme (--scheme)" in err


def test_a_missing_document_names_allow_missing_both_ways(files, capsys):
    with pytest.raises(PairingError, match='Use allow_missing="empty" or allow_missing="skip" to score anyway'):
        accord.score(files["two"], files["one"])
    status, err = _cli(["score", str(files["two"]), str(files["one"])], capsys)
    assert status == 2 and "Use --allow-missing empty or --allow-missing skip to score anyway" in err


def test_the_label_case_warning_names_the_equivalence_option_both_ways(files, capsys):
    [message] = _warned(lambda: accord.score(files["gold"], files["cased"]), LabelCaseWarning)
    assert message.endswith("(one name for each: equivalence_classes)")
    _, err = _cli(["score", str(files["gold"]), str(files["cased"])], capsys)
    assert "(one name for each: --equivalence-class)" in err


def test_an_unknown_equivalence_member_names_the_option_both_ways(files, capsys):
    with pytest.raises(OptionError, match="^equivalence_classes: no label 'LCO'"):
        accord.score(files["gold"], files["bad"], equivalence_classes={"X": ["PER", "LCO"]})
    status, err = _cli(["score", str(files["gold"]), str(files["bad"]), "--equivalence-class", "X=PER,LCO"], capsys)
    assert status == 2 and "--equivalence-class: no label 'LCO'" in err


def test_beta_and_zero_division_from_python_name_the_arguments(files):
    with pytest.raises(OptionError, match="^beta must be a number >= 0; got -1"):
        accord.score(files["gold"], files["gold"], beta=-1.0)
    with pytest.raises(OptionError, match="^zero_division must be one of"):
        accord.score(files["gold"], files["gold"], zero_division="half")


def test_a_mode_refusing_an_option_names_it_both_ways(files):
    """The command line refuses these itself before the mode does (cli/score.py); a mode's own check is run here
    under the command line's context, as a plug-in mode's options reach it (tests/test_modes.py)."""
    from accord._support.surface import command_line

    with pytest.raises(OptionError, match='^leniency/labelled do not apply to match="pairs"'):
        accord.score(files["gold"], files["gold"], leniency=2, labelled=False, match="pairs")
    with command_line(["score"]), pytest.raises(
            OptionError, match="^--leniency/--unlabelled do not apply to --match pairs"):
        accord.score(files["gold"], files["gold"], leniency=2, labelled=False, match="pairs")
