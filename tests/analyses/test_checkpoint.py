"""A training interrupted between chunks continues from its checkpoint with the same numbers."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis.deeper_gdpp import _tokens_from_raw
from analysis.lib import checkpoint
from analysis.lib import tasks as task_lib
from analysis.lib import train as train_lib


class Stop(Exception):
    pass


def _loss(p, raw):
    H, y_q = _tokens_from_raw(raw, 1.0)
    return 0.5 * jnp.mean((y_q + train_lib.lsa.query_forward(p, H)[:, -1]) ** 2)


def _train(stop_after=None, draws="host", steps=60, seen=None):
    """A small online training (host draws, or keyed batches); `stop_after` chunks: interrupted."""
    if draws == "host":
        draw, loss = task_lib.regression_draws(task_lib.host_rng(jax.random.key(3)), 32, 10, 10), _loss
    else:
        draw = train_lib.step_indices()
        loss = train_lib.batch_at_step(train_lib.regression_loss,
                                       lambda k, n: task_lib.sample_tasks(k, n, 10, 10, 1), jax.random.key(3), 32)
    calls = {"n": 0}

    def progress(done, total, what):
        if seen is not None:
            seen.append(done)
        if stop_after is not None and done > 0:
            calls["n"] += 1
            if calls["n"] >= stop_after:
                raise Stop

    return train_lib.train(train_lib.init_lsa(jax.random.key(0), 11, 0.002), loss, draw, steps=steps,
                           optimizer=train_lib.adam(3e-3, 10.0), chunk_size=10, eval_every=20,
                           evaluate=lambda p: {"norm": jnp.sum(p.P ** 2)}, progress=progress,
                           description="toy training")


def _same(a, b):
    jax.tree.map(lambda x, y: np.testing.assert_array_equal(np.asarray(x), np.asarray(y)), a.params, b.params)
    assert {k: v for k, v in a.history.items() if k != "chunk_seconds"} == \
        {k: v for k, v in b.history.items() if k != "chunk_seconds"}


@pytest.mark.slow
@pytest.mark.parametrize("draws", ["host", "keyed"])
def test_an_interrupted_training_resumes_to_the_same_numbers(tmp_path, monkeypatch, draws):
    plain = _train(draws=draws)                                    # no checkpoint folder: nothing kept
    assert not any(tmp_path.iterdir())
    monkeypatch.setenv(checkpoint.DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv(checkpoint.SECONDS_VARIABLE, "0")           # a checkpoint after every chunk
    for stop in (2, 3):                                            # stopped twice, at steps 20 and 40
        with pytest.raises(Stop):
            _train(stop_after=stop, draws=draws)
    [kept] = list(tmp_path.glob("*.npz"))
    seen = []
    resumed = _train(draws=draws, seen=seen)
    assert seen[0] == 40                                           # continued from the last checkpoint
    _same(plain, resumed)
    _same(plain, _train(draws=draws))                              # finished: nothing left to train


@pytest.mark.slow
def test_a_checkpoint_of_another_training_is_not_used(tmp_path, monkeypatch):
    monkeypatch.setenv(checkpoint.DIR_VARIABLE, str(tmp_path))
    monkeypatch.setenv(checkpoint.SECONDS_VARIABLE, "0")
    with pytest.raises(Stop):
        _train(stop_after=2)
    longer = _train(steps=80)                                      # another step count: its own file
    assert len(list(tmp_path.glob("*.npz"))) == 2
    monkeypatch.delenv(checkpoint.DIR_VARIABLE)
    _same(_train(steps=80), longer)
    plain = _train()
    for path in tmp_path.glob("*.npz"):
        path.write_bytes(b"not a checkpoint")
    monkeypatch.setenv(checkpoint.DIR_VARIABLE, str(tmp_path))
    _same(_train(), plain)                                         # a damaged file: trained afresh
    _same(_train(), plain)                                         # and kept again
