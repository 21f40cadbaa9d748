"""Meta-training of LSA models on online linear-regression tasks, as in
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§3 and Appendix A.

Settings follow the official code (paper-facts): Adam with b1 = 0.9, b2 = 0.98,
gradient clipping by global norm, weights drawn by fan-in variance scaling from a
truncated normal with variance scale `init_scale` (std = sqrt(init_scale / fan_in)),
fresh tasks at every step, and the loss 0.5 * mean (y_q - yhat)^2.

Speed: the whole training is `jax.lax.scan` over steps inside jitted chunks;
`progress` and the optional evaluation run between chunks. The regression loss
computes the query token only (`analysis.lsa.query_forward`): for one layer two
matrix-vector products per task, for deeper models the context Gram form, so a
step costs O(B D^3) whatever N is.
"""
from functools import partial
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import optax

from analysis import lsa, metrics, tasks as task_lib
from analysis.keys import named_keys

# Standard deviation of a unit normal truncated to [-2, 2]; dividing by it makes the
# truncated draw have the intended std, as in haiku's VarianceScaling.
_TRUNCATED_NORMAL_STD = 0.87962566103423978


def variance_scaling(key, shape: tuple[int, ...], scale: float, dtype=jnp.float32) -> jax.Array:
    """Fan-in variance scaling, truncated normal: std = sqrt(scale / fan_in).

    `shape` is (out, in) in the column convention of `analysis.lsa`, so
    fan_in = shape[-1].
    """
    std = (scale / shape[-1]) ** 0.5 / _TRUNCATED_NORMAL_STD
    return std * jax.random.truncated_normal(key, -2.0, 2.0, shape, dtype)


@partial(jax.jit, static_argnames=("D", "init_scale", "n_layers", "key_size", "value_size", "dtype"))
def init_lsa(key, D: int, init_scale: float, n_layers: int | None = None,
             key_size: int | None = None, value_size: int | None = None,
             dtype=jnp.float32) -> lsa.LSA:
    """Random LSA weights: one layer (n_layers=None) or a stack of n_layers.

    key_size and value_size default to the token size D (the code's key size 11
    for d = 10).
    """
    D_k = D if key_size is None else key_size
    D_v = D if value_size is None else value_size
    lead = () if n_layers is None else (n_layers,)
    k = named_keys(key, "W_Q", "W_K", "W_V", "P")
    return lsa.LSA(
        W_Q=variance_scaling(k["W_Q"], lead + (D_k, D), init_scale, dtype),   # (L?, D_k, D)
        W_K=variance_scaling(k["W_K"], lead + (D_k, D), init_scale, dtype),   # (L?, D_k, D)
        W_V=variance_scaling(k["W_V"], lead + (D_v, D), init_scale, dtype),   # (L?, D_v, D)
        P=variance_scaling(k["P"], lead + (D, D_v), init_scale, dtype),       # (L?, D, D_v)
    )


def adam(lr: float, clip: float, b1: float = 0.9, b2: float = 0.98) -> optax.GradientTransformation:
    """Global-norm clipping, then Adam (the official code's chain; weight decay 0, eps 1e-8)."""
    return optax.chain(optax.clip_by_global_norm(clip), optax.adam(lr, b1=b1, b2=b2))


def regression_loss(p: lsa.LSA, tasks: task_lib.Tasks, n_steps: int | None = None) -> jax.Array:
    """0.5 * mean (y_q - yhat)^2 of an LSA model on tasks, through the Gram form."""
    H = task_lib.tokens(tasks)                                        # (B, N+1, D)
    y_hat = -lsa.query_forward(p, H, n_steps)[:, -tasks.d_out:]        # (B, d_out)
    return metrics.loss(tasks.y_q, y_hat)


class TrainResult(NamedTuple):
    params: Any
    history: dict  # "step" (evaluations, from 0) with one list per evaluated quantity;
    #               "chunk_step" and "train_loss" (mean training loss of each chunk)


def make_step(loss_fn: Callable[[Any, Any], jax.Array],
              sample_batch: Callable[[jax.Array, int], Any], key, batch_size: int,
              optimizer: optax.GradientTransformation):
    """One online step, (params, opt_state), t -> (params, opt_state), loss.

    The batch of step t is sample_batch(fold_in(key, t), batch_size): fresh tasks
    every step that depend only on (key, t).
    """
    grad_fn = jax.value_and_grad(loss_fn)

    def step(carry, t):
        params, opt_state = carry
        batch = sample_batch(jax.random.fold_in(key, t), batch_size)
        value, grads = grad_fn(params, batch)
        # optax's Adam computes decay ** count (float ** int), which strict promotion
        # rejects; the optimiser alone runs under standard promotion.
        with jax.numpy_dtype_promotion("standard"):
            updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), value

    return step


def make_chunk_runner(step):
    """Jitted run of consecutive steps: (params, opt_state, ts) -> (params, opt_state, mean loss)."""
    @jax.jit
    def run_chunk(params, opt_state, ts):
        (params, opt_state), values = jax.lax.scan(step, (params, opt_state), ts)
        return params, opt_state, jnp.mean(values)

    return run_chunk


def train(params, loss_fn: Callable[[Any, Any], jax.Array],
          sample_batch: Callable[[jax.Array, int], Any], key, *, steps: int,
          batch_size: int, optimizer: optax.GradientTransformation, chunk_size: int = 250,
          evaluate: Callable[[Any], dict] | None = None,
          progress: Callable[[int, int, str], None] | None = None) -> TrainResult:
    """Online training: at step t, a fresh batch from fold_in(key, t), one optimiser step.

    loss_fn(params, batch) -> scalar; sample_batch(key, batch_size) -> batch.
    The steps run as a `lax.scan` in jitted chunks of `chunk_size`; between
    chunks (and before the first) `evaluate(params)` (best jitted) adds a row
    of scalars to the history and `progress(done, steps, "training")` is called.
    Batches depend only on (key, t), so the chunk size does not change the result.
    """
    opt_state = optimizer.init(params)
    run_chunk = make_chunk_runner(make_step(loss_fn, sample_batch, key, batch_size, optimizer))
    history: dict[str, list] = {"step": [], "chunk_step": [], "train_loss": []}

    def record(done, params):
        history["step"].append(done)
        if evaluate is not None:
            for name, value in evaluate(params).items():
                history.setdefault(name, []).append(float(value))
        if progress is not None:
            progress(done, steps, "training")

    record(0, params)
    done = 0
    while done < steps:
        n = min(chunk_size, steps - done)
        ts = jnp.arange(done, done + n)                                # (n,) step indices
        params, opt_state, chunk_loss = run_chunk(params, opt_state, ts)
        done += n
        history["chunk_step"].append(done)
        history["train_loss"].append(float(chunk_loss))
        record(done, params)
    return TrainResult(params=params, history=history)
