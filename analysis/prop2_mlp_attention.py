"""Proposition 2: an MLP followed by linear self-attention performs one gradient step on
the output layer of the MLP's features, i.e. kernel regression with
k(x, x') = m(x)^T m(x') (von Oswald et al., "Transformers learn in-context by gradient
descent", ICML 2023, §4 "Transformers can learn deep data representations", Figure 5
and Appendix A.4, sine-wave regression).

Exact part (float64). With features m(x) in R^F from an MLP applied to the inputs,
tokens e_i = (m(x_i), y_i) and the query (m(x_q), -W0 m(x_q)), the Proposition 1
layer (W_K = W_Q = [[I_F, 0], [0, 0]], W_V = [[0, 0], [W0, -1]], P = eta / N) reads out

    yhat = W0 m(x_q) + (eta / N) sum_i (y_i - W0 m(x_i)) k(x_i, x_q),

one GD step on the linear read-out W from W0, i.e. kernel regression with the
kernel m^T m. `max_abs_error_identity` is the largest gap between the LSA layer
run on tokens, this kernel formula, the explicit GD step and the fast predictor
used in training, for random MLPs.

Sine-wave regression (official notebook): x ~ U(-5, 5), y = A sin(x + phi),
A ~ U(0.1, 0.5) (the paper's appendix says U(0.1, 5); its figures and the code
use 0.5), phi ~ U(0, pi), N = 10 points; tokens (x, y), the query (x_q, 0).
The code draws A and phi from one key, so phi = pi (A - 0.1) / 0.4 and the
family has one parameter; here they are drawn independently
(`tie_phase_to_amplitude` restores the code's family).

* Trained model (the code's): a linear embedding of the token (x, y) to 40
  dimensions without bias, a residual MLP 40 -> 160 (GELU) -> 40 with biases,
  then one LSA layer (key size 40); the read-out is minus the last entry of the
  query token. 20,000 steps, Adam lr 1e-3 (b1 0.9, b2 0.98), clip 100, init
  scale 0.002; batch 512 here (the code's 2,048 would take ~20 minutes for the
  two models on two CPU cores: the MLP on every token is the irreducible cost).
* "MLP + one GD step" (Proposition 2 itself): features m(x) in R^39 from a linear
  embedding of x and a residual MLP 39 -> 160 (GELU) -> 39, a meta-learned
  initial read-out W0, and the attention frozen at the Proposition 1
  construction with eta = 0.1; embedding, MLP and W0 meta-trained (lr 3e-4,
  b2 0.999, as the code's GD pre-training). The code instead embeds the whole
  token (x, y), so its baseline's features may depend on the targets; here the
  features see x only, which makes the baseline exactly kernel regression.

The `paper_tied_phase` profile reruns everything on the code's one-parameter
family: whether the trained model beats "MLP + one GD step" depends on it.

Metrics on fixed evaluation tasks, as the code computes them: `loss_trained`,
`loss_mlp_gd`, `pred_diff` = mean |yhat_TF - yhat_GD|, and `cos_sensitivity`,
the mean cosine of d yhat / d x_q, which for a scalar input is the mean sign
agreement (1 - 2 x the fraction of tasks where the slopes disagree).

Speed: the MLP dominates. Both predictors use the attention only at the query and
reassociate it (logits h_i . W_KQ h_q = x_i (a . z) + y_i (b . z) + g_i . (W2^T z) + ...,
with g_i the hidden activations), so the 160 -> 40 layer runs for the query
alone; the same numbers as running the full layers (checked in the tests).
"""
import math
import time
from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
from matplotlib.figure import Figure

from analysis import lsa, metrics, tasks as task_lib, train as train_lib
from analysis.keys import named_keys


