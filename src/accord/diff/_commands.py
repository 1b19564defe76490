"""GATE's modes as Python functions: ``accord.qa`` (Corpus QA), ``accord.gate_diff`` (the Annotation Diff over a
corpus) and ``accord.benchmark`` (a key, a system before and after a change): each reads its inputs, makes them meet
and returns a :class:`~accord.result.Result`."""

from __future__ import annotations

import inspect
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import OptionError
from ..pipeline._inputs import inputs_block, is_path, load_side, meet_sides

PathLike = str | os.PathLike

__all__ = ['qa', 'gate_diff', 'benchmark', 'types_and_features', 'common_types']


def qa(key: PathLike | Any, response: PathLike | Any, *, measures: Sequence[str] | None = None, beta: float = 1.0,
       types: Sequence[str] | None = None, features: Sequence[str] | None = (), pairing: str = "gate",
       compare_as_strings: bool = False, allow_missing: str | None = None, bdm: PathLike | Any = None,
       format: str | None = None, key_set: str | None = None, response_set: str | None = None,
       command: str = "qa", discontinuous: str = "fragments", all_types: bool | None = None,
       hide_set: str | None = None, error_rate: bool = False, fp_per: str | None = None) -> Any:
    """GATE's Corpus QA (``accord qa``; ``accord diff`` with ``command="diff"``).

    Parameters
    ----------
    key, response : path or Corpus
    measures : sequence of str, optional
        Of ``strict``, ``lenient``, ``average`` and the ``-bdm`` ones (default: strict, lenient, average;
        with ``bdm``: strict, lenient, strict-bdm, lenient-bdm).
    types, features, pairing, compare_as_strings, allow_missing
        As :func:`accord.diff.diff_corpora`.
    bdm : path or BdmTable, optional
        A BDM score file, for the BDM measures.
    all_types : bool, optional
        Without ``types``: compare every type of either side (True; the default of ``diff`` and with ``bdm``), or
        only the types both sides have (False; the default of ``qa``, as GATE's Corpus QA lists them), with a
        warning naming the types left out.
    hide_set : str, optional
        The annotation set of the key's GATE XML files holding what is already adjudicated (``accord adjudicate
        --set-name``): rows whose key or response it holds are left out (:func:`accord.diff.hide_adjudicated`).
    error_rate : bool
        Add GATE's error rate, ``1 - precision`` (user guide 10.1.3), of every measure.
    fp_per : {"token", "sentence"}, optional
        Add GATE's false positives per token or per sentence (10.8: spurious / c, c the documents' tokens or
        sentences, :func:`accord.diff.document_constant`), and the count of them.

    Returns
    -------
    Result
        One measure per GATE measure over the same counts; labels are annotation types.
    """
    from ..diff import diff_corpora, parse_measure
    from ..diff._diff import document_constants
    from ..diff._result import diff_result
    from ..result import GateKind

    GateKind(fp_per=fp_per)     # an unknown unit refused before the inputs are read
    table = None
    if bdm is not None:
        from ..bdm import read_bdm_file

        table = read_bdm_file(bdm) if is_path(bdm) else bdm
    names = measures or (["strict", "lenient", "strict-bdm", "lenient-bdm"] if table is not None
                         else ["strict", "lenient", "average"])
    chosen = tuple(dict.fromkeys(parse_measure(m) for m in names))
    if table is None and any(m.partition("@")[0].endswith("-bdm") for m in chosen):
        raise OptionError("the BDM measures need --bdm FILE (a BDM score file; see accord bdm)")
    k, r = meet_sides((load_side(key, format, key_set, discontinuous=discontinuous),
                  load_side(response, format, response_set, "pred", discontinuous)), (key, response))
    if not types and table is None and not (command == "diff" if all_types is None else all_types):
        types = common_types(k, r)     # None when both sides have the same types
    cd = diff_corpora(k, r, types=types or None, features=features, pairing=pairing,
                      compare_as_strings=compare_as_strings, allow_missing=allow_missing, bdm=table)
    extra: dict[str, Any] = {}
    if hide_set is not None:
        from ..diff import hide_adjudicated

        if table is not None:
            raise OptionError("--hide-set and --bdm cannot be combined (the BDM credit is computed over all rows)")
        if not is_path(key):
            raise OptionError("--hide-set names a set of the key's GATE XML files; the key is not a file")
        cd, hidden = hide_adjudicated(cd, load_side(key, format, hide_set, discontinuous=discontinuous))
        extra = {"hide_set": hide_set, "hidden_rows": hidden}
    if fp_per is not None:
        cd = document_constants(cd, k, r, fp_per)
    result = diff_result(cd, chosen, beta, command=command,
                         options={"types": list(cd.types), "allow_missing": allow_missing, **extra},
                         inputs=inputs_block(gold=(key, len(k)), pred=(response, len(r))), error_rate=error_rate,
                         fp_per=fp_per)
    from ..diff._result import QAResult

    if command == "qa" and isinstance(result, QAResult):
        from ..diff._present import present_in_every, present_table

        result.present = present_in_every(k, r, cd.types, key_path=key, response_path=response, format=format,
                                          key_set=key_set, response_set=response_set)
        result.add_table(present_table(result.present))
    result.source = cd
    return result


