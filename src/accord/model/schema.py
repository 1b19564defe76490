"""The task schema: MAT annotation set descriptors, effective labels, profiles, validation.

A task file is MAT's XML: ``<annotation_set_descriptors>`` (labels, attributes, choices
with effective labels, label restrictions), and optionally ``<similarity_profile>`` and
``<score_profile>`` elements. The root may be ``<task>``, ``<tasks>`` or the descriptors
themselves.

Deviations from the manual, chosen deliberately: in ``<range>`` we read ``from`` as the
lower and ``to`` as the upper bound (the manual's table states the reverse, which
contradicts the words); ``<attr_equivalences>`` accepts both ``attrs`` (what MAT's code
reads) and ``equivalences`` (what its manual shows).
"""

from __future__ import annotations

import math
import operator
import os
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..errors import AccordWarning, SchemaError, ValidationError
from . import SCALAR_TYPES, Annotation, Corpus, Document, is_aggregate

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

__all__ = [
    "AttributeSpec",
    "LabelSpec",
    "DimensionSpec",
    "TagProfileSpec",
    "SimilarityProfileSpec",
    "ScoreProfileSpec",
    "Task",
    "TaskWarning",
    "load_task",
    "parse_task",
]

class TaskWarning(AccordWarning):
    """A task file asks for something accord reads but does not apply (the message names it and says why)."""


ATTRIBUTE_TYPES = ("string", "int", "float", "boolean", "annotation")
AGGREGATIONS = (None, "set", "list")


@dataclass
class AttributeSpec:
    """One ``<attribute>``: its type, aggregation, default, range, choices and restrictions."""

    name: str
    labels: tuple[str, ...]
    type: str = "string"
    aggregation: str | None = None
    default: Any = None
    default_is_text_span: bool = False
    range: tuple[float | None, float | None] | None = None
    choices: tuple[Any, ...] = ()
    effective_labels: dict[Any, str] = field(default_factory=dict)
    label_restrictions: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()


@dataclass
class LabelSpec:
    """One ``<annotation>``: a true label, spanned or not, locked or not, and its attributes."""

    label: str
    spanned: bool = True
    all_attributes_known: bool = False
    attributes: dict[str, AttributeSpec] = field(default_factory=dict)
    effective_attribute: str | None = None
    category: str = "content"
    """The ``category`` (else the ``name``) of its ``<annotation_set_descriptor>``: ``content`` (scored),
    ``token``, ``zone``, or another (``admin`` for MAT's ``SEGMENT``); ``content`` when the descriptor has
    neither."""


@dataclass
class DimensionSpec:
    """One ``<dimension>`` of a tag profile: a name, a weight, a method and its parameters."""

    name: str
    weight: float
    method: str | None = None
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class TagProfileSpec:
    """One ``<tag_profile>``: the true labels it covers, attribute equivalences, dimensions."""

    labels: tuple[str, ...]
    dimensions: list[DimensionSpec]
    equivalences: dict[str, tuple[str, ...]] = field(default_factory=dict)


@dataclass
class SimilarityProfileSpec:
    """One ``<similarity_profile>``: optional strata and tag profiles."""

    name: str | None
    strata: list[tuple[str, ...]] = field(default_factory=list)
    tag_profiles: list[TagProfileSpec] = field(default_factory=list)


@dataclass
class ScoreProfileSpec:
    """One ``<score_profile>``: aggregations, decompositions and a label limitation."""

    name: str | None
    aggregations: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    attr_decompositions: list[tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=list)
    partition_decompositions: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    label_limitation: tuple[str, ...] | None = None


def _split(value: str | None) -> tuple[str, ...]:
    return tuple(v.strip() for v in (value or "").split(",") if v.strip())


