"""deeper-gdpp: GD / GD++ in spectral form equal their LSA constructions, the fast
forward passes equal the plain layers, and on the quick profile the recurrent
two-layer LSA beats two GD steps and sits closer to GD++ than to GD (paper §3, Fig. 3)."""
import dataclasses
import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import deeper_gdpp
from analysis.lib import gdpp, lsa, metrics
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib


@pytest.fixture(scope="module")
def quick_out():
    return deeper_gdpp.run(deeper_gdpp.PROFILES["quick"])


@pytest.fixture(scope="module")
def quick(quick_out):
    return quick_out["metrics"]


def _tasks(n=256, seed=0):
    return task_lib.sample_tasks(jax.random.key(seed), n)


@pytest.mark.slow
@pytest.mark.parametrize("K,shared", [(1, True), (3, False), (3, True)])
def test_spectral_gdpp_equals_lsa_construction(K, shared):
    t = _tasks()
    etas = jnp.full((1,), 7.0) if shared else jnp.linspace(3.0, 9.0, K)
    gammas = None if K == 1 else (jnp.full((1,), 0.15) if shared else jnp.linspace(0.1, 0.3, K - 1))
    y_hat, g = gdpp.predict_and_sensitivity(gdpp.spectral(t.X, t.Y[..., 0], t.x_q), etas, gammas, K, 10)
    stack = gdpp.constructions(etas, gammas, K, 10, 10)
    H = task_lib.tokens(t)
    predict = lambda h: lsa.predict(stack, h)                                  # noqa: E731
    np.testing.assert_allclose(y_hat, predict(H)[:, 0], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(g, metrics.input_sensitivity(predict, H, 10), rtol=1e-4, atol=1e-5)


def test_one_step_tuning_matches_closed_form():
    t = _tasks(4096)
    st = gdpp.spectral(t.X, t.Y[..., 0], t.x_q)
    eta, _ = gdpp.fit_scalars(st, t.y_q[:, 0], 1, 10, jnp.full((1,), 2.0), None, iters=30)
    closed = lsa.tune_eta_one_step(t.X, t.Y, t.x_q, t.y_q)
    assert abs(float(eta[0]) - float(closed)) < 1e-3 * float(closed)


@pytest.mark.slow
@pytest.mark.parametrize("stacked,clip", [(False, None), (False, 0.3), (True, 0.3)])
def test_token_forward_equals_plain_layers(stacked, clip):
    H = task_lib.tokens(_tasks(64))
    p = train_lib.init_lsa(jax.random.key(1), 11, 0.5, n_layers=3 if stacked else None)
    fast = gdpp.query_forward_tokens(p, H, None if stacked else 3, clip)
    plain = lsa.forward(p, H, None if stacked else 3, clip)[:, -1, :]
    np.testing.assert_allclose(fast, plain, rtol=1e-4, atol=1e-4)          # float32, |entries| up to ~10


@pytest.mark.slow
def test_recurrent_two_layers_beat_gd_and_align_with_gdpp(quick):
    k2 = quick["k2"]
    assert k2["loss_trained"] < 0.9 * k2["loss_gd"]                           # beats 2 tuned GD steps
    assert k2["loss_gd"] <= k2["loss_gd_shared_eta"] * 1.001                  # per-step eta never worse
    assert k2["loss_gdpp"] < k2["loss_gd"] and k2["loss_gdpp_shared"] < k2["loss_gd"]
    assert k2["cos_vs_gdpp_shared"] > k2["cos_vs_gd"]                         # closer to GD++ than to GD
    assert k2["model_diff_vs_gdpp_shared"] < k2["model_diff_vs_gd"]
    assert 0.1 < k2["gamma_shared"] < 0.3                                     # official 0.180


@pytest.mark.slow
def test_five_layers_run_and_report(quick):
    k5 = quick["k5"]
    assert k5["loss_gd"] < quick["k2"]["loss_gd"]                             # more GD steps help
    assert k5["loss_gdpp_shared"] < k5["loss_gd_shared_eta"]
    assert np.isfinite(k5["loss_trained"]) and k5["max_abs_token"] > 0
    assert len(k5["gamma"]) == 4 and len(k5["eta_gd"]) == 5


@pytest.mark.slow
def test_position_and_noise(quick_out):
    k2, noise = quick_out["metrics"]["k2"], quick_out["noise"]
    pos = (k2["loss_trained"] - k2["loss_gdpp_shared"]) / (k2["loss_gd_shared_eta"] - k2["loss_gdpp_shared"])
    assert abs(k2["position_gdpp_shared_to_gd_shared"] - pos) < 1e-6
    assert k2["position_gdpp_shared_to_gd_shared"] < 0.5                      # nearer GD++ than GD
    assert k2["comparator"] == "gdpp_shared" and k2["loss_gdpp_matched"] == k2["loss_gdpp_shared"]
    for name in ("loss_trained", "loss_gdpp_shared", "loss_gd_shared_eta", "position_gdpp_shared_to_gd_shared"):
        assert 0 < noise[f"k2.{name}"] < 0.1, name
    # paired: the difference of two losses on the same tasks is known better than either loss
    assert noise["k2.loss_trained_minus_gd_shared"] < noise["k2.loss_trained"]
    assert set(deeper_gdpp.seed_figures([{"seed": 0, "metrics": quick_out["metrics"]}])) == {"seeds_training"}


def test_position_se_matches_resampling():
    from analysis.lib import seeds
    rng = np.random.default_rng(0)
    lo = rng.exponential(1.0, 4_000)
    a, hi = lo + rng.exponential(0.1, 4_000), lo + rng.exponential(1.0, 4_000)
    pos, se = seeds.position(a, lo, hi)
    boot = []
    for _ in range(200):
        i = rng.integers(0, 4_000, 4_000)
        boot.append(seeds.position(a[i], lo[i], hi[i])[0])
    assert abs(np.std(boot) - se) < 0.25 * se and 0.05 < pos < 0.2


def test_seeds_declared():
    assert len(deeper_gdpp.SEEDS["quick"]) == 3 and len(deeper_gdpp.SEEDS["paper"]) >= 5
    full = {d.K: d for d in deeper_gdpp.PROFILES["paper_full"].depths}
    assert full[5].separate and full[5].steps == 50_000 and deeper_gdpp.comparator(full[5]) == "gdpp"


@pytest.mark.slow
def test_paper_full_code_path_on_a_tiny_budget(quick):
    """Two chunks of training per depth, in the quick profile's sizes (batch, chunk, tasks): the
    programs the quick run compiled (`quick`, the module's fixture) are loaded from the session's
    compile cache, not compiled again; the five separate layers are paper_full's own."""
    full, small = deeper_gdpp.PROFILES["paper_full"], deeper_gdpp.PROFILES["quick"]
    cfg = dataclasses.replace(full, depths=tuple(dataclasses.replace(d, steps=2 * small.chunk_size,
                                                                     eval_every=small.chunk_size)
                                                 for d in full.depths),
                              batch_size=small.batch_size, chunk_size=small.chunk_size,
                              eval_tasks=small.eval_chunk, eval_chunk=small.eval_chunk,
                              curve_tasks=small.curve_tasks, tune_tasks=small.tune_tasks, tune_iters=5, seed=3)
    k5 = deeper_gdpp.run(cfg)["metrics"]["k5"]
    assert k5["comparator"] == "gdpp" and math.isfinite(k5["loss_trained"])
