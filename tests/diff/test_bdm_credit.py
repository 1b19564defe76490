"""BDM credit in the Annotation Diff measures (GATE's OntologyMeasures), counted by hand."""

import pytest

from accord.bdm import BdmTable, Taxonomy, bdm_scores
from accord.diff import DiffCounts, diff_corpora, parse_measure
from accord.errors import OptionError, TallyError
from accord.model import Corpus, Document
from accord.model import make_annotation as A

TABLE = BdmTable(bdm_scores(Taxonomy.from_edges([
    ("Entity", None), ("Person", "Entity"), ("Organisation", "Entity"), ("Politician", "Person"),
    ("Artist", "Person"), ("Company", "Organisation")])))
PERSON_POLITICIAN = 0.6 / (0.6 + 0.5)        # see tests/bdm/test_bdm.py
POLITICIAN_ARTIST = 0.375


def corpus(*anns):
    return Corpus([Document("d", tuple(anns), text="x" * 40)])


def test_types_compared_when_no_feature_is_significant():
    key = corpus(A("Person", 0, 5), A("Artist", 10, 15), A("Company", 20, 25), A("Person", 30, 35))
    resp = corpus(A("Politician", 0, 5), A("Politician", 10, 15), A("Person", 20, 25), A("Person", 30, 35))
    cd = diff_corpora(key, resp, bdm=TABLE)
    person = cd.counts(type="Person")
    # Person: [30,35) correct; [0,5) missing, credited by the Politician response there
    assert (person.correct, person.missing, person.bdm) == (1, 1, pytest.approx(PERSON_POLITICIAN))
    assert cd.counts(type="Artist").bdm == pytest.approx(POLITICIAN_ARTIST)
    assert cd.counts(type="Company").bdm == 0.0                        # Person/Company meet at the top
    # strict-bdm P = (B + c) / (c + s); Person has c = 1, s = 1 (the Person response on the Company), m = 1
    assert person.spurious == 1
    assert person.precision("strict-bdm") == pytest.approx((PERSON_POLITICIAN + 1) / 2)
    assert person.recall("strict-bdm") == pytest.approx((PERSON_POLITICIAN + 1) / 2)
    total = cd.counts()
    assert (total.correct, total.missing, total.spurious) == (1, 3, 3)
    assert total.bdm == pytest.approx(PERSON_POLITICIAN + POLITICIAN_ARTIST)
    assert total.recall("strict-bdm") == pytest.approx((1 + total.bdm) / 4)
    assert total.precision("strict") == 0.25 and total.recall("strict") == 0.25


def test_feature_values_compared_and_one_response_per_key():
    key = corpus(A("Mention", 0, 5, {"class": "Person"}), A("Mention", 10, 15, {"class": "Artist"}))
    resp = corpus(A("Mention", 0, 5, {"class": "Politician"}), A("Mention", 10, 15, {"class": "Politician"}),
                  A("Mention", 10, 15, {"class": "Artist"}))
    cd = diff_corpora(key, resp, features=["class"], bdm=TABLE)
    c = cd.counts()
    # [0,5) mismatch: credit Person~Politician; [10,15) correct (the Artist response), the other spurious
    assert (c.correct, c.missing, c.spurious) == (1, 1, 2)
    assert c.bdm == pytest.approx(PERSON_POLITICIAN)
    # a different type never earns credit when features are compared
    cd = diff_corpora(corpus(A("Mention", 0, 5, {"class": "Person"})),
                      corpus(A("Other", 0, 5, {"class": "Person"})), features=["class"], bdm=TABLE)
    assert cd.counts().bdm == 0.0


def test_two_keys_one_response():
    key = corpus(A("Artist", 0, 5), A("Politician", 0, 5))
    resp = corpus(A("Person", 0, 5))
    c = diff_corpora(key, resp, bdm=TABLE).counts()
    # both keys are missing; the Person response goes to the closer one only (tie: both 0.545, first in order)
    assert c.bdm == pytest.approx(PERSON_POLITICIAN)
    assert c.missing == 2 and c.spurious == 1


def test_lenient_and_average_bdm():
    c = DiffCounts(correct=2, partial=1, missing=2, spurious=1, bdm=0.5)
    # strict: (0.5 + 2) / (2 + 1), (0.5 + 2) / (2 + 2); lenient adds p to the numerators only
    assert c.precision("strict-bdm") == pytest.approx(2.5 / 3)
    assert c.recall("strict-bdm") == pytest.approx(2.5 / 4)
    assert c.precision("lenient-bdm") == pytest.approx(3.5 / 3)       # above 1, as GATE's
    assert c.recall("average-bdm") == pytest.approx((2.5 / 4 + 3.5 / 4) / 2)
    fs, fl = c.f("strict-bdm"), c.f("lenient-bdm")
    assert c.f("average-bdm") == pytest.approx((fs + fl) / 2)
    assert DiffCounts().precision("strict-bdm") == 1.0                 # c + s = 0
    assert c.to_dict(("strict-bdm",))["bdm"] == 0.5
    assert "bdm" not in c.to_dict(("strict",))


def test_measure_names_and_bounds():
    assert parse_measure("Strict BDM") == "strict-bdm"
    assert parse_measure("lenient_bdm") == "lenient-bdm"
    with pytest.raises(OptionError, match="unknown measure"):
        parse_measure("bdm")
    with pytest.raises(TallyError, match="BDM credit"):
        DiffCounts(missing=1, bdm=1.5)
