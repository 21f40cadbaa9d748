"""Seeds batched in one compiled step (analysis.seed_batch): the same streams as one seed alone."""
import jax
import jax.numpy as jnp

from analysis import seed_batch
from analysis.keys import random_streams


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
