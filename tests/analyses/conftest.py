"""Shared set-up for the analysis tests: strict JAX promotion, so silent broadcasting fails loudly."""
import sys
from pathlib import Path

import pytest

# Make `import analysis` work under plain `pytest` (rootdir = the repository).
_ROOT = str(Path(__file__).resolve().parents[2])
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


@pytest.fixture(autouse=True)
def strict_jax_promotion():
    """Raise on implicit rank promotion and on implicit dtype promotion for every test.

    Tests of the helpers also run under the analyses' random streams
    (`analysis.lib.keys.random_streams`), which compile faster.
    """
    import jax

    from analysis.lib.keys import random_streams

    saved = (jax.config.jax_numpy_rank_promotion, jax.config.jax_numpy_dtype_promotion)
    jax.config.update("jax_numpy_rank_promotion", "raise")
    jax.config.update("jax_numpy_dtype_promotion", "strict")
    try:
        with random_streams():
            yield
    finally:
        jax.config.update("jax_numpy_rank_promotion", saved[0])
        jax.config.update("jax_numpy_dtype_promotion", saved[1])
