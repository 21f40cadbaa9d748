"""Under mutation testing (`make mutation`), the unit tests of a function run before those that
build a project: mutmut runs a mutant's tests with `-x` and stops at the first that fails, and a
unit test usually kills it in a fraction of the time a project takes to build. Outside mutmut the
order is pytest's own.

`judged` is the fixture project with results that several verdict tests read: C1 reproduced,
F1 inconclusive; `both_scales` adds results at the paper's own scale."""

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


@pytest.fixture
def both_scales(judged):
    """`judged` (F1 inconclusive, C1 reproduced at paper) with paper_full results beside: C1
    reproduced, F1 not reproduced (a loss of 0.5 is not within 1% of 0.2), the paper's own
    scale the newcomer saw cut."""
    sealed_result(judged, "conditioning-vs-parameters", {
        "params_unchanged": True, "max_abs_pred_error": 0.0, "max_abs_dW_error": 0.0,
        "implied_model_distance": 1.0, "min_cross_distance": 1.0}, profile="paper_full")
    base = {"cos_sensitivity": 0.999, "model_diff": 0.08, "pred_diff": 0.02,
            "loss_interpolated": 0.2, "ood": {"min_cos": 0.999, "max_rel_gap": 0.01,
                                              "max_rel_gap_interpolated": 0.01}}
    sealed_result(judged, "single-layer-lsa", [{**base, "loss_trained": 0.5, "loss_gd": 0.2}] * 2,
                  profile="paper_full")
    return judged
