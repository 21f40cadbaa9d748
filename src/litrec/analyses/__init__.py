"""Analyses as litrec sees them before and while they run: what an analysis declares and what
its result rests on.

- `contract`: what an analysis module offers (`PROFILES`, `run`, `SWEEP`, `METRICS`, `DATA`, `ENV`);
- `registry`: `analysis/registry.yaml`, each analysis's module and metrics, and the project's
  scales (`scales`: the registry's `scales:`, else the profiles the analyses share);
- `inputs`: one model of a result's inputs (code closure, data, packages, interpreter,
  numerics environment, instruction set, cores), read by staleness, the runner, the memo and
  `site serve`; from `importscan` (what a source imports), `packages` (installed
  distributions, editable sources hashed), `datafiles` (declared data), `machine` (the CPU);
- `observe`: what a run opened and imported, seen at run time;
- `environ`: the environment a point sees, and the variables an analysis declares (`ENV`);
- `analysisimport`: importing an analysis from the source that was hashed;
- `memo`: the keys of the kept answers (`litrec.cache.runmemo`, `litrec.cache.linkmemo`).

It imports `litrec.util` and `litrec.cache` only.
"""
