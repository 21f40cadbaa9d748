"""Unit tests of analysis.lib.lsa and analysis.lib.tasks: the constructions against explicit gradient descent."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.lib import lsa, metrics
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib


def _tasks(seed, n, N, d_in, d_out, dtype=jnp.float64):
    return task_lib.sample_tasks(jax.random.key(seed), n, N, d_in, d_out, dtype=dtype)


def test_tasks_shapes_ranges_and_tokens():
    t = _tasks(0, 64, 7, 3, 2, jnp.float32)
    assert t.X.shape == (64, 7, 3) and t.Y.shape == (64, 7, 2) and t.W.shape == (64, 2, 3)
    assert float(jnp.max(jnp.abs(t.X))) <= 0.5 and float(jnp.max(jnp.abs(t.x_q))) <= 0.5
    np.testing.assert_allclose(t.Y, jnp.einsum("boi,bni->bno", t.W, t.X), rtol=1e-6)
    H = task_lib.tokens(t)
    assert H.shape == (64, 8, 5)
    assert float(jnp.max(jnp.abs(H[:, -1, 3:]))) == 0.0          # the query is (x_q, 0)
    wide = task_lib.sample_tasks(jax.random.key(0), 64, 7, 3, 2, input_range=2.0)
    np.testing.assert_allclose(wide.X, 2.0 * t.X, rtol=1e-6)       # same draws, scaled


_forward = jax.jit(lsa.forward)
_predict = jax.jit(lsa.predict, static_argnames=("d_out", "n_steps"))


@settings(max_examples=8, deadline=None)
@given(N=st.integers(1, 12), d_in=st.integers(1, 6), d_out=st.integers(1, 4),
       eta=st.floats(0.01, 5.0), with_W0=st.booleans(), seed=st.integers(0, 2**16))
def test_construction_is_one_gd_step_for_every_token(N, d_in, d_out, eta, with_W0, seed):
    """Random sizes, step sizes and W0: the layer's output is the explicit step, done in NumPy."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-0.5, 0.5, (3, N, d_in))
    Y = X @ rng.normal(size=(3, d_in, d_out))                              # (3, N, d_out)
    x_q = rng.uniform(-0.5, 0.5, (3, 1, d_in))
    W0 = rng.normal(size=(d_out, d_in)) if with_W0 else np.zeros((d_out, d_in))
    H = np.concatenate([np.concatenate([X, Y], -1),
                        np.concatenate([x_q, np.zeros((3, 1, d_out))], -1)], 1)  # (3, N+1, D)
    dW = -(eta / N) * np.einsum("bno,bni->boi", X @ W0.T - Y, X)            # (3, d_out, d_in)
    expected = H.copy()
    expected[..., d_in:] -= np.einsum("boi,bti->bto", dW, H[..., :d_in])
    with jax.enable_x64(True):
        p = lsa.gd_construction(eta, N, d_in, d_out, jnp.asarray(W0), jnp.float64)
        out = _forward(p, jnp.asarray(H))
    np.testing.assert_allclose(np.asarray(out), expected, atol=1e-12)


def test_recurrent_construction_is_k_gd_steps_from_W0():
    with jax.enable_x64(True):
        t = _tasks(1, 5, 9, 4, 2)
        W0 = jax.random.normal(jax.random.key(2), (2, 4), jnp.float64)
        H = task_lib.tokens(t, y_q_init=-jnp.einsum("oi,bi->bo", W0, t.x_q))
        p = lsa.gd_construction(0.8, 9, 4, 2, W0, jnp.float64)
        for K in (1, 2, 3):
            np.testing.assert_allclose(_predict(p, H, 2, n_steps=K),
                                       lsa.gd_predict(t.X, t.Y, t.x_q, 0.8, K, W0), atol=1e-12)


def test_gd_plus_plus_construction_transforms_inputs():
    with jax.enable_x64(True):
        t = _tasks(3, 4, 6, 3, 1)
        H = task_lib.tokens(t)
        out = _forward(lsa.gd_plus_plus_construction(2.0, 0.3, 6, 3, 1, dtype=jnp.float64), H)
        XtX = jnp.einsum("bni,bnj->bij", t.X, t.X)                         # (B, d, d), sum_i x_i x_i^T
        x_new = H[..., :3] - 0.3 * jnp.einsum("bij,btj->bti", XtX, H[..., :3])
        y_new = H[..., 3:] - jnp.einsum("boi,bti->bto", lsa.gd_delta(t.X, t.Y, 2.0), H[..., :3])
        np.testing.assert_allclose(out, jnp.concatenate([x_new, y_new], -1), atol=1e-12)


_query = jax.jit(lsa.query_forward, static_argnames=("n_steps",))
_forward_k = jax.jit(lsa.forward, static_argnames=("n_steps",))


@pytest.mark.slow
@pytest.mark.parametrize("K", [1, 3, 5])   # one layer, the matrix-vector route, the Gram route
def test_query_forward_matches_token_forward(K):
    with jax.enable_x64(True):
        H = task_lib.tokens(_tasks(4, 6, 5, 4, 2))
        shared = train_lib.init_lsa(jax.random.key(K), 6, 0.3, dtype=jnp.float64)
        stacked = train_lib.init_lsa(jax.random.key(K), 6, 0.3, n_layers=K, dtype=jnp.float64)
        np.testing.assert_allclose(_query(shared, H, K), _forward_k(shared, H, K)[:, -1], atol=1e-12)
        np.testing.assert_allclose(_query(stacked, H), _forward_k(stacked, H)[:, -1], atol=1e-12)
        gram = jax.jit(lsa.query_forward_gram)(stacked, lsa.context_gram(H), H[:, -1])
        np.testing.assert_allclose(gram, _forward_k(stacked, H)[:, -1], atol=1e-12)


def test_products_determine_the_layer():
    with jax.enable_x64(True):
        H = task_lib.tokens(_tasks(5, 4, 5, 3, 1))
        p = train_lib.init_lsa(jax.random.key(0), 4, 0.5, key_size=7, value_size=2, dtype=jnp.float64)
        np.testing.assert_allclose(_forward_k(lsa.from_products(*lsa.products(p)), H),
                                   _forward_k(p, H), atol=1e-12)


def test_closed_form_eta_is_the_minimiser():
    t = _tasks(6, 4096, 10, 10, 1, jnp.float32)
    eta = lsa.tune_eta_one_step(t.X, t.Y, t.x_q, t.y_q)
    s = lsa.one_step_direction(t.X, t.Y, t.x_q)
    searched = lsa.tune_scalar(lambda e: metrics.loss(t.y_q, e * s), 0.0, 25.0)
    assert abs(float(eta) - float(searched)) < 1e-3 * float(eta)
    assert 5.0 < float(eta) < 7.5                                          # the paper's ~6 for U(-0.5, 0.5)
