"""Fuzzing ``accord structured --preset docred|biored|textee``: mutated DocRED, PubTator and TextEE files end in a
result or one error line naming the file, never a defect; a key scored against itself is 1 in every measure."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=700 if FULL else 60)
"""Each example runs the command once or twice: a reduced number in CI, the full profile's with ACCORD_FULL=1."""

_names = st.sampled_from(["Ann", "Bo", "B", "Cy", ""])
_small = st.integers(min_value=-1, max_value=4)
_odd = st.one_of(st.none(), st.booleans(), st.text(max_size=3), st.floats(allow_nan=False),
                 st.lists(_small, max_size=2))


def _maybe(value: st.SearchStrategy) -> st.SearchStrategy:
    return st.one_of(value, value, value, _odd)


_mention = st.fixed_dictionaries({"name": _maybe(_names), "sent_id": _maybe(_small)})
_label = st.fixed_dictionaries({"r": _maybe(st.sampled_from(["P1", "P2"])), "h": _maybe(_small), "t": _maybe(_small),
                                "evidence": _maybe(st.lists(_maybe(_small), max_size=3))})
_doc = st.fixed_dictionaries({"title": _maybe(st.sampled_from(["A", "B"])),
                              "vertexSet": _maybe(st.lists(_maybe(st.lists(_maybe(_mention), max_size=2)), max_size=4)),
                              "labels": _maybe(st.lists(_maybe(_label), max_size=4))})
_fact = st.fixed_dictionaries({"title": _maybe(st.sampled_from(["A", "B", "C"])), "h_idx": _maybe(_small),
                               "t_idx": _maybe(_small), "r": _maybe(st.sampled_from(["P1", "P2"]))},
                              optional={"evidence": _maybe(st.lists(_maybe(_small), max_size=3))})


@_EXAMPLES
@given(key=st.lists(_doc, max_size=3), facts=st.lists(_fact, max_size=6), train=st.booleans())
def test_docred_files(tmp_path_factory, key, facts, train) -> None:
    folder = Path(tmp_path_factory.mktemp("docred"))
    k, r = folder / "key.json", folder / "pred.json"
    k.write_text(json.dumps(key))
    r.write_text(json.dumps(facts))
    argv = ["structured", str(k), str(r), "--preset", "docred", "--output", "json"]
    done = run(argv + (["--train", str(k)] if train else []))
    if done.status == 0 and key and facts == []:
        assert json.loads(done.stdout)["measures"]["relation"]["totals"]["pred_total"] == 0


_pub_line = st.one_of(
    st.just("1|t|Title"), st.just("1|a|Text"), st.just(""), st.just("2|t|Other"),
    st.builds(lambda s, t, i: f"1\t{s}\t{s + 2}\tx\t{t}\t{i}", _small,
              st.sampled_from(["GeneOrGeneProduct", "ChemicalEntity", "DiseaseOrPhenotypicFeature"]),
              st.sampled_from(["G1", "C1", "D1", "C1,D1", "-"])),
    st.builds(lambda t, a, b, n: "\t".join(["1", t, a, b] + n), st.sampled_from(["Bind", "Association"]),
              st.sampled_from(["G1", "C1", "D1", "X"]), st.sampled_from(["G1", "C1", "D1"]),
              st.lists(st.sampled_from(["Novel", "No"]), max_size=2)),
    st.text(alphabet="1|\tat ,", max_size=8))


@_EXAMPLES
@given(lines=st.lists(_pub_line, max_size=10), other=st.lists(_pub_line, max_size=10))
def test_pubtator_files(tmp_path_factory, lines, other) -> None:
    folder = Path(tmp_path_factory.mktemp("biored"))
    k, r = folder / "key.pubtator", folder / "pred.pubtator"
    k.write_text("\n".join(lines) + "\n")
    r.write_text("\n".join(other) + "\n")
    run(["structured", str(k), str(r), "--preset", "biored", "--output", "json"])
    same = run(["structured", str(k), str(k), "--preset", "biored", "--output", "json"])
    if same.status == 0:
        for measure in json.loads(same.stdout)["measures"].values():
            assert measure["totals"]["f1"] == 1.0


_span = st.lists(_maybe(_small), min_size=2, max_size=2)
_triple = _maybe(st.builds(lambda s, t: s + [t], _span, _maybe(st.sampled_from(["A", "B"]))))
_pred_line = st.fixed_dictionaries({"doc_id": _maybe(st.just("d")), "wnd_id": _maybe(st.sampled_from(["d_1", "d_2"])),
                                    "events": _maybe(st.lists(st.fixed_dictionaries(
                                        {"trigger": _triple, "arguments": _maybe(st.lists(_triple, max_size=3))}),
                                        max_size=2))})
_gold_line = st.fixed_dictionaries({
    "doc_id": st.just("d"), "wnd_id": st.sampled_from(["d_1", "d_2"]),
    "entity_mentions": _maybe(st.lists(st.fixed_dictionaries({"id": st.sampled_from(["e1", "e2"]), "start": _small,
                                                              "end": _small}), max_size=2)),
    "event_mentions": _maybe(st.lists(st.fixed_dictionaries({
        "event_type": _maybe(st.sampled_from(["A", "B"])), "trigger": _maybe(st.fixed_dictionaries(
            {"start": _maybe(_small), "end": _small})),
        "arguments": _maybe(st.lists(st.fixed_dictionaries({"entity_id": st.sampled_from(["e1", "e2", "e9"]),
                                                            "role": _maybe(st.just("R"))}), max_size=2))}),
        max_size=2))})


@_EXAMPLES
@given(gold=st.lists(_gold_line, max_size=3), pred=st.lists(_pred_line, max_size=3))
def test_textee_files(tmp_path_factory, gold, pred) -> None:
    folder = Path(tmp_path_factory.mktemp("textee"))
    k, r = folder / "gold.json", folder / "pred.jsonl"
    k.write_text("".join(json.dumps(x) + "\n" for x in gold))
    r.write_text("".join(json.dumps(x) + "\n" for x in pred))
    run(["structured", str(k), str(r), "--preset", "textee", "--output", "json"])
    run(["structured", str(k), str(r), "--metrics", "event-argument", "--not-attached", "--output", "json"])
