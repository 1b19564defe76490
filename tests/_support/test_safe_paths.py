"""accord._support.safe_paths: file names from document ids, files and folders written whole, inputs never overwritten."""

import os
import signal
import warnings
from pathlib import Path

import pytest

from accord._support.safe_paths import (
    MAX_NAME_BYTES,
    RenamedFileWarning,
    atomic_directory,
    atomic_write,
    check_not_input,
    document_id,
    file_name,
    file_names,
    inside,
    protected_inputs,
    staged_file,
    write_text,
)
from accord.errors import FormatError, OutputError

HOSTILE = ["../x", "/abs/x", "a/b", "a\\b", "..", ".", "CON", "con.txt", "Nul", "COM1.json", "LPT9", "x" * 300,
           "a\0b", "tab\there", "line\nbreak", "C:x", "trailing.", "trailing ", ".hidden", "%41", "%~1", "é" * 150]


@pytest.mark.parametrize("doc_id", HOSTILE)
def test_a_hostile_id_becomes_one_plain_name_that_gives_the_id_back(doc_id):
    name = file_name(doc_id, ".ann")
    stem = name[:-4]
    assert "/" not in name and "\\" not in name and "\0" not in name
    assert not any(ord(c) < 32 or ord(c) == 127 for c in name)
    assert stem not in (".", "..") and not stem.startswith(".") and not stem.endswith((".", " "))
    assert stem.split(".")[0].upper() not in {"CON", "PRN", "AUX", "NUL", "COM1", "LPT9"}
    assert not (len(stem) > 1 and stem[1] == ":")
    assert len(stem.encode("utf-8")) <= MAX_NAME_BYTES
    if len(doc_id.encode()) * 3 <= MAX_NAME_BYTES:    # short enough not to be cut, even fully escaped
        assert document_id(name, ".ann") == doc_id
    else:
        assert "%~" in name and document_id(name, ".ann") is None


def test_ordinary_ids_are_their_own_names():
    for doc_id in ("doc1", "100%", "a b", "Ünïcode-ид", "x.y"):
        assert file_name(doc_id, ".json") == doc_id + ".json"


def test_what_windows_forbids_and_invisible_characters_are_escaped():
    """':' opens an NTFS stream ('ab:c' wrote the stream c of file ab), '<>|?*"' are refused by Windows, and a
    right-to-left override or a zero-width space would make a name show as another (found by a review)."""
    assert file_name("file:doc", ".json") == "file%3Adoc.json"
    assert file_name('a<b>|?*"', "") == "a%3Cb%3E%7C%3F%2A%22"
    assert file_name("invoice\u202egpj.exe", "") == "invoice%E2%80%AEgpj.exe"
    assert file_name("a\u200bb", "") == "a%E2%80%8Bb"
    for doc_id in ("file:doc", 'a<b>|?*"', "invoice\u202egpj.exe"):
        assert document_id(file_name(doc_id, ".ann"), ".ann") == doc_id


def test_hand_written_escapes():
    assert file_name("../evil", ".json") == "%2E.%2Fevil.json"
    assert file_name("CON") == "%43ON"
    assert file_name("/abs/x") == "%2Fabs%2Fx"
    assert file_name("C:x") == "C%3Ax"
    assert file_name("%41") == "%2541"


def test_cut_names_differ_by_their_hash():
    a, b = "x" * 300 + "a", "x" * 300 + "b"
    assert file_name(a) != file_name(b) and len(file_name(a).encode()) == MAX_NAME_BYTES


def test_the_empty_id_is_an_error():
    with pytest.raises(OutputError, match="cannot name a file"):
        file_name("")


def test_two_ids_sharing_a_file_are_an_error_naming_both():
    with pytest.raises(OutputError, match="'Doc' and 'doc'"):
        file_names(["Doc", "doc"], ".ann", warn=False)
    with pytest.raises(OutputError, match="one file"):   # é composed and decomposed: one file on macOS
        file_names(["caf\u00e9", "cafe\u0301"], warn=False)