def _parse_value(text: str, typ: str, where: str) -> Any:
    try:
        if typ == "int":
            return int(text)
        if typ == "float":
            return float(text)
        if typ == "boolean":
            if text in ("yes", "true", "1"):
                return True
            if text in ("no", "false", "0"):
                return False
            raise ValueError(text)
    except ValueError:
        raise SchemaError(f"{where}: {text!r} is not a valid {typ}") from None
    return text



_TYPE_CHECKS: dict[str, Callable[[Any], bool]] = {
    "string": lambda x: isinstance(x, str),
    "int": lambda x: isinstance(x, int) and not isinstance(x, bool),
    "float": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
    "boolean": lambda x: isinstance(x, bool),
    "annotation": lambda x: isinstance(x, Annotation),
}
"""Whether a value is of an attribute type (a ``bool`` is no ``int``)."""

class Task:
    """A parsed task: labels, attributes, effective labels and profiles.

    Use :func:`load_task` to read one from a file.
    """

    def __init__(self, labels: dict[str, LabelSpec], similarity_profiles: list[SimilarityProfileSpec],
                 score_profiles: list[ScoreProfileSpec], source: str = "task"):
        self.labels = labels
        self.similarity_profiles = similarity_profiles
        self.score_profiles = score_profiles
        self.source = source
        # effective label -> (true label, attribute, value)
        self.effective: dict[str, tuple[str, str, Any]] = {}
        for spec in labels.values():
            for attr in spec.attributes.values():
                if attr.effective_labels:
                    if spec.effective_attribute not in (None, attr.name):
                        raise SchemaError(
                            f"{source}: label {spec.label!r} has effective labels on two attributes "
                            f"({spec.effective_attribute!r} and {attr.name!r}); at most one is allowed")
                    spec.effective_attribute = attr.name
                    for value, eff in attr.effective_labels.items():
                        if eff in self.effective or eff in labels:
                            raise SchemaError(f"{source}: effective label {eff!r} is not distinct from "
                                              "the other labels and effective labels")
                        self.effective[eff] = (spec.label, attr.name, value)

    # -- labels ------------------------------------------------------------------------
    def effective_label(self, ann: Annotation) -> str:
        """The effective label of ``ann`` (e.g. ``ENAMEX`` with ``type=PER`` -> ``PERSON``)."""
        spec = self.labels.get(ann.label)
        if spec is None or spec.effective_attribute is None:
            return ann.label
        value = ann.attributes.get(spec.effective_attribute)
        if value is None:
            return ann.label
        return spec.attributes[spec.effective_attribute].effective_labels.get(value, ann.label)

    def true_label(self, label: str) -> str:
        """The true label behind a label or effective label."""
        return self.effective[label][0] if label in self.effective else label

    def is_spanned(self, label: str) -> bool:
        """Whether the true label is declared spanned (unknown labels count as spanned)."""
        spec = self.labels.get(self.true_label(label))
        return spec.spanned if spec is not None else True

    def attribute(self, label: str, name: str) -> AttributeSpec | None:
        """The declaration of attribute ``name`` on ``label``, if any."""
        spec = self.labels.get(self.true_label(label))
        return spec.attributes.get(name) if spec is not None else None

    def value(self, ann: Annotation, name: str, doc: Document | None = None) -> Any:
        """The value of attribute ``name``, falling back on the declared default."""
        value = ann.attributes.get(name)
        if value is not None:
            return value
        spec = self.attribute(ann.label, name)
        if spec is None:
            return None
        if spec.default_is_text_span and doc is not None and ann.start is not None:
            text = doc.surface(ann.start, ann.end)
            try:
                return {"int": int, "float": float}.get(spec.type, str)(text)
            except ValueError:
                return None
        return spec.default

    def labels_of(self, category: str) -> frozenset[str]:
        """The true labels declared in descriptors of ``category`` (``content``, ``token``, ``zone``...)."""
        return frozenset(lbl for lbl, spec in self.labels.items() if spec.category == category)

    # -- profiles ----------------------------------------------------------------------
    def similarity_profile(self, name: str | None = None) -> SimilarityProfileSpec | None:
        """The similarity profile called ``name``, or the unnamed (default) one.

        Returns None when the task defines no profile at all. Unlike MAT, a name that does
        not exist is an error even when the task has a single profile.
        """
        return _pick(self.similarity_profiles, name, "similarity", self.source)

    def score_profile(self, name: str | None = None) -> ScoreProfileSpec | None:
        """The score profile called ``name``, or the unnamed (default) one."""
        return _pick(self.score_profiles, name, "score", self.source)

    # -- validation --------------------------------------------------------------------
    def validate(self, corpus: Corpus, undeclared: frozenset[str] = frozenset()) -> None:
        """Check every annotation of ``corpus`` against the schema.

        ``undeclared`` names labels that may appear without a declaration (MAT's ``lex``, ``zone`` and
        ``SEGMENT``, which tasks inherit from MAT's root task); the task's declarations still hold for them.

        Raises
        ------
        ValidationError
            Naming the document, the annotation and the rule broken.
        """
        valid: set[tuple[object, ...]] = set()   # kinds of annotation found valid (:func:`_validation_key`)
        # annotations sharing one (immutable) attributes object, as readers share them between rows of equal
        # values, validate alike: known by the object's identity, which the corpus keeps alive meanwhile
        valid_objects: set[tuple[str, bool, int]] = set()
        valid_relations: set[tuple[object, ...]] = set()   # (:func:`_relation_key`)
        contains = valid_objects.__contains__
        for doc in corpus.values():
            anns = doc.annotations
            # the annotations whose (label, spanless, attributes object) was found valid so far are passed over in C
            # (the loop below would pass over them at its first test); the others in turn
            for ann in compress(anns, map(operator.not_, map(contains, zip(
                    map(_LABEL, anns), map(operator.is_, map(_START, anns), repeat(None)),
                    map(id, map(_ATTRIBUTES, anns)))))):
                if ann.label in undeclared and ann.label not in self.labels:
                    continue
                same_object = (ann.label, ann.start is None, id(ann.attributes))
                if same_object in valid_objects:
                    continue
                values = tuple(ann.attributes.values())
                if tuple(map(type, values)) in _POINTERS_ONLY:
                    # a relation: its own attributes object, so known by content (:func:`_relation_key`)
                    try:   # (the test of membership hashes the key: an unhashable one is a TypeError)
                        key: tuple[object, ...] | None = _relation_key(ann, values)
                        known = key in valid_relations
                    except TypeError:
                        key = None
                    if key is not None:
                        if not known:
                            self._validate(doc, ann, corpus.name)
                            valid_relations.add(key)
                        continue
                key = _validation_key(ann)
                if key is None or key not in valid:
                    self._validate(doc, ann, corpus.name)
                    if key is not None:
                        valid.add(key)
                valid_objects.add(same_object)

    def _validate(self, doc: Document, ann: Annotation, source: str | None) -> None:
        def where() -> str:   # the message's place, written only when there is an error
            return f"{source + ': ' if source else ''}document {doc.id!r}, annotation {ann!r}"
        spec = self.labels.get(ann.label)
        if spec is None:
            raise ValidationError(f"{where()}: label {ann.label!r} is not declared in the task "
                                  f"(declared: {', '.join(sorted(self.labels))})")
        if spec.spanned and ann.start is None:
            raise ValidationError(f"{where()}: label {ann.label!r} is spanned, but the annotation has no span")
        if not spec.spanned and ann.start is not None:
            raise ValidationError(f"{where()}: label {ann.label!r} is declared span=\"no\", "
                                  "but the annotation has a span")
        for name, value in ann.attributes.items():
            attr = spec.attributes.get(name)
            if attr is None:
                if spec.all_attributes_known:
                    raise ValidationError(f"{where()}: attribute {name!r} is not declared for {ann.label!r}, "
                                          "which is locked (all_attributes_known=\"yes\")")
                continue
            if value is None:
                continue
            values: Any
            if attr.aggregation == "set":
                if not isinstance(value, frozenset):
                    raise ValidationError(f"{where()}: attribute {name!r} is a set; got {value!r}")
                values = value
            elif attr.aggregation == "list":
                if not is_aggregate(value) or isinstance(value, frozenset):
                    raise ValidationError(f"{where()}: attribute {name!r} is a list; got {value!r}")
                values = value
            else:
                if is_aggregate(value):
                    raise ValidationError(f"{where()}: attribute {name!r} takes a single value; got {value!r}")
                values = (value,)
            for v in values:
                self._check_value(where, attr, v)

    def _check_value(self, where: Callable[[], str], attr: AttributeSpec, v: Any) -> None:
        ok = _TYPE_CHECKS[attr.type](v)
        if not ok:
            raise ValidationError(f"{where()}: attribute {attr.name!r} has type {attr.type}; got {v!r}")
        if attr.choices and v not in attr.choices:
            raise ValidationError(f"{where()}: attribute {attr.name!r} must be one of "
                                  f"{', '.join(map(repr, attr.choices))}; got {v!r}")
        if attr.range is not None:
            lo, hi = attr.range
            if (lo is not None and v < lo) or (hi is not None and v > hi):
                raise ValidationError(f"{where()}: attribute {attr.name!r} must lie in [{lo}, {hi}]; got {v!r}")
        if attr.type == "annotation":
            for label, conditions in attr.label_restrictions:
                if label in self.effective:
                    label_ok = self.effective_label(v) == label
                else:
                    label_ok = v.label == label
                if label_ok and all(v.attributes.get(k) == val for k, val in conditions):
                    return
            allowed = ", ".join(lbl + ("" if not c else "[" + ",".join(f"{k}={val}" for k, val in c) + "]")
                                for lbl, c in attr.label_restrictions)
            raise ValidationError(f"{where()}: attribute {attr.name!r} must point to {allowed}; "
                                  f"it points to {v!r}")


