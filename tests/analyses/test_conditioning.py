"""NOTE-621: fixed parameters conditioned on a context imply the GD-updated linear model, trained or constructed."""
import dataclasses
import math

import pytest

from analysis import conditioning as m


def test_quick_profile_conditioning_vs_parameters():
    out = m.run(m.PROFILES["quick"])
    r = out["metrics"]
    assert r["params_unchanged"] is True
    assert r["max_abs_pred_error"] < 1e-10
    assert r["max_abs_dW_error"] < 1e-10
    assert r["implied_model_distance"] > 0.1
    assert r["min_cross_distance"] > 0.1
    t = r["trained"]
    assert t["params_unchanged"] is True
    assert t["max_abs_pred_error"] < 1e-10                      # the trained layer is linear in x_q
    assert t["rel_dW_gap"] < 0.2                                # near its context's GD step
    assert t["min_cross_distance"] > t["max_own_distance"]      # nearer its own step than the other's
    assert t["training"]["loss"][-1] < 0.6 * t["training"]["loss"][0]
    assert 0 < out["noise"]["trained.rel_dW_gap"] < 0.1 * t["rel_dW_gap"]
    assert set(m.seed_figures([{"seed": 0, "metrics": r}])) == {"seeds_training"}


def test_seeds_declared():
    assert len(m.SEEDS["quick"]) == 3 and len(m.SEEDS["paper"]) >= 3 and "paper_full" in m.PROFILES


@pytest.mark.slow
def test_paper_full_code_path_on_a_tiny_budget():
    cfg = dataclasses.replace(m.PROFILES["paper_full"], train_steps=20, train_eval_every=10, trained_contexts=16,
                              tune_tasks=1_000, seed=2)
    t = m.run(cfg)["metrics"]["trained"]
    assert t["params_unchanged"] is True and math.isfinite(t["rel_dW_gap"])
