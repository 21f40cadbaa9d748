"""Training speed at the paper's scale (issue: five separate layers, Propositions 2 and 3).

For every model the analyses train at batch 2,048 (deeper-gdpp's five separate
token-clipped layers and its recurrent K = 2, Proposition 2's two models,
Proposition 3's two layers) it times the training step as the analyses now run
it against the plain step (`jax.value_and_grad` of the whole batch, the
baseline), both with Adam, in jitted scans of `--inner` steps on the same
pre-drawn data, interleaved round by round; medians of wall and process CPU ms
per step. Where an analysis's config has a `grad_slice` and `analysis.lib.train`
can sum a step's gradient over slices of that many tasks (`batch_slices`),
"now" is that step; otherwise it is the plain step again (ratio about 1). Drawing the data and
evaluation are excluded (the host draws the next chunk while one trains). It also gives each step's FLOPs (XLA's cost
analysis of the unsliced step) over the single-core float32 FLOP rate of a
(512, 512) product measured on one thread: the arithmetic floor. Beside it the
step's memory traffic (XLA's `bytes accessed`, each fused operation's operands
and outputs) over the rate of a streaming elementwise pass over 64 MiB, per CPU
second: the memory-traffic floor, an estimate (operands that stay in cache move
faster), which says whether a step is bound by moving data rather than by its
arithmetic.

Goals: five separate layers <= 15 ms per step (wall); Proposition 2 at 20,000
steps <= 10 CPU minutes per seed and Proposition 3 at 40,000 steps <= 7, both
estimated as steps x CPU ms per step of the trained models (training only: the
compile, tuning and evaluation of a seed come on top, minutes at most).

    .venv/bin/python bench/train_speed.py [--rounds 5] [--inner 10] [--only deep_k5,p2_trained]
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
import report  # noqa: E402

from analysis import deeper_gdpp  # noqa: E402
from analysis.lib import metrics, prop2_models  # noqa: E402
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib
from analysis.lib.prop3_construction import positional_encoding, token_format  # noqa: E402
from analysis.lib.prop3_construction import predict as prop3_predict
from analysis.prop2_mlp_attention import Config as Prop2Config  # noqa: E402
from analysis.prop3_token_building import Config as Prop3Config  # noqa: E402

B = 2_048


def _slice(config) -> int | None:
    """Tasks per gradient slice of an analysis's config; None where it has none."""
    return getattr(config, "grad_slice", None)


def _make_step(loss_fn, optimizer, grad_slice):
    """The step as the analyses run it: sliced where `analysis.lib.train` and the config say so."""
    slices = train_lib.batch_slices(B, grad_slice) if hasattr(train_lib, "batch_slices") else 1
    return (train_lib.make_step(loss_fn, optimizer, slices) if slices > 1
            else train_lib.make_step(loss_fn, optimizer)), slices


def _deeper(depth):
    config = deeper_gdpp.Config()
    draws = task_lib.regression_draws(np.random.default_rng(0), B, config.N, config.d)

    def loss_fn(p, raw):
        H, y_q = deeper_gdpp._tokens_from_raw(raw, config.input_range)
        return 0.5 * jnp.mean((y_q + deeper_gdpp._query(p, H, depth)[:, -1]) ** 2)
    params = train_lib.init_lsa(jax.random.key(0), config.d + 1, depth.init_scale,
                                n_layers=depth.K if depth.separate else None)
    return loss_fn, params, draws, train_lib.adam(depth.lr, depth.clip, config.b1, config.b2), _slice(config)


def _prop2(model):
    config = Prop2Config()
    draws = prop2_models.host_draws(config, np.random.default_rng(0))
    if model == "trained":
        params = prop2_models.init_trained(jax.random.key(0), config.width, config.hidden, config.init_scale)
        predict, lr, b2 = prop2_models.predict_trained, config.lr, config.b2
    else:
        params = prop2_models.init_baseline_mlp(jax.random.key(0), config.width, config.hidden, config.gd_init_scale)
        predict, lr, b2 = (lambda m, H: prop2_models.predict_baseline(m, H, config.gd_eta)), config.gd_lr, config.gd_b2

    def loss_fn(p, raw):
        x, y = prop2_models.sine(config, raw["x"], raw["amp"], raw["phase"])
        return metrics.loss(y[:, -1:], predict(p, prop2_models.raw_tokens(x, y)))
    return loss_fn, params, draws, train_lib.adam(lr, config.clip, config.b1, b2), _slice(config)


