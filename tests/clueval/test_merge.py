"""The combined model: overlap components, hulls, majority values per layer, VRT and JSON lines output."""

import json

import numpy as np
import pytest

from accord.cli import main
from accord.clueval import OverlappingSpansError, merge_layers
from accord.errors import OptionError
from accord.formats import read
from accord.match.blocks import overlap_blocks
from accord.model import Corpus, Document, make_annotation


def layer(spans, n=20):
    return Corpus([Document("d", tuple(make_annotation(l, s, e) for l, s, e in spans),
                            tokens=tuple(f"t{i}" for i in range(n)))])


def merged(**layers):
    out = merge_layers({name: layer(spans) for name, spans in layers.items()})
    return [(a.label, a.start, a.end, dict(a.attributes)) for a in out["d"].annotations]


def test_identical_layers_give_the_same_spans_with_every_label():
    spans = [("PER", 0, 2), ("LOC", 5, 6), ("ORG", 6, 9)]
    risk = [("high", 0, 2), ("low", 5, 6), ("low", 6, 9)]
    assert merged(cat=spans, risk=risk) == [
        ("PER", 0, 2, {"cat": "PER", "risk": "high"}), ("LOC", 5, 6, {"cat": "LOC", "risk": "low"}),
        ("ORG", 6, 9, {"cat": "ORG", "risk": "low"})]


def test_chained_overlaps_merge_into_one_component():
    # a [0,3) overlaps b [2,5) which overlaps c [4,8): one span [0,8), though a and c do not overlap
    out = merged(x=[("A", 0, 3), ("C", 4, 8)], y=[("B", 2, 5)])
    assert [(s, e) for _, s, e, _ in out] == [(0, 8)]
    assert out[0][3] == {"x": "C", "y": "B"}      # C has 4 tokens, A 3


def test_touching_spans_stay_apart_and_a_layer_without_a_span_has_no_value():
    out = merged(x=[("A", 0, 3), ("B", 3, 5)], y=[("Q", 10, 12)])
    assert out == [("A", 0, 3, {"x": "A"}), ("B", 3, 5, {"x": "B"}), ("Q", 10, 12, {"y": "Q"})]


def test_majority_by_tokens_and_the_tie_rule():
    # layer x has PER 2 tokens + LOC 3 tokens in the component: LOC; layer y ties 2-2: the leftmost label
    out = merged(x=[("PER", 0, 2), ("LOC", 2, 5)], y=[("high", 1, 3), ("low", 3, 5)])
    assert out == [("LOC", 0, 5, {"x": "LOC", "y": "high"})]
    out = merged(x=[("PER", 0, 2), ("PER", 4, 5), ("LOC", 2, 4)], y=[("z", 1, 4)])
    assert out[0][3]["x"] == "PER"     # PER 2 + 1 beats LOC 2


def test_components_equal_a_brute_force_union_find():
    rng = np.random.default_rng(11)
    for _ in range(50):
        s = np.sort(rng.integers(0, 60, 25))
        e = s + rng.integers(1, 6, 25)
        comp = overlap_blocks(s, e)
        parent = list(range(25))

        def find(i):
            while parent[i] != i:
                i = parent[i]
            return i
        for i in range(25):
            for j in range(i + 1, 25):
                if s[i] < e[j] and s[j] < e[i]:
                    parent[find(i)] = find(j)
        roots = [find(i) for i in range(25)]
        for i in range(25):
            for j in range(25):
                assert (roots[i] == roots[j]) == (comp[i] == comp[j])


def test_a_layer_with_overlapping_spans_is_refused():
    with pytest.raises(OverlappingSpansError, match="layer 'x', document 'd'"):
        merged(x=[("A", 0, 3), ("B", 2, 4)])
    with pytest.raises(OptionError, match="at least one layer"):
        merge_layers({})


VRT = """<!-- #vrt positional-attributes: word id ner_cat ner_risk -->
<text id="t1" domain="civil">
<s>
Anna\tw1\tB-PER\tB-high
Schmidt\tw2\tI-PER\tO
aus\tw3\tO\tB-low
Berlin\tw4\tB-LOC\tI-low
klagt\tw5\tO\tO
</s>
</text>
"""


def test_accord_merge_writes_vrt_and_json_lines(tmp_path, capsys):
    src = tmp_path / "in.vrt"
    src.write_text(VRT)
    out = tmp_path / "merged.vrt"
    assert main(["merge", str(src), "--columns", "ner_cat,ner_risk", "-o", str(out)]) == 0
    assert "4 spans in 2 columns merged into 2 spans" in capsys.readouterr().err
    lines = out.read_text().splitlines()
    assert lines[:3] == VRT.splitlines()[:3]
    assert lines[3:8] == ["Anna\tw1\tB-PER\tB-high", "Schmidt\tw2\tI-PER\tI-high", "aus\tw3\tB-LOC\tB-low",
                          "Berlin\tw4\tI-LOC\tI-low", "klagt\tw5\tO\tO"]
    # the merged file scores as one column: ner_risk now has the same spans as ner_cat
    cat = read(out, columns=["ner_cat"])
    risk = read(out, columns=["ner_risk"])
    assert [(a.start, a.end) for a in cat["t1"].annotations] == [(a.start, a.end) for a in risk["t1"].annotations]
    jl = tmp_path / "merged.jsonl"
    assert main(["merge", str(src), "--columns", "ner_cat,4", "-o", str(jl)]) == 0
    doc = json.loads(jl.read_text())
    assert doc["metadata"]["domain"] == "civil"
    assert [(a["start"], a["end"], a["attributes"]) for a in doc["annotations"]] == [
        (0, 2, {"ner_cat": "PER", "ner_risk": "high"}), (2, 4, {"ner_cat": "LOC", "ner_risk": "low"})]


def test_accord_merge_unknown_label_for_a_column_without_the_span(tmp_path):
    src = tmp_path / "in.vrt"
    src.write_text(VRT.replace("Berlin\tw4\tB-LOC\tI-low", "Berlin\tw4\tB-LOC\tO").replace(
        "aus\tw3\tO\tB-low", "aus\tw3\tO\tO"))
    out = tmp_path / "merged.vrt"
    assert main(["merge", str(src), "--columns", "ner_cat,ner_risk", "-o", str(out),
                 "--unknown-label", "NONE"]) == 0
    assert "Berlin\tw4\tB-LOC\tB-NONE" in out.read_text()
    assert main(["merge", str(src), "--columns", "ner_cat,ner_cat", "-o", str(out)]) == 2
    assert main(["merge", str(src), "--columns", "ner_cat", "-o", str(tmp_path / "x.txt")]) == 2
