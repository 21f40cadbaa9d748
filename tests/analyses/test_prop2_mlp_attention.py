"""prop2-mlp-attention: MLP features followed by the Proposition 1 layer are exactly one GD
step on the read-out (kernel regression with k = m^T m), the fast predictors equal the
plain layers, the baseline follows the official code (whole token, W0 = 0, its init), every
random quantity follows the seed, and on the quick profile both sine-wave models learn
(paper §4, Fig. 5)."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import prop2_mlp_attention as p2
from analysis.lib import lsa
from analysis.lib import prop2_models as models
from analysis.lib import train as train_lib

TINY = {"steps": 20, "chunk_size": 10, "eval_every": 10, "eval_tasks": 256, "curve_tasks": 128,
        "identity_tasks": 8}


@pytest.mark.slow
def test_identity_and_baseline_layer_to_float64_precision():
    config = p2.PROFILES["quick"]
    assert models.identity_check(config, jax.random.key(3)) < 1e-10
    assert models.baseline_layer_check(config, jax.random.key(4)) < 1e-10


@pytest.mark.slow
def test_fast_trained_predictor_equals_full_layers():
    config = p2.PROFILES["quick"]
    p = models.Trained(mlp=models.init_mlp(jax.random.key(0), 2, 40, 160, 0.5),
                       attn=train_lib.init_lsa(jax.random.key(1), 40, 0.5))
    p = p._replace(mlp=p.mlp._replace(b1=jnp.linspace(-1.0, 1.0, 160), b2=jnp.linspace(-0.3, 0.3, 40)))
    x, y = models.sample_tasks(config, jax.random.key(2), 64)
    H_raw = models.raw_tokens(x, y)
    plain = -lsa.forward(p.attn, models.features(p.mlp, H_raw))[:, -1, -1:]
    np.testing.assert_allclose(models.predict_trained(p, H_raw), plain, rtol=1e-4, atol=1e-5)


def test_baseline_sees_the_whole_token_and_starts_from_the_code_init():
    m = models.init_baseline_mlp(jax.random.key(0), 40, 160, 0.002)
    assert m.E.shape == (40, 2)                                  # embeds (x, y), not x alone
    np.testing.assert_allclose(jnp.std(m.W1), (0.002 / 2) ** 0.5, rtol=0.05)   # the code's fan-in 2
    np.testing.assert_allclose(jnp.std(m.W2), (0.002 / 40) ** 0.5, rtol=0.05)
    x, y = models.sample_tasks(p2.PROFILES["quick"], jax.random.key(1), 16)
    H = models.raw_tokens(x, y)
    moved = H.at[:, 0, 1].add(0.3)                              # change one context target only
    assert not np.allclose(models.features(m, H)[:, 0], models.features(m, moved)[:, 0])


def test_tied_phase_is_one_parameter_family():
    tied = p2.Config()                                          # the code's family is the default
    assert tied.tie_phase_to_amplitude
    x, y = models.sample_tasks(tied, jax.random.key(0), 8)
    x2, y2 = models.sample_tasks(p2.Config(tie_phase_to_amplitude=False), jax.random.key(0), 8)
    np.testing.assert_allclose(x, x2)
    assert not np.allclose(y, y2)


def test_noise_is_the_standard_error_over_tasks():
    y = jnp.linspace(-1.0, 1.0, 400)[:, None]
    f = 0.5 * y
    losses, noise = p2._losses_and_noise(y, f, f)
    per_task = 0.5 * (0.5 * y[:, 0]) ** 2
    np.testing.assert_allclose(noise["loss_trained"], np.std(per_task, ddof=1) / 20, rtol=1e-5)
    np.testing.assert_allclose(losses["loss_ratio"], 1.0, rtol=1e-6)
    assert noise["loss_ratio"] < 1e-6                           # the same predictions: no paired noise


def test_profiles_and_seeds():
    assert p2.SEEDS["quick"] == (0, 1, 2) and len(p2.SEEDS["paper"]) == 5 and len(p2.SEEDS["paper_full"]) == 5
    assert set(p2.SEEDS) == set(p2.PROFILES)
    full, paper = p2.PROFILES["paper_full"], p2.PROFILES["paper"]
    assert full.steps == 40_000 and full.batch_size == paper.batch_size == 2_048
    assert dataclasses.replace(paper, steps=full.steps) == full   # paper reduces the steps only


@pytest.mark.slow
def test_every_random_quantity_follows_the_seed():
    tiny = dataclasses.replace(p2.PROFILES["quick"], **TINY)
    a, b = (p2.run(dataclasses.replace(tiny, seed=s)) for s in (0, 1))
    for name in ("loss_trained", "loss_mlp_gd", "loss_zero_predictor"):
        assert a["metrics"][name] != b["metrics"][name]
    figures = p2.seed_figures([{"seed": s, "metrics": r["metrics"]} for s, r in ((0, a), (1, b))])
    assert len(figures["training_curves"].axes[0].lines) == 4    # both models, both seeds


@pytest.fixture(scope="module")
def quick():
    return p2.run(p2.PROFILES["quick"])


@pytest.mark.slow
def test_both_models_learn_the_sine_family(quick):
    m = quick["metrics"]
    assert m["max_abs_error_identity"] < 1e-10 and m["max_abs_error_baseline_layer"] < 1e-10
    assert m["loss_mlp_gd"] < 0.8 * m["loss_zero_predictor"]
    assert m["loss_trained"] < 0.8 * m["loss_zero_predictor"]
    assert m["cos_sensitivity"] > 0.5                                         # slopes mostly agree
    for name in ("loss_trained", "loss_mlp_gd"):                            # noise small against the loss
        assert 0 < quick["noise"][name] < 0.1 * m[name]


@pytest.mark.slow  # minutes of the everyday suite on two cores; run by make test-all
def test_each_model_records_what_its_training_cost(quick):
    steps = p2.PROFILES["quick"].steps
    for model in ("trained", "mlp_gd"):
        cost = quick["metrics"]["timing"][model]
        assert cost["steps"] == cost["cpu_steps"] == steps
        assert cost["ms_per_step"] > 0 and cost["cpu_ms_per_step"] > 0 and cost["cpu_seconds"] > 0


@pytest.mark.slow
def test_paper_full_path_end_to_end():
    config = dataclasses.replace(p2.PROFILES["paper_full"], **TINY)
    result = p2.run(config)
    m = result["metrics"]
    assert m["curve"]["step"] == [0, 10, 20]
    assert np.isfinite([m["loss_trained"], m["loss_mlp_gd"], m["cos_sensitivity"]]).all()
    assert set(result["noise"]) == {"loss_trained", "loss_mlp_gd", "loss_ratio"}
