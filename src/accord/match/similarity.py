"""Similarity between a gold and a predicted annotation: MAT profiles and the built-ins.

A MAT similarity is a weighted mean of dimension scores,

.. math::

    \\operatorname{sim}(r, h) = \\frac{\\sum_d w_d\\, s_d(r, h)}{\\sum_d w_d + w_{dead}}

where a remainder dimension with nothing to compare drops out of the denominator, and
``w_dead`` is the weight of attribute dimensions when ``r`` and ``h`` are not in the same
tag profile (then each side's profile is applied and the smaller score is kept). Two
annotations whose (implied) spans do not overlap have similarity 0. Dimension scores:

* ``_label`` (``label_equality``): 1 when the effective labels (after equivalence
  classes) are equal; ``true_residue`` when only the true labels are; otherwise 0.
* ``_span`` (``overlap``): :math:`|r \\cap h| / (\\max(ends) - \\min(starts))`; above
  ``overlap_match_lower_bound`` it counts 1, below ``overlap_mismatch_upper_bound`` 0.
  For a discontinuous span (brat's fragments, which MAT does not have) accord counts on the
  pieces: :math:`|r \\cap h| / |r \\cup h|`, the same number for contiguous spans that
  overlap; spans whose extents overlap but no pieces do score 0.
* an attribute (``equality``): 1 if equal; for a set, the Jaccard ratio
  :math:`|R \\cap H| / |R \\cup H|`; both unset 1, one unset 0.
* an annotation attribute (``similarity``): the similarity of the pair its values formed
  in an earlier stratum, 0 if they were not paired; for a set, the best one-to-one
  matching's total over :math:`\\max(|R|, |H|)`.
* ``"a,b"`` with ``_annotation_set_similarity``: the listed annotation attributes pooled
  into one set, scored as above.
* ``_nonannotation_attribute_remainder``: the mean equality over the reference label's
  other non-annotation attributes (one the hypothesis lacks scores 0).
* ``_annotation_attribute_remainder``: the other annotation attributes of both sides
  pooled by aggregation (names ignored), best matching total over the larger count.
* an attribute with ``method="module:function"``: the user's function, enabled with ``--plugins``
  (:mod:`accord.match.user_methods`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import PairingError, ProfileError
from ..model import Annotation, Document, covered_length, is_aggregate, overlap_length, same_extent
from ..model.schema import DimensionSpec, SimilarityProfileSpec, TagProfileSpec, Task
from .assign import assigned_total

if TYPE_CHECKING:   # a task's user methods are imported when a profile names one
    from .user_methods import UserMethod

__all__ = [
    "Context",
    "Similarity",
    "ProfileSimilarity",
    "StrictSimilarity",
    "LenientSimilarity",
    "SPANNED_DEFAULT",
    "SPANLESS_DEFAULT",
]

Result = tuple[float, tuple[str, ...], tuple[str, ...]]

Shape = tuple[Hashable, ...]
"""What a similarity reads of an annotation, or of a pair with its geometry, as a hashable key
(:mod:`accord.match.shapes`)."""

SPANNED_DEFAULT = (
    DimensionSpec("_label", 0.1, None, {"true_residue": ".5"}),
    DimensionSpec("_span", 0.9),
    DimensionSpec("_nonannotation_attribute_remainder", 0.1),
    DimensionSpec("_annotation_attribute_remainder", 0.1),
)
SPANLESS_DEFAULT = (
    DimensionSpec("_label", 0.2, None, {"true_residue": ".5"}),
    DimensionSpec("_nonannotation_attribute_remainder", 0.2),
    DimensionSpec("_annotation_attribute_remainder", 0.6),
)
_SPECIAL = {"_label", "_span", "_nonannotation_attribute_remainder", "_annotation_attribute_remainder"}


@dataclass
class Context:
    """What a similarity needs besides the two annotations.

    ``label`` maps an annotation to its scoring label (effective label, then equivalence
    class); ``paired`` holds the pairs made in earlier strata, ``(id(r), id(h)) -> sim``.
    """

    label: Callable[[Annotation], str]
    task: Task | None = None
    paired: dict[tuple[int, int], float] = field(default_factory=dict)
    gold_doc: Document | None = None
    pred_doc: Document | None = None
    spans: dict[int, tuple[int, int] | None] = field(default_factory=dict)
    """Implied spans computed so far, ``id(annotation) -> span`` (the context lives as long as its documents)."""
    partners: dict[int, list[int]] = field(default_factory=dict)
    """``id(gold annotation) -> [id(predicted annotation), ...]`` of ``paired``, kept by :meth:`add_pairs`."""
    shapes: dict[int, int] = field(default_factory=dict)
    """Shape codes computed so far (:mod:`accord.match.shapes`), ``id(annotation) -> code``."""
    shared_codes: dict[tuple[str, str, bool, int], int] = field(default_factory=dict)
    """Shape codes of annotations whose attributes are scalars, by (scoring label, true label, spanless, ``id`` of
    the attributes object): readers share one object between equal rows (the documents, and so the objects, live
    as long as the context)."""
    shape_codes: dict[Shape, int] = field(default_factory=dict)
    """Shape -> code, shared by both sides (and by the documents of one pairer)."""
    by_shape: dict[Shape, Result] = field(default_factory=dict)
    """What the similarity gave pairs of two shapes in a geometry (:mod:`accord.match.shapes`), shared likewise."""
    indexed: int = 0
    """How many entries of ``paired`` the partner index holds."""

    def add_pairs(self, pairs: Iterable[tuple[tuple[int, int], float]]) -> None:
        """Record pairs ``((id(r), id(h)), similarity)`` in ``paired`` and in the partner index."""
        paired, partners = self.paired, self.partners
        for key, s in pairs:
            if key not in paired:
                partners.setdefault(key[0], []).append(key[1])
                self.indexed += 1
            paired[key] = s

    def add_pair(self, gold_id: int, pred_id: int, s: float) -> None:
        """:meth:`add_pairs` of one pair."""
        key = (gold_id, pred_id)
        paired = self.paired
        if key not in paired:
            self.partners.setdefault(gold_id, []).append(pred_id)
            self.indexed += 1
        paired[key] = s

    def partner_index(self) -> dict[int, list[int]]:
        """``partners``, rebuilt first if ``paired`` was written to without :meth:`add_pairs`."""
        if self.indexed != len(self.paired):
            self.partners = {}
            for gid, pid in self.paired:
                self.partners.setdefault(gid, []).append(pid)
            self.indexed = len(self.paired)
        return self.partners

    def implied(self, ann: Annotation) -> tuple[int, int] | None:
        """:func:`implied_span` of ``ann``, computed once per annotation."""
        if ann.start is not None:
            assert ann.end is not None  # make_annotation: a start comes with an end
            return ann.start, ann.end
        key = id(ann)
        spans = self.spans
        if key in spans:
            return spans[key]
        got = spans[key] = implied_span(ann)
        return got

    def value(self, ann: Annotation, name: str, gold: bool) -> Any:
        if self.task is None:
            return ann.attributes.get(name)
        return self.task.value(ann, name, self.gold_doc if gold else self.pred_doc)


class Similarity:
    """Base of similarities: ``sim(r, h, ctx) -> (score, ref error tokens, hyp error tokens)``.

    ``clash`` tells whether a pair scoring below 1.0 is kept as a clash (MAT) or split
    into a missing and a spurious item (strict and lenient scoring). ``by_shape`` promises
    that two spanless annotations none of whose targets were paired with each other score
    what any other two of the same shapes score (:mod:`accord.match.shapes`) whose implied
    spans overlap alike; the engine then calls the similarity once per shape pair.
    """

    clash = True
    by_shape = False
    name = "similarity"

    def __call__(self, r: Annotation, h: Annotation, ctx: Context) -> Result:  # pragma: no cover
        raise NotImplementedError

    def compatible(self, r: Annotation, h: Annotation, ctx: Context) -> bool:
        """A cheap test that the pair can score above 0 (used before building matrices)."""
        return True


# ---------------------------------------------------------------------------- helpers
def _overlap_ratio(r: Annotation, h: Annotation) -> float:
    if r.fragments is not None or h.fragments is not None:
        # discontinuous spans: the shared offsets over the offsets either covers, counted on the pieces (for two
        # overlapping contiguous spans this is the formula below: their union is the extent from min to max)
        inter = overlap_length(r, h)
        union = covered_length(r) + covered_length(h) - inter
        return inter / union if union else float(same_extent(r, h))
    assert r.start is not None and r.end is not None and h.start is not None and h.end is not None  # spanned pairs
    lo = max(r.start, h.start)
    hi = min(r.end, h.end)
    width = max(r.end, h.end) - min(r.start, h.start)
    if width == 0:
        return 1.0 if r.start == h.start else 0.0
    return max(hi - lo, 0) / width


def _span_tokens(r: Annotation, h: Annotation) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if r.fragments is not None or h.fragments is not None:
        inter = overlap_length(r, h)
        if inter == covered_length(r):
            return ("undermark",), ("overmark",)
        if inter == covered_length(h):
            return ("overmark",), ("undermark",)
        return ("overlap",), ("overlap",)
    assert r.start is not None and r.end is not None and h.start is not None and h.end is not None  # spanned pairs
    if h.start <= r.start and h.end >= r.end:
        return ("undermark",), ("overmark",)
    if h.start >= r.start and h.end <= r.end:
        return ("overmark",), ("undermark",)
    return ("overlap",), ("overlap",)


def _equality(a: Any, b: Any) -> float:
    if a is None and b is None:
        return 1.0
    if a is None or b is None:
        return 0.0
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        union = len(a | b)
        return 1.0 if union == 0 else len(a & b) / union
    return 1.0 if a == b else 0.0


def _annotation_set(rs: list[Annotation], hs: list[Annotation], ctx: Context) -> float:
    """Best one-to-one matching of two annotation sets by their earlier pair scores."""
    if not rs and not hs:
        return 1.0
    if not rs or not hs:
        return 0.0
    m = np.zeros((len(rs), len(hs)))
    paired = ctx.paired
    for i, a in enumerate(rs):
        for j, b in enumerate(hs):
            m[i, j] = paired.get((id(a), id(b)), 0.0)
    return assigned_total(m) / max(len(rs), len(hs))


def _annotation_value(a: Any, b: Any, ctx: Context, tokens: list[str]) -> float:
    if a is None and b is None:
        return 1.0
    if a is None or b is None:
        tokens.append("annattributenotpaired")
        return 0.0
    if is_aggregate(a) or is_aggregate(b):
        ra = list(a) if is_aggregate(a) else [a]
        hb = list(b) if is_aggregate(b) else [b]
        s = _annotation_set(ra, hb, ctx)
        if s < 1.0:
            tokens.append("annclash")
        return s
    paired = ctx.paired.get((id(a), id(b)))
    if paired is None:
        tokens.append("annattributenotpaired")
        return 0.0
    if paired < 1.0:
        tokens.append("annclash")
    return paired


# --------------------------------------------------------------------- built-in profiles
class StrictSimilarity(Similarity):
    """1.0 for the same span, the same scoring label and equal significant attributes, else 0.

    Spanless annotations must also point to annotations paired with similarity 1.0.
    """

    clash = False
    by_shape = True
    name = "strict"

    def __init__(self, attributes: tuple[str, ...] = ()):
        self.attributes = tuple(attributes)

    def _same_attributes(self, r: Annotation, h: Annotation, ctx: Context) -> bool:
        names = self.attributes
        if r.start is None:
            names = tuple(dict.fromkeys(names + tuple(r.attributes) + tuple(h.attributes)))
        for name in names:
            a, b = ctx.value(r, name, True), ctx.value(h, name, False)
            if isinstance(a, Annotation) or isinstance(b, Annotation) or (
                    is_aggregate(a) and any(isinstance(x, Annotation) for x in a)):
                if _annotation_value(a, b, ctx, []) < 1.0:
                    return False
            elif _equality(a, b) < 1.0:
                return False
        return True

    def _spans_agree(self, r: Annotation, h: Annotation) -> bool:
        return same_extent(r, h)

    def __call__(self, r: Annotation, h: Annotation, ctx: Context) -> Result:
        if (r.start is None) != (h.start is None):
            return 0.0, (), ()
        if r.start is not None and not self._spans_agree(r, h):
            return 0.0, (), ()
        if ctx.label(r) != ctx.label(h):
            return 0.0, (), ()
        return (1.0, (), ()) if self._same_attributes(r, h, ctx) else (0.0, (), ())


class LenientSimilarity(StrictSimilarity):
    """1.0 for overlapping spans with the same scoring label (and equal significant attributes)."""

    name = "lenient"

    def _spans_agree(self, r: Annotation, h: Annotation) -> bool:
        if r.fragments is not None or h.fragments is not None:
            return overlap_length(r, h) > 0 or same_extent(r, h)
        assert r.start is not None and r.end is not None and h.start is not None and h.end is not None  # spanned
        return r.start < h.end and h.start < r.end or (r.start == h.start and r.end == h.end)


# ------------------------------------------------------------------------ MAT profiles
@dataclass
class _Dim:
    kind: str  # label, span, attr, annattr, multi, nonann_rem, ann_rem, user
    weight: float
    attr: dict[str, str] = field(default_factory=dict)  # true label -> attribute name
    attrs: tuple[str, ...] = ()
    aggregation: str | None = None
    residue: float | None = None
    lower: float | None = None
    upper: float | None = None
    user: UserMethod | None = None   # kind "user": a task's method="module:function" (accord.match.user_methods)


@dataclass
class _Entry:
    dims: list[_Dim]
    dead_weight: float
    declared: dict[str, frozenset[str]]  # true label -> attributes declared by attribute dims


class ProfileSimilarity(Similarity):
    """A MAT similarity profile (from a task, or MAT's defaults when there is none).

    Parameters
    ----------
    spec : SimilarityProfileSpec or None
        The profile; ``None`` uses the default profiles for every label.
    task : Task or None
        Declares labels, spannedness and attribute types.
    """

    name = "mat"
    by_shape = True

    def __init__(self, spec: SimilarityProfileSpec | None, task: Task | None):
        self.spec = spec or SimilarityProfileSpec(None)
        self.task = task
        # MAT's built-in profiles without a task profile; a task's unnamed profile is its "default" one (MAT: "If
        # you leave one of the profiles unnamed, it will be the default profile for the task"), never "mat"
        self.name = "mat" if spec is None else spec.name or "default"
        self.described = ("MAT's default similarity profiles" if spec is None else
                          f"similarity profile {spec.name!r}" if spec.name else
                          "the task's unnamed (default) similarity profile")
        self._entry: dict[str, _Entry] = {}
        self._profile_of: dict[str, int] = {}
        self._unpaired: dict[str, _Entry] = {}
        self._default_cache: dict[tuple[int, bool], _Entry] = {}
        self._remainder_cache: dict[tuple[frozenset[str], str, bool], list[str]] = {}
        self._compared_cache: dict[tuple[frozenset[str], str, str], list[str]] = {}
        self._routes: dict[tuple[str, str, bool, bool], tuple[tuple[_Entry, float], ...]] = {}
        for k, tp in enumerate(self.spec.tag_profiles):
            entry = self._compile(tp.dimensions, tp)
            for lbl in tp.labels:
                if lbl in self._profile_of:
                    raise ProfileError(f"{self.described}: label {lbl!r} is in two tag profiles")
                self._profile_of[lbl] = k
                self._entry[lbl] = entry
                self._unpaired[lbl] = self._unpaired_entry(entry)
        self.strata: list[tuple[str, ...]] = list(self.spec.strata)

    # -- compilation -----------------------------------------------------------------
    def _attr_type(self, label: str, name: str) -> tuple[str | None, str | None]:
        if self.task is None:
            return None, None
        spec = self.task.attribute(label, name)
        if spec is None:
            raise ProfileError(f"{self.described}: label {label!r} has no attribute {name!r}")
        return spec.type, spec.aggregation

    def _compile(self, dims: Iterable[DimensionSpec], tp: TagProfileSpec | None) -> _Entry:
        labels = tp.labels if tp is not None else ()
        out = []
        declared: dict[str, set[str]] = {lbl: set() for lbl in labels}
        from .user_methods import ROLES

        for d in dims:
            method = d.method
            user_roles = [k for k in ROLES if k in d.params]
            if user_roles and (d.name.startswith("_") or "," in d.name or method in (None, "equality", "similarity")):
                raise ProfileError(f"{self.described}: dimension {d.name!r}: {', '.join(user_roles)} applies to an "
                                   "attribute dimension with a user method (method=\"module:function\")")
            if d.name == "_label":
                if method not in (None, "label_equality"):
                    raise ProfileError(f"{self.described}: unknown _label method {method!r}")
                residue = d.params.get("true_residue")
                out.append(_Dim("label", d.weight, residue=None if residue is None else float(residue)))
            elif d.name == "_span":
                if method not in (None, "overlap"):
                    raise ProfileError(f"{self.described}: unknown _span method {method!r}")
                if self.task is not None:
                    for lbl in labels:
                        if not self.task.is_spanned(lbl):
                            raise ProfileError(f"{self.described}: _span on spanless label {lbl!r}")
                lo, hi = d.params.get("overlap_match_lower_bound"), d.params.get("overlap_mismatch_upper_bound")
                out.append(_Dim("span", d.weight, lower=None if lo is None else float(lo),
                                upper=None if hi is None else float(hi)))
            elif d.name == "_nonannotation_attribute_remainder" or method == "_nonannotation_attribute_remainder":
                out.append(_Dim("nonann_rem", d.weight))
            elif d.name == "_annotation_attribute_remainder" or method == "_annotation_attribute_remainder":
                out.append(_Dim("ann_rem", d.weight))
            elif "," in d.name:
                if method != "_annotation_set_similarity":
                    raise ProfileError(f"{self.described}: dimension {d.name!r} lists several "
                                       "attributes and needs method=\"_annotation_set_similarity\"")
                names = tuple(n.strip() for n in d.name.split(","))
                for lbl in labels:
                    for n in names:
                        typ, agg = self._attr_type(lbl, n)
                        if typ not in (None, "annotation") or agg is not None:
                            raise ProfileError(f"{self.described}: {n!r} of {lbl!r} must be a "
                                               "single annotation attribute for _annotation_set_similarity")
                        declared[lbl].add(n)
                out.append(_Dim("multi", d.weight, attrs=names))
            else:
                equiv = tp.equivalences.get(d.name) if tp is not None else None
                per_label: dict[str, str] = {}
                kinds = set()
                for lbl in labels:
                    actual = d.name
                    if equiv:
                        have = [n for n in equiv if self.task is None or self.task.attribute(lbl, n) is not None]
                        if not have:
                            raise ProfileError(f"{self.described}: label {lbl!r} has none of "
                                               f"the attributes {', '.join(equiv)} of equivalence {d.name!r}")
                        actual = have[0]
                    per_label[lbl] = actual
                    declared[lbl].add(actual)
                    kinds.add(self._attr_type(lbl, actual))
                if len(kinds) > 1:
                    raise ProfileError(f"{self.described}: dimension {d.name!r} has different "
                                       "types or aggregations across the labels of its tag profile")
                typ, agg = kinds.pop() if kinds else (None, None)
                user = None
                if method not in (None, "equality", "similarity"):
                    if ":" not in method:
                        raise ProfileError(f"{self.described}: unknown method {method!r} for attribute dimension "
                                           f"{d.name!r}; expected equality, similarity or a user method "
                                           "module:function (enabled with --plugins module)")
                    from .user_methods import user_method

                    user = user_method(method, d.params, f"{self.described}: dimension {d.name!r}")
                kind = ("user" if user is not None else
                        "annattr" if (typ == "annotation" or method == "similarity") else "attr")
                out.append(_Dim(kind, d.weight, attr=per_label, attrs=(d.name,) + tuple(equiv or ()),
                                aggregation=agg, user=user))
        if out and sum(d.weight for d in out) <= 0:
            raise ProfileError(f"{self.described}: total weight 0")
        dead = sum(d.weight for d in out if d.kind in ("attr", "annattr", "multi", "user"))
        return _Entry(out, dead, {k: frozenset(v) for k, v in declared.items()})

    def _unpaired_entry(self, entry: _Entry) -> _Entry:
        dims = [d for d in entry.dims if d.kind not in ("attr", "annattr", "multi", "user")]
        return _Entry(dims, entry.dead_weight, entry.declared)

    def stratum_of(self, label: str) -> int:
        """Index of the stratum of a true label (0 when no strata are declared)."""
        if not self.strata:
            return 0
        for k, st in enumerate(self.strata):
            if label in st:
                return k
        raise ProfileError(f"{self.described}: label {label!r} is in no <stratum>; "
                           "when strata are declared, every content label must be in one")

    def _default_entry(self, label: str, spanned: bool) -> _Entry:
        key = (self.stratum_of(label), spanned)
        entry = self._default_cache.get(key)
        if entry is None:
            entry = self._compile(SPANNED_DEFAULT if spanned else SPANLESS_DEFAULT, None)
            self._default_cache[key] = entry
        return entry

    # -- scoring ---------------------------------------------------------------------
    def __call__(self, r: Annotation, h: Annotation, ctx: Context) -> Result:
        key = (r.label, h.label, r.start is None, h.start is None)
        route = self._routes.get(key)
        if route is None:
            route = self._routes[key] = self._route(r, h)
        if not route:
            return 0.0, ("tagclash",), ("tagclash",)
        if len(route) == 1:
            return self._compute(r, h, route[0][0], route[0][1], ctx)
        (er, dead_r), (eh, dead_h) = route
        a = self._compute(r, h, er, dead_r, ctx)
        b = self._compute(r, h, eh, dead_h, ctx)
        return a if a[0] <= b[0] else b

    def _route(self, r: Annotation, h: Annotation) -> tuple[tuple[_Entry, float], ...]:
        """How a pair of two labels is scored, the same for every pair of them: by one entry (and its dead
        weight), by the worse of two (the unpaired entries of two profiles), or not at all (a tag clash: empty)."""
        lr, lh = r.label, h.label
        kr, kh = self._profile_of.get(lr), self._profile_of.get(lh)
        if kr is not None and kr == kh:
            return ((self._entry[lr], 0.0),)
        r_spanned, h_spanned = r.start is not None, h.start is not None
        if self.task is not None:
            r_spanned, h_spanned = self.task.is_spanned(lr), self.task.is_spanned(lh)
        if r_spanned != h_spanned or self.stratum_of(lr) != self.stratum_of(lh):
            return ()
        if kr is None and kh is None:
            return ((self._default_entry(lr, r_spanned), 0.0),)
        er = self._unpaired[lr] if kr is not None else self._default_entry(lr, r_spanned)
        eh = self._unpaired[lh] if kh is not None else self._default_entry(lh, h_spanned)
        return ((er, er.dead_weight if kr is not None else 0.0), (eh, eh.dead_weight if kh is not None else 0.0))

    def _compute(self, r: Annotation, h: Annotation, entry: _Entry, dead: float, ctx: Context) -> Result:
        rspan = ctx.implied(r)
        hspan = ctx.implied(h)
        if rspan is not None and hspan is not None and (rspan[1] <= hspan[0] or rspan[0] >= hspan[1]):
            if not (rspan[0] == rspan[1] == hspan[0] == hspan[1]):
                return 0.0, ("overlap",), ("overlap",)
        if (r.fragments is not None or h.fragments is not None) and r.start is not None and h.start is not None \
                and not overlap_length(r, h) and not same_extent(r, h):
            return 0.0, ("overlap",), ("overlap",)   # discontinuous: the extents overlap, no piece does
        num = 0.0
        den = dead
        all_one = dead == 0.0
        rt: list[str] = []
        ht: list[str] = []
        for d in entry.dims:
            w = d.weight
            if d.kind == "label":
                s, t = self._label(r, h, d, ctx)
                if t:
                    rt.append(t)
                    ht.append(t)
            elif d.kind == "span":
                if r.start is None or h.start is None:
                    raise ProfileError(f"{self.described}: _span on a spanless annotation "
                                       f"({r!r} / {h!r})")
                s = _overlap_ratio(r, h)
                if d.lower is not None and s > d.lower:
                    s = 1.0
                elif d.upper is not None and s < d.upper:
                    s = 0.0
                if s < 1.0 or not same_extent(r, h):
                    a, b = _span_tokens(r, h)
                    if s < 1.0:
                        rt.extend(a)
                        ht.extend(b)
            elif d.kind == "attr":
                a_val = ctx.value(r, d.attr.get(r.label, d.attrs[0]), True)
                b_val = ctx.value(h, d.attr.get(h.label, d.attrs[0]), False)
                if d.aggregation == "list" or (is_aggregate(a_val) and not isinstance(a_val, frozenset)):
                    s = 1.0 if a_val == b_val else 0.0
                else:
                    s = _equality(a_val, b_val)
                if s < 1.0:
                    tok = "setclash" if isinstance(a_val, frozenset) or isinstance(b_val, frozenset) else "attrclash"
                    rt.append(tok)
                    ht.append(tok)
            elif d.kind == "user":
                assert d.user is not None   # kind "user" is made with its method
                a_val = ctx.value(r, d.attr.get(r.label, d.attrs[0]), True)
                b_val = ctx.value(h, d.attr.get(h.label, d.attrs[0]), False)
                s, user_token = d.user(a_val, b_val,
                                       d.aggregation is not None or is_aggregate(a_val) or is_aggregate(b_val))
                if s < 1.0 and user_token:
                    rt.append(user_token)
                    ht.append(user_token)
            elif d.kind == "annattr":
                s = _annotation_value(ctx.value(r, d.attr.get(r.label, d.attrs[0]), True),
                                      ctx.value(h, d.attr.get(h.label, d.attrs[0]), False), ctx, rt)
            elif d.kind == "multi":
                ra = [v for n in d.attrs if (v := r.attributes.get(n)) is not None]
                hb = [v for n in d.attrs if (v := h.attributes.get(n)) is not None]
                s = _annotation_set(ra, hb, ctx)
                if s < 1.0:
                    rt.append("annclash")
            elif d.kind == "nonann_rem":
                got = self._nonann_remainder(r, h, entry, ctx)
                if got is None:
                    continue
                s = got
                if s < 1.0:
                    rt.append("attrclash")
            else:  # ann_rem
                got = self._ann_remainder(r, h, entry, ctx)
                if got is None:
                    continue
                s = got
                if s < 1.0:
                    rt.append("annclash")
            num += w * s
            den += w
            if s != 1.0:
                all_one = False
        if den <= 0:
            return 1.0, (), ()
        if all_one:
            return 1.0, (), ()
        score = num / den
        if not rt:
            rt.append("unknownclash")
        if not ht:
            ht.extend(rt)
        return score, tuple(dict.fromkeys(rt)), tuple(dict.fromkeys(ht))

    def _label(self, r: Annotation, h: Annotation, d: _Dim, ctx: Context) -> tuple[float, str | None]:
        if ctx.label(r) == ctx.label(h):
            return 1.0, None
        if r.label != h.label:
            return 0.0, "tagclash"
        if d.residue is not None:
            return d.residue, "computedtagclash"
        return 0.0, "tagclash"

    def _remainder_names(self, ann: Annotation, entry: _Entry, annotation_typed: bool) -> list[str]:
        declared = entry.declared.get(ann.label, frozenset())
        if self.task is not None:    # the task's attributes of the label: the same for every annotation of it
            key = (declared, ann.label, annotation_typed)
            names = self._remainder_cache.get(key)
            if names is None:
                spec = self.task.labels.get(ann.label)
                names = [] if spec is None else [
                    n for n, a in spec.attributes.items() if n not in declared and n != spec.effective_attribute
                    and (a.type == "annotation") == annotation_typed]
                self._remainder_cache[key] = names
            return names
        names = []
        for n, v in ann.attributes.items():
            if n in declared:
                continue
            is_ann = isinstance(v, Annotation) or (is_aggregate(v) and
                                                   any(isinstance(x, Annotation) for x in v))
            if is_ann == annotation_typed:
                names.append(n)
        return names

    def _nonann_remainder(self, r: Annotation, h: Annotation, entry: _Entry, ctx: Context) -> float | None:
        names = self._remainder_names(r, entry, False)
        if not names:
            return None
        if self.task is not None:   # the names both labels declare alike: fixed by the pair of labels
            key = (entry.declared.get(r.label, frozenset()), r.label, h.label)
            compared = self._compared_cache.get(key)
            if compared is None:
                compared = []
                for n in names:
                    ra, ha = self.task.attribute(r.label, n), self.task.attribute(h.label, n)
                    if ha is not None and ra is not None and (ra.type, ra.aggregation) == (ha.type, ha.aggregation):
                        compared.append(n)
                self._compared_cache[key] = compared
        else:
            compared = [n for n in names if n in h.attributes]
        total = 0.0
        for n in compared:
            total += _equality(ctx.value(r, n, True), ctx.value(h, n, False))
        return total / len(names)

    def _ann_remainder(self, r: Annotation, h: Annotation, entry: _Entry, ctx: Context) -> float | None:
        rnames = self._remainder_names(r, entry, True)
        if not rnames:
            return None
        hnames = self._remainder_names(h, entry, True)
        groups_r: dict[str | None, list[Any]] = {}
        groups_h: dict[str | None, list[Any]] = {}
        for names, ann, groups in ((rnames, r, groups_r), (hnames, h, groups_h)):
            for n in names:
                v = ann.attributes.get(n)
                if v is None:
                    continue
                agg = "set" if isinstance(v, frozenset) else ("list" if is_aggregate(v) else None)
                groups.setdefault(agg, []).append(v)
        r_count = sum(len(v) for v in groups_r.values())
        h_count = sum(len(v) for v in groups_h.values())
        if max(r_count, h_count) == 0:
            return 1.0
        total = 0.0
        for agg, rvals in groups_r.items():
            hvals = groups_h.get(agg, [])
            if not hvals:
                continue
            m = np.zeros((len(rvals), len(hvals)))
            for i, a in enumerate(rvals):
                for j, b in enumerate(hvals):
                    m[i, j] = _annotation_value(a, b, ctx, [])
            total += assigned_total(m)
        return total / max(r_count, h_count)


def implied_span(ann: Annotation) -> tuple[int, int] | None:
    """The span of a spanned annotation; for a spanless one, its implied span.

    The implied span reaches from the earliest start to the latest end of the annotations
    it points to, recursively; it is None when it points to no spanned annotation.

    Raises
    ------
    PairingError
        When the references form a cycle.
    """
    if ann.start is not None:
        assert ann.end is not None  # make_annotation: a start comes with an end
        return ann.start, ann.end
    # most often every target has a span (a relation between entities): their extent, without the walk below
    lo: int | None = None
    hi: int | None = None
    for t in ann.referenced():
        if t.start is None or t.end is None:
            break
        lo = t.start if lo is None else min(lo, t.start)
        hi = t.end if hi is None else max(hi, t.end)
    else:
        return None if lo is None or hi is None else (lo, hi)
    span: dict[int, tuple[int, int] | None] = {}
    on_path: set[int] = set()
    stack: list[tuple[Annotation, bool]] = [(ann, False)]
    # post-order over the references with an explicit stack: no recursion on the depth of the input
    while stack:
        a, expanded = stack.pop()
        key = id(a)
        if expanded:
            on_path.discard(key)
            lo = None
            hi = None
            for t in a.referenced():
                sp = (t.start, t.end) if t.start is not None and t.end is not None else span[id(t)]
                if sp is not None:
                    lo = sp[0] if lo is None else min(lo, sp[0])
                    hi = sp[1] if hi is None else max(hi, sp[1])
            span[key] = None if lo is None or hi is None else (lo, hi)
            continue
        if key in span:
            continue
        if key in on_path:
            raise PairingError(f"annotation {a!r} points to itself through its annotation-valued attributes; "
                               "cannot compute an implied span")
        on_path.add(key)
        stack.append((a, True))
        for t in a.referenced():
            if t.start is None:
                if id(t) in on_path:
                    raise PairingError(f"annotation {t!r} points to itself through its annotation-valued "
                                       "attributes; cannot compute an implied span")
                if id(t) not in span:
                    stack.append((t, False))
    return span[id(ann)]
