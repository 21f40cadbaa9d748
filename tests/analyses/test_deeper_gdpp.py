"""deeper-gdpp: GD / GD++ in spectral form equal their LSA constructions, the fast
forward passes equal the plain layers, and on the quick profile the recurrent
two-layer LSA beats two GD steps and sits closer to GD++ than to GD (paper §3, Fig. 3)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import deeper_gdpp, gdpp, lsa, metrics, tasks as task_lib, train as train_lib


@pytest.fixture(scope="module")
def quick():
    return deeper_gdpp.run(deeper_gdpp.PROFILES["quick"])["metrics"]


def _tasks(n=256, seed=0):
    return task_lib.sample_tasks(jax.random.key(seed), n)


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


@pytest.mark.parametrize("stacked,clip", [(False, None), (False, 0.3), (True, 0.3)])
def test_token_forward_equals_plain_layers(stacked, clip):
    H = task_lib.tokens(_tasks(64))
    p = train_lib.init_lsa(jax.random.key(1), 11, 0.5, n_layers=3 if stacked else None)
    fast = gdpp.query_forward_tokens(p, H, None if stacked else 3, clip)
    plain = lsa.forward(p, H, None if stacked else 3, clip)[:, -1, :]
    np.testing.assert_allclose(fast, plain, rtol=1e-4, atol=1e-4)          # float32, |entries| up to ~10


def test_recurrent_two_layers_beat_gd_and_align_with_gdpp(quick):
    k2 = quick["k2"]
    assert k2["loss_trained"] < 0.9 * k2["loss_gd"]                           # beats 2 tuned GD steps
    assert k2["loss_gd"] <= k2["loss_gd_shared_eta"] * 1.001                  # per-step eta never worse
    assert k2["loss_gdpp"] < k2["loss_gd"] and k2["loss_gdpp_shared"] < k2["loss_gd"]
    assert k2["cos_vs_gdpp_shared"] > k2["cos_vs_gd"]                         # closer to GD++ than to GD
    assert k2["model_diff_vs_gdpp_shared"] < k2["model_diff_vs_gd"]
    assert 0.1 < k2["gamma_shared"] < 0.3                                     # official 0.180


def test_five_layers_run_and_report(quick):
    k5 = quick["k5"]
    assert k5["loss_gd"] < quick["k2"]["loss_gd"]                             # more GD steps help
    assert k5["loss_gdpp_shared"] < k5["loss_gd_shared_eta"]
    assert np.isfinite(k5["loss_trained"]) and k5["max_abs_token"] > 0
    assert len(k5["gamma"]) == 4 and len(k5["eta_gd"]) == 5
