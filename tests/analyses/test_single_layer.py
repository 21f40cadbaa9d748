"""§3: a trained single LSA layer matches one tuned GD step (quick profile: loosely)."""
import dataclasses
import math

import jax
import pytest

from analysis import single_layer as m
from analysis.lib import seed_batch


@pytest.mark.slow
def test_quick_profile_trained_layer_matches_one_gd_step():
    out = m.run(m.PROFILES["quick"])
    r = out["metrics"]
    assert 5.0 < r["eta_gd"] < 7.5                         # the paper's eta ~ 6
    assert abs(r["loss_gd"] - 0.205) < 0.02               # the paper's one-step loss, small sample
    assert r["rel_gap"] < 0.03                             # trained loss within 3% of GD
    assert r["cos_sensitivity"] > 0.99
    assert r["model_diff"] < 0.3 and r["pred_diff"] < 0.08
    assert abs(r["loss_interpolated"] - r["loss_gd"]) / r["loss_gd"] < 0.03
    cost = r["timing"]["trained"]                          # one seed alone: no `seeds_together`
    assert cost["steps"] == cost["cpu_steps"] == m.PROFILES["quick"].steps and "seeds_together" not in cost
    ood = r["ood"]
    assert len(ood["alpha"]) == len(ood["loss_trained"]) == len(ood["loss_gd"]) == 4
    assert ood["max_rel_gap"] < 0.15 and ood["min_cos"] > 0.99
    assert ood["loss_gd"][0] < ood["loss_gd"][-1]          # larger inputs, larger loss
    t = r["training"]
    assert t["step"][0] == 0 and t["step"][-1] == m.PROFILES["quick"].steps
    assert t["loss"][-1] < t["loss"][0] and all(math.isfinite(x) for x in t["train_loss"])
    assert set(out["figures"]) == {"training", "ood"}
    # the cosine is flat in alpha by construction; the deviation share is not
    assert max(ood["cos_sensitivity"]) - min(ood["cos_sensitivity"]) < 1e-5
    share = ood["diff_share"]
    assert share[0] < 0.2 * share[1] and ood["max_diff_share"] == max(share) < 0.03
    # evaluation noise: every judged loss has a standard error, the paired gap's is smaller
    noise = out["noise"]
    assert {"loss_trained", "loss_gd", "loss_interpolated", "rel_gap", "ood.max_rel_gap"} <= set(noise)
    assert 0 < noise["rel_gap"] < noise["loss_trained"] / r["loss_gd"]
    figs = m.seed_figures([{"seed": 0, "metrics": r}, {"seed": 1, "metrics": r}])
    assert set(figs) == {"seeds_training", "seeds_ood"}


def test_the_per_seed_ood_figure_is_drawn_against_alpha():
    """Its x axis is the input scale alpha (0.5..2), not a training step."""
    alphas = [0.5, 1.0, 1.5, 2.0]
    metrics = {"training": {"step": [0, 10], "loss": [1.0, 0.5], "loss_gd": 0.4,
                            "cos_sensitivity": [0.5, 0.9]},
               "ood": {"alpha": alphas, "diff_share": [1e-4, 1e-3, 2e-3, 3e-3]}}
    figs = m.seed_figures([{"seed": 0, "metrics": metrics}])
    ood_ax, = figs["seeds_ood"].axes
    assert ood_ax.get_xlabel().startswith("alpha")
    assert list(ood_ax.lines[0].get_xdata()) == alphas
    assert figs["seeds_training"].axes[0].get_xlabel() == "training step"


def test_seeds_declared():
    assert len(m.SEEDS["quick"]) == 3 and len(m.SEEDS["paper"]) >= 3 and "paper_full" in m.PROFILES


