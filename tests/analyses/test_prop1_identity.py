"""Proposition 1: one LSA step with the construction is exactly one GD step for every token."""
import pytest

from analysis import prop1_identity as m


@pytest.mark.slow
def test_quick_profile_holds_exactly():
    out = m.run(m.PROFILES["quick"])
    metrics = out["metrics"]
    assert metrics["max_abs_error_f64"] < 1e-10
    assert metrics["max_abs_error_f32"] < 1e-5
    assert metrics["max_abs_readout_error_f64"] < 1e-10
    assert metrics["n_cases"] == len(metrics["case_errors_f64"]) == len(metrics["case_errors_f32"])
    assert set(out["figures"]) == {"errors"}
