"""Slices of the pairs mode (``--slices nesting,length,seen``): each slice a measure of the result. Counts by hand on
documents written here; LitBank's nested entities (../shared/corpora/outside/brat) counted by a separate reading
of the brat files and a brute-force classification of every pair of entities."""

from __future__ import annotations

import json
import tarfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import accord
from accord.cli import main
from accord.errors import OptionError
from accord.model import Corpus, Document, make_annotation
from accord.pairs._slices import LengthBins, nesting_classes, token_length
from tests.result.contract import checked

#  0    1    2  3       4    5   6   7
TOKENS = ("The", "Bank", "of", "England", "said", "Ann", "Lee", "left")


def corpus(spans, tokens=TOKENS, doc_id="d1"):
    return Corpus([Document(doc_id, tuple(make_annotation(lbl, s, e) for lbl, s, e in spans), tokens=tokens)])


# gold: "The Bank of England" (ORG) holds "England" (GPE); "Ann Lee" (PER) stands alone
GOLD = [("ORG", 0, 4), ("GPE", 3, 4), ("PER", 5, 7)]
# predicted: England and Ann Lee found, the ORG missed, "left" a spurious LOC; no predicted entity holds another
PRED = [("GPE", 3, 4), ("PER", 5, 7), ("LOC", 7, 8)]


def counts(result, name, row=("all",)):
    block = result.measures[name].block(row)
    return {k: block[k] for k in ("gold", "pred", "match", "missing", "spurious")}


def test_nesting_by_hand():
    r = accord.score(corpus(GOLD), corpus(PRED), slices=["nesting"])
    assert list(r.measures) == ["pairs", "nesting:flat", "nesting:nested", "nesting:outer", "nesting:inner"]
    # gold classes: ORG outer and nested (it holds GPE), GPE inner and nested, PER outer and flat;
    # a match counts in its gold item's slice; LOC (spurious) is flat and outer among the predicted entities
    assert counts(r, "nesting:flat") == {"gold": 1, "pred": 2, "match": 1, "missing": 0, "spurious": 1}
    assert counts(r, "nesting:nested") == {"gold": 2, "pred": 1, "match": 1, "missing": 1, "spurious": 0}
    assert counts(r, "nesting:outer") == {"gold": 2, "pred": 2, "match": 1, "missing": 1, "spurious": 1}
    assert counts(r, "nesting:inner") == {"gold": 1, "pred": 1, "match": 1, "missing": 0, "spurious": 0}
    nested = r.measures["nesting:nested"].by_label()
    assert set(nested) == {"ORG", "GPE"}
    assert (nested["ORG"]["missing"], nested["GPE"]["match"]) == (1, 1)
    flat = r.measures["nesting:flat"].totals()
    assert (flat["precision"], flat["recall"]) == (0.5, 1.0)
    assert flat["f1"] == pytest.approx(2 / 3)
    assert counts(r, "pairs") == {"gold": 3, "pred": 3, "match": 2, "missing": 1, "spurious": 1}


def test_nesting_classes_rules():
    a = [make_annotation("X", 0, 3), make_annotation("Z", 0, 3),      # one span under two labels: not nested
         make_annotation("Y", 2, 5),                                   # crosses X without holding it: not nested
         make_annotation("P", 10, 20), make_annotation("Q", 10, 12),   # P holds Q (same start)
         make_annotation("R", 18, 20),                                 # ... and R (same end)
         make_annotation("S", 11, 12),                                 # inside Q and P
         make_annotation("T"),                                         # no span: flat and outer
         make_annotation("D", fragments=[(30, 32), (40, 42)]),         # its extent [30, 42) holds U
         make_annotation("U", 35, 36)]
    inner, nested = nesting_classes(a)
    assert inner.tolist() == [False, False, False, False, True, True, True, False, False, True]
    assert nested.tolist() == [False, False, False, True, True, True, True, False, True, True]


