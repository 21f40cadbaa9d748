"""Conditioning a fixed system on a context vs changing its parameters: a reading of
Proposition 1 (von Oswald et al., "Transformers learn in-context by gradient descent",
ICML 2023, §2), the one recorded in records/notes/NOTE-621.yaml.

The LSA parameters are the Proposition 1 construction for a fixed W0 and eta and
are never changed. Each context
(x_i, y_i)_{i<=N} is only *conditioned on*, yet:

1. for any query x_q (token (x_q, -W0 x_q)) the read-out equals the prediction
   (W0 + dW) x_q of the linear model after one GD step on that context,
   dW = -(eta/N) sum_i (W0 x_i - y_i) x_i^T                 -> max_abs_pred_error;
2. two different contexts through the same parameters give two different implied
   models                                                    -> implied_model_distance.

Not measured, because they cannot fail: that the parameters stay unchanged (JAX
arrays are immutable, so a hash before and after is equal by construction); that
dW read from the probe queries (e_k, 0) reproduces the read-out (once 1 holds, the
probe read-out is dW e_k by the same identity); and, for the exact construction,
the distance of an implied model to the other context's GD step (it equals the
distance between the two implied models to every digit, since each implied model
is its own GD step).

The implied model exists only in the activations: it is a function of the
context, not a parameter. Computed in float64.

The same reading for a *trained* layer (metrics under `trained`): one LSA layer
is meta-trained as in `analysis.single_layer` (a small budget in `paper`:
1,000 steps at batch 1,024, lr 2e-3; the official 5,000 steps at batch 2,048 in
`paper_full`), then cast to float64 and conditioned on `trained_contexts`
contexts (half of them paired), with W0 = 0 (query (x_q, 0)). The layer is
linear in x_q, so its read-out for any query is dW_read x_q, dW_read read from
the probe queries (e_k, 0): an identity, not measured. What is measured:

3. dW_read is close to one GD step with eta tuned on separate tasks:
   ||dW_read - dW_GD|| / ||dW_GD||, mean over contexts       -> trained.rel_dW_gap
   (its standard error over contexts in `noise`), the largest distance
   ||dW_read - dW_GD|| over contexts                          -> trained.max_own_distance;
4. paired contexts imply different models, each nearer its own GD step than
   the other context's                                        -> trained.implied_model_distance,
                                                                 trained.min_cross_distance.

Seeds 0-2 (`SEEDS`) each train their own layer (init, stream, tuning and
contexts from the seed); `seed_figures` draws every seed's training curve.
`timing.trained` says what the training cost (steps, wall and CPU ms per step,
`analysis.lib.timing`); no claim judges it.
"""
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from matplotlib.figure import Figure

from analysis.lib import lsa, seeds as seed_lib, tasks as task_lib, timing as timing_lib
from analysis.lib import train as train_lib
from analysis.lib.config import Settings
from analysis.lib.keys import named_keys, random_streams
from analysis.lib.one_layer import OneLayer, train_one_layer


@dataclass(frozen=True, kw_only=True)
class Config(Settings):
    """Settings of the check: the fixed construction, the context pairs and the queries."""

    d_in: int = 10           # the paper's regression setting (§3)
    d_out: int = 1           # the paper's regression setting (§3)
    N: int = 10              # context points (§3)
    eta: float = 1.0         # any fixed step size: the identity holds for all eta
    n_pairs: int = 4         # pairs of contexts (A, B) pushed through the same parameters
    n_queries: int = 256     # random queries per context for the prediction check
    train_steps: int = 1_000      # the trained layer: single_layer's quick budget (official 5,000)
    train_batch: int = 1_024      # official 2,048
    train_lr: float = 2e-3        # official 1e-3 (twice, for the shorter run)
    train_eval_every: int = 100   # steps between points of the training curve
    trained_contexts: int = 256   # contexts (128 pairs) conditioned through the trained layer
    tune_tasks: int = 16_384      # separate tasks for the GD step size eta of the comparison


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    "quick": Config(n_pairs=2, n_queries=64, train_steps=600, train_batch=512, trained_contexts=64,
                    tune_tasks=4_096),
    "paper": Config(),
    # the trained layer at the official one-layer scale (5,000 steps at batch 2,048, lr 1e-3)
    "paper_full": Config(train_steps=5_000, train_batch=2_048, train_lr=1e-3),
}

# Seeds per profile: each trains its own layer (the construction part is exact for every seed).
SEEDS = {"quick": (0, 1, 2), "paper": (0, 1, 2), "paper_full": (0, 1, 2)}

# The metrics run returns, dotted for nested ones (a group covers what is under it):
# `litrec validate` checks each claim's expectations against them.
METRICS = (
    "max_abs_pred_error", "implied_model_distance", "implied_model_distances",
    "trained.rel_dW_gap", "trained.max_rel_dW_gap", "trained.max_own_distance",
    "trained.implied_model_distance", "trained.min_cross_distance", "trained.eta_gd",
    "trained.loss_gd_monitor", "trained.training", "timing",
)