@dataclass(frozen=True)
class Config:
    """Settings of the sine-wave run: tasks, both models' sizes and training, and the identity check."""

    seed: int = 0                 # every random quantity gets its own key split from it
    N: int = 10                   # context points (official notebook: dataset_size = 10)
    x_range: float = 10.0         # x ~ U(-5, 5) (code input_range = 10)
    amp_low: float = 0.1          # A ~ U(0.1, 0.5): code and figures (appendix text: 5)
    amp_high: float = 0.5
    tie_phase_to_amplitude: bool = False  # the code's one-parameter family; drawn independently here
    width: int = 40               # token embedding (code emb_size = 40; 39 features + target)
    hidden: int = 160             # MLP hidden width (code widening factor 4)
    init_scale: float = 0.002     # variance scale of every weight (code init_scale = 0.002)
    steps: int = 20_000           # official notebook, both models
    batch_size: int = 512         # official: 2,048; a quarter keeps both runs of 20,000 steps within
    #                               ~6 minutes on two CPU cores (at 2,048 a step costs ~30 ms: 20 min)
    lr: float = 1e-3              # trained model (code lr)
    clip: float = 100.0           # global-norm clip, both models (code grad_clip_value(_gd) = 100)
    b1: float = 0.9               # official code
    b2: float = 0.98              # trained model (code b2)
    gd_eta: float = 0.1           # frozen Proposition 1 step of the baseline (code create_weights lr 0.1)
    gd_lr: float = 3e-4           # baseline meta-training (code gd_lr)
    gd_b2: float = 0.999          # baseline Adam b2 (code pre_train_gd_hps)
    chunk_size: int = 50          # steps per jitted scan
    eval_every: int = 500         # steps between points of the loss curves
    eval_tasks: int = 10_000      # fixed evaluation tasks (code: 10,000)
    curve_tasks: int = 2_048      # first evaluation tasks used for the curves
    identity_tasks: int = 256     # tasks of the float64 identity check
    identity_init_scale: float = 1.0  # random MLPs with O(1) weights, so the features are far from linear
    plot_tasks: int = 4           # tasks shown in the predictions figure


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    # quick: 400 steps at batch 256, larger learning rates and init (0.1: the paper's 0.002
    # needs thousands of steps to leave the zero predictor); both models learn the sine
    # family well beyond the zero predictor and their slopes mostly agree
    "quick": Config(steps=400, batch_size=256, lr=3e-3, gd_lr=3e-3, init_scale=0.1, eval_every=100,
                    eval_tasks=2_000, curve_tasks=1_000, identity_tasks=64),
    "paper": Config(),
    # the code's one-parameter family (phase tied to amplitude), everything else as "paper"
    "paper_tied_phase": Config(tie_phase_to_amplitude=True),
}


# ------------------------------------------------------------------ tasks

def _sine(config: Config, u_x, u_amp, u_phase):
    """Inputs (..., N+1) and targets y = A sin(x + phi) from uniforms; the last point is the query."""
    x = config.x_range * (u_x - 0.5)                                      # (..., N+1)
    amp = config.amp_low + (config.amp_high - config.amp_low) * u_amp     # (...,)
    phase = math.pi * (u_amp if config.tie_phase_to_amplitude else u_phase)
    return x, amp[..., None] * jnp.sin(x + phase[..., None])              # (..., N+1) each


def _draw(config: Config, rng: np.random.Generator):
    B, T = config.batch_size, config.N + 1
    def draw(n):
        return {"x": rng.random((n, B, T), dtype=np.float32),
                "amp": rng.random((n, B), dtype=np.float32),
                "phase": rng.random((n, B), dtype=np.float32)}
    return draw


def sample_tasks(config: Config, key, n: int):
    """n fixed sine tasks drawn on the host from `key`: inputs and targets (n, N+1), the query last."""
    rng = task_lib.host_rng(key)
    u_x = rng.random((n, config.N + 1))
    u_amp, u_phase = rng.random(n), rng.random(n)
    dtype = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32
    return _sine(config, *(jnp.asarray(u, dtype) for u in (u_x, u_amp, u_phase)))


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


class MLPGD(NamedTuple):
    """The baseline: MLP features of x, then one frozen Proposition 1 GD step from a learned W0."""

    mlp: MLP        # on x alone, F = width - 1 features
    W0: jax.Array   # (F,) meta-learned initial read-out


def init_mlp(key, n_in: int, F: int, H: int, scale: float) -> MLP:
    """Random embedding and MLP weights (fan-in variance scaling, `scale`), zero biases."""
    keys = named_keys(key, "E", "W1", "W2")
    return MLP(E=train_lib.variance_scaling(keys["E"], (F, n_in), scale),
               W1=train_lib.variance_scaling(keys["W1"], (H, F), scale), b1=jnp.zeros((H,)),
               W2=train_lib.variance_scaling(keys["W2"], (F, H), scale), b2=jnp.zeros((F,)))


