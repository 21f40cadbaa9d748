"""Meta-training of LSA models on online linear-regression tasks, as in
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§3 and Appendix A.

Settings follow the official code (google-research/self-organising-systems,
transformers_learn_icl_by_gd): Adam with b1 = 0.9, b2 = 0.98, gradient clipping by
global norm, weights drawn by fan-in variance scaling from a truncated normal with
variance scale `init_scale` (std = sqrt(init_scale / fan_in)), fresh tasks at every
step, and the loss 0.5 * mean (y_q - yhat)^2.

`train` is the one training loop of every analysis: the steps run as a
`jax.lax.scan` inside jitted chunks; `progress` and the optional evaluation run
between chunks. A step's data come from `draw`: raw draws made on the host
(`analysis.lib.tasks.regression_draws`; the next chunk is drawn while the current one
trains) or step indices from which the step draws its batch (`batch_at_step`).
The regression loss computes the query token only (`analysis.lib.lsa.query_forward`):
for one layer two matrix-vector products per task, for deeper models the context
Gram form, so a step costs O(B D^3) whatever N is.
"""
import time
from functools import partial
from typing import Any, Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from analysis.lib import checkpoint, lsa, metrics, tasks as task_lib
from analysis.lib.keys import named_keys

# Standard deviation of a unit normal truncated to [-2, 2]; dividing by it makes the
# truncated draw have the intended std, as in haiku's VarianceScaling.
_TRUNCATED_NORMAL_STD = 0.87962566103423978


def variance_scaling(key, shape: tuple[int, ...], scale: float, dtype=jnp.float32) -> jax.Array:
    """Fan-in variance scaling, truncated normal: std = sqrt(scale / fan_in).

    `shape` is (out, in) in the column convention of `analysis.lib.lsa`, so
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
    keys = named_keys(key, "W_Q", "W_K", "W_V", "P")
    return lsa.LSA(
        W_Q=variance_scaling(keys["W_Q"], lead + (D_k, D), init_scale, dtype),   # (L?, D_k, D)
        W_K=variance_scaling(keys["W_K"], lead + (D_k, D), init_scale, dtype),   # (L?, D_k, D)
        W_V=variance_scaling(keys["W_V"], lead + (D_v, D), init_scale, dtype),   # (L?, D_v, D)
        P=variance_scaling(keys["P"], lead + (D, D_v), init_scale, dtype),       # (L?, D, D_v)
    )


def adam(lr: float, clip: float, b1: float = 0.9, b2: float = 0.98) -> optax.GradientTransformation:
    """Global-norm clipping, then Adam (the official code's chain; weight decay 0, eps 1e-8)."""
    return optax.chain(optax.clip_by_global_norm(clip), optax.adam(lr, b1=b1, b2=b2))


def regression_loss(p: lsa.LSA, tasks: task_lib.Tasks, n_steps: int | None = None) -> jax.Array:
    """0.5 * mean (y_q - yhat)^2 of an LSA model on tasks, through the Gram form."""
    H = task_lib.tokens(tasks)                                        # (B, N+1, D)
    y_hat = -lsa.query_forward(p, H, n_steps)[:, -tasks.d_out:]        # (B, d_out)
    return metrics.loss(tasks.y_q, y_hat)


class Result(NamedTuple):
    """What `train` returns: the final parameters and the recorded history."""

    params: Any
    history: dict   # "step": evaluation steps (from 0) with one list per evaluated quantity;
    #                 "chunk_step", "train_loss", "chunk_seconds": per chunk, its end step,
    #                 mean training loss and wall time (drawing the next chunk included)


def make_step(loss_fn: Callable[[Any, Any], jax.Array], optimizer: optax.GradientTransformation):
    """One online step, (params, opt_state), x -> (params, opt_state), loss, on one step's data x."""
    grad_fn = jax.value_and_grad(loss_fn)

    def step(carry, x):
        params, opt_state = carry
        value, grads = grad_fn(params, x)
        # optax's Adam computes decay ** count (float ** int), which strict promotion
        # rejects; the optimiser alone runs under standard promotion.
        with jax.numpy_dtype_promotion("standard"):
            updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), value

    return step


def make_chunk_runner(step):
    """Jitted run of consecutive steps: (params, opt_state, xs) -> (params, opt_state, mean loss).

    xs holds the data of n steps with a leading axis of n (a pytree).
    """
    @jax.jit
    def run_chunk(params, opt_state, xs):
        (params, opt_state), values = jax.lax.scan(step, (params, opt_state), xs)
        return params, opt_state, jnp.mean(values)

    return run_chunk


