"""Project layouts: the annotators of INCEpTION's and WebAnno's project exports (annotation/<document>/<user>.tsv|.xmi,
curation/<document>/CURATION_USER.tsv), for accord agree and accord adjudicate."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

import accord
from accord.cli import main
from accord.errors import AccordWarning, FormatError, OptionError
from accord.formats.projects import detect, find_annotators, layouts, register

CORPORA = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpora"
WEBANNO = CORPORA / "outside3b" / "webanno"
CURATION_SUITE = WEBANNO / "curation"

HEADER = "#FORMAT=WebAnno TSV 3.3\n#T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|value\n\n\n"
TEXTS = {"a.txt": "Alice met Bob in Paris .", "b.txt": "Rome is big ."}
# the three annotators' entities, by hand: Bob is PER, ORG, or not marked; Rome LOC, LOC, ORG
ENTITIES = {
    "ann1": {"a.txt": {"Alice": "PER", "Bob": "PER", "Paris": "LOC"}, "b.txt": {"Rome": "LOC"}},
    "ann2": {"a.txt": {"Alice": "PER", "Bob": "ORG", "Paris": "LOC"}, "b.txt": {"Rome": "LOC"}},
    "ann3": {"a.txt": {"Alice": "PER", "Paris": "LOC"}, "b.txt": {"Rome": "ORG"}},
}


def tsv(text: str, labels: dict[str, str]) -> str:
    """One sentence of WebAnno TSV 3.3 with a NamedEntity on the tokens named in ``labels``."""
    lines, at = [f"#Text={text}"], 0
    for k, token in enumerate(text.split(" "), start=1):
        lines.append(f"1-{k}\t{at}-{at + len(token)}\t{token}\t{labels.get(token, '_')}\t")
        at += len(token) + 1
    return HEADER + "\n".join(lines) + "\n"


def export(root: Path, entities=ENTITIES, curated: dict | None = None) -> Path:
    """An INCEpTION export folder: annotation/<document>/<user>.tsv (and curation/<document>/CURATION_USER.tsv)."""
    for user, docs in entities.items():
        for doc, labels in docs.items():
            (root / "annotation" / doc).mkdir(parents=True, exist_ok=True)
            (root / "annotation" / doc / f"{user}.tsv").write_text(tsv(TEXTS[doc], labels), encoding="utf-8")
    for doc, labels in (curated or {}).items():
        (root / "curation" / doc).mkdir(parents=True, exist_ok=True)
        (root / "curation" / doc / "CURATION_USER.tsv").write_text(tsv(TEXTS[doc], labels), encoding="utf-8")
    return root


def values(coefficients: dict) -> dict:
    """The coefficients without the annotators' names."""
    return {k: v["mean"] if isinstance(v, dict) else v for k, v in coefficients.items()}


def coefficients(argv: list[str], capsys) -> dict:
    assert main([*argv, "--output", "json"]) == 0
    return json.loads(capsys.readouterr().out)["totals"]["coefficients"]


