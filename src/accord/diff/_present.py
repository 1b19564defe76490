"""GATE's Corpus QA lists (user guide 10.3): the annotation sets present in every document, the annotation types
present in every selected set and the features present in every selected type, as its "present in every ..."
check boxes reduce them.

Here the documents are each side's (a set of GATE XML files: the sets every file holds), the selected sets the key
and the response (the types both have), the selected types those compared (the features that annotations of every
one of them carry, on either side).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

__all__ = ["present_in_every", "gate_set_names", "present_table", "merge_present"]


def gate_set_names(path: Any, format: str | None = None) -> list[str] | None:
    """The annotation sets every GATE XML document of ``path`` (a file, a folder, a list or a pattern) holds, sorted
    (``""`` the default set); None when ``path`` is not GATE XML (other formats have no sets)."""
    from defusedxml.ElementTree import iterparse

    from ..errors import FormatError
    from ..formats._registry import folder_files, get, input_files, sniff

    if not isinstance(path, (str, os.PathLike)):
        return None
    p = Path(path)
    files = input_files(path)
    if files is None:
        if p.is_dir():
            files = folder_files(p, get("gate"))
        elif p.is_file():
            files = [p]
        else:
            return None
    if not files or (get(format) if format else sniff(files[0])).name != "gate":
        return None
    common: set[str] | None = None
    for f in files:
        names = set()
        try:
            for _, elem in iterparse(str(f), events=("start",)):
                if elem.tag.rpartition("}")[2] == "AnnotationSet":
                    names.add(elem.get("Name", ""))
        except Exception as exc:   # the reader itself has refused a bad file already: named here all the same
            raise FormatError(f"cannot list the annotation sets ({type(exc).__name__})", path=f) from None
        common = names if common is None else common & names
    return sorted(common or ())


def _types(corpus: Any) -> set[str]:
    return {a.label for d in corpus.values() for a in d.annotations if a.start is not None}


def _features(corpora: Iterable[Any], types: Sequence[str]) -> dict[str, list[str]]:
    found: dict[str, set[str]] = {t: set() for t in types}
    for corpus in corpora:
        for d in corpus.values():
            for a in d.annotations:
                if a.label in found:
                    found[a.label].update(a.attributes)
    return {t: sorted(found[t]) for t in types}


def present_in_every(key: Any, response: Any, types: Sequence[str], *, key_path: Any = None,
                     response_path: Any = None, format: str | None = None, key_set: str | None = None,
                     response_set: str | None = None) -> dict[str, Any]:
    """GATE's three "present in every" lists of a Corpus QA run.

    Returns
    -------
    dict
        ``document``: per side, the annotation sets every document holds (None for a side that is not GATE XML
        files) and the set read; ``set``: the annotation types both the key and the response hold, and each
        side's own; ``type``: the features present in every compared type, and each type's features.
    """
    per_type = _features((key, response), types)
    every = set.intersection(*(set(v) for v in per_type.values())) if per_type else set()
    return {
        "document": {"key": gate_set_names(key_path, format), "response": gate_set_names(response_path, format),
                     "key_set": key_set or "", "response_set": response_set or ""},
        "set": {"both": sorted(_types(key) & _types(response)), "key": sorted(_types(key)),
                "response": sorted(_types(response))},
        "type": {"every": sorted(every), "by_type": per_type},
    }


def merge_present(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The lists of two runs over disjoint documents: sets in every document of both, types of either side
    summed, features of each type summed."""
    def common(x: list[str] | None, y: list[str] | None) -> list[str] | None:
        return None if x is None or y is None else sorted(set(x) & set(y))

    doc = {**a["document"], "key": common(a["document"]["key"], b["document"]["key"]),
           "response": common(a["document"]["response"], b["document"]["response"])}
    key = sorted(set(a["set"]["key"]) | set(b["set"]["key"]))
    response = sorted(set(a["set"]["response"]) | set(b["set"]["response"]))
    by_type = {t: sorted(set(a["type"]["by_type"].get(t, ())) | set(b["type"]["by_type"].get(t, ())))
               for t in dict.fromkeys([*a["type"]["by_type"], *b["type"]["by_type"]])}
    every = set.intersection(*(set(v) for v in by_type.values())) if by_type else set()
    return {"document": doc, "set": {"both": sorted(set(key) & set(response)), "key": key, "response": response},
            "type": {"every": sorted(every), "by_type": by_type}}


def _names(names: Sequence[str] | None) -> str:
    if names is None:
        return "(not GATE XML: no annotation sets)"
    return ", ".join(n or "(default)" for n in names) or "(none)"


def present_table(present: dict[str, Any]) -> Any:
    """The lists as a two-column table for the terminal (the sets of a side only when it is GATE XML files)."""
    from ..result import ResultTable

    doc, sets, types = present["document"], present["set"], present["type"]
    rows = [(f"annotation sets in every {side} document", _names(doc[side])) for side in ("key", "response")
            if doc[side] is not None]     # (a side that is not GATE XML has no sets: no row)
    rows += [("types in both the key and the response set", _names(sets["both"])),
            ("features in every compared type", _names(types["every"]))]
    rows += [(f"features of {t}", _names(f)) for t, f in types["by_type"].items()]
    return ResultTable("present in every", ("Present in every", "Names"), rows,
                       caption="present in every document, set and type", first=2)
