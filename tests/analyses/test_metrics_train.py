"""Unit tests of analysis.lib.metrics and analysis.lib.train."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis.lib import lsa, metrics
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib


def test_loss_has_the_half():
    y = jnp.array([[1.0], [2.0]])
    assert float(metrics.loss(y, jnp.zeros_like(y))) == 0.5 * (1.0 + 4.0) / 2


def test_sensitivity_of_the_construction_is_the_gd_model():
    t = task_lib.sample_tasks(jax.random.key(0), 32, 10, 10, 1)
    p = lsa.gd_construction(6.0, 10, 10)
    sensitivity = jax.jit(lambda H: metrics.input_sensitivity(lambda h: lsa.predict(p, h), H, 10))
    g = sensitivity(task_lib.tokens(t))                                                   # (B, d)
    dW = lsa.gd_delta(t.X, t.Y, 6.0)[:, 0, :]                                             # (B, d)
    np.testing.assert_allclose(g, dW, rtol=1e-4, atol=1e-6)
    assert abs(float(metrics.cosine(g, dW)) - 1.0) < 1e-5
    assert float(metrics.model_diff(g, g)) == 0.0
    assert abs(float(metrics.cosine(g, -g)) + 1.0) < 1e-5


def test_variance_scaling_std():
    w = train_lib.variance_scaling(jax.random.key(0), (400, 11), 0.002)
    assert abs(float(jnp.std(w)) / (0.002 / 11) ** 0.5 - 1.0) < 0.03
    assert float(jnp.max(jnp.abs(w))) <= 2.0 * (0.002 / 11) ** 0.5 / 0.87962566103423978 + 1e-7
    stacked = train_lib.init_lsa(jax.random.key(1), 11, 0.002, n_layers=3)
    assert stacked.W_Q.shape == (3, 11, 11) and stacked.is_stacked


@pytest.mark.slow
def test_train_is_chunk_invariant():
    def sample(key, n):
        return task_lib.sample_tasks(key, n, 10, 10, 1)

    def run(chunk):
        loss_fn = train_lib.batch_at_step(train_lib.regression_loss, sample, jax.random.key(1), 64)
        return train_lib.train(train_lib.init_lsa(jax.random.key(0), 11, 0.002), loss_fn,
                               train_lib.step_indices(), steps=20, optimizer=train_lib.adam(1e-3, 1e-3),
                               chunk_size=chunk, evaluate=lambda p: {"norm": jnp.sum(p.P ** 2)})

    a, b = run(10), run(20)
    jax.tree.map(lambda x, y: np.testing.assert_allclose(x, y, rtol=1e-5, atol=1e-8), a.params, b.params)
    assert a.history["step"] == [0, 10, 20] and a.history["chunk_step"] == [10, 20]
    assert len(a.history["norm"]) == 3 and len(a.history["train_loss"]) == 2
