"""Proposition 1 (von Oswald et al., "Transformers learn in-context by gradient
descent", ICML 2023, §2): one linear self-attention step is one gradient step.

With W_K = W_Q = [[I_x, 0], [0, 0]], W_V = [[0, 0], [W0, -I_y]] and P = (eta/N) I,
one LSA layer (`analysis.lib.lsa`) maps every token e_j = (x_j, y_j), the query
included, to

    (x_j, y_j - dW x_j),   dW = -(eta/N) sum_i (W0 x_i - y_i) x_i^T = -eta grad L(W0),

L(W) = 1/(2N) sum_i ||W x_i - y_i||^2. The check runs the layer on random tasks
and compares every output token with that formula, computed directly, for
several seeds, W0 = 0 and W0 != 0, and several (N, d_in, d_out), in float64 and
float32. The query is tried in both forms: (x_q, 0), which ends at (x_q, -dW x_q)
so its read-out -y is dW x_q, and (x_q, -W0 x_q), the paper's start for W0 != 0,
whose read-out is the updated model's prediction (W0 + dW) x_q.
"""
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp

from matplotlib.figure import Figure

from analysis.lib import lsa, tasks as task_lib
from analysis.lib.config import Inputs
from analysis.lib.keys import named_keys, random_streams


@dataclass(frozen=True, kw_only=True)
class Config(Inputs):
    """Settings of the check: seeds, (N, d_in, d_out) sizes, tasks per case and the range of eta."""

    n_seeds: int = 3                 # independent draws of tasks, W0 and eta per size
    sizes: tuple = ((10, 10, 1), (45, 12, 8), (5, 3, 2), (20, 7, 4))
    # (N, d_in, d_out): the paper's 10 -> 1 with N = 10, the code's own 12 -> 8 check
    # with 45 points, and two odd shapes (N < d_in, d_out > 1) to show it is size-free
    n_tasks: int = 16                # tasks per case; the identity is per task, so few suffice
    eta_range: tuple = (0.1, 2.0)    # any eta holds; this keeps outputs O(1) so absolute errors compare


# The runner's named settings (`litrec run --profile NAME`): quick for a smoke run, paper for the site.
# `paper_full` is `paper`: an exact identity, nothing trained, so the paper's own scale is already
# paper's (the profile exists so that the paper's scale judges every claim).
PROFILES = {
    "quick": Config(n_seeds=1, sizes=((10, 10, 1), (5, 3, 2))),
    "paper": Config(),
    "paper_full": Config(),
}

# The metrics run returns, dotted for nested ones (a group covers what is under it):
# `litrec validate` checks each claim's expectations against them.
METRICS = (
    "max_abs_error_f64", "max_abs_error_f32", "max_abs_readout_error_f64", "n_cases",
    "case_errors_f64", "case_errors_f32",
)

# The three forms of the check for each (seed, size): W0 and the query's initial y-slot.
VARIANTS = ("W0=0", "W0!=0, query (x_q, 0)", "W0!=0, query (x_q, -W0 x_q)")


def _draw_case(key, N, d_in, d_out, config):
    """Tasks, a random W0 and eta for one case, in float64 (cast down for float32)."""
    keys = named_keys(key, "tasks", "W0", "eta")
    tasks = task_lib.sample_tasks(keys["tasks"], config.n_tasks, N, d_in, d_out,
                                  config.input_range, dtype=jnp.float64)
    W0 = jax.random.normal(keys["W0"], (d_out, d_in), jnp.float64)                # (d_out, d_in)
    eta = jax.random.uniform(keys["eta"], (), jnp.float64, *config.eta_range)
    return tasks, W0, eta