def _hidden(m: MLP, t: jax.Array) -> jax.Array:
    """GELU activations for inputs t (..., n_in): the first layer acts on E t, n_in columns."""
    W1E = m.W1 @ m.E                                                      # (H, n_in)
    pre = jnp.einsum("...i,hi->...h", t, W1E)                             # (..., H)
    return jax.nn.gelu(pre + jnp.broadcast_to(m.b1, pre.shape))


def features(m: MLP, t: jax.Array) -> jax.Array:
    """h = E t + W2 g + b2 for inputs t (..., n_in) -> (..., F); the straightforward route."""
    h = jnp.einsum("...i,fi->...f", t, m.E) + jnp.einsum("...h,fh->...f", _hidden(m, t), m.W2)
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
    g_ctx = _hidden(p.mlp, t_ctx)                                         # (B, N, H)
    h_q = features(p.mlp, t_q)                                            # (B, F)
    z = h_q @ W_KQ.T                                                      # (B, F)  W_KQ h_q
    logits = _context_dots(p.mlp, t_ctx, g_ctx, z)                        # (B, N)
    w_pv = jnp.broadcast_to(W_PV[-1], h_q.shape)                          # (B, F)  last row of W_PV
    values = _context_dots(p.mlp, t_ctx, g_ctx, w_pv)                     # (B, N)  last entry of W_PV h_i
    out = h_q[:, -1] + jnp.sum(logits * values, axis=-1)                  # (B,)
    return -out[:, None]


def predict_mlp_gd(p: MLPGD, H_raw: jax.Array, eta: float) -> jax.Array:
    """yhat (B, 1) = W0 m_q + (eta / N) sum_i (y_i - W0 m_i) m_i . m_q, with m = features(x)."""
    N = H_raw.shape[1] - 1
    x_ctx, y_ctx, x_q = H_raw[:, :-1, :1], H_raw[:, :-1, 1], H_raw[:, -1, :1]
    g_ctx = _hidden(p.mlp, x_ctx)                                         # (B, N, H)
    m_q = features(p.mlp, x_q)                                            # (B, F)
    kernel = _context_dots(p.mlp, x_ctx, g_ctx, m_q)                      # (B, N)  k(x_i, x_q)
    W0 = jnp.broadcast_to(p.W0, m_q.shape)                                # (B, F)
    residual = y_ctx - _context_dots(p.mlp, x_ctx, g_ctx, W0)             # (B, N)  y_i - W0 m_i
    return (m_q @ p.W0 + (eta / N) * jnp.sum(residual * kernel, axis=-1))[:, None]


def mlp_gd_as_lsa(p: MLPGD, H_raw: jax.Array, eta: float) -> jax.Array:
    """The same prediction by running the Proposition 1 layer on tokens (m(x_i), y_i)."""
    N, F = H_raw.shape[1] - 1, p.W0.shape[0]
    m_all = features(p.mlp, H_raw[..., :1])                               # (B, N+1, F)
    y_slot = H_raw[..., 1].at[:, -1].set(-(m_all[:, -1] @ p.W0))         # query starts at -W0 m_q
    tokens = jnp.concatenate([m_all, y_slot[..., None]], axis=-1)         # (B, N+1, F+1)
    layer = lsa.gd_construction(eta, N, F, 1, p.W0[None, :], H_raw.dtype)
    return lsa.predict(layer, tokens)


# ------------------------------------------------------------------ the exact identity

