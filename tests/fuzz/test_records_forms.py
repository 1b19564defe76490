"""The other forms of generated records (JSON arrays, {"documents": [...]}, CSV/TSV, Python tuples) on generated
input: every file ends in a result or a one-line error, and a well-formed entity list scores the same in every
form."""

from __future__ import annotations

import csv
import io
import json

from hypothesis import given, settings
from hypothesis import strategies as st

import accord

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)
_EXAMPLES = settings(max_examples=300 if FULL else 40)

GOLD = "-DOCSTART- O\n\nJohn B-PER\nin O\nParis B-LOC\n\n-DOCSTART- O\n\nParis B-LOC\nand O\nJohn B-PER\n"
_TEXTS = st.sampled_from(("John", "Paris", "in", "zz", "", " ", "John in", "a,b", 'q"x', "é\n"))
_LABELS = st.sampled_from(("PER", "LOC", "", "X Y", "1"))
_CELLS = st.one_of(_TEXTS, _LABELS, st.text(max_size=5))


def _gold(folder):
    gold = folder / "gold.conll"
    gold.write_text(GOLD, encoding="utf-8")
    return gold


@_EXAMPLES
@given(st.lists(st.lists(_CELLS, min_size=0, max_size=6), max_size=6),
       st.lists(st.sampled_from(("id", "text", "label", "head", "tail", "x", "_y", "")), min_size=1, max_size=6),
       st.sampled_from((",", "\t")), st.sampled_from(("exact", "fuzzy", "none")))
def test_every_csv_file_ends_in_a_result_or_one_error(tmp_path_factory, rows, header, delimiter, align):
    folder = tmp_path_factory.mktemp("csv")
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(row)
    pred = folder / ("pred.csv" if delimiter == "," else "pred.tsv")
    pred.write_text(out.getvalue(), encoding="utf-8")
    run(["score", str(_gold(folder)), str(pred), "--pred-format", "records", "--align", align,
         "--allow-missing", "empty"])


_RECORDS = st.one_of(
    st.fixed_dictionaries({"id": st.sampled_from(("1", "2", 3, None))},
                          optional={"entities": st.lists(st.fixed_dictionaries(
                              {"text": _TEXTS, "label": _LABELS}), max_size=4),
                              "events": st.lists(st.fixed_dictionaries(
                                  {"trigger": _TEXTS, "label": _LABELS},
                                  optional={"arguments": st.lists(st.fixed_dictionaries(
                                      {"role": st.sampled_from(("A", "B", "trigger", "")), "text": _TEXTS}),
                                      max_size=3)}), max_size=3)}),
    st.integers(), st.text(max_size=3), st.lists(st.integers(), max_size=2))


@_EXAMPLES
@given(st.lists(_RECORDS, max_size=4), st.sampled_from(("array", "documents", "broken")),
       st.sampled_from(("exact", "fuzzy", "none")))
def test_every_json_file_ends_in_a_result_or_one_error(tmp_path_factory, records, form, align):
    folder = tmp_path_factory.mktemp("json")
    text = json.dumps(records if form != "documents" else {"documents": records}, indent=1)
    if form == "broken":
        text = text[: len(text) // 2]
    pred = folder / "pred.json"
    pred.write_text(text, encoding="utf-8")
    run(["score", str(_gold(folder)), str(pred), "--pred-format", "records", "--align", align,
         "--allow-missing", "empty"])
    run(["score", str(folder / "gold.conll"), str(pred), "--allow-missing", "empty"])


@_EXAMPLES
@given(st.lists(st.tuples(st.sampled_from(("1", "2")), st.sampled_from(("John", "Paris", "in", "zz", "Paris and"))
                          , st.sampled_from(("PER", "LOC"))), min_size=1, max_size=8))
def test_the_forms_of_one_entity_list_score_alike(tmp_path_factory, entities):
    folder = tmp_path_factory.mktemp("forms")
    gold = _gold(folder)
    docs: dict[str, list[dict[str, str]]] = {"1": [], "2": []}
    for doc, text, label in entities:
        docs[doc].append({"text": text, "label": label})
    records = [{"id": d, "entities": e} for d, e in docs.items()]
    forms = {"pred.jsonl": "".join(json.dumps(r) + "\n" for r in records), "pred.json": json.dumps(records),
             "pred.csv": "id,text,label\n" + "".join(f"{d},{t},{lab}\n" for d, t, lab in entities) + "1,,\n2,,\n"}
    expected = accord.score(gold, records).to_dict()["totals"]
    for name, content in forms.items():
        (folder / name).write_text(content, encoding="utf-8")
        assert accord.score(gold, folder / name).to_dict()["totals"] == expected, name
    assert accord.score(gold, entities, allow_missing="empty").to_dict()["totals"]["match"] == expected["match"]


_ANN = ("T1\tPerson 0 3\tAnn\nT2\tMeet 4 7\tmet\nT3\tPerson 8 11\tBob\nE1\tMeet:T2 Participant:T1 Participant2:T3\n"
        "T4\tLeave 25 29\tleft\nE2\tLeave:T4 Person:T3\n")
_WORDS = st.sampled_from(("Ann", "met", "Bob", "left", "Oslo", "Bob left", "zz", "", " ", "e"))


@_EXAMPLES
@given(st.lists(st.fixed_dictionaries(
    {"trigger": _WORDS, "label": st.sampled_from(("Meet", "Leave", "X Y", ""))},
    optional={"arguments": st.lists(st.fixed_dictionaries({"role": st.sampled_from(("Participant", "Person", "A B",
                                                                                    "trigger")),
                                                           "text": _WORDS}), max_size=3)}), max_size=4),
       st.lists(st.fixed_dictionaries({"text": _WORDS, "label": st.sampled_from(("Person", "Meet"))}), max_size=3),
       st.sampled_from(("brat", "jsonl", "xmi")), st.sampled_from(("exact", "fuzzy")))
def test_events_convert_and_score_to_a_result_or_one_error(tmp_path_factory, events, entities, target, align):
    folder = tmp_path_factory.mktemp("events")
    (folder / "news.txt").write_text("Ann met Bob in Oslo. Bob left.", encoding="utf-8")
    (folder / "news.ann").write_text(_ANN, encoding="utf-8")
    pred = folder / "pred.jsonl"
    pred.write_text(json.dumps({"id": "news", "entities": entities, "events": events}) + "\n", encoding="utf-8")
    run(["structured", str(folder / "news.ann"), str(pred), "--metrics", "event-trigger,event-argument"])
    run(["score", str(folder / "news.ann"), str(pred), "--align", align])
    out = folder / ("out" if target == "brat" else f"out.{target}")
    done = run(["convert", str(pred), "--gold", str(folder / "news.ann"), "--to", target, str(out), "--align", align])
    if done.status == 0 and target != "xmi":
        run(["score", str(folder / "news.ann"), str(out if target != "brat" else out / "news.ann")])
