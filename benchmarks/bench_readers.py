"""Reading at its floor: accord's brat and XMI readers against a plain Python reader and dkpro-cassis alone.

Run:  python benchmarks/bench_readers.py [--documents 4110] [--annotations 100000] [--repeat 5]
      [--accord-src CHECKOUT/src] [--keep DIR]

A generated corpus (seeded): ``--documents`` brat documents holding ``--annotations`` contiguous ``T`` lines in
all, each quoting its text, written as ``.ann`` and ``.txt`` files, then converted to UIMA XMI by ``accord convert``
(one ``.xmi`` file per document and ``TypeSystem.xml``). Each reading runs in a fresh interpreter, timed in CPU
seconds (what other work on a shared machine inflates least) around the reading alone, after the imports:

- accord: ``accord.formats.read(folder, "brat")`` and ``read(folder, "xmi")`` (the Corpus, nothing more; XMI through
  accord's own parser, ``accord.formats.text._xmi_parser``, which hands cassis nothing of these files);
- the floor of brat: a plain Python reader that splits each ``.ann`` line into id, type, offsets and quote, checks
  the quote against the text and keeps ``(start, end, type)``;
- the floor of XMI: dkpro-cassis alone, the type system loaded once, ``load_cas_from_xmi`` and ``select`` of the
  named entities of each file.

Before any time is printed, the three readings are checked equal: every document's ``(start, end, label)`` spans.
The runs alternate and the figures are medians; ``--accord-src`` adds accord from another checkout (the code before a
change, by ``PYTHONPATH``) to the same rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _process import compile_accord  # (benchmarks/ is on sys.path when run as a script)
from _versions import print_versions

__all__ = ["generate_brat", "plain_brat", "cassis_alone", "accord_spans"]

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
_WORDS = ("alpha", "beta", "Gamma", "delta", "ep", "Zeta", "eta", "theta", "iota", "kappa", "lambda", "mu")
_LABELS = ("PER", "ORG", "LOC", "MISC")


def generate_brat(folder: Path, documents: int, annotations: int, seed: int = 43) -> None:
    """``documents`` brat documents in ``folder`` with ``annotations`` T lines in all (one or two words each)."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(documents):
        n = annotations // documents + (1 if i < annotations % documents else 0)
        words = [rng.choice(_WORDS) for _ in range(4 * n + 5)]
        starts, pos = [], 0
        for w in words:
            starts.append(pos)
            pos += len(w) + 1
        text = " ".join(words) + "\n"
        lines = []
        for k in range(n):
            a = 4 * k + rng.randrange(3)
            b = a + rng.randrange(1, 3)
            s, e = starts[a], starts[b - 1] + len(words[b - 1])
            lines.append(f"T{k + 1}\t{rng.choice(_LABELS)} {s} {e}\t{text[s:e]}")
        (folder / f"doc{i:05d}.txt").write_text(text, encoding="utf-8")
        (folder / f"doc{i:05d}.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")


def plain_brat(folder: Path) -> dict[str, list[tuple[int, int, str]]]:
    """The floor: each document's ``(start, end, type)`` from its T lines, the quote checked against the text."""
    out = {}
    for ann in sorted(Path(folder).glob("*.ann")):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        spans = []
        for line in ann.read_text(encoding="utf-8").splitlines():
            _, body, quote = line.split("\t")
            label, s, e = body.split()
            start, end = int(s), int(e)
            if text[start:end] != quote:
                raise SystemExit(f"{ann}: quote {quote!r} is not the text")
            spans.append((start, end, label))
        out[ann.stem] = spans
    return out


def cassis_alone(folder: Path) -> dict[str, list[tuple[int, int, str]]]:
    """The floor of XMI: dkpro-cassis loading each file and selecting its named entities."""
    import cassis

    with open(Path(folder) / "TypeSystem.xml", "rb") as fh:
        ts = cassis.load_typesystem(fh)
    out = {}
    for f in sorted(Path(folder).glob("*.xmi")):
        with open(f, "rb") as fh:
            cas = cassis.load_cas_from_xmi(fh, typesystem=ts)
        out[f.stem] = [(a.begin, a.end, a.value) for a in cas.select(NAMED_ENTITY)]
    return out


