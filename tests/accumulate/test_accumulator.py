"""accord.Accumulator: batches of a training loop, merged across workers, equal accord.score on the whole (and
seqscore's printed table, and seqeval run here)."""

import pickle
import random
import re
import warnings

import numpy as np
import pytest

import accord
from accord.errors import FormatError, LabelCaseWarning, MergeError, OptionError, PairingError, RepairWarning

from ..conftest import DATA, read_conll_sentences

GOLD = DATA / "conll03" / "gold.conll"
PRED = DATA / "conll03" / "xlm_flert.conll"
needs_conll03 = pytest.mark.skipif(not GOLD.exists() or not PRED.exists(), reason="../shared/data/conll03 is absent")


def seqscore_rows():
    """seqscore's printed table for the system (its first table): type -> (reference, predicted, correct)."""
    rows = {}
    for line in (DATA / "conll03" / "xlm_flert.seqscore.txt").read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and re.fullmatch(r"[A-Z]+", cells[0]):
            rows[cells[0]] = (int(cells[4]), int(cells[5]), int(cells[6]))
        if line.startswith("|   Count"):
            break
    return rows


def _json(result):
    out = result.to_dict()
    out.pop("generator")
    return out


def _same_sentences(a, b):
    x, y = a.main.table.sentences, b.main.table.sentences
    assert x is not None and y is not None
    for name in ("sizes", "unit", "row", "field", "value"):
        assert np.array_equal(getattr(x, name), getattr(y, name)), name


@pytest.fixture(scope="module")
def conll03():
    if not GOLD.exists() or not PRED.exists():
        pytest.skip("../shared/data/conll03 is absent")
    gold, pred = read_conll_sentences(GOLD), read_conll_sentences(PRED)
    assert len(gold) == len(pred) == 3453
    return gold, pred


def _batches(n, seed):
    rng, k, out = random.Random(seed), 0, []
    while k < n:
        size = rng.randint(1, 64)
        out.append((k, min(n, k + size)))
        k += size
    return out


@needs_conll03
@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_training_loop_two_workers_equal_score_on_the_whole(conll03):
    """Random batch sizes, two workers (each its half of the batches, its state pickled as all_gather_object does),
    merged: exactly accord.score on every sentence, down to the sentence counts a bootstrap resamples."""
    gold, pred = conll03
    batches = _batches(len(gold), seed=7)
    half = len(batches) // 2
    workers = [accord.Accumulator(), accord.Accumulator()]
    for w, part in zip(workers, (batches[:half], batches[half:])):
        for a, b in part:
            w.update(gold[a:b], pred[a:b])
    gathered = [pickle.loads(pickle.dumps(w)) for w in workers]
    merged = gathered[0].merge(gathered[1])
    result, whole = merged.compute(), accord.score(gold, pred)
    assert _json(result) == _json(whole)
    _same_sentences(result, whole)
    expected = seqscore_rows()     # an independent source: seqscore's printed table
    t = result.totals
    assert (t.gold, t.pred, t.match) == expected["ALL"] == (5648, 5749, 5339)
    for label in ("LOC", "MISC", "ORG", "PER"):
        c = result.by_label[label]
        assert (c.gold, c.pred, c.match) == expected[label], label
    a = result.bootstrap(50, seed=3, resample="sentences").to_dict()["totals"]["ci"]
    b = whole.bootstrap(50, seed=3, resample="sentences").to_dict()["totals"]["ci"]
    assert a == b


@needs_conll03
@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_interleaved_workers_count_the_same(conll03):
    """A DistributedSampler deals batches in turn: the merged counts are the same, only the sentences' order moves."""
    gold, pred = conll03
    from seqeval.metrics import f1_score

    workers = [accord.Accumulator(), accord.Accumulator()]
    for k, (a, b) in enumerate(_batches(len(gold), seed=11)):
        workers[k % 2].update(gold[a:b], pred[a:b])
    result = workers[0].merge(workers[1]).compute()
    whole = accord.score(gold, pred)
    assert result.totals == whole.totals and result.by_label == whole.by_label
    assert result.totals.f1 == pytest.approx(f1_score(gold, pred), abs=1e-12)


def _tagged(gold_tags, names):
    index = {n: k for k, n in enumerate(names)}
    return [[index[t] for t in s] for s in gold_tags]


NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
WORDS_GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-LOC", "I-LOC"], ["I-PER", "O"]]
WORDS_PRED = [["B-PER", "O", "O", "B-LOC"], ["O", "B-LOC", "I-LOC"], ["B-PER", "B-LOC"]]


def _padded(sentences, width, fill):
    """Ids as a Hugging Face batch: each word followed by an ignored sub-word, padded with ``fill``."""
    out = np.full((len(sentences), width), fill, dtype=np.int64)
    for r, s in enumerate(sentences):
        for k, t in enumerate(s):
            out[r, 2 * k] = NAMES.index(t)
    return out