def with_context(X: jax.Array, Y: jax.Array, queries: jax.Array, y_q_init: jax.Array) -> jax.Array:
    """One sequence per query, all sharing the context (X, Y). -> (Q, N+1, D).

    X: (N, d_in), Y: (N, d_out), queries: (Q, d_in), y_q_init: (Q, d_out).
    """
    Q = queries.shape[0]
    context = jnp.concatenate([X, Y], axis=-1)                               # (N, D)
    context = jnp.broadcast_to(context, (Q,) + context.shape)                # (Q, N, D)
    query = jnp.concatenate([queries, y_q_init], axis=-1)                    # (Q, D)
    return jnp.concatenate([context, query[:, None, :]], axis=-2)            # (Q, N+1, D)


def read_implied_update(p: lsa.LSA, X: jax.Array, Y: jax.Array) -> jax.Array:
    """dW read from the query outputs alone, by probing with the basis queries (e_k, 0).

    The read-out of probe k is dW e_k, the k-th column. Returns (d_out, d_in).
    """
    d_in, d_out = X.shape[-1], Y.shape[-1]
    probes = jnp.eye(d_in, dtype=X.dtype)                                    # (d_in, d_in), row k = e_k
    H = with_context(X, Y, probes, jnp.zeros((d_in, d_out), X.dtype))        # (d_in, N+1, D)
    return lsa.predict(p, H, d_out).T                                        # (d_out, d_in)


@jax.jit
def _check_context(p, W0, eta, X, Y, queries):
    """Prediction error for one context; returns (pred_err, dW_read, dW)."""
    dW = lsa.gd_delta(X[None], Y[None], eta, W0)[0]                          # (d_out, d_in), explicit step
    y_q0 = -jnp.einsum("oi,qi->qo", W0, queries)                             # (Q, d_out)
    predictions = lsa.predict(p, with_context(X, Y, queries, y_q0), Y.shape[-1])  # (Q, d_out)
    expected = jnp.einsum("oi,qi->qo", W0 + dW, queries)                     # (Q, d_out)
    dW_read = read_implied_update(p, X, Y)                                   # (d_out, d_in)
    return jnp.max(jnp.abs(predictions - expected)), dW_read, dW


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    with random_streams():
        return _run(config, progress)


def _run(config: Config, progress=None) -> dict:
    pred_errors, distances = [], []
    reads, explicit = [], []
    with jax.enable_x64(True):
        keys = named_keys(config.seed, "W0", "pairs")
        W0 = jax.random.normal(keys["W0"], (config.d_out, config.d_in), jnp.float64) / config.d_in ** 0.5
        p = lsa.gd_construction(config.eta, config.N, config.d_in, config.d_out, W0, jnp.float64)
        eta = jnp.asarray(config.eta, jnp.float64)
        for pair in range(config.n_pairs):
            k_pair = named_keys(jax.random.fold_in(keys["pairs"], pair), "A", "B", "queries")
            queries = jax.random.uniform(k_pair["queries"], (config.n_queries, config.d_in), jnp.float64, -0.5, 0.5)
            pair_reads, pair_explicit = [], []
            for k_ctx in (k_pair["A"], k_pair["B"]):
                t = task_lib.sample_tasks(k_ctx, 1, config.N, config.d_in, config.d_out,
                                          dtype=jnp.float64)
                e_pred, dW_read, dW = _check_context(p, W0, eta, t.X[0], t.Y[0], queries)
                pred_errors.append(float(e_pred))
                pair_reads.append(np.asarray(dW_read))
                pair_explicit.append(np.asarray(dW))
            distances.append(float(np.linalg.norm(pair_reads[0] - pair_reads[1])))
            reads += pair_reads
            explicit += pair_explicit
            if progress is not None:
                progress(pair + 1, config.n_pairs, "conditioning on context pairs")

    trained, trained_noise, curve, timing = _trained(config, progress)
    metrics_out = {
        "max_abs_pred_error": max(pred_errors),
        "implied_model_distance": min(distances),   # the closest pair: still clearly > 0
        "implied_model_distances": distances,
        "trained": trained,
        "timing": timing,
    }
    return {"metrics": metrics_out, "noise": trained_noise,
            "figures": {"implied_models": _figure(reads, explicit), "trained": curve},
            "notes": [f"trained layer: {config.train_steps} steps at batch {config.train_batch}, "
                      f"{config.trained_contexts} contexts, eta tuned on {config.tune_tasks} tasks"]}


