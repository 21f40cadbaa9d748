"""Benchmark: deeper-gdpp's training step beside the official code's step for the same model.

The official code (google-research/self-organising-systems, folder
transformers_learn_icl_by_gd; von Oswald et al., ICML 2023) trains its models
with `src.train.update`: one jitted Adam step of its haiku Transformer, called
once per step. This script runs that function in the official code's own
virtual environment (jax 0.4.30, dm-haiku 0.0.12, optax 0.2.2, ml_collections,
pytz), in a child process, at the settings of the paper's notebooks (its one
name JAX no longer has, `jnp.DeviceArray` in a type annotation, is given as
`jax.Array` first):

- five separate LSA layers, tokens clipped at +-10, Adam lr 5e-4, global-norm
  clip 10, init scale 0.0004 (`deq` off; deeper-gdpp's `paper_full` model);
- two recurrent layers, Adam lr 1e-3, clip 0.001, init scale 0.001 (`deq` on;
  deeper-gdpp's K = 2);

batch 2,048, d = 10, N = 10, on a few batches its own `data_creator` drew
beforehand (drawing excluded, as litrec's step is timed without it). Beside it,
in the same run and alternating with it, litrec's step for the same model as
the analysis trains it (`bench/train_speed.py`'s, a jitted scan of `--inner`
steps). Medians over `--rounds` rounds of `--steps` steps each, wall and CPU.

The official code is not part of litrec and is not fetched by it: give its
folder (`--official`, or LITREC_OFFICIAL_CODE) and the interpreter of its
environment (`--official-python`, or LITREC_OFFICIAL_PYTHON). Without them the
script measures nothing and says so.

    python bench/official_step.py --official DIR --official-python PATH [--rounds 5]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import report  # noqa: E402

GOAL = "faster than the official code"

# The official notebooks' settings for each model (config fields of src/config.py).
MODELS = {
    "deep_k5": ("5 separate layers, tokens clipped at 10",
                {"num_layers": 5, "deq": False, "clip": 10.0, "lr": 5e-4, "grad_clip_value": 10.0,
                 "init_scale": 0.0004}),
    "deep_k2": ("2 recurrent layers",
                {"num_layers": 2, "deq": True, "clip": 0.0, "lr": 1e-3, "grad_clip_value": 0.001,
                 "init_scale": 0.001}),
}

CHILD = r"""
import json, statistics, sys, time
spec = json.loads(sys.argv[1])
sys.argv = sys.argv[:1]
import jax
if not hasattr(jax.numpy, "DeviceArray"):   # an annotation src/train.py names; gone from jax by 0.4.30
    jax.numpy.DeviceArray = jax.Array
from src.config import config
for k, v in spec["config"].items():
    setattr(config, k, v)
config.bs, config.analyse, config.seed = 2048, False, 0
from src import train
train.change_dataloader()
optimiser, state, _, rng = train.init()
batches = []
for i in range(4):
    rng, key = jax.random.split(rng)
    batches.append(train.data_creator(jax.random.split(key, num=config.bs), config.input_size,
                                      config.dataset_size, config.size_distract, config.input_range,
                                      config.weight_scale))
jax.block_until_ready(batches)
state, metrics = train.update(state, batches[0], optimiser)        # compiles
jax.block_until_ready(metrics["train_loss"])
for _ in range(spec["rounds"]):
    w0, c0 = time.perf_counter(), time.process_time()
    for i in range(spec["steps"]):
        state, metrics = train.update(state, batches[i % 4], optimiser)
    jax.block_until_ready((state.params, metrics["train_loss"]))
    print(json.dumps({"wall_ms": 1e3 * (time.perf_counter() - w0) / spec["steps"],
                      "cpu_ms": 1e3 * (time.process_time() - c0) / spec["steps"]}), flush=True)
