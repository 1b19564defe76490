"""``accord coref --preset corefud`` and its options against the CorefUD scorer (ufal/corefud-scorer v1.2, the CRAC
shared tasks' official scorer): its whole test suite (exact-match, head-match, partial-corefud-match, zeros) under
every matching and singleton setting, and UD English-GUM's test documents against a system's response, every metric,
totals and per document.

The scorer's numbers are held in tests/data/corefud_scorer/numbers.json.gz (written by
``python tests/structured/_corefud_peer.py SUITE GUM OUT``, which runs the scorer with udapi in process); where the
scorer and udapi are at hand (``$ACCORD_COREFUD_SCORER`` or the fetched mirror, ``pip install udapi``) the tests run it
too and check that it still gives the held numbers.
"""

from __future__ import annotations

import gzip
import json
import logging
import os
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.errors import AccordError, FormatError, OptionError

from ._corefud_peer import GUM_SETTINGS, peer_scores, scorer_dir, suite_cases

ROOT = Path(__file__).resolve().parents[2]
CORPORA = ROOT.parent / "shared" / "corpora"
SUITE = CORPORA / "outside3b" / "corefud"
GUM = CORPORA / "outside3" / "coref_corefud"
HELD_FILE = ROOT / "tests" / "data" / "corefud_scorer" / "numbers.json.gz"
HELD = json.loads(gzip.decompress(HELD_FILE.read_bytes())) if HELD_FILE.exists() else {"suite": {}, "gum": {}}
METRICS = ("muc", "bcub", "ceafm", "ceafe", "blanc", "lea", "mor", "zero", "mentions")
FULL = os.environ.get("ACCORD_FULL") == "1"


def _accord(key, response, match, singletons, zeros):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.coref(key, response, preset="corefud", mention_match=match, singletons=singletons,
                            zeros=zeros).source


def _same(got, want):
    return all(abs(a - b) < 1e-9 for a, b in zip((got.recall, got.precision, got.f1), want))


def _by_response() -> dict[str, list]:
    out: dict[str, list] = {}
    for case in suite_cases(SUITE) if SUITE.is_dir() else []:
        out.setdefault(case[2].relative_to(SUITE).as_posix(), []).append(case)
    return out


CASES = _by_response()


@pytest.mark.parametrize("response", sorted(CASES) or ["(suite absent)"])
def test_every_case_of_the_corefud_suite_equals_the_corefud_scorer(response):
    """Each response of the scorer's suite under exact, head and partial matching, singletons kept and dropped (and
    in zeros/, zeros matched by dependencies, as other mentions, or dropped): every metric's recall, precision and F1
    are the scorer's. (Before: no option but exact spans with singletons, zeros unread, discontinuous mentions as
    their hull; head-match and zeros cases could not be scored at all.)"""
    if not CASES:
        pytest.skip(f"the CorefUD suite is not under {SUITE}")
    if not HELD["suite"]:
        pytest.skip(f"{HELD_FILE} is missing")
    checked = 0
    for case, key, resp, match, singletons, zeros in CASES[response]:
        want = HELD["suite"].get(case)
        if want is None:    # the scorer fails on it (a zero without enhanced dependencies under dependent matching)
            continue
        got = _accord(key, resp, match, singletons, zeros)
        for metric in METRICS:
            assert _same(got[metric], want[metric]), (case, metric, got[metric], want[metric])
        checked += 1
    assert checked


