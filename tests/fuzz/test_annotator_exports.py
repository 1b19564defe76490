"""Annotation tools' multi-annotator exports (Prodigy JSON lines, Label Studio with several users, doccano
classes and USER.jsonl folders, brat folders per annotator), valid and corrupted, through accord agree and score:
a result or one line naming what is wrong, never a traceback, a defect or a hang (:func:`harness.run`)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run
from .strategies import corrupt_bytes, corrupt_json, dumps

settings.load_profile(PROFILE)
CHEAP = settings(max_examples=700 if FULL else 25)
"""Each command reads a whole export: fewer inputs than the profile's in the run of every commit."""

WORDS = st.sampled_from(["Ann", "met", "Bob", "in", "Rome", "😀", "ü", ""])
LABELS = st.sampled_from(["PER", "LOC", "ORG", "pos", "neg"])
WHO = st.sampled_from(["ann", "bob", "cy", "1", "../x", "a b", ""])


@st.composite
def _text_spans(draw):
    text = " ".join(draw(st.lists(WORDS, min_size=1, max_size=6)))
    spans = []
    for _ in range(draw(st.integers(0, 3))):
        a = draw(st.integers(0, len(text)))
        b = draw(st.integers(a, len(text)))
        spans.append((a, b, draw(LABELS)))
    return text, spans


@st.composite
def prodigy_tasks(draw):
    tasks = []
    for _ in range(draw(st.integers(1, 6))):
        text, spans = draw(_text_spans())
        task = {"text": text, "_input_hash": draw(st.integers(0, 3)), "_task_hash": draw(st.integers()),
                "spans": [{"start": a, "end": b, "label": lab} for a, b, lab in spans],
                "answer": draw(st.sampled_from(["accept", "accept", "reject", "ignore"])),
                "_view_id": "ner_manual", "_is_binary": draw(st.booleans())}
        if draw(st.booleans()):
            task["_annotator_id"] = draw(WHO)
        tasks.append(task)
    return tasks


@st.composite
def label_studio_tasks(draw):
    tasks = []
    for k in range(draw(st.integers(1, 4))):
        text, _ = draw(_text_spans())
        annotations = []
        for who in draw(st.lists(st.sampled_from([1, 2, 3, None]), max_size=3)):
            _, spans = draw(_text_spans())
            spans = [(a, b, lab) for a, b, lab in spans if b <= len(text)]
            result = [{"id": f"r{n}", "type": "labels", "from_name": "l", "to_name": "t",
                       "value": {"start": a, "end": b, "text": text[a:b], "labels": [lab]}}
                      for n, (a, b, lab) in enumerate(spans)]
            entry = {"result": result, "was_cancelled": draw(st.booleans()) and draw(st.booleans())}
            if who is not None:
                entry["completed_by"] = who
            annotations.append(entry)
        tasks.append({"id": k + 1, "data": {"text": text}, "annotations": annotations})
    return tasks


def _write_lines(path: Path, rows: list) -> None:
    path.write_text("".join(dumps(r) + "\n" for r in rows), encoding="utf-8")


@CHEAP
@given(prodigy_tasks(), st.data())
def test_prodigy_file(tasks, data):
    with tempfile.TemporaryDirectory() as d:
        good, bad = Path(d, "g.jsonl"), Path(d, "b.jsonl")
        _write_lines(good, tasks)
        _write_lines(bad, [data.draw(corrupt_json(t)) if k == 0 else t for k, t in enumerate(tasks)])
        for path in (good, bad):
            run(["agree", str(path)])
            run(["agree", str(path), "--annotators", "ann,bob"])
            run(["score", str(path), str(good), "--gold-set", "ann"])
        raw = good.read_bytes()
        corrupt = Path(d, "c.jsonl")
        corrupt.write_bytes(data.draw(corrupt_bytes(raw)))
        run(["agree", str(corrupt)])
        run(["agree", d])            # a folder of Prodigy files, one annotator each


@CHEAP
@given(label_studio_tasks(), st.data())
def test_label_studio_users(tasks, data):
    with tempfile.TemporaryDirectory() as d:
        good, bad = Path(d, "g.json"), Path(d, "b.json")
        good.write_text(json.dumps(tasks), encoding="utf-8")
        bad.write_text(dumps(data.draw(corrupt_json(tasks))), encoding="utf-8")
        for path in (good, bad):
            run(["agree", str(path)])
            run(["agree", str(path), "--annotators", "1,2,predictions", "--output", "json"])


@st.composite
def _classes(draw):
    return [draw(st.lists(LABELS, max_size=2, unique=True)) for _ in range(4)]


@CHEAP
@given(st.lists(_classes(), min_size=1, max_size=3), st.data())
def test_doccano_users_folder(users, data):
    texts = ["good", "bad", "so so", "fine"]
    with tempfile.TemporaryDirectory() as d:
        rows = []
        for n, classes in enumerate(users):
            rows = [{"id": k, "text": t, "label": c} for k, (t, c) in enumerate(zip(texts, classes), 1)]
            _write_lines(Path(d, f"user{n}.jsonl"), rows)
        run(["agree", d])
        run(["agree", d, "--output", "json"])
        _write_lines(Path(d, "user0.jsonl"), [data.draw(corrupt_json(r)) for r in rows])
        run(["agree", d])
        run(["score", str(Path(d, "user0.jsonl")), str(Path(d, f"user{len(users) - 1}.jsonl"))])


@CHEAP
@given(st.lists(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 5), LABELS), max_size=4), min_size=1,
                max_size=3), st.data())
def test_brat_annotator_folders(annotators, data):
    text = "Ann met Bob in Rome. Then Cy."
    with tempfile.TemporaryDirectory() as d:
        for n, spans in enumerate(annotators):
            folder = Path(d, f"a{n}")
            folder.mkdir()
            lines = [f"T{k + 1}\t{lab} {a} {a + w}" for k, (a, w, lab) in enumerate(spans)]
            (folder / "doc.txt").write_text(text, encoding="utf-8")
            content = "\n".join(lines) + "\n"
            if n == 0 and data.draw(st.booleans()):
                content = data.draw(corrupt_bytes(content.encode())).decode("utf-8", "replace")
            (folder / "doc.ann").write_text(content, encoding="utf-8")
        run(["agree", d])
        run(["agree", d, "--annotators", "a0,a9"])
