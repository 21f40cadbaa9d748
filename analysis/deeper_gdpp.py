"""Deeper LSA models beat K steps of gradient descent and align with GD++
(von Oswald et al., "Transformers learn in-context by gradient descent", ICML 2023,
§3 "Going beyond a single self-attention layer", Figure 3 and Appendix A.3).

A recurrent (weight-tied) LSA layer, applied K = 2 and K = 5 times, is
meta-trained on online linear-regression tasks (d = 10, N = 10, y = w.x,
x ~ U(-0.5, 0.5) as in the official code) and compared on fixed evaluation tasks
with

* GD: K steps of gradient descent from W0 = 0 with step sizes eta_1..eta_K tuned
  per step (`loss_gd`), and with one shared eta (`loss_gd_shared_eta`);
* GD++: K steps, each a GD step on inputs transformed by H(X) = I - gamma X X^T
  (x_j <- x_j - gamma sum_i x_i x_i^T x_j), eta_k and gamma_k tuned per step
  (`loss_gdpp`, `gamma` lists the gamma_k that matter: the last one acts on inputs
  nobody reads) and shared across steps as the official recurrent GD++
  (`loss_gdpp_shared`, `gamma_shared`; official 0.11269 with gamma 0.180 for K = 2).

eta and gamma are tuned on tasks kept apart from the evaluation tasks (the
official code tuned GD's eta on its evaluation set): a grid for the shared
values, then Levenberg-Marquardt (least squares in at most 2K - 1 scalars),
through the per-task spectral form of `analysis.gdpp`; the evaluation runs the
equivalent LSA constructions. Alignment as in the code: cosine (`cos_vs_*`) and distance
(`model_diff_vs_*`) of the input sensitivities d yhat / d x_q, and mean
|yhat_TF - yhat_GD| (`pred_diff_vs_*`).

Training settings (official notebooks, Appendix A.3): batch 2,048, Adam b1 0.9,
b2 0.98, global-norm gradient clipping. K = 2: the recurrent two-layer
notebook setting (5,000 steps, lr 1e-3, clip 0.001, init scale 0.001). K = 5:
the paper's five-layer setting (lr 5e-4, clip 10, init scale 0.0004, tokens
clipped at +-10), which the code uses for five *separate* layers; here the five
layers share one set of weights (a recurrent model, the counterpart of the
code's recurrent GD++ with shared eta and gamma). It trains for
5,000 steps, the official notebook's count for recurrent models (50,000 is its
count for separate layers; on two shared CPU cores a five-layer step costs
~50 ms, so 50,000 steps would take ~40 minutes, and the loss is flat from
~2,500 steps).
`max_abs_token` (largest token entry before clipping, evaluation tasks) and
`clip_binds_fraction` (share of evaluation tasks where it exceeds 10) say
whether the token clip binds; where it does, the construction baselines run with
the same clip, as in the code, and their step sizes are chosen under it.

GD with per-step step sizes: two steps eta_1 != eta_2 beat one shared eta
(the equal-eta point is a symmetric saddle of the per-step loss); five GD++
steps with their own eta_k and gamma_k approach the exact least-squares fit
(N = d, no noise) only with eta_k, gamma_k growing step by step, so per-step
GD++ is chosen on held-out tasks and is far better than any recurrent model;
the recurrent model's counterpart is GD++ with shared eta and gamma
(`loss_gdpp_shared`), as in the official recurrent runs.
"""
import time
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from matplotlib.figure import Figure

from analysis import gdpp, lsa, metrics, tasks as task_lib, train as train_lib
from analysis.keys import named_keys


@dataclass(frozen=True)
class Depth:
    """Training settings of one recurrent depth K."""

    K: int                        # layers (one weight-tied layer applied K times)
    steps: int                    # optimiser steps
    lr: float                     # Adam learning rate
    clip: float                   # global-norm gradient clip
    init_scale: float             # variance scale of the init: std = sqrt(init_scale / 11)
    token_clip: float | None      # clip every token entry to +-token_clip after each layer
    eval_every: int               # steps between points of the training curves


