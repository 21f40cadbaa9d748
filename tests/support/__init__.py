"""What the tests share: builders of small projects, stored results and the like.

Nothing here is a test (pytest collects no `test_*.py` from this package); a test module
imports what it needs from here (or from tests/conftest.py), never from another test module
or another folder's conftest: tests/test_layout.py holds that. Each module is named for what
it builds:

- `files`, `records`: write a file or a record into a project, snapshot a folder, read
  `litrec validate`'s errors;
- `inprocess`: `litrec ARGS` in this process, answered as a subprocess would (exit code,
  standard output and error), in a folder and an environment of the test's;
- `procs`: the live processes, by group and by parent (a run leaves none behind);
- `toy`: the toy-analysis factory: a NumPy-only analysis module from its metrics or body,
  written with its registry entry and records into a temporary project;
- `mini`, `run_toy`, `sweep_toy`, `seeds_toy`: the small projects built with it (the
  hardening tests' project, `litrec run`'s, a seed sweep's, the verdict tests' seeded model);
- `results`, `prop1`: sealed results written as litrec writes them, never run;
- `answers`: `litrec run`'s answer worked out three ways (caches on, off, `--force`);
- `schema`, `browser`, `signing`, `new_paper`, `realcluster`: the schema validators,
  headless Chromium, an SSH key pair, a copy of the repository to add a paper to, a real dask
  cluster of separate processes (bench/cluster_speedup.py starts it too).
"""
