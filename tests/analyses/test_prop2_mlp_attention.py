"""prop2-mlp-attention: MLP features followed by the Proposition 1 layer are exactly one GD
step on the read-out (kernel regression with k = m^T m), the fast predictors equal the
plain layers, and on the quick profile both sine-wave models learn (paper §4, Fig. 5)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis import lsa, prop2_mlp_attention as p2, train as train_lib


def test_identity_to_float64_precision():
    assert p2.identity_check(p2.PROFILES["quick"], jax.random.key(3)) < 1e-10


def test_fast_trained_predictor_equals_full_layers():
    config = p2.PROFILES["quick"]
    k = jax.random.key(0)
    p = p2.Trained(mlp=p2.init_mlp(k, 2, 40, 160, 0.5), attn=train_lib.init_lsa(jax.random.key(1), 40, 0.5))
    p = p._replace(mlp=p.mlp._replace(b1=jnp.linspace(-1.0, 1.0, 160), b2=jnp.linspace(-0.3, 0.3, 40)))
    x, y = p2.sample_tasks(config, jax.random.key(2), 64)
    H_raw = p2.raw_tokens(x, y)
    tokens = p2.features(p.mlp, H_raw)                                         # (B, N+1, 40)
    plain = -lsa.forward(p.attn, tokens)[:, -1, -1:]
    np.testing.assert_allclose(p2.predict_trained(p, H_raw), plain, rtol=1e-4, atol=1e-5)


def test_tied_phase_is_one_parameter_family():
    config = p2.PROFILES["quick"]
    tied = p2.Config(tie_phase_to_amplitude=True)
    x, y = p2.sample_tasks(tied, jax.random.key(0), 8)
    x2, y2 = p2.sample_tasks(config, jax.random.key(0), 8)
    np.testing.assert_allclose(x, x2)
    assert not np.allclose(y, y2)


@pytest.fixture(scope="module")
def quick():
    return p2.run(p2.PROFILES["quick"])["metrics"]


def test_both_models_learn_the_sine_family(quick):
    assert quick["max_abs_error_identity"] < 1e-10
    assert quick["loss_mlp_gd"] < 0.6 * quick["loss_zero_predictor"]
    assert quick["loss_trained"] < 0.8 * quick["loss_zero_predictor"]
    assert quick["cos_sensitivity"] > 0.5                                     # slopes mostly agree
