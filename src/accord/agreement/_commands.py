"""Agreement between annotators as a Python function (``accord.agree``): ratings tables, annotation sets under
accord's or GATE's conventions, and units (γ, unitizing α), each into an agreement result."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..diff._commands import types_and_features
from ..errors import OptionError
from ..pipeline._inputs import is_path, meet_sides

PathLike = str | os.PathLike

__all__ = ['agree', 'annotation_sets']


def annotation_sets(inputs: Sequence[Any], sets: Sequence[str] | None, format: str | None, discontinuous: str
                     ) -> tuple[list[str], list[Any], dict[str, Any]]:
    """The annotators of ``agree``: ``(names, corpora, inputs block)`` from one INPUT per annotator (paths or
    corpora), or from the ``sets`` of one GATE XML input."""
    from ..formats import read
    from ..model import Corpus

    if sets is not None:
        if len(inputs) != 1:
            raise OptionError("--sets names the annotation sets of one INPUT (a GATE XML file or directory)")
        names = list(sets)
        corpora = [read(inputs[0], format=format, annotation_set=n, discontinuous=discontinuous) for n in names]
        sources = [[str(inputs[0])]] * len(names)
    else:
        from .._support.io import shown_name  # standard input as <stdin>, not its temporary copy

        names = [shown_name(str(x)) if is_path(x) else (x.name or f"annotator {k + 1}") for k, x in enumerate(inputs)]
        corpora = [x if isinstance(x, Corpus) else read(x, format=format, discontinuous=discontinuous) for x in inputs]
        sources = [[shown_name(str(x))] if is_path(x) else _corpus_files(x) for x in inputs]
    if len(set(names)) != len(names):
        raise OptionError("the same annotation set is given twice")
    if sets is None:
        corpora = meet_sides(corpora, inputs, [f"annotator {k + 1}" for k in range(len(names))])
    from ..pipeline import check_label_case, corpus_names

    check_label_case(corpus_names(corpora, attributes=False)[0])     # PER and per: two categories, rarely meant
    return names, corpora, {n: {"sources": s, "documents": len(c)} for n, s, c in zip(names, sources, corpora)}


def _corpus_files(corpus: Any) -> list[str]:
    """The files an annotator's corpus was read from (a project export's annotator: its files in the export), or
    ``<Corpus>`` for one made in Python."""
    files = getattr(corpus, "files", None)
    return sorted({str(f) for f in files.values()}) if isinstance(files, dict) and files else ["<Corpus>"]


def _refuse_gamma_only(time_limit: float | None, jobs: int | str | None) -> None:
    """Refuse γ's ``time_limit`` and ``jobs`` given where no γ is computed."""
    if time_limit is not None or jobs not in (None, 1, "1"):
        raise OptionError(f"{'--time-limit (time_limit=)' if time_limit is not None else '--jobs (jobs=)'} "
                          "applies to --unitizing gamma")


