"""MAT similarity: the manual's worked examples and the self-contained cases of MAT's PairTest
(../shared/notes/mat-scorer.md, section 5A), computed by hand in the comments."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accord.errors import PairingError, ProfileError, SchemaError
from accord.match.engine import MATCH, Pairer
from accord.match.similarity import Context, ProfileSimilarity
from accord.model import Corpus, Document
from accord.model import make_annotation as A
from accord.model.schema import parse_task


def task(body: str, profiles: str = "") -> object:
    return parse_task(f"<task><annotation_set_descriptors><annotation_set_descriptor name='content'>{body}"
                      f"</annotation_set_descriptor></annotation_set_descriptors>{profiles}</task>")


def similarity(t, r, h, *, profile=None, equivalences=None):
    sim = ProfileSimilarity(t.similarity_profile(profile), t)
    pairer = Pairer(sim, t, equivalences)
    return sim(r, h, Context(pairer.label, t))[0]


PER_ORG = "<annotation label='PERSON'/><annotation label='ORGANIZATION'/><annotation label='LOCATION'/>"


def test_manual_worked_example_0727():
    # label 0 of 2, span overlap 9/10 > .8 counts 8 of 8, nomtype 0 of 1: 8/11 (the manual's "(8 * 8)" is 1 * 8)
    t = task(PER_ORG + "<attribute name='nomtype' of_annotation='PERSON,ORGANIZATION'/>",
             "<similarity_profile><tag_profile true_labels='PERSON,ORGANIZATION'>"
             "<dimension name='_label' weight='2'/>"
             "<dimension name='_span' method='overlap' weight='8' overlap_match_lower_bound='.8'/>"
             "<dimension name='nomtype' weight='1'/></tag_profile></similarity_profile>")
    r = A("PERSON", 10, 20, {"nomtype": "PRO"})
    h = A("ORGANIZATION", 11, 20, {"nomtype": "NAM"})
    assert similarity(t, r, h) == pytest.approx(8 / 11)
    assert round(similarity(t, r, h), 2) == 0.73


def test_manual_overlap_example_03():
    # 10-15 against 12-20: overlap 12-15 (3) over the combined 10-20 (10)
    t = task(PER_ORG, "<similarity_profile><tag_profile true_labels='PERSON'>"
                      "<dimension name='_span' weight='1'/></tag_profile></similarity_profile>")
    assert similarity(t, A("PERSON", 10, 15), A("PERSON", 12, 20)) == pytest.approx(0.3)


A1 = dict(start=5, end=10)
A2 = dict(start=7, end=11)  # overlap 7-10 (3) over 5-11 (6): .5


def test_pairtest_label_and_span():
    t = task(PER_ORG, "<similarity_profile><tag_profile true_labels='PERSON,LOCATION'>"
                      "<dimension name='_label' weight='.2'/><dimension name='_span' weight='.8'/>"
                      "</tag_profile></similarity_profile>")
    # .2 * 0 + .8 * .5
    assert similarity(t, A("PERSON", 5, 10), A("LOCATION", 7, 11)) == pytest.approx(0.4)


ENAMEX = ("<annotation label='ENAMEX'/><attribute name='type' of_annotation='ENAMEX'>"
          "<choice effective_label='PERSON'>PER</choice><choice effective_label='LOCATION'>LOC</choice>"
          "<choice effective_label='ORGANIZATION'>ORG</choice></attribute>")


def test_pairtest_true_residue_and_equivalence_class():
    t = task(ENAMEX, "<similarity_profile><tag_profile true_labels='ENAMEX'>"
                     "<dimension name='_label' weight='.2' true_residue='.5'/><dimension name='_span' weight='.8'/>"
                     "</tag_profile></similarity_profile>")
    r, h = A("ENAMEX", 5, 10, {"type": "PER"}), A("ENAMEX", 7, 11, {"type": "LOC"})
    assert t.effective_label(r) == "PERSON" and t.effective_label(h) == "LOCATION"
    # same true label, effective labels differ: .2 * .5 + .8 * .5
    assert similarity(t, r, h) == pytest.approx(0.5)
    # PERSON and LOCATION in one equivalence class: .2 * 1 + .8 * .5
    assert similarity(t, r, h, equivalences={"PERSON": "FOO", "LOCATION": "FOO"}) == pytest.approx(0.6)


NOMTYPE = "<attribute name='nomtype' of_annotation='PERSON,LOCATION'/>"


def test_pairtest_attribute_and_dead_weight():
    dims = "<dimension name='_label' weight='.2'/><dimension name='_span' weight='.6'/><dimension name='nomtype' weight='.2'/>"
    t = task(PER_ORG + NOMTYPE, f"<similarity_profile><tag_profile true_labels='PERSON,LOCATION'>{dims}"
                                "</tag_profile></similarity_profile>")
    r, h = A("PERSON", 5, 10, {"nomtype": "NAM"}), A("LOCATION", 7, 11, {"nomtype": "NAM"})
    # 0 + .6 * .5 + .2 * 1
    assert similarity(t, r, h) == pytest.approx(0.5)
    split = task(PER_ORG + NOMTYPE, f"<similarity_profile><tag_profile true_labels='PERSON'>{dims}</tag_profile>"
                                    f"<tag_profile true_labels='LOCATION'>{dims}</tag_profile></similarity_profile>")
    # different tag profiles: nomtype's .2 is dead weight: (0 + .3) / (.2 + .6 + .2)
    assert similarity(split, r, h) == pytest.approx(0.3)


def test_pairtest_set_attribute_jaccard():
    t = task(PER_ORG + "<attribute name='nomtype' of_annotation='PERSON,LOCATION' aggregation='set'/>",
             "<similarity_profile><tag_profile true_labels='PERSON,LOCATION'>"
             "<dimension name='_label' weight='.2'/><dimension name='_span' weight='.5'/>"
             "<dimension name='nomtype' weight='.3'/></tag_profile></similarity_profile>")
    r = A("PERSON", 5, 10, {"nomtype": {"PRO", "NOM"}})
    h = A("LOCATION", 7, 11, {"nomtype": {"PRO", "NAM"}})
    # 0 + .5 * .5 + .3 * 1/3
    assert similarity(t, r, h) == pytest.approx(0.35)


DIGITS = "<attribute name='digits' of_annotation='PERSON,LOCATION' type='int' aggregation='set'/>"


def test_pairtest_nonannotation_remainder():
    t = task(PER_ORG + NOMTYPE + DIGITS,
             "<similarity_profile><tag_profile true_labels='PERSON,LOCATION'>"
             "<dimension name='_label' weight='.2'/><dimension name='_span' weight='.2'/>"
             "<dimension name='_nonannotation_attribute_remainder' weight='.6'/></tag_profile></similarity_profile>")
    r = A("PERSON", 5, 10, {"nomtype": "NAM", "digits": {2, 3, 4}})
    h = A("LOCATION", 7, 11, {"nomtype": "NAM", "digits": {1, 3, 4}})
    # remainder (1 + 2/4) / 2 = .75; 0 + .2 * .5 + .6 * .75
    assert similarity(t, r, h) == pytest.approx(0.55)


def test_pairtest_default_profile():
    t = task(PER_ORG + NOMTYPE + DIGITS)
    r = A("PERSON", 5, 10, {"nomtype": "NAM", "digits": {1}})
    h = A("LOCATION", 7, 11, {"nomtype": "PRO", "digits": {1}})
    # default spanned profile: label .1 (true labels differ: 0), span .9 * .5, remainder .1 * 1/2,
    # annotation remainder has nothing to compare and drops out: (.45 + .05) / 1.1
    assert similarity(t, r, h) == pytest.approx((0.45 + 0.05) / 1.1)


def test_pairtest_non_overlapping_chain_and_pairing():
    t = task("<annotation label='P'/><annotation label='L'/><annotation label='O'/>",
             "<similarity_profile><tag_profile true_labels='P,L,O'>"
             "<dimension name='_label' weight='1'/><dimension name='_span' weight='1'/>"
             "</tag_profile></similarity_profile>")
    a1, a2, a3 = A("P", 5, 10), A("L", 15, 40), A("O", 45, 105)
    b1, b2, b3 = A("P", 5, 55), A("L", 70, 85), A("O", 90, 105)
    expected = {(a1, b1): .55, (a2, b1): .25, (a3, b1): .05, (a3, b2): .125, (a3, b3): .625}
    for r in (a1, a2, a3):
        for h in (b1, b2, b3):
            assert similarity(t, r, h) == pytest.approx(expected.get((r, h), 0.0)), (r, h)
    # all six are one overlap block; the best 1:1 pairing is a1-b1, a3-b3 (total 1.175), all clashes
    sim = ProfileSimilarity(t.similarity_profile(), t)
    al = Pairer(sim, t).align("d", Document("d", (a1, a2, a3)), Document("d", (b1, b2, b3)))
    pairs = {(al.gold[p.gold], al.pred[p.pred]) for p in al.pairs}
    assert pairs == {(a1, b1), (a3, b3)}
    assert sorted(al.gold_status.tolist()) == [1, 1, 2] and sorted(al.pred_status.tolist()) == [1, 1, 2]


RELATION = (PER_ORG + "<annotation label='EVENT' span='no'/>"
            "<attribute name='arg1' of_annotation='EVENT' type='annotation'><label_restriction label='PERSON'/></attribute>")


def test_strata_default_spanned_first_and_relations_pair():
    t = task(RELATION)
    p1, p2 = A("PERSON", 0, 4), A("PERSON", 0, 4)
    g_ev, p_ev = A("EVENT", attributes={"arg1": p1}), A("EVENT", attributes={"arg1": p2})
    sim = ProfileSimilarity(t.similarity_profile(), t)
    al = Pairer(sim, t).align("d", Document("d", (p1, g_ev)), Document("d", (p2, p_ev)))
    assert al.gold_status.tolist() == [0, 0] and al.pred_status.tolist() == [0, 0]


def test_spanned_relation_in_same_stratum_is_an_error():
    spanned = RELATION.replace("label='EVENT' span='no'", "label='EVENT'")
    t = task(spanned)
    with pytest.raises(ProfileError, match="stratified with an annotation type which refers to it"):
        Pairer(ProfileSimilarity(t.similarity_profile(), t), t)
    ok = task(spanned, "<similarity_profile><stratum true_labels='PERSON,ORGANIZATION,LOCATION'/>"
                       "<stratum true_labels='EVENT'/></similarity_profile>")
    Pairer(ProfileSimilarity(ok.similarity_profile(), ok), ok)
    wrong_order = task(spanned, "<similarity_profile><stratum true_labels='EVENT'/>"
                                "<stratum true_labels='PERSON,ORGANIZATION,LOCATION'/></similarity_profile>")
    with pytest.raises(ProfileError, match="before it's paired"):
        Pairer(ProfileSimilarity(wrong_order.similarity_profile(), wrong_order), wrong_order)


def test_cyclic_schema_is_an_error():
    cyclic = (PER_ORG + "<annotation label='EVENT' span='no'/>"
              "<attribute name='arg1' of_annotation='EVENT' type='annotation'>"
              "<label_restriction label='PERSON'/><label_restriction label='EVENT'/></attribute>")
    t = task(cyclic)
    with pytest.raises(ProfileError):
        Pairer(ProfileSimilarity(t.similarity_profile(), t), t)


def test_label_in_two_strata_is_an_error():
    with pytest.raises(SchemaError, match="two strata"):
        task(PER_ORG, "<similarity_profile><stratum true_labels='PERSON'/><stratum true_labels='PERSON'/>"
                      "</similarity_profile>")


def test_taskless_spanless_pointing_to_spanless_pairs_after_it():
    """Without a task, a spanless annotation pairs after the spanless ones it points to (depth by depth)."""
    p = A("PER", 0, 3)
    r1 = A("REL", attributes={"arg": p})
    r2 = A("META", attributes={"of": r1})
    r3 = A("META", attributes={"of": r2})          # the same label one level up: no label order could do this
    sim = ProfileSimilarity(None, None)
    out = Pairer(sim).align("d", Document("d", (p, r1, r2, r3)), Document("d", (p, r1, r2, r3)))
    assert out.gold_status.tolist() == [MATCH] * 4 and out.pred_status.tolist() == [MATCH] * 4


def test_taskless_reference_cycle_is_named():
    from accord.model import Annotation, Attributes

    first = Annotation("EV", None, None, Attributes(), None)
    second = Annotation("EV", None, None, Attributes(arg=first), None)
    dict.__setitem__(first.attributes, "arg", second)   # readers refuse cycles; a Python caller can build one
    other = Document("d", (A("EV", attributes={"x": "y"}),))
    with pytest.raises(PairingError, match="cycle"):
        Pairer(ProfileSimilarity(None, None)).align("d", Document("d", (first, second)), other)


def test_span_on_spanless_label_is_a_profile_error():
    with pytest.raises(ProfileError, match="spanless"):
        t = task(RELATION, "<similarity_profile><tag_profile true_labels='EVENT'>"
                           "<dimension name='_span' weight='1'/></tag_profile></similarity_profile>")
        ProfileSimilarity(t.similarity_profile(), t)


def test_annotation_set_similarity_and_attr_equivalences():
    t = task(PER_ORG + "<annotation label='REL' span='no'/>"
             "<attribute name='a1' of_annotation='REL' type='annotation'><label_restriction label='PERSON'/></attribute>"
             "<attribute name='a2' of_annotation='REL' type='annotation'><label_restriction label='PERSON'/></attribute>",
             "<similarity_profile><tag_profile true_labels='REL'>"
             "<dimension name='_label' weight='1'/>"
             "<dimension name='a1,a2' weight='1' method='_annotation_set_similarity'/>"
             "</tag_profile></similarity_profile>")
    x, y = A("PERSON", 0, 2), A("PERSON", 5, 8)
    hx, hy = A("PERSON", 0, 2), A("PERSON", 5, 8)
    gold = Document("d", (x, y, A("REL", attributes={"a1": x, "a2": y})))
    pred = Document("d", (hx, hy, A("REL", attributes={"a1": hy, "a2": hx})))  # arguments swapped
    sim = ProfileSimilarity(t.similarity_profile(), t)
    al = Pairer(sim, t).align("d", gold, pred)
    assert al.gold_status.tolist() == [0, 0, 0]  # a symmetric relation still matches


def test_validation_errors_name_document_and_rule():
    t = task(ENAMEX + "<annotation label='REL' span='no' all_attributes_known='yes'/>")
    doc = Document("doc7", (A("ENAMEX", 0, 3, {"type": "XYZ"}),))
    with pytest.raises(Exception, match=r"doc7.*must be one of"):
        t.validate(Corpus([doc]))
    with pytest.raises(Exception, match="not declared"):
        t.validate(Corpus([Document("d", (A("FOO", 0, 1),))]))
    with pytest.raises(Exception, match="locked"):
        t.validate(Corpus([Document("d", (A("REL", attributes={"x": "1"}),))]))
    with pytest.raises(Exception, match="spanless|span=\"no\""):
        t.validate(Corpus([Document("d", (A("REL", 0, 2),))]))


@pytest.mark.parametrize("weights, message", [
    (("-1", "2"), "weight '-1'; weights are finite and not negative"),
    (("nan", "1"), "weight 'nan'"),
    (("inf", "1"), "weight 'inf'"),
    (("0", "0"), "total weight of 0"),
    (("x", "1"), "needs a numeric weight"),
])
def test_profile_weights_are_validated(weights, message):
    with pytest.raises(SchemaError, match=message):
        task(PER_ORG, "<similarity_profile><tag_profile true_labels='PERSON'>"
                      f"<dimension name='_label' weight='{weights[0]}'/>"
                      f"<dimension name='_span' weight='{weights[1]}'/></tag_profile></similarity_profile>")


def test_similarity_stays_within_one_for_valid_weights():
    # 0.1 label + 0.9 span: a different label with the same span scores 0.9 (was 1.25 with weight -1 accepted)
    t = task(PER_ORG, "<similarity_profile><tag_profile true_labels='PERSON,ORGANIZATION'>"
                      "<dimension name='_label' weight='.1'/><dimension name='_span' weight='.9'/>"
                      "</tag_profile></similarity_profile>")
    assert similarity(t, A("PERSON", 0, 4), A("ORGANIZATION", 0, 4)) == pytest.approx(0.9)


@pytest.mark.parametrize("attr, value", [("true_residue", "1.5"), ("true_residue", "-0.1"),
                                         ("overlap_match_lower_bound", "2")])
def test_dimension_bounds_are_validated(attr, value):
    with pytest.raises(SchemaError, match=attr):
        task(PER_ORG, "<similarity_profile><tag_profile true_labels='PERSON'>"
                      f"<dimension name='_span' weight='1' method='overlap' {attr}='{value}'/>"
                      "</tag_profile></similarity_profile>")


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.data())
def test_closed_form_assignment_totals_equal_assign(n_rows, n_cols, data):
    """The remainder's small matrices skip the solver: the total equals the one of the pairs ``assign`` chooses."""
    import numpy as np

    from accord.match.assign import assign, assigned_total

    cells = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 1 / 3, 2 / 3]), st.floats(0, 1))
    m = np.array(data.draw(st.lists(cells, min_size=n_rows * n_cols, max_size=n_rows * n_cols))).reshape(
        n_rows, n_cols)
    rows, cols = assign(m)
    assert assigned_total(m) == float(m[rows, cols].sum())


def test_validation_checks_each_kind_of_annotation_once_but_every_fault():
    # an int attribute: 1 is valid, True (equal to 1 in Python) is not; a value outside the range after many
    # valid ones with the same label is still caught, in the document where it is
    t = task("<annotation label='N'/><attribute name='n' of_annotation='N' type='int'><range from='0' to='5'/></attribute>")
    good = [Document(f"d{k}", (A("N", 0, 1, {"n": 1}), A("N", 1, 2, {"n": 1}))) for k in range(3)]
    t.validate(Corpus(good))
    with pytest.raises(Exception, match=r"d3.*has type int; got True"):
        t.validate(Corpus(good + [Document("d3", (A("N", 0, 1, {"n": True}),))]))
    with pytest.raises(Exception, match=r"d4.*must lie in \[0, 5\]; got 6"):
        t.validate(Corpus(good + [Document("d4", (A("N", 0, 1, {"n": 6}),))]))
    with pytest.raises(Exception, match=r"d5.*is spanned, but the annotation has no span"):
        t.validate(Corpus(good + [Document("d5", (A("N", attributes={"n": 1}),))]))
