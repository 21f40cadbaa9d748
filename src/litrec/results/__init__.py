"""Stored results: what a run leaves under `results/` and what litrec may say of it.

- `store`: reading and writing a result with its figures, a lock per analysis;
- `fields`: the checks of a stored result's fields, located in its file;
- `seal`: the content hash that shows a result is what litrec wrote;
- `resume`: finished points and checkpoints kept for a rerun;
- `state`: whether a result is current, stale, missing or damaged;
- `ledger`: the append-only history of judgements beside each result, and its anchor;
- `signing`: SSH signatures over a result and its own judgements.

It imports `litrec.util`, `litrec.cache`, `litrec.analyses` and `litrec.records`.
"""

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "fields": ("json_line",),
    "ledger": ("history_problems", "read_history"),
    "resume": ("checkpoint_env", "kept_summary"),
    "signing": ("sign_results", "signature_state", "SigningError", "unsign"),
    "state": ("check_profile", "modified_results", "result_state", "result_states", "ResultState"),
    "store": ("keep_elsewhere", "locked", "result_path", "write_error_log", "write_result"),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
