"""analysis.lib.keys: named keys are exactly jax.random.split, in the order of the names."""
import jax
import numpy as np

from analysis.lib.keys import named_keys


def test_named_keys_are_the_split_in_order():
    key = jax.random.key(7)
    keys = named_keys(key, "a", "b", "c")
    assert list(keys) == ["a", "b", "c"]
    split = jax.random.split(key, 3)
    for i, name in enumerate(keys):
        np.testing.assert_array_equal(jax.random.key_data(keys[name]), jax.random.key_data(split[i]))


def test_a_seed_is_made_a_key():
    a, b = named_keys(3, "x", "y"), named_keys(jax.random.key(3), "x", "y")
    for name in ("x", "y"):
        np.testing.assert_array_equal(jax.random.key_data(a[name]), jax.random.key_data(b[name]))
