"""Proposition 3's tokens, two-layer model and exact construction (von Oswald et al.,
"Transformers learn in-context by gradient descent", ICML 2023, §4 and Appendix A.2),
for the analysis `analysis.prop3_token_building`.

Tokens. Linear regression tasks as in `analysis.lib.tasks` (d = 10, N = 10, y = w.x,
x ~ U(-0.5, 0.5), the official code's range). Every token has a data part of d + 1
entries followed by a sinusoidal positional encoding pe(t) of size 10 (the official
one: pe_{2i}(t) = sin(t w_i), pe_{2i+1}(t) = cos(t w_i), w_i = 10000^{-2i/10}),
concatenated, so D = 21:

    e_{2j} = (x_j, 0, pe(2j)),   e_{2j+1} = (0_d, y_j, pe(2j+1)),   j = 0..N-1,
    e_{2N} = (x_q, 0, pe(2N))                                       (the query; 2N+1 = 21 tokens).

Two token formats (`TOKEN_FORMATS`):

* "slot" (above): the target has its own slot (index d), 21-dim tokens, and the
  prediction is read, as everywhere in `analysis`, as minus the target slot of
  the query: the layer-2 construction below then needs no mask;
* "official" (the official notebook's): a 10-entry data part, x-tokens (x_j),
  target tokens (0, .., 0, y_j) putting y_j in the slot of the last input
  coordinate, the query (x_q), plus the same 10-dim encoding: 20-dim tokens;
  the prediction is minus the last entry of the query token (a positional
  entry), as the code reads it. The construction below is for the slot format
  only: in the official format a target token's y_j sits where an x-token has
  x_{j,d-1}, so layer 2's keys see it.

Model (the official notebook's): layer 1 is softmax self-attention,
e_s <- e_s + P_1 sum_t softmax_t(q_s.k_t / sqrt(D_k)) v_t, layer 2 is linear
self-attention (`analysis.lib.lsa.layer`); in both, every token is updated and the keys
and values are the 2N context tokens only (the query is not a key), one head, key
size D, no biases. Trained on fresh tasks at each step with 0.5 * mean (y_q - yhat)^2.

Construction (the analysis checks it first). Shifting a sinusoid by one position is a fixed
rotation per frequency pair, pe(t + 1) = R pe(t). Layer 1 takes W_Q = beta sqrt(D_k) R
and W_K = I on the positional block (zero elsewhere), so logit(s, t) =
beta pe(s + 1).pe(t): maximal at t = s + 1 with a margin of about 0.47 beta (the
positions' dot products are sum_i cos(w_i (s + 1 - t))), so with beta = 100 the
x-token 2j attends only to its own target token 2j + 1. Its value-projection writes
into one positional slot r the attended token's target minus (R^{-1} pe(t))_r, so
at the x-token slot r becomes pe_r(2j) + y_j - pe_r(2j) = y_j (`copy_error`). Why
not write y_j into the target slot itself: the query also attends somewhere (its
s + 1 is no key; it lands on a target token), and what it copies would then sit
in the read-out slot. Written into slot r, it is never read. Layer 2 is Prop 1 on the x-tokens:
W_Q = W_K = projection on the inputs, W_V reads -slot r into the target slot,
P = eta / N. The target tokens have zero inputs after layer 1 (layer 1 only
writes slot r), so their keys are zero and they drop out of the sum: the
query's read-out is exactly (eta / N) sum_j y_j x_j.x_q, one GD step from 0.
"""
import math

import jax
import jax.numpy as jnp
import numpy as np

from analysis.lib import lsa


# ------------------------------------------------------------------ tokens

def positional_encoding(n_tokens: int, size: int, base: float) -> np.ndarray:
    """Sinusoidal encoding (n_tokens, size): sin(t w_i) at 2i, cos(t w_i) at 2i + 1."""
    t = np.arange(n_tokens, dtype=np.float64)[:, None]                    # (T, 1)
    w = base ** (-np.arange(0, size, 2, dtype=np.float64) / size)          # (size/2,)
    pe = np.zeros((n_tokens, size))
    pe[:, 0::2], pe[:, 1::2] = np.sin(t * w), np.cos(t * w)
    return pe.astype(np.float32)


