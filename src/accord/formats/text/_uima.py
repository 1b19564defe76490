"""What the WebAnno TSV and the UIMA XMI readers share: one rule for a layer's label, one for its attributes.

INCEpTION exports a document as TSV or as XMI; both readers must give it the same annotations. A layer's label
is the feature asked for (``TYPE:FEATURE``), else its ``value`` feature, else the feature DKPro Core gives its
tags for its own layers (``POS`` → ``PosValue``, ``Dependency`` → ``DependencyType``, ...), else the layer's
only primitive feature, else none: the type's short name. Primitive features become string attributes as
INCEpTION writes them (``true``, ``3``); a link (slot) feature ``F`` becomes ``F``, the tuple of its roles
(``""`` for a slot without one), and ``F.targets``, the annotations its slots point to, when their layer is read
too. A reference to a layer not read is left out with one warning per file naming the option to add.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from ...errors import AccordWarning, OptionError

__all__ = [
    "DKPRO_LABELS",
    "java_string",
    "label_feature",
    "match_layer",
    "quiet_library",
    "targets_attribute",
    "warn_unread",
]

_DKPRO = "de.tudarmstadt.ukp.dkpro.core.api."
DKPRO_LABELS = {
    _DKPRO + "lexmorph.type.pos.POS": "PosValue",
    _DKPRO + "syntax.type.dependency.Dependency": "DependencyType",
    _DKPRO + "syntax.type.chunk.Chunk": "chunkValue",
    _DKPRO + "syntax.type.constituent.Constituent": "constituentType",
    _DKPRO + "coref.type.CoreferenceLink": "referenceType",
    _DKPRO + "semantics.type.SemPred": "category",
}
"""The feature DKPro Core keeps the tag in, for its layers without a ``value`` feature."""


def targets_attribute(feature: str) -> str:
    """The attribute holding the targets of link feature ``feature``."""
    return feature + ".targets"


def label_feature(type_name: str, asked: str | None, primitive: Sequence[str]) -> str | None:
    """The label feature of a layer (see the module docstring); ``primitive`` are its primitive features."""
    if asked:
        return asked
    if "value" in primitive:
        return "value"
    known = DKPRO_LABELS.get(type_name)
    if known in primitive:
        return known
    return primitive[0] if len(primitive) == 1 else None


def match_layer(name: str, names: Iterable[str], where: object) -> str | None:
    """The one type among ``names`` called ``name`` (in full or by its last parts), ``None`` if none; more than
    one is an :class:`~accord.errors.OptionError`."""
    matches = sorted({n for n in names if n == name or n.endswith("." + name)})
    if len(matches) > 1:
        raise OptionError(f"{where}: more than one layer {name!r} ({', '.join(matches)}); give its full name")
    return matches[0] if matches else None


def java_string(value: Any) -> str:
    """A primitive feature value as INCEpTION writes it in TSV (``true``, ``3``, ``0.5``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def warn_unread(path: Path, unread: Counter, chosen: Sequence[str]) -> None:
    """One warning for the references (``(type, feature, target type)`` counted) to layers not read."""
    if not unread:
        return
    parts = [f"{t.rsplit('.', 1)[-1]}.{feature} -> {target.rsplit('.', 1)[-1]}: {n}"
             for (t, feature, target), n in sorted(unread.items())]
    missing = sorted({target.rsplit(".", 1)[-1] for _, _, target in unread})
    layers = ",".join([*(c.rsplit(".", 1)[-1] for c in chosen), *missing])
    warnings.warn(AccordWarning(f"{path}: references to layers not read left out ({'; '.join(parts)}); "
                                f"read them too with --layer {layers}"), stacklevel=3)


@contextmanager
def quiet_library() -> Iterator[None]:
    """Silence the warnings of dkpro-cassis and the libraries under it (deprecations, lenient loading), never
    accord's own (:class:`~accord.errors.AccordWarning` is not filtered)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", module=r"(cassis|lxml|attr|deprecated|importlib|more_itertools)(\.|$)")
        yield
