"""doccano's text-classification and intent exports: classes of whole texts, for score (per label) and agree (an item
per document). Checked against doccano's own example files (../shared/corpora) and scikit-learn / krippendorff."""

import json
import warnings

import numpy as np
import pytest

import accord
from accord.errors import AccordWarning, FormatError, OptionError
from accord.formats._document_labels import DOCUMENT_LABELS, is_document_labelled

from ...conftest import SHARED

DOCCANO = SHARED / "corpora" / "outside3b" / "doccano"


def _need(path):
    if not path.exists():
        pytest.skip(f"{path} is not here (../shared/corpora)")
    return path


def _write(path, rows, key="label"):
    path.write_text("".join(json.dumps({"id": k, "text": t, key: x}) + "\n" for k, (t, x) in enumerate(rows, 1)),
                    encoding="utf-8")
    return path


def test_doccano_text_classification_example_is_read_as_classes():
    """doccano's own export example: before, 'label' holding class names was an error (not spans)."""
    corpus = accord.read(_need(DOCCANO / "export_text_classification.jsonl"))
    assert [(d.text, [(a.label, a.start, a.end) for a in d.annotations]) for d in corpus.documents] == [
        ("Terrible customer service.", [("negative", 0, 26)]), ("Really great transaction.", [("positive", 0, 25)]),
        ("Great price.", [("positive", 0, 12)])]
    assert is_document_labelled(corpus)


def test_doccano_intent_example_cats_on_request_and_spans_by_default():
    path = _need(DOCCANO / "export_intent_detection.jsonl")
    with pytest.warns(AccordWarning, match=r"2 class\(es\) of whole texts \('cats'\) left out.*'cats'"):
        spans = accord.read(path)
    assert [a.label for d in spans.documents for a in d.annotations] == ["City", "City", "City"]
    cats = accord.read(path, annotation_set="cats")
    assert [(a.label, a.end) for d in cats.documents for a in d.annotations] == [("flight", 36), ("airport", 47)]
    assert all(d.metadata[DOCUMENT_LABELS] for d in cats.documents)
    with pytest.raises(OptionError, match="spans and cats"):
        accord.read(path, annotation_set="annotations:1")


def test_intent_file_without_spans_reads_its_cats(tmp_path):
    path = _write(tmp_path / "i.jsonl", [("book a flight", ["flight"]), ("hi", [])], key="cats")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corpus = accord.read(path)
    assert [[a.label for a in d.annotations] for d in corpus.documents] == [["flight"], []]


@pytest.mark.parametrize("line, message", [
    ('{"text": "abc", "label": ["positive", [0, 1, "X"]]}', "mixes spans and classes"),
    ('{"text": "abc", "label": ["positive", "positive"]}', "class 'positive' is given twice"),
    ('{"text": "abc", "label": ["positive", 3]}', "3, not a name"),
    ('{"text": "abc", "label": "positive"}', "not a list of classes"),
])
def test_classes_errors_name_the_line(tmp_path, line, message):
    (tmp_path / "x.jsonl").write_text('{"text": "fine", "label": ["ok"]}\n' + line + "\n")
    with pytest.raises(FormatError, match=f"x.jsonl:2: .*{message}"):
        accord.read(tmp_path / "x.jsonl", format="doccano")


def test_a_span_file_with_a_class_is_an_error_naming_the_line(tmp_path):
    (tmp_path / "x.jsonl").write_text('{"text": "fine", "label": [[0, 1, "X"]]}\n{"text": "ab", "label": ["ok"]}\n')
    with pytest.raises(FormatError, match=r"x.jsonl:1: .*mixes spans and classes"):
        accord.read(tmp_path / "x.jsonl", format="doccano")


def test_classes_write_and_read_back(tmp_path):
    path = _write(tmp_path / "a.jsonl", [("good", ["pos", "fun"]), ("bad", [])])
    corpus = accord.read(path)
    accord.formats.write(corpus, tmp_path / "b.jsonl", "doccano")
    back = accord.read(tmp_path / "b.jsonl")
    assert [[a.label for a in d.annotations] for d in back.documents] == [["pos", "fun"], []]