def test_the_annotators_of_an_export_by_hand(tmp_path, capsys, monkeypatch):
    """Four items (Alice, Bob, Paris; Rome), counted by hand. ann1 and ann2 agree on 3 of 4: Cohen's kappa with
    ann1's PER 2, LOC 2 and ann2's PER 1, ORG 1, LOC 2 is (3/4 - 3/8) / (1 - 3/8) = 0.6. All three (Bob is
    Non-cat for ann3): Fleiss' P-bar = (1 + 0 + 1 + 1/3) / 4 = 7/12, P_e = (4² + 2² + 5² + 1²) / 12² = 46/144, so
    kappa = 38/98."""
    root = export(tmp_path / "export")
    two = coefficients(["agree", str(root), "--annotators", "ann1,ann2"], capsys)
    assert two["observed_agreement"] == pytest.approx(0.75)
    assert two["cohen_kappa"] == pytest.approx(0.6)
    three = coefficients(["agree", str(root)], capsys)
    assert three["fleiss_kappa"] == pytest.approx(38 / 98)
    # the same as one folder per annotator, read the ordinary way
    for user, docs in ENTITIES.items():
        (tmp_path / user).mkdir()
        for doc, labels in docs.items():
            (tmp_path / user / f"{doc}.tsv").write_text(tsv(TEXTS[doc], labels), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert coefficients(["agree", *ENTITIES], capsys) == three
    # from Python, the annotators in the order asked for
    result = accord.agree(root, annotators=["ann2", "ann1"])
    assert result.to_dict()["totals"]["raters"] == ["ann2", "ann1"]
    assert result.to_dict()["totals"]["coefficients"]["cohen_kappa"] == pytest.approx(0.6)


def test_the_annotation_folder_alone_and_the_curation(tmp_path, capsys):
    """The annotation folder itself is an export too; the curation is the annotator 'curation', read only when
    chosen (a warning says it was left out)."""
    root = export(tmp_path / "export", curated={"a.txt": ENTITIES["ann1"]["a.txt"], "b.txt": {"Rome": "LOC"}})
    with pytest.warns(AccordWarning, match="curation left out .* --annotators"):
        found = find_annotators(root)
    assert list(found) == ["ann1", "ann2", "ann3"]
    assert [d for d in found["ann1"]] == ["a.txt", "b.txt"]
    assert list(find_annotators(root / "annotation")) == ["ann1", "ann2", "ann3"]
    # the curation agrees with ann1 everywhere (by construction)
    both = coefficients(["agree", str(root), "--annotators", "curation,ann1"], capsys)
    assert both["observed_agreement"] == 1.0
    assert detect(tmp_path) is None and find_annotators(tmp_path) is None
    assert "inception" in [layout.name for layout in layouts()]


def test_unknown_and_misplaced_annotators_are_errors(tmp_path, capsys):
    root = export(tmp_path / "export")
    assert main(["agree", str(root), "--annotators", "ann1,bob"]) == 2
    err = capsys.readouterr().err
    assert "no annotator 'bob' in this project; it has 'ann1', 'ann2', 'ann3'" in err and err.count("\n") == 1
    with pytest.raises(OptionError, match="chosen twice"):
        accord.agree(root, annotators=["ann1", "ann1"])
    with pytest.raises(OptionError, match="chooses among the annotators of one project export"):
        accord.agree([root / "annotation" / "a.txt" / "ann1.tsv", root / "annotation" / "a.txt" / "ann2.tsv"],
                     annotators=["ann1"])
    only_curation = export(tmp_path / "cur", entities={}, curated={"a.txt": {}})
    with pytest.raises(OptionError, match="only curation; choose with --annotators"):
        accord.agree(only_curation)


def test_a_document_one_annotator_lacks_is_left_out_with_a_warning(tmp_path, capsys):
    """ann3 never opened b.txt (INCEpTION writes no file): b.txt is left out for all three, named in a warning, and
    the agreement is that of a.txt alone: by hand, Fleiss' P-bar = (1 + 0 + 1) / 3 (Alice, Bob, Paris) and
    P_e = (4² + 1² + 3² + 1²) / 9² = 1/3 (PER, ORG, LOC, Non-cat), so kappa = (2/3 - 1/3) / (1 - 1/3) = 1/2.
    ann1 and ann2 alone both have b.txt: their four items are kept (kappa 0.6 as above)."""
    entities = {u: dict(d) for u, d in ENTITIES.items()}
    del entities["ann3"]["b.txt"]
    root = export(tmp_path / "export", entities)
    with pytest.warns(AccordWarning, match=r"1 document\(s\) not annotated by every annotator chosen left out: "
                                           r"'b.txt' \(not by ann3\)"):
        found = find_annotators(root)
    assert [list(c) for c in found.values()] == [["a.txt"]] * 3
    assert coefficients(["agree", str(root)], capsys)["fleiss_kappa"] == pytest.approx(0.5)
    assert coefficients(["agree", str(root), "--annotators", "ann1,ann2"], capsys)["cohen_kappa"] == (
        pytest.approx(0.6))
    assert main(["agree", str(root)]) == 0
    assert "not by ann3" in capsys.readouterr().err


def test_broken_exports_are_named(tmp_path):
    root = export(tmp_path / "export")
    (root / "annotation" / "a.txt" / "ann1.xmi").write_text("<x/>", encoding="utf-8")
    with pytest.raises(FormatError, match="annotator 'ann1' has two files for document 'a.txt'"):
        find_annotators(root)
    (root / "annotation" / "a.txt" / "ann1.xmi").unlink()
    (root / "annotation" / "a.txt" / "notes.txt").write_text("x", encoding="utf-8")
    with pytest.warns(AccordWarning, match="1 entry that is not an annotator's WebAnno TSV or XMI file left out: "
                                           "'annotation/a.txt/notes.txt'"):
        find_annotators(root)
    (root / "annotation" / "a.txt" / "ann2.tsv").write_text(HEADER + "#Text=a\n1-1\t0-1\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"ann2.tsv:6: expected 4 tab-separated columns"), warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        find_annotators(root)


def test_xmi_files_with_the_type_system_at_the_root(tmp_path, capsys):
    """XMI per user (as accord writes them: DKPro Core named entities) read with the type system found at the
    export's root when the document folder has none; the numbers are those of the TSV export."""
    pytest.importorskip("cassis")
    tsv_root = export(tmp_path / "tsv")
    xmi_root = tmp_path / "xmi"
    for user, docs in ENTITIES.items():
        for doc in docs:
            folder = xmi_root / "annotation" / doc
            folder.mkdir(parents=True, exist_ok=True)
            corpus = accord.read(tsv_root / "annotation" / doc / f"{user}.tsv")
            accord.write(corpus, folder / f"{user}.xmi", "xmi")
            shutil.move(folder / "TypeSystem.xml", xmi_root / "TypeSystem.xml")
    assert coefficients(["agree", str(xmi_root)], capsys) == coefficients(["agree", str(tsv_root)], capsys)


def test_adjudicate_takes_two_annotators_of_an_export(tmp_path, capsys):
    """The key ann1 and the response ann2: the matches kept (by default) are Alice, Paris and Rome (Bob differs)."""
    root = export(tmp_path / "export")
    out = tmp_path / "gold.jsonl"
    assert main(["adjudicate", str(root), "--annotators", "ann1,ann2", "-o", str(out)]) == 0
    gold = accord.read(out)
    assert sorted((d, a.label, gold[d].text[a.start:a.end]) for d in gold for a in gold[d].annotations) == [
        ("a.txt", "LOC", "Paris"), ("a.txt", "PER", "Alice"), ("b.txt", "LOC", "Rome")]
    assert main(["adjudicate", str(root), "-o", str(out)]) == 2
    assert "choose two with --annotators A,B" in capsys.readouterr().err


def test_a_layout_registered_by_a_plugin(tmp_path):
    """register(name, detect, read): a layout recognising a folder named *.two gives two annotators."""
    corpus = accord.read(export(tmp_path / "e") / "annotation" / "a.txt" / "ann1.tsv")
    register("test-two", lambda p: p.suffix == ".two", lambda p, **_: {"x": corpus, "y": lambda: corpus})
    try:
        (tmp_path / "p.two").mkdir()
        found = find_annotators(tmp_path / "p.two")
        assert list(found) == ["x", "y"] and found["y"]["ann1"].text == TEXTS["a.txt"]
    finally:
        from accord.formats import _project_registry

        _project_registry._LAYOUTS.pop("test-two")


def _suite_export(root: Path, plain: Path | None, cases: list[str]) -> None:
    """INCEpTION's curation suite laid out as an export (and as one folder per annotator in ``plain``)."""
    for case in cases:
        for user in ("user1", "user2"):
            (root / "annotation" / case).mkdir(parents=True, exist_ok=True)
            shutil.copy(CURATION_SUITE / case / f"{user}.tsv", root / "annotation" / case / f"{user}.tsv")
            if plain is not None:
                (plain / user).mkdir(parents=True, exist_ok=True)
                shutil.copy(CURATION_SUITE / case / f"{user}.tsv", plain / user / f"{case}.tsv")
        (root / "curation" / case).mkdir(parents=True, exist_ok=True)
        shutil.copy(CURATION_SUITE / case / "curator.tsv", root / "curation" / case / "CURATION_USER.tsv")


@pytest.mark.skipif(not CURATION_SUITE.is_dir(), reason="../shared/corpora: INCEpTION's curation suite absent")
def test_inception_curation_suite_as_an_export(tmp_path):
    """INCEpTION's curation test suite laid out as an export (each case a document, user1 and user2 the annotators,
    curator.tsv the curation): its POS agreement equals that of the same files read as two folders; by hand, the
    two cases simpleSpan(No)DiffWithLabelTest give the POS pairs (NN, NE) and (NN, NN) on 'sentence': observed
    agreement 1/2, Cohen's kappa (1/2 - 1/2) / (1 - 1/2) = 0."""
    root, plain = tmp_path / "export", tmp_path / "plain"
    cases = sorted(c.name for c in CURATION_SUITE.iterdir() if (c / "user1.tsv").is_file())
    _suite_export(root, plain, cases)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        found = find_annotators(root, ["user1", "user2", "curation"], layer="POS")
        assert [len(c) for c in found.values()] == [len(cases)] * 3
        got = accord.agree(root, layer="POS").to_dict()["totals"]
        plainly = accord.agree([accord.read(plain / u, layer="POS") for u in ("user1", "user2")])
    assert got["raters"] == ["user1", "user2"]
    assert values(plainly.to_dict()["totals"]["coefficients"]) == values(got["coefficients"])
    _suite_export(tmp_path / "two", None, ["simpleSpanDiffWithLabelTest", "simpleSpanNoDiffWithLabelTest"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        two = accord.agree(tmp_path / "two", layer="POS").to_dict()["totals"]
    assert (two["items"], two["coefficients"]["observed_agreement"], two["coefficients"]["cohen_kappa"]) == (
        2, 0.5, 0.0)


@pytest.mark.skipif(not (WEBANNO / "project_export").is_dir(), reason="../shared/corpora: INCEpTION export absent")
def test_a_real_export_s_curation():
    """The curated document of INCEpTION's own export test project (one file, CURATION_USER.tsv): the annotator
    'curation', its document named by its folder."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AccordWarning)
        found = find_annotators(WEBANNO / "project_export", ["curation"])
    assert list(found) == ["curation"] and list(found["curation"]) == ["example_sentence.txt"]


def test_the_zipped_export_reads_as_the_folder(tmp_path, capsys, monkeypatch):
    """The export's zip file (as INCEpTION gives it, here with a top folder) gives the numbers of the unzipped
    folder (kappa 0.6 for ann1 and ann2, by hand above); members past the size limit are refused before reading."""
    import zipfile

    from accord.formats import projects

    root = export(tmp_path / "export")
    archive = tmp_path / "project.zip"
    with zipfile.ZipFile(archive, "w") as z:
        for f in sorted(root.rglob("*.tsv")):
            z.write(f, "project/" + f.relative_to(root).as_posix())
        z.writestr("project/exportedproject.json", "{}")
    assert detect(archive).name == "inception-zip"
    zipped = coefficients(["agree", str(archive), "--annotators", "ann1,ann2"], capsys)
    assert zipped == coefficients(["agree", str(root), "--annotators", "ann1,ann2"], capsys)
    assert zipped["cohen_kappa"] == pytest.approx(0.6)
    found = find_annotators(archive)
    assert found["ann1"]["a.txt"].metadata["source"] == f"{archive}:project/annotation/a.txt/ann1.tsv"
    monkeypatch.setattr(projects, "MAX_ZIP_BYTES", 100)
    with pytest.raises(FormatError, match="bytes uncompressed, more than 100: refused before reading"):
        find_annotators(archive)
    monkeypatch.undo()
    with zipfile.ZipFile(tmp_path / "bad.zip", "w") as z:
        z.writestr("annotation/a.txt/ann1.tsv", HEADER + "#Text=a\n1-1\t0-1\n")
        z.writestr("annotation/a.txt/ann2.tsv", tsv(TEXTS["a.txt"], {}))
    with pytest.raises(FormatError, match=r"bad.zip:annotation/a.txt/ann1.tsv:6: expected 4 tab-separated"):
        find_annotators(tmp_path / "bad.zip")
