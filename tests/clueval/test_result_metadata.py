"""CLUEval's metadata ("XML tags provide additional metadata e.g. text ID, legal domain, sentence ID"): scores by any
document or sentence field (--slices metadata:FIELD), each a measure with its intervals; counted by hand."""

from __future__ import annotations

import pytest

from accord.cli import main
from accord.errors import OptionError
from accord.formats import read
from tests.result.contract import checked

# gold (column 2) and predicted (column 3) tags; the legal text's title is right, its body and the news text wrong
VRT = """<text id="t1" domain="legal">
<s id="s1" kind="title">
John\tB-PER\tB-PER
Smith\tI-PER\tI-PER
</s>
<s id="s2" kind="body">
in\tO\tO
Rome\tB-LOC\tB-ORG
</s>
</text>
<text id="t2" domain="news">
<s id="s3" kind="body">
Mary\tB-PER\tO
went\tO\tB-PER
</s>
</text>
"""


@pytest.fixture
def vrt(tmp_path):
    path = tmp_path / "t.vrt"
    path.write_text(VRT, encoding="utf-8")
    return path


def run(vrt, capsys, *extra):
    assert main(["score", str(vrt), "--gold-column", "2", "--pred-column", "3", "--match", "clueval", "-q",
                 "--output", "json", *extra]) == 0
    return checked(capsys.readouterr().out)


def test_scores_by_a_document_field_and_a_sentence_field(vrt, capsys):
    out = run(vrt, capsys, "--slices", "metadata:domain,metadata:kind")["measures"]
    # legal: John Smith PER=PER hit, Rome LOC against ORG missed -> 1 of 2; news: Mary missed, "went" spurious
    legal, news = out["domain=legal"]["totals"], out["domain=news"]["totals"]
    assert (legal["gold"], legal["gold_hits"], legal["pred"], legal["pred_hits"]) == (2, 1, 2, 1)
    assert (news["gold"], news["gold_hits"], news["recall"]) == (1, 0, 0.0)
    # by the <s> attribute kind: title 1 of 1, body (Rome, Mary) 0 of 2
    assert out["kind=title"]["totals"]["recall"] == 1.0
    assert (out["kind=body"]["totals"]["gold"], out["kind=body"]["totals"]["gold_hits"]) == (2, 0)
    # the slices add up to the whole at the chosen level
    assert legal["gold_hits"] + news["gold_hits"] == out["exact"]["totals"]["gold_hits"]


def test_each_slice_has_its_interval(vrt, capsys):
    out = run(vrt, capsys, "--slices", "metadata:domain", "--bootstrap", "50", "--seed", "3")
    interval = out["measures"]["domain=legal"]["totals"]["ci"]["recall"]
    assert 0.0 <= interval[0] <= 0.5 <= interval[1] <= 1.0


def test_a_field_nobody_has_and_the_pairs_slicings(vrt, capsys):
    assert main(["score", str(vrt), "--gold-column", "2", "--pred-column", "3", "--match", "clueval", "-q",
                 "--slices", "metadata:domian"]) == 2
    assert "no document or sentence has the field 'domian' (they have domain, id, kind)" in capsys.readouterr().err
    from accord import score

    gold = read(vrt, format="vrt", column="2")
    pred = read(vrt, format="vrt", column="3")
    with pytest.raises(OptionError, match="slices by metadata:FIELD; nesting"):
        score(gold, pred, match="clueval", slices=["nesting"])