def step_indices() -> Callable[[int], np.ndarray]:
    """A `draw` for `train` whose data are the step indices t = 0, 1, ... (int32), chunk by chunk.

    For batches drawn inside the jitted step from (key, t) (`batch_at_step`).
    """
    done = 0

    def draw(n):
        nonlocal done
        ts = np.arange(done, done + n, dtype=np.int32)                # (n,) step indices
        done += n
        return ts

    def set_state(state):
        nonlocal done
        done = state

    draw.get_state, draw.set_state = (lambda: done), set_state
    return draw


def batch_at_step(loss_fn: Callable[[Any, Any], jax.Array],
                  sample_batch: Callable[[jax.Array, int], Any], key,
                  batch_size: int) -> Callable[[Any, jax.Array], jax.Array]:
    """loss(params, t) = loss_fn(params, sample_batch(fold_in(key, t), batch_size)).

    With `step_indices()` as the draw of `train`: fresh tasks at every step that
    depend only on (key, t), so the chunk size does not change the result.
    """
    def loss(params, t):
        return loss_fn(params, sample_batch(jax.random.fold_in(key, t), batch_size))

    return loss


def train(params, loss_fn: Callable[[Any, Any], jax.Array], draw: Callable[[int], Any], *,
          steps: int, optimizer: optax.GradientTransformation, chunk_size: int = 50,
          eval_every: int | None = None, evaluate: Callable[[Any], dict] | None = None,
          progress: Callable[[int, int, str], None] | None = None,
          description: str = "training") -> Result:
    """Online training: one optimiser step per step's data, the steps in jitted `lax.scan` chunks.

    draw(n) -> pytree of arrays with a leading axis of n steps (called in order;
    it owns any stateful generator): host-side draws (`analysis.lib.tasks.regression_draws`),
    or step indices (`step_indices`) for batches drawn inside the step. The next
    chunk is drawn while the current one runs (JAX dispatches asynchronously).
    loss_fn(params, x) takes one step's slice. `evaluate(params)` (best jitted)
    adds a row of scalars to the history at step 0, every `eval_every` steps (a
    multiple of chunk_size; default: every chunk) and at the end;
    `progress(done, steps, description)` is called before the first chunk and
    after each.

    Under `litrec run` the training keeps a checkpoint (`analysis.lib.checkpoint`)
    every few minutes and at its end, and a rerun continues from it with the
    same numbers; `draw` should then have `get_state`/`set_state`
    (`analysis.lib.tasks.with_state`), else its earlier chunks are drawn again.
    """
    eval_every = chunk_size if eval_every is None else eval_every
    if eval_every % chunk_size:
        raise ValueError(f"eval_every={eval_every} must be a multiple of chunk_size={chunk_size}")
    opt_state = optimizer.init(params)
    run_chunk = make_chunk_runner(make_step(loss_fn, optimizer))
    history: dict[str, list] = {"step": [], "chunk_step": [], "train_loss": [], "chunk_seconds": []}
    kept = checkpoint.Checkpoint.for_training(params, description, steps, chunk_size)
    resumed = kept.load(params, opt_state) if kept is not None else None

    def record(done, params):
        history["step"].append(done)
        if evaluate is not None:
            for name, value in evaluate(params).items():
                history.setdefault(name, []).append(float(value))

    if resumed is None:
        done = 0
        record(0, params)
    else:                                                          # where the last run stopped
        done, params, opt_state, history, stream = resumed
        if done < steps:
            checkpoint.restore_stream(draw, stream, done, chunk_size)
    if progress is not None:
        progress(done, steps, description)
    pending = draw(min(chunk_size, steps - done)) if done < steps else None
    while done < steps:
        n = min(chunk_size, steps - done)
        start = time.perf_counter()
        params, opt_state, chunk_loss = run_chunk(params, opt_state, pending)   # dispatched
        done += n
        if done < steps:
            stream = checkpoint.stream_state(draw) if kept is not None else None
            pending = draw(min(chunk_size, steps - done))          # drawn while the chunk runs
        history["chunk_step"].append(done)
        history["train_loss"].append(float(chunk_loss))            # waits for the chunk
        history["chunk_seconds"].append(time.perf_counter() - start)
        if done % eval_every == 0 or done == steps:
            record(done, params)
        if kept is not None:
            kept.maybe_save(done, params, opt_state, history, stream if done < steps else None,
                            final=done == steps)
        if progress is not None:
            progress(done, steps, description)
    return Result(params=params, history=history)