_Profile = TypeVar("_Profile", SimilarityProfileSpec, ScoreProfileSpec)


_LABEL = operator.itemgetter(Annotation._fields.index("label"))
_START = operator.itemgetter(Annotation._fields.index("start"))
_ATTRIBUTES = operator.itemgetter(Annotation._fields.index("attributes"))
# the kinds of values of an annotation whose values all point to annotations (a relation of up to eight arguments)
_POINTERS_ONLY = frozenset((Annotation,) * k for k in range(1, 9))


def _relation_key(ann: Annotation, values: tuple[Annotation, ...]) -> tuple[object, ...]:
    """The key of :func:`_validation_key` for an annotation whose values all point to annotations, flat and put
    together in C: label, whether spanless, the names, the labels pointed to, the attribute items of each (a key of
    ``k`` values has ``2 + 3k`` members, so keys of different ``k`` never meet)."""
    return (ann.label, ann.start is None, *ann.attributes, *map(_LABEL, values),
            *map(tuple, map(dict.items, map(_ATTRIBUTES, values))))


def _validation_key(ann: Annotation) -> tuple[object, ...] | None:
    """What validation reads of an annotation, as a hashable key: its label, whether it has a span, its values
    with their types, and of each annotation it points to the label and the attribute values (what label
    restrictions and effective labels read). None for set and list values and unhashable ones (checked each
    time)."""
    attrs = ann.attributes
    kinds = tuple(map(type, attrs.values()))
    if SCALAR_TYPES.issuperset(kinds):
        key: tuple[object, ...] = (ann.label, ann.start is None, tuple(attrs.items()), kinds)
    elif all(k in SCALAR_TYPES or k is Annotation for k in kinds):
        key = (ann.label, ann.start is None, kinds,
               tuple((n, v.label, tuple(v.attributes.items())) if type(v) is Annotation else (n, v)
                     for n, v in attrs.items()))
    else:
        return None
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _pick(profiles: list[_Profile], name: str | None, kind: str, source: str) -> _Profile | None:
    if not profiles:
        if name is not None:
            raise SchemaError(f"{source}: the task defines no {kind} profile, so none is called {name!r}")
        return None
    for p in profiles:
        if p.name == name:
            return p
    if name is None:
        if len(profiles) == 1:
            return profiles[0]
        raise SchemaError(f"{source}: no default (unnamed) {kind} profile; name one of "
                          f"{', '.join(repr(p.name) for p in profiles)}")
    raise SchemaError(f"{source}: no {kind} profile named {name!r}; the task has "
                      f"{', '.join(repr(p.name) if p.name else '<default>' for p in profiles)}")