def shift_rotation(size: int, base: float, shift: int = 1) -> np.ndarray:
    """R with pe(t + shift) = R pe(t) for every t (a rotation per (sin, cos) pair)."""
    w = base ** (-np.arange(0, size, 2, dtype=np.float64) / size)
    R = np.zeros((size, size))
    for i, wi in enumerate(w):
        c, s = np.cos(shift * wi), np.sin(shift * wi)
        R[2 * i:2 * i + 2, 2 * i:2 * i + 2] = [[c, s], [-s, c]]   # (sin, cos) -> shifted
    return R.astype(np.float32)


def separate_tokens(X: jax.Array, Y: jax.Array, x_q: jax.Array, pe: jax.Array) -> jax.Array:
    """Token sequences (B, 2N+1, d+1+P): x-tokens (x_j, 0), target tokens (0, y_j), query (x_q, 0).

    X: (B, N, d), Y: (B, N, 1), x_q: (B, d), pe: (2N+1, P).
    """
    B, N, d = X.shape
    x_tok = jnp.concatenate([X, jnp.zeros_like(Y)], axis=-1)             # (B, N, d+1)
    y_tok = jnp.concatenate([jnp.zeros_like(X), Y], axis=-1)             # (B, N, d+1)
    pairs = jnp.stack([x_tok, y_tok], axis=2).reshape(B, 2 * N, d + 1)   # (B, 2N, d+1), x then y
    query = jnp.concatenate([x_q, jnp.zeros_like(x_q[:, :1])], axis=-1)  # (B, d+1)
    data = jnp.concatenate([pairs, query[:, None, :]], axis=1)           # (B, 2N+1, d+1)
    pe_b = jnp.broadcast_to(pe, (B,) + pe.shape)                         # (B, 2N+1, P)
    return jnp.concatenate([data, pe_b], axis=-1)                        # (B, 2N+1, D)


def official_tokens(X: jax.Array, Y: jax.Array, x_q: jax.Array, pe: jax.Array) -> jax.Array:
    """The official code's sequences (B, 2N+1, d+P): x-tokens (x_j), targets (0, .., 0, y_j), query (x_q).

    X: (B, N, d), Y: (B, N, 1), x_q: (B, d), pe: (2N+1, P).
    """
    B, N, d = X.shape
    y_tok = jnp.concatenate([jnp.zeros_like(X[..., :-1]), Y], axis=-1)   # (B, N, d): y_j in the last slot
    pairs = jnp.stack([X, y_tok], axis=2).reshape(B, 2 * N, d)           # (B, 2N, d), x then y
    data = jnp.concatenate([pairs, x_q[:, None, :]], axis=1)             # (B, 2N+1, d)
    pe_b = jnp.broadcast_to(pe, (B,) + pe.shape)                         # (B, 2N+1, P)
    return jnp.concatenate([data, pe_b], axis=-1)                        # (B, 2N+1, D)


# token format -> (builder of the sequences, token size D, index of the query entry read (negated))
TOKEN_FORMATS = {
    "slot": (separate_tokens, lambda d, P: d + 1 + P, lambda d, P: d),
    "official": (official_tokens, lambda d, P: d + P, lambda d, P: d + P - 1),
}


def token_format(name: str, d: int, pe_size: int):
    """(tokens(X, Y, x_q, pe), D, read index) of a token format, "slot" or "official"."""
    if name not in TOKEN_FORMATS:
        raise ValueError(f"token_format {name!r}: one of {sorted(TOKEN_FORMATS)}")
    build, size, read = TOKEN_FORMATS[name]
    return build, size(d, pe_size), read(d, pe_size)


# ------------------------------------------------------------------ the two layers

