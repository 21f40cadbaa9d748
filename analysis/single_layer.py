"""A trained single LSA layer matches one step of gradient descent
(von Oswald et al., "Transformers learn in-context by gradient descent", ICML 2023,
§3, Figure 2 and the out-of-distribution panel).

One LSA layer (`analysis.lib.lsa`) is meta-trained on online linear-regression tasks
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
  (training used alpha = 1), the same comparison at each alpha (one set of tasks,
  scaled: common random numbers). The prediction of one LSA layer (no bias, query
  y-slot 0) is a homogeneous cubic in the inputs, as is one GD step's, so under
  this scaling f_TF / f_GD per task, the cosine of the sensitivities and their
  norm ratio do not move with alpha (`ood.cos_sensitivity` is flat by
  construction, not by evidence). What does move is how the trained layer's
  deviation from GD compares with the error both make against the target
  (y_q scales as alpha, f as alpha^3): `ood.diff_share` = mean (f_TF - f_GD)^2 /
  mean (y_q - f_GD)^2 per alpha (~alpha^4 for small alpha, flat for large), and
  its maximum `ood.max_diff_share`; and the loss gap `ood.max_rel_gap`.

Seeds and noise: the runner trains seeds 0-4 at `paper` and `paper_full` (0-2 at `quick`;
`SEEDS`: seeds 3 and 4 were added after the out-of-distribution gap was seen inconclusive
under its first threshold on three), each with its own
init, training stream, tuning and evaluation tasks; `run_seeds` trains them
together, each seed on the same keys as when it runs alone: on a CPU each
seed's chunk in turn, all dispatched before any is waited on, on an
accelerator side by side in one vmapped step (`analysis.lib.seed_batch`:
batching three seeds is slower than three in turn on a CPU). The final evaluation runs on
`eval_tasks` = 100,000 tasks in chunks of `eval_chunk` (the 1% band of the loss
comparison is then ~8x the standard error of one loss and ~40x that of the
paired gap), the OOD sets on 10,000 tasks per alpha; `noise` holds the standard
error over tasks of every judged loss and gap. `paper_full` is `paper`: the
paper's own scale for one layer (5,000 steps at batch 2,048) ran its three
seeds in about 20 s on two CPU cores (two seeds on one worker, one on the
other: `litrec run` splits them). `timing.trained` says what the training cost
(steps, wall and CPU ms per step, `analysis.lib.timing`); for seeds trained together
it is the cost of all of them, and `timing.trained.seeds_together` says how many.
"""
from dataclasses import dataclass, replace
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

from matplotlib.figure import Figure

from analysis.lib import lsa, metrics, seed_batch, seeds as seed_lib, tasks as task_lib, timing as timing_lib
from analysis.lib import train as train_lib
from analysis.lib.keys import named_keys, random_streams
from analysis.lib.one_layer import OneLayer, sample as _sample, train_one_layer


@dataclass(frozen=True, kw_only=True)
class Config(OneLayer):
    """Settings of the run: tasks and training (official 1-layer notebook, `OneLayer`), evaluation and OOD sets."""

    eval_tasks: int = 100_000     # final evaluation set (the code: 10,000), run in chunks
    eval_chunk: int = 10_000      # tasks per evaluation chunk (bounds memory; one compilation)
    tune_tasks: int = 65_536      # separate tasks for eta (the code tuned on its evaluation set)
    monitor_tasks: int = 10_000   # tasks for the training curves (own key, fixed; same size as eval)
    ood_alphas: tuple = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7, 1.8, 1.9,
                         2.0)     # 0.5 .. 2.0 in steps of 0.1, the paper's range
    ood_tasks: int = 10_000       # per alpha; one key for all alphas (common random numbers)


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    # quick: 1/5 of the steps, half the batch, twice the learning rate: within ~1% of one
    # GD step with cosine > 0.997 for seeds 0-3 in seconds (500 steps left seed 1 on the
    # initial plateau); all task sets of one size, so each jitted function compiles once
    "quick": Config(steps=1_000, batch_size=1_024, lr=2e-3, eval_tasks=4_000, eval_chunk=2_000,
                    tune_tasks=2_000, monitor_tasks=2_000, ood_alphas=(0.5, 1.0, 1.5, 2.0), ood_tasks=2_000),
    "paper": Config(),
    # the paper's own scale: for one layer it is `paper` (5,000 steps at batch 2,048 fit a CPU)
    "paper_full": Config(),
}

# Training seeds per profile: the runner runs `run` once per seed and judges on the spread.
SEEDS = {"quick": (0, 1, 2), "paper": (0, 1, 2, 3, 4), "paper_full": (0, 1, 2, 3, 4)}

