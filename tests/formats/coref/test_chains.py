"""Chains kept as arrays (``CorefChains``) read as the plain mapping, and give the scorer the arrays it makes of
that mapping."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import accord
from accord.formats.coref._chains import CorefChains
from accord.formats.coref.clusters import read_coref, read_coref_chains, read_coref_conll, write_coref_conll
from accord.structured.coref import _Side

_SPAN = st.tuples(st.integers(0, 30), st.integers(0, 4)).map(lambda p: (p[0], p[0] + p[1]))
_DOCS = st.dictionaries(st.sampled_from(["a", "b", "c", "d", "é"]),
                        st.lists(st.lists(_SPAN, min_size=1, max_size=4), max_size=4), max_size=4)


def chains_of(docs):
    """``docs`` as CorefChains, built here from the mapping (entities and mentions in the mapping's order)."""
    entities = [e for d in docs.values() for e in d]
    spans = [m for e in entities for m in e]
    return CorefChains(list(docs), np.array([s for s, _ in spans], dtype=np.int64),
                       np.array([e for _, e in spans], dtype=np.int64),
                       np.concatenate([[0], np.cumsum([len(e) for e in entities])]).astype(np.int64),
                       np.concatenate([[0], np.cumsum([len(d) for d in docs.values()])]).astype(np.int64))


@settings(max_examples=200, deadline=None)
@given(_DOCS, st.lists(st.sampled_from(["a", "b", "c", "d", "é", "z"]), unique=True, max_size=6))
def test_mention_columns_equal_the_scorers_arrays_of_the_mapping(docs, order):
    """In any order of documents, some absent, some not asked for: the same arrays as the scorer makes of the
    plain mapping (its general path, one mention after the other)."""
    chains = chains_of(docs)
    assert chains == docs and dict(chains) == docs and chains.to_dict() == docs
    plain = _Side.__new__(_Side)
    plain._one_by_one(order, docs, "key")
    got = chains.mention_columns(order)
    for name, array in zip(("ent_doc", "ent_local", "ent", "doc", "start", "end"), got):
        assert array.tolist() == getattr(plain, name).tolist(), name
    assert chains.mention_counts(order).tolist() == [sum(map(len, docs.get(d, []))) for d in order]


def test_a_file_read_as_arrays_and_as_a_mapping(tmp_path):
    """The reader's arrays hold the file's chains (written here from a mapping, hand-made), in the reference
    scorer's order of entities; scores of the arrays and of the mapping are the same numbers."""
    key = {"x": [[(0, 2), (5, 5)], [(1, 1)]], "y": [], "z": [[(3, 4), (0, 0), (7, 9)]]}
    response = {"x": [[(0, 2)], [(1, 1), (5, 5)]], "y": [[(0, 0), (1, 1)]], "z": [[(3, 4), (7, 9)]]}
    write_coref_conll(key, tmp_path / "k.conll")
    write_coref_conll(response, tmp_path / "r.conll")
    chains = read_coref_chains(tmp_path / "k.conll")
    assert isinstance(chains, CorefChains) and isinstance(read_coref(tmp_path / "k.conll", arrays=True), CorefChains)
    assert chains == read_coref_conll(tmp_path / "k.conll") == {"x": key["x"], "y": [],
                                                                "z": [[(0, 0), (3, 4), (7, 9)]]}
    assert type(read_coref(tmp_path / "k.conll")) is dict
    from_arrays = accord.coref(tmp_path / "k.conll", tmp_path / "r.conll")
    from_mapping = accord.coref(read_coref_conll(tmp_path / "k.conll"), read_coref_conll(tmp_path / "r.conll"))
    assert from_arrays.to_dict()["measures"] == from_mapping.to_dict()["measures"]
    # MUC by hand: key links x 1 (0-2 ~ 5-5), z 2; response links x 1 (1 ~ 5), y 1, z 1; common: z 1
    muc = from_arrays.source["muc"]
    assert (muc.recall_num, muc.recall_den, muc.precision_num, muc.precision_den) == (1, 3, 1, 3)
