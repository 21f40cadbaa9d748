"""Linear-regression tasks of von Oswald et al., "Transformers learn in-context by
gradient descent" (ICML 2023), §2-3.

A task is a teacher W ~ N(0, I) of shape (d_out, d_in) with N context pairs
(x_i, y_i = W x_i) and a query pair (x_q, y_q = W x_q). Inputs are uniform,
x ~ U(-r/2, r/2), where r is `input_range`:

* r = 1, i.e. U(-0.5, 0.5), is what the official code draws and what the
  paper's numbers (one tuned GD step: loss 0.2047) come from;
* r = 2, i.e. U(-1, 1), is what the paper's text says (one tuned step: ~0.82).

The transformer sees the task as tokens e_i = (x_i, y_i) in R^{d_in + d_out}
followed by the query token (x_q, 0): a sequence of shape (N+1, d_in + d_out).

Tasks come from JAX's generator (`sample_tasks`) or from a host-side stream
(`host_rng`, `regression_draws`): drawing 2,048 tasks of 10 x 10 inputs with JAX's
counter-based generator costs more on CPU than a training step of a two-layer LSA
(about 3.5 ms against 1-2 ms), so the deeper analyses draw each chunk of training
steps with numpy's PCG64 while the previous chunk trains, and the jitted step only
turns the raw draws into tasks (`regression_tasks`). The stream is seeded from its
own named JAX key, so every run of a profile sees the same tasks.
"""
from functools import partial
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from analysis.lib.keys import named_keys

CODE_INPUT_RANGE = 1.0  # official code: input_range = 1 means U(-0.5, 0.5)
TEXT_INPUT_RANGE = 2.0  # paper's text: U(-1, 1)


class Tasks(NamedTuple):
    """A batch of B linear-regression tasks (a JAX pytree)."""

    X: jax.Array    # (B, N, d_in)   context inputs x_i
    Y: jax.Array    # (B, N, d_out)  context targets y_i = W x_i
    x_q: jax.Array  # (B, d_in)      query input
    y_q: jax.Array  # (B, d_out)     query target
    W: jax.Array    # (B, d_out, d_in) teacher

    @property
    def n_context(self) -> int:
        """N, the number of context pairs."""
        return self.X.shape[-2]

    @property
    def d_in(self) -> int:
        """Input size."""
        return self.X.shape[-1]

    @property
    def d_out(self) -> int:
        """Target size."""
        return self.Y.shape[-1]


@partial(jax.jit, static_argnames=("n_tasks", "N", "d_in", "d_out", "dtype"))
def sample_tasks(key, n_tasks: int, N: int = 10, d_in: int = 10, d_out: int = 1,
                 input_range: float = CODE_INPUT_RANGE, w_scale: float = 1.0,
                 dtype=jnp.float32) -> Tasks:
    """Draw `n_tasks` tasks: W ~ N(0, w_scale^2 I), x ~ U(-input_range/2, input_range/2).

    The inputs are drawn as U(0, 1) and then shifted and scaled, so one key
    gives the same tasks at every `input_range` up to the scaling of x (and y):
    curves over the input range use common random numbers. Jitted: sizes and
    dtype are static, `input_range` and `w_scale` are not (no recompilation).
    """
    keys = named_keys(key, "W", "X", "x_q")
    W = w_scale * jax.random.normal(keys["W"], (n_tasks, d_out, d_in), dtype)     # (B, d_out, d_in)
    U = jax.random.uniform(keys["X"], (n_tasks, N, d_in), dtype)                 # (B, N, d_in)
    u_q = jax.random.uniform(keys["x_q"], (n_tasks, d_in), dtype)                # (B, d_in)
    X = input_range * (U - 0.5)                                               # (B, N, d_in)
    x_q = input_range * (u_q - 0.5)                                           # (B, d_in)
    Y = jnp.einsum("boi,bni->bno", W, X)                                      # (B, N, d_out)
    y_q = jnp.einsum("boi,bi->bo", W, x_q)                                    # (B, d_out)
    return Tasks(X=X, Y=Y, x_q=x_q, y_q=y_q, W=W)


