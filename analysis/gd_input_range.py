"""The input range behind the paper's GD loss: text U(-1, 1) vs code U(-0.5, 0.5)
(von Oswald et al., "Transformers learn in-context by gradient descent", ICML 2023,
§3 and Appendix A.1).

The paper's text draws x ~ U(-1, 1); the official code draws x ~ U(-0.5, 0.5)
(`input_range = 1` meaning U(-range/2, range/2)). The paper's numbers (one tuned
GD step: loss ~0.2) match the code's range. This analysis tunes one GD step
from W0 = 0 under each range, in closed form on tasks kept apart from the
evaluation tasks (`analysis.lib.lsa.tune_eta_one_step`), and reports the evaluation
loss 0.5 * mean (y_q - yhat)^2 under each (d = 10, N = 10, w ~ N(0, I)).

Scaling x by 2 scales the one-step prediction (eta/N) sum_i y_i x_i.x_q by 8
and the target by 2, so the optimal eta drops 4-fold and the loss grows 4-fold.
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

from matplotlib.figure import Figure

from analysis.lib import lsa, metrics, tasks as task_lib
from analysis.lib.config import Sizes
from analysis.lib.keys import named_keys, random_streams


@dataclass(frozen=True, kw_only=True)
class Config(Sizes):
    """Settings of the comparison: task sizes, the two input ranges, and the tuning and evaluation sets."""

    code_range: float = task_lib.CODE_INPUT_RANGE  # U(-0.5, 0.5), the official code
    text_range: float = task_lib.TEXT_INPUT_RANGE  # U(-1, 1), the paper's text
    tune_tasks: int = 200_000      # separate tasks for the closed-form eta
    eval_tasks: int = 200_000      # 20x the code's 10,000, whose loss varies by ~1.5% from set to set
    eta_max: float = 25.0          # the code's grid ends at 25; only for the figure
    n_eta: int = 250               # points of the loss-vs-eta curve in the figure


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
PROFILES = {
    "quick": Config(tune_tasks=8_192, eval_tasks=2_000, n_eta=60),
    "paper": Config(),
}

# The metrics run returns, dotted for nested ones (a group covers what is under it):
# `litrec validate` checks each claim's expectations against them.
METRICS = (
    "loss_gd_code_range", "loss_gd_text_range", "eta_code_range", "eta_text_range",
    "loss_ratio_text_over_code", "loss_text_range_at_code_eta",
)


@partial(jax.jit, static_argnums=(0,))
def _tuned_loss(config, key, input_range):
    """(eta tuned on separate tasks, evaluation loss at that eta, loss-vs-eta curve, s, y_q)."""
    keys = named_keys(key, "tune", "eval")
    tune = task_lib.sample_tasks(keys["tune"], config.tune_tasks, config.N, config.d, 1, input_range)
    ev = task_lib.sample_tasks(keys["eval"], config.eval_tasks, config.N, config.d, 1, input_range)
    eta = lsa.tune_eta_one_step(tune.X, tune.Y, tune.x_q, tune.y_q)
    s = lsa.one_step_direction(ev.X, ev.Y, ev.x_q)                    # (B, 1): prediction = eta * s
    etas = jnp.linspace(0.0, config.eta_max, config.n_eta)            # (n_eta,)
    curve = jax.vmap(lambda e: metrics.loss(ev.y_q, e * s))(etas)     # (n_eta,)
    return eta, metrics.loss(ev.y_q, eta * s), etas, curve, s, ev.y_q


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    with random_streams():
        return _run(config, progress)


def _run(config: Config, progress=None) -> dict:
    keys = named_keys(config.seed, "code_range", "text_range")
    eta_c, loss_c, etas, curve_c, _, _ = _tuned_loss(config, keys["code_range"], config.code_range)
    if progress is not None:
        progress(1, 2, "code range")
    eta_t, loss_t, _, curve_t, s_t, y_t = _tuned_loss(config, keys["text_range"], config.text_range)
    if progress is not None:
        progress(2, 2, "text range")
    eta_c, loss_c, eta_t, loss_t = map(float, (eta_c, loss_c, eta_t, loss_t))
    metrics_out = {
        "loss_gd_code_range": loss_c,
        "loss_gd_text_range": loss_t,
        "eta_code_range": eta_c,
        "eta_text_range": eta_t,
        "loss_ratio_text_over_code": loss_t / loss_c,
        # what the code's eta would give on the text's range: the two settings do not mix
        "loss_text_range_at_code_eta": float(metrics.loss(y_t, eta_c * s_t)),
    }
    fig = Figure(figsize=(6, 4))
    ax = fig.subplots()
    ax.plot(etas, curve_c, label=f"code: x ~ U(-{config.code_range / 2:g}, {config.code_range / 2:g})")
    ax.plot(etas, curve_t, label=f"text: x ~ U(-{config.text_range / 2:g}, {config.text_range / 2:g})")
    ax.plot([eta_c], [loss_c], "o", color="C0")
    ax.plot([eta_t], [loss_t], "o", color="C1")
    ax.set_yscale("log")
    ax.set_xlabel("eta (one GD step from W0 = 0)")
    ax.set_ylabel("evaluation loss")
    ax.set_title("one GD step: loss vs eta under both input ranges")
    ax.legend()
    fig.tight_layout()
    notes = [f"eta tuned in closed form on {config.tune_tasks} tasks apart from the "
             f"{config.eval_tasks} evaluation tasks"]
    return {"metrics": metrics_out, "figures": {"loss_vs_eta": fig}, "notes": notes}