# Recurrent two layers: official notebook (5,000 steps, lr 1e-3, clip 0.001, init 0.002 / 2).
K2 = Depth(K=2, steps=5_000, lr=1e-3, clip=1e-3, init_scale=1e-3, token_clip=None, eval_every=100)
# Five layers: the paper's five-layer setting (lr 5e-4, clip 10, init 0.002 / 5, token clip 10),
# trained as one recurrent layer for 5,000 steps: the notebook's step count for recurrent models
# (its 50,000 are for five separate layers); the loss is flat from ~3,000 steps.
K5 = Depth(K=5, steps=5_000, lr=5e-4, clip=10.0, init_scale=4e-4, token_clip=10.0, eval_every=250)


@dataclass(frozen=True)
class Config:
    """Settings of the deeper-gdpp run: tasks, the recurrent depths to train, and the GD / GD++ tuning."""

    seed: int = 0                 # every random quantity gets its own key split from it
    d: int = 10                   # input size (paper §3; code input_size = 10)
    N: int = 10                   # context points (paper §3; code dataset_size = 10)
    input_range: float = task_lib.CODE_INPUT_RANGE  # U(-0.5, 0.5): the code's range, behind the paper's numbers
    batch_size: int = 2_048       # official notebooks
    b1: float = 0.9               # official code
    b2: float = 0.98              # official code
    depths: tuple = (K2, K5)      # the two recurrent models, K = 2 and K = 5
    chunk_size: int = 50          # steps per jitted scan; the host draws the next chunk meanwhile
    eval_tasks: int = 10_000      # fixed evaluation set, as in the code
    curve_tasks: int = 4_096      # first tasks of the evaluation set used for the training curves
    tune_tasks: int = 16_384      # separate tasks for eta and gamma, half to fit, half to choose
    #                               (the code tuned GD on its evaluation set)
    tune_iters: int = 30          # Levenberg-Marquardt iterations per start (K = 2 converges in ~15)
    eta_grid_factor: float = 3.0  # shared-eta grid up to 3x the 1-step optimum (K = 2 GD++ wants ~2.3x)
    gamma_grid_max: float = 0.5   # shared-gamma grid [0, 0.5] (official K = 2 value 0.18)


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    # quick: 1,000 steps at batch 1,024 and lr 3e-3 (K = 2), enough for the recurrent
    # two-layer model to beat 2 GD steps by ~15% and sit closer to GD++ than to GD;
    # K = 5 runs 300 steps, only to exercise the clipped five-layer path
    "quick": Config(batch_size=1_024, eval_tasks=2_000, curve_tasks=1_000, tune_tasks=4_096, tune_iters=20,
                    depths=(Depth(K=2, steps=1_000, lr=3e-3, clip=1e-3, init_scale=1e-3,
                                  token_clip=None, eval_every=250),
                            Depth(K=5, steps=200, lr=2e-3, clip=10.0, init_scale=4e-4,
                                  token_clip=10.0, eval_every=100))),
    "paper": Config(),
}


# ------------------------------------------------------------------ tasks and models

def _tokens_from_raw(raw, input_range: float):
    """Tokens (B, N+1, D) with the query's y-slot 0, and the query targets (B,)."""
    X, y, x_q, y_q = task_lib.regression_tasks(raw, input_range)
    context = jnp.concatenate([X, y[..., None]], axis=-1)                # (B, N, D)
    query = jnp.concatenate([x_q, jnp.zeros_like(y_q)[:, None]], axis=-1)  # (B, D)
    return jnp.concatenate([context, query[:, None, :]], axis=1), y_q


