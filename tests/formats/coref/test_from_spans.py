"""Coreference chains from brat equivalences and Coreference relations, for accord coref (hand counts)."""

import json

import pytest

import accord
from accord.errors import FormatError
from accord.formats.coref.clusters import read_coref

TEXT = "Mary saw her dog. It barked at Mary.\n"
SPANS = ("T1\tPerson 0 4\tMary\nT2\tPerson 9 12\ther\nT3\tAnimal 9 16\ther dog\nT4\tAnimal 18 20\tIt\n"
         "T5\tPerson 31 35\tMary\n")


def _brat(folder, links):
    folder.mkdir()
    (folder / "d.txt").write_text(TEXT)
    (folder / "d.ann").write_text(SPANS + links)


def test_chains_from_equivalences_and_relations(tmp_path):
    _brat(tmp_path / "g", "*\tCoreference T1 T2 T5\nR1\tCoreference Arg1:T3 Arg2:T4\n")
    # mentions are inclusive character spans; T3 "her dog" and T2 "her" are two mentions
    assert read_coref(tmp_path / "g") == {"d": [[(0, 3), (9, 11), (31, 34)], [(9, 15), (18, 19)]]}


def test_scores_by_hand_and_equal_to_json(tmp_path):
    _brat(tmp_path / "g", "*\tCoreference T1 T2 T5\nR1\tCoreference Arg1:T3 Arg2:T4\n")
    _brat(tmp_path / "p", "*\tCoreference T1 T2\nR1\tCoreference Arg1:T3 Arg2:T4\nR2\tCoreference Arg1:T4 Arg2:T5\n")
    result = accord.coref(tmp_path / "g", tmp_path / "p")
    # MUC by hand: key {Mary, her, Mary'} is cut in two by the response (1 of 2 links), {her dog, It} whole (1 of
    # 1): recall 2/3; response {Mary, her} (1 of 1), {her dog, It, Mary'} cut in two (1 of 2): precision 2/3
    muc = result.source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 3, 2, 3)
    key = {"id": "d", "clusters": [[[0, 3], [9, 11], [31, 34]], [[9, 15], [18, 19]]]}
    response = {"id": "d", "clusters": [[[0, 3], [9, 11]], [[9, 15], [18, 19], [31, 34]]]}
    (tmp_path / "k.jsonl").write_text(json.dumps(key) + "\n")
    (tmp_path / "r.jsonl").write_text(json.dumps(response) + "\n")
    as_json = accord.coref(tmp_path / "k.jsonl", tmp_path / "r.jsonl")
    for metric in ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea"):
        assert result.source[metric].f1 == as_json.source[metric].f1, metric


def test_other_relations_are_not_links(tmp_path):
    _brat(tmp_path / "g", "*\tCoreference T1 T5\nR1\tOwns Arg1:T1 Arg2:T3\n")
    assert read_coref(tmp_path / "g") == {"d": [[(0, 3), (31, 34)]]}


def test_a_link_to_a_spanless_annotation_is_an_error(tmp_path):
    _brat(tmp_path / "g", "R1\tOwns Arg1:T1 Arg2:T3\nR2\tCoreference Arg1:T1 Arg2:R1\n")
    with pytest.raises(FormatError, match="has no span; a coreference mention is a span"):
        read_coref(tmp_path / "g")


def _gate(folder, matches):
    """A GATE XML document of TEXT's five mentions (GATE ids 1-5) with the given ``matches`` features."""
    folder.mkdir()
    anns = tuple(accord.make_annotation(label, start, end, {"matches": matches[k]} if k in matches else None,
                                        id=str(k))
                 for k, (label, start, end) in enumerate([("Person", 0, 4), ("Person", 9, 12), ("Animal", 9, 16),
                                                          ("Animal", 18, 20), ("Person", 31, 35)], 1))
    accord.write(accord.Corpus([accord.Document("d", anns, text=TEXT)]), folder / "d.xml", "gate")


def test_gate_matches_give_the_same_chains_and_scores(tmp_path):
    """GATE's orthomatcher writes matches="[1, 2, 5]" on each member; the chains equal those of the brat test."""
    _gate(tmp_path / "g", {1: "[1, 2, 5]", 2: "[1, 2, 5]", 5: "[1, 2, 5]", 3: "[3, 4]", 4: "[3, 4]"})
    _gate(tmp_path / "p", {1: "[1, 2]", 2: "[1, 2]", 3: "[3, 4, 5]", 4: "[3, 4, 5]", 5: "[3, 4, 5]"})
    assert read_coref(tmp_path / "g") == {"d": [[(0, 3), (9, 11), (31, 34)], [(9, 15), (18, 19)]]}
    muc = accord.coref(tmp_path / "g", tmp_path / "p").source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (2, 3, 2, 3)


def test_gate_matches_to_an_unknown_id(tmp_path):
    _gate(tmp_path / "g", {1: "[1, 9]"})
    with pytest.raises(FormatError, match="matches 9, which is not an annotation"):
        read_coref(tmp_path / "g" / "d.xml")
