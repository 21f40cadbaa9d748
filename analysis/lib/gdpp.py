"""K steps of gradient descent, GD++, and deep LSA models made fast, after
von Oswald et al., "Transformers learn in-context by gradient descent" (ICML 2023),
§3 ("Going beyond a single self-attention layer", GD++).

GD++ step k (as the LSA construction `analysis.lib.lsa.gd_plus_plus_construction`
computes it, every token updated from the tokens before the step):

    x_j <- (I - gamma_k S) x_j,      S = sum_i x_i x_i^T   (the query's x_q too)
    r_j <- r_j - (eta_k / N) sum_i r_i (x_i . x_j)          (r: the y-slots, y_i and 0 for the query)

and the prediction is yhat = -r_q. Plain GD is gamma = 0. Everything here is a
polynomial in S applied to b = X^T y and x_q, so in the eigenbasis of the
context's S (S = U diag(lambda) U^T, beta = U^T b, xi = U^T x_q) a step is
elementwise:

    yhat += (eta_k / N) beta . xi
    beta <- (1 - gamma_k lambda) (1 - eta_k lambda / N) beta
    xi   <- (1 - gamma_k lambda) xi
    lambda <- lambda (1 - gamma_k lambda)^2.

`Spectral` holds (lambda, beta, xi, U) per task; tuning eta_k and gamma_k on tens
of thousands of tasks then costs O(K d) per task and Adam step.

For the trained models, `query_forward_tokens` runs K LSA layers (weight-tied or
not) on the context tokens through the products W_KQ = W_K^T W_Q and
W_PV = P W_V and follows the query separately, with the official code's
optional token clipping (the 5-layer setting clips tokens at +-10). Without
clipping, `analysis.lib.lsa.query_forward` (matrix-vector products on the context)
is cheaper for K <= 4.
"""
from functools import partial
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from analysis.lib import lsa


class Spectral(NamedTuple):
    """Per-task sufficient statistics of GD and GD++ from W0 = 0 (a JAX pytree)."""

    lam: jax.Array    # (B, d)     eigenvalues of S = X^T X
    beta: jax.Array   # (B, d)     U^T X^T y
    xi: jax.Array     # (B, d)     U^T x_q
    U: jax.Array      # (B, d, d)  eigenvectors of S (columns)


def spectral(X: jax.Array, y: jax.Array, x_q: jax.Array) -> Spectral:
    """Statistics of tasks X (B, N, d), y (B, N), x_q (B, d)."""
    S = jnp.einsum("bni,bnj->bij", X, X)                           # (B, d, d)
    lam, U = jnp.linalg.eigh(S)                                    # (B, d), (B, d, d)
    b = jnp.einsum("bni,bn->bi", X, y)                             # (B, d)
    return Spectral(lam=lam,
                    beta=jnp.einsum("bji,bj->bi", U, b),           # (B, d)
                    xi=jnp.einsum("bji,bj->bi", U, x_q),           # (B, d)
                    U=U)


def step_scalars(etas: jax.Array, gammas: jax.Array | None, K: int) -> tuple[jax.Array, jax.Array]:
    """Per-step (eta_k, gamma_k), k = 1..K, from shared (length 1) or per-step values.

    gammas has length 1 (shared), K - 1 (the last step's gamma transforms inputs
    nothing reads any more, so it is fixed at 0) or K. None means plain GD.
    """
    etas = jnp.broadcast_to(etas, (K,)) if etas.shape[0] == 1 else etas               # (K,)
    if gammas is None:
        gammas = jnp.zeros((K,), etas.dtype)
    elif gammas.shape[0] == K:
        pass
    elif gammas.shape[0] == 1:
        gammas = jnp.broadcast_to(gammas, (K,))
    else:
        gammas = jnp.concatenate([gammas, jnp.zeros((1,), gammas.dtype)])            # (K,)
    return etas, gammas


def _coefficients(st: Spectral, etas: jax.Array, gammas: jax.Array | None, K: int,
                  N: int) -> jax.Array:
    """sum_k (eta_k / N) c_k beta_k with xi_k = c_k xi_0: yhat = coef . xi_0. (B, d)."""
    etas, gammas = step_scalars(etas, gammas, K)
    lam, beta = st.lam, st.beta                                    # (B, d) each
    coef = jnp.zeros_like(beta)
    c = jnp.ones_like(lam)
    for k in range(K):
        coef = coef + (etas[k] / N) * c * beta
        shrink = 1.0 - gammas[k] * lam                             # (B, d)
        beta = shrink * (1.0 - etas[k] * lam / N) * beta
        c = shrink * c
        lam = lam * shrink ** 2
    return coef