def _errors(tasks, W0, eta, variant, dtype):
    """Max |LSA output - (x_j, y_j - dW x_j)| over all tokens, and the read-out error."""
    d_in, d_out, N = tasks.d_in, tasks.d_out, tasks.n_context
    W0_used = jnp.zeros_like(W0) if variant == VARIANTS[0] else W0
    y_q0 = (-jnp.einsum("oi,bi->bo", W0_used, tasks.x_q) if variant == VARIANTS[2]
            else jnp.zeros_like(tasks.y_q))                                    # (B, d_out)
    H = task_lib.tokens(tasks, y_q_init=y_q0)                                  # (B, N+1, D), float64

    # The formula, in float64: every token's y-slot moves by -dW x_j.
    dW = lsa.gd_delta(tasks.X, tasks.Y, eta, W0_used)                          # (B, d_out, d_in)
    expected = H.at[..., d_in:].add(-jnp.einsum("boi,bti->bto", dW, H[..., :d_in]))  # (B, N+1, D)

    # The layer, in the requested precision.
    p = lsa.gd_construction(eta.astype(dtype), N, d_in, d_out, W0_used.astype(dtype), dtype)
    out = lsa.forward(p, H.astype(dtype)).astype(jnp.float64)                  # (B, N+1, D)
    token_error = jnp.max(jnp.abs(out - expected))

    readout = lsa.read_out(out, d_out)                                         # (B, d_out)
    W_model = dW if variant == VARIANTS[1] else W0_used[None] + dW             # (B, d_out, d_in), what the read-out predicts
    readout_error = jnp.max(jnp.abs(readout - jnp.einsum("boi,bi->bo", W_model, tasks.x_q)))
    return token_error, readout_error


@partial(jax.jit, static_argnums=(1, 2, 3, 4))
def _case_errors(key, N, d_in, d_out, config):
    """Errors of every variant for one draw: (len(VARIANTS), 3) = float64, float32, read-out."""
    tasks, W0, eta = _draw_case(key, N, d_in, d_out, config)
    rows = []
    for variant in VARIANTS:
        e64, r64 = _errors(tasks, W0, eta, variant, jnp.float64)
        e32, _ = _errors(tasks, W0, eta, variant, jnp.float32)
        rows.append(jnp.stack([e64, e32, r64]))
    return jnp.stack(rows)


def run(config: Config, progress=None) -> dict:
    """Run the analysis; returns {"metrics", "figures", "notes"} (site/writing-analyses.md)."""
    with random_streams():
        return _run(config, progress)


def _run(config: Config, progress=None) -> dict:
    labels, err64, err32, readout64 = [], [], [], []
    draws = [(s, size) for s in range(config.n_seeds) for size in config.sizes]
    with jax.enable_x64(True):
        key = jax.random.key(config.seed)
        for index, (s, (N, d_in, d_out)) in enumerate(draws):
            errors = _case_errors(jax.random.fold_in(key, index), N, d_in, d_out, config).tolist()
            for variant, (e64, e32, r64) in zip(VARIANTS, errors):
                labels.append(f"s{s} N={N} {d_in}->{d_out} {variant}")
                err64.append(e64)
                err32.append(e32)
                readout64.append(r64)
            if progress is not None:
                progress(index + 1, len(draws), "checking Proposition 1")

    metrics = {
        "max_abs_error_f64": max(err64),
        "max_abs_error_f32": max(err32),
        "max_abs_readout_error_f64": max(readout64),
        "n_cases": len(labels),
        "case_errors_f64": err64,
        "case_errors_f32": err32,
    }
    notes = [f"case {i}: {label}" for i, label in enumerate(labels)]
    return {"metrics": metrics, "figures": {"errors": _figure(labels, err64, err32)}, "notes": notes}


def _figure(labels, err64, err32):
    fig = Figure(figsize=(max(6.0, 0.28 * len(labels)), 4.2))
    ax = fig.subplots()
    xs = range(len(labels))
    floor = 1e-20  # an exact zero would vanish from a log axis
    ax.bar([x - 0.2 for x in xs], [max(e, floor) for e in err64], width=0.4, label="float64")
    ax.bar([x + 0.2 for x in xs], [max(e, floor) for e in err32], width=0.4, label="float32")
    ax.axhline(1e-10, color="C0", linestyle="--", linewidth=0.8)
    ax.axhline(1e-5, color="C1", linestyle="--", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([str(i) for i in xs], fontsize=7)
    ax.set_xlabel("case (seed x (N, d_in, d_out) x W0 / query form; see notes)")
    ax.set_ylabel("max |LSA token - GD-step token|")
    ax.set_title("Proposition 1: one LSA step = one GD step, every token")
    ax.legend()
    fig.tight_layout()
    return fig
