"""Several training seeds in one compiled step: `jax.vmap` over the seeds' parameters,
optimiser states and data keys, for the LSA meta-training of von Oswald et al.,
"Transformers learn in-context by gradient descent" (ICML 2023), §3.

Whether that pays depends on the device (`batching_pays`): on a CPU, XLA
runs one seed's step at batch 2,048 on one core whether or not it is batched,
and three seeds batched cost more than three steps in turn
(`bench/seeds_batched.py`), so there the seeds run in turn (and litrec's
runner gives each worker process, each core, its own group of seeds); on an
accelerator one small step leaves the device mostly idle and the seeds are
batched. Every piece is
`analysis.lib.train`'s, used unchanged: `make_step` builds the step of one seed,
this module maps it over the seeds. Each seed keeps its own streams: its
batches are drawn from fold_in(its training key, t) exactly as `batch_at_step`
draws them when the seed runs alone, and its initial weights are made by the
caller with its own key.

Drawing the tasks is most of a step's work: JAX lowers its threefry hash on
CPU as a loop of five kernels over the whole array (to compile faster), on GPU
unrolled into one. Training chunks are compiled with the unrolled lowering
(`unrolled_threefry`), batched or not: the same integer operations, so the
same bits, and a single-seed step about twice as fast here.
"""
import contextlib
import time
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import optax

from analysis.lib import train as train_lib


def stack(trees: Sequence[Any]) -> Any:
    """One pytree whose leaves stack the seeds' leaves on a new leading axis (S, ...)."""
    return jax.tree.map(lambda *leaves: jnp.stack(leaves), *trees)


def unstack(tree: Any, n: int) -> list[Any]:
    """The n seeds' pytrees of a stacked pytree (the inverse of `stack`)."""
    return [jax.tree.map(lambda leaf: leaf[i], tree) for i in range(n)]


@contextlib.contextmanager
def unrolled_threefry():
    """While open, JAX compiles its threefry hash for CPU unrolled, as it does for GPU.

    Integer operations only, so the bits are the same as with the CPU's default
    (rolled) lowering; a JAX without these internals compiles as usual.
    """
    try:
        from jax._src.random import threefry2x32 as threefry
        from jax.interpreters import mlir

        unrolled, rolled = threefry._threefry2x32_lowering_rule, threefry._threefry2x32_cpu_lowering_rule
    except (ImportError, AttributeError):
        yield
        return
    mlir.register_lowering(threefry.threefry2x32_p, unrolled, platform="cpu")
    try:
        yield
    finally:
        mlir.register_lowering(threefry.threefry2x32_p, rolled, platform="cpu")


def batching_pays() -> bool:
    """Whether S seeds in one vmapped step are faster than S single-seed steps in turn.

    Not on a CPU: there the vmapped step of three seeds costs more than three
    steps in turn with the same (unrolled) threefry (`bench/seeds_batched.py`
    prints both). On an accelerator, where one small step leaves most of the device
    idle, the seeds are batched (not measured on this project's machines).
    """
    return jax.default_backend() != "cpu"


def keyed_batch_loss(loss_fn: Callable[[Any, Any], jax.Array],
                     sample_batch: Callable[[jax.Array, int], Any],
                     batch_size: int) -> Callable[[Any, tuple], jax.Array]:
    """loss(params, (key, t)) = loss_fn(params, sample_batch(fold_in(key, t), batch_size)).

    `train.batch_at_step` with the training key passed as data instead of
    closed over, so that it can differ per seed under `jax.vmap`.
    """
    def loss(params, x):
        key, t = x
        return loss_fn(params, sample_batch(jax.random.fold_in(key, t), batch_size))

    return loss


def make_seeds_chunk_runner(step):
    """Jitted run of consecutive steps of S seeds at once.

    (params, opt_state, keys, ts) -> (params, opt_state, mean loss per seed (S,)):
    params and opt_state stacked over seeds (S, ...), keys the seeds' training
    keys (S,), ts the step indices of the chunk (n,), shared by the seeds.
    Compiled with `unrolled_threefry`.
    """
    seeds_step = jax.vmap(step, in_axes=(0, (0, None)))

    @jax.jit
    def run_chunk(params, opt_state, keys, ts):
        def body(carry, t):
            return seeds_step(carry, (keys, t))

        (params, opt_state), values = jax.lax.scan(body, (params, opt_state), ts)  # values (n, S)
        return params, opt_state, jnp.mean(values, axis=0)

    def run(params, opt_state, keys, ts):
        with unrolled_threefry():  # only a first call of a shape compiles; later ones run
            return run_chunk(params, opt_state, keys, ts)

    return run