def _unitizing(inputs: Any, measure: str, *, types: Sequence[str] | None, feature: str | None, format: str | None,
               sets: Sequence[str] | None, discontinuous: str, samples: int, precision: float | str | None,
               sampler: str, seed: int | None, dissimilarity: Any, categorical: str | None,
               refused: Mapping[str, Any], span_measure: str | None = None, pairing: str = "gate",
               disputes: int | None = None, time_limit: float | None = None, jobs: int | str = 1) -> Any:
    """``agree(..., unitizing=...)``: γ or Krippendorff's unitizing alphas."""
    from dataclasses import replace

    from ..agreement._continua import continua_from_corpora, read_units_table
    from ..agreement._dissimilarity import Dissimilarity, categorical_matrix
    from ..agreement._unitizing_result import UNITIZING_MODES, UnitizingResult

    if measure not in UNITIZING_MODES:
        raise OptionError(f"--unitizing takes {' or '.join(UNITIZING_MODES)}, got {measure!r}")
    from ..parallel._run import resolve_jobs

    processes = resolve_jobs(jobs)       # (refused before any input is read)
    given = [name for name, value in refused.items() if value]
    if given:
        raise OptionError(f"{', '.join(given)} apply to coefficients over items, not to --unitizing")
    table = is_path(inputs) and sets is None and Path(str(inputs)).is_file() and \
        Path(str(inputs)).suffix.lower() in (".csv", ".tsv")
    if table:
        if types or feature:
            raise OptionError("--types and --feature choose annotations of annotation sets; a units table gives "
                              "its categories itself")
        units = read_units_table(str(inputs))
        where = {a: {"sources": [str(inputs)], "documents": len(units.documents)} for a in units.annotators}
        corpora = names = None
    else:
        paths = [inputs] if is_path(inputs) else list(inputs)
        if sets is None and len(paths) < 2:
            raise OptionError("--unitizing needs one annotation set per annotator (two or more INPUTs), --sets "
                              "for one GATE XML input, or one CSV/TSV table of units")
        names, corpora, where = annotation_sets(paths, sets, format, discontinuous)
        units = continua_from_corpora(corpora, names, types=list(types) if types else None, feature=feature)
    options: dict[str, Any] = {"unitizing": measure, "types": list(types) if types else None, "feature": feature}

    def page_parts(result: UnitizingResult) -> UnitizingResult:
        """The page's parts (``--html``): the span agreement of annotation sets, the disputed stretches."""
        if span_measure is not None and corpora is not None and names is not None:
            from ..agreement._spans import span_agreement

            result.source = span_agreement(corpora, names, types=types or None, feature=feature, pairing=pairing)
        if disputes is not None:
            from ..agreement._disputes import disputes_from_corpora, disputes_from_units

            result.disputes = disputes_from_units(units, disputes) if corpora is None or names is None else \
                disputes_from_corpora(corpora, names, types=types or None, feature=feature, limit=disputes)
        return result

    if measure == "alpha-u":
        _refuse_gamma_only(time_limit, jobs)
        from ..agreement._unitizing_alpha import unitizing_alpha_tables

        alpha = {d: unitizing_alpha_tables(units.take_document(i)) for i, d in enumerate(units.documents)}
        return page_parts(UnitizingResult(measure, units, alpha=alpha, options=options, inputs=where))
    from ..agreement._gamma import DEFAULT_SEED, gamma_tables, precision_level

    diss = dissimilarity or Dissimilarity()
    if categorical not in (None, "absolute"):
        diss = replace(diss, matrix=categorical_matrix(categorical, units.categories))
    tables, alignment = gamma_tables(units, diss, samples=samples, precision=precision, sampler=sampler, seed=seed,
                                     time_limit=time_limit, jobs=processes)
    options.update(dissimilarity={**diss.to_dict(units.categories), "categorical_kind": categorical or "absolute"},
                   samples=samples, precision=precision_level(precision), sampler=sampler,
                   seed=DEFAULT_SEED if seed is None else seed)
    return page_parts(UnitizingResult(measure, units, gamma=tables, alignment=alignment, options=options,
                                      inputs=where))


