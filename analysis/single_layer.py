"""A trained single LSA layer matches one step of gradient descent
(von Oswald et al., "Transformers learn in-context by gradient descent", ICML 2023,
§3, Figure 2 and the out-of-distribution panel).

One LSA layer (`analysis.lsa`) is meta-trained on online linear-regression tasks
(d = 10, N = 10, y = w.x, x ~ U(-0.5, 0.5) as in the official code). It is
compared, on fixed evaluation tasks, with one GD step of size eta from W0 = 0
(the Proposition 1 construction), eta tuned in closed form on separate tasks:

* loss_trained vs loss_gd (0.5 * mean (y_q - yhat)^2);
* pred_diff = mean |f_TF - f_GD|, cos_sensitivity = mean cos(g_TF, g_GD),
  model_diff = mean ||g_TF - g_GD||, with g = d f / d x_q;
* interpolation: with W_KQ = W_K^T W_Q and W_PV = P W_V of the trained layer,
  beta = mean of the first d diagonal entries of W_KQ; the scale-corrected
  (W_KQ / beta, beta W_PV) is averaged with the construction's products, and the
  averaged layer's loss (loss_interpolated) should equal both;
* out of distribution: inputs x ~ U(-alpha/2, alpha/2) for alpha in 0.5..2
  (training used alpha = 1), the same comparison at each alpha.
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

from matplotlib.figure import Figure

from analysis import lsa, metrics, tasks as task_lib, train as train_lib
from analysis.keys import named_keys, random_streams


@dataclass(frozen=True)
class Config:
    """Settings of the run: tasks, training (official 1-layer notebook), evaluation and OOD sets."""

    seed: int = 0                 # every random quantity gets its own key split from it
    d: int = 10                   # input size (paper §3; code input_size = 10)
    N: int = 10                   # context points (paper §3; code dataset_size = 10)
    input_range: float = task_lib.CODE_INPUT_RANGE  # U(-0.5, 0.5): the code's range, behind the paper's numbers
    steps: int = 5_000            # official notebook, 1 layer
    batch_size: int = 2_048       # official notebooks
    lr: float = 1e-3              # official notebook, 1 layer
    clip: float = 1e-3            # global-norm clip of the 1-layer notebook (the paper says 10)
    init_scale: float = 0.002     # variance scale of the 1-layer notebook: std = sqrt(0.002 / 11)
    b1: float = 0.9               # official code
    b2: float = 0.98              # official code
    eval_tasks: int = 10_000      # fixed evaluation set, as in the code
    tune_tasks: int = 65_536      # separate tasks for eta (the code tuned on its evaluation set)
    eval_every: int = 100         # steps between points of the training curves
    monitor_tasks: int = 10_000   # tasks for the training curves (own key, fixed; same size as eval)
    ood_alphas: tuple = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9,
                         2.0)     # 0.5 .. 2.0 in steps of 0.1, the paper's range
    ood_tasks: int = 10_000       # per alpha; one key for all alphas (common random numbers)


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    # quick: 1/5 of the steps, half the batch, twice the learning rate: within ~1% of one
    # GD step with cosine > 0.997 for seeds 0-3 in seconds (500 steps left seed 1 on the
    # initial plateau); all task sets of one size, so each jitted function compiles once
    "quick": Config(steps=1_000, batch_size=1_024, lr=2e-3, eval_tasks=2_000, tune_tasks=2_000,
                    monitor_tasks=2_000, ood_alphas=(0.5, 1.0, 1.5, 2.0), ood_tasks=2_000),
    "paper": Config(),
}


def _sample(config, key, n, input_range=None):
    r = config.input_range if input_range is None else input_range
    return task_lib.sample_tasks(key, n, config.N, config.d, 1, r)


def _predictor(p):
    """Query read-out of an LSA layer on tokens (B, N+1, D) -> (B, 1)."""
    return lambda H: -lsa.query_forward(p, H)[:, -1:]


def scale_corrected_interpolation(p: lsa.LSA, p_gd: lsa.LSA, d: int) -> tuple[lsa.LSA, jax.Array]:
    """The layer halfway between the scale-corrected trained layer and the construction.

    W_KQ and W_PV are only defined up to W_KQ / beta, beta W_PV; beta is the mean of
    the first d diagonal entries of the trained W_KQ (the construction's are 1).
    """
    W_KQ, W_PV = lsa.products(p)                                      # (D, D) each
    W_KQ_gd, W_PV_gd = lsa.products(p_gd)                             # (D, D) each
    beta = jnp.mean(jnp.diagonal(W_KQ)[:d])
    interpolated = lsa.from_products(0.5 * (W_KQ / beta + W_KQ_gd), 0.5 * (beta * W_PV + W_PV_gd))
    return interpolated, beta


@partial(jax.jit, static_argnums=(3,))
def _compare(p, p_gd, tasks, d):
    """Trained vs GD on fixed tasks, plus the interpolated layer's loss."""
    H = task_lib.tokens(tasks)                                        # (B, N+1, D)
    out = metrics.compare(_predictor(p), _predictor(p_gd), H, tasks.y_q, d)
    interpolated, beta = scale_corrected_interpolation(p, p_gd, d)
    out["loss_interpolated"] = metrics.loss(tasks.y_q, _predictor(interpolated)(H))
    out["beta"] = beta
    return out


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    with random_streams():
        return _run(config, progress)


def _run(config: Config, progress=None) -> dict:
    keys = named_keys(config.seed, "init", "train", "tune", "eval", "monitor", "ood")
    d, N, D = config.d, config.N, config.d + 1

    # One GD step: eta in closed form on tuning tasks kept apart from evaluation.
    tune = _sample(config, keys["tune"], config.tune_tasks)
    eta = lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q)
    p_gd = lsa.gd_construction(eta, N, d)

    monitor = _sample(config, keys["monitor"], config.monitor_tasks)

    def evaluate(p):  # same shapes as the final evaluation: one compilation of _compare
        row = _compare(p, p_gd, monitor, d)
        return {k: row[k] for k in ("loss_a", "loss_b", "cos_sensitivity", "model_diff", "pred_diff")}

    loss_fn = train_lib.batch_at_step(train_lib.regression_loss, lambda key, n: _sample(config, key, n),
                                      keys["train"], config.batch_size)
    result = train_lib.train(
        train_lib.init_lsa(keys["init"], D, config.init_scale), loss_fn, train_lib.step_indices(),
        steps=config.steps, optimizer=train_lib.adam(config.lr, config.clip, config.b1, config.b2),
        chunk_size=config.eval_every, evaluate=evaluate, progress=progress)
    p = result.params

    final = {k: float(v) for k, v in _compare(p, p_gd, _sample(config, keys["eval"], config.eval_tasks), d).items()}

    ood = {"alpha": [], "loss_trained": [], "loss_gd": [], "loss_interpolated": [], "cos_sensitivity": []}
    for alpha in config.ood_alphas:
        row = _compare(p, p_gd, _sample(config, keys["ood"], config.ood_tasks, input_range=alpha), d)
        ood["alpha"].append(float(alpha))
        ood["loss_trained"].append(float(row["loss_a"]))
        ood["loss_gd"].append(float(row["loss_b"]))
        ood["loss_interpolated"].append(float(row["loss_interpolated"]))
        ood["cos_sensitivity"].append(float(row["cos_sensitivity"]))
    gaps = [abs(a - b) / b for a, b in zip(ood["loss_trained"], ood["loss_gd"])]
    gaps_interp = [abs(a - b) / b for a, b in zip(ood["loss_interpolated"], ood["loss_gd"])]
    ood.update(max_rel_gap=max(gaps), max_rel_gap_interpolated=max(gaps_interp),
               min_cos=min(ood["cos_sensitivity"]))

    h = result.history
    metrics_out = {
        "loss_trained": final["loss_a"],
        "loss_gd": final["loss_b"],
        "rel_gap": abs(final["loss_a"] - final["loss_b"]) / final["loss_b"],
        "eta_gd": float(eta),
        "pred_diff": final["pred_diff"],
        "cos_sensitivity": final["cos_sensitivity"],
        "model_diff": final["model_diff"],
        "loss_interpolated": final["loss_interpolated"],
        "beta": final["beta"],
        "ood": ood,
        "training": {"step": h["step"], "loss": h["loss_a"], "loss_gd": h["loss_b"][0],
                     "cos_sensitivity": h["cos_sensitivity"],
                     "model_diff": h["model_diff"], "pred_diff": h["pred_diff"],
                     "chunk_step": h["chunk_step"], "train_loss": h["train_loss"]},
    }
    figures = {"training": _training_figure(h), "ood": _ood_figure(ood)}
    notes = [f"eta tuned in closed form on {config.tune_tasks} separate tasks: {float(eta):.4f}",
             f"x ~ U(-{config.input_range / 2}, {config.input_range / 2}); evaluation on "
             f"{config.eval_tasks} fixed tasks"]
    return {"metrics": metrics_out, "figures": figures, "notes": notes}