def _query(p: lsa.LSA, H: jax.Array, depth: Depth) -> jax.Array:
    """The query token after K weight-tied layers, (B, N+1, D) -> (B, D), by the cheapest exact route."""
    if depth.token_clip is None and depth.K <= 4:
        return lsa.query_forward(p, H, depth.K)          # products with the context only
    return gdpp.query_forward_tokens(p, H, depth.K, depth.token_clip)


def _predictor(p, depth):
    return lambda H: -_query(p, H, depth)[:, -1:]                        # (B, 1)


# ------------------------------------------------------------------ GD and GD++ tuning

def _baselines(config: Config, tune: task_lib.Tasks, depth: Depth):
    """Tuned step scalars (etas, gammas or None) of GD and GD++, per step and shared.

    The tuning tasks are split in two halves: the scalars are fitted on the first
    (spectral form, no clipping) and the iterate and start are chosen on the second,
    scored as the constructions are evaluated: with a token clip, as LSA layers
    that clip (every 5th iterate, the token form being the costly part).
    """
    K, N, it = depth.K, config.N, config.tune_iters
    half = tune.X.shape[0] // 2
    st = gdpp.spectral(tune.X[:half], tune.Y[:half, :, 0], tune.x_q[:half])
    y_q = tune.y_q[:half, 0]                                              # (B/2,)
    if depth.token_clip is None:
        st_val, y_val = gdpp.spectral(tune.X[half:], tune.Y[half:, :, 0], tune.x_q[half:]), tune.y_q[half:, 0]
        score = jax.jit(lambda etas, gammas: gdpp.tuned_loss(st_val, y_val, etas, gammas, K, N))
        every = 1
    else:
        H_val, y_val = task_lib.tokens(tune)[half:], tune.y_q[half:]
        clipped = jax.jit(lambda etas, gammas: metrics.loss(y_val, lsa.predict(
            gdpp.constructions(etas, gammas, K, N, config.d), H_val, clip=depth.token_clip)))

        def score(etas, gammas):                                          # one compilation for all four
            return clipped(*gdpp.step_scalars(etas, gammas, K))
        every = 5
    eta_max = config.eta_grid_factor * float(lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q))
    eta_gd, _ = gdpp.grid_shared(st, y_q, K, N, eta_max, None)
    eta_pp, gamma_pp = gdpp.grid_shared(st, y_q, K, N, eta_max, config.gamma_grid_max)
    shared_gd = gdpp.fit_scalars(st, y_q, K, N, jnp.full((1,), eta_gd), None, it, score, every)
    shared_pp = gdpp.fit_scalars(st, y_q, K, N, jnp.full((1,), eta_pp), jnp.full((1,), gamma_pp),
                                 it, score, every)
    return {
        "gd_shared": shared_gd,
        "gd": gdpp.fit_scalars_restarts(st, y_q, K, N, float(shared_gd[0][0]), None, it, score, every),
        "gdpp_shared": shared_pp,
        "gdpp": gdpp.fit_scalars_restarts(st, y_q, K, N, float(shared_pp[0][0]),
                                          float(shared_pp[1][0]), it, score, every),
    }


# ------------------------------------------------------------------ evaluation

@partial(jax.jit, static_argnums=(2, 3))
def _reference(stack: lsa.LSA, H: jax.Array, d: int, clip: float | None):
    """Predictions (B, 1) and sensitivities (B, d) of a GD / GD++ construction.

    The official code runs the constructions with the trained model's token clip.
    """
    predict = lambda H: lsa.predict(stack, H, clip=clip)               # noqa: E731
    return predict(H), metrics.input_sensitivity(predict, H, d)


def _alignment(f, g, refs, y_q):
    out = {"loss_trained": metrics.loss(y_q, f)}
    for name, (f_ref, g_ref) in refs.items():
        out[f"cos_vs_{name}"] = metrics.cosine(g, g_ref)
        out[f"model_diff_vs_{name}"] = metrics.model_diff(g, g_ref)
        out[f"pred_diff_vs_{name}"] = metrics.prediction_diff(f, f_ref)
    return out


