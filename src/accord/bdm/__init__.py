"""The balanced distance metric (BDM): how close two ontology concepts are, as partial credit.

Read a hierarchy (:func:`read_taxonomy` for a plain ``concept<TAB>superclass`` file,
:func:`read_ontology` for OWL/RDF through rdflib), compute the BDM of its concept pairs
(:func:`bdm_scores`), write or read GATE's BDM score file (:func:`write_bdm_file`,
:func:`read_bdm_file`), and pass the table to :func:`accord.diff.diff_corpora` to credit a
response whose concept is close to the key's (the ``strict-bdm``, ``lenient-bdm`` and
``average-bdm`` measures).
"""

from ._compute import BdmScore, BdmTable, bdm_scores, bdm_value
from ._file import read_bdm_file, write_bdm_file
from ._taxonomy import Taxonomy, read_hierarchy, read_ontology, read_taxonomy

__all__ = ["Taxonomy", "read_taxonomy", "read_ontology", "read_hierarchy", "BdmScore", "BdmTable", "bdm_value",
           "bdm_scores", "read_bdm_file", "write_bdm_file"]
