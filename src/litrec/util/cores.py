"""How many cores litrec's own work may use: one answer for every pool it starts.

The analyses' workers (`litrec.runs.executors`), the site's page renderers and
MkDocs shards (`litrec.site.render`, `litrec.site.mkdocs_build`) and the record
readers (`litrec.records.discover`) all size themselves by `usable_cores`: the
cores this process may run on (its CPU affinity, which a container or `taskset`
narrows, where the system has one; else every CPU). XLA sizes its thread pool
the same way, and a result records it (`litrec.analyses.machine`).
"""

from __future__ import annotations

import os


def usable_cores() -> int:
    """How many cores this process may run on (at least 1)."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return os.cpu_count() or 1
