"""Annotations that are already Python objects, made into a :class:`~accord.model.Corpus`.

``accord.score`` (and every function that takes a corpus) accepts, besides paths and corpora:

=========================================== ======================================================================
object                                      read as
=========================================== ======================================================================
lists of tag lists (``[["B-PER", "O"]]``)   one document, a sentence per list; integer tags with ``label_names``
spaCy ``Doc``, ``Example``, ``DocBin``      a document per ``Doc``: ``doc.ents``, or ``doc.spans[spans_key]``
a Hugging Face ``Dataset``                  token and tag columns (``ClassLabel`` names used), a sentence a row
a pandas ``DataFrame``                      rows of spans (``start, end, label``) or of token tags (``tag``)
=========================================== ======================================================================

spaCy, datasets and pandas are imported only when such an object arrives (optional extras).
"""

from ._convert import as_corpus, label_names_of, object_kind

__all__ = ["as_corpus", "label_names_of", "object_kind"]
