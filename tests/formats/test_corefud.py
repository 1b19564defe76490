"""CorefUD's Entity annotation (CoNLL-U MISC) read for accord coref; hand counts and the same clusters as JSON."""

import json

import pytest

import accord
from accord.errors import AccordWarning, FormatError
from accord.formats.coref import read_coref

HEADER = "# newdoc id = doc1\n# global.Entity = eid-etype-head-other\n"


def _word(k, form, entity=None):
    return f"{k}\t{form}\t_\t_\t_\t_\t0\tdep\t_\t{'Entity=' + entity if entity else '_'}\n"


KEY = (HEADER + "# sent_id = 1\n" + _word(1, "Mary", "(e1-person-1)") + _word(2, "saw")
       + "3-4\ther\t_\t_\t_\t_\t_\t_\t_\t_\n" + _word(3, "her", "(e2-person-1(e1-person-1)") + _word(4, "own")
       + _word(5, "dog", "e2)") + _word(6, ".") + "\n# sent_id = 2\n" + _word(1, "It", "(e2-animal-1)")
       + _word(2, "barked") + "\n")


def test_mentions_by_hand(tmp_path):
    (tmp_path / "key.conllu").write_text(KEY, encoding="utf-8")
    # words: Mary 0, saw 1, her 2, own 3, dog 4, . 5, It 6, barked 7 (the multiword line is no word)
    assert read_coref(tmp_path / "key.conllu") == {"doc1": [[(0, 0), (2, 2)], [(2, 4), (6, 6)]]}


def test_scores_equal_those_of_the_same_clusters_as_json(tmp_path):
    response = KEY.replace("Entity=(e2-animal-1)", "Entity=(e1-person-1)").replace("Entity=e2)", "Entity=e2)(e3-x)")
    (tmp_path / "key.conllu").write_text(KEY, encoding="utf-8")
    (tmp_path / "response.conllu").write_text(response, encoding="utf-8")
    as_json = {"key": [[[0, 0], [2, 2]], [[2, 4], [6, 6]]], "response": [[[0, 0], [2, 2], [6, 6]], [[2, 4]], [[4, 4]]]}
    for side in ("key", "response"):
        (tmp_path / f"{side}.jsonl").write_text(json.dumps({"id": "doc1", "clusters": as_json[side]}) + "\n")
    from_corefud = accord.coref(tmp_path / "key.conllu", tmp_path / "response.conllu")
    from_json = accord.coref(tmp_path / "key.jsonl", tmp_path / "response.jsonl")
    for metric in ("muc", "bcub", "ceafe", "blanc", "lea"):
        assert from_corefud.source[metric].f1 == from_json.source[metric].f1, metric
    # MUC by hand: key links 1 + 1 = 2; response links 2 + 0 + 0 = 2; common: (Mary, her) only -> R 1/2, P 1/2
    muc = from_corefud.source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 2, 1, 2)


def test_discontinuous_mentions_read_as_their_hull_with_a_warning(tmp_path):
    text = (HEADER + _word(1, "a", "(e1[1/2]-x-1)") + _word(2, "b") + _word(3, "c", "(e1[2/2]-x-1)")
            + _word(4, "d", "(e1-x)") + "\n")
    (tmp_path / "d.conllu").write_text(text, encoding="utf-8")
    with pytest.warns(AccordWarning, match="1 discontinuous mention"):
        assert read_coref(tmp_path / "d.conllu") == {"doc1": [[(0, 2), (3, 3)]]}


@pytest.mark.parametrize("body, message", [
    (_word(1, "a", "e1)"), "entity e1 closes here but no mention of it is open"),
    (_word(1, "a", "(e1-x"), "opened on line 3 never closes"),
    (_word(1, "a", "(-x)"), "without an entity id"),
    ("1\ta\t_\n", "expected 10 tab-separated columns"),
])
def test_errors_name_the_line(tmp_path, body, message):
    (tmp_path / "bad.conllu").write_text(HEADER + body + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        read_coref(tmp_path / "bad.conllu")