def agree(inputs: PathLike | Sequence[PathLike | Any], *, items: str | None = None, raters: str | None = None,
          labels: str | None = None, categories: Sequence[str] | None = None, level: str = "nominal",
          types: Sequence[str] | None = None, feature: str | None = None, format: str | None = None,
          sets: Sequence[str] | None = None, convention: str = "accord", span_measure: str | None = None,
          pairing: str = "gate", discontinuous: str = "fragments", bdm: PathLike | Any = None,
          unitizing: str | None = None, samples: int = 30, precision: float | str | None = None,
          sampler: str = "statistical", seed: int | None = None, dissimilarity: Any = None,
          categorical: str | None = None, time_limit: float | None = None, jobs: int | str = 1,
          annotators: Sequence[str] | None = None, layer: str | None = None, disputes: int | None = None,
          coefficients: Sequence[str] | None = None, reference: str | None = None, candidate: str | None = None,
          epsilon: float = 0.2, alt_q: float = 0.05, alt_scoring: str = "accuracy", alt_min_items: int = 30,
          verbosity: int = 1) -> Any:
    """Agreement between annotators (``accord agree``).

    Parameters
    ----------
    inputs : path or sequence
        A path: a ratings table (CSV/TSV, wide or long with ``items``, ``raters``, ``labels``), a project export
        holding several annotators (:mod:`accord.formats.projects`: an INCEpTION export folder...), or, with
        ``sets``, a GATE XML file or directory holding one annotation set per annotator. A sequence: one
        annotation set per annotator (paths or corpora).
    annotators : sequence of str, optional
        A project export: the annotators compared (default: every annotator's own work).
    layer : str, optional
        A project export of WebAnno TSV or XMI files: the layers read (``TYPE[:FEATURE],...``).
    types, feature, convention
        Annotation sets: the labels whose spans are the items, the attribute holding the category, and
        ``accord``, GATE's ``iaa`` or ``corpus-qa`` convention.
    span_measure : {"strict", "lenient", "average"}, optional
        Also compute the pairwise span agreement (F of Annotation Diffs) under this measure.
    bdm : path or BdmTable, optional
        Annotation sets under a GATE convention: also the BDM-based agreement of GATE's IAA plugin
        (:mod:`accord.agreement._bdm_iaa`), concepts being the ``feature`` values (or the types).

    unitizing : {"gamma", "alpha-u"}, optional
        Agreement on units whose boundaries may differ: Mathet et al.'s γ (with γ-cat, γ-k and the
        optimal alignment) or Krippendorff's unitizing alphas. The inputs are annotation sets, or one
        CSV/TSV table of units (annotator, document, start, end, category). ``samples``,
        ``precision``, ``sampler`` and ``seed`` set γ's expected disorder; ``dissimilarity`` (an
        :class:`accord.agreement.Dissimilarity`) or ``categorical`` (``absolute``, ``levenshtein``,
        ``numerical`` or a CSV of distances) its dissimilarity. ``time_limit`` (CPU seconds, default
        :data:`accord.agreement._colgen.COLGEN_SECONDS`) bounds γ's column generation over units too dense to list
        their candidate alignments (the observed continuum and every sample together); past it γ is refused, never
        approximated. ``jobs`` (a whole number, or ``"auto"``: one per core) aligns the documents and the random
        continua of the expected disorder in that many processes, in groups of whole documents, with the figures
        of ``jobs=1``; each process may spend what is left of ``time_limit``
        (:mod:`accord.agreement._alignment_jobs`).
    disputes : int, optional
        Also find where the annotators disagree (``result.disputes``, the agreement page's disagreement browser,
        :func:`accord.agreement._disputes.disputes_view`): the items of a ratings table, the stretches of
        overlapping spans of annotation sets and units, listing at most this many (the others counted). With
        ``unitizing`` and annotation sets, ``span_measure`` also gives the span agreement of the page's annotator
        matrix (``result.source``).

    coefficients : sequence of str, optional
        Ratings tables and annotation sets under the accord convention: coefficients added to the report (with
        intervals under ``bootstrap``): ``weighted_kappa_linear``, ``weighted_kappa_quadratic``,
        ``gwet_ac2_<weights>`` and ``fleiss_kappa_<weights>`` (linear, quadratic, ordinal, radical, ratio,
        circular, bipolar),
        ``krippendorff_alpha_masi``, ``krippendorff_alpha_jaccard`` (set-valued labels, ``a|b``) and ``icc`` (the six
        intraclass correlations of numeric ratings); :data:`accord.agreement._measures.EXTRA_COEFFICIENTS`.
    reference : str, optional
        An annotator (a pre-annotation or a model): each other annotator's two-rater coefficients with it
        (``result.reference``).
    candidate, epsilon, alt_q, alt_scoring, alt_min_items
        The alternative annotator test of the annotator ``candidate`` against the others
        (:func:`accord.agreement.alt_test`; ``result.alt_test``): its margin ``ε``, the false discovery rate of the
        Benjamini–Yekutieli correction, the alignment score (``accuracy`` or ``neg_rmse``) and the fewest items an
        annotator needs to be tested.
    verbosity : {0, 1, 2}
        Under a GATE convention, the IAA plugin's level: 0 the corpus figures, 1 (default) each document's too, 2
        also each document's confusion matrix and specific agreements of every pair. A set named ``consensus``
        is kept apart from the annotators (``against_consensus``;
        :func:`accord.agreement._gate_summary.gate_summary_of`).

    Returns
    -------
    AgreementResult, or UnitizingResult with ``unitizing``
    """
    measured = {"--coefficients": coefficients, "--reference": reference, "--candidate": candidate}
    result = _agree(inputs, items=items, raters=raters, labels=labels, categories=categories, level=level,
                    types=types, feature=feature, format=format, sets=sets, convention=convention,
                    span_measure=span_measure, pairing=pairing, discontinuous=discontinuous, bdm=bdm,
                    unitizing=unitizing, samples=samples, precision=precision, sampler=sampler, seed=seed,
                    time_limit=time_limit, jobs=jobs, dissimilarity=dissimilarity, categorical=categorical,
                    annotators=annotators, layer=layer,
                    disputes=disputes, extras=coefficients, measured=measured, verbosity=verbosity)
    _reference_and_alt_test(result, measured, level, epsilon=epsilon, q=alt_q, scoring=alt_scoring,
                            min_items=alt_min_items)
    return result


