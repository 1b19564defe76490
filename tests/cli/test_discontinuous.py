"""--discontinuous is taken, and honoured, by every command that reads brat."""

import json

import pytest

from accord.cli import main


@pytest.fixture
def brat(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "d.txt").write_text("Ada and Bob met.\n")
    (folder / "d.ann").write_text("T1\tPER 0 3;8 11\tAda Bob\nT2\tEV 12 15\tmet\n")
    return str(folder)


COMMANDS = [["score"], ["score", "--match", "semeval"], ["score", "--profile", "mat"], ["score", "--by-character"],
            ["diff"], ["qa"], ["adjudicate", "-o", "OUT"]]
CONTIGUOUS_ONLY = [["score", "--match", "clueval"], ["errors"]]   # CLUEval's coverage classes


@pytest.mark.parametrize("command", COMMANDS + CONTIGUOUS_ONLY)
def test_every_brat_command_takes_the_option(brat, tmp_path, capsys, command):
    argv = [command[0], brat, brat, *[str(tmp_path / "out.jsonl") if a == "OUT" else a for a in command[1:]]]
    assert main(argv + ["--discontinuous", "error"]) == 2
    assert "--discontinuous fragments" in capsys.readouterr().err
    assert main(argv + ["--discontinuous", "merge"]) == 0, capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS)
def test_fragments_is_the_default_and_scores_the_pieces(brat, tmp_path, capsys, command):
    argv = [command[0], brat, brat, *[str(tmp_path / "out.jsonl") if a == "OUT" else a for a in command[1:]]]
    assert main(argv) == 0, capsys.readouterr().err


@pytest.mark.parametrize("command", CONTIGUOUS_ONLY)
def test_clueval_classes_refuse_fragments_and_say_what_to_do(brat, capsys, command):
    assert main([command[0], brat, brat, *command[1:]]) == 2
    err = capsys.readouterr().err
    assert "PER [0 3;8 11] is discontinuous" in err and "--discontinuous merge" in err


def test_benchmark_and_agree_take_it(brat, tmp_path, capsys):
    assert main(["benchmark", brat, brat, brat, "--discontinuous", "merge"]) == 0
    assert main(["benchmark", brat, brat, brat]) == 0
    assert main(["benchmark", brat, brat, brat, "--discontinuous", "error"]) == 2
    assert "--discontinuous" in capsys.readouterr().err
    other = tmp_path / "c"
    other.mkdir()
    for f in ("d.txt", "d.ann"):
        (other / f).write_text((tmp_path / "b" / f).read_text())
    assert main(["agree", brat, str(other), "--types", "PER,EV", "--discontinuous", "error"]) == 2
    assert "--discontinuous" in capsys.readouterr().err
    for how in ("merge", "fragments"):
        assert main(["agree", brat, str(other), "--types", "PER,EV", "--discontinuous", how]) == 0


# ---------------------------------------------------------------- the pieces, counted by hand
# text:  "Ada and Bob met. Cy and Di left."
#         0   4   8   12   17 20  24 27
# gold:  PER Ada…Bob [0 3;8 11]   PER Cy…Di [17 19;24 26]   EV met [12 15]
# pred:  PER "Cy and Di" [17 26] (the extent of gold's second PER; shares its pieces, not all of it)
#        PER "and" [4 7]         (inside the gap of gold's first PER: its extent overlaps, no piece does)
#        EV met [12 15]
@pytest.fixture
def sides(tmp_path):
    text = "Ada and Bob met. Cy and Di left."
    out = []
    for name, ann in (("g", "T1\tPER 0 3;8 11\tAda Bob\nT2\tPER 17 19;24 26\tCy Di\nT3\tEV 12 15\tmet\n"),
                      ("p", "T1\tPER 17 26\tCy and Di\nT2\tPER 4 7\tand\nT3\tEV 12 15\tmet\n")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "d.txt").write_text(text)
        (folder / "d.ann").write_text(ann)
        out.append(str(folder))
    return out


