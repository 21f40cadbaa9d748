"""Running analyses: `reproduce` (what `litrec run` calls), the plan of what is stale, the
runner, the points of a sweep (`points`, `sweep`), where they run (`executors`), how a run
stops (`interrupt`) and a new analysis's scaffold (`newanalysis`)."""
