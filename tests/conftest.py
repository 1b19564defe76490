from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


def read_conll_sentences(path: Path) -> list[list[str]]:
    """Tag sequences per sentence, with documents split as seqeval users do (DOCSTART dropped)."""
    sents, cur = [], []
    for line in path.read_text(encoding="utf-8").splitlines():
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            if cur:
                sents.append(cur)
                cur = []
            continue
        cur.append(cols[-1])
    if cur:
        sents.append(cur)
    return sents