def make_keyed_chunk_runner(step):
    """Jitted run of consecutive steps of one seed whose training key is an argument.

    (params, opt_state, key, ts) -> (params, opt_state, mean loss): one compiled
    program for every seed, so seeds trained in turn compile once. Compiled with
    `unrolled_threefry`.
    """
    @jax.jit
    def run_chunk(params, opt_state, key, ts):
        def body(carry, t):
            return step(carry, (key, t))

        (params, opt_state), values = jax.lax.scan(body, (params, opt_state), ts)
        return params, opt_state, jnp.mean(values)

    def run(params, opt_state, key, ts):
        with unrolled_threefry():
            return run_chunk(params, opt_state, key, ts)

    return run


def _in_turn(step, optimizer, params: Sequence[Any], keys: Sequence[jax.Array]):
    """A chunk runner with the interface of `make_seeds_chunk_runner` over per-seed lists:
    each seed's chunk is dispatched before any is waited on, so they overlap on the cores."""
    run_chunk = make_keyed_chunk_runner(step)

    def run(params, opt_state, keys, ts):
        outs = [run_chunk(p, s, k, ts) for p, s, k in zip(params, opt_state, keys)]
        return [o[0] for o in outs], [o[1] for o in outs], [o[2] for o in outs]

    return run, list(params), [optimizer.init(p) for p in params], list(keys), lambda p, n: p


def train_seeds(params: Sequence[Any], loss_fn: Callable[[Any, tuple], jax.Array],
                keys: Sequence[jax.Array], *, steps: int,
                optimizer: optax.GradientTransformation, chunk_size: int = 50,
                evaluate: Sequence[Callable[[Any], dict]] | None = None,
                progress: Callable[[int, int, str], None] | None = None,
                description: str = "training", batched: bool = True) -> list[train_lib.Result]:
    """`train.train` with step-index draws for S seeds at once: one `Result` per seed.

    params: each seed's initial weights; keys: each seed's training key;
    loss_fn(params, (key, t)) from `keyed_batch_loss`. `batched`: the seeds in
    one vmapped step; else each seed's chunk in turn, all dispatched before any
    is waited on (`batching_pays` says which is faster). Each seed's history has
    the entries `train.train` gives it (evaluate[i] runs on seed i's weights at
    step 0, after every chunk and at the end; chunk_seconds is the wall time of
    the chunk of all the seeds, shared by them).
    """
    n = len(params)
    step = train_lib.make_step(loss_fn, optimizer)
    if batched:
        stacked = stack(params)
        opt_state = jax.vmap(optimizer.init)(stacked)
        run_chunk = make_seeds_chunk_runner(step)
        key_array = jnp.stack(list(keys))                              # (S,) typed keys
        split = unstack
    else:
        run_chunk, stacked, opt_state, key_array, split = _in_turn(step, optimizer, params, keys)
    histories: list[dict[str, list]] = [
        {"step": [], "chunk_step": [], "train_loss": [], "chunk_seconds": []} for _ in range(n)]

    def record(done, stacked_params):
        for i, (h, p) in enumerate(zip(histories, split(stacked_params, n))):
            h["step"].append(done)
            if evaluate is not None:
                for name, value in evaluate[i](p).items():
                    h.setdefault(name, []).append(float(value))

    record(0, stacked)
    if progress is not None:
        progress(0, steps, description)
    done = 0
    while done < steps:
        m = min(chunk_size, steps - done)
        start = time.perf_counter()
        ts = jnp.arange(done, done + m, dtype=jnp.int32)               # (m,) step indices
        stacked, opt_state, chunk_loss = run_chunk(stacked, opt_state, key_array, ts)
        done += m
        losses = [float(v) for v in chunk_loss]                        # waits for the chunk
        seconds = time.perf_counter() - start
        for h, loss in zip(histories, losses):
            h["chunk_step"].append(done)
            h["train_loss"].append(loss)
            h["chunk_seconds"].append(seconds)
        record(done, stacked)
        if progress is not None:
            progress(done, steps, description)
    return [train_lib.Result(params=p, history=h) for p, h in zip(split(stacked, n), histories)]