def load_task(path: str | os.PathLike[str]) -> Task:
    """Read a task file (MAT XML)."""
    from .._support.io import read_text

    p = Path(path)
    return parse_task(read_text(p), source=str(p))


def parse_task(text: str, source: str = "task") -> Task:
    """Parse the XML text of a task file."""
    from defusedxml import ElementTree as ET  # noqa: N817 - here: a score without a task file parses no XML

    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise SchemaError(f"{source}: not well-formed XML ({exc})") from None
    except Exception as exc:  # defusedxml refusals (entities, DTDs)
        raise SchemaError(f"{source}: refused XML ({exc})") from None
    descriptor_sets = ([root] if root.tag == "annotation_set_descriptors"
                       else list(root.iter("annotation_set_descriptors")))
    if not descriptor_sets:
        raise SchemaError(f"{source}: no <annotation_set_descriptors> element")
    labels: dict[str, LabelSpec] = {}
    pending_attrs = []
    for descs in descriptor_sets:
        for desc in descs.iter("annotation_set_descriptor"):
            category = desc.get("category") or desc.get("name") or "content"
            for el in desc.findall("annotation"):
                label = el.get("label")
                if not label:
                    raise SchemaError(f"{source}: <annotation> without a label")
                if label in labels:
                    raise SchemaError(f"{source}: label {label!r} is declared twice")
                labels[label] = LabelSpec(
                    label, spanned=el.get("span", "yes") != "no",
                    all_attributes_known=el.get("all_attributes_known") == "yes", category=category)
            pending_attrs.extend(desc.findall("attribute"))
    for el in pending_attrs:
        _parse_attribute(el, labels, source)
    task = Task(labels, [], [], source)
    for el in root.iter("similarity_profile"):
        task.similarity_profiles.append(_parse_similarity(el, task, source))
    for el in root.iter("score_profile"):
        task.score_profiles.append(_parse_score(el, task, source))
    for kind, profs in (("similarity", task.similarity_profiles), ("score", task.score_profiles)):
        names = [p.name for p in profs]
        if len(names) != len(set(names)):
            raise SchemaError(f"{source}: two {kind} profiles share the name "
                              f"{next(n for n in names if names.count(n) > 1) or '<default>'!r}")
    _check_restrictions(task)
    return task


