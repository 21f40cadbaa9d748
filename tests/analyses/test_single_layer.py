"""§3: a trained single LSA layer matches one tuned GD step (quick profile: loosely)."""
import math

from analysis import single_layer as m


def test_quick_profile_trained_layer_matches_one_gd_step():
    out = m.run(m.PROFILES["quick"])
    r = out["metrics"]
    assert 5.0 < r["eta_gd"] < 7.5                         # the paper's eta ~ 6
    assert abs(r["loss_gd"] - 0.205) < 0.02               # the paper's one-step loss, small sample
    assert r["rel_gap"] < 0.03                             # trained loss within 3% of GD
    assert r["cos_sensitivity"] > 0.99
    assert r["model_diff"] < 0.3 and r["pred_diff"] < 0.08
    assert abs(r["loss_interpolated"] - r["loss_gd"]) / r["loss_gd"] < 0.03
    ood = r["ood"]
    assert len(ood["alpha"]) == len(ood["loss_trained"]) == len(ood["loss_gd"]) == 4
    assert ood["max_rel_gap"] < 0.15 and ood["min_cos"] > 0.99
    assert ood["loss_gd"][0] < ood["loss_gd"][-1]          # larger inputs, larger loss
    t = r["training"]
    assert t["step"][0] == 0 and t["step"][-1] == m.PROFILES["quick"].steps
    assert t["loss"][-1] < t["loss"][0] and all(math.isfinite(x) for x in t["train_loss"])
    assert set(out["figures"]) == {"training", "ood"}