def _trained(config: Config, progress=None):
    """Train one LSA layer, then read its implied models from the query outputs (float64)."""
    cfg = OneLayer(seed=config.seed, d=config.d_in, N=config.N, steps=config.train_steps,
                              batch_size=config.train_batch, lr=config.train_lr,
                              eval_every=config.train_eval_every)
    keys = named_keys(jax.random.fold_in(jax.random.key(config.seed), 1),
                      "init", "train", "tune", "monitor", "contexts", "queries")
    monitor = task_lib.sample_tasks(keys["monitor"], 2_048, config.N, config.d_in)
    evaluate = jax.jit(lambda p: {"loss": train_lib.regression_loss(p, monitor)})
    clock = timing_lib.Clock(progress, evaluate)                          # CPU per chunk (`analysis.lib.timing`)
    p32 = train_one_layer(cfg, keys["init"], keys["train"], clock.evaluate, clock.progress)
    history = p32.history
    p32 = p32.params
    tune = task_lib.sample_tasks(keys["tune"], config.tune_tasks, config.N, config.d_in)
    eta = float(lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q))
    loss_gd_monitor = float(jnp.mean(0.5 * (monitor.y_q - lsa.gd_predict(monitor.X, monitor.Y, monitor.x_q, eta)) ** 2))
    with jax.enable_x64(True):
        p = jax.tree.map(lambda w: jnp.asarray(w, jnp.float64), p32)
        t = task_lib.sample_tasks(keys["contexts"], config.trained_contexts, config.N, config.d_in,
                                  config.d_out, dtype=jnp.float64)
        dW_read = _trained_contexts(p, t.X, t.Y)                       # (C, d_out, d_in)
        dW_gd = lsa.gd_delta(t.X, t.Y, jnp.asarray(eta, jnp.float64))  # (C, d_out, d_in)
        own = np.asarray(jnp.linalg.norm((dW_read - dW_gd).reshape(dW_gd.shape[0], -1), axis=-1))  # (C,)
        rel = own / np.asarray(jnp.linalg.norm(dW_gd.reshape(dW_gd.shape[0], -1), axis=-1))
        read, gd = np.asarray(dW_read).reshape(len(own), -1), np.asarray(dW_gd).reshape(len(own), -1)
        A, B = slice(0, None, 2), slice(1, None, 2)
        distance = np.linalg.norm(read[A] - read[B], axis=-1)                          # (C/2,)
        cross = np.minimum(np.linalg.norm(read[A] - gd[B], axis=-1), np.linalg.norm(read[B] - gd[A], axis=-1))
    out = {"rel_dW_gap": float(np.mean(rel)), "max_rel_dW_gap": float(np.max(rel)),
           "max_own_distance": float(np.max(own)),
           "implied_model_distance": float(np.min(distance)), "min_cross_distance": float(np.min(cross)),
           "eta_gd": eta, "loss_gd_monitor": loss_gd_monitor,
           "training": {"step": history["step"], "loss": history["loss"]}}
    noise = {"trained.rel_dW_gap": seed_lib.mean_se(rel)[1]}
    return out, noise, _curve_figure(out), {"trained": clock.summary(history)}


@jax.jit
def _trained_contexts(p, X, Y):
    """Per context, dW_read from the probe queries. X (C, N, d), Y (C, N, 1) -> (C, d_out, d_in)."""
    return jax.vmap(lambda X1, Y1: read_implied_update(p, X1, Y1))(X, Y)


def _curve_figure(trained):
    return seed_lib.seed_curves([{"seed": "this run", "metrics": trained}], [
        ("trained layer: loss on monitor tasks (dotted: 1 GD step)",
         lambda m: (m["training"]["step"], m["training"]["loss"], m["loss_gd_monitor"]))])


def seed_figures(points: list[dict]) -> dict:
    """Every seed's training curve of the trained layer."""
    return {"seeds_training": seed_lib.seed_curves(points, [
        ("trained layer: loss on monitor tasks (dotted: 1 GD step)",
         lambda m: (m["trained"]["training"]["step"], m["trained"]["training"]["loss"],
                    m["trained"]["loss_gd_monitor"]))])}


def _figure(reads, explicit):
    fig = Figure(figsize=(4.8, 4.5))
    ax = fig.subplots()
    for i, (r, e) in enumerate(zip(reads[:2], explicit[:2])):
        ax.plot(e.ravel(), r.ravel(), "o", label=f"context {'AB'[i]}", alpha=0.8)
    lim = max(float(np.max(np.abs(np.concatenate([e.ravel() for e in explicit[:2]])))), 1e-12) * 1.1
    ax.plot([-lim, lim], [-lim, lim], "k--", linewidth=0.8)
    ax.set_xlabel("explicit GD step dW (entries)")
    ax.set_ylabel("dW read from query outputs (probes e_k)")
    ax.set_title("same parameters, two contexts, two implied models", fontsize=10)
    ax.legend()
    fig.tight_layout()
    return fig
