"""Random keys of the analyses: one named key per random quantity, split from one seed.

Every analysis of von Oswald et al., "Transformers learn in-context by gradient
descent" (ICML 2023) draws each quantity (initial weights, training stream,
tuning, evaluation and monitoring tasks, ...) from its own key, so changing how
one is drawn never moves the others. `named_keys` makes those keys; indexed
families (one key per case, pair or training step) use `jax.random.fold_in` on
a named key.
"""
import jax


def random_streams():
    """Context manager every analysis runs under: threefry in its non-partitionable form.

    The partitionable form (JAX's default since 0.5) only helps sharded runs; on
    one CPU it compiles about 2.5x slower (measured on the quick single-layer run:
    16.6 s vs 6.8 s of CPU). The streams differ between the two forms, so a run
    is reproducible within this context.
    """
    return jax.threefry_partitionable(False)


def named_keys(seed_or_key, *names: str) -> dict[str, jax.Array]:
    """{name: key}: `jax.random.split(key, len(names))` in the order of `names`.

    `seed_or_key` is a JAX key or an int seed (made a key by `jax.random.key`).
    The keys depend on the number of names and their position, not on the names:
    renaming one keeps every stream, adding or removing one changes them all.
    """
    key = jax.random.key(seed_or_key) if isinstance(seed_or_key, int) else seed_or_key
    return dict(zip(names, jax.random.split(key, len(names)), strict=True))
