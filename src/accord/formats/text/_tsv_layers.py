"""The layers of a WebAnno TSV file's header (TSV 3 and TSV 2): its annotation columns and the layers chosen."""

from __future__ import annotations

import warnings
from pathlib import Path

from ...errors import AccordWarning, OptionError
from ._uima import label_feature, match_layer

__all__ = ["Col", "declared_layers", "choose_layers", "NAMED_ENTITY", "TOKEN"]

NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"
TOKEN = "de.tudarmstadt.ukp.dkpro.core.api.segmentation.type.Token"


class Col:
    """One annotation column: its layer (``kind``: span, relation, chain), its role and feature."""

    __slots__ = ("feature", "kind", "layer", "role", "target")

    def __init__(self, layer: str, kind: str, role: str, feature: str = "", target: str = ""):
        self.layer, self.kind, self.role, self.feature, self.target = layer, kind, role, feature, target


def declared_layers(cols: list[Col]) -> dict[str, str]:
    """Each declared layer and its kind, in header order."""
    out: dict[str, str] = {}
    for c in cols:
        out.setdefault(c.layer, c.kind)
    return out


def choose_layers(spec: str | None, cols: list[Col], p: Path) -> list[tuple[str, str | None]]:
    """``(layer, label feature)`` for each layer asked for that the file declares (see
    :mod:`accord.formats.text.webanno_tsv`)."""
    layers = declared_layers(cols)
    out = []
    missing = []
    for item in (spec or NAMED_ENTITY).split(","):
        name, _, feature = item.strip().partition(":")
        layer = match_layer(name, layers, p)
        if layer is None:
            missing.append(name)
            continue
        primitive = [c.feature for c in cols if c.layer == layer and c.role == "feature"]
        if feature and feature not in primitive:
            raise OptionError(f"{p}: layer {layer!r} has no feature {feature!r} (features: "
                              f"{', '.join(primitive) or 'none'})")
        out.append((layer, label_feature(layer, feature or None, primitive)))
    if missing and layers:
        shown = ", ".join(t.rsplit(".", 1)[-1] for t in layers)
        how = ("choose the layer with --layer (accord score and convert; other commands: accord convert the file "
               "with --layer first)") if spec is None else "INCEpTION writes only the layers a document annotates"
        warnings.warn(AccordWarning(f"{p}: no layer {', '.join(m.rsplit('.', 1)[-1] for m in missing)} in this file "
                                    f"(it declares {shown}): read as no such annotations; {how}"), stacklevel=3)
    return out