def _reference_and_alt_test(result: Any, measured: Mapping[str, Any], level: str, *, epsilon: float, q: float,
                            scoring: str, min_items: int) -> None:
    """``reference`` and ``candidate`` of :func:`agree`: kept on the result (``result.reference``,
    ``result.alt_test``)."""
    reference, candidate = measured["--reference"], measured["--candidate"]
    if reference is None and candidate is None:
        return
    from ..agreement._alt_test import alt_test
    from ..agreement._ratings import Ratings
    from ..agreement._reference import reference_agreement

    codes, categories, raters = result.pooled_codes()
    extras = list(result.options.get("coefficients") or ())
    if reference is not None:
        result.reference = reference_agreement(codes, categories, raters, reference, extras, level)
        result.options["reference"] = str(reference)
    if candidate is not None:
        import warnings

        from ..errors import AgreementWarning

        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", AgreementWarning)
            result.alt_test = alt_test(Ratings(codes, categories, raters), candidate, epsilon=epsilon, q=q,
                                       scoring=scoring, min_items=min_items)
        result.warnings += [str(w.message) for w in caught]
        result.options.update(candidate=str(candidate), epsilon=epsilon, alt_q=q, alt_scoring=scoring,
                              alt_min_items=min_items)


def _agree(inputs: Any, *, items: str | None, raters: str | None, labels: str | None,
           categories: Sequence[str] | None, level: str, types: Sequence[str] | None, feature: str | None,
           format: str | None, sets: Sequence[str] | None, convention: str, span_measure: str | None, pairing: str,
           discontinuous: str, bdm: Any, unitizing: str | None, samples: int, precision: float | str | None,
           sampler: str, seed: int | None, dissimilarity: Any, categorical: str | None,
           annotators: Sequence[str] | None, layer: str | None, disputes: int | None,
           time_limit: float | None = None, jobs: int | str = 1,
           extras: Sequence[str] | None, measured: Mapping[str, Any], verbosity: int = 1) -> Any:
    """:func:`agree` without the reference and the alt-test (``measured``: those options, refused where they do
    not apply)."""
    from ..agreement._measures import extra_names
    from ..agreement._sources import project_sides

    wanted = extra_names(extras)
    given = [flag for flag, value in measured.items() if value]
    if given and convention != "accord":
        raise OptionError(f"{', '.join(given)} apply under --convention accord (GATE's {convention} convention "
                          "averages over pairs and documents)")

    project = project_sides(inputs, annotators, layer=layer)    # None: not one project export
    if project is not None:
        inputs = project
    elif layer is not None:
        raise OptionError("--layer (layer=) applies to a project export given as the one INPUT; read other "
                          "WebAnno TSV or XMI files with accord convert --layer first")
    if unitizing is None:
        _refuse_gamma_only(time_limit, jobs)
    if unitizing is not None:
        return _unitizing(inputs, unitizing, types=types, feature=feature, format=format, sets=sets,
                          discontinuous=discontinuous, samples=samples, precision=precision, sampler=sampler,
                          time_limit=time_limit, jobs=jobs,
                          seed=seed, dissimilarity=dissimilarity, categorical=categorical,
                          span_measure=span_measure, pairing=pairing, disputes=disputes,
                          refused={"--items": items, "--raters": raters, "--labels": labels,
                                   "--categories": categories, "--bdm": bdm,
                                   "--convention": None if convention == "accord" else convention,
                                   "--level": None if level == "nominal" else level, **measured})
    from ..agreement._result import AgreementResult
    from ..agreement._sources import ratings_from_corpora, read_ratings_table
    from ..agreement._stats import agreement_stats

    options: dict[str, Any] = {"level": level}
    if wanted:
        options["coefficients"] = wanted
    if is_path(inputs) and sets is None:
        path = inputs
        if types or feature or convention != "accord":
            raise OptionError("--types, --feature, --sets and --convention apply to annotation sets; give "
                              "one INPUT per annotator, or --sets for one GATE XML input")
        table = read_ratings_table(path, items=items, raters=raters, labels=labels, categories=categories)
        options.update(items=items, raters=raters, labels=labels,
                       categories=list(categories) if categories else None)
        rated = AgreementResult("ratings", stats={str(path): agreement_stats(table)}, options=options,
                                inputs={"ratings": {"sources": [str(path)], "documents": 1}},
                                ratings={str(path): table})
        if disputes is not None:
            from ..agreement._disputes import disputes_from_ratings
            from ..agreement._paired import table_item_ids

            ids = table_item_ids(path, items=items, raters=raters, labels=labels)
            rated.disputes = disputes_from_ratings(table, ids, disputes)
        return rated
    if items or raters or labels:
        raise OptionError("--items, --raters and --labels apply to one ratings table, not to annotation sets")
    inputs = [inputs] if is_path(inputs) else list(inputs)
    names, corpora, where = annotation_sets(inputs, sets, format, discontinuous)
    types, features = types_and_features(types, feature, convention)
    options.update(types=list(types) if types else None,
                   feature=dict(features) if isinstance(features, Mapping) else features, convention=convention)
    spans = span = None
    if span_measure is not None:
        from ..agreement._result import SpanPart
        from ..agreement._spans import span_agreement

        spans = span_agreement(corpora, names, types=types or None, feature=features, pairing=pairing)
        span = SpanPart(spans.measures(span_measure), span_measure, 1.0, spans.types, spans.feature)
        options.update(span_measure=span_measure, pairing=pairing)
    if bdm is not None and convention == "accord":
        raise OptionError("--bdm on agree gives GATE's IAA plugin's BDM figures: use --convention iaa or corpus-qa")
    if verbosity != 1 and convention == "accord":
        raise OptionError("--verbosity is GATE's IAA plugin's level: it applies under --convention iaa or corpus-qa")
    if convention != "accord":
        if not types:
            raise OptionError(f"--convention {convention} needs --types (and --feature for corpus-qa)")
        from ..agreement._gate_summary import gate_summary_of

        if verbosity not in (0, 1, 2):
            raise OptionError(f"--verbosity is GATE's IAA level 0, 1 or 2; got {verbosity}")
        summary = gate_summary_of(corpora, names, list(types), features, convention, verbosity=verbosity)
        summary["verbosity"] = verbosity
        if "against_consensus" in summary:     # the consensus set kept apart from every IAA figure below too
            kept = [(c, n) for c, n in zip(corpora, names) if n != summary["against_consensus"]["consensus"]]
            corpora, names = [c for c, _ in kept], [n for _, n in kept]
        if convention == "iaa" and len(names) > 2:
            from ..agreement._majority import against_majority

            summary["against_majority"] = against_majority(corpora, names, list(types), features)
        if bdm is not None:
            from ..agreement._bdm_iaa import bdm_agreement
            from ..bdm import read_bdm_file

            bdm_table = read_bdm_file(bdm) if is_path(bdm) else bdm
            summary["bdm"] = bdm_agreement(corpora, names, bdm_table, list(types), features)
            options.update(bdm=str(bdm) if is_path(bdm) else "<BdmTable>")
        if convention == "iaa":     # the plugin's F-measures, "micro averaged over documents"
            from ..agreement._spans import span_agreement

            summary["f_measures"] = span_agreement(corpora, names, types=types, feature=features,
                                                   pairing="gate").gate_iaa_f()
        result = AgreementResult(convention, summary=summary, options=options, inputs=where, span=span)
    else:
        # the accord convention: one feature (_types_and_features refuses more)
        assert not isinstance(features, Mapping)
        from ..agreement._document_labels import all_document_labelled, document_label_tables

        if all_document_labelled(corpora, names):     # classes of whole documents: an item per document
            if types or features:
                raise OptionError("--types and --feature choose spans; classes of whole documents are the categories")
            tables = document_label_tables(corpora, names)
            options.update(items="documents")
        else:
            tables = ratings_from_corpora(corpora, names, type=types, feature=features)
        if not tables:
            raise OptionError("the annotation sets hold no documents")
        result = AgreementResult("annotation-sets", stats={d: agreement_stats(t) for d, t in tables.items()},
                                 options=options, inputs=where, span=span, ratings=tables)
    result.source = spans
    if disputes is not None:
        from ..agreement._disputes import disputes_from_corpora

        result.disputes = disputes_from_corpora(corpora, names, types=types or None, feature=features, limit=disputes)
    return result
