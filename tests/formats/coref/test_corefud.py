"""CorefUD's Entity annotation (CoNLL-U MISC) read for accord coref; hand counts and the same clusters as JSON."""

import gzip
import json
import warnings
from pathlib import Path

import pytest

import accord
from accord.errors import AccordWarning, FormatError
from accord.formats.coref.clusters import read_coref

from ...conftest import DATA

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


# ------------------------------------------------------------------ the CorefUD scorer's exact-match suite
_CORPORA = Path(__file__).resolve().parents[3].parent / "shared" / "corpora"
SUITE = next((d for d in (_CORPORA / "outside3" / "coref_corefud" / "exact-match",
                          _CORPORA / "outside3b" / "corefud" / "exact-match") if d.is_dir()), None)
"""ufal/corefud-scorer's tests/tests-corefud/exact-match: the CoNLL-2012 reference suite's cases written as CorefUD
(and its own TC-O), read from ../shared/corpora."""

REFERENCE_CASES = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]
PERL_SUITE = _CORPORA / "outside" / "coref_perl" / "tc"


def _case_files(case_id, folder):
    letter, number = case_id.rstrip("0123456789"), case_id.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    if folder is None or not (folder / f"TC-{letter}-{number}.response").exists():
        pytest.skip(f"TC-{letter}-{number} not found under {_CORPORA}")
    return folder / f"TC-{letter}.key", folder / f"TC-{letter}-{number}.response"


def _close(got, exp):
    # the reference harness passes when |dR| + |dP| + |dF| < 1e-4 (some expected values are rounded to 5 places)
    return abs(got.recall - exp["recall"]) + abs(got.precision - exp["precision"]) + abs(got.f1 - exp["f1"]) < 1e-4


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c["id"] for c in REFERENCE_CASES])
def test_every_case_of_the_exact_match_suite_scores_its_expected_values(case):
    """Each TC case as CorefUD scores what the reference scorer's configuration expects of it (TC-A-8 and TC-A-9
    were MUC 0/3 before: a span of two entities was kept in the entity whose mention closed first)."""
    key, response = _case_files(case["id"], SUITE)
    result = accord.coref(key, response, format="corefud")
    for metric, exp in case["expected"].items():
        assert _close(result.source[metric], exp), (metric, result.source[metric].recall,
                                                    result.source[metric].precision)


def test_tc_o_1_of_the_corefud_suite_by_its_readme():
    """TC-O-1 (corefud-scorer's ExtraTestCases.README, from Cai and Strube 2011): key {a b c}, response {a b d}
    {i j}: B-cubed recall 4/9, precision 4/15."""
    key, response = _case_files("O1", SUITE)
    bcub = accord.coref(key, response, format="corefud").source["bcub"]
    assert bcub.recall == pytest.approx(4 / 9) and bcub.precision == pytest.approx(4 / 15)


@pytest.mark.parametrize("case", REFERENCE_CASES, ids=[c["id"] for c in REFERENCE_CASES])
def test_the_same_clusters_in_the_same_order_from_corefud_and_conll_2012(case):
    """The suite's CorefUD files and the reference scorer's own CoNLL-2012 files of the same case give the same
    clusters, listed in the same order (the order decides where a span of two entities stays)."""
    key, response = _case_files(case["id"], SUITE)
    conll_key, conll_response = _case_files(case["id"], PERL_SUITE)
    for corefud, conll in ((key, conll_key), (response, conll_response)):
        (ud,) = read_coref(corefud, "corefud").values()
        (c12,) = read_coref(conll, "conll2012").values()
        assert ud == c12


