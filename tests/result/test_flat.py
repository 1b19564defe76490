"""Result.to_flat_dict: the names trackers log (mlflow.log_metrics, wandb.log), figures counted by hand."""

import math
import re
import warnings

import pytest

import accord
from accord.errors import OutputError

GOLD = [["B-PER", "I-PER", "O"], ["B-LOC", "O"]]
PRED = [["B-PER", "I-PER", "O"], ["B-ORG", "O"]]
MLFLOW_NAME = re.compile(r"^[/\w.\- ]*$")     # the metric names MLflow's validation takes


def test_names_and_values_counted_by_hand():
    flat = accord.score(GOLD, PRED).to_flat_dict(prefix="eval/")
    # by hand: PER matched; LOC missed; ORG spurious: P = R = F = 1/2; macro over 3 labels: (1 + 0 + 0) / 3
    assert flat["eval/f1"] == flat["eval/precision"] == flat["eval/recall"] == 0.5
    assert (flat["eval/gold"], flat["eval/pred"], flat["eval/match"]) == (2, 2, 1)
    assert flat["eval/macro/f1"] == pytest.approx(1 / 3)
    assert (flat["eval/PER/f1"], flat["eval/LOC/recall"], flat["eval/ORG/spurious"]) == (1.0, 0.0, 1.0)
    assert all(isinstance(k, str) and type(v) is float for k, v in flat.items())
    assert all(MLFLOW_NAME.match(k) for k in flat)
    assert set(accord.score(GOLD, PRED).to_flat_dict()) == {k[len("eval/"):] for k in flat}


def test_intervals_after_a_bootstrap():
    result = accord.score(GOLD * 20, PRED * 20).bootstrap(30, seed=2)
    flat = result.to_flat_dict()
    low, high = result.ci["pairs"]["rows"][("all",)]["f1"]
    assert (flat["f1_low"], flat["f1_high"]) == (low, high)
    assert flat["PER/f1_low"] == flat["PER/f1_high"] == 1.0
    assert "macro/f1_low" in flat


def test_several_measures_and_names_trackers_refuse():
    flat = accord.score(GOLD, PRED, slices=["length"]).to_flat_dict()
    assert flat["pairs/f1"] == 0.5 and flat["length_2/f1"] == 1.0 and flat["length_1/ORG/spurious"] == 1.0
    assert math.isnan(flat["length_3/macro/f1"])      # no label of length 3: the mean of nothing is undefined
    assert all(MLFLOW_NAME.match(k) for k in flat)


def test_two_labels_of_one_name_are_refused():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = accord.score([["B-A:B", "O", "B-A_B"]], [["B-A:B", "O", "O"]])
    with pytest.raises(OutputError, match="'A_B/gold'"):
        result.to_flat_dict()