def test_length_by_hand_and_bins():
    gold = GOLD + [("PER", 5, 6)]        # "Ann": 1 token (and inside Ann Lee)
    r = accord.score(corpus(gold), corpus(PRED), slices=["length"], length_bins="1,2-3,4+")
    assert list(r.measures)[1:] == ["length:1", "length:2-3", "length:4+"]
    # 1 token: GPE England (match), PER Ann (missing), LOC left (spurious); 2: Ann Lee (match); 4: the ORG (missing)
    assert counts(r, "length:1") == {"gold": 2, "pred": 2, "match": 1, "missing": 1, "spurious": 1}
    assert counts(r, "length:2-3") == {"gold": 1, "pred": 1, "match": 1, "missing": 0, "spurious": 0}
    assert counts(r, "length:4+") == {"gold": 1, "pred": 0, "match": 0, "missing": 1, "spurious": 0}
    assert r.options["length_bins"] == ["1", "2-3", "4+"]


def test_length_in_words_of_text():
    doc = Document("t", (), text="New  York\tCity and the Bronx")
    assert token_length(make_annotation("GPE", 0, 14), doc) == 3          # runs of whitespace split once
    assert token_length(make_annotation("GPE", 0, 3), doc) == 1
    assert token_length(make_annotation("GPE", fragments=[(0, 3), (19, 28)]), doc) == 3   # New ... the Bronx
    assert token_length(make_annotation("X"), doc) == 0
    bins = LengthBins.parse("1,2,3,4+")
    assert bins.codes(np.array([0, 1, 2, 3, 4, 99])).tolist() == [0, 0, 1, 2, 3, 3]   # no token: the first bin
    assert LengthBins.parse("0,1,2+").codes(np.array([0, 1, 5])).tolist() == [0, 1, 2]


@pytest.mark.parametrize("spec", ["2,3+", "1,3+", "1,2", "1-0,1+", "a,2+", "1,2+,3", ""])
def test_bad_bins(spec):
    with pytest.raises(OptionError, match="length.bins"):
        LengthBins.parse(spec)


def test_seen_by_hand(tmp_path):
    train = Corpus([Document("tr", (make_annotation("GPE", 0, 7), make_annotation("PER", 12, 20),
                                    make_annotation("LOC", 25, 32)),
                             text="England and Ann  Lee and England")])
    # seen: England/GPE and Ann Lee/PER (the double space made one); England/LOC in training makes no LOC seen but
    # England/LOC; "The Bank of England"/ORG and "left"/LOC are unseen
    r = accord.score(corpus(GOLD), corpus(PRED), slices=["seen"], train=train)
    assert counts(r, "seen:seen") == {"gold": 2, "pred": 2, "match": 2, "missing": 0, "spurious": 0}
    assert counts(r, "seen:unseen") == {"gold": 1, "pred": 1, "match": 0, "missing": 1, "spurious": 1}
    assert r.options["train"] == {"source": "<corpus>", "entities": 3, "distinct": 3}


def test_options_refused():
    with pytest.raises(OptionError, match="needs the training corpus"):
        accord.score(corpus(GOLD), corpus(PRED), slices=["seen"])
    with pytest.raises(OptionError, match="add seen"):
        accord.score(corpus(GOLD), corpus(PRED), slices=["length"], train=corpus(GOLD))
    with pytest.raises(OptionError, match="add length"):
        accord.score(corpus(GOLD), corpus(PRED), slices=["nesting"], length_bins="1,2+")
    with pytest.raises(OptionError, match="slices must be among"):
        accord.score(corpus(GOLD), corpus(PRED), slices=["depth"])
    with pytest.raises(OptionError, match='do not apply to match="semeval"'):
        accord.score(corpus(GOLD), corpus(PRED), slices=["nesting"], match="semeval")