def _prop3():
    config = Prop3Config()
    pe = jnp.asarray(positional_encoding(2 * config.N + 1, config.pe_size, config.pe_base))
    tokens, D, read = token_format(config.token_format, config.d, config.pe_size)
    draws = task_lib.regression_draws(np.random.default_rng(0), B, config.N, config.d)
    stack = train_lib.init_lsa(jax.random.key(0), D, config.init_scale, n_layers=2)
    params = tuple(jax.tree.map(lambda w, layer=layer: w[layer], stack) for layer in range(2))

    def loss_fn(p, raw):
        X, y, x_q, y_q = task_lib.regression_tasks(raw, config.input_range)
        return metrics.loss(y_q[:, None], prop3_predict(p, tokens(X, y[..., None], x_q, pe), read))
    return loss_fn, params, draws, train_lib.adam(config.lr, config.clip, config.b1, config.b2), _slice(config)


MODELS = {
    "deep_k5": ("deeper-gdpp, 5 separate layers, tokens clipped at 10", lambda: _deeper(deeper_gdpp.K5_SEPARATE)),
    "deep_k2": ("deeper-gdpp, recurrent K = 2", lambda: _deeper(deeper_gdpp.K2)),
    "p2_trained": ("Proposition 2, MLP + LSA (trained)", lambda: _prop2("trained")),
    "p2_gd": ("Proposition 2, MLP + 1 GD step", lambda: _prop2("mlp_gd")),
    "p3": ("Proposition 3, softmax + linear layer", _prop3),
}


def single_core_bandwidth(repeats: int = 5, n: int = 16 * 2 ** 20) -> float:
    """Bytes per CPU second of a streaming elementwise pass over `n` float32 (64 MiB; read and
    write), the rate a step's memory traffic (XLA's `bytes accessed`) is set against."""
    x = jnp.asarray(np.random.default_rng(0).standard_normal(n), jnp.float32)
    f = jax.jit(lambda x: jax.lax.fori_loop(0, 10, lambda i, v: v * 0.999 + 1e-3, x))
    jax.block_until_ready(f(x))
    rates = []
    for _ in range(repeats):
        c0 = time.process_time()
        jax.block_until_ready(f(x))
        rates.append(10 * 2 * x.nbytes / (time.process_time() - c0))
    return statistics.median(rates)