def _evaluator(depth: Depth, d: int):
    @jax.jit
    def evaluate(p, H, y_q, refs):
        predict = _predictor(p, depth)
        f = predict(H)                                                    # (B, 1)
        g = metrics.input_sensitivity(predict, H, d)                      # (B, d)
        out = _alignment(f, g, refs, y_q)
        _, max_abs = gdpp.query_forward_tokens(p, H, depth.K, depth.token_clip, return_max_abs=True)
        out["max_abs_token"] = jnp.max(max_abs)
        if depth.token_clip is not None:
            out["clip_binds_fraction"] = jnp.mean((max_abs > depth.token_clip).astype(jnp.float32))
        return out
    return evaluate


def _run_depth(config: Config, depth: Depth, keys, evaluation: task_lib.Tasks,
               tune: task_lib.Tasks, progress):
    d, N, K = config.d, config.N, depth.K
    H_eval = task_lib.tokens(evaluation)                                  # (B_eval, N+1, D)
    y_eval = evaluation.y_q                                               # (B_eval, 1)

    scalars = _baselines(config, tune, depth)
    stacks = {name: gdpp.constructions(etas, gammas, K, N, d) for name, (etas, gammas) in scalars.items()}
    refs = {name: _reference(stacks[name], H_eval, d, depth.token_clip) for name in stacks}
    losses = {name: float(metrics.loss(y_eval, f)) for name, (f, _) in refs.items()}
    del refs["gd_shared"]

    evaluate = _evaluator(depth, d)
    n_curve = config.curve_tasks
    curve_refs = {name: (f[:n_curve], g[:n_curve]) for name, (f, g) in refs.items()}

    def curve(p):
        row = evaluate(p, H_eval[:n_curve], y_eval[:n_curve], curve_refs)
        return {k: row[k] for k in ("loss_trained", "cos_vs_gd", "cos_vs_gdpp", "cos_vs_gdpp_shared",
                                    "model_diff_vs_gd", "model_diff_vs_gdpp", "model_diff_vs_gdpp_shared")}

    def loss_fn(p, raw):
        H, y_q = _tokens_from_raw(raw, config.input_range)
        return 0.5 * jnp.mean((y_q + _query(p, H, depth)[:, -1]) ** 2)    # read-out: minus the y-slot

    start = time.perf_counter()
    result = train_lib.train(
        train_lib.init_lsa(keys["init"], d + 1, depth.init_scale), loss_fn,
        task_lib.regression_draws(task_lib.host_rng(keys["stream"]), config.batch_size, N, d),
        steps=depth.steps, chunk_size=config.chunk_size, eval_every=depth.eval_every,
        optimizer=train_lib.adam(depth.lr, depth.clip, config.b1, config.b2),
        evaluate=curve, progress=progress, description=f"training K={K}")
    seconds = time.perf_counter() - start
    final = {k: float(v) for k, v in evaluate(result.params, H_eval, y_eval, refs).items()}

    chunk_s = result.history["chunk_seconds"][1:] or result.history["chunk_seconds"]
    etas = {name: [float(e) for e in gdpp.step_scalars(*scalars[name], K)[0]] for name in scalars}
    out = {
        "loss_trained": final["loss_trained"],
        "loss_gd": losses["gd"],
        "loss_gdpp": losses["gdpp"],
        "loss_gd_shared_eta": losses["gd_shared"],
        "loss_gdpp_shared": losses["gdpp_shared"],
        "gamma": [float(x) for x in scalars["gdpp"][1]],
        "gamma_shared": float(scalars["gdpp_shared"][1][0]),
        "eta_gd": etas["gd"],
        "eta_gd_shared": etas["gd_shared"][0],
        "eta_gdpp": etas["gdpp"],
        "eta_gdpp_shared": etas["gdpp_shared"][0],
        **{k: v for k, v in final.items() if k != "loss_trained"},
        "train_seconds": seconds,
        "ms_per_step": 1e3 * float(np.median(chunk_s)) / config.chunk_size,
        "training": {k: v for k, v in result.history.items() if k != "chunk_seconds"},
    }
    return out


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    keys = named_keys(config.seed, "eval", "tune", "models")
    evaluation = task_lib.regression_task_set(keys["eval"], config.eval_tasks, config.N, config.d, config.input_range)
    tune = task_lib.regression_task_set(keys["tune"], config.tune_tasks, config.N, config.d, config.input_range)
    per_depth = named_keys(keys["models"], *(f"k{depth.K}" for depth in config.depths))

    out = {}
    for depth in config.depths:
        name = f"k{depth.K}"
        out[name] = _run_depth(config, depth, named_keys(per_depth[name], "init", "stream"),
                               evaluation, tune, progress)

    notes = [f"recurrent LSA, K = {', '.join(str(dp.K) for dp in config.depths)}; eta and gamma tuned "
             f"on {config.tune_tasks} separate tasks; evaluation on {config.eval_tasks} fixed tasks",
             *(f"K={dp.K}: {dp.steps} steps, {out[f'k{dp.K}']['ms_per_step']:.2f} ms/step, "
               f"{out[f'k{dp.K}']['train_seconds']:.0f} s of training" for dp in config.depths)]
    return {"metrics": out, "figures": {"training_loss": _loss_figure(out, config),
                                        "alignment": _alignment_figure(out, config)},
            "notes": notes}