@pytest.mark.filterwarnings("ignore::accord.errors.StatisticsWarning")    # 4 documents: a coarse interval
def test_measures_in_json_csv_intervals_and_merge():
    docs = [corpus(GOLD, doc_id=f"d{k}") for k in range(4)]
    preds = [corpus(PRED if k % 2 else GOLD, doc_id=f"d{k}") for k in range(4)]
    whole = accord.score(Corpus([c[f"d{k}"] for k, c in enumerate(docs)]),
                         Corpus([c[f"d{k}"] for k, c in enumerate(preds)]), slices=["nesting", "length"])
    halves = [accord.score(Corpus([docs[k][f"d{k}"] for k in part]), Corpus([preds[k][f"d{k}"] for k in part]),
                           slices=["nesting", "length"]) for part in ((0, 1), (2, 3))]
    merged = halves[0] + halves[1]
    for name, m in whole.measures.items():
        assert np.array_equal(merged.measures[name].table.values, m.table.values), name
    # two perfect documents and two of the hand count above
    assert counts(whole, "nesting:inner") == {"gold": 4, "pred": 4, "match": 4, "missing": 0, "spurious": 0}
    data = checked(whole.to_json())
    assert data["measures"]["nesting:flat"]["totals"]["gold"] == 4
    assert {line.split(",")[0] for line in whole.to_csv().splitlines()[1:]} == set(whole.measures)
    whole.bootstrap(200, seed=1)
    data = checked(whole.to_json())      # the contract's nested measures
    assert data["measures"]["nesting:outer"]["totals"]["ci"]["f1"][0] is not None
    assert [t.name for t in whole.tables][:2] == ["nesting slices", "length slices"]


def test_cli(tmp_path):
    for side, spans in (("gold", GOLD), ("pred", PRED)):
        text = " ".join(TOKENS)
        starts = np.cumsum([0] + [len(t) + 1 for t in TOKENS])
        lines = [f"T{k}\t{lbl} {starts[s]} {starts[e] - 1}" for k, (lbl, s, e) in enumerate(spans, 1)]
        (tmp_path / f"{side}.txt").write_text(text + "\n")
        (tmp_path / f"{side}.ann").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.json"
    assert main(["score", str(tmp_path / "gold.ann"), str(tmp_path / "pred.ann"), "--slices", "nesting",
                 "--slices", "seen", "--train", str(tmp_path / "gold.ann"), "-o", str(out), "-q"]) == 0
    data = json.loads(out.read_text())
    assert data["options"]["slices"] == ["nesting", "seen"]
    assert data["measures"]["nesting:inner"]["totals"]["match"] == 1
    assert data["measures"]["seen:unseen"]["totals"]["spurious"] == 1      # "left"/LOC is no gold entity
    assert main(["score", str(tmp_path / "gold.ann"), str(tmp_path / "pred.ann"), "--slices", "seen"]) == 2


# -- real data: LitBank's entities (nested noun phrases), gold against the derived prediction

LITBANK = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "outside" / "brat" / "data.tar.gz"


def _read_ann(path):
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("T"):
            label, start, end = line.split("\t")[1].split(" ")[:3]
            out.append((label, int(start), int(end)))
    return out


def _classes(spans):
    """Brute force: inner (inside another, distinct span), nested (inner or holding another)."""
    out = []
    for _, s, e in spans:
        inside = any(s2 <= s and e <= e2 and (s2, e2) != (s, e) for _, s2, e2 in spans)
        holds = any(s <= s2 and e2 <= e and (s2, e2) != (s, e) for _, s2, e2 in spans)
        out.append(("inner" if inside else "outer", "nested" if inside or holds else "flat"))
    return out


