"""Under mutation testing (`make mutation`), the unit tests of a function run before those that
build a project: mutmut runs a mutant's tests with `-x` and stops at the first that fails, and a
unit test usually kills it in a fraction of the time a project takes to build. Outside mutmut the
order is pytest's own.

`judged` is the fixture project with results that several verdict tests read: C1 reproduced,
F1 inconclusive."""

from __future__ import annotations

import os

import pytest

from tests.support.results import sealed_result


def pytest_collection_modifyitems(config, items):
    if "MUTANT_UNDER_TEST" not in os.environ:
        return
    items.sort(key=lambda item: "project" in getattr(item, "fixturenames", ()))


@pytest.fixture
def judged(project):
    """C1 reproduced, F1 inconclusive over two seeds (a loss barely above its reference)."""
    sealed_result(project, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0})
    base = {"cos_sensitivity": 0.999, "model_diff": 0.08, "pred_diff": 0.02,
            "loss_interpolated": 0.2, "ood": {"min_cos": 0.999, "max_rel_gap": 0.01,
                                              "max_rel_gap_interpolated": 0.01}}
    sealed_result(project, "single-layer-lsa", [
        {**base, "loss_trained": 0.2010, "loss_gd": 0.2, "loss_interpolated": 0.2},
        {**base, "loss_trained": 0.2030, "loss_gd": 0.2, "loss_interpolated": 0.2}])
    return project
