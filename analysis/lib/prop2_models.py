"""Sine-wave tasks, models and exact checks of Proposition 2 (von Oswald et al.,
"Transformers learn in-context by gradient descent", ICML 2023, §4 and Appendix A.4;
official notebook non_linear_regression.ipynb).

Tasks: x ~ U(-5, 5), y = A sin(x + phi), N context points; tokens (x_i, y_i) and the
query (x_q, 0).

Both models of the notebook share one front end: a linear embedding E of the 2-dim
token to `width` = 40 dimensions (no bias) and a residual MLP,
h = E t + W2 gelu(W1 E t + b1) + b2 (40 -> 160 -> 40, biases).

* Trained: one free LSA layer (key size 40) on the tokens h; read-out -h_q[-1]
  after the layer.
* "MLP + one GD step" (the code's baseline): the Proposition 1 layer with W0 = 0 and
  step eta, frozen, on the same 40-dim tokens: the first 39 entries f = h[:39] are the
  features, the last u = h[39] the target slot, so
  yhat = -u_q + (eta / N) sum_i (f_i . f_q) u_i. Only E and the MLP are meta-trained.
  Features and target slot are functions of the whole token (x, y), as in the code.

Proposition 2 itself (features m(x) of the input only, a read-out W0) is checked
exactly by `identity_check`; `baseline_layer_check` checks that the fast baseline
predictor is the frozen layer run on the embedded tokens.

Speed: the attention is needed at the query only and is reassociated
(logits h_i . W_KQ h_q = t_i . E^T z + g_i . W2^T z + b2 . z, g_i the hidden
activations), so the 160 -> 40 layer runs for the query alone.
"""
import math
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from analysis.lib import lsa
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib
from analysis.lib.keys import named_keys

# ------------------------------------------------------------------ tasks

def sine(config, u_x, u_amp, u_phase):
    """Inputs (..., N+1) and targets y = A sin(x + phi) from uniforms; the last point is the query."""
    x = config.x_range * (u_x - 0.5)                                      # (..., N+1)
    amp = config.amp_low + (config.amp_high - config.amp_low) * u_amp     # (...,)
    phase = math.pi * (u_amp if config.tie_phase_to_amplitude else u_phase)
    return x, amp[..., None] * jnp.sin(x + phase[..., None])              # (..., N+1) each


def host_draws(config, rng: np.random.Generator):
    """draw(n): uniforms of n training steps of `config.batch_size` tasks (host-side, float32)."""
    B, T = config.batch_size, config.N + 1

    def draw(n):
        return {"x": rng.random((n, B, T), dtype=np.float32),
                "amp": rng.random((n, B), dtype=np.float32),
                "phase": rng.random((n, B), dtype=np.float32)}
    return task_lib.with_state(draw, rng)


def sample_tasks(config, key, n: int):
    """n fixed sine tasks drawn on the host from `key`: inputs and targets (n, N+1), the query last."""
    rng = task_lib.host_rng(key)
    u_x = rng.random((n, config.N + 1))
    u_amp, u_phase = rng.random(n), rng.random(n)
    dtype = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
    return sine(config, *(jnp.asarray(u, dtype) for u in (u_x, u_amp, u_phase)))


def raw_tokens(x, y):
    """Tokens (x_i, y_i) and the query (x_q, 0): (B, N+1, 2)."""
    return jnp.stack([x, y.at[:, -1].set(0.0)], axis=-1)


# ------------------------------------------------------------------ models

class MLP(NamedTuple):
    """Embedding and residual MLP: h0 = E t, h = h0 + W2 gelu(W1 h0 + b1) + b2."""

    E: jax.Array    # (F, n_in)   n_in = 2 for the token (x, y), 1 for x alone
    W1: jax.Array   # (H, F)
    b1: jax.Array   # (H,)
    W2: jax.Array   # (F, H)
    b2: jax.Array   # (F,)


class Trained(NamedTuple):
    """The trained model of the official notebook: embedding + residual MLP, then one LSA layer."""

    mlp: MLP        # on the whole token (x, y), F = width
    attn: lsa.LSA   # one free LSA layer on the width-dimensional tokens


