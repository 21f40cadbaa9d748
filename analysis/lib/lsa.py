"""Linear self-attention (LSA) and its gradient-descent constructions, after
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§2 (Proposition 1) and §3 (GD++).

The layer, as the official code computes it (column-vector convention of the paper:
q_j = W_Q e_j, k_i = W_K e_i, v_i = W_V e_i, no bias, no softmax, no scaling):

    e_j  <-  e_j + P sum_{i=1..N} v_i (k_i . q_j)          for every token j = 1..N+1,

where the sum runs over the N context tokens only (the query does not attend to
itself) and every token, the query included, is updated. Collecting the context
into its Gram matrix C = sum_i e_i e_i^T, this is e_j <- (I + M) e_j with

    M = W_PV C W_KQ,   W_PV = P W_V,   W_KQ = W_K^T W_Q,                     (*)

so the layer acts on the context through C alone, and C itself moves to
(I + M) C (I + M)^T. `forward` runs the model token by token (and alone supports
token clipping); `query_forward` follows only the query through (*), with C
applied to vectors or, for deep models, formed (`query_forward_gram`). That is
what makes training fast: batched products of tiny matrices are slow on CPU.
All routes agree to rounding (tests/analyses/test_lsa.py).

Proposition 1. With W_K = W_Q = [[I, 0], [0, 0]], W_V = [[0, 0], [W0, -I]] and
P = (eta/N) I, one layer sends every token (x_j, y_j) to (x_j, y_j - dW x_j) with

    dW = -(eta/N) sum_i (W0 x_i - y_i) x_i^T = -eta grad L(W0),
    L(W) = 1/(2N) sum_i ||W x_i - y_i||^2.

The query (x_q, y_q0) therefore ends at (x_q, y_q0 - dW x_q): from the paper's
query token (x_q, 0) it ends at -dW x_q, i.e. the read-out (the negated y-slot)
is dW x_q, the prediction of the *update* alone. Starting the query's y-slot at
-W0 x_q (the paper's choice for W0 != 0) makes the read-out (W0 + dW) x_q, the
prediction of the updated model. With W0 = 0 (all of the paper's runs) both
coincide. Applying the same layer K times is K gradient steps from W0.
"""
from functools import partial
from typing import Callable, NamedTuple, Sequence

import jax
import jax.numpy as jnp


class LSA(NamedTuple):
    """Parameters of one LSA layer, or of L stacked layers with a leading axis (L, ...).

    Shapes for one layer with token size D, key size D_k and value size D_v:
    W_Q, W_K: (D_k, D); W_V: (D_v, D); P: (D, D_v).
    """

    W_Q: jax.Array
    W_K: jax.Array
    W_V: jax.Array
    P: jax.Array

    @property
    def is_stacked(self) -> bool:
        """Whether these are L stacked layers (3-d weights) rather than one layer."""
        return self.W_Q.ndim == 3


def stack_layers(layers: Sequence[LSA]) -> LSA:
    """Stack separate (non-weight-tied) layers into one LSA with a leading layer axis."""
    return jax.tree.map(lambda *ws: jnp.stack(ws), *layers)


def products(p: LSA) -> tuple[jax.Array, jax.Array]:
    """W_KQ = W_K^T W_Q and W_PV = P W_V, the only combinations the layer depends on.

    logit(i -> j) = e_i^T W_KQ e_j and the layer adds W_PV sum_i e_i logit(i -> j)
    to e_j. (In the official code's row convention these are the transposes of
    W_Q W_K^T and W_V P; diagonals and the scale correction are the same.)
    """
    W_KQ = jnp.einsum("...ki,...kj->...ij", p.W_K, p.W_Q)   # (..., D, D)
    W_PV = jnp.einsum("...iv,...vj->...ij", p.P, p.W_V)     # (..., D, D)
    return W_KQ, W_PV


def from_products(W_KQ: jax.Array, W_PV: jax.Array) -> LSA:
    """An LSA whose products are the given W_KQ and W_PV (W_K = P = I)."""
    eye = jnp.broadcast_to(jnp.eye(W_KQ.shape[-1], dtype=W_KQ.dtype), W_KQ.shape)
    return LSA(W_Q=W_KQ, W_K=eye, W_V=W_PV, P=eye)


# ---------------------------------------------------------------- token form