def test_one_word_mentions_of_a_word_come_before_its_openings(tmp_path):
    """As the reference scorer numbers a CoNLL-2012 token's parts (one-token mentions, then openings): on 'b',
    ``(e3-x(e1-x)(e3-x)`` lists e1 before e3, so the span 'b' written in both stays in e1 and e3 keeps 'b c'.
    The same file as CoNLL-2012 (``(3|(1)|(3)``), scored by scorer.pl v8.01 by hand: MUC recall 0/1, precision
    0/0; B-cubed recall 1/2, precision 2/2 (with e3 first, as written, MUC would be 1/1)."""
    response = HEADER + _word(1, "a") + _word(2, "b", "(e3-x(e1-x)(e3-x)") + _word(3, "c", "e3)") + "\n"
    key = HEADER + _word(1, "a") + _word(2, "b", "(e9-x)(e9-x") + _word(3, "c", "e9)") + "\n"
    (tmp_path / "r.conllu").write_text(response, encoding="utf-8")
    (tmp_path / "k.conllu").write_text(key, encoding="utf-8")
    assert read_coref(tmp_path / "r.conllu") == {"doc1": [[(1, 1)], [(1, 1), (1, 2)]]}
    result = accord.coref(tmp_path / "k.conllu", tmp_path / "r.conllu").source
    muc, bcub = result["muc"], result["bcub"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (0, 1, 0, 0)
    assert (bcub.recall, bcub.precision) == (0.5, 1.0)


# ------------------------------------------------------------------ columns, zeros, names
@pytest.mark.parametrize("n", [9, 11])
def test_other_column_counts_are_errors(tmp_path, n):
    line = "\t".join(["1", "a"] + ["_"] * (n - 3) + ["Entity=(e1-x)"]) + "\n"
    (tmp_path / "bad.conllu").write_text(HEADER + line + "\n", encoding="utf-8")
    with pytest.raises(FormatError, match=rf"bad\.conllu:3: expected 10 tab-separated columns \(as CoNLL-U "
                                          rf"requires\), found {n}$"):
        read_coref(tmp_path / "bad.conllu")


def test_conllu_plus_columns(tmp_path):
    header = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC PARSEME:MWE\n"
    body = "".join(_word(k, w, e).replace("\n", "\t*\n") for k, w, e in ((1, "a", "(e1-x)"), (2, "b", None),
                                                                          (3, "c", "(e1-x)")))
    (tmp_path / "p.conllu").write_text(header + "# newdoc id = d\n" + body + "\n", encoding="utf-8")
    assert read_coref(tmp_path / "p.conllu") == {"d": [[(0, 0), (2, 2)]]}
    (tmp_path / "q.conllu").write_text(header + "# newdoc id = d\n" + _word(1, "a", "(e1-x)") + "\n",
                                       encoding="utf-8")
    with pytest.raises(FormatError, match=r"q\.conllu:3: expected 11 tab-separated columns \(as its "
                                          r"'# global.columns' line declares\), found 10$"):
        read_coref(tmp_path / "q.conllu")
    (tmp_path / "r.conllu").write_text("# global.columns = ID FORM\n1\ta\n", encoding="utf-8")
    with pytest.raises(FormatError, match="declares no MISC column"):
        read_coref(tmp_path / "r.conllu")


def test_entities_on_empty_nodes_are_counted_in_a_warning(tmp_path):
    text = HEADER + _word(1, "a", "(e1-x)") + "1.1\t_\t_\t_\t_\t_\t_\t_\t_\tEntity=(e1-x)\n" + _word(2, "b") + "\n"
    (tmp_path / "z.conllu").write_text(text, encoding="utf-8")
    with pytest.warns(AccordWarning, match="the Entity of 1 empty node"):
        assert read_coref(tmp_path / "z.conllu") == {"doc1": [[(0, 0)]]}
    # a mention closing on an empty node: the error says why it never closes
    text = HEADER + _word(1, "a", "(e1-x") + "1.1\t_\t_\t_\t_\t_\t_\t_\t_\tEntity=e1)\n" + _word(2, "b") + "\n"
    (tmp_path / "y.conllu").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"never closes \(an Entity on an empty node, such as 5\.1, is not read\)"):
        read_coref(tmp_path / "y.conllu")


@pytest.mark.parametrize("name", ["key.txt", "key", "key.conll"])
def test_corefud_recognised_by_its_content_whatever_its_name(tmp_path, capsys, name):
    """Before, a CorefUD file not named .conllu was read as CoNLL-2012 and refused ('a token line outside
    #begin document')."""
    from accord.cli import main

    (tmp_path / name).write_text(KEY, encoding="utf-8")
    (tmp_path / "response.conllu").write_text(KEY, encoding="utf-8")
    assert read_coref(tmp_path / name) == read_coref(tmp_path / "response.conllu")
    assert main(["coref", str(tmp_path / name), str(tmp_path / "response.conllu"), "--metrics", "muc",
                 "--output", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["measures"]["muc"]["totals"]["f1"] == 1.0
    # without the global.Entity comment: an Entity attribute in MISC is enough
    (tmp_path / name).write_text(KEY.replace("# global.Entity = eid-etype-head-other\n", ""), encoding="utf-8")
    assert read_coref(tmp_path / name) == read_coref(tmp_path / "response.conllu")


GUM = _CORPORA / "outside3" / "coref_corefud"
# ufal/corefud-scorer (commit 4fd7b0e) on the same files, run once by hand outside the test suite:
# corefud-scorer.py gum_test.conllu gum_resp.conllu --keep-singletons --exact-match, its printout (percent, 2 places)
COREFUD_SCORER_ON_GUM = {"muc": (70.37, 78.17), "bcub": (72.53, 82.80), "ceafe": (76.79, 80.91),
                         "ceafm": (77.63, 83.76), "blanc": (65.78, 84.79), "lea": (62.42, 72.37)}


def test_gum_scores_what_the_corefud_scorer_prints(tmp_path):
    """A real CorefUD corpus (GUM's test documents and a system's response, 30 documents) scores what the official
    CorefUD scorer prints for it, to its two decimal places, on every metric."""
    if not (GUM / "gum_test.conllu.gz").exists():
        pytest.skip(f"GUM files not found in {GUM}")
    paths = []
    for name in ("gum_test.conllu", "gum_resp.conllu"):
        with gzip.open(GUM / f"{name}.gz") as fh:
            (tmp_path / name).write_bytes(fh.read())
        paths.append(tmp_path / name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = accord.coref(*paths)
    for metric, (recall, precision) in COREFUD_SCORER_ON_GUM.items():
        got = result.source[metric]
        assert abs(100 * got.recall - recall) <= 0.005 + 1e-9, metric
        assert abs(100 * got.precision - precision) <= 0.005 + 1e-9, metric