def _parse_attribute(el: Element, labels: dict[str, LabelSpec], source: str) -> None:
    name = el.get("name")
    of = _split(el.get("of_annotation"))
    where = f"{source}: attribute {name!r}"
    if not name or not of:
        raise SchemaError(f"{source}: <attribute> needs name and of_annotation")
    typ = el.get("type", "string")
    if typ not in ATTRIBUTE_TYPES:
        raise SchemaError(f"{where}: unknown type {typ!r}; expected one of {', '.join(ATTRIBUTE_TYPES)}")
    agg = el.get("aggregation")
    if agg not in AGGREGATIONS:
        raise SchemaError(f"{where}: unknown aggregation {agg!r}; expected set or list")
    spec = AttributeSpec(name, of, typ, agg)
    if el.get("distinguishing_attribute_for_equality") is not None:
        warnings.warn(TaskWarning(
            f"{where}: distinguishing_attribute_for_equality is ignored: it instructs only MAT's (deprecated) "
            "reconciliation tool; scoring compares attributes as the similarity profile says"), stacklevel=4)
    if el.get("default") is not None and el.get("default_is_text_span") == "yes":
        raise SchemaError(f"{where}: default and default_is_text_span cannot be combined")
    if el.get("default") is not None:
        if typ == "annotation":
            raise SchemaError(f"{where}: annotation attributes cannot have a default")
        spec.default = _parse_value(cast(str, el.get("default")), typ, where)   # not None: checked above
    if el.get("default_is_text_span") == "yes":
        if typ not in ("int", "string", "float"):
            raise SchemaError(f"{where}: default_is_text_span needs an int, string or float attribute")
        spec.default_is_text_span = True
    rng = el.find("range")
    if rng is not None:
        if typ not in ("int", "float"):
            raise SchemaError(f"{where}: <range> is only for int and float attributes")
        lo = rng.get("from")
        hi = rng.get("to")
        bounds = (None if lo is None else _parse_value(lo, typ, where),
                  None if hi is None else _parse_value(hi, typ, where))
        if bounds[0] is not None and bounds[1] is not None and bounds[0] > bounds[1]:
            raise SchemaError(f"{where}: <range from={lo!r} to={hi!r}> is empty")
        spec.range = bounds
    choices = el.findall("choice")
    if choices:
        if typ not in ("string", "int"):
            raise SchemaError(f"{where}: <choice> is only for string and int attributes")
        if typ == "int" and rng is not None:
            raise SchemaError(f"{where}: <choice> and <range> cannot both be given for an int attribute")
        values = []
        effs = {}
        for ch in choices:
            v = _parse_value((ch.text or "").strip(), typ, where)
            values.append(v)
            if ch.get("effective_label"):
                effs[v] = cast(str, ch.get("effective_label"))
        if effs and len(effs) != len(values):
            raise SchemaError(f"{where}: if one <choice> has an effective_label, all must")
        spec.choices = tuple(values)
        spec.effective_labels = effs
    restrictions = []
    for lr in el.findall("label_restriction"):
        conds = []
        attrs_el = lr.find("attributes")
        if attrs_el is not None:
            conds = sorted(attrs_el.attrib.items())
        restrictions.append((lr.get("label", ""), tuple(conds)))
    if typ == "annotation" and not restrictions:
        raise SchemaError(f"{where}: an annotation attribute needs at least one <label_restriction>")
    if restrictions and typ != "annotation":
        raise SchemaError(f"{where}: <label_restriction> is only for annotation attributes")
    spec.label_restrictions = tuple(restrictions)
    for label in of:
        if label not in labels:
            raise SchemaError(f"{where}: of_annotation names {label!r}, which is not declared")
        if name in labels[label].attributes:
            raise SchemaError(f"{where}: declared twice for {label!r}")
        if spec.default_is_text_span and not labels[label].spanned:
            raise SchemaError(f"{where}: default_is_text_span on spanless label {label!r}")
        labels[label].attributes[name] = spec