@pytest.mark.filterwarnings("ignore::accord.errors.RepairWarning")
def test_ids_arrays_and_logits_with_ignored_positions():
    """-100 on sub-words and padding left out of both sides; logits argmaxed; the same as the words' tag lists."""
    gold = _padded(WORDS_GOLD, 9, -100)
    pred = _padded(WORDS_PRED, 9, -100)
    pred[gold == -100] = 1      # whatever a model predicts at ignored positions does not count
    logits = np.eye(len(NAMES))[pred] * 5.0
    expected = _json(accord.score(WORDS_GOLD, WORDS_PRED))
    for p in (pred, logits, list(pred)):
        acc = accord.Accumulator(label_names=NAMES)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RepairWarning)
            acc.update(gold[:2], p[:2])
            acc.update(gold[2:], p[2:])
            assert _json(acc.compute()) == expected
    # by hand: PER (0,2) missed, predicted (0,1) spurious; LOC (0,3), (1,1-3) matched; sentence 3: PER matched (I-PER
    # read as a start), LOC spurious
    t = accord.score(WORDS_GOLD, WORDS_PRED).totals
    assert (t.gold, t.pred, t.match) == (4, 5, 3)


class FakeTensor:
    """What the accumulator needs of a torch tensor: detach().cpu().numpy()."""

    def __init__(self, values):
        self.values = np.asarray(values)

    def detach(self):
        return self

    def cpu(self):
        return self

    def numpy(self):
        return self.values


def test_duck_typed_tensors_and_a_padding_id():
    gold = _padded(WORDS_GOLD, 9, 99)
    gold[gold == 0] = 0
    pred = _padded(WORDS_PRED, 9, 99)
    gold[:, 1::2] = -100       # sub-words
    acc = accord.Accumulator(label_names=NAMES, pad=99)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        acc.update(FakeTensor(gold), FakeTensor(pred))
        assert _json(acc.compute()) == _json(accord.score(WORDS_GOLD, WORDS_PRED))


