"""Metrics that compare a trained transformer with gradient descent, after
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§3 ("Analyzing the trained transformer"), computed as the official code does.

For a model f (the raw query read-out) evaluated on tasks b = 1..B:

* loss          0.5 * mean_b ||y_b - f_b||^2 (with the 1/2 of the code; eq. 5 has none)
* pred diff     mean_b ||f_a,b - f_b,b||
* sensitivity   g_b = d f_b / d x_q, the implicit linear model of the query
                (for LSA without the query among the keys, f is linear in x_q)
* cosine        mean_b  g_a,b . g_b,b / (|g_a,b| |g_b,b|)
* model diff    mean_b ||g_a,b - g_b,b||_2
"""
from typing import Callable

import jax
import jax.numpy as jnp

from analysis.lib.tasks import with_query_input

_EPS = 1e-8  # guards the cosine's norms, as the official code does


def loss(y: jax.Array, y_hat: jax.Array) -> jax.Array:
    """0.5 * mean over tasks of ||y - y_hat||^2. y, y_hat: (B, d_out)."""
    return 0.5 * jnp.mean(jnp.sum((y - y_hat) ** 2, axis=-1))


def prediction_diff(f_a: jax.Array, f_b: jax.Array) -> jax.Array:
    """mean over tasks of ||f_a - f_b|| (|f_a - f_b| for one output). (B, d_out) each."""
    return jnp.mean(jnp.linalg.norm(f_a - f_b, axis=-1))


def input_sensitivity(predict: Callable[[jax.Array], jax.Array], H: jax.Array,
                      d_in: int) -> jax.Array:
    """g = d f / d x_q for every task, by reverse-mode differentiation.

    predict maps tokens (B, N+1, D) to predictions (B, d_out) task by task
    (no mixing across the batch), so the derivative of the batch sum with
    respect to each task's x_q is that task's own Jacobian.
    Returns (B, d_in) for one output, (B, d_out, d_in) otherwise.
    """
    x_q = H[:, -1, :d_in]                                                      # (B, d_in)
    jac = jax.jacrev(lambda xq: jnp.sum(predict(with_query_input(H, xq)), axis=0))(x_q)  # (d_out, B, d_in)
    jac = jnp.swapaxes(jac, 0, 1)                                              # (B, d_out, d_in)
    return jac[:, 0, :] if jac.shape[1] == 1 else jac


def _per_task(g: jax.Array) -> jax.Array:
    return g.reshape(g.shape[0], -1)                                           # (B, d_out * d_in)


def cosine(g_a: jax.Array, g_b: jax.Array) -> jax.Array:
    """Mean over tasks of the cosine between two sensitivities (B, ...)."""
    a, b = _per_task(g_a), _per_task(g_b)
    a = a / (jnp.linalg.norm(a, axis=-1, keepdims=True) + _EPS)
    b = b / (jnp.linalg.norm(b, axis=-1, keepdims=True) + _EPS)
    return jnp.mean(jnp.sum(a * b, axis=-1))


def model_diff(g_a: jax.Array, g_b: jax.Array) -> jax.Array:
    """Mean over tasks of the L2 distance between two sensitivities (B, ...)."""
    return jnp.mean(jnp.linalg.norm(_per_task(g_a) - _per_task(g_b), axis=-1))


def compare(predict_a: Callable, predict_b: Callable, H: jax.Array, y_q: jax.Array,
            d_in: int) -> dict:
    """Losses of two models on the same tasks and the three alignment measures.

    Returns loss_a, loss_b, pred_diff, cos_sensitivity, model_diff (JAX scalars).
    """
    f_a, f_b = predict_a(H), predict_b(H)                                      # (B, d_out) each
    g_a = input_sensitivity(predict_a, H, d_in)                                # (B, d_in)
    g_b = input_sensitivity(predict_b, H, d_in)                                # (B, d_in)
    return {
        "loss_a": loss(y_q, f_a),
        "loss_b": loss(y_q, f_b),
        "pred_diff": prediction_diff(f_a, f_b),
        "cos_sensitivity": cosine(g_a, g_b),
        "model_diff": model_diff(g_a, g_b),
    }