def identity_check(config: Config, key) -> float:
    """Largest gap, in float64, between four routes to the MLP + one-GD-step prediction."""
    with jax.enable_x64(True):
        keys = named_keys(key, "mlp", "W0", "tasks")
        F, H = config.width - 1, config.hidden
        mlp = jax.tree.map(lambda a: a.astype(jnp.float64),
                           init_mlp(keys["mlp"], 1, F, H, config.identity_init_scale))
        mlp = mlp._replace(b1=jnp.linspace(-1.0, 1.0, H), b2=jnp.linspace(-0.5, 0.5, F))
        p = MLPGD(mlp=mlp, W0=jax.random.normal(keys["W0"], (F,), jnp.float64) / F ** 0.5)
        x, y = sample_tasks(config, keys["tasks"], config.identity_tasks)
        H_raw = raw_tokens(x.astype(jnp.float64), y.astype(jnp.float64))  # (B, N+1, 2)
        eta, N = config.gd_eta, config.N

        m_all = features(p.mlp, H_raw[..., :1])                           # (B, N+1, F)
        m_ctx, m_q = m_all[:, :-1], m_all[:, -1]
        y_ctx = H_raw[:, :-1, 1]
        kernel = jnp.einsum("bnf,bf->bn", m_ctx, m_q)                     # k(x_i, x_q) = m(x_i)^T m(x_q)
        by_kernel = m_q @ p.W0 + (eta / N) * jnp.sum((y_ctx - m_ctx @ p.W0) * kernel, axis=-1)
        step = (eta / N) * jnp.einsum("bn,bnf->bf", y_ctx - m_ctx @ p.W0, m_ctx)       # (B, F)
        W1 = jnp.broadcast_to(p.W0, step.shape) + step                   # one GD step from W0
        by_gd = jnp.sum(W1 * m_q, axis=-1)
        by_lsa = mlp_gd_as_lsa(p, H_raw, eta)[:, 0]
        by_fast = predict_mlp_gd(p, H_raw, eta)[:, 0]
        routes = jnp.stack([by_kernel, by_gd, by_lsa, by_fast])          # (4, B)
        return float(jnp.max(jnp.abs(routes[:, None] - routes[None, :])))


# ------------------------------------------------------------------ training and evaluation

def _train(config, params, predict, lr, b2, key, evaluate, progress, description):
    def loss_fn(p, raw):
        x, y = _sine(config, raw["x"], raw["amp"], raw["phase"])
        return metrics.loss(y[:, -1:], predict(p, raw_tokens(x, y)))
    start = time.perf_counter()
    result = train_lib.train(params, loss_fn, _draw(config, task_lib.host_rng(key)), steps=config.steps,
                          optimizer=train_lib.adam(lr, config.clip, config.b1, b2),
                          chunk_size=config.chunk_size, eval_every=config.eval_every,
                          evaluate=evaluate, progress=progress, description=description)
    chunks = result.history["chunk_seconds"][1:] or result.history["chunk_seconds"]
    return result, time.perf_counter() - start, 1e3 * float(np.median(chunks)) / config.chunk_size


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    # seven keys, the last unused: the split's size fixes every stream, so it stays 7
    keys = named_keys(config.seed, "identity", "eval", "init_tf", "init_gd", "train_tf", "train_gd", "unused")
    F, H = config.width, config.hidden

    identity_error = identity_check(config, keys["identity"])

    x_eval, y_eval = sample_tasks(config, keys["eval"], config.eval_tasks)
    H_eval, y_q = raw_tokens(x_eval, y_eval), y_eval[:, -1:]              # (B, N+1, 2), (B, 1)
    n_curve = config.curve_tasks
    eta = config.gd_eta

    trained0 = Trained(mlp=init_mlp(keys["init_tf"], 2, F, H, config.init_scale),
                       attn=train_lib.init_lsa(jax.random.fold_in(keys["init_tf"], 1), F, config.init_scale))
    baseline0 = MLPGD(mlp=init_mlp(keys["init_gd"], 1, F - 1, H, config.init_scale), W0=jnp.zeros((F - 1,)))
    predict_gd = lambda p, H: predict_mlp_gd(p, H, eta)                  # noqa: E731
    curve_loss = {name: jax.jit(lambda p, f=f: metrics.loss(y_q[:n_curve], f(p, H_eval[:n_curve])))
                  for name, f in (("trained", predict_trained), ("mlp_gd", predict_gd))}

    res_gd, sec_gd, ms_gd = _train(config, baseline0, predict_gd, config.gd_lr, config.gd_b2, keys["train_gd"],
                                   lambda p: {"loss": curve_loss["mlp_gd"](p)}, progress, "training MLP + GD")
    res_tf, sec_tf, ms_tf = _train(config, trained0, predict_trained, config.lr, config.b2, keys["train_tf"],
                                   lambda p: {"loss": curve_loss["trained"](p)}, progress, "training MLP + LSA")
    p_tf, p_gd = res_tf.params, res_gd.params

    compared = jax.jit(lambda a, b: metrics.compare(lambda H: predict_trained(a, H),
                                                    lambda H: predict_gd(b, H), H_eval, y_q, 1))(p_tf, p_gd)
    out = {
        "max_abs_error_identity": identity_error,
        "loss_trained": float(compared["loss_a"]),
        "loss_mlp_gd": float(compared["loss_b"]),
        "loss_zero_predictor": float(metrics.loss(y_q, jnp.zeros_like(y_q))),
        "cos_sensitivity": float(compared["cos_sensitivity"]),
        "model_diff": float(compared["model_diff"]),
        "pred_diff": float(compared["pred_diff"]),
        "train_seconds": {"trained": sec_tf, "mlp_gd": sec_gd},
        "ms_per_step": {"trained": ms_tf, "mlp_gd": ms_gd},
        "training": {"step": res_tf.history["step"], "loss_trained": res_tf.history["loss"],
                     "loss_mlp_gd": res_gd.history["loss"]},
    }
    figures = {"predictions": _predictions_figure(config, p_tf, p_gd, x_eval, y_eval),
               "training_loss": _loss_figure(out["training"])}
    notes = [f"A ~ U({config.amp_low}, {config.amp_high}), phi ~ U(0, pi) "
             + ("tied to A as in the code" if config.tie_phase_to_amplitude else "drawn independently of A"),
             f"{config.steps} steps each: trained {ms_tf:.1f} ms/step, MLP + GD {ms_gd:.1f} ms/step"]
    return {"metrics": out, "figures": figures, "notes": notes}


