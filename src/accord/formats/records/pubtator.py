"""PubTator files with relations (BioRED, Luo et al., 2022) for ``accord structured --preset biored``.

Documents are separated by blank lines; each has its title and abstract lines (``PMID|t|text``, ``PMID|a|text``),
its entity lines (``PMID<TAB>start<TAB>end<TAB>text<TAB>type<TAB>ids``, the ids comma-separated for a composite
mention) and its relation lines (``PMID<TAB>type<TAB>id1<TAB>id2[<TAB>novelty]``). A relation's ids must be ids of
the document's entity lines above it (one id each: a composite mention's ids are listed one by one); its entity
types are those lines' (the last line naming an id gives its type). A malformed line is a
:class:`~accord.errors.FormatError` naming the file and the line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..._support.io import read_text
from ...errors import FormatError, quoted

__all__ = ["PubtatorRelation", "PubtatorDocument", "read_pubtator"]


@dataclass(frozen=True)
class PubtatorRelation:
    """A relation line: its type, ids, novelty (``None`` on a 4-column line), the two ids' entity types, and its
    line number."""

    type: str
    id1: str
    id2: str
    novelty: str | None
    type1: str
    type2: str
    line: int


@dataclass
class PubtatorDocument:
    """A document's PMID and relation lines, in file order."""

    pmid: str
    relations: list[PubtatorRelation] = field(default_factory=list)


def read_pubtator(path: str | Path) -> dict[str, PubtatorDocument]:
    """The documents of a PubTator file by PMID, in file order. A PMID twice is an error."""
    p = Path(path)
    docs: dict[str, PubtatorDocument] = {}
    current: PubtatorDocument | None = None
    types: dict[str, str] = {}
    for lineno, raw in enumerate(read_text(p).split("\n"), 1):
        line = raw.rstrip("\r")
        if not line.strip():
            current, types = None, {}
            continue
        head = line.split("|", 2)
        if len(head) == 3 and head[1] in ("t", "a") and "\t" not in head[0]:
            pmid = head[0]
            if current is None:
                if pmid in docs:
                    raise FormatError(f"document {pmid!r} appears twice", path=p, line=lineno)
                current = docs[pmid] = PubtatorDocument(pmid)
            elif current.pmid != pmid:
                raise FormatError(f"a title or abstract of {pmid!r} inside document {current.pmid!r} (documents are "
                                  "separated by a blank line)", path=p, line=lineno)
            continue
        cols = line.split("\t")
        if current is None:
            raise FormatError(f"an entity or relation line before any title line ('PMID|t|...'): {quoted(line)}",
                              path=p, line=lineno)
        if cols[0] != current.pmid:
            raise FormatError(f"a line of {cols[0]!r} inside document {current.pmid!r}", path=p, line=lineno)
        if len(cols) in (4, 5):
            _, rtype, id1, id2 = cols[:4]
            missing = [i for i in (id1, id2) if i not in types]
            if missing:
                raise FormatError(f"relation id {missing[0]!r} is not an id of the document's entity lines above "
                                  "(a composite mention's ids count one by one; BioRED's official script stops on "
                                  "such a line)", path=p, line=lineno)
            current.relations.append(PubtatorRelation(rtype, id1, id2, cols[4] if len(cols) == 5 else None,
                                                      types[id1], types[id2], lineno))
        elif len(cols) >= 6:
            for one in cols[5].split(","):
                types[one] = cols[4]
        else:
            raise FormatError(f"expected an entity line (6 tab-separated columns) or a relation line (4 or 5), got "
                              f"{len(cols)} columns", path=p, line=lineno)
    return docs