def layer(p: LSA, H: jax.Array, clip: float | None = None) -> jax.Array:
    """One LSA layer on token sequences H of shape (..., N+1, D); the last token is the query."""
    context = H[..., :-1, :]                                       # (..., N, D)
    q = jnp.einsum("kd,...td->...tk", p.W_Q, H)                    # (..., N+1, D_k)
    k = jnp.einsum("kd,...nd->...nk", p.W_K, context)              # (..., N, D_k)
    v = jnp.einsum("vd,...nd->...nv", p.W_V, context)              # (..., N, D_v)
    logits = jnp.einsum("...tk,...nk->...tn", q, k)                # (..., N+1, N), no softmax
    attn = jnp.einsum("...tn,...nv->...tv", logits, v)             # (..., N+1, D_v)
    H = H + jnp.einsum("dv,...tv->...td", p.P, attn)               # (..., N+1, D), residual
    if clip is not None:
        H = jnp.clip(H, -clip, clip)
    return H


def forward(p: LSA, H: jax.Array, n_steps: int | None = None,
            clip: float | None = None) -> jax.Array:
    """Run the model on tokens H (..., N+1, D).

    A single layer (2-d weights) is applied `n_steps` times (weight-tied,
    "recurrent"; default 1); a stack (3-d weights) applies each layer once.
    """
    if p.is_stacked:
        if n_steps not in (None, p.W_Q.shape[0]):
            raise ValueError(f"a stack of {p.W_Q.shape[0]} layers runs {p.W_Q.shape[0]} steps, "
                             f"not n_steps={n_steps}")
        H, _ = jax.lax.scan(lambda h, pl: (layer(pl, h, clip), None), H, p)
        return H
    for _ in range(1 if n_steps is None else n_steps):
        H = layer(p, H, clip)
    return H


def read_out(H: jax.Array, d_out: int = 1) -> jax.Array:
    """The model's prediction: the negated y-slot of the query token. (..., N+1, D) -> (..., d_out)."""
    return -H[..., -1, -d_out:]


def predict(p: LSA, H: jax.Array, d_out: int = 1, n_steps: int | None = None,
            clip: float | None = None) -> jax.Array:
    """Query predictions of the model, (..., N+1, D) -> (..., d_out)."""
    return read_out(forward(p, H, n_steps, clip), d_out)


# ----------------------------------------------------------------- Gram form

def context_gram(H: jax.Array) -> jax.Array:
    """C = sum over the N context tokens of e_i e_i^T. (..., N+1, D) -> (..., D, D)."""
    context = H[..., :-1, :]                                       # (..., N, D)
    return jnp.einsum("...ni,...nj->...ij", context, context)      # (..., D, D)


def _gram_layer(p: LSA, C: jax.Array, e_q: jax.Array, update_context: bool):
    """One layer on (C, e_q) by (*). C: (B, D, D), e_q: (B, D)."""
    W_KQ, W_PV = products(p)                                       # (D, D) each
    if not update_context:                                         # the query alone: no (B, D, D) product
        z = jnp.einsum("ij,bj->bi", W_KQ, e_q)                     # (B, D)
        return C, e_q + jnp.einsum("ij,bjk,bk->bi", W_PV, C, z)    # (B, D)
    M = jnp.einsum("ij,bjk,kl->bil", W_PV, C, W_KQ)                # (B, D, D)
    e_q = e_q + jnp.einsum("bij,bj->bi", M, e_q)                   # (B, D)
    MC = jnp.einsum("bij,bjk->bik", M, C)                          # (B, D, D)
    MCM = jnp.einsum("bij,bkj->bik", MC, M)                        # (B, D, D), M C M^T
    C = C + MC + jnp.swapaxes(MC, -1, -2) + MCM                    # (I + M) C (I + M)^T
    return C, e_q


def query_forward_gram(p: LSA, C: jax.Array, e_q: jax.Array,
                       n_steps: int | None = None) -> jax.Array:
    """The query token after the model, computed from the context Gram matrix.

    C: (B, D, D) from `context_gram`, e_q: (B, D) the initial query token.
    Same result as `forward(p, H)[..., -1, :]` (without clipping), at a cost
    independent of N.
    """
    if p.is_stacked:
        L = p.W_Q.shape[0]
        if n_steps not in (None, L):
            raise ValueError(f"a stack of {L} layers runs {L} steps, not n_steps={n_steps}")
        if L > 1:
            first = jax.tree.map(lambda w: w[:-1], p)
            (C, e_q), _ = jax.lax.scan(
                lambda ce, pl: (_gram_layer(pl, *ce, update_context=True), None), (C, e_q), first)
        return _gram_layer(jax.tree.map(lambda w: w[-1], p), C, e_q, update_context=False)[1]
    K = 1 if n_steps is None else n_steps
    for step in range(K):
        C, e_q = _gram_layer(p, C, e_q, update_context=step < K - 1)
    return e_q


# Up to this many steps `query_forward` uses matrix-vector products only (cost 3^K
# per task, measured faster on CPU than the Gram form for K <= 4); deeper models use the Gram form.
_MATVEC_MAX_STEPS = 4