def accord_spans(folder: Path, fmt: str) -> dict[str, list[tuple[int, int, str]]]:
    """accord's reading of ``folder`` as ``(start, end, label)`` by document."""
    from accord.formats import read

    corpus = read(folder, fmt)
    return {doc.id: [(a.start, a.end, a.label) for a in doc.annotations] for doc in corpus.documents}


_RUN = r"""
import json, sys, time
sys.path.insert(0, {bench!r})
import bench_readers as b
which, folder = sys.argv[1], sys.argv[2]
if which == "plain":
    fn = lambda: b.plain_brat(folder)
elif which == "cassis":
    import cassis
    fn = lambda: b.cassis_alone(folder)
else:
    import accord.formats
    from accord.formats import _registry
    _registry._load()
    if which == "xmi":
        import cassis
    fn = lambda: accord.formats.read(folder, which)   # the reading alone (the spans are taken after the clock)
t = time.process_time()
got = fn()
cpu = time.process_time() - t
spans = got if isinstance(got, dict) else {{d.id: d.annotations for d in got.documents}}
print(json.dumps({{"cpu": cpu, "documents": len(spans), "annotations": sum(len(v) for v in spans.values())}}))
"""


def run(which: str, folder: Path, src: str | None = None) -> dict:
    """One reading in a fresh interpreter: its CPU time (imports excluded) and what it read."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    code = _RUN.format(bench=str(Path(__file__).parent))
    out = subprocess.run([sys.executable, "-c", code, which, str(folder)], check=True, capture_output=True,
                         text=True, env=env).stdout
    return json.loads(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--documents", type=int, default=4110)
    ap.add_argument("--annotations", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--accord-src", help="also time accord from this checkout's src (PYTHONPATH)")
    ap.add_argument("--keep", type=Path, help="build the corpora in this folder (reused if present)")
    args = ap.parse_args()
    print_versions("dkpro-cassis")
    compile_accord()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.keep or Path(tmp)
        brat, xmi = root / "brat", root / "xmi"
        if not brat.is_dir():
            generate_brat(brat, args.documents, args.annotations)
        if not xmi.is_dir():
            subprocess.run([sys.executable, "-m", "accord", "convert", str(brat), str(xmi), "--to", "xmi", "-q"],
                           check=True)
        ours_brat, ours_xmi = accord_spans(brat, "brat"), accord_spans(xmi, "xmi")
        if not (ours_brat == plain_brat(brat) == ours_xmi == cassis_alone(xmi)):
            raise SystemExit("the readings differ: no time printed")
        print(f"checked: {len(ours_brat):,} documents, {sum(map(len, ours_brat.values())):,} annotations read "
              "equal by accord (brat, XMI), the plain reader and cassis")
        rows = {"brat": ["brat", "plain"], "xmi": ["xmi", "cassis"]}
        for name, (ours, floor) in rows.items():
            sides = {"accord": (ours, None), "floor": (floor, None)}
            if args.accord_src:
                sides["accord before"] = (ours, args.accord_src)
            folder = brat if name == "brat" else xmi
            times: dict[str, list[float]] = {k: [] for k in sides}
            for _ in range(args.repeat):
                for k, (which, src) in sides.items():
                    times[k].append(run(which, folder, src)["cpu"])
            med = {k: statistics.median(v) for k, v in times.items()}
            floor_name = "plain Python reader" if name == "brat" else "dkpro-cassis alone"
            line = (f"{name}: accord {med['accord']:.3f} s CPU, {floor_name} {med['floor']:.3f} s: "
                    f"{med['accord'] / med['floor']:.2f}x the floor")
            if "accord before" in med:
                line += f"; accord before {med['accord before']:.3f} s ({med['accord before'] / med['floor']:.2f}x)"
            print(line + f" (medians of {args.repeat})")


if __name__ == "__main__":
    main()
