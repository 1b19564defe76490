"""accord.score on hand-counted corpora: profiles, score profiles, options, and properties."""

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import accord
from accord.cli import main
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.model.schema import parse_task

TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PERSON'/><annotation label='LOCATION'/><annotation label='GPE'/>
<attribute name='nomtype' of_annotation='PERSON,LOCATION,GPE'><choice>NAM</choice><choice>NOM</choice></attribute>
</annotation_set_descriptor></annotation_set_descriptors>
<score_profile>
  <aggregation name='places' true_labels='LOCATION,GPE'/>
  <attr_decomposition attrs='nomtype' true_labels='PERSON'/>
  <partition_decomposition method='metadata:genre' true_labels='LOCATION'/>
</score_profile>
<score_profile name='people'><label_limitation true_labels='PERSON'/></score_profile>
</task>"""


def corpora():
    # doc a (genre news): PERSON 0-4 NAM matched; PERSON 10-14 NOM missing; LOCATION 20-25 matched;
    #                      predicted GPE 30-33 spurious
    # doc b (genre blog): LOCATION 0-5 gold vs GPE 0-5 predicted (same span, other label): under strict,
    #                      one missing LOCATION and one spurious GPE; under mat, a clash
    ga = Document("a", (A("PERSON", 0, 4, {"nomtype": "NAM"}), A("PERSON", 10, 14, {"nomtype": "NOM"}),
                        A("LOCATION", 20, 25, {"nomtype": "NAM"})), "x" * 40, metadata={"genre": "news"})
    pa = Document("a", (A("PERSON", 0, 4, {"nomtype": "NAM"}), A("LOCATION", 20, 25, {"nomtype": "NAM"}),
                        A("GPE", 30, 33)), "x" * 40, metadata={"genre": "news"})
    gb = Document("b", (A("LOCATION", 0, 5),), "x" * 10, metadata={"genre": "blog"})
    pb = Document("b", (A("GPE", 0, 5),), "x" * 10, metadata={"genre": "blog"})
    return Corpus([ga, gb], name="gold"), Corpus([pa, pb], name="pred")


def test_strict_hand_count():
    g, p = corpora()
    r = accord.score(g, p)
    assert (r.totals.gold, r.totals.pred, r.totals.match, r.totals.missing, r.totals.spurious) == (4, 4, 2, 2, 2)
    assert r.by_label["PERSON"].missing == 1 and r.by_label["GPE"].spurious == 2
    assert r.by_document["b"].match == 0


def test_mat_profile_clash_and_score_profile_rows():
    g, p = corpora()
    r = accord.score(g, p, task=parse_task(TASK))
    # doc b: LOCATION/GPE pair on the same span: default profile similarity (0*.1 + .9 + ...)<1: a clash
    assert r.by_label["LOCATION"].gold_clash == 1 and r.by_label["GPE"].pred_clash == 1
    assert (r.totals.match, r.totals.gold_clash, r.totals.missing, r.totals.spurious) == (2, 1, 1, 1)
    # aggregation places = LOCATION + GPE: match 1 (doc a), gold_clash 1, pred_clash 1, spurious 1
    pl = r.aggregations["places"]
    assert (pl.match, pl.gold_clash, pl.pred_clash, pl.missing, pl.spurious) == (1, 1, 1, 0, 1)
    # PERSON by nomtype: NAM matched, NOM missing
    assert r.decompositions["PERSON"]["nomtype=NAM"].match == 1
    assert r.decompositions["PERSON"]["nomtype=NOM"].missing == 1
    # LOCATION partitioned by the document's genre
    assert r.decompositions["LOCATION"]["metadata:genre=news"].match == 1
    assert r.decompositions["LOCATION"]["metadata:genre=blog"].gold_clash == 1
    limited = accord.score(g, p, task=parse_task(TASK), score_profile="people")
    assert list(limited.by_label) == ["PERSON"] and limited.totals.gold == 2


def test_equivalence_class_ignore_and_lenient():
    g, p = corpora()
    r = accord.score(g, p, equivalence_classes={"PLACE": ["LOCATION", "GPE"]})
    assert r.by_label["PLACE"].match == 2 and r.by_label["PLACE"].spurious == 1
    r = accord.score(g, p, ignore=["GPE"])
    assert "GPE" not in r.by_label and r.totals.pred == 2
    shifted = Corpus([Document("a", (A("PERSON", 1, 4),), "x" * 10)])
    base = Corpus([Document("a", (A("PERSON", 0, 4),), "x" * 10)])
    assert accord.score(base, shifted).totals.match == 0
    assert accord.score(base, shifted, profile="lenient").totals.match == 1


def test_attributes_make_strict_stricter():
    g, p = corpora()
    p2 = Corpus([d._replace(annotations=tuple(a._replace(attributes=type(a.attributes)({"nomtype": "NOM"}))
                                               if a.label == "PERSON" else a for a in d.annotations))
                 for d in p.values()])
    assert accord.score(g, p2).by_label["PERSON"].match == 1
    assert accord.score(g, p2, attributes=["nomtype"]).by_label["PERSON"].match == 0


def test_zero_division_and_beta():
    empty = Corpus([Document("a", ())])
    r = accord.score(empty, empty, zero_division="one")
    assert (r.precision, r.recall, r.f1) == (1.0, 1.0, 1.0)
    assert accord.score(empty, empty, zero_division="nan").to_dict()["totals"]["precision"] is None
    g, p = corpora()
    r = accord.score(g, p, beta=2.0)
    pr, rc = 2 / 4, 2 / 4
    assert r.f1 == pytest.approx(5 * pr * rc / (4 * pr + rc))


spans = st.lists(st.tuples(st.sampled_from(["A", "B"]), st.integers(0, 30), st.integers(1, 6)), max_size=12)


def corpus_of(docs):
    return Corpus([Document(f"d{i}", tuple(A(lbl, s, s + w) for lbl, s, w in d), "x" * 40) for i, d in enumerate(docs)])


@settings(max_examples=60, deadline=None)
@given(st.lists(spans, min_size=1, max_size=3), st.lists(spans, min_size=1, max_size=3),
       st.sampled_from(["strict", "lenient", "mat"]))
@example(gold_docs=[[("A", 1, 6), ("A", 3, 4)]], pred_docs=[[("B", 0, 3), ("A", 0, 4)]], profile="mat")
def test_properties(gold_docs, pred_docs, profile):
    n = min(len(gold_docs), len(pred_docs))
    g, p = corpus_of(gold_docs[:n]), corpus_of(pred_docs[:n])
    r = accord.score(g, p, profile=profile)
    t = r.totals
    assert t.gold == g.annotation_count() and t.pred == p.annotation_count()
    # scoring a corpus against itself is perfect
    self_r = accord.score(g, g, profile=profile, zero_division="one")
    assert self_r.f1 == 1.0 and self_r.totals.match == t.gold
    # swapping the sides swaps precision and recall, missing and spurious
    s = accord.score(p, g, profile=profile).totals
    assert (s.missing, s.spurious, s.match) == (t.spurious, t.missing, t.match)
    # the order of annotations and documents changes nothing
    rev = Corpus([d._replace(annotations=d.annotations[::-1]) for d in reversed(p.documents)])
    assert accord.score(g, rev, profile=profile).totals == t


def test_cli_errors_are_one_line(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.conll"), str(tmp_path / "nope.conll")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("accord: error:") and "nope.conll" in err and "Traceback" not in err


def test_cli_details_and_csv(tmp_path, data_dir):
    details = tmp_path / "d.jsonl"
    out = tmp_path / "r.csv"
    assert main(["score", str(data_dir / "conll03" / "gold.conll"), str(data_dir / "conll03" / "xlm_flert.conll"),
                 "--output", "csv", "-o", str(out), "--details", str(details)]) == 0
    rows = [json.loads(x) for x in details.read_text().splitlines()]
    outcomes = {}
    for row in rows:
        outcomes[row["outcome"]] = outcomes.get(row["outcome"], 0) + 1
    assert outcomes == {"match": 5339, "missing": 309, "spurious": 410}
    assert any(r["gold_text"] == "JAPAN" for r in rows)
    assert "<all>,all,<all>,,5648,5749,5339" in out.read_text()
