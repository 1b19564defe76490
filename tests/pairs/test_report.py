"""The units' tables of a pairs report (``--by-token``, ``--by-pseudo-token``, ``--by-character``) in the JSON output:
written from their count arrays, column by column, as the measures' own (:meth:`Report.marked_dict`), and the same
text, byte for byte, as the ``json`` module's encoding of :meth:`Report.to_dict` (the plain writer)."""

from __future__ import annotations

import json
from unittest import mock

import pytest

from accord import score
from accord.errors import StatisticsWarning
from accord.model import Corpus, Document, make_annotation
from accord.result import _json_tables
from accord.result._json_text import json_text

SIGNAL = "The future President in our United States of America has announced his resignation."


def _document(doc_id: str, spans: list[tuple[str, str]]) -> Document:
    """``spans`` at the first place their words occur in the text, then a ``lex`` token per whitespace word."""
    anns = [make_annotation(label, SIGNAL.index(words), SIGNAL.index(words) + len(words)) for label, words in spans]
    at = 0
    for word in SIGNAL.split():
        a = SIGNAL.index(word, at)
        anns.append(make_annotation("lex", a, a + len(word)))
        at = a + len(word)
    return Document(doc_id, tuple(anns), text=SIGNAL)


_IDS = ["d0", 'q"uote', "back\\slash", "%s", "é\u2028", "accord-table-0"]
_GOLD = [[("PERSON", "President in our"), ("PERSON", "United States")], [("LOCATION", "United States of")],
         [], [("ORG", "America")], [("PERSON", "President")], [("PERSON", "his")]]
_PRED = [[("PERSON", "President in our United States")], [("PERSON", "our United"), ("ORG", "States of America")],
         [("ORG", "resignation.")], [], [("PERSON", "President")], [("LOCATION", "his")]]


def _report(**kw):
    gold = Corpus([_document(d, s) for d, s in zip(_IDS, _GOLD)])
    pred = Corpus([_document(d, s) for d, s in zip(_IDS, _PRED)])
    return score(gold, pred, profile="mat", units=("token", "pseudo-token", "character"), **kw)


def test_the_unit_tables_are_markers():
    """Each scored unit's ``by_document`` and ``by_document_label`` stand as markers in the marked dict (failed
    before: the units were written one block per row), and resolve to the plain dict's tables."""
    report = _report(confusability="token")
    markers = _json_tables.TableMarkers()
    marked = report.marked_dict(markers)
    for unit in ("token", "pseudo-token", "character"):
        for table in ("by_document", "by_document_label"):
            assert isinstance(marked["units"][unit][table], str)
            assert marked["units"][unit][table].startswith(markers.prefix)
    assert markers.resolved(marked) == report.to_dict()


def test_hand_counts_of_the_token_table():
    """Document d0 (MAT notes 5B, two reference spans against one): 5 tokens match, none missing or spurious, 13
    test tokens; document ``%s``: ORG "America" missed, 1 token. The JSON text says so."""
    out = json.loads(_report().to_json())
    d0 = out["units"]["token"]["by_document"]["d0"]
    assert (d0["match"], d0["missing"], d0["spurious"], d0["test_units"]) == (5, 0, 0, 13)
    assert out["units"]["token"]["by_document_label"]["%s"]["ORG"]["missing"] == 1


@pytest.mark.parametrize("kw", [{}, {"confusability": "token"}, {"zero_division": "nan", "beta": 0.5}])
@pytest.mark.parametrize("indent", [2, 4, 1])
def test_the_text_is_the_plain_writers(kw, indent):
    """``to_json`` equals ``json_text(to_dict())`` with the units, written from the columns (the fallbacks made to
    fail)."""
    report = _report(**kw)
    expected = json_text(report.to_dict(), indent=indent)
    with mock.patch.object(_json_tables.TableMarkers, "resolved", side_effect=AssertionError("fell back")), \
            mock.patch.object(_json_tables, "_indented", side_effect=AssertionError("fell back")):
        got = report.to_json(indent)
    assert got == expected


def test_a_skipped_unit_and_intervals():
    """A unit MAT abandons (a span boundary inside a token) is written as its reason; with bootstrap intervals on
    the units' totals the text is still the plain writer's."""
    gold = Corpus([_document("a", [("PERSON", " future President in our Unit")]), _document("b", [])])
    pred = Corpus([_document("a", [("PERSON", "President in our United State")]), _document("b", [])])
    report = score(gold, pred, profile="mat", units=("token", "character"))
    assert "falls inside a token" in report.units["token"].skipped
    with pytest.warns(StatisticsWarning, match="only 2 documents"):
        report.bootstrap(20, seed=1)
    assert "ci" in report.to_dict()["units"]["character"]["totals"]
    assert report.to_json() == json_text(report.to_dict(), indent=2)
    assert json.loads(report.to_json())["units"]["token"] == {"skipped": report.units["token"].skipped}
