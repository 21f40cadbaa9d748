"""The code's U(-0.5, 0.5) gives the paper's one-step GD loss ~0.2; the text's U(-1, 1) about 4x that."""
import pytest

from analysis import gd_input_range as m


@pytest.mark.slow
def test_quick_profile_ranges():
    r = m.run(m.PROFILES["quick"])["metrics"]
    assert abs(r["loss_gd_code_range"] - 0.2047) < 0.015
    assert abs(r["loss_gd_text_range"] - 0.82) < 0.08
    assert 3.5 < r["loss_ratio_text_over_code"] < 4.5
    assert abs(r["eta_code_range"] / r["eta_text_range"] - 4.0) < 0.1   # x scaled by 2: eta / 4