def predict(st: Spectral, etas: jax.Array, gammas: jax.Array | None, K: int, N: int) -> jax.Array:
    """yhat (B,) after K steps of GD (gammas None) or GD++ from W0 = 0."""
    return jnp.sum(_coefficients(st, etas, gammas, K, N) * st.xi, axis=-1)


def predict_and_sensitivity(st: Spectral, etas: jax.Array, gammas: jax.Array | None, K: int,
                            N: int) -> tuple[jax.Array, jax.Array]:
    """yhat (B,) and the input sensitivity g = d yhat / d x_q = U coef (B, d)."""
    coef = _coefficients(st, etas, gammas, K, N)                   # (B, d)
    return jnp.sum(coef * st.xi, axis=-1), jnp.einsum("bij,bj->bi", st.U, coef)


def constructions(etas: jax.Array, gammas: jax.Array | None, K: int, N: int, d: int) -> lsa.LSA:
    """The K-layer LSA stack that runs these GD / GD++ steps (Proposition 1 per step)."""
    etas, gammas = step_scalars(etas, gammas, K)
    return lsa.stack_layers([lsa.gd_plus_plus_construction(etas[k], gammas[k], N, d)
                             for k in range(K)])


def query_forward_tokens(p: lsa.LSA, H: jax.Array, n_steps: int | None = None,
                         clip: float | None = None, return_max_abs: bool = False):
    """The query token after the model, (B, N+1, D) -> (B, D), in token form.

    Same as `lsa.forward(p, H, n_steps, clip)[:, -1, :]`; the context is updated
    through (W_KQ, W_PV) and the query, which no token attends to, only where it
    is read. With return_max_abs, also each task's largest |token entry| before
    any clipping, (B,) (to tell whether and how often the clip binds).
    """
    steps = lsa.step_products(p, n_steps)
    context, e_q = H[:, :-1, :], H[:, -1, :]                       # (B, N, D), (B, D)
    max_abs = jnp.max(jnp.abs(H), axis=(1, 2))                     # (B,)
    for k, (W_KQ, W_PV) in enumerate(steps):
        z = jnp.einsum("ij,bj->bi", W_KQ, e_q)                     # (B, D)   W_KQ e_q
        a = jnp.einsum("bnd,bd->bn", context, z)                   # (B, N)   logits i -> q
        e_q = e_q + jnp.einsum("bn,bnd->bd", a, context) @ W_PV.T  # (B, D)
        if k < len(steps) - 1:
            Z = context @ W_KQ.T                                   # (B, N, D) rows W_KQ h_j
            L = jnp.einsum("bjd,bid->bji", Z, context)             # (B, N, N) logits i -> j
            context = context + jnp.einsum("bji,bid->bjd", L, context) @ W_PV.T
            max_abs = jnp.maximum(max_abs, jnp.max(jnp.abs(context), axis=(1, 2)))
            if clip is not None:
                context = jnp.clip(context, -clip, clip)
        max_abs = jnp.maximum(max_abs, jnp.max(jnp.abs(e_q), axis=1))
        if clip is not None:
            e_q = jnp.clip(e_q, -clip, clip)
    return (e_q, max_abs) if return_max_abs else e_q


# ------------------------------------------------------------------ tuning the step scalars

def tuned_loss(st: Spectral, y_q: jax.Array, etas, gammas, K: int, N: int) -> jax.Array:
    """0.5 * mean (y_q - yhat)^2 of K GD / GD++ steps on tasks with statistics st; y_q (B,)."""
    return 0.5 * jnp.mean((y_q - predict(st, etas, gammas, K, N)) ** 2)


def grid_shared(st: Spectral, y_q: jax.Array, K: int, N: int, eta_max: float,
                gamma_max: float | None, n_eta: int = 49, n_gamma: int = 26,
                n_tasks: int = 4_096) -> tuple[float, float | None]:
    """Best shared (eta, gamma) on a grid over [0, eta_max] x [0, gamma_max] (gamma None: plain GD).

    A starting point for `fit_scalars`: the loss in (eta, gamma) is a narrow valley
    (for K = 2 the optimum sits near eta = 14, gamma = 0.18, where eta = 8 or
    gamma = 0.1 costs 20%), which first-order methods from GD's eta crawl along.
    The grid is scored on the first n_tasks tasks only; `fit_scalars` polishes on all.
    """
    st, y_q = jax.tree.map(lambda a: a[:n_tasks], st), y_q[:n_tasks]
    etas = jnp.linspace(0.0, eta_max, n_eta)                            # (n_eta,)
    gammas = jnp.zeros((1,)) if gamma_max is None else jnp.linspace(0.0, gamma_max, n_gamma)
    loss = jax.jit(jax.vmap(jax.vmap(
        lambda e, g: tuned_loss(st, y_q, e[None], None if gamma_max is None else g[None], K, N),
        in_axes=(None, 0)), in_axes=(0, None)))
    table = loss(etas, gammas)                                          # (n_eta, n_gamma)
    i, j = np.unravel_index(int(jnp.nanargmin(table)), table.shape)
    return float(etas[i]), (None if gamma_max is None else float(gammas[j]))