def tokens(tasks: Tasks, y_q_init=None) -> jax.Array:
    """Token sequences: rows (x_i, y_i) for i = 1..N, then the query (x_q, y_q_init).

    `y_q_init` defaults to 0, the paper's query token (x_q, 0). Proposition 1
    with W0 != 0 starts it at -W0 x_q instead (see `analysis.lib.lsa`).
    Returns an array of shape (B, N+1, d_in + d_out).
    """
    if y_q_init is None:
        y_q_init = jnp.zeros_like(tasks.y_q)                                  # (B, d_out)
    context = jnp.concatenate([tasks.X, tasks.Y], axis=-1)                   # (B, N, D)
    query = jnp.concatenate([tasks.x_q, y_q_init], axis=-1)                   # (B, D)
    return jnp.concatenate([context, query[:, None, :]], axis=-2)            # (B, N+1, D)


def with_query_input(H: jax.Array, x_q: jax.Array) -> jax.Array:
    """Replace the query input x_q (the first d_in entries of the last token).

    Used to differentiate a model's prediction with respect to x_q.
    H: (..., N+1, D), x_q: (..., d_in).
    """
    d_in = x_q.shape[-1]
    return H.at[..., -1, :d_in].set(x_q)


# ------------------------------------------------------------------ host-side streams

def host_rng(key) -> np.random.Generator:
    """A numpy generator seeded from a JAX key (128 bits drawn from it)."""
    words = np.asarray(jax.random.bits(key, (4,), jnp.uint32))
    return np.random.default_rng([int(w) for w in words])


def regression_draws(rng: np.random.Generator, batch_size: int, N: int, d: int) -> Callable[[int], dict]:
    """Raw draws of linear-regression tasks for n steps: U(0, 1) inputs (context and query) and teachers."""
    def draw(n):
        return {"U": rng.random((n, batch_size, N + 1, d), dtype=np.float32),   # (n, B, N+1, d)
                "w": rng.standard_normal((n, batch_size, d), dtype=np.float32)}  # (n, B, d)
    return with_state(draw, rng)


def with_state(draw: Callable, rng: np.random.Generator) -> Callable:
    """`draw` with `get_state()` / `set_state(s)` of the generator it draws from (plain JSON),
    so a checkpointed training continues the same stream (`analysis.lib.checkpoint`)."""
    def set_state(state):
        rng.bit_generator.state = state

    draw.get_state, draw.set_state = (lambda: rng.bit_generator.state), set_state
    return draw


def regression_tasks(raw: dict, input_range: float):
    """One step's tasks from its raw draws: x ~ U(-r/2, r/2), w ~ N(0, I), y = w . x.

    Returns X (B, N, d), y (B, N), x_q (B, d), y_q (B,).
    """
    X_all = input_range * (raw["U"] - 0.5)                                 # (B, N+1, d)
    y_all = jnp.einsum("bnd,bd->bn", X_all, raw["w"])                      # (B, N+1)
    return X_all[:, :-1], y_all[:, :-1], X_all[:, -1], y_all[:, -1]


def regression_task_set(key, n: int, N: int, d: int, input_range: float) -> Tasks:
    """n fixed linear-regression tasks drawn on the host from `key`, as `Tasks`.

    The same distribution as `sample_tasks`; drawing on the host avoids compiling
    JAX's generator for every new shape (seconds on CPU).
    """
    raw = regression_draws(host_rng(key), n, N, d)(1)
    X, y, x_q, y_q = regression_tasks(jax.tree.map(lambda a: jnp.asarray(a[0]), raw), input_range)
    W = jnp.asarray(raw["w"][0])[:, None, :]                               # (n, 1, d)
    return Tasks(X=X, Y=y[..., None], x_q=x_q, y_q=y_q[:, None], W=W)