def _training_figure(h):
    fig = Figure(figsize=(10, 3.8))
    ax_loss, ax_align = fig.subplots(1, 2)
    ax_loss.plot(h["step"], h["loss_a"], label="trained LSA")
    ax_loss.axhline(h["loss_b"][0], color="k", linestyle="--", label="1 step of GD")
    ax_loss.plot(h["chunk_step"], h["train_loss"], alpha=0.4, label="trained LSA, training batches")
    ax_loss.set_title("loss on fixed monitor tasks")
    ax_loss.set_yscale("log")
    ax_loss.set_xlabel("training step")
    ax_loss.set_ylabel("loss")
    ax_loss.legend()
    ax_align.plot(h["step"], h["cos_sensitivity"], label="cosine of sensitivities")
    ax_align.plot(h["step"], h["model_diff"], label="model diff")
    ax_align.plot(h["step"], h["pred_diff"], label="prediction diff")
    ax_align.set_xlabel("training step")
    ax_align.set_ylim(bottom=0)
    ax_align.legend()
    ax_align.set_title("trained LSA vs 1 step of GD")
    fig.tight_layout()
    return fig


def _ood_figure(ood):
    fig = Figure(figsize=(10, 3.8))
    ax_loss, ax_cos = fig.subplots(1, 2)
    ax_loss.plot(ood["alpha"], ood["loss_trained"], label="trained LSA")
    ax_loss.plot(ood["alpha"], ood["loss_gd"], "--", label="1 step of GD")
    ax_loss.plot(ood["alpha"], ood["loss_interpolated"], ":", label="interpolated")
    ax_loss.axvline(1.0, color="grey", linewidth=0.6)
    ax_loss.set_yscale("log")
    ax_loss.set_xlabel("alpha: x ~ U(-alpha/2, alpha/2), trained at 1")
    ax_loss.set_ylabel("loss")
    ax_loss.legend()
    ax_cos.plot(ood["alpha"], ood["cos_sensitivity"], "o-")
    ax_cos.set_ylim(min(0.98, min(ood["cos_sensitivity"]) - 0.005), 1.0005)
    ax_cos.set_xlabel("alpha")
    ax_cos.set_ylabel("cosine of sensitivities")
    ax_cos.set_title("flat in alpha: both sensitivities scale as alpha^2")
    fig.tight_layout()
    return fig