# ------------------------------------------------------------------ figures

def _loss_figure(out, config):
    fig = Figure(figsize=(5 * len(config.depths), 3.8))
    axes = fig.subplots(1, len(config.depths), squeeze=False)
    for ax, depth in zip(axes[0], config.depths):
        m = out[f"k{depth.K}"]
        h = m["training"]
        ax.plot(h["step"], h["loss_trained"], label="trained recurrent LSA")
        ax.plot(h["chunk_step"], h["train_loss"], alpha=0.35, label="training batches")
        ax.axhline(m["loss_gd"], color="k", linestyle="--", label=f"{depth.K} steps of GD")
        ax.axhline(m["loss_gd_shared_eta"], color="grey", linestyle=":", label="GD, one shared eta")
        ax.axhline(m["loss_gdpp"], color="C3", linestyle="--", label="GD++, per-step eta, gamma")
        ax.axhline(m["loss_gdpp_shared"], color="C2", linestyle="-.", label="GD++, shared eta, gamma")
        ax.set_yscale("log")
        ax.set_xlabel("training step")
        ax.set_ylabel("loss")
        ax.set_title(f"K = {depth.K}")
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _alignment_figure(out, config):
    fig = Figure(figsize=(5 * len(config.depths), 6))
    axes = fig.subplots(2, len(config.depths), squeeze=False)
    for col, depth in enumerate(config.depths):
        h = out[f"k{depth.K}"]["training"]
        ax_cos, ax_md = axes[0, col], axes[1, col]
        for name, label, color in (("gd", "GD", "k"), ("gdpp", "GD++ per step", "C3"),
                                   ("gdpp_shared", "GD++ shared", "C2")):
            ax_cos.plot(h["step"], h[f"cos_vs_{name}"], color=color, label=f"vs {label}")
            ax_md.plot(h["step"], h[f"model_diff_vs_{name}"], color=color, label=f"vs {label}")
        ax_cos.set_ylim(0.5, 1.02)
        ax_cos.set_ylabel("cosine of sensitivities")
        ax_cos.set_title(f"trained recurrent LSA, K = {depth.K}")
        ax_md.set_ylabel("model diff")
        ax_md.set_ylim(bottom=0)
        for ax in (ax_cos, ax_md):
            ax.set_xlabel("training step")
            ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