def test_a_renamed_document_is_a_warning():
    with pytest.warns(RenamedFileWarning, match=r"1 document\(s\) written under another name.*'\.\./x' as '%2E\.%2Fx\.ann'"):
        assert file_names(["../x", "ok"], ".ann") == {"../x": "%2E.%2Fx.ann", "ok": "ok.ann"}


def test_inside_refuses_paths_and_symbolic_links_out(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    assert inside(out, "a.ann") == out / "a.ann"
    for bad in ("../a", "a/b", "..", ".", ""):
        with pytest.raises(OutputError):
            inside(out, bad)
    (out / "link.ann").symlink_to(tmp_path / "elsewhere.ann")
    with pytest.raises(OutputError, match="outside"):
        inside(out, "link.ann")


def test_atomic_write_leaves_the_old_file_on_an_exception_or_an_interrupt(tmp_path):
    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")
    for exc in (RuntimeError("boom"), KeyboardInterrupt()):
        with pytest.raises(type(exc)):
            with atomic_write(target) as fh:
                fh.write("half")
                raise exc
        assert target.read_text(encoding="utf-8") == "old"
        assert os.listdir(tmp_path) == ["out.json"]      # no temporary file left
    write_text(target, "new")
    assert target.read_text(encoding="utf-8") == "new"


def test_atomic_write_dash_is_standard_output(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_text("-", "to stdout\n")
    assert capsys.readouterr().out == "to stdout\n" and not (tmp_path / "-").exists()


def test_atomic_directory_leaves_the_old_folder_or_none(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        with atomic_directory(out) as d:
            (d / "1.txt").write_text("1")
            raise RuntimeError
    assert sorted(os.listdir(tmp_path)) == []             # none
    with atomic_directory(out) as d:
        (d / "1.txt").write_text("1")
    (out / "mine.txt").write_text("the user's")
    with pytest.raises(KeyboardInterrupt):
        with atomic_directory(out) as d:
            (d / "1.txt").write_text("2")
            raise KeyboardInterrupt
    assert {p.name: p.read_text() for p in out.iterdir()} == {"1.txt": "1", "mine.txt": "the user's"}
    with atomic_directory(out) as d:
        (d / "1.txt").write_text("3")
        (d / "2.txt").write_text("3")
    # the new files replace their namesakes; the user's file stays; nothing else beside the folder
    assert {p.name: p.read_text() for p in out.iterdir()} == {"1.txt": "3", "2.txt": "3", "mine.txt": "the user's"}
    assert os.listdir(tmp_path) == ["out"]


def test_an_interrupt_during_the_move_waits_for_the_move(tmp_path, monkeypatch):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.txt").write_text("old")
    real_replace = os.replace

    def replace(a, b):       # Ctrl-C between the renames of the files into the folder
        real_replace(a, b)
        os.kill(os.getpid(), signal.SIGINT)
    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        with atomic_directory(out) as d:
            (d / "new.txt").write_text("new")
            (d / "two.txt").write_text("two")
    monkeypatch.setattr(os, "replace", real_replace)
    assert sorted(p.name for p in out.iterdir()) == ["new.txt", "old.txt", "two.txt"]     # the move completed
    assert os.listdir(tmp_path) == ["out"]


def test_an_existing_folder_is_never_moved_and_keeps_its_mode(tmp_path):
    """Writing into an existing folder: the same folder (inode, mode), the user's files in place, namesakes
    replaced (a review found the folder swapped for a new one of mode 755 and the user's files moved)."""
    out = tmp_path / "out"
    out.mkdir()
    os.chmod(out, 0o700)
    (out / "mine.txt").write_text("mine")
    (out / "a.txt").write_text("old a")
    before = os.stat(out)
    with atomic_directory(out) as d:
        (d / "a.txt").write_text("new a")
        (d / "b.txt").write_text("new b")
    after = os.stat(out)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert {p.name: p.read_text() for p in out.iterdir()} == {"mine.txt": "mine", "a.txt": "new a", "b.txt": "new b"}
    assert os.listdir(tmp_path) == ["out"]


def test_a_folder_named_like_an_output_file_is_never_deleted(tmp_path):
    out = tmp_path / "out"
    (out / "d1.txt").mkdir(parents=True)
    (out / "d1.txt" / "thesis.tex").write_text("years of work")
    with pytest.raises(OutputError, match="is a folder"):
        with atomic_directory(out) as d:
            (d / "d1.txt").write_text("new")
    assert (out / "d1.txt" / "thesis.tex").read_text() == "years of work"
    assert sorted(p.name for p in out.iterdir()) == ["d1.txt"]


def test_inputs_are_never_overwritten(tmp_path):
    src = tmp_path / "in.json"
    src.write_text("input")
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a.ann").write_text("input")
    with protected_inputs([str(src), str(folder)]):
        with pytest.raises(OutputError, match="input"):
            write_text(src, "x")
        with pytest.raises(OutputError, match="input"):
            check_not_input(folder / "a.ann")
        check_not_input(folder / "new.ann")          # a new file beside the inputs is fine
        with pytest.raises(OutputError, match="input"):
            with atomic_directory(folder) as d:
                (d / "a.ann").write_text("output")
    assert src.read_text() == "input" and (folder / "a.ann").read_text() == "input"
    write_text(src, "x")      # outside the block: no longer an input


def test_staged_file_names_the_output_in_errors(tmp_path):
    target = tmp_path / "out.xml"
    with pytest.raises(FormatError) as info:
        with staged_file(target) as p:
            raise FormatError("bad", path=p)
    assert str(info.value).startswith(f"{target}: bad") and not target.exists()
    assert os.listdir(tmp_path) == []


def test_no_warning_for_ordinary_names():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        file_names(["a", "b"], ".ann")


def test_a_replaced_file_keeps_its_permissions(tmp_path):
    """A private output file (mode 600) stays private when accord writes it again (it became 644: a review)."""
    out = tmp_path / "scores.json"
    out.write_text("old")
    os.chmod(out, 0o600)
    with atomic_write(out) as fh:
        fh.write("new")
    assert out.read_text() == "new" and (os.stat(out).st_mode & 0o777) == 0o600
    fresh = tmp_path / "fresh.json"
    with atomic_write(fresh) as fh:
        fh.write("x")
    mask = os.umask(0)
    os.umask(mask)
    assert (os.stat(fresh).st_mode & 0o777) == 0o666 & ~mask


# --- devices and named pipes are written to, never replaced ------------------------------------------------------


def _read_fifo(path, out):
    with open(path, "rb") as fh:
        out.append(fh.read())


@pytest.mark.parametrize("writer", ["atomic_write", "staged_file"])
def test_a_named_pipe_is_written_to_and_stays_a_pipe(tmp_path, writer):
    import os
    import stat
    import threading

    from accord._support import safe_paths

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=_read_fifo, args=(fifo, got))
    reader.start()
    if writer == "atomic_write":
        with safe_paths.atomic_write(fifo) as fh:
            fh.write("through the pipe\n")
    else:
        with safe_paths.staged_file(fifo) as tmp:
            tmp.write_text("through the pipe\n", encoding="utf-8")
    reader.join(timeout=10)
    assert got == [b"through the pipe\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)       # before: renamed over by a regular file
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]     # no temporary file left


def test_json_to_dev_null_leaves_the_device(capsys):
    """``accord score ... -o /dev/null`` (a user silencing the output): /dev/null stays the character device (an
    earlier accord renamed a regular file onto it, and every later ``> /dev/null`` on the machine wrote to a file)."""
    import os
    import stat

    from accord.cli import main

    if not stat.S_ISCHR(os.stat("/dev/null").st_mode):
        pytest.skip("/dev/null is not a character device on this machine")
    data = Path(__file__).resolve().parents[1] / "data" / "conll03"
    assert main(["score", str(data / "gold.conll"), str(data / "xlm_flert.conll"), "--output", "json",
                 "-o", "/dev/null", "-q"]) == 0
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