# The metrics run returns, dotted for nested ones (a group covers what is under it):
# `litrec validate` checks each claim's expectations against them.
METRICS = (
    "loss_trained", "loss_gd", "rel_gap", "eta_gd", "pred_diff", "cos_sensitivity", "model_diff",
    "loss_interpolated", "beta", "ood.alpha", "ood.loss_trained", "ood.loss_gd",
    "ood.loss_interpolated", "ood.cos_sensitivity", "ood.diff_share", "ood.rel_gap",
    "ood.rel_gap_se", "ood.max_rel_gap", "ood.max_rel_gap_interpolated", "ood.min_cos",
    "ood.max_diff_share", "training", "timing",
)


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
def _per_task(p, p_gd, tasks, d):
    """Trained vs GD per task (B,): losses, interpolated loss, prediction and sensitivity gaps."""
    H = task_lib.tokens(tasks)                                        # (B, N+1, D)
    f, f_gd = _predictor(p)(H), _predictor(p_gd)(H)                   # (B, 1) each
    g = metrics.input_sensitivity(_predictor(p), H, d)                # (B, d)
    g_gd = metrics.input_sensitivity(_predictor(p_gd), H, d)          # (B, d)
    interpolated, beta = scale_corrected_interpolation(p, p_gd, d)
    f_int = _predictor(interpolated)(H)                               # (B, 1)
    cos = jnp.sum(g * g_gd, -1) / (jnp.linalg.norm(g, axis=-1) * jnp.linalg.norm(g_gd, axis=-1) + 1e-8)
    return {"loss_trained": 0.5 * (tasks.y_q - f)[:, 0] ** 2, "loss_gd": 0.5 * (tasks.y_q - f_gd)[:, 0] ** 2,
            "loss_interpolated": 0.5 * (tasks.y_q - f_int)[:, 0] ** 2,
            "pred_diff": jnp.abs(f - f_gd)[:, 0], "sq_diff": (f - f_gd)[:, 0] ** 2,
            "cos_sensitivity": cos, "model_diff": jnp.linalg.norm(g - g_gd, axis=-1),
            "beta": jnp.broadcast_to(beta, f[:, 0].shape)}


def _means(rows: dict) -> dict:
    return {k: float(np.mean(v)) for k, v in rows.items()}


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    with random_streams():
        keys, eta, p_gd, evaluate = _setup(config)
        clock = timing_lib.Clock(progress, evaluate)                      # CPU per chunk (`analysis.lib.timing`)
        result = train_one_layer(config, keys["init"], keys["train"], clock.evaluate, clock.progress)
        return _conclude(config, keys, eta, p_gd, result, clock.summary(result.history))


def run_seeds(config: Config, seeds, progress=None, batched: bool | None = None) -> list[dict]:
    """`run` for each of `seeds`, the seeds trained together: in one vmapped step, or each
    seed's chunk in turn with all dispatched before any is waited on; `batched=None` takes
    the faster here (`seed_batch.batching_pays`: batched on an accelerator, in turn on a CPU)."""
    batched = seed_batch.batching_pays() if batched is None else batched
    with random_streams():
        configs = [replace(config, seed=s) for s in seeds]
        setups = [_setup(c) for c in configs]
        clock, evaluates = _seeds_clock(progress, [evaluate for *_, evaluate in setups])
        loss_fn = seed_batch.keyed_batch_loss(train_lib.regression_loss,
                                              lambda key, n: _sample(config, key, n), config.batch_size)
        results = seed_batch.train_seeds(
            [train_lib.init_lsa(keys["init"], config.d + 1, config.init_scale) for keys, *_ in setups],
            loss_fn, [keys["train"] for keys, *_ in setups], steps=config.steps,
            optimizer=config.optimizer(),
            chunk_size=config.eval_every, evaluate=evaluates, progress=clock.progress, batched=batched)
        return [_conclude(c, keys, eta, p_gd, r, {**clock.summary(r.history), "seeds_together": len(configs)})
                for c, (keys, eta, p_gd, _), r in zip(configs, setups, results)]


def _seeds_clock(progress, evaluates):
    """One `timing.Clock` for seeds trained together, and each seed's evaluation timed by it
    (its CPU left out of the chunks'): the clock's evaluation is a call (evaluate, params)."""
    clock = timing_lib.Clock(progress, lambda call: call[0](call[1]))
    return clock, [lambda p, f=f: clock.evaluate((f, p)) for f in evaluates]


def _setup(config: Config):
    """A seed's keys, its tuned GD step (eta, the construction) and its monitor evaluation."""
    keys = named_keys(config.seed, "init", "train", "tune", "eval", "monitor", "ood")
    d, N = config.d, config.N

    # One GD step: eta in closed form on tuning tasks kept apart from evaluation.
    tune = _sample(config, keys["tune"], config.tune_tasks)
    eta = lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q)
    p_gd = lsa.gd_construction(eta, N, d)

    monitor = _sample(config, keys["monitor"], config.monitor_tasks)

    def evaluate(p):  # monitor, evaluation chunks and OOD sets share one shape where sizes agree
        row = _means(_per_task(p, p_gd, monitor, d))
        return {"loss_a": row["loss_trained"], "loss_b": row["loss_gd"],
                **{k: row[k] for k in ("cos_sensitivity", "model_diff", "pred_diff")}}

    return keys, eta, p_gd, evaluate


