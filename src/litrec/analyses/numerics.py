"""The numerics environment: the environment variables that can change the numbers an analysis
computes, an input of every result (`litrec.analyses.inputs.Inputs.env`).

`is_numeric_variable(name)` says whether a variable is one: JAX's and XLA's options and the
thread counts and kernels of OpenMP and the BLAS libraries by prefix, TensorFlow's by name, less
the few under those prefixes that cannot change a number (`NOT_NUMERIC`); `numeric_env()` is
those set now, with Python's hash seed as the interpreter started with it.
"""

from __future__ import annotations

import functools
import os

# The environment variables that can change the numbers an analysis computes: every one whose
# name starts with a prefix of `NUMERIC_PREFIXES` (JAX's and XLA's options: precision, dtypes,
# random-bit generator, platform, compiler flags; the thread counts and kernels of the OpenMP and
# BLAS libraries), TensorFlow's that do (`NUMERIC_NAMES`), and Python's hash seed (the order of a
# set of strings).
NUMERIC_PREFIXES = ("JAX_", "XLA_", "OMP_", "MKL_", "OPENBLAS_", "BLIS_", "GOTO_", "NUMEXPR_",
                    "VECLIB_")
# TensorFlow's, by name (its prefix `TF_` is other tools' too): its XLA flags, determinism, oneDNN
# kernels (which change float round-off, as TensorFlow says when it loads), thread pools, automatic
# mixed precision and cuDNN's choice of algorithm.
NUMERIC_NAMES = frozenset({
    "TF_XLA_FLAGS", "TF_DETERMINISTIC_OPS", "TF_CUDNN_DETERMINISTIC", "TF_ENABLE_ONEDNN_OPTS",
    "TF_NUM_INTEROP_THREADS", "TF_NUM_INTRAOP_THREADS", "TF_ENABLE_AUTO_MIXED_PRECISION",
    "TF_CUDNN_USE_AUTOTUNE"})
# Under JAX's prefix, what cannot change a number: where JAX keeps its compiled programs and when
# it keeps one (a cache makes a run faster, never different; litrec's runs set the folder,
# `litrec.cache.jaxcache`), and what it logs and how it shows a traceback.
NOT_NUMERIC = frozenset({
    "JAX_COMPILATION_CACHE_DIR", "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS",
    "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "JAX_LOG_COMPILES", "JAX_EXPLAIN_CACHE_MISSES",
    "JAX_TRACEBACK_FILTERING", "JAX_INCLUDE_FULL_TRACEBACKS_IN_LOCATIONS", "JAX_LOGGING_LEVEL",
    "JAX_DEBUG_LOG_MODULES"})
# ... and under XLA's, how much device memory its Python client reserves (`XLA_PYTHON_CLIENT_MEM_FRACTION`).
NOT_NUMERIC_PREFIXES = ("XLA_PYTHON_CLIENT_",)


def is_numeric_variable(name: str) -> bool:
    """Whether the environment variable `name` is an input of every result (`NUMERIC_PREFIXES`
    less `NOT_NUMERIC` and `NOT_NUMERIC_PREFIXES`, and `NUMERIC_NAMES`; `PYTHONHASHSEED` is read
    as the interpreter started with it)."""
    return name in NUMERIC_NAMES or (name.startswith(NUMERIC_PREFIXES) and name not in NOT_NUMERIC
                                     and not name.startswith(NOT_NUMERIC_PREFIXES))


def numeric_env() -> dict[str, str]:
    """The numerics variables that are set (`is_numeric_variable`), with their values, in name
    order, and `PYTHONHASHSEED` as the interpreter started with it (`hash_seed_at_start`)."""
    env = {k: os.environ[k] for k in sorted(os.environ) if is_numeric_variable(k)}
    seed = hash_seed_at_start()
    return {**env, "PYTHONHASHSEED": seed} if seed is not None else env  # last, as before


@functools.lru_cache(maxsize=1)
def hash_seed_at_start() -> str | None:
    """`PYTHONHASHSEED` as this interpreter started with it: only that sets its hashing. (dask's
    nannies write their own, 6640, into the environment of the process that starts them, a
    LocalCluster's litrec among them, which changes nothing of that process's hashing.) Read
    from /proc/self/environ where there is one, else from the environment when first asked."""
    try:
        with open("/proc/self/environ", "rb") as fh:
            start = dict(item.partition(b"=")[::2] for item in fh.read().split(b"\0") if item)
    except OSError:
        return os.environ.get("PYTHONHASHSEED")
    seed = start.get(b"PYTHONHASHSEED")
    return seed.decode("utf-8", "replace") if seed is not None else None
