"""Fuzz: the resampling unit, families and runs of compare and score --bootstrap on generated column files.

Whatever the documents, sentences and runs, the command gives a result or a one-line error (one unit: an error,
never a zero-width interval), and a result's sentences add up to its documents."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from .harness import FULL, PROFILE, run

settings.load_profile(PROFILE)

TAGS = ["O", "B-PER", "I-PER", "B-LOC"]


@st.composite
def corpus(draw):
    """Documents of sentences of tags, as (gold, [systems...]) texts of one shape."""
    docs = draw(st.lists(st.lists(st.integers(1, 4), min_size=1, max_size=4), min_size=1, max_size=4))
    docstart = draw(st.booleans()) or len(docs) > 1 and draw(st.booleans())
    n_sys = draw(st.integers(2, 3))
    texts = []
    for _ in range(n_sys + 1):
        lines = []
        for sentences in docs:
            if docstart:
                lines += ["-DOCSTART- O", ""]
            for length in sentences:
                lines += [f"w {draw(st.sampled_from(TAGS))}" for _ in range(length)] + [""]
        texts.append("\n".join(lines))
    return texts


@settings(max_examples=300 if FULL else 40, deadline=None)
@given(corpus(), st.sampled_from(["auto", "documents", "sentences"]),
       st.sampled_from(["separate", "overall", "all"]), st.sampled_from(["holm", "bonferroni", "none"]),
       st.booleans(), st.booleans())
def test_compare_and_bootstrap_on_any_shape(tmp_path_factory, texts, resample, families, correction, runs, bootstrap):
    d = tmp_path_factory.mktemp("c")
    paths = []
    for k, text in enumerate(texts):
        p = Path(d) / f"f{k}.conll"
        p.write_text(text, encoding="utf-8")
        paths.append(str(p))
    systems = [",".join(paths[1:]), paths[1]] if runs else paths[1:]
    argv = ["compare", paths[0], *systems, "--samples", "30", "--seed", "1", "--resample", resample,
            "--families", families, "--correction", correction, "--output", "json"]
    if bootstrap:
        argv += ["--bootstrap", "20"]
    out = run(argv)
    if out.status == 0:
        result = json.loads(out.stdout)
        assert result["options"]["resampled_units"] >= 2
        for c in result["comparisons"]:
            assert c["family_size"] >= (1 if c["p_value"] is not None else 0)
    score = run(["score", paths[0], paths[1], "--bootstrap", "20", "--seed", "2", "--resample", resample,
                 "--output", "json"])
    if score.status == 0:
        result = json.loads(score.stdout)
        assert result["options"]["resampled_units"] >= 2
        lo, hi = result["totals"]["ci"]["f1"]
        assert lo is None or lo <= hi
    else:
        assert "resample" in score.stderr or "two or more" in score.stderr or "sentences" in score.stderr