"""


def official_rounds(folder: Path, python: str, config: dict, rounds: int, steps: int) -> list[dict]:
    """Per-round wall and CPU ms per step of the official code's `update` (a child process)."""
    spec = json.dumps({"config": config, "rounds": rounds, "steps": steps})
    proc = subprocess.run([python, "-c", CHILD, spec], cwd=folder, capture_output=True, text=True,
                          timeout=1800)
    if proc.returncode != 0:
        raise SystemExit(f"the official code failed:\n{proc.stderr[-3000:]}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def litrec_rounds(name: str, rounds: int, inner: int) -> list[dict]:
    """Per-round wall and CPU ms per step of the analysis's own step (bench/train_speed.py)."""
    import jax
    import jax.numpy as jnp
    import train_speed

    loss_fn, params, draws, optimizer, grad_slice = train_speed.MODELS[name][1]()
    step, _ = train_speed._make_step(loss_fn, optimizer, grad_slice)
    xs = jax.tree.map(jnp.asarray, draws(inner))
    state = (params, optimizer.init(params))
    run = jax.jit(lambda state, xs: jax.lax.scan(step, state, xs)[0])
    jax.block_until_ready(run(state, xs))
    out = []
    for _ in range(rounds):
        w0, c0 = time.perf_counter(), time.process_time()
        jax.block_until_ready(run(state, xs))
        out.append({"wall_ms": 1e3 * (time.perf_counter() - w0) / inner,
                    "cpu_ms": 1e3 * (time.process_time() - c0) / inner})
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--official", default=os.environ.get("LITREC_OFFICIAL_CODE", ""),
                    help="the official code's transformers_learn_icl_by_gd folder (holds src/)")
    ap.add_argument("--official-python", default=os.environ.get("LITREC_OFFICIAL_PYTHON", ""),
                    help="python of a venv with jax 0.4.30, dm-haiku 0.0.12, optax 0.2.2, ml_collections, pytz")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--steps", type=int, default=20, help="official steps per timed round")
    ap.add_argument("--inner", type=int, default=10, help="litrec steps per timed scan")
    ap.add_argument("--only", default="", help="comma-separated: " + ",".join(MODELS))
    report.add_json_argument(ap)
    args = report.parse(ap, rounds=1, steps=2, inner=2)
    folder = Path(args.official) if args.official else None
    if folder is None or not (folder / "src" / "train.py").is_file() or not args.official_python \
            or not Path(args.official_python).is_file():
        report.cannot_measure("the official code is not here: give --official DIR (its "
                              "transformers_learn_icl_by_gd folder) and --official-python PATH", args.json, GOAL)
        return 0
    names = [n for n in args.only.split(",") if n] or list(MODELS)
    rows = []
    for name in names:
        what, config = MODELS[name]
        theirs, ours = [], []
        for half in range(2):                 # official, litrec, official, litrec: each half the rounds
            n = (args.rounds + 1 - half) // 2 or 1
            theirs += official_rounds(folder, args.official_python, config, n, args.steps)
            ours += litrec_rounds(name, n, args.inner)
        med = {side: {k: statistics.median(r[k] for r in rs) for k in ("wall_ms", "cpu_ms")}
               for side, rs in (("official", theirs), ("litrec", ours))}
        print(f"{what}: official {med['official']['wall_ms']:.1f} ms wall, {med['official']['cpu_ms']:.1f} CPU; "
              f"litrec {med['litrec']['wall_ms']:.1f} ms wall, {med['litrec']['cpu_ms']:.1f} CPU "
              f"({len(theirs)} and {len(ours)} rounds)", flush=True)
        for kind, label in (("wall_ms", "wall"), ("cpu_ms", "CPU")):
            rows.append(report.Row(f"{what}: litrec's step ({label})", med["litrec"][kind], "ms/step",
                                   f"official code's step ({label})", med["official"][kind], GOAL,
                                   med["litrec"][kind] < med["official"][kind]))
    report.emit(rows, args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
