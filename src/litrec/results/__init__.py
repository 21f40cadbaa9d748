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