@pytest.mark.slow
def test_paper_full_code_path_on_a_tiny_budget():
    cfg = dataclasses.replace(m.PROFILES["paper_full"], steps=20, eval_every=10, eval_tasks=2_000, eval_chunk=1_000,
                              tune_tasks=1_000, monitor_tasks=1_000, ood_tasks=1_000, seed=1)
    out = m.run(cfg)
    assert math.isfinite(out["metrics"]["loss_trained"]) and len(out["metrics"]["ood"]["alpha"]) == 16


def _leaves(metrics: dict, prefix: str = "") -> dict:
    """Every metric by its dotted name, but `timing` (what the training cost differs from run to run)."""
    out = {}
    for k, v in metrics.items():
        if not prefix and k == "timing":
            continue
        out.update(_leaves(v, f"{prefix}{k}.") if isinstance(v, dict) else {prefix + k: v})
    return out


@pytest.mark.slow
def test_a_batched_seed_equals_the_same_seed_run_alone():
    """run_seeds(batched=True) trains seeds side by side (vmap); each seed keeps the keys it has alone.

    Tolerance: relative 2e-5 (about 170 float32 ulps) plus 1e-7 absolute. The
    batched step sums over the seeds' stacked arrays in another order than the
    single step, so the weights differ in their last bits, and each of the 60
    Adam steps carries that rounding on; a seed drawn from other keys differs by
    percents (checked below, so the comparison can fail).
    """
    cfg = dataclasses.replace(m.PROFILES["quick"], steps=60, batch_size=128, eval_every=30, eval_tasks=400,
                              eval_chunk=400, tune_tasks=400, monitor_tasks=400, ood_alphas=(0.5, 2.0),
                              ood_tasks=400)
    batched = m.run_seeds(cfg, [2, 1], batched=True)
    alone = m.run(dataclasses.replace(cfg, seed=1))
    got, want = _leaves(batched[1]["metrics"]), _leaves(alone["metrics"])
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == pytest.approx(want[name], rel=2e-5, abs=1e-7), name
    assert batched[1]["noise"] == pytest.approx(alone["noise"], rel=2e-5, abs=1e-7)
    assert batched[1]["notes"] == alone["notes"] and set(batched[1]["figures"]) == set(alone["figures"])
    other = _leaves(batched[0]["metrics"])
    assert other["loss_trained"] != pytest.approx(want["loss_trained"], rel=1e-3)


@pytest.mark.slow
def test_seeds_trained_in_turn_equal_each_seed_run_alone():
    """run_seeds(batched=False), what a CPU runs: one compiled chunk for every seed, each
    seed's chunk dispatched in turn; each seed's metrics are those of the seed run alone
    (within float32 rounding: the training key is an argument of the compiled chunk there,
    a constant here), its progress covers all the seeds, and another seed differs."""
    cfg = dataclasses.replace(m.PROFILES["quick"], steps=20, batch_size=64, eval_every=10, eval_tasks=200,
                              eval_chunk=200, tune_tasks=200, monitor_tasks=200, ood_alphas=(1.0,),
                              ood_tasks=200)
    seen = []
    outs = m.run_seeds(cfg, [1, 0], lambda done, total, what="": seen.append((done, total)),
                       batched=False)
    for seed, out in zip([1, 0], outs):
        got, want = _leaves(out["metrics"]), _leaves(m.run(dataclasses.replace(cfg, seed=seed))["metrics"])
        assert got.keys() == want.keys()
        for name in want:
            assert got[name] == pytest.approx(want[name], rel=2e-5, abs=1e-7), (seed, name)
    assert _leaves(outs[0]["metrics"])["loss_trained"] != \
        pytest.approx(_leaves(outs[1]["metrics"])["loss_trained"], rel=1e-3)
    assert seen == [(0, 20), (10, 20), (20, 20)]
    for out in outs:                     # what the two seeds' training cost together
        t = out["metrics"]["timing"]["trained"]
        assert t["steps"] == 20 and t["cpu_steps"] == 20 and t["seeds_together"] == 2
        assert t["ms_per_step"] > 0 and t["cpu_ms_per_step"] > 0
    assert seed_batch.batching_pays() is (jax.default_backend() != "cpu")