def fit_scalars(st: Spectral, y_q: jax.Array, K: int, N: int, etas0, gammas0=None,
                iters: int = 40, score=None, score_every: int = 1) -> tuple[jax.Array, jax.Array | None]:
    """Levenberg-Marquardt on the step scalars: least squares in at most 2K - 1 numbers.

    etas0 (1 or K,), gammas0 (1 or K - 1,) or None (plain GD) give the starting
    point and whether the scalars are shared or per step. Steps that raise the
    loss are rejected and the damping raised. With `score(etas, gammas)` (a loss
    on held-out tasks), the iterate with the lowest score (checked every
    `score_every` iterations and at the last) is returned: five
    GD++ steps with their own scalars can approach the exact least-squares
    solution (N = d, no noise) only through ever larger eta and gamma that
    amplify the smallest eigenvalues, which on new tasks eventually diverges.
    A local method: per-step scalars started all equal sit on a symmetric
    stationary point (swapping two steps' scalars leaves the loss unchanged), so
    start them spread out, from several points (`fit_scalars_restarts`).
    """
    n_eta = etas0.shape[0]
    theta = jnp.concatenate([etas0] + ([] if gammas0 is None else [gammas0])).astype(jnp.float32)
    shape = (K, N, n_eta, gammas0 is not None)

    def held_out(th):
        if score is None:
            return float(tuned_loss(st, y_q, *_split(th, n_eta, gammas0 is not None), K, N))
        return float(score(*_split(th, n_eta, gammas0 is not None)))

    mu = jnp.asarray(1e-3, jnp.float32)
    best, best_val = theta, held_out(theta)
    for i in range(1, iters + 1):
        theta, mu = _lm_step(st, y_q, theta, mu, shape)
        if i % score_every == 0 or i == iters:
            v = held_out(theta)
            if v < best_val:                                            # nan never wins
                best, best_val = theta, v
    return _split(best, n_eta, gammas0 is not None)


def _split(theta, n_eta: int, has_gamma: bool):
    return theta[:n_eta], (theta[n_eta:] if has_gamma else None)


@partial(jax.jit, static_argnums=(4,))
def _lm_step(st: Spectral, y_q, theta, mu, shape):
    """One damped Gauss-Newton step; rejected (and the damping raised) if the loss rises."""
    K, N, n_eta, has_gamma = shape

    def residual(th):
        return y_q - predict(st, *_split(th, n_eta, has_gamma), K, N)    # (B,)

    r = residual(theta)
    J = jax.jacfwd(residual)(theta)                                      # (B, P)
    A = J.T @ J                                                          # (P, P)
    g = J.T @ r                                                          # (P,)
    damped = A + mu * jnp.diag(jnp.diag(A)) + 1e-12 * jnp.eye(A.shape[0])
    candidate = theta - jnp.linalg.solve(damped, g)
    better = jnp.mean(residual(candidate) ** 2) < jnp.mean(r ** 2)
    return jnp.where(better, candidate, theta), jnp.where(better, mu / 3.0, mu * 4.0)


def fit_scalars_restarts(st: Spectral, y_q: jax.Array, K: int, N: int, eta: float,
                         gamma: float | None = None, iters: int = 40, score=None,
                         score_every: int = 1, spreads: tuple = (0.3, -0.3, 0.6),
                         starts: tuple = ()) -> tuple[jax.Array, jax.Array | None]:
    """Per-step scalars from the shared optimum (eta, gamma), the best of several starts.

    Start s multiplies step k's eta by 1 + s (2k / (K - 1) - 1) (s < 0: decreasing
    steps); gammas start at the shared value. `starts` adds starting points
    (etas0 (K,), gammas0 (K - 1,) or None), e.g. the geometric ramps of
    `geometric_starts`. Starts are compared by `score` when given.
    """
    best, best_loss = None, np.inf
    ramp = jnp.linspace(-1.0, 1.0, K)                                   # (K,)
    linear = [(eta * (1.0 + s * ramp), None if gamma is None else jnp.full((K - 1,), gamma, jnp.float32))
              for s in spreads]
    for etas0, gammas0 in linear + list(starts):
        fit = fit_scalars(st, y_q, K, N, etas0, gammas0, iters, score, score_every)
        loss = float(tuned_loss(st, y_q, *fit, K, N) if score is None else score(*fit))
        if loss < best_loss:
            best, best_loss = fit, loss
    return best


