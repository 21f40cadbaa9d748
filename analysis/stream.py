"""Online meta-training fed from a host-side task stream, for the deeper analyses of
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§3-4 (fresh tasks at every step, as in the official code).

Why a host stream: drawing 2,048 tasks of 10 x 10 inputs with JAX's counter-based
generator costs more on CPU than a training step of a two-layer LSA (about
3.5 ms against 1-2 ms). Here numpy's PCG64 draws each chunk of steps while the
previous chunk trains (JAX dispatches asynchronously), and the jitted step only
turns the raw draws into tasks. The stream is seeded from its own named JAX
key, so every run of a profile sees the same tasks.

`train` runs the steps as a `lax.scan` over chunks; `evaluate(params)` and
`progress(done, total, description)` run between chunks.
"""
from typing import Any, Callable, NamedTuple

import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

from analysis import tasks as task_lib


def host_rng(key) -> np.random.Generator:
    """A numpy generator seeded from a JAX key (128 bits drawn from it)."""
    words = np.asarray(jax.random.bits(key, (4,), jnp.uint32))
    return np.random.default_rng([int(w) for w in words])


def regression_draws(rng: np.random.Generator, batch_size: int, N: int, d: int) -> Callable[[int], dict]:
    """Raw draws of linear-regression tasks for n steps: U(0, 1) inputs (context and query) and teachers."""
    def draw(n):
        return {"U": rng.random((n, batch_size, N + 1, d), dtype=np.float32),   # (n, B, N+1, d)
                "w": rng.standard_normal((n, batch_size, d), dtype=np.float32)}  # (n, B, d)
    return draw


def regression_tasks(raw: dict, input_range: float):
    """One step's tasks from its raw draws: x ~ U(-r/2, r/2), w ~ N(0, I), y = w . x.

    Returns X (B, N, d), y (B, N), x_q (B, d), y_q (B,).
    """
    X_all = input_range * (raw["U"] - 0.5)                                 # (B, N+1, d)
    y_all = jnp.einsum("bnd,bd->bn", X_all, raw["w"])                      # (B, N+1)
    return X_all[:, :-1], y_all[:, :-1], X_all[:, -1], y_all[:, -1]


def regression_task_set(key, n: int, N: int, d: int, input_range: float):
    """n fixed linear-regression tasks drawn on the host from `key`, as `analysis.tasks.Tasks`.

    The same distribution as `analysis.tasks.sample_tasks`; drawing on the host avoids
    compiling JAX's generator for every new shape (seconds on CPU).
    """
    raw = regression_draws(host_rng(key), n, N, d)(1)
    X, y, x_q, y_q = regression_tasks(jax.tree.map(lambda a: jnp.asarray(a[0]), raw), input_range)
    W = jnp.asarray(raw["w"][0])[:, None, :]                               # (n, 1, d)
    return task_lib.Tasks(X=X, Y=y[..., None], x_q=x_q, y_q=y_q[:, None], W=W)


class Result(NamedTuple):
    params: Any
    history: dict   # "step": evaluation steps (from 0) with one list per evaluated quantity;
    #                 "chunk_step", "train_loss", "chunk_seconds": per chunk, its end step,
    #                 mean training loss and wall time (drawing the next chunk included)


def train(params, loss_fn: Callable[[Any, Any], jax.Array], draw: Callable[[int], Any], *,
          steps: int, optimizer: optax.GradientTransformation, chunk_size: int = 50,
          eval_every: int | None = None, evaluate: Callable[[Any], dict] | None = None,
          progress: Callable[[int, int, str], None] | None = None,
          description: str = "training") -> Result:
    """Online training: one optimiser step per batch of raw draws.

    draw(n) -> pytree of numpy arrays with a leading axis of n steps (called in
    order; it owns the stateful generator). loss_fn(params, raw) takes one step's
    slice. evaluate runs at step 0 and every `eval_every` steps (a multiple of
    chunk_size; default: every chunk) and at the end.
    """
    eval_every = chunk_size if eval_every is None else eval_every
    if eval_every % chunk_size:
        raise ValueError(f"eval_every={eval_every} must be a multiple of chunk_size={chunk_size}")
    opt_state = optimizer.init(params)
    grad_fn = jax.value_and_grad(loss_fn)

    def step(carry, raw):
        params, opt_state = carry
        value, grads = grad_fn(params, raw)
        # optax's Adam computes decay ** count (float ** int), which strict promotion
        # rejects; the optimiser alone runs under standard promotion.
        with jax.numpy_dtype_promotion("standard"):
            updates, opt_state = optimizer.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), value

    @jax.jit
    def run_chunk(params, opt_state, raws):
        (params, opt_state), values = jax.lax.scan(step, (params, opt_state), raws)
        return params, opt_state, jnp.mean(values)

    history: dict[str, list] = {"step": [], "chunk_step": [], "train_loss": [], "chunk_seconds": []}

    def record(done, params):
        history["step"].append(done)
        if evaluate is not None:
            for name, value in evaluate(params).items():
                history.setdefault(name, []).append(float(value))

    record(0, params)
    if progress is not None:
        progress(0, steps, description)
    done = 0
    pending = draw(min(chunk_size, steps)) if steps else None
    while done < steps:
        n = min(chunk_size, steps - done)
        start = time.perf_counter()
        params, opt_state, chunk_loss = run_chunk(params, opt_state, pending)   # dispatched
        done += n
        if done < steps:
            pending = draw(min(chunk_size, steps - done))          # drawn while the chunk runs
        history["chunk_step"].append(done)
        history["train_loss"].append(float(chunk_loss))            # waits for the chunk
        history["chunk_seconds"].append(time.perf_counter() - start)
        if done % eval_every == 0 or done == steps:
            record(done, params)
        if progress is not None:
            progress(done, steps, description)
    return Result(params=params, history=history)
