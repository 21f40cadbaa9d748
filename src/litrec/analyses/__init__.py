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

from __future__ import annotations

from litrec.util import lazy_face

# What this package offers the others, by module (types: __init__.pyi): import these from the
# package, not from the module behind it.
OFFERS: dict[str, tuple[str, ...]] = {
    "analysisimport": ("compiled_sources", "expecting", "load_analysis"),
    "contract": ("bound_names", "check_figure_names", "check_module", "check_output", "check_seed_outputs",
                 "declares", "FIGURE_NAME_FIX", "figure_name_problem", "source_problems"),
    "datafiles": ("data_files", "watch_paths"),
    "environ": ("cleaned", "replace_environ"),
    "inputs": ("Inputs", "interpreter", "is_numeric_variable", "machine_cores", "machine_isa", "module_imports",
               "numeric_env", "RESULT_FORMAT", "result_inputs"),
    "machine": ("device_info", "platform_info"),
    "memo": ("data_now", "memo_key"),
    "observe": ("check", "named_when_it_fails", "observing", "refusal"),
    "packages": ("dependency_versions", "editable_places", "JAX_IMPORTS", "package_versions"),
    "registry": ("Entry", "load_registry", "Registry"),
    "scales": ("FALLBACK",),
}
__all__, __getattr__ = lazy_face(__name__, OFFERS)