def geometric_starts(eta1: float, gamma: float | None, K: int, ratios: tuple = (3.0, 9.0)) -> tuple:
    """Starting points whose eta_k (and gamma_k) grow geometrically, k = 0..K-1.

    Five GD++ steps with their own scalars approach the least-squares fit only
    with scalars growing about tenfold per step (the eigenvalues they act on
    shrink step by step); from the linear ramps of `fit_scalars_restarts`
    Levenberg-Marquardt stayed in a basin near 0.05-0.06 on three of five
    seeds (held-out, clipped), from these it reached about 0.005-0.015.
    Starts at half the one-step optimum eta1 and at 2.5 x the shared gamma.
    """
    out = []
    for r in ratios:
        grow = r ** jnp.arange(K, dtype=jnp.float32)                     # (K,)
        out.append((0.5 * eta1 * grow, None if gamma is None else (2.5 * gamma * grow)[:K - 1]))
    return tuple(out)


# ------------------------------------------------------------------ the one GD baseline

def tune_gd(X: jax.Array, Y: jax.Array, x_q: jax.Array, y_q: jax.Array, K: int,
            eta_factor: float = 3.0) -> jax.Array:
    """The step size of K GD steps from W0 = 0 with one eta shared by the steps, (1,).

    The one routine every analysis tunes its plain-GD baseline with (one step:
    the closed form of `analysis.lib.lsa.tune_eta_one_step`; K steps: the best of a
    grid over [0, eta_factor x the one-step optimum], then 1-d zooming to a
    relative precision of about 1e-6), on tasks X (B, N, d), Y (B, N, 1), x_q
    (B, d), y_q (B, 1) kept apart from the evaluation tasks. `optimum` checks
    that the eta found is a minimum. A step size tuned short of its optimum
    would flatter a trained model compared with it.
    """
    eta1 = lsa.tune_eta_one_step(X, Y, x_q, y_q)
    if K == 1:
        return jnp.reshape(eta1, (1,))
    N = X.shape[1]
    st, y = spectral(X, Y[..., 0], x_q), y_q[:, 0]
    eta_max = eta_factor * float(eta1)
    start, _ = grid_shared(st, y, K, N, eta_max, None)
    width = eta_max / 48                                                 # the grid's spacing
    loss = jax.jit(lambda eta: tuned_loss(st, y, eta[None], None, K, N))
    return jnp.reshape(lsa.tune_scalar(loss, max(start - width, 0.0), start + width), (1,))


def optimum(X: jax.Array, Y: jax.Array, x_q: jax.Array, y_q: jax.Array, etas, gammas=None,
            K: int = 1, rel: float = 0.05) -> dict:
    """Whether tuned step scalars are a minimum of the loss on the tasks they were tuned on.

    The loss of K GD (gammas None) or GD++ steps with etas (and, separately,
    gammas) scaled by 1 - rel and 1 + rel, beside the loss at the scalars
    themselves; `is_minimum` is true when every one of them is higher. Stored
    in the results, so a baseline short of its optimum shows.
    """
    N = X.shape[1]
    st, y = spectral(X, Y[..., 0], x_q), y_q[:, 0]
    etas = jnp.asarray(etas, jnp.float32)
    gammas = None if gammas is None else jnp.asarray(gammas, jnp.float32)
    loss = lambda e, g: float(tuned_loss(st, y, e, g, K, N))                # noqa: E731
    out = {"loss": loss(etas, gammas),
           "loss_eta_minus": loss(etas * (1 - rel), gammas), "loss_eta_plus": loss(etas * (1 + rel), gammas)}
    if gammas is not None:
        out["loss_gamma_minus"] = loss(etas, gammas * (1 - rel))
        out["loss_gamma_plus"] = loss(etas, gammas * (1 + rel))
    out["is_minimum"] = all(v > out["loss"] for k, v in out.items() if k != "loss")
    return out
