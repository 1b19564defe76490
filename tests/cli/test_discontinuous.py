"""--discontinuous is taken, and honoured, by every command that reads brat."""

import pytest

from accord.cli import main


@pytest.fixture
def brat(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "d.txt").write_text("Ada and Bob met.\n")
    (folder / "d.ann").write_text("T1\tPER 0 3;8 11\tAda Bob\nT2\tEV 12 15\tmet\n")
    return str(folder)


@pytest.mark.parametrize("command", [["score"], ["score", "--match", "clueval"], ["score", "--match", "semeval"],
                                     ["errors"], ["diff"], ["qa"], ["adjudicate", "-o", "OUT"]])
def test_every_brat_command_takes_the_option(brat, tmp_path, capsys, command):
    argv = [command[0], brat, brat, *[str(tmp_path / "out.jsonl") if a == "OUT" else a for a in command[1:]]]
    assert main(argv) == 2
    assert "--discontinuous merge" in capsys.readouterr().err
    assert main(argv + ["--discontinuous", "merge"]) == 0, capsys.readouterr().err


def test_benchmark_and_agree_take_it(brat, tmp_path, capsys):
    assert main(["benchmark", brat, brat, brat, "--discontinuous", "merge"]) == 0
    assert main(["benchmark", brat, brat, brat]) == 2
    assert "--discontinuous merge" in capsys.readouterr().err
    other = tmp_path / "c"
    other.mkdir()
    for f in ("d.txt", "d.ann"):
        (other / f).write_text((tmp_path / "b" / f).read_text())
    assert main(["agree", brat, str(other), "--types", "PER,EV"]) == 2
    assert "--discontinuous merge" in capsys.readouterr().err
    assert main(["agree", brat, str(other), "--types", "PER,EV", "--discontinuous", "merge"]) == 0