def test_torch_tensors():
    torch = pytest.importorskip("torch")
    gold = _padded(WORDS_GOLD, 9, -100)
    pred = _padded(WORDS_PRED, 9, -100)
    acc = accord.Accumulator(label_names=NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        acc.update(torch.tensor(gold), torch.nn.functional.one_hot(torch.tensor(np.maximum(pred, 0)), len(NAMES)))
        assert _json(acc.compute()) == _json(accord.score(WORDS_GOLD, WORDS_PRED))


def test_repairs_counted_over_batches_as_on_the_whole():
    """Invalid transitions in several batches: one warning per side at compute, counts and places (sentences numbered
    over all batches) as accord.score reports them."""
    gold = [["I-PER", "O"], ["O", "I-LOC"], ["B-PER"], ["I-ORG", "I-ORG"]] * 3
    pred = [["B-PER", "O"], ["I-LOC", "O"], ["I-PER"], ["B-ORG", "I-ORG"]] * 3
    with warnings.catch_warnings(record=True) as expected_warnings:
        warnings.simplefilter("always")
        whole = accord.score(gold, pred)
    acc, other = accord.Accumulator(), accord.Accumulator()
    with warnings.catch_warnings(record=True) as during:
        warnings.simplefilter("always")
        acc.update(gold[:3], pred[:3])
        acc.update(gold[3:5], pred[3:5])
        other.update(gold[5:], pred[5:])
    assert not during     # a training loop is not flooded: the warnings come with the result
    with warnings.catch_warnings(record=True) as at_compute:
        warnings.simplefilter("always")
        result = acc.merge(other).compute()
    assert [str(w.message) for w in at_compute] == [str(w.message) for w in expected_warnings]
    assert result.repairs == whole.repairs
    assert result.repairs[0]["count"] == 9 and result.repairs[1]["count"] == 6     # 3 + 3 + 3 gold, 2 x 3 pred
    assert _json(result) == _json(whole)


def test_empty_sentences_across_batches():
    """Empty sentences share the next sentence's start (one unit of the bootstrap), also across a batch's end."""
    gold = [["B-X"], [], [], ["O", "B-X"], [], ["B-X"], []]
    pred = [["B-X"], [], [], ["B-X", "O"], [], ["B-X"], []]
    whole = accord.score(gold, pred)
    for cut in range(len(gold) + 1):
        acc = accord.Accumulator()
        for part in ((0, cut), (cut, len(gold))):
            if part[0] < part[1]:
                acc.update(gold[part[0]:part[1]], pred[part[0]:part[1]])
        result = acc.compute()
        assert _json(result) == _json(whole), cut
        _same_sentences(result, whole)
    assert list(whole.main.table.sentences.sizes) == [4]    # starts 0, 1 (three sentences), 3, 4 (two)


def test_labels_leave_the_other_types_out_as_ignore():
    gold = [["B-PER", "O", "B-LOC"], ["B-ORG", "I-ORG"]]
    pred = [["B-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    acc = accord.Accumulator(labels=["PER", "ORG"])
    acc.update(gold, pred)
    assert _json(acc.compute()) == _json(accord.score(gold, pred, ignore=["LOC"]))


def test_counts_by_label_only():
    gold = [["B-PER", "O", "B-LOC"], ["B-ORG", "I-ORG"]]
    pred = [["B-PER", "O", "B-ORG"], ["B-ORG", "O"]]
    acc = accord.Accumulator(sentences=False)
    for _ in range(3):
        acc.update(gold, pred)
    size = len(pickle.dumps(acc))
    for _ in range(100):
        acc.update(gold, pred)
    assert len(pickle.dumps(acc)) <= size + 16     # the counters' bytes only
    result = acc.compute()
    assert result.main.table.sentences is None
    assert result.totals == accord.score(gold * 103, pred * 103).totals


def test_label_case_and_reset():
    acc = accord.Accumulator()
    acc.update([["B-PER"]], [["B-per"]])
    with pytest.warns(LabelCaseWarning):
        acc.compute()
    acc.reset()
    with pytest.raises(FormatError, match="holds no sentence"):
        acc.compute()


@pytest.mark.parametrize(("gold", "pred", "error", "message"), [
    ([["O", "O"]], [["O"]], PairingError, "update 1: sentence 1 has 2 gold tags and 1 predicted"),
    ([["O"]], [["O"], ["O"]], PairingError, "1 gold sentences and 2 predicted"),
    ([[0, 1]], [[0, 1]], OptionError, "give label_names"),
    (np.zeros((2, 3), dtype=np.int64), np.zeros((2, 4), dtype=np.int64), PairingError, "shape 2x3"),
    (np.zeros((2, 3)), np.zeros((2, 3)), FormatError, "array of shape 2x3 and type float64"),
    ("B-PER", "B-PER", FormatError, "the gold side is a str"),
    ([["O", 1]], [["O", "O"]], FormatError, "tags are all strings"),
    ([["X-PER"]], [["O"]], FormatError, "sentence 1, position 1"),
])
def test_refusals_name_the_update_and_sentence(gold, pred, error, message):
    with pytest.raises(error, match=message):
        accord.Accumulator().update(gold, pred)


def test_refusals_of_options_and_merges():
    with pytest.raises(OptionError, match="match=.smatch."):     # clueval is counted (test_modes.py)
        accord.Accumulator(match="smatch")
    with pytest.raises(OptionError, match="zero_division"):
        accord.Accumulator(zero_division="half")
    with pytest.raises(MergeError, match="different options"):
        accord.Accumulator().merge(accord.Accumulator(scheme="IOBES"))
    alone = accord.Accumulator()
    with pytest.raises(MergeError, match="with itself"):
        alone.merge(alone)
    acc = accord.Accumulator(label_names=["O", "B-X"])
    with pytest.raises(FormatError, match="tag id 7 has no name among the 2 label_names"):
        acc.update([[0, 1]], [[0, 7]])
    acc.update([["O"]], [["O"]])
    acc.update([["O", "O"]], [["O", "O"]])
    with pytest.raises(FormatError, match="sentence 3, position 2"):     # numbered over every batch
        acc.update([["O", "Z-X"]], [["O", "O"]])


def test_letters_and_refusals_under_each_repair():
    """IOB2 tags with E- or S- letters: read by conlleval's rules under the default repair (as accord.score), refused
    under discard in the update that brings them; repair="error" refuses an invalid transition in its update."""
    gold = [["B-PER", "E-PER"], ["O"]]
    pred = [["B-PER", "I-PER"], ["O"]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RepairWarning)
        acc = accord.Accumulator()
        acc.update(gold[:1], pred[:1])
        acc.update(gold[1:], pred[1:])
        assert _json(acc.compute()) == _json(accord.score(gold, pred))
    acc = accord.Accumulator(repair="discard")
    acc.update([["O"]], [["O"]])
    with pytest.raises(FormatError, match="sentence 2, position 2"):
        acc.update(gold, pred)
    assert acc.n_sentences == 1      # the refused batch is not counted
    acc = accord.Accumulator(repair="error")
    acc.update([["B-PER"]], [["B-PER"]])
    with pytest.raises(FormatError, match="sentence 2, position 1: invalid IOB2 sequence"):
        acc.update([["I-PER"]], [["O"]])
    assert acc.compute().totals.match == 1
