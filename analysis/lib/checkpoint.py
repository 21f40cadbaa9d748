"""Training state kept across interruptions, for the long runs of `analysis.lib.train.train`.

A run that litrec starts (`litrec run`) names a folder for its checkpoints in
the environment variable `LITREC_CHECKPOINT_DIR`, one folder per point (its
analysis code, package versions, profile, configuration and seed: litrec keys
it); without it nothing is kept. Every training in that run keeps one file,
named by what identifies the training (its description, step count, chunk
size and the bytes of its initial parameters): the step reached, the
parameters and optimiser state, the training history so far and the state of
the data stream at that step. It is written every `LITREC_CHECKPOINT_SECONDS`
seconds of training (default 120) and once more when the training ends, each
time whole (a new file, then one rename), so a kill at any moment leaves the
last complete checkpoint. A rerun of the same point starts every training from
its checkpoint: the same parameters, optimiser state and data from that step
on, so the same numbers as a run that was never interrupted.

The file is an `.npz` of NumPy arrays (`param_i`, `opt_i`: the leaves of the
parameter and optimiser pytrees in their flattening order) and a `meta` JSON
text (the step, the history, the stream state and a signature of the leaves'
shapes and dtypes, checked before anything is restored).
"""
import hashlib
import io
import json
import os
import time
from pathlib import Path
from typing import Any

import jax
import numpy as np

DIR_VARIABLE = "LITREC_CHECKPOINT_DIR"
SECONDS_VARIABLE = "LITREC_CHECKPOINT_SECONDS"
DEFAULT_SECONDS = 120.0
FORMAT = 1


def _leaves(tree) -> list[np.ndarray]:
    return [np.asarray(leaf) for leaf in jax.tree.leaves(tree)]


def _signature(arrays: list[np.ndarray]) -> list[list]:
    return [[list(a.shape), str(a.dtype)] for a in arrays]


class Checkpoint:
    """One training's checkpoint file: `load` at the start, `maybe_save` between chunks."""

    def __init__(self, path: Path, every_s: float):
        self.path, self.every_s = Path(path), every_s
        self.last = time.monotonic()

    @classmethod
    def for_training(cls, params, description: str, steps: int, chunk_size: int) -> "Checkpoint | None":
        """The checkpoint of this training under the run's folder; None when the run keeps none."""
        folder = os.environ.get(DIR_VARIABLE, "").strip()
        if not folder:
            return None
        try:
            every = float(os.environ.get(SECONDS_VARIABLE, "") or DEFAULT_SECONDS)
        except ValueError:
            every = DEFAULT_SECONDS
        h = hashlib.sha256(json.dumps([FORMAT, description, steps, chunk_size]).encode())
        for leaf in _leaves(params):
            h.update(str(leaf.dtype).encode() + str(leaf.shape).encode() + leaf.tobytes())
        slug = "".join(c if c.isalnum() else "-" for c in description)[:40]
        return cls(Path(folder) / f"{slug}-{h.hexdigest()[:16]}.npz", every)

    def load(self, params, opt_state) -> tuple[int, Any, Any, dict, Any] | None:
        """(step, params, opt_state, history, stream state) from the file; None when there is
        none, or it does not fit this training (then it is started afresh and overwritten)."""
        try:
            with np.load(self.path, allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                p_leaves = [data[f"param_{i}"] for i in range(meta["n_params"])]
                o_leaves = [data[f"opt_{i}"] for i in range(meta["n_opt"])]
        except (OSError, KeyError, ValueError, TypeError):
            return None
        p_now, o_now = _leaves(params), _leaves(opt_state)
        if meta.get("format") != FORMAT or meta.get("signature") != [_signature(p_now), _signature(o_now)]:
            return None
        p_def, o_def = jax.tree.structure(params), jax.tree.structure(opt_state)
        return (meta["done"], jax.tree.unflatten(p_def, [jax.numpy.asarray(a) for a in p_leaves]),
                jax.tree.unflatten(o_def, [jax.numpy.asarray(a) for a in o_leaves]),
                meta["history"], meta.get("stream"))

    def maybe_save(self, done: int, params, opt_state, history: dict, stream, final: bool = False) -> bool:
        """Write the state at step `done` when `every_s` seconds have passed (always when final)."""
        if not final and time.monotonic() - self.last < self.every_s:
            return False
        p, o = _leaves(params), _leaves(opt_state)
        meta = {"format": FORMAT, "done": done, "n_params": len(p), "n_opt": len(o),
                "signature": [_signature(p), _signature(o)], "history": history, "stream": stream}
        buf = io.BytesIO()
        np.savez(buf, meta=np.asarray(json.dumps(meta)), **{f"param_{i}": a for i, a in enumerate(p)},
                 **{f"opt_{i}": a for i, a in enumerate(o)})
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            fh.write(buf.getvalue())
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.path)
        self.last = time.monotonic()
        return True


def stream_state(draw) -> Any:
    """The state of a `draw` (see `analysis.lib.train.train`) before its next call: its
    `get_state()` where it has one, else the number of steps drawn so far (replayed)."""
    get = getattr(draw, "get_state", None)
    return {"state": get()} if get is not None else None


def restore_stream(draw, state, done: int, chunk_size: int) -> None:
    """Bring `draw` to where it stood before drawing step `done`: its own `set_state`, or
    by drawing (and dropping) the chunks before `done` again, in the same sizes."""
    if state is not None and getattr(draw, "set_state", None) is not None:
        draw.set_state(state["state"])
        return
    drawn = 0
    while drawn < done:
        n = min(chunk_size, done - drawn)
        draw(n)
        drawn += n