def init_mlp(key, n_in: int, F: int, H: int, scale: float) -> MLP:
    """Fan-in variance scaling (truncated normal, `scale`), zero biases: the trained model's init."""
    keys = named_keys(key, "E", "W1", "W2")
    return MLP(E=train_lib.variance_scaling(keys["E"], (F, n_in), scale),
               W1=train_lib.variance_scaling(keys["W1"], (H, F), scale), b1=jnp.zeros((H,)),
               W2=train_lib.variance_scaling(keys["W2"], (F, H), scale), b2=jnp.zeros((F,)))


def init_baseline_mlp(key, F: int, H: int, scale: float) -> MLP:
    """The code's baseline init (create_weights): plain normals, std sqrt(scale/2) for E and W1
    (the token size 2 stands for the fan-in of both), sqrt(scale/F) for W2, zero biases."""
    keys = named_keys(key, "E", "W1", "W2")
    wide, narrow = (scale / 2) ** 0.5, (scale / F) ** 0.5
    return MLP(E=wide * jax.random.normal(keys["E"], (F, 2)),
               W1=wide * jax.random.normal(keys["W1"], (H, F)), b1=jnp.zeros((H,)),
               W2=narrow * jax.random.normal(keys["W2"], (F, H)), b2=jnp.zeros((F,)))


def init_trained(key, F: int, H: int, scale: float) -> Trained:
    """Trained model at the code's init: every weight by variance scaling `scale`."""
    keys = named_keys(key, "mlp", "attn")
    return Trained(mlp=init_mlp(keys["mlp"], 2, F, H, scale),
                   attn=train_lib.init_lsa(keys["attn"], F, scale))


def hidden(m: MLP, t: jax.Array) -> jax.Array:
    """GELU activations for inputs t (..., n_in): the first layer acts on E t, n_in columns."""
    W1E = m.W1 @ m.E                                                      # (H, n_in)
    pre = jnp.einsum("...i,hi->...h", t, W1E)                             # (..., H)
    return jax.nn.gelu(pre + jnp.broadcast_to(m.b1, pre.shape))


def features(m: MLP, t: jax.Array) -> jax.Array:
    """h = E t + W2 g + b2 for inputs t (..., n_in) -> (..., F); the straightforward route."""
    h = jnp.einsum("...i,fi->...f", t, m.E) + jnp.einsum("...h,fh->...f", hidden(m, t), m.W2)
    return h + jnp.broadcast_to(m.b2, h.shape)


def _context_dots(m: MLP, t_ctx, g_ctx, v):
    """h_i . v for the context tokens without forming h_i: (B, N). v: (B, F)."""
    return (jnp.einsum("bni,bi->bn", t_ctx, v @ m.E)                      # E t_i . v
            + jnp.einsum("bnh,bh->bn", g_ctx, v @ m.W2)                   # g_i . W2^T v
            + (v @ m.b2)[:, None])                                        # b2 . v


def predict_trained(p: Trained, H_raw: jax.Array) -> jax.Array:
    """yhat (B, 1) of embedding + residual MLP + one LSA layer, from raw tokens (B, N+1, 2).

    The layer moves the query by W_PV sum_i h_i (h_i . W_KQ h_q); only its last entry is read.
    """
    W_KQ, W_PV = lsa.products(p.attn)                                     # (F, F) each
    t_ctx, t_q = H_raw[:, :-1, :], H_raw[:, -1, :]                        # (B, N, 2), (B, 2)
    g_ctx = hidden(p.mlp, t_ctx)                                          # (B, N, H)
    h_q = features(p.mlp, t_q)                                            # (B, F)
    z = h_q @ W_KQ.T                                                      # (B, F)  W_KQ h_q
    logits = _context_dots(p.mlp, t_ctx, g_ctx, z)                        # (B, N)
    w_pv = jnp.broadcast_to(W_PV[-1], h_q.shape)                          # (B, F)  last row of W_PV
    values = _context_dots(p.mlp, t_ctx, g_ctx, w_pv)                     # (B, N)  last entry of W_PV h_i
    out = h_q[:, -1] + jnp.sum(logits * values, axis=-1)                  # (B,)
    return -out[:, None]