def _json(capsys, argv):
    assert main(argv + ["--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("how, profile, expected", [
    # strict: only EV is exact; the second PER has gold's extent but not its pieces
    ("fragments", "strict", {"match": 1, "missing": 2, "spurious": 2}),
    ("merge", "strict", {"match": 2, "missing": 1, "spurious": 1}),
    # lenient: the second PER shares pieces; "and" lies in a gap, so overlaps gold's first PER only when merged
    ("fragments", "lenient", {"match": 2, "missing": 1, "spurious": 1}),
    ("merge", "lenient", {"match": 3, "missing": 0, "spurious": 0}),
])
def test_pairs_count_the_pieces(sides, capsys, how, profile, expected):
    totals = _json(capsys, ["score", *sides, "--profile", profile, "--discontinuous", how])["totals"]
    assert {k: totals[k] for k in expected} == expected


def test_mat_overlap_is_shared_over_covered_pieces(sides, capsys, tmp_path):
    # MAT's span similarity on pieces: |r ∩ h| / |r ∪ h| = 4 / 9 for the second PER: a clash, not a match
    got = _json(capsys, ["score", *sides, "--profile", "mat", "--details", str(tmp_path / "details.csv")])
    totals = got["totals"]
    assert (totals["match"], totals["gold_clash"], totals["missing"], totals["spurious"]) == (1, 1, 1, 1)


def test_characters_are_the_pieces(sides, capsys):
    # gold covers 3+3 + 2+2 + 3 = 13 characters, pred 9 + 3 + 3 = 15; shared with equal labels: Cy, Di, met = 7
    units = _json(capsys, ["score", *sides, "--by-character"])["units"]["character"]["totals"]
    assert (units["gold"], units["pred"], units["match"], units["missing"], units["spurious"]) == (13, 15, 7, 6, 8)


def test_semeval_schemas_on_pieces(sides, capsys):
    measures = _json(capsys, ["score", *sides, "--match", "semeval"])["measures"]
    strict, partial, typed = (measures[k]["totals"] for k in ("strict", "partial", "type"))
    assert (strict["correct"], strict["incorrect"], strict["missed"], strict["spurious"]) == (1, 1, 1, 1)
    assert (partial["correct"], partial["partial"], partial["missed"], partial["spurious"]) == (1, 1, 1, 1)
    assert (typed["correct"], typed["missed"], typed["spurious"]) == (2, 1, 1)


@pytest.mark.parametrize("how, expected", [("fragments", (1, 1, 1, 1)), ("merge", (2, 1, 0, 0))])
def test_annotation_diff_on_pieces(sides, capsys, how, expected):
    totals = _json(capsys, ["diff", *sides, "--discontinuous", how])["measures"]["strict"]["totals"]
    assert (totals["correct"], totals["partial"], totals["missing"], totals["spurious"]) == expected


def test_pieces_written_back_to_brat_and_jsonl_and_refused_by_tags(sides, tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["convert", sides[0], str(out), "--to", "brat"]) == 0
    assert "T1\tPER 0 3;8 11\tAda Bob" in (out / "d.ann").read_text()
    jl = tmp_path / "g.jsonl"
    assert main(["convert", sides[0], str(jl)]) == 0
    ann = json.loads(jl.read_text())["annotations"][0]
    assert (ann["start"], ann["end"], ann["fragments"]) == (0, 11, [[0, 3], [8, 11]])
    assert main(["convert", str(jl), str(tmp_path / "back"), "--to", "brat"]) == 0
    assert (tmp_path / "back" / "d.ann").read_text() == (out / "d.ann").read_text()
    capsys.readouterr()
    for target in ("x.json", "x.xml"):                # MAT JSON, GATE XML: no pieces
        assert main(["convert", sides[0], str(tmp_path / target)]) == 2
        assert "PER [0 3;8 11] is a discontinuous span, which" in capsys.readouterr().err
    words = tmp_path / "w"
    words.mkdir()
    (words / "d.txt").write_text("Ada and Bob")
    (words / "d.ann").write_text("T1\tPER 0 3;8 11\tAda Bob\n")
    assert main(["convert", str(words), str(tmp_path / "x.conll")]) == 2   # tags: contiguous spans only
    assert "PER [0, 3) is discontinuous; tags hold contiguous spans only" in capsys.readouterr().err
