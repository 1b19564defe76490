"""Properties of MUC-4's 1992 rules, its one-sided forms and the kernel checks (Chen et al., appendices B and C).

Appendix B, lemmas 1, 5, 7 and 8: the Kronecker delta is a kernel, so is the optimal-assignment kernel over it
(a strong kernel: the multiset intersection), and so are the F1 (Dice) and Jaccard of its matching; on any sample
the Gram matrix has no negative eigenvalue. Appendix C: interactive judgements only add credit to an alignment
fixed by the automatic similarity. And ``accord structured --judgements`` never fails with a traceback.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from accord import structured as S
from accord.structured import muc4_original, muc4_rme
from accord.structured.kernels import check_kernel, optimal_assignment_kernel

from .harness import PROFILE, run

settings.load_profile(PROFILE)

_multiset = st.lists(st.sampled_from("abcd"), max_size=4).map(tuple)
_sets = st.lists(st.sampled_from("abcd"), min_size=1, max_size=4, unique=True).map(lambda xs: tuple(sorted(xs)))


@given(st.lists(_multiset, min_size=1, max_size=7))
def test_optimal_assignment_over_the_delta_is_a_kernel(sample):
    assert check_kernel(optimal_assignment_kernel(S.exact), sample, tolerance=1e-8).positive_definite


@given(st.lists(_sets, min_size=1, max_size=7))
def test_f1_and_jaccard_of_a_matching_are_kernels(sample):
    assert check_kernel(S.f1(S.match(S.exact, "1:1")), sample, tolerance=1e-8).positive_definite
    assert check_kernel(S.jaccard(S.match(S.exact, "1:1")), sample, tolerance=1e-8).positive_definite


_slot = st.sampled_from(["PERP: ORGANIZATION ID", "HUM TGT: NAME", "INCIDENT: STAGE OF EXECUTION"])
_word = st.sampled_from(["FMLN", "the mayor", "guerrillas", "the bridge", "accomplished"])
_filler = st.fixed_dictionaries({"slot": _slot, "value": st.one_of(_word, st.lists(_word, min_size=1, max_size=2))})
_template = st.fixed_dictionaries({"type": st.sampled_from(["attack", "bombing"]),
                                   "fillers": st.lists(_filler, max_size=3)})


@given(st.lists(_template, max_size=3), st.lists(_template, max_size=3))
def test_judgements_only_add_credit(pred, gold):
    full = {(a, b): 1 for a in ["FMLN", "the mayor", "guerrillas", "the bridge", "accomplished"]
            for b in ["FMLN", "the mayor", "guerrillas", "the bridge", "accomplished"]}
    plain, judged = muc4_original()(pred, gold), muc4_original(judgements=full)(pred, gold)
    assert judged.match >= plain.match - 1e-12 and judged.pred_total == plain.pred_total
    assert 0.0 <= float(judged) <= 1.0
    for phi in ("subset", "phi3"):
        s = muc4_rme(phi)(pred, gold)
        assert 0.0 <= s.precision <= 1.0 and 0.0 <= s.recall <= 1.0


_judgement_file = st.one_of(
    st.lists(st.tuples(_word, _word, st.sampled_from([0, 0.5, 1, 0.3, "1", None])).map(list), max_size=3),
    st.sampled_from([{}, "x", 1, [["a"]], [[1, 2, 3]], None]))


@settings(max_examples=25)
@given(_judgement_file)
def test_command_line_judgements_never_fail_badly(content):
    with tempfile.TemporaryDirectory() as d:
        key, resp, judged = Path(d, "k.jsonl"), Path(d, "r.jsonl"), Path(d, "j.json")
        doc = {"id": "d", "templates": [{"type": "bombing", "fillers": [{"slot": "HUM TGT: NAME",
                                                                         "value": ["the mayor"]}]}]}
        key.write_text(json.dumps(doc) + "\n")
        resp.write_text(json.dumps(doc) + "\n")
        judged.write_text(json.dumps(content))
        run(["structured", str(key), str(resp), "--metrics", "muc4-original", "--judgements", str(judged)])