def types_and_features(types: Sequence[str] | None, feature: str | None, convention: str
                        ) -> tuple[list[str] | None, str | Mapping[str, str] | None]:
    """``--types Per:label,Org`` (GATE's ``annTypesAndFeats``, ``Per->label;Org``): the types, and the feature of each
    (``--feature`` for the types that name none); a single feature when they all share one."""
    if not types:
        return None, feature
    names, per_type = [], {}
    for entry in types:
        t, sep, f = entry.replace("->", ":").partition(":")
        if not t or (sep and not f):
            raise OptionError(f"--types {entry!r}: expected TYPE or TYPE:FEATURE")
        names.append(t)
        if sep:
            per_type[t] = f
    if not per_type:
        return names, feature
    mapping = {t: per_type.get(t, feature) for t in names}
    values = set(mapping.values())
    if len(values) == 1:
        return names, values.pop()
    if convention == "accord":
        raise OptionError("a feature per type (--types TYPE:FEATURE) needs --convention iaa or corpus-qa (the "
                          "accord convention reads one feature for every type)")
    return names, {t: f for t, f in mapping.items() if f is not None}


def common_types(key: Any, response: Any) -> list[str] | None:
    """The annotation types both sides have (GATE's Corpus QA lists only those), None when they have the same
    ones; a warning names the others. BDM measures keep every type (their credit crosses types)."""
    import warnings

    from ..errors import AccordWarning

    # spanned types: spanless ones (relations) are compared only when asked for, as the diff says
    kt = {a.label for d in key.values() for a in d.annotations if a.start is not None}
    rt = {a.label for d in response.values() for a in d.annotations if a.start is not None}
    common = sorted(kt & rt)
    if not common and kt and rt:
        warnings.warn(f"the key and the response have no annotation type in common (key: {', '.join(sorted(kt))}; "
                      f"response: {', '.join(sorted(rt))}): every type is compared, as with --all-types",
                      AccordWarning, stacklevel=3)
        return None
    left = [f"only in the key: {', '.join(sorted(kt - rt))}" if kt - rt else "",
            f"only in the response: {', '.join(sorted(rt - kt))}" if rt - kt else ""]
    if not any(left):
        return None
    warnings.warn(f"types left out, as GATE's Corpus QA compares the types both sets have ("
                  f"{'; '.join(x for x in left if x)}); --all-types compares them too", AccordWarning, stacklevel=3)
    return common


def gate_diff(key: PathLike | Any, response: PathLike | Any, **options: Any) -> Any:
    """GATE's Annotation Diff over a corpus (``accord diff``): :func:`qa` with ``command="diff"``."""
    return qa(key, response, command="diff", **options)


def _without_command(signature: inspect.Signature) -> inspect.Signature:
    return signature.replace(parameters=[p for p in signature.parameters.values() if p.name != "command"])


# the options gate_diff forwards are qa's: said in its signature, so that help() and accord.modes check them
gate_diff.__signature__ = _without_command(inspect.signature(qa))  # type: ignore[attr-defined]


def benchmark(key: PathLike | Any, before: PathLike | Any, after: PathLike | Any, *, measure: str = "average",
              beta: float = 1.0, types: Sequence[str] | None = None, features: Sequence[str] | None = (),
              pairing: str = "gate", compare_as_strings: bool = False, allow_missing: str | None = None,
              format: str | None = None, key_set: str | None = None, before_set: str | None = None,
              after_set: str | None = None, discontinuous: str = "fragments", error_rate: bool = False,
              fp_per: str | None = None) -> Any:
    """GATE's Corpus Benchmark (``accord benchmark``): one measure before and after, and what changed;
    ``error_rate`` and ``fp_per`` as :func:`qa`'s. A directory of GATE's benchmark layout (holding ``marked/`` and
    ``processed/``, subdirectories included) is read as its ``marked/`` for ``key`` and as its ``processed/`` (the
    stored run) for ``before`` or ``after`` (:func:`accord.diff._layout.read_layout`)."""
    import dataclasses

    from ..diff import parse_measure
    from ..diff._benchmark import benchmark as run
    from ..diff._diff import document_constants
    from ..diff._layout import read_layout
    from ..diff._result import benchmark_result
    from ..result import GateKind
    from ._views import change_rows

    GateKind(fp_per=fp_per)     # an unknown unit refused before the inputs are read
    chosen = parse_measure(measure)
    if chosen.endswith("-bdm"):
        raise OptionError("accord benchmark compares strict, lenient or average figures")

    # GATE's benchmark layout (a directory holding marked/ and processed/): the key its marked/, a run its processed/
    k = read_layout(key, "marked", format, key_set, discontinuous)
    k = load_side(key, format, key_set, discontinuous=discontinuous) if k is None else k
    b = read_layout(before, "processed", format, before_set, discontinuous)
    b = load_side(before, format, before_set, "pred", discontinuous) if b is None else b
    a = read_layout(after, "processed", format, after_set, discontinuous)
    a = load_side(after, format, after_set, "pred", discontinuous) if a is None else a
    k, b, a = meet_sides((k, b, a), (key, before, after), ("key", "before", "after"))
    bench = run(k, b, a, types=types or None, features=features, pairing=pairing,
                compare_as_strings=compare_as_strings, allow_missing=allow_missing)
    if fp_per is not None:
        bench = dataclasses.replace(bench, before=document_constants(bench.before, k, b, fp_per),
                                    after=document_constants(bench.after, k, a, fp_per))
    result = benchmark_result(bench, chosen, beta, change_rows(bench), options={"allow_missing": allow_missing},
                              inputs=inputs_block(gold=(key, len(k)), before=(before, len(b)), after=(after, len(a))),
                              error_rate=error_rate, fp_per=fp_per)
    result.source = bench
    return result
