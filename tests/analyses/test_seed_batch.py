"""Seeds batched in one compiled step (analysis.lib.seed_batch): the same streams as one seed alone."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

from analysis.lib import seed_batch
from analysis.lib.keys import random_streams


@pytest.mark.slow
def test_unrolled_threefry_draws_the_same_bits_and_is_undone():
    def draw(key):  # a fresh function each time: compiled under whichever lowering is registered
        return jax.jit(lambda k: (jax.random.bits(k, (3, 1001), jnp.uint32),
                                  jax.random.uniform(jax.random.fold_in(k, 7), (513,)),
                                  jax.random.normal(k, (17, 5))))(key)

    with random_streams():
        key = jax.random.key(42)
        rolled = draw(key)
        with seed_batch.unrolled_threefry():
            unrolled = draw(key)
        again = draw(key)
    for a, b, c in zip(rolled, unrolled, again):
        assert jnp.array_equal(a, b) and jnp.array_equal(a, c)


def test_stack_and_unstack_are_inverse():
    trees = [{"w": jnp.full((2, 3), float(i)), "b": jnp.arange(i, i + 2)} for i in range(3)]
    stacked = seed_batch.stack(trees)
    assert stacked["w"].shape == (3, 2, 3) and stacked["b"].shape == (3, 2)
    back = seed_batch.unstack(stacked, 3)
    assert all(jnp.array_equal(x["w"], y["w"]) and jnp.array_equal(x["b"], y["b"]) for x, y in zip(back, trees))


def test_a_batched_seed_trains_as_it_does_alone():
    """single-layer training: seed 1 batched with seed 2 ends where seed 1 alone ends (rtol 2e-5, see
    tests/analyses/test_single_layer.py for the tolerance), and seed 2 does not."""
    import dataclasses

    from analysis import single_layer as m
    from analysis.lib import one_layer
    from analysis.lib import train as train_lib
    from analysis.lib.keys import named_keys

    cfg = dataclasses.replace(m.PROFILES["quick"], steps=40, batch_size=128, eval_every=20)
    with random_streams():
        keys = {s: named_keys(s, "init", "train", "tune", "eval", "monitor", "ood") for s in (2, 1)}
        loss_fn = seed_batch.keyed_batch_loss(train_lib.regression_loss,
                                              lambda key, n: one_layer.sample(cfg, key, n), cfg.batch_size)
        batched = seed_batch.train_seeds(
            [train_lib.init_lsa(k["init"], cfg.d + 1, cfg.init_scale) for k in keys.values()], loss_fn,
            [k["train"] for k in keys.values()], steps=cfg.steps,
            optimizer=cfg.optimizer(), chunk_size=cfg.eval_every)
        alone = one_layer.train_one_layer(cfg, keys[1]["init"], keys[1]["train"])
    assert batched[1].history["chunk_step"] == alone.history["chunk_step"] == [20, 40]
    assert np.allclose(batched[1].history["train_loss"], alone.history["train_loss"], rtol=2e-5, atol=0)
    for got, want, other in zip(jax.tree.leaves(batched[1].params), jax.tree.leaves(alone.params),
                                jax.tree.leaves(batched[0].params)):
        assert np.allclose(got, want, rtol=2e-5, atol=1e-8)
        assert not np.allclose(other, want, rtol=1e-2)
