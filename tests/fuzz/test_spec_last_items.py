"""Issue 44's last items on generated inputs: a task's user dimension method returning anything, xml-inline
documents read as an overlay of any markup, GATE's error rate and false positives per token on random corpora, and
CLUEval's attributes and metadata slices. Every run ends in a result or a one-line error, and the figures keep their
definitions (error rate = 1 - precision; false positives per token = spurious / tokens)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord._support.plugins import register_method, unregister_method
from accord.model import Corpus, Document, make_annotation

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=300 if FULL else 25)

TEXT = "John met Mary in Rome today ."
WORDS = [(0, 4), (5, 8), (9, 13), (14, 16), (17, 21), (22, 27), (28, 29)]

TASK = """<task><annotation_set_descriptors><annotation_set_descriptor name='content'>
<annotation label='PER'/><annotation label='LOC'/>
<attribute name='kind' of_annotation='PER,LOC'/>
</annotation_set_descriptor></annotation_set_descriptors>
<similarity_profile><tag_profile true_labels='PER,LOC'>
  <dimension name='_label' weight='1'/><dimension name='_span' weight='1'/>
  <dimension name='kind' weight='1' method='fuzz:anything'/>
</tag_profile></similarity_profile></task>"""

returned = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.integers(-3, 3), st.none(), st.booleans(),
                     st.text(max_size=3), st.tuples(st.floats(0, 1), st.one_of(st.none(), st.text(max_size=3),
                                                                               st.integers())))


@st.composite
def spans(draw, labels=("PER", "LOC")):
    out = []
    for k in draw(st.lists(st.integers(0, len(WORDS) - 1), max_size=4, unique=True)):
        out.append((draw(st.sampled_from(labels)), *WORDS[k], draw(st.sampled_from(["a", "b", None]))))
    return out


def corpus(items):
    return Corpus([Document("d", tuple(make_annotation(lbl, s, e, {} if v is None else {"kind": v})
                                       for lbl, s, e, v in items), TEXT)])


@_EXAMPLES
@given(value=returned, gold=spans(), pred=spans())
def test_a_user_method_returning_anything_ends_in_a_result_or_one_error(value, gold, pred):
    register_method("fuzz:anything", lambda r, h: value)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            d = Path(tmp)
            (d / "task.xml").write_text(TASK, encoding="utf-8")
            accord.write(corpus(gold), d / "g.json", format="mat-json")
            accord.write(corpus(pred), d / "p.json", format="mat-json")
            r = run(["score", str(d / "g.json"), str(d / "p.json"), "--task", str(d / "task.xml"), "-q"])
            ok = (isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 1) or (
                isinstance(value, tuple) and (value[1] is None or isinstance(value[1], str)))
            if r.status == 2:
                assert "fuzz:anything" in r.stderr and not ok
    finally:
        unregister_method("fuzz:anything")


markup = st.lists(st.one_of(st.sampled_from(["<PER>", "</PER>", "<P>", "</P>", "<B x='1'>", "</B>", "<br/>",
                                             "&amp;", "<", ">", "text ", " "]), st.text(max_size=3)), max_size=12)


@_EXAMPLES
@given(pieces=markup, fmt=st.sampled_from(["xml-inline", "fake-xml-inline"]))
def test_overlay_reading_of_any_markup(pieces, fmt):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "task.xml").write_text(TASK.split("<similarity_profile>")[0] + "</task>", encoding="utf-8")
        (d / "g.xml").write_text("".join(pieces), encoding="utf-8")
        run(["score", str(d / "g.xml"), str(d / "g.xml"), "--task", str(d / "task.xml"), "--format", fmt,
             "--xml-input-is-overlay", "-q"])


@_EXAMPLES
@given(gold=spans(), pred=spans(), measure=st.sampled_from(["strict", "lenient", "average"]))
def test_error_rate_and_false_positives_keep_their_definitions(gold, pred, measure):
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        accord.write(corpus(gold), d / "key", format="brat")
        accord.write(corpus(pred), d / "response", format="brat")
        r = run(["qa", str(d / "key"), str(d / "response"), "--measures", measure, "--error-rate", "--fp-per",
                 "token", "--all-types", "--output", "json", "-q"])
        if r.status != 0:
            return
        block = json.loads(r.stdout)["measures"][measure]["totals"]
        assert block["error_rate"] == pytest.approx(1 - block["precision"])
        assert block["tokens"] == len(WORDS)
        assert block["false_positives_per_token"] == pytest.approx(block["spurious"] / len(WORDS))


@_EXAMPLES
@given(gold=spans(), pred=spans(), options=st.lists(st.sampled_from(
    [["--attributes", "kind"], ["--attributes", "nope"], ["--slices", "metadata:genre"], ["--slices", "nesting"],
     ["--leniency", "4"], ["--unlabelled"]]), max_size=3))
def test_clueval_attributes_and_metadata_slices(gold, pred, options):
    g, p = corpus(gold), corpus(pred)
    g = Corpus([doc._replace(metadata={"genre": "news"}) for doc in g.documents])
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        accord.write(g, d / "g.jsonl", format="jsonl")
        accord.write(p, d / "p.jsonl", format="jsonl")
        run(["score", str(d / "g.jsonl"), str(d / "p.jsonl"), "--match", "clueval", "-q", "--output", "json",
             *[x for option in options for x in option]])
