"""Running analyses: `reproduce` (what `litrec run` calls), the plan of what is stale, the
runner, the points of a sweep (`points`, `sweep`), where they run (`executors`), how a run
stops (`interrupt`) and a new analysis's scaffold (`newanalysis`)."""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "options": ("ExecutorSpec", "RunOptions"),
    "plan": ("Events", "point_progress_words"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
