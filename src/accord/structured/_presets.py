"""The official-scorer presets of ``accord structured --preset NAME``: each reads the task's own files and counts as
the task's official script does (:mod:`._docred`, :mod:`._biored`, :mod:`._textee`); the result's options name the
script and its commit."""

from __future__ import annotations

from typing import Any

from ..errors import OptionError

__all__ = ["PRESETS", "preset_result"]

PRESETS: dict[str, str] = {
    "docred": "DocRED / Re-DocRED: F1, Ign F1 (--train), evidence F1, intra-/inter-sentence (thunlp/DocRED's "
              "code/evaluation.py)",
    "biored": "BioRED: entity pair, pair + relation type, and each with novelty (ncbi/bert_gt's "
              "src/run_eval_biored.py), PubTator files",
    "textee": "TextEE: Tri-I, Tri-C, Arg-I, Arg-C, attached and not (ej0cl6/TextEE's TextEE/scorer.py), TextEE's "
              "JSON lines",
}
"""Preset name -> what it reproduces."""


def preset_result(preset: str, key: Any, response: Any, *, train: Any = None) -> Any:
    """The result of ``preset`` (a name of :data:`PRESETS`) for the key and response files."""
    if preset not in PRESETS:
        from .._support.names import unknown_message

        raise OptionError(unknown_message(preset, PRESETS, "preset", "--preset", from_input=False))
    from ..pipeline._inputs import inputs_block  # here: the command line reads PRESETS at every start

    if train is not None and preset != "docred":
        raise OptionError(f"--train applies to --preset docred (Ign F1), not to --preset {preset}")
    if preset == "docred":
        from ..formats.records.docred import read_docred_facts, read_docred_key
        from ._docred import docred_counts, docred_result, train_facts

        docs = read_docred_key(key)
        facts = read_docred_facts(response)
        seen = train_facts(read_docred_key(train)) if train is not None else None
        counts = docred_counts(docs, facts, seen, key_path=key, response_path=response)
        result = docred_result(counts, train_path=train, inputs=inputs_block(
            gold=(key, len(docs)), pred=(response, len({f.title for f in facts}))))
        result.source = counts
        return result
    if preset == "textee":
        from ..formats.records.textee import read_textee
        from ._textee import textee_result

        k, r = read_textee(key), read_textee(response)
        result = textee_result(k, r, key_path=key, response_path=response,
                               inputs=inputs_block(gold=(key, len(k.windows)), pred=(response, len(r.windows))))
        return result
    from ..formats.records.pubtator import read_pubtator
    from ._biored import biored_result

    gold, pred = read_pubtator(key), read_pubtator(response)
    return biored_result(gold, pred, response_path=response,
                         inputs=inputs_block(gold=(key, len(gold)), pred=(response, len(pred))))