def predict_baseline(m: MLP, H_raw: jax.Array, eta: float) -> jax.Array:
    """yhat (B, 1) = -u_q + (eta / N) sum_i (f_i . f_q) u_i, with (f, u) = h split 39 + 1 (W0 = 0)."""
    N = H_raw.shape[1] - 1
    t_ctx, t_q = H_raw[:, :-1, :], H_raw[:, -1, :]                        # (B, N, 2), (B, 2)
    g_ctx = hidden(m, t_ctx)                                              # (B, N, H)
    h_q = features(m, t_q)                                                # (B, F)
    f_q = h_q.at[:, -1].set(0.0)                                          # (B, F)  features, slot zeroed
    kernel = _context_dots(m, t_ctx, g_ctx, f_q)                          # (B, N)  f_i . f_q
    slot = jnp.zeros_like(h_q).at[:, -1].set(1.0)                         # (B, F)  picks u
    u_ctx = _context_dots(m, t_ctx, g_ctx, slot)                          # (B, N)  u_i
    return (-h_q[:, -1] + (eta / N) * jnp.sum(kernel * u_ctx, axis=-1))[:, None]


def baseline_as_lsa(m: MLP, H_raw: jax.Array, eta: float) -> jax.Array:
    """The same prediction by running the frozen Proposition 1 layer (W0 = 0) on the tokens h."""
    N, F = H_raw.shape[1] - 1, m.E.shape[0]
    layer = lsa.gd_construction(eta, N, F - 1, 1, None, H_raw.dtype)
    return lsa.predict(layer, features(m, H_raw))


# ------------------------------------------------------------------ exact checks (float64)

def _random_mlp(key, n_in: int, F: int, H: int, scale: float) -> MLP:
    """An MLP with O(1) weights and spread biases, so its features are far from linear (float64)."""
    mlp = jax.tree.map(lambda a: a.astype(jnp.float64), init_mlp(key, n_in, F, H, scale))
    return mlp._replace(b1=jnp.linspace(-1.0, 1.0, H), b2=jnp.linspace(-0.5, 0.5, F))


def identity_check(config, key) -> float:
    """Proposition 2 as stated: largest gap, in float64, between three routes to one GD step
    from W0 on MLP features m(x) of the input: the LSA layer on tokens (m(x_i), y_i), the
    kernel formula with k = m^T m, and the explicit step on the read-out."""
    with jax.enable_x64(True):
        keys = named_keys(key, "mlp", "W0", "tasks")
        F, H = config.width - 1, config.hidden
        mlp = _random_mlp(keys["mlp"], 1, F, H, config.identity_init_scale)
        W0 = jax.random.normal(keys["W0"], (F,), jnp.float64) / F ** 0.5
        x, y = sample_tasks(config, keys["tasks"], config.identity_tasks)
        eta, N = config.gd_eta, config.N

        m_all = features(mlp, x[..., None])                               # (B, N+1, F)
        m_ctx, m_q, y_ctx = m_all[:, :-1], m_all[:, -1], y[:, :-1]
        kernel = jnp.einsum("bnf,bf->bn", m_ctx, m_q)                     # k(x_i, x_q) = m(x_i)^T m(x_q)
        by_kernel = m_q @ W0 + (eta / N) * jnp.sum((y_ctx - m_ctx @ W0) * kernel, axis=-1)
        step = (eta / N) * jnp.einsum("bn,bnf->bf", y_ctx - m_ctx @ W0, m_ctx)        # (B, F)
        by_gd = jnp.sum((jnp.broadcast_to(W0, step.shape) + step) * m_q, axis=-1)
        y_slot = y.at[:, -1].set(-(m_q @ W0))                             # the query starts at -W0 m_q
        tokens = jnp.concatenate([m_all, y_slot[..., None]], axis=-1)     # (B, N+1, F+1)
        layer = lsa.gd_construction(eta, N, F, 1, W0[None, :], jnp.float64)
        by_lsa = lsa.predict(layer, tokens)[:, 0]
        routes = jnp.stack([by_kernel, by_gd, by_lsa])                    # (3, B)
        return float(jnp.max(jnp.abs(routes[:, None] - routes[None, :])))


def baseline_layer_check(config, key) -> float:
    """Largest gap, in float64, between `predict_baseline` and the frozen layer on the tokens h."""
    with jax.enable_x64(True):
        keys = named_keys(key, "mlp", "tasks")
        mlp = _random_mlp(keys["mlp"], 2, config.width, config.hidden, config.identity_init_scale)
        x, y = sample_tasks(config, keys["tasks"], config.identity_tasks)
        H_raw = raw_tokens(x, y)                                          # (B, N+1, 2)
        fast = predict_baseline(mlp, H_raw, config.gd_eta)
        return float(jnp.max(jnp.abs(fast - baseline_as_lsa(mlp, H_raw, config.gd_eta))))
