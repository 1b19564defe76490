"""Lists of tag lists (seqeval's y_true / y_pred) given to accord.score, checked against seqeval."""

import random
import warnings

import pytest

import accord
from accord.errors import AccordError, FormatError, OptionError, PairingError, SchemeError
from accord.objects import as_corpus
from tests.conftest import DATA, read_conll_sentences

seqeval_metrics = pytest.importorskip("seqeval.metrics")


def _quiet_score(gold, pred, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return accord.score(gold, pred, **options)


def _per_type(report):
    return {row: (c["match"], c["gold"], c["pred"]) for row, c in report.by_label.items()}


def _seqeval_per_type(y_true, y_pred):
    out = seqeval_metrics.classification_report(y_true, y_pred, output_dict=True, zero_division=0)
    return {name: (round(v["recall"] * v["support"]), v["support"]) for name, v in out.items() if " avg" not in name}


def test_real_predictions_equal_seqeval():
    """CoNLL-2003 test set and a real system's output, read as seqeval users read them."""
    y_true = read_conll_sentences(DATA / "conll03" / "gold.conll")
    y_pred = read_conll_sentences(DATA / "conll03" / "xlm_flert.conll")
    report = _quiet_score(y_true, y_pred)
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(y_true, y_pred), abs=1e-12)
    assert report.totals["precision"] == pytest.approx(seqeval_metrics.precision_score(y_true, y_pred), abs=1e-12)
    assert report.totals["recall"] == pytest.approx(seqeval_metrics.recall_score(y_true, y_pred), abs=1e-12)


@pytest.mark.parametrize("seed", range(20))
def test_random_lists_equal_seqeval_per_type(seed):
    rng = random.Random(seed)
    tags = ["O", "O", "O", "B-PER", "I-PER", "B-LOC", "I-LOC", "I-ORG"]
    y_true = [[rng.choice(tags) for _ in range(rng.randint(0, 12))] for _ in range(rng.randint(1, 15))]
    y_pred = [[t if rng.random() < 0.7 else rng.choice(tags) for t in s] for s in y_true]
    report = _quiet_score(y_true, y_pred)
    expected = _seqeval_per_type(y_true, y_pred)
    got = {name: (m, g) for name, (m, g, _) in _per_type(report).items() if g}
    assert got == {name: v for name, v in expected.items() if v[1]}
    assert report.f1 == pytest.approx(seqeval_metrics.f1_score(y_true, y_pred, zero_division=0), abs=1e-12)


def test_integer_tags_with_label_names_equal_named_tags():
    names = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    rng = random.Random(3)
    ids_true = [[rng.randrange(5) for _ in range(rng.randint(1, 9))] for _ in range(30)]
    ids_pred = [[i if rng.random() < 0.8 else rng.randrange(5) for i in s] for s in ids_true]
    y_true = [[names[i] for i in s] for s in ids_true]
    y_pred = [[names[i] for i in s] for s in ids_pred]
    by_ids = _quiet_score(ids_true, ids_pred, label_names=names)
    assert by_ids.f1 == pytest.approx(seqeval_metrics.f1_score(y_true, y_pred), abs=1e-12)
    assert by_ids.totals == _quiet_score(y_true, y_pred).totals


def test_hand_count():
    # gold: PER [0,2), LOC [3,4), ORG [0,1) of sentence 2; pred: PER [0,2), PER [3,4), ORG [0,1)
    report = accord.score([["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG"]],
                          [["B-PER", "I-PER", "O", "B-PER"], ["B-ORG"]])
    assert (report.totals["gold"], report.totals["pred"], report.totals["match"]) == (3, 3, 2)
    assert report.totals["missing"] == 1 and report.totals["spurious"] == 1


def test_chunks_never_cross_sentences():
    with pytest.warns(accord.errors.RepairWarning, match="sentence 2, position 1: tag 'I-PER' after a sentence start"):
        corpus = as_corpus([["B-PER", "I-PER"], ["I-PER", "O"]])
    (doc,) = corpus.documents
    assert [(a.label, a.start, a.end) for a in doc.annotations] == [("PER", 0, 2), ("PER", 2, 3)]
    assert doc.sentences == ((0, 2), (2, 4))


def test_suffix_and_scheme_options():
    corpus = as_corpus([["PER-B", "PER-E", "O", "LOC-S"]], suffix=True, scheme="IOBES")
    assert [(a.label, a.start, a.end) for a in corpus.documents[0].annotations] == [("PER", 0, 2), ("LOC", 3, 4)]


def test_sentence_lengths_must_agree():
    with pytest.raises(PairingError, match="sentence 2 has 1 gold tags and 2 predicted tags"):
        accord.score([["O"], ["B-PER"]], [["O"], ["B-PER", "O"]])
    with pytest.raises(PairingError, match="2 sentences"):
        accord.score([["O"], ["B-PER"]], [["O"]])


def test_integer_tags_need_names():
    with pytest.raises(OptionError, match="label_names"):
        accord.score([[0, 1]], [[0, 1]])


def test_ignored_index_named_in_the_error():
    with pytest.raises(FormatError, match=r"pred \(lists of tags\), sentence 2, position 3: tag number -100.*"
                                          r"ignored position"):
        accord.score([[0], [0, 1, 0]], [[0], [0, 1, -100]], label_names=["O", "B-X"])


def test_mixed_tag_types_named():
    with pytest.raises(FormatError, match="sentence 1, position 2"):
        as_corpus([["O", 1]])


def test_unknown_prefix_names_the_place():
    with pytest.raises(SchemeError, match="sentence 2, position 1: tag 'X-PER'"):
        as_corpus([["O"], ["X-PER"]])


def test_repair_warning_names_sentence_and_position():
    with pytest.warns(accord.errors.RepairWarning, match="sentence 2, position 2: tag 'I-LOC' after 'O'"):
        report = accord.score([["O"], ["O", "I-LOC"]], [["O"], ["O", "O"]])
    assert report.repairs[0]["first"][0]["place"] == "sentence 2, position 2"


def test_option_for_another_kind_is_refused():
    with pytest.raises(OptionError, match="spans_key does not apply to lists of tags"):
        accord.score([["O"]], [["O"]], spans_key="sc")


def test_json_names_the_inputs_by_kind():
    report = accord.score([["B-PER"]], [["B-PER"]])
    assert report.to_dict()["inputs"]["gold"]["sources"] == ["<list>"]


@pytest.mark.parametrize("bad", [[1, 2], ["B-PER"], [None], [[None]], [[1.5]], [[True]], object()])
def test_bad_objects_are_accord_errors(bad):
    with pytest.raises(AccordError):
        as_corpus(bad, label_names=["O", "B-X"]) if isinstance(bad, list) else as_corpus(bad)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JUNK = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-200, 5), st.floats(allow_nan=True),
                              st.sampled_from(["O", "B-X", "I-X", "E-X", "X", "", "B-"])),
                    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.lists(JUNK, max_size=4), st.sampled_from([None, ["O", "B-X", "I-X"]]), st.sampled_from(["IOB2", "IOBES"]))
def test_any_nested_input_is_read_or_refused_with_an_accord_error(obj, label_names, scheme):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            corpus = as_corpus(obj, label_names=label_names, scheme=scheme)
    except AccordError:
        return
    for doc in corpus.documents:
        n = doc.sentences[-1][1] if doc.sentences else 0
        assert all(0 <= a.start < a.end <= n for a in doc.annotations)