def _conclude(config: Config, keys, eta, p_gd, result: train_lib.Result, timing: dict) -> dict:
    """The output of one seed from its trained layer and what its training cost: final
    evaluation, OOD sets, figures."""
    d = config.d
    p = result.params

    n_chunks = -(-config.eval_tasks // config.eval_chunk)
    chunks = [_per_task(p, p_gd, _sample(config, jax.random.fold_in(keys["eval"], i), config.eval_chunk), d)
              for i in range(n_chunks)]
    rows = {k: np.concatenate([np.asarray(c[k]) for c in chunks]) for k in chunks[0]}
    final = _means(rows)

    ood = {"alpha": [], "loss_trained": [], "loss_gd": [], "loss_interpolated": [], "cos_sensitivity": [],
           "diff_share": [], "rel_gap": [], "rel_gap_se": []}
    for alpha in config.ood_alphas:
        r = {k: np.asarray(v) for k, v in
             _per_task(p, p_gd, _sample(config, keys["ood"], config.ood_tasks, input_range=alpha), d).items()}
        ood["alpha"].append(float(alpha))
        for k in ("loss_trained", "loss_gd", "loss_interpolated", "cos_sensitivity"):
            ood[k].append(float(np.mean(r[k])))
        ood["diff_share"].append(float(np.mean(r["sq_diff"]) / np.mean(2.0 * r["loss_gd"])))
        ood["rel_gap"].append(abs(ood["loss_trained"][-1] - ood["loss_gd"][-1]) / ood["loss_gd"][-1])
        ood["rel_gap_se"].append(seed_lib.relative_gap_se(r["loss_trained"], r["loss_gd"]))
    gaps_interp = [abs(a - b) / b for a, b in zip(ood["loss_interpolated"], ood["loss_gd"])]
    worst = int(np.argmax(ood["rel_gap"]))
    ood.update(max_rel_gap=max(ood["rel_gap"]), max_rel_gap_interpolated=max(gaps_interp),
               min_cos=min(ood["cos_sensitivity"]), max_diff_share=max(ood["diff_share"]))

    h = result.history
    metrics_out = {
        "loss_trained": final["loss_trained"],
        "loss_gd": final["loss_gd"],
        "rel_gap": abs(final["loss_trained"] - final["loss_gd"]) / final["loss_gd"],
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
        "timing": {"trained": timing},
    }
    noise = {
        "loss_trained": seed_lib.mean_se(rows["loss_trained"])[1],
        "loss_gd": seed_lib.mean_se(rows["loss_gd"])[1],
        "loss_interpolated": seed_lib.mean_se(rows["loss_interpolated"])[1],
        "rel_gap": seed_lib.relative_gap_se(rows["loss_trained"], rows["loss_gd"]),
        "pred_diff": seed_lib.mean_se(rows["pred_diff"])[1],
        "model_diff": seed_lib.mean_se(rows["model_diff"])[1],
        "cos_sensitivity": seed_lib.mean_se(rows["cos_sensitivity"])[1],
        "ood.max_rel_gap": ood["rel_gap_se"][worst],
    }
    figures = {"training": _training_figure(h), "ood": _ood_figure(ood)}
    notes = [f"eta tuned in closed form on {config.tune_tasks} separate tasks: {float(eta):.4f}",
             f"x ~ U(-{config.input_range / 2}, {config.input_range / 2}); evaluation on "
             f"{config.eval_tasks} tasks in chunks of {config.eval_chunk}; seed {config.seed}"]
    return {"metrics": metrics_out, "noise": noise, "figures": figures, "notes": notes}


def seed_figures(points: list[dict]) -> dict:
    """Every seed's training curve (loss on its monitor tasks, its GD level dotted) and its OOD share."""
    return {"seeds_training": seed_lib.seed_curves(points, [
        ("trained LSA loss, monitor tasks (dotted: 1 GD step)",
         lambda m: (m["training"]["step"], m["training"]["loss"], m["training"]["loss_gd"])),
        ("cosine of sensitivities vs GD",
         lambda m: (m["training"]["step"], [1.0 - c for c in m["training"]["cos_sensitivity"]]))]),
        "seeds_ood": seed_lib.seed_curves(points, [
            ("OOD: mean (f_TF - f_GD)^2 / mean (y - f_GD)^2", lambda m: (m["ood"]["alpha"], m["ood"]["diff_share"]))],
            xlabel="alpha: x ~ U(-alpha/2, alpha/2), trained at 1")}


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
    ax_cos.plot(ood["alpha"], ood["diff_share"], "o-")
    ax_cos.set_yscale("log")
    ax_cos.set_xlabel("alpha")
    ax_cos.set_ylabel("mean (f_TF - f_GD)^2 / mean (y - f_GD)^2")
    ax_cos.set_title("trained-vs-GD deviation against GD's error (cosine: flat by construction)", fontsize=9)
    fig.tight_layout()
    return fig