def single_core_flops(repeats: int = 5) -> float:
    """float32 FLOP/s of a (512, 512) @ (512, 512) product per CPU second (process CPU time)."""
    a = jnp.asarray(np.random.default_rng(0).standard_normal((512, 512)), jnp.float32)
    f = jax.jit(lambda a: jax.lax.fori_loop(0, 20, lambda i, x: (x @ a) * 1e-2, a))
    jax.block_until_ready(f(a))
    rates = []
    for _ in range(repeats):
        c0 = time.process_time()
        jax.block_until_ready(f(a))
        rates.append(20 * 2 * 512 ** 3 / (time.process_time() - c0))
    return statistics.median(rates)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--inner", type=int, default=10, help="steps per timed scan")
    ap.add_argument("--only", default="", help="comma-separated model names: " + ",".join(MODELS))
    report.add_json_argument(ap)
    args = report.parse(ap, rounds=1, inner=1, only="p3")  # one model: compiling each takes long
    if args.smoke:
        report.fast_compiles()
    names = [n for n in args.only.split(",") if n] or list(MODELS)

    if args.smoke:  # each rate measured once, the memory one over 4 MiB
        flop_rate, byte_rate = single_core_flops(1), single_core_bandwidth(1, 2 ** 20)
    else:
        flop_rate, byte_rate = single_core_flops(), single_core_bandwidth()
    print(f"float32 FLOP rate per CPU second ((512, 512) products): {flop_rate / 1e9:.1f} GFLOP/s; "
          f"streaming memory rate per CPU second: {byte_rate / 1e9:.1f} GB/s", flush=True)
    runners = {}
    for name in names:
        loss_fn, params, draws, optimizer, grad_slice = MODELS[name][1]()
        xs = jax.tree.map(jnp.asarray, draws(args.inner))
        state = (params, optimizer.init(params))
        pair = {}
        now, slices = _make_step(loss_fn, optimizer, grad_slice)
        print(f"{name}: the analyses' step sums its gradient over {slices} slice(s) of the batch", flush=True)
        for kind, step in (("before", train_lib.make_step(loss_fn, optimizer)), ("now", now)):
            run = jax.jit(lambda state, xs, step=step: jax.lax.scan(step, state, xs)[0])
            jax.block_until_ready(run(state, xs))
            pair[kind] = run
        one = jax.jit(train_lib.make_step(loss_fn, optimizer)).lower(state, jax.tree.map(lambda a: a[0], xs))
        cost = one.compile().cost_analysis()
        cost = cost[0] if isinstance(cost, list) else cost
        runners[name] = (pair, state, xs, float(cost.get("flops", float("nan"))),
                         float(cost.get("bytes accessed", float("nan"))))

    times = {(n, k): [] for n in runners for k in ("before", "now")}
    for _ in range(args.rounds):
        for name, (pair, state, xs, *_) in runners.items():
            for kind, run in pair.items():
                w0, c0 = time.perf_counter(), time.process_time()
                jax.block_until_ready(run(state, xs))
                times[name, kind].append(((time.perf_counter() - w0) * 1e3 / args.inner,
                                          (time.process_time() - c0) * 1e3 / args.inner))

    med = {key: (statistics.median(t[0] for t in v), statistics.median(t[1] for t in v)) for key, v in times.items()}
    rows = []
    print(f"\n{'model':58s} {'before wall/cpu':>16s} {'now wall/cpu':>16s}  MFLOP  floor ms"
          f"  MB moved  memory floor ms")
    for name in runners:
        flops, moved = runners[name][3], runners[name][4]
        (bw, bc), (nw, nc) = med[name, "before"], med[name, "now"]
        print(f"{MODELS[name][0]:58s} {bw:7.1f} {bc:7.1f}  {nw:7.1f} {nc:7.1f}  {flops / 1e6:6.0f}  "
              f"{1e3 * flops / flop_rate:6.2f}  {moved / 1e6:8.0f}  {1e3 * moved / byte_rate:15.2f}")
        rows.append(report.Row(f"train step {name} (CPU)", nc, "ms/step", "step before (CPU)", bc,
                               "faster than before"))
    if "deep_k5" in runners:
        (bw, _), (nw, nc) = med["deep_k5", "before"], med["deep_k5", "now"]
        rows.append(report.Row("5 separate layers, batch 2,048, clip 10 (wall)", nw, "ms/step",
                               "step before (wall)", bw, "<= 15 ms/step", nw <= 15.0))
        floor = 1e3 * runners["deep_k5"][3] / flop_rate
        rows.append(report.Row("5 separate layers: FLOP floor (1 core)", floor, "ms/step", "step now (CPU)", nc,
                               "(floor)"))
    for name in runners:                  # memory traffic: where a step far above its FLOP floor goes
        rows.append(report.Row(f"{name}: memory-traffic floor (1 core)", 1e3 * runners[name][4] / byte_rate,
                               "ms/step", "step now (CPU)", med[name, "now"][1], "(floor)"))
    if {"p2_trained", "p2_gd"} <= set(runners):
        now = 20_000 * (med["p2_trained", "now"][1] + med["p2_gd", "now"][1]) / 6e4
        before = 20_000 * (med["p2_trained", "before"][1] + med["p2_gd", "before"][1]) / 6e4
        rows.append(report.Row("Proposition 2, 20,000 steps, both models", now, "CPU min/seed",
                               "steps before", before, "<= 10 CPU min", now <= 10.0))
    if "p3" in runners:
        now, before = 40_000 * med["p3", "now"][1] / 6e4, 40_000 * med["p3", "before"][1] / 6e4
        rows.append(report.Row("Proposition 3, 40,000 steps", now, "CPU min/seed", "steps before", before,
                               "<= 7 CPU min", now <= 7.0))
    print()
    report.emit(rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
