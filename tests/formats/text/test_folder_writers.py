"""XMI and GATE XML written to folders: one file per document (XMI with its TypeSystem.xml), read back alike;
several documents to one file an error naming the way out."""

import pytest

import accord
from accord.errors import FormatError
from accord.model import Annotation, Corpus, Document

TWO = Corpus([Document("d1", (Annotation("PER", 0, 3), Annotation("LOC", 8, 13)), text="Ann in Paris."),
              Document("d 2", (Annotation("ORG", 0, 4),), text="Acme hired Ann.")])


def _spans(corpus):
    return {d.id: [(a.label, a.start, a.end) for a in d.annotations] for d in corpus.documents}


@pytest.mark.parametrize(("fmt", "ext"), [("xmi", ".xmi"), ("gate", ".xml")])
def test_several_documents_to_a_folder(tmp_path, fmt, ext):
    if fmt == "xmi":
        pytest.importorskip("cassis")
    out = tmp_path / "gold"
    accord.write(TWO, out, fmt)
    files = sorted(p.name for p in out.iterdir())
    assert files == (["TypeSystem.xml"] if fmt == "xmi" else []) + sorted([f"d 2{ext}", f"d1{ext}"])
    assert _spans(accord.read(out, format=fmt)) == _spans(TWO)


@pytest.mark.parametrize(("fmt", "name"), [("xmi", "all.xmi"), ("gate", "all.xml")])
def test_several_documents_to_one_file_is_an_error(tmp_path, fmt, name):
    if fmt == "xmi":
        pytest.importorskip("cassis")
    with pytest.raises(FormatError, match="holds one document; .* 2: give a folder"):
        accord.write(TWO, tmp_path / name, fmt)
    assert not (tmp_path / name).exists()


@pytest.mark.parametrize("fmt", ["xmi", "gate"])
def test_one_document_to_a_file_or_to_an_existing_folder(tmp_path, fmt):
    if fmt == "xmi":
        pytest.importorskip("cassis")
    one = Corpus([TWO["d1"]])
    accord.write(one, tmp_path / "one", fmt)          # no extension: a file, as before
    assert (tmp_path / "one").is_file()
    (tmp_path / "many").mkdir()
    accord.write(one, tmp_path / "many", fmt)
    assert _spans(accord.read(tmp_path / "many", format=fmt)) == {"d1": _spans(TWO)["d1"]}
