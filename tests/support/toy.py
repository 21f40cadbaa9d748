"""Toy analyses: NumPy-only analysis modules written into a temporary project, so that a test
runs litrec on real code in a fraction of a second, without JAX work.

`analysis` gives a module's source from its parts: the fields of its frozen `Config`, its
`PROFILES`, and `run`'s body (or, for the plainest toy, the constant metrics it returns).
`write_analysis` puts a module into the project's `analysis/` package with its registry entry,
`write_project` adds the records, and `importable` makes the project the one an in-process
`litrec run` imports; `SEED_FIGURES` is a `seed_figures` to append to a module. The small projects the tests share (`tests.support.mini`, `run_toy`,
`sweep_toy`, `seeds_toy`) are written with them.
"""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

from tests.support.files import write

BOTH = '{"quick": Config(), "paper": Config()}'

# A module's `seed_figures`, to append to an analysis whose metrics hold a `curve`: every seed's curve.
SEED_FIGURES = '''

def seed_figures(points):
    """Every seed's curve."""
    fig = Figure()
    ax = fig.add_subplot()
    for p in points:
        ax.plot(p["metrics"]["curve"], label=f"seed {p['seed']}")
    return {"curves": fig}
'''


def analysis(*, metrics: dict | None = None, body: str | None = None, fields: str = "n: int = 1",
             profiles: str = BOTH, head: str = "", doc: str = "A toy analysis.") -> str:
    """The source of an analysis module: its docstring `doc`, the lines of `head` (imports,
    module constants such as DATA or SEEDS), a frozen `Config` with `fields` (one a line),
    `PROFILES = profiles` and a `run` whose body is `body` (indented here), or which returns
    the constant `metrics`."""
    if (metrics is None) == (body is None):
        raise TypeError("analysis() takes metrics or body, one of them")
    if body is None:
        body = f'return {{"metrics": {metrics!r}}}'
    head = textwrap.dedent(head).strip("\n")
    return (f'"""{doc}"""\n'
            f"from dataclasses import dataclass\n{head + chr(10) if head else ''}\n\n"
            f"@dataclass(frozen=True)\nclass Config:\n{textwrap.indent(textwrap.dedent(fields).strip(), '    ')}\n\n\n"
            f"PROFILES = {profiles}\n\n\n"
            f"def run(config, progress=None):\n{textwrap.indent(textwrap.dedent(body).strip(), '    ')}\n")


def write_analysis(root: Path, source: str, *, name: str = "toy", module: str = "toy",
                   title: str = "Toy") -> Path:
    """`source` (dedented, from its first line) as `analysis/MODULE.py` of the project at `root`,
    registered as `name` (the registry holds this one analysis), with the package's `__init__.py`.
    Returns `root`."""
    write(root, "analysis/__init__.py", "")
    write(root, f"analysis/{module}.py", source)
    write(root, "analysis/registry.yaml", f"{name}:\n  module: {module}\n  title: {title}\n")
    return root


def write_project(root: Path, source: str, records: dict[str, str], **registered) -> Path:
    """The toy analysis `source` (`write_analysis`, with `registered`: name, module, title) and
    `records`: path under `records/` -> YAML text (dedented). Returns `root`."""
    write_analysis(root, source, **registered)
    for rel, text in records.items():
        write(root, f"records/{rel}", text)
    return root


def importable(root: Path, monkeypatch) -> Path:
    """The project at `root` as an in-process run finds it: the working directory, first on
    sys.path, and no `analysis` package of an earlier test left in sys.modules. Returns `root`."""
    monkeypatch.chdir(root)
    monkeypatch.syspath_prepend(str(root))
    for mod in [m for m in sys.modules if m == "analysis" or m.startswith("analysis.")]:
        monkeypatch.delitem(sys.modules, mod)
    return root