def step_products(p: LSA, n_steps: int | None = None) -> list[tuple[jax.Array, jax.Array]]:
    """(W_KQ, W_PV) for each step of the model: shared (recurrent) or per layer (stacked)."""
    if p.is_stacked:
        L = p.W_Q.shape[0]
        if n_steps not in (None, L):
            raise ValueError(f"a stack of {L} layers runs {L} steps, not n_steps={n_steps}")
        return [products(jax.tree.map(lambda w: w[l], p)) for l in range(L)]
    return [products(p)] * (1 if n_steps is None else n_steps)


def _context_matvec(steps, context: jax.Array, k: int, v: jax.Array) -> jax.Array:
    """C_k v, with C_k the context Gram matrix after k steps, without forming C_k.

    C_0 v = H_c^T (H_c v); C_k = A C_{k-1} A^T with A = I + W_PV C_{k-1} W_KQ, so
    C_k v takes three products with C_{k-1}. v: (B, D) -> (B, D).
    """
    if k == 0:
        return jnp.einsum("bnd,bn->bd", context, jnp.einsum("bnd,bd->bn", context, v))
    W_KQ, W_PV = steps[k - 1]

    def C_prev(u):
        return _context_matvec(steps, context, k - 1, u)

    a = v + jnp.einsum("ij,bi->bj", W_KQ, C_prev(jnp.einsum("ij,bi->bj", W_PV, v)))  # A^T v
    w = C_prev(a)                                                                    # C_{k-1} A^T v
    return w + jnp.einsum("ij,bj->bi", W_PV, C_prev(jnp.einsum("ij,bj->bi", W_KQ, w)))  # A w


def query_forward(p: LSA, H: jax.Array, n_steps: int | None = None) -> jax.Array:
    """The query token after the model, (B, N+1, D) -> (B, D), by the cheapest route.

    Same result as `forward(p, H)[:, -1, :]` (without clipping). Only the query
    is followed: e_q <- e_q + W_PV C_k W_KQ e_q at step k, with C_k applied to
    vectors (`_context_matvec`) for up to four steps and formed explicitly
    (`query_forward_gram`) beyond.
    """
    steps = step_products(p, n_steps)
    if len(steps) > _MATVEC_MAX_STEPS:
        return query_forward_gram(p, context_gram(H), H[:, -1, :], n_steps)
    context, e_q = H[:, :-1, :], H[:, -1, :]                       # (B, N, D), (B, D)
    for k, (W_KQ, W_PV) in enumerate(steps):
        z = jnp.einsum("ij,bj->bi", W_KQ, e_q)                     # (B, D)
        e_q = e_q + jnp.einsum("ij,bj->bi", W_PV, _context_matvec(steps, context, k, z))
    return e_q


# --------------------------------------------------- gradient-descent constructions

def _blocks(d_in: int, d_out: int, dtype):
    D = d_in + d_out
    x_block = jnp.zeros((D, D), dtype).at[:d_in, :d_in].set(jnp.eye(d_in, dtype=dtype))
    return D, x_block


@partial(jax.jit, static_argnames=("N", "d_in", "d_out", "dtype"))
def gd_construction(eta: float, N: int, d_in: int, d_out: int = 1, W0=None,
                    dtype=jnp.float32) -> LSA:
    """Proposition 1: the LSA layer that is one GD step of size eta from W0 on N points.

    W_K = W_Q = [[I_x, 0], [0, 0]], W_V = [[0, 0], [W0, -I_y]], P = (eta/N) I.
    W0 has shape (d_out, d_in) and defaults to 0 (as in all of the paper's runs).
    """
    D, x_block = _blocks(d_in, d_out, dtype)
    W0 = jnp.zeros((d_out, d_in), dtype) if W0 is None else jnp.asarray(W0, dtype)
    W_V = (jnp.zeros((D, D), dtype)
           .at[d_in:, :d_in].set(W0)
           .at[d_in:, d_in:].set(-jnp.eye(d_out, dtype=dtype)))
    P = (jnp.asarray(eta, dtype) / N) * jnp.eye(D, dtype=dtype)
    return LSA(W_Q=x_block, W_K=x_block, W_V=W_V, P=P)