def test_the_held_suite_numbers_are_the_scorer_s_own():
    """The held numbers are what the scorer gives now (three cases of the grid, spread over it, each a run of the scorer
    of about 7 s; all of it with ACCORD_FULL=1)."""
    if scorer_dir() is None:
        pytest.skip("the CorefUD scorer or udapi is not at hand: the held numbers stand for it")
    logging.disable(logging.WARNING)
    try:
        cases = [c for c in suite_cases(SUITE) if c[0] in HELD["suite"]]
        for case, key, resp, match, singletons, zeros in cases if FULL else cases[::max(1, len(cases) // 3)][:3]:
            got = peer_scores(key, resp, match=match, singletons=singletons, zeros=zeros)
            for metric in METRICS:
                assert got[metric]["total"] == pytest.approx(HELD["suite"][case][metric], abs=1e-9), (case, metric)
    finally:
        logging.disable(logging.NOTSET)


@pytest.fixture(scope="module")
def gum(tmp_path_factory):
    if not (GUM / "gum_test.conllu.gz").exists():
        pytest.skip(f"GUM files not found in {GUM}")
    tmp = tmp_path_factory.mktemp("gum")
    for name in ("gum_test.conllu", "gum_resp.conllu"):
        (tmp / name).write_bytes(gzip.decompress((GUM / f"{name}.gz").read_bytes()))
    return tmp / "gum_test.conllu", tmp / "gum_resp.conllu"


@pytest.mark.parametrize("setting", GUM_SETTINGS, ids=[":".join(s) for s in GUM_SETTINGS])
def test_gum_equals_the_corefud_scorer_totals_and_per_document(gum, setting):
    """UD English-GUM (30 test documents) against a system's response: every metric, the totals and each of the
    30 documents, as the CorefUD scorer computes them (head:drop:dependent is its default, CoNLL F1 72.55)."""
    want = HELD["gum"].get(":".join(setting))
    if want is None:
        pytest.skip(f"{HELD_FILE} is missing")
    got = _accord(*gum, *setting)
    for metric in METRICS:
        assert _same(got[metric], want[metric]["total"]), metric
        assert set(got[metric].by_document) == set(want[metric]["documents"])
        for doc, numbers in want[metric]["documents"].items():
            assert _same(got[metric].by_document[doc], numbers), (metric, doc)
    if setting == ("head", "drop", "dependent"):
        conll = sum(got[m].f1 for m in ("muc", "bcub", "ceafe")) / 3
        assert round(100 * conll, 2) == 72.55


@pytest.mark.slow
def test_gum_held_numbers_are_the_scorer_s_own(gum):
    """The scorer run on GUM now gives the held numbers (25 to 70 s a setting: with ACCORD_FULL=1 only)."""
    if not FULL or scorer_dir() is None:
        pytest.skip("ACCORD_FULL=1 and the CorefUD scorer with udapi are needed")
    logging.disable(logging.WARNING)
    try:
        got = peer_scores(*gum, match="head", singletons="drop", zeros="dependent")
    finally:
        logging.disable(logging.NOTSET)
    want = HELD["gum"]["head:drop:dependent"]
    for metric in METRICS:
        assert got[metric]["total"] == pytest.approx(want[metric]["total"], abs=1e-9)


# ------------------------------------------------------------------ small cases counted by hand
HEADER = "# newdoc id = d\n# global.Entity = eid-etype-head-other\n# sent_id = 1\n"


def _line(n, entity=None, ident=None):
    misc = f"Entity={entity}" if entity else "_"
    return f"{ident or n}\tw{n}\t_\t_\t_\t_\t0\t_\t_\t{misc}\n"


def _file(tmp_path, name, lines):
    (tmp_path / name).write_text(HEADER + "".join(lines) + "\n", encoding="utf-8")
    return tmp_path / name


def test_head_and_partial_matching_by_hand(tmp_path):
    """Key: one entity {w1-w3 (head field 2: w2), w5}; response: {w2-w3 (head field 1: w2), w5}. Exact: w2-w3 is not
    w1-w3, MUC recall 0/1 (the key's two mentions: one unmatched, tp = 2 - 1 - 1). Head: the same head w2, overlap
    2/3 > 0, aligned: MUC 1/1. Partial: w2-w3 lies within w1-w3 and holds its head: aligned, MUC 1/1."""
    key = _file(tmp_path, "k.conllu", [_line(1, "(e1-x-2-"), _line(2), _line(3, "e1)"), _line(4),
                                       _line(5, "(e1-x-1-)")])
    resp = _file(tmp_path, "r.conllu", [_line(1), _line(2, "(e7-x-1-"), _line(3, "e7)"), _line(4),
                                        _line(5, "(e7-x-1-)")])
    for match, links in (("exact", 0), ("head", 1), ("partial", 1)):
        muc = _accord(key, resp, match, "keep", "dependent")["muc"]
        assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (links, 1, links, 1), match


def test_singletons_dropped_before_scoring(tmp_path):
    """Key {w1, w3}, {w5}; response {w1, w3}, {w6}. Kept: B-cubed recall (2²/2 + 0) / 3 = 2/3, precision likewise
    2/3. Dropped: each side holds {w1, w3} only: recall and precision 1."""
    key = _file(tmp_path, "k.conllu", [_line(1, "(e1-x-1-)"), _line(2), _line(3, "(e1-x-1-)"), _line(4),
                                       _line(5, "(e2-x-1-)"), _line(6)])
    resp = _file(tmp_path, "r.conllu", [_line(1, "(e1-x-1-)"), _line(2), _line(3, "(e1-x-1-)"), _line(4),
                                        _line(5), _line(6, "(e2-x-1-)")])
    kept = _accord(key, resp, "exact", "keep", "dependent")["bcub"]
    assert (kept.recall, kept.precision) == pytest.approx((2 / 3, 2 / 3))
    dropped = _accord(key, resp, "exact", "drop", "dependent")["bcub"]
    assert (dropped.recall, dropped.precision) == (1.0, 1.0)
    assert accord.coref(key, resp, singletons="drop").source["bcub"].recall == 1.0   # also for exact spans


def test_a_discontinuous_mention_is_its_words_not_its_hull(tmp_path):
    """Key mention w1 + w3 (discontinuous) and w5, one entity; the response writes w1-w3 (the hull) and w5. As word
    sets they differ (exact: no link); the conll2012 preset reads the hull and finds the link."""
    key = _file(tmp_path, "k.conllu", [_line(1, "(e1[1/2]-x-1-)"), _line(2), _line(3, "(e1[2/2]-x-1-)"),
                                       _line(4), _line(5, "(e1-x-1-)")])
    resp = _file(tmp_path, "r.conllu", [_line(1, "(e1-x-1-"), _line(2), _line(3, "e1)"), _line(4),
                                        _line(5, "(e1-x-1-)")])
    assert _accord(key, resp, "exact", "keep", "dependent")["muc"].recall == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert accord.coref(key, resp).source["muc"].recall == 1.0


def test_a_zero_is_a_mention_under_corefud_and_not_read_under_conll2012(tmp_path):
    """An empty node 2.1 in entity e1 with w1 and w3: under corefud the key has 3 mentions, under conll2012 2."""
    lines = [_line(1, "(e1-x-1-)"), _line(2), _line(2, "(e1-x-1-)", ident="2.1"), _line(3, "(e1-x-1-)")]
    key = _file(tmp_path, "k.conllu", lines)
    got = accord.coref(key, key, preset="corefud").measures["mentions"].totals()
    assert (got["recall_num"], got["recall_den"]) == (3, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = accord.coref(key, key).measures["mentions"].totals()
    assert (got["recall_num"], got["recall_den"]) == (2, 2)
    got = accord.coref(key, key, preset="corefud", zeros="drop").measures["mentions"].totals()
    assert got["recall_den"] == 2


def test_corefud_settings_need_corefud_files(tmp_path):
    conll = tmp_path / "k.conll"
    conll.write_text("#begin document (d); part 000\nd\t0\t0\ta\t(1)\n\n#end document\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"--mention-match head needs CorefUD files"):
        accord.coref(conll, conll, mention_match="head")
    with pytest.raises(OptionError, match="preset must be one of conll2012, corefud"):
        accord.coref(conll, conll, preset="crac")
    with pytest.raises(OptionError, match="mention_match must be one of"):
        accord.coref(SUITE / "head-match" / "TC-HMA.key", SUITE / "head-match" / "TC-HMA.key", mention_match="x")
    assert issubclass(FormatError, AccordError)


def test_the_command_line_options_and_the_json(tmp_path, capsys):
    key = SUITE / "head-match" / "TC-HMA.key"
    if not key.exists():
        pytest.skip(f"{key} not found")
    resp = SUITE / "head-match" / "TC-HMA-2.response"
    assert main(["coref", str(key), str(resp), "--preset", "corefud", "--output", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["options"]["preset"] == "corefud" and out["options"]["mention_match"] == "head"
    assert out["options"]["singletons"] == "drop" and out["options"]["zeros"] == "dependent"
    api = _accord(key, resp, "head", "drop", "dependent")
    for metric in METRICS:
        assert out["measures"][metric]["totals"]["f1"] == pytest.approx(api[metric].f1, abs=1e-12)
    with pytest.raises(SystemExit) as exc:
        main(["coref", str(key), str(resp), "--mention-match", "nope"])
    assert exc.value.code == 2
    capsys.readouterr()
    assert main(["coref", str(key), str(resp), "--truncate", "--output", "json"]) == 2
    assert "--digits and --truncate shape the terminal table" in capsys.readouterr().err


def test_an_entity_id_of_several_documents_is_ordered_by_its_first_document(tmp_path):
    """udapi reads an eid written in two documents as one entity (split by document later), ordered by its mention
    in the first: in d2 below e1 comes before e2 although e2's first mention there is earlier, so the word w2 written
    in both is looked up in e2 (the last). The response's entity {w2, w3} of d2 then meets e2 and e1: MUC precision
    0/1 (ordering by d2 alone would look w2 up in e1: 1/1). Checked against the CorefUD scorer when at hand."""
    head = "# global.Entity = eid-etype-head-other\n"
    d1 = "# newdoc id = d1\n# sent_id = 1\n" + _line(1, "(e1-x-1-)") + _line(2, "(e2-x-1-)") + "\n"
    key = head + d1 + "# newdoc id = d2\n# sent_id = 2\n" + _line(1, "(e2-x-1-)") + _line(2, "(e1-x-1-)(e2-x-1-)") \
        + _line(3, "(e1-x-1-)") + "\n"
    resp = head + d1 + "# newdoc id = d2\n# sent_id = 2\n" + _line(1) + _line(2, "(e9-x-1-)") + _line(3, "(e9-x-1-)") \
        + "\n"
    (tmp_path / "k.conllu").write_text(key, encoding="utf-8")
    (tmp_path / "r.conllu").write_text(resp, encoding="utf-8")
    muc = _accord(tmp_path / "k.conllu", tmp_path / "r.conllu", "exact", "keep", "dependent")["muc"]
    d2 = muc.by_document["d2"]
    assert (d2.precision_num, d2.precision_den) == (0, 1)
    if scorer_dir() is not None:
        logging.disable(logging.WARNING)
        try:
            got = peer_scores(tmp_path / "k.conllu", tmp_path / "r.conllu", match="exact", singletons="keep",
                              zeros="dependent")
        finally:
            logging.disable(logging.NOTSET)
        assert got["muc"]["documents"]["d2"] == pytest.approx((d2.recall, d2.precision, d2.f1))
        assert got["muc"]["total"] == pytest.approx((muc.recall, muc.precision, muc.f1))


def test_mor_by_hand_and_only_under_corefud_settings(tmp_path):
    """MOR pairs overlapping mentions by the words they share: key w1-w3 and w5, response w2-w4 and w5 (one entity
    each side): shared 2 + 1 words, key words 3 + 1, response words 3 + 1: recall 3/4, precision 3/4. The CoNLL-2012
    reading has no MOR: asking for it is an error."""
    key = _file(tmp_path, "k.conllu", [_line(1, "(e1-x-1-"), _line(2), _line(3, "e1)"), _line(4),
                                       _line(5, "(e1-x-1-)")])
    resp = _file(tmp_path, "r.conllu", [_line(1), _line(2, "(e1-x-1-"), _line(3), _line(4, "e1)"),
                                        _line(5, "(e1-x-1-)")])
    mor = accord.coref(key, resp, preset="corefud", metrics=["mor"]).source["mor"]
    assert (mor.recall_num, mor.recall_den, mor.precision_num, mor.precision_den) == (3, 4, 3, 4)
    with pytest.raises(OptionError, match="--metrics mor is the CorefUD scorer's"):
        accord.coref(key, resp, metrics=["mor"])