def _check_restrictions(task: Task) -> None:
    for spec in task.labels.values():
        for attr in spec.attributes.values():
            for label, conds in attr.label_restrictions:
                if label not in task.labels and label not in task.effective:
                    raise SchemaError(f"{task.source}: attribute {attr.name!r} restricts to unknown label {label!r}")
                target = task.labels[task.true_label(label)]
                for k, _ in conds:
                    a = target.attributes.get(k)
                    if a is None or not a.choices:
                        raise SchemaError(f"{task.source}: label restriction {label}[{k}=…] on {attr.name!r}: "
                                          f"{k!r} must be a choice attribute of {target.label!r}")
            if attr.label_restrictions:
                # coerce condition values to the attribute types
                fixed = []
                for label, conds in attr.label_restrictions:
                    target = task.labels[task.true_label(label)]
                    fixed.append((label, tuple((k, _parse_value(v, target.attributes[k].type, attr.name))
                                               for k, v in conds)))
                attr.label_restrictions = tuple(fixed)


def _known_labels(task: Task, names: tuple[str, ...], where: str) -> tuple[str, ...]:
    for n in names:
        if n not in task.labels:
            raise SchemaError(f"{where}: unknown true label {n!r}"
                              + (" (an effective label; profiles use true labels)" if n in task.effective else ""))
    return names