@partial(jax.jit, static_argnames=("N", "d_in", "d_out", "dtype"))
def gd_plus_plus_construction(eta: float, gamma: float, N: int, d_in: int, d_out: int = 1,
                              W0=None, dtype=jnp.float32) -> LSA:
    """GD++ (§3): one GD step of size eta plus the input transform x_j <- (I - gamma X^T X) x_j.

    Every token moves to (x_j - gamma sum_i x_i x_i^T x_j, y_j - dW x_j), with dW
    the GD step of `gd_construction` computed on the inputs before the transform.
    Here P = I and W_V = [[-gamma I, 0], [(eta/N) W0, -(eta/N) I]].
    """
    D, x_block = _blocks(d_in, d_out, dtype)
    W0 = jnp.zeros((d_out, d_in), dtype) if W0 is None else jnp.asarray(W0, dtype)
    eta, gamma = jnp.asarray(eta, dtype), jnp.asarray(gamma, dtype)
    W_V = (jnp.zeros((D, D), dtype)
           .at[:d_in, :d_in].set(-gamma * jnp.eye(d_in, dtype=dtype))
           .at[d_in:, :d_in].set((eta / N) * W0)
           .at[d_in:, d_in:].set(-(eta / N) * jnp.eye(d_out, dtype=dtype)))
    return LSA(W_Q=x_block, W_K=x_block, W_V=W_V, P=jnp.eye(D, dtype=dtype))


# ------------------------------------------------------ explicit gradient descent

def gd_delta(X: jax.Array, Y: jax.Array, eta, W0=None) -> jax.Array:
    """One explicit GD step on L(W) = 1/(2N) sum_i ||W x_i - y_i||^2 from W0.

    dW = -eta grad L(W0) = -(eta/N) sum_i (W0 x_i - y_i) x_i^T.
    X: (B, N, d_in), Y: (B, N, d_out), W0: (d_out, d_in) or (B, d_out, d_in).
    Returns dW of shape (B, d_out, d_in).
    """
    N = X.shape[-2]
    residual = -Y if W0 is None else jnp.einsum("...oi,...ni->...no", W0, X) - Y  # (B, N, d_out)
    return -(eta / N) * jnp.einsum("...no,...ni->...oi", residual, X)             # (B, d_out, d_in)


def gd_weights(X: jax.Array, Y: jax.Array, eta, n_steps: int = 1, W0=None) -> jax.Array:
    """W after `n_steps` explicit GD steps of size eta from W0 (default 0). (B, d_out, d_in)."""
    B, d_out, d_in = X.shape[0], Y.shape[-1], X.shape[-1]
    W = jnp.zeros((B, d_out, d_in), X.dtype) if W0 is None else jnp.broadcast_to(W0, (B, d_out, d_in))
    for _ in range(n_steps):
        W = W + gd_delta(X, Y, eta, W)
    return W


def gd_predict(X: jax.Array, Y: jax.Array, x_q: jax.Array, eta, n_steps: int = 1,
               W0=None) -> jax.Array:
    """Query prediction of the model after `n_steps` GD steps: W_K x_q, (B, d_out)."""
    return jnp.einsum("boi,bi->bo", gd_weights(X, Y, eta, n_steps, W0), x_q)


# ----------------------------------------------------------------- tuning eta

def one_step_direction(X: jax.Array, Y: jax.Array, x_q: jax.Array) -> jax.Array:
    """s = dW(eta = 1, W0 = 0) x_q: one GD step from 0 predicts eta * s. (B, d_out)."""
    return gd_predict(X, Y, x_q, 1.0)


@jax.jit
def tune_eta_one_step(X: jax.Array, Y: jax.Array, x_q: jax.Array, y_q: jax.Array) -> jax.Array:
    """Loss-minimising eta for one GD step from W0 = 0, in closed form.

    The prediction eta * s is linear in eta, so 0.5 mean ||y_q - eta s||^2 is
    minimised by eta* = sum(y_q . s) / sum(s . s). Call it on tuning tasks kept
    apart from the evaluation tasks.
    """
    s = one_step_direction(X, Y, x_q)                              # (B, d_out)
    return jnp.sum(y_q * s) / jnp.sum(s * s)


def tune_scalar(loss_of: Callable[[jax.Array], jax.Array], lo: float, hi: float,
                n_grid: int = 65, n_rounds: int = 4) -> jax.Array:
    """Minimise a 1-d loss over [lo, hi] by repeated grid zooming (for K-step eta, gamma, ...).

    Each round evaluates `loss_of` (jax-traceable, scalar -> scalar) on an even
    grid, keeps the best point and zooms into its two neighbours' interval;
    with 65 points and 4 rounds the interval shrinks by 32^4 ~ 1e6.
    Evaluate on tuning tasks kept apart from the evaluation tasks.
    """
    batched = jax.jit(jax.vmap(loss_of))
    best = None
    for _ in range(n_rounds):
        grid = jnp.linspace(lo, hi, n_grid)                        # (n_grid,)
        losses = batched(grid)                                     # (n_grid,)
        i = int(jnp.nanargmin(losses))
        best = grid[i]
        lo, hi = float(grid[max(i - 1, 0)]), float(grid[min(i + 1, n_grid - 1)])
    return best
