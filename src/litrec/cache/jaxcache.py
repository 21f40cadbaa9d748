"""JAX's persistent compilation cache in the project's `.litrec-cache/jax/`.

A point of an analysis that imports JAX runs with JAX's compilation cache
pointed at `.litrec-cache/jax/` of the project it belongs to, with the
thresholds at zero so that small programs are kept too. The workers of a sweep
and later runs then load a program compiled once instead of compiling it
again. A loaded program is the executable XLA compiled, so the numbers are
bit for bit those of a fresh compile.

The cache is off with `litrec run --no-compile-cache` or `LITREC_NO_CACHE=1`,
and left to the user when JAX is already given a cache folder (for instance by
`JAX_COMPILATION_CACHE_DIR`). A damaged entry (a worker killed while writing
it, a disk error) does not break a run: JAX warns and compiles afresh, and
litrec removes the entry so that the next run stores it again.
"""

from __future__ import annotations

import contextlib
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

from litrec.cache.slots import cache_dir

# Settings while a point runs: keep every program, however small or quick to compile.
SETTINGS = {"jax_persistent_cache_min_compile_time_secs": 0.0,
            "jax_persistent_cache_min_entry_size_bytes": -1}
_DAMAGED = re.compile(r"Error reading persistent compilation cache entry for '([^'/\\]+)'")


@contextlib.contextmanager
def compile_cache(root: str | Path | None) -> Iterator[Path | None]:
    """While inside: JAX compiles into and loads from `root`/.litrec-cache/jax (yielded);
    None (and JAX as it was) when `root` is None, caching is off or JAX has its own folder.

    The previous settings are restored on the way out, so a later point of another
    project (a long-lived worker, a test) never writes into this one's cache.
    """
    folder = cache_dir(Path(root), "jax") if root is not None else None
    if folder is None:
        yield None
        return
    import jax
    from jax.experimental.compilation_cache import compilation_cache as cc

    # the user's own cache (the ignore: jax.config's stub declares no option it sets at runtime)
    if jax.config.jax_compilation_cache_dir is not None:  # type: ignore[attr-defined]
        yield None
        return
    old = {name: getattr(jax.config, name) for name in SETTINGS}
    damaged: list[str] = []
    with warnings.catch_warnings():
        warnings.filterwarnings("always", message="Error reading persistent compilation cache",
                                category=UserWarning)
        show = warnings.showwarning

        def noting(message, *args, **kwargs):
            found = _DAMAGED.search(str(message))
            if found:
                damaged.append(found.group(1))
            show(message, *args, **kwargs)

        warnings.showwarning = noting
        try:
            for name, value in {**SETTINGS, "jax_compilation_cache_dir": str(folder)}.items():
                jax.config.update(name, value)
            cc.reset_cache()  # the cache folder is read when JAX next compiles
            yield folder
        finally:
            jax.config.update("jax_compilation_cache_dir", None)
            for name, value in old.items():
                jax.config.update(name, value)
            cc.reset_cache()
            _remove_damaged(folder, damaged)


def _remove_damaged(folder: Path, names: list[str]) -> None:
    """Remove the entries JAX could not read (it never replaces an entry that exists).

    JAX names an entry `<key>-cache`, the key being `<module>-<64 hex digits>`, and
    names the entry it could not read by its key or by its module.
    """
    if not names:
        return
    pattern = re.compile("(?:" + "|".join(map(re.escape, set(names))) + r")(?:-[0-9a-f]{64})?-cache")
    try:
        entries = os.listdir(folder)
    except OSError:
        return
    for entry in entries:
        if pattern.fullmatch(entry):
            try:
                os.unlink(folder / entry)
            except OSError:
                pass  # another worker removed it first, or the folder is read-only
