"""spaCy's scorers from accord: functions in spaCy's registry (``@scorers``) that a pipeline's config names, so that
``spacy train`` and ``spacy evaluate`` report accord's figures under spaCy's keys.

::

    [components.ner]
    factory = "ner"
    scorer = {"@scorers":"accord.ner_scorer.v1"}

The scorers are registered when this module is imported, and by the ``spacy_scorers`` entry point of accord's
package metadata (so that spaCy finds them in a config without an import; ``spacy evaluate --code`` with a file that
imports ``accord.spacy`` works as well). Every import of spaCy here is absolute: this module does not hide the
``spacy`` package.
"""

from ._scorers import make_ner_scorer, make_spans_scorer, score_examples

__all__ = ["make_ner_scorer", "make_spans_scorer", "score_examples"]