# ------------------------------------------------------------------ figures

def _predictions_figure(config, p_tf, p_gd, x_eval, y_eval):
    """A few evaluation tasks: the sine, its context points and both models' predictions over x."""
    n, N = config.plot_tasks, config.N
    grid = jnp.linspace(-config.x_range / 2, config.x_range / 2, 201)    # (G,)
    fig = Figure(figsize=(3.2 * n, 3))
    axes = fig.subplots(1, n, squeeze=False)
    for j, ax in enumerate(axes[0]):
        x_ctx, y_ctx = x_eval[j, :-1], y_eval[j, :-1]                     # (N,) each
        context = jnp.stack([x_ctx, y_ctx], axis=-1)                      # (N, 2)
        queries = jnp.stack([grid, jnp.zeros_like(grid)], axis=-1)        # (G, 2)
        H_grid = jnp.concatenate([jnp.broadcast_to(context, (grid.shape[0], N, 2)),
                                  queries[:, None, :]], axis=1)           # (G, N+1, 2)
        amp, phase = _fit_sine(x_ctx, y_ctx)
        ax.plot(grid, amp * jnp.sin(grid + phase), color="k", lw=1, label="true sine")
        ax.plot(grid, predict_trained(p_tf, H_grid)[:, 0], color="C0", label="trained MLP + LSA")
        ax.plot(grid, predict_mlp_gd(p_gd, H_grid, config.gd_eta)[:, 0], "--", color="C3",
                label="MLP + 1 GD step")
        ax.scatter(x_ctx, y_ctx, color="k", s=14, zorder=3, label="context")
        ax.set_xlabel("x")
    axes[0, 0].set_ylabel("y")
    axes[0, 0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def _fit_sine(x, y):
    """(A, phi) of y = A sin(x + phi) = a sin x + b cos x, exact from noiseless points."""
    basis = jnp.stack([jnp.sin(x), jnp.cos(x)], axis=-1)                  # (N, 2)
    a, b = jnp.linalg.lstsq(basis, y)[0]
    return jnp.hypot(a, b), jnp.arctan2(b, a)


def _loss_figure(h):
    fig = Figure(figsize=(5, 3.6))
    ax = fig.subplots()
    ax.plot(h["step"], h["loss_trained"], label="trained MLP + LSA")
    ax.plot(h["step"], h["loss_mlp_gd"], "--", label="MLP + 1 GD step (meta-trained MLP)")
    ax.set_yscale("log")
    ax.set_xlabel("training step")
    ax.set_ylabel("loss (evaluation tasks)")
    ax.legend()
    fig.tight_layout()
    return fig