def _softmax_logits(p: lsa.LSA, H: jax.Array) -> jax.Array:
    """logit(s, t) = (W_K e_t).(W_Q e_s) = e_t^T W_KQ e_s, before the 1 / sqrt(D_k). (B, 2N+1, 2N)."""
    context = H[:, :-1, :]                                                # (B, 2N, D)
    W_KQ, _ = lsa.products(p)                                             # (D, D)
    z = jnp.einsum("ij,bsj->bsi", W_KQ, H)                                # (B, 2N+1, D)
    return jnp.einsum("bti,bsi->bst", context, z)                         # (B, 2N+1, 2N)


def attention_weights(p: lsa.LSA, H: jax.Array) -> jax.Array:
    """Softmax weights (B, 2N+1, 2N) of every token (rows) over the context tokens (columns)."""
    scale = jnp.asarray(1.0 / math.sqrt(p.W_Q.shape[-2]), H.dtype)        # 1 / sqrt(D_k), as the code
    return jax.nn.softmax(scale * _softmax_logits(p, H), axis=-1)


def softmax_layer(p: lsa.LSA, H: jax.Array) -> jax.Array:
    """Layer 1: e_s <- e_s + W_PV sum_t a(s, t) e_t over context tokens t. (B, 2N+1, D)."""
    _, W_PV = lsa.products(p)                                             # (D, D)
    A = attention_weights(p, H)                                           # (B, 2N+1, 2N)
    mixed = jnp.einsum("bst,btd->bsd", A, H[:, :-1, :])                   # (B, 2N+1, D)
    return H + jnp.einsum("ij,bsj->bsi", W_PV, mixed)                     # (B, 2N+1, D)


def predict(params: tuple[lsa.LSA, lsa.LSA], H: jax.Array, read: int) -> jax.Array:
    """Two-layer prediction: minus entry `read` of the query (slot format: d; official: D - 1). -> (B, 1)."""
    p1, p2 = params
    e_q = lsa.query_forward(p2, softmax_layer(p1, H))                     # (B, D), layer 2 on the query only
    return -e_q[:, read:read + 1]


# ------------------------------------------------------------------ the construction

def construction(eta, d: int, N: int, pe_size: int, base: float, beta: float,
                 slot: int | None = None) -> tuple[lsa.LSA, lsa.LSA]:
    """The two layers of Proposition 3 (module docstring); `slot` is r, default the last entry."""
    D = d + 1 + pe_size
    r = D - 1 if slot is None else slot
    pos = slice(d + 1, D)                                                  # positional block
    R = shift_rotation(pe_size, base, 1)
    R_inv = shift_rotation(pe_size, base, -1)
    W_Q1 = np.zeros((D, D), np.float32)
    W_Q1[pos, pos] = beta * math.sqrt(D) * R   # q_s.k_t / sqrt(D) = beta (R pe(s)).pe(t) = beta pe(s+1).pe(t)
    W_K1 = np.zeros((D, D), np.float32)
    W_K1[pos, pos] = np.eye(pe_size)
    W_PV1 = np.zeros((D, D), np.float32)                                   # writes slot r only
    W_PV1[r, d] = 1.0                                                      # + the attended token's target
    W_PV1[r, pos] = -R_inv[r - (d + 1)]                                    # - (R^{-1} pe(t))_r
    eye = np.eye(D, dtype=np.float32)
    layer1 = lsa.LSA(W_Q=jnp.asarray(W_Q1), W_K=jnp.asarray(W_K1), W_V=jnp.asarray(W_PV1),
                     P=jnp.asarray(eye))
    x_block = np.zeros((D, D), np.float32)
    x_block[:d, :d] = np.eye(d)
    W_V2 = np.zeros((D, D), np.float32)
    W_V2[d, r] = -1.0                                                      # v_t = -slot r (= -y_j)
    P2 = np.zeros((D, D), np.float32)
    P2[d, d] = 1.0
    layer2 = lsa.LSA(W_Q=jnp.asarray(x_block), W_K=jnp.asarray(x_block), W_V=jnp.asarray(W_V2),
                     P=(jnp.asarray(eta, jnp.float32) / N) * jnp.asarray(P2))
    return layer1, layer2