def _parse_similarity(el: Element, task: Task, source: str) -> SimilarityProfileSpec:
    name = el.get("name")
    where = f"{source}: similarity profile {name or '<default>'}"
    prof = SimilarityProfileSpec(name)
    seen: set[str] = set()
    for st in el.findall("stratum"):
        labels = _known_labels(task, _split(st.get("true_labels")), where)
        for lbl in labels:
            if lbl in seen:
                raise SchemaError(f"{where}: label {lbl!r} appears in two strata")
            seen.add(lbl)
        prof.strata.append(labels)
    for tp in el.findall("tag_profile"):
        labels = _known_labels(task, _split(tp.get("true_labels")), where)
        if not labels:
            raise SchemaError(f"{where}: <tag_profile> without true_labels")
        equivs: dict[str, tuple[str, ...]] = {}
        for eq in tp.findall("attr_equivalences"):
            equivs[eq.get("name", "")] = _split(eq.get("attrs") or eq.get("equivalences"))
        dims = []
        for d in tp.findall("dimension"):
            params = {k: v for k, v in d.attrib.items() if k not in ("name", "weight", "method")}
            try:
                weight = float(d.get("weight", ""))
            except ValueError:
                raise SchemaError(f"{where}: dimension {d.get('name')!r} needs a numeric weight") from None
            if not math.isfinite(weight) or weight < 0:
                raise SchemaError(f"{where}: dimension {d.get('name')!r} has weight {d.get('weight')!r}; weights are "
                                  "finite and not negative (the similarity is their weighted mean)")
            if not d.get("name"):
                raise SchemaError(f"{where}: <dimension> without a name")
            for param in ("true_residue", "overlap_match_lower_bound", "overlap_mismatch_upper_bound"):
                if param in params:
                    try:
                        value = float(params[param])
                    except ValueError:
                        value = float("nan")
                    if not 0.0 <= value <= 1.0:
                        raise SchemaError(f"{where}: dimension {d.get('name')!r}: {param}={params[param]!r} must be a "
                                          "number from 0 to 1")
            dims.append(DimensionSpec(cast(str, d.get("name")), weight, d.get("method"), params))   # named: checked
        if sum(d.weight for d in dims) <= 0:
            raise SchemaError(f"{where}: tag profile for {', '.join(labels)} has a total weight of 0; give at least "
                              "one dimension a positive weight")
        prof.tag_profiles.append(TagProfileSpec(labels, dims, equivs))
    return prof


def _parse_score(el: Element, task: Task, source: str) -> ScoreProfileSpec:
    name = el.get("name")
    where = f"{source}: score profile {name or '<default>'}"
    prof = ScoreProfileSpec(name)
    for a in el.findall("aggregation"):
        prof.aggregations.append((a.get("name") or ",".join(_split(a.get("true_labels"))),
                                  _known_labels(task, _split(a.get("true_labels")), where)))
    for a in el.findall("attr_decomposition"):
        prof.attr_decompositions.append((_split(a.get("attrs")),
                                         _known_labels(task, _split(a.get("true_labels")), where)))
    for a in el.findall("partition_decomposition"):
        if not a.get("method"):
            raise SchemaError(f"{where}: <partition_decomposition> needs a method")
        prof.partition_decompositions.append((cast(str, a.get("method")),   # given: checked above
                                              _known_labels(task, _split(a.get("true_labels")), where)))
    lim = el.find("label_limitation")
    if lim is not None:
        prof.label_limitation = _known_labels(task, _split(lim.get("true_labels")), where)
    return prof
