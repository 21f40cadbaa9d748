"""NOTE-621: fixed parameters conditioned on a context imply the GD-updated linear model."""
from analysis import conditioning as m


def test_quick_profile_conditioning_vs_parameters():
    r = m.run(m.PROFILES["quick"])["metrics"]
    assert r["params_unchanged"] is True
    assert r["max_abs_pred_error"] < 1e-10
    assert r["max_abs_dW_error"] < 1e-10
    assert r["implied_model_distance"] > 0.1
    assert r["min_cross_distance"] > 0.1
