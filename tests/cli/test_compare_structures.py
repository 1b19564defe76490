"""accord compare --structures: paired tests between coreference, Smatch and structured-record systems."""

import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import accord
from accord.cli import main
from accord.formats.coref.clusters import write_coref_conll

from ..conftest import DATA
from ..result.contract import checked

CASES = json.loads((DATA / "coref" / "reference_cases.json").read_text())["cases"]


def coref_files(tmp_path: Path, n: int = 12) -> tuple[str, str, str]:
    """A key of ``n`` reference-scorer cases as documents, their reference responses (system A) and a system B
    that is the key with the last entity of every document dropped."""
    key = {f"d{k}": c["key_clusters"] for k, c in enumerate(CASES[:n])}
    resp = {f"d{k}": c["response_clusters"] for k, c in enumerate(CASES[:n])}
    dropped = {d: clusters[:-1] if len(clusters) > 1 else clusters for d, clusters in key.items()}
    paths = tmp_path / "key.conll", tmp_path / "a.conll", tmp_path / "b.conll"
    for clusters, path in zip((key, resp, dropped), paths):
        write_coref_conll(clusters, path)
    return tuple(map(str, paths))


def test_coref_differences_and_the_muc_p_value_against_scipy(tmp_path, capsys):
    key, a, b = coref_files(tmp_path)
    out = tmp_path / "c.json"
    assert main(["compare", key, a, b, "--structures", "coref", "--metrics", "muc,bcub,ceafe", "--seed", "3",
                 "--samples", "20000", "-o", str(out)]) == 0
    data = checked(out.read_text(encoding="utf-8"))
    assert data["command"] == "compare" and set(data["systems"]) == {"a", "b"}
    ra = accord.coref(key, a, metrics=["muc", "bcub", "ceafe"])
    rb = accord.coref(key, b, metrics=["muc", "bcub", "ceafe"])
    by_measure = {c["measure"]: c for c in data["comparisons"]}
    assert set(by_measure) == {"muc", "bcub", "ceafe", "mentions"}    # mention identification always
    for m, c in by_measure.items():
        assert c["difference"] == pytest.approx(rb.measures[m].totals()["f1"] - ra.measures[m].totals()["f1"],
                                                abs=1e-12)
    # the MUC p-value: scipy enumerates all 4096 swaps of the 12 documents' counts
    kind = ra.measures["muc"].kind
    stacked = np.concatenate([ra.measures["muc"].table.values[:, 0], rb.measures["muc"].table.values[:, 0]])

    def f1_difference(x, y, axis=-1):
        return (kind.rates(stacked[np.asarray(y)].sum(axis=-2))["f1"]
                - kind.rates(stacked[np.asarray(x)].sum(axis=-2))["f1"])
    n = 12
    exact = stats.permutation_test((np.arange(n), np.arange(n) + n), f1_difference, permutation_type="samples",
                                   vectorized=True, n_resamples=np.inf, alternative="two-sided")
    assert by_measure["muc"]["p_value"] == pytest.approx(exact.pvalue, abs=0.015)


def test_a_coref_system_against_itself(tmp_path, capsys):
    key, a, _ = coref_files(tmp_path)
    copy = tmp_path / "copy.conll"
    copy.write_text(Path(a).read_text())
    out = tmp_path / "same.json"
    assert main(["compare", key, a, str(copy), "--structures", "coref", "--seed", "1", "--samples", "500",
                 "-o", str(out)]) == 0
    comparisons = checked(out.read_text(encoding="utf-8"))["comparisons"]
    assert len(comparisons) == 7 and all(c["difference"] == 0 and c["p_value"] == 1 for c in comparisons)


def test_smatch_and_structured_records(tmp_path, capsys):
    gold = tmp_path / "g.amr"
    graphs = ["(w / want-01 :ARG0 (b / boy) :ARG1 (g / go-02 :ARG0 b))", "(d / dog)", "(c / cat :mod (b / big))"]
    gold.write_text("".join(f"# ::id {k}\n{g}\n\n" for k, g in enumerate(graphs)))
    worse = tmp_path / "w.amr"
    worse.write_text("".join(f"# ::id {k}\n{g}\n\n" for k, g in
                             enumerate([graphs[0].replace("boy", "girl"), graphs[1], "(c / cat)"])))
    out = tmp_path / "s.json"
    assert main(["compare", str(gold), str(gold), str(worse), "--structures", "smatch", "--seed", "1",
                 "--samples", "200", "-o", str(out)]) == 0
    (c,) = checked(out.read_text(encoding="utf-8"))["comparisons"]
    expected = accord.smatch(str(gold), str(worse)).totals["f1"] - 1.0
    assert c["measure"] == "smatch" and c["difference"] == pytest.approx(expected)
    rk, ra, rb = (tmp_path / n for n in ("rk.jsonl", "ra.jsonl", "rb.jsonl"))
    rel = {"type": "R", "subj": [0, 1], "obj": [3, 3]}
    other = {"type": "S", "subj": [5, 5], "obj": [7, 8]}
    rk.write_text("".join(json.dumps({"id": d, "relations": [rel, other]}) + "\n" for d in "abc"))
    ra.write_text("".join(json.dumps({"id": d, "relations": [rel, other]}) + "\n" for d in "abc"))
    rb.write_text("".join(json.dumps({"id": d, "relations": [rel]}) + "\n" for d in "abc"))
    out = tmp_path / "r.json"
    assert main(["compare", str(rk), str(ra), str(rb), "--structures", "structured", "--metrics",
                 "relation", "--samples", "100", "--seed", "1", "-o", str(out)]) == 0
    comparisons = checked(out.read_text(encoding="utf-8"))["comparisons"]
    total = [c for c in comparisons if c["label"] is None]
    # b finds one relation of two in every document: recall 1/2, precision 1, F1 2/3 against a's 1
    assert total[0]["difference"] == pytest.approx(2 / 3 - 1)


@pytest.mark.parametrize("extra, message", [
    (["--match", "clueval"], "--match apply to accord score's modes"),
    (["--profile", "lenient"], "--profile apply to accord score's modes"),
    (["--beta", "2"], "--beta apply"),
    (["--hierarchy", "h.json"], "apply to --structures structured"),
    (["--format", "conll"], "coreference files are conll2012 or jsonl"),
])
def test_options_of_other_modes_are_refused(tmp_path, capsys, extra, message):
    key, a, b = coref_files(tmp_path, 3)
    assert main(["compare", key, a, b, "--structures", "coref", *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_response_document_not_in_the_key_is_refused(tmp_path, capsys):
    """(A document the response lacks scores as an empty response, as the reference scorer does; one the key lacks
    is an error.)"""
    key, a, _ = coref_files(tmp_path, 3)
    more = tmp_path / "more.conll"
    write_coref_conll({f"d{k}": c["response_clusters"] for k, c in enumerate(CASES[:4])}, more)
    code = main(["compare", key, a, str(more), "--structures", "coref", "--samples", "50"])
    err = capsys.readouterr().err
    assert code == 2 and "only in the response" in err and "d3" in err, err