@pytest.mark.slow
def test_litbank_nesting_against_brute_force(tmp_path):
    if not LITBANK.exists():
        pytest.skip(f"{LITBANK} is absent")
    with tarfile.open(LITBANK) as tar:
        members = [m for m in tar.getmembers() if "/litbank_entities/" in m.name and m.name.startswith(("gold/",
                                                                                                        "pred/"))]
        tar.extractall(tmp_path, members=members, filter="data")
    gold_dir, pred_dir = tmp_path / "gold" / "litbank_entities", tmp_path / "pred" / "litbank_entities"
    # training: the gold files of half the books, moved out of the scored folders; the other half is scored
    train_dir, test_dir = tmp_path / "train", tmp_path / "test"
    train_dir.mkdir()
    test_dir.mkdir()
    for k, gold_file in enumerate(sorted(gold_dir.glob("*.ann"))):
        for path in (gold_file, gold_file.with_suffix(".txt")):
            path.rename((train_dir if k % 2 else test_dir) / path.name)
        if k % 2:
            for path in (pred_dir / gold_file.name, pred_dir / gold_file.with_suffix(".txt").name):
                path.unlink()
    gold_dir = test_dir
    train_keys = set()
    for train_file in train_dir.glob("*.ann"):
        text = train_file.with_suffix(".txt").read_text(encoding="utf-8")
        train_keys |= {(" ".join(text[s:e].split()), lbl) for lbl, s, e in _read_ann(train_file)}
    expected: Counter = Counter()
    for gold_file in sorted(gold_dir.glob("*.ann")):
        gold, pred = _read_ann(gold_file), _read_ann(pred_dir / gold_file.name)
        text = gold_file.with_suffix(".txt").read_text(encoding="utf-8")
        for lbl, s, e in gold:
            words = len(text[s:e].split())
            expected["4+" if words >= 4 else str(max(words, 1)), "gold"] += 1
            expected["seen" if (" ".join(text[s:e].split()), lbl) in train_keys else "unseen", "gold"] += 1
        left = Counter(pred)
        matched_pred: Counter = Counter()
        for item, classes in zip(gold, _classes(gold)):
            hit = left[item] > 0
            if hit:
                left[item] -= 1
                matched_pred[item] += 1
            for c in classes:
                expected[c, "gold"] += 1
                expected[c, "match"] += hit
        unmatched = Counter(pred) - matched_pred
        seen_unmatched: Counter = Counter()
        for item, classes in zip(pred, _classes(pred)):
            if seen_unmatched[item] < unmatched[item]:
                seen_unmatched[item] += 1
                for c in classes:
                    expected[c, "spurious"] += 1
    r = accord.score(gold_dir, pred_dir, slices=["nesting", "length", "seen"], train=train_dir)
    for c in ("flat", "nested", "outer", "inner"):
        got = r.measures[f"nesting:{c}"].totals()
        assert (got["gold"], got["match"], got["spurious"]) == (
            expected[c, "gold"], expected[c, "match"], expected[c, "spurious"]), c
    for name in ("length:1", "length:2", "length:3", "length:4+", "seen:seen", "seen:unseen"):
        assert r.measures[name].totals()["gold"] == expected[name.partition(":")[2], "gold"], name
    assert expected["inner", "gold"] > 500       # LitBank nests: 2143 of its 13912 entities are inner
    assert expected["seen", "gold"] > 1000 and expected["unseen", "gold"] > 1000


def test_sharded_run_equals_one_process(tmp_path):
    text = " ".join(TOKENS)
    starts = np.cumsum([0] + [len(t) + 1 for t in TOKENS])
    for side, spans in (("gold", GOLD), ("pred", PRED)):
        (tmp_path / side).mkdir()
        for k in range(6):
            chosen = spans if k % 3 else GOLD
            lines = [f"T{j}\t{lbl} {starts[s]} {starts[e] - 1}" for j, (lbl, s, e) in enumerate(chosen, 1)]
            (tmp_path / side / f"doc{k}.txt").write_text(text + "\n")
            (tmp_path / side / f"doc{k}.ann").write_text("\n".join(lines) + "\n")
    options = {"slices": ["nesting", "length", "seen"], "train": tmp_path / "gold" / "doc0.ann"}
    one = accord.score(tmp_path / "gold", tmp_path / "pred", **options)
    shards = accord.score(tmp_path / "gold", tmp_path / "pred", jobs=2, shard_size=100, **options)
    assert list(shards.measures) == list(one.measures)
    for name, m in one.measures.items():
        other = shards.measures[name].table
        assert (other.documents, other.rows) == (m.table.documents, m.table.rows), name
        assert np.array_equal(other.values, m.table.values), name
    assert [t.name for t in shards.tables] == ["nesting slices", "length slices", "seen slices"]