TEXTS = ["good film", "bad film", "so so", "great", "awful", "fine", "meh", "superb"]
A = [["pos"], ["neg"], ["neu"], ["pos"], ["neg"], ["pos"], ["neu"], ["pos", "fun"]]
B = [["pos"], ["neg"], ["pos"], ["pos"], ["neu"], [], ["neg"], ["pos"]]


def test_score_of_classes_is_multilabel_classification(tmp_path):
    """Per-label and micro precision/recall/F1 equal scikit-learn's on the label-indicator matrix."""
    from sklearn.metrics import precision_recall_fscore_support
    from sklearn.preprocessing import MultiLabelBinarizer

    gold = _write(tmp_path / "gold.jsonl", zip(TEXTS, A))
    pred = _write(tmp_path / "pred.jsonl", zip(TEXTS, B))
    report = accord.score(gold, pred)
    binarizer = MultiLabelBinarizer().fit(A + B)
    y_true, y_pred = binarizer.transform(A), binarizer.transform(B)
    p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, average=None, zero_division=0)
    for k, label in enumerate(binarizer.classes_):
        row = report.by_label[label]
        assert (row["precision"], row["recall"], row["f1"]) == pytest.approx((p[k], r[k], f[k]))
    micro = precision_recall_fscore_support(y_true, y_pred, average="micro")
    assert (report.totals["precision"], report.totals["recall"], report.totals["f1"]) == pytest.approx(micro[:3])


def test_agree_single_label_classes_equal_sklearn_and_krippendorff(tmp_path):
    """Before, `accord agree a.jsonl b.jsonl` on doccano classification exports was an error (classes not spans)."""
    import krippendorff
    from sklearn.metrics import cohen_kappa_score

    a = [x[:1] for x in A]
    paths = [_write(tmp_path / "a.jsonl", zip(TEXTS, a)), _write(tmp_path / "b.jsonl", zip(TEXTS, B))]
    result = accord.agree(paths)
    totals = result.totals
    assert totals["items"] == len(TEXTS) and result.options["items"] == "documents"
    both = [k for k in range(len(TEXTS)) if a[k] and B[k]]      # document 6: b gave no class (a missing rating)
    kappa = cohen_kappa_score([a[k][0] for k in both], [B[k][0] for k in both])
    assert totals["coefficients"]["cohen_kappa"] == pytest.approx(kappa)
    codes = {"neg": 0, "neu": 1, "pos": 2}
    data = np.array([[codes[x[0]] if x else np.nan for x in side] for side in (a, B)])
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert totals["coefficients"]["krippendorff_alpha"] == pytest.approx(alpha)


def test_agree_multi_label_classes_are_sets(tmp_path):
    """A document of two classes makes every category a set (written a|b); nominal α over the sets equals
    krippendorff's over set codes."""
    import krippendorff

    from accord.agreement._document_labels import LabelSet

    paths = [_write(tmp_path / "a.jsonl", zip(TEXTS, A)), _write(tmp_path / "b.jsonl", zip(TEXTS, B))]
    result = accord.agree(paths)
    cats = result.pooled_codes()[1]
    assert all(isinstance(c, LabelSet) for c in cats)
    assert [str(c) for c in cats] == result.totals["categories"] == ["neg", "neu", "pos", "fun|pos"]
    assert LabelSet({"pos", "fun"}) == frozenset({"fun", "pos"})
    sets = sorted({frozenset(x) for x in A + B if x}, key=lambda s: (len(s), sorted(s)))
    data = np.array([[sets.index(frozenset(x)) if x else np.nan for x in side] for side in (A, B)])
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert result.totals["coefficients"]["krippendorff_alpha"] == pytest.approx(alpha)
    assert '"fun|pos"' in result.to_json()


def test_agree_refuses_classes_against_spans_and_span_options(tmp_path):
    from accord.errors import AccordError

    classes = _write(tmp_path / "a.jsonl", [("good film", ["pos"])])
    spans = tmp_path / "s.jsonl"
    spans.write_text('{"id": 1, "text": "good film", "label": [[0, 4, "X"]]}\n')
    with pytest.raises(AccordError, match="holds classes of whole documents and .* spans"):
        accord.agree([classes, spans], format="doccano")
    other = _write(tmp_path / "b.jsonl", [("good film", ["neg"])])
    with pytest.raises(OptionError, match="--types and --feature choose spans"):
        accord.agree([classes, other], types=["pos"])
