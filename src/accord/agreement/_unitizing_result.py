"""``accord agree --unitizing``: γ or Krippendorff's unitizing alphas as a result of the one JSON contract."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .._support.csv_cells import SpreadsheetWriter
from .._support.safe_paths import write_text
from ..errors import MergeError, OptionError
from ..result._result import SCHEMA_VERSION, merge_inputs
from ._alignment import Alignment
from ._continua import Continua
from ._gamma import GammaTables
from ._unitizing_alpha import UnitizingAlphaTables

__all__ = ["UnitizingResult", "UNITIZING_MODES"]

UNITIZING_MODES = ("gamma", "alpha-u")


class UnitizingResult:
    """Agreement on units whose boundaries may differ: γ (``mode`` ``gamma``) or Krippendorff's uα
    (``alpha-u``), over the whole input (``totals``) and each document.

    The statistics behind the values are additive per document (:class:`GammaTables`,
    :class:`UnitizingAlphaTables`): results over disjoint documents merge by addition. γ also
    keeps its optimal alignment (``alignment``): which unit of which annotator went with which.
    """

    command = "agree"

    def __init__(self, mode: str, units: Continua, *, gamma: GammaTables | None = None,
                 alignment: Alignment | None = None, alpha: Mapping[str, UnitizingAlphaTables] | None = None,
                 options: Mapping[str, Any] | None = None, inputs: Mapping[str, Any] | None = None):
        if mode not in UNITIZING_MODES:
            raise OptionError(f"unknown unitizing measure {mode!r}; expected one of {', '.join(UNITIZING_MODES)}")
        self.mode = mode
        self.units = units
        self.gamma = gamma
        self.alignment = alignment
        self.alpha = dict(alpha or {})
        self.options = dict(options or {})
        self.inputs = dict(inputs or {})
        self.ci = None
        self.warnings: list[str] = []
        self.source: Any = None
        """The span agreement (:class:`~accord.agreement._spans.SpanAgreement`) when computed (the page's matrix)."""
        self.disputes: dict[str, Any] | None = None
        """The disputed stretches (:func:`accord.agreement._disputes.disputes_view`) when computed."""
        if len(units) == 0:
            self.warnings.append("no annotator marked any unit: there is nothing to agree on")
        for tables in self.alpha.values():
            if tables.not_2016 and tables.not_2016 not in self.warnings:
                self.warnings.append(tables.not_2016)

    @property
    def documents(self) -> tuple[str, ...]:
        return self.units.documents

    def _alpha_total(self) -> UnitizingAlphaTables | None:
        total = None
        for t in self.alpha.values():
            total = t if total is None else total + t
        return total

    @property
    def totals(self) -> dict[str, Any]:
        base = {"annotators": list(self.units.annotators), "categories": list(self.units.categories),
                "units_per_annotator": {a: int((self.units.annotator == i).sum())
                                        for i, a in enumerate(self.units.annotators)}}
        if self.mode == "gamma":
            assert self.gamma is not None
            return {**base, **self.gamma.values()}
        total = self._alpha_total()
        return {**base, **(total.values() if total is not None else {})}

    @property
    def by_document(self) -> dict[str, Any]:
        if len(self.documents) < 2:
            return {}
        if self.mode == "gamma":
            assert self.gamma is not None
            return {d: self.gamma.values(slice(i, i + 1)) for i, d in enumerate(self.documents)}
        return {d: t.values() for d, t in self.alpha.items()}

    @property
    def by_label(self) -> dict[str, Any]:
        totals = self.totals
        if self.mode == "gamma":
            return {c: {"gamma_k": v} for c, v in totals.get("gamma_k", {}).items()}
        per = totals.get("u_alpha_1995", {}).get("by_category", {})
        cu = totals.get("cu_alpha_by_category", {})
        return {c: {"u_alpha_1995": per.get(c), "cu_alpha": cu.get(c)} for c in self.units.categories}

    def alignment_rows(self) -> list[dict[str, Any]]:
        """The optimal alignment: one entry per unitary alignment, each annotator's unit or None."""
        if self.alignment is None:
            return []
        u = self.units
        out = []
        for row, disorder, doc in zip(self.alignment.units, self.alignment.disorder, self.alignment.document):
            members: dict[str, Any] = {}
            for a, unit in enumerate(row):
                if unit < 0:
                    members[u.annotators[a]] = None
                    continue
                members[u.annotators[a]] = {"start": _number(u.start[unit]), "end": _number(u.end[unit]),
                                            "category": u.categories[u.category[unit]],
                                            "id": u.ident[unit] if u.ident else None}
            out.append({"document": u.documents[doc], "disorder": float(disorder), "units": members})
        return out

    def to_dict(self) -> dict[str, Any]:
        from .._support.surface import generator

        out: dict[str, Any] = {"schema_version": SCHEMA_VERSION, "generator": generator(), "command": self.command,
                               "mode": self.mode,
                               "options": self.options, "inputs": self.inputs, "totals": self.totals,
                               "by_label": self.by_label, "by_document": self.by_document}
        if self.mode == "gamma":
            out["alignment"] = self.alignment_rows()
        return out

    def to_json(self, indent: int | None = 2) -> str:
        from ..result._json_text import json_text

        return json_text(self.to_dict(), indent=indent)

    def to_csv(self) -> str:
        """Rows ``scope, coefficient, category, value``: the whole input as ``<all>``, then each document."""
        buf = io.StringIO()
        w = SpreadsheetWriter(buf, lineterminator="\n")   # no formula from data
        w.writerow(["scope", "coefficient", "category", "value"])
        for scope, values in [("<all>", self.totals)] + list(self.by_document.items()):
            for name, category, value in _coefficients(self.mode, values):
                w.writerow([scope, name, category, "" if value is None else value])
        return buf.getvalue()

    def write_details(self, path: str | Path) -> None:
        """γ's alignment, one row per unitary alignment and annotator (CSV), or one JSON object per unitary
        alignment (``.jsonl``)."""
        if self.mode != "gamma":
            raise OptionError("--details lists γ's alignment: it applies with --unitizing gamma")
        rows = self.alignment_rows()
        p = Path(path)
        if p.suffix.lower() == ".jsonl":
            write_text(p, "".join(json.dumps({"alignment": i + 1, **r}, ensure_ascii=False) + "\n"
                                  for i, r in enumerate(rows)))
            return
        buf = io.StringIO()
        w = SpreadsheetWriter(buf, lineterminator="\n")   # no formula from data
        w.writerow(["document", "alignment", "disorder", "annotator", "start", "end", "category", "id"])
        for i, r in enumerate(rows, 1):
            for annotator, unit in r["units"].items():
                unit = unit or {}
                w.writerow([r["document"], i, f"{r['disorder']:.6g}", annotator, unit.get("start", ""),
                            unit.get("end", ""), unit.get("category", ""),
                            "" if unit.get("id") is None else unit.get("id")])
        write_text(p, buf.getvalue())     # whole or not at all; '-' is standard output

    def merge(self, other: UnitizingResult) -> UnitizingResult:
        """Agreement over both results' documents (disjoint; same annotators, measure and options)."""
        if (self.mode, self.options) != (other.mode, other.options):
            raise MergeError("cannot merge unitizing results of different measures or options")
        if self.units.annotators != other.units.annotators:
            raise MergeError("cannot merge unitizing results of different annotators")
        both = set(self.documents) & set(other.documents)
        if both:
            raise MergeError(f"cannot merge results that both hold document {sorted(both)[0]!r}")
        units = _concat_units(self.units, other.units)
        alignment = None
        if self.alignment is not None and other.alignment is not None:
            import numpy as np

            shift = len(self.units)
            moved = np.where(other.alignment.units >= 0, other.alignment.units + shift, -1)
            alignment = Alignment(np.vstack([self.alignment.units, moved]),
                                  np.concatenate([self.alignment.disorder, other.alignment.disorder]),
                                  np.concatenate([self.alignment.document,
                                                  other.alignment.document + len(self.documents)]))
        gamma = None if self.gamma is None or other.gamma is None else self.gamma + other.gamma
        return UnitizingResult(self.mode, units, gamma=gamma, alignment=alignment,
                               alpha={**self.alpha, **other.alpha} if self.alpha else None, options=self.options,
                               inputs=merge_inputs(self.inputs, other.inputs))

    def __add__(self, other: UnitizingResult) -> UnitizingResult:
        return self.merge(other)

    def bootstrap(self, *args: Any, **kwargs: Any) -> UnitizingResult:
        raise OptionError("--bootstrap does not apply to --unitizing: γ's expected disorder is itself sampled "
                          "(--samples, --precision), and uα has no resampling unit defined")

    def display(self) -> Any:
        """What ``print(result)`` and a notebook show: γ (or uα) and its parts, overall and by category."""
        from ..result._display import Display, Table, figure

        table = Table("coefficients", ["coefficient", "category", "value"],
                      [[name, str(category), figure(value)] for name, category, value in
                       _coefficients(self.mode, self.totals)])
        n = len(self.documents)
        return Display(f"accord agree ({self.mode}): {n} document{'s' if n != 1 else ''}",
                       [f"annotators: {', '.join(self.units.annotators)}"], [table])

    def __str__(self) -> str:
        from ..result._display import as_text

        return as_text(self.display())

    def _repr_html_(self) -> str:
        from ..result._display import as_html

        return as_html(self.display())

    def __repr__(self) -> str:
        t = self.totals
        value = t.get("gamma") if self.mode == "gamma" else t.get("u_alpha_1995", {}).get("overall")
        name = "gamma" if self.mode == "gamma" else "u_alpha"
        return (f"<UnitizingResult {self.mode} {len(self.documents)} documents, annotators "
                f"{', '.join(self.units.annotators)}: {name}={'—' if value is None else f'{value:.4f}'}>")


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


def _coefficients(mode: str, values: Mapping[str, Any]) -> list[tuple[str, str, Any]]:
    if mode == "gamma":
        rows = [(n, "", values.get(n)) for n in ("gamma", "gamma_cat", "observed_disorder", "expected_disorder")]
        rows += [("gamma_k", c, v) for c, v in values.get("gamma_k", {}).items()]
        return rows
    u95 = values.get("u_alpha_1995", {})
    rows = [("u_alpha_1995", "", u95.get("overall"))]
    rows += [("u_alpha_1995", c, v) for c, v in u95.get("by_category", {}).items()]
    rows += [(n, "", values.get(n)) for n in ("u_alpha", "binary_u_alpha", "cu_alpha")]
    rows += [("cu_alpha", c, v) for c, v in values.get("cu_alpha_by_category", {}).items()]
    return rows


def _concat_units(a: Continua, b: Continua) -> Continua:
    import numpy as np

    cats = tuple(sorted(set(a.categories) | set(b.categories)))
    remap_a = np.array([cats.index(c) for c in a.categories], dtype=np.int64)
    remap_b = np.array([cats.index(c) for c in b.categories], dtype=np.int64)
    return Continua(a.annotators, a.documents + b.documents, cats,
                    np.concatenate([a.document, b.document + len(a.documents)]),
                    np.concatenate([a.annotator, b.annotator]),
                    np.concatenate([remap_a[a.category] if len(a.category) else a.category,
                                    remap_b[b.category] if len(b.category) else b.category]),
                    np.concatenate([a.start, b.start]), np.concatenate([a.end, b.end]), a.ident + b.ident,
                    np.concatenate([a.lengths, b.lengths]))
