"""Generated CoNLL corpora for the scale-out tests: documents of noisy predictions, with the irregularities the
shards must carry over (repairs, E- tags, comments, empty documents, a document before the first -DOCSTART-)."""

from __future__ import annotations

import random
from pathlib import Path

TYPES = ("PER", "LOC", "ORG")


def noisy_pair(rng: random.Random, documents: int, *, prefix: bool = False, empty_every: int = 0,
               comments: bool = False, columns: int = 3) -> tuple[str, str]:
    """The text of a gold and a predicted column file with ``documents`` -DOCSTART- documents."""
    gold: list[str] = []
    pred: list[str] = []
    filler = " X" * (columns - 2)

    def sentence() -> None:
        for t in range(rng.randint(1, 9)):
            r = rng.random()
            tag = "O" if r < 0.55 else rng.choice(("B-", "I-")) + rng.choice(TYPES)
            p = tag if rng.random() < 0.8 else rng.choice(("O", "B-PER", "I-LOC", "E-ORG", "S-PER"))
            gold.append(f"w{t}{filler} {tag}\n")
            pred.append(f"w{t}{filler} {p}\n")
        gold.append("\n")
        pred.append("\n")

    if prefix:
        sentence()
    for d in range(documents):
        gold.append(f"-DOCSTART-{filler} O\n\n")
        pred.append(f"-DOCSTART-{filler} O\n\n")
        if empty_every and d % empty_every == empty_every - 1:
            continue
        if comments and rng.random() < 0.3:
            gold.append(f"# doc {d}\n")
            pred.append(f"# doc {d}\n")
        for _ in range(rng.randint(1, 4)):
            sentence()
    return "".join(gold), "".join(pred)


def write_pair(folder: Path, seed: int = 0, documents: int = 30, **options: object) -> tuple[str, str]:
    """A gold and a predicted file in ``folder``: their paths."""
    g, p = noisy_pair(random.Random(seed), documents, **options)  # type: ignore[arg-type]
    (folder / "gold.conll").write_text(g, encoding="utf-8")
    (folder / "pred.conll").write_text(p, encoding="utf-8")
    return str(folder / "gold.conll"), str(folder / "pred.conll")
