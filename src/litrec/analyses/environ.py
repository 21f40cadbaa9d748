"""The environment as an input: what an analysis point sees of the environment variables.

A point runs in a cleaned environment: the variables of `KEPT` and `KEPT_PREFIXES` (what the
interpreter, the shell tools, JAX, XLA, CUDA and litrec itself need, and every numerics
variable, which every result is keyed on already: `litrec.analyses.numerics.is_numeric_variable`),
and the variables the analysis declares at the top of its module (or of a helper it imports):

    ENV = ("TOY_DRAWS",)

A declared variable's value, or its absence, is an input of the result (`Inputs.environ`):
changing it makes the result stale (`environment variable TOY_DRAWS changed: 3 -> 5`). A
variable set in the shell but not declared is not in `os.environ` inside the point, nor in what
it starts (subprocesses inherit the cleaned environment), so it cannot change a number unseen.
The point gets the declared values the run keyed, not the worker's own.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path

from litrec.analyses.importscan import ENV_NAME  # a module's declared environment variables

# What every point keeps of the environment, whatever it declares: the search path for programs,
# the user, home and locale, the time zone and temporary folder, the terminal, the dynamic
# loader's library path, Python's own settings, matplotlib's folders and backend, and the
# certificates' files.
KEPT = frozenset({
    "PATH", "HOME", "USER", "LOGNAME", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "TEMP", "TMP",
    "TERM", "NO_COLOR", "COLUMNS", "LINES", "LD_LIBRARY_PATH", "VIRTUAL_ENV",
    "MPLBACKEND", "MPLCONFIGDIR", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR",
    "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
    # litrec's own settings a point reads (none changes a number; the signing key is not one)
    "LITREC_NO_CACHE", "LITREC_CHECKPOINT_DIR", "LITREC_CHECKPOINT_SECONDS", "LITREC_SANDBOX"})
# ... and every variable whose name starts with one of these: the locale's categories, Python's
# settings (PYTHONHASHSEED, PYTHONPATH, ...), the numerics variables' (`litrec.analyses.numerics.NUMERIC_PREFIXES`:
# JAX's and XLA's options, the compile cache's folder among them, the thread counts of OpenMP
# and the BLAS libraries), and the accelerators' runtimes (CUDA_VISIBLE_DEVICES, NVIDIA_*,
# TPU_*, ROCm's, NCCL's).
KEPT_PREFIXES = ("LC_", "PYTHON", "JAX_", "XLA_", "TF_", "OMP_", "MKL_", "OPENBLAS_",
                 "BLIS_", "GOTO_", "NUMEXPR_", "VECLIB_", "CUDA_", "NVIDIA_", "TPU_", "ROCR_",
                 "HIP_", "NCCL_")

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def kept(name: str) -> bool:
    """Whether every point sees the variable `name` without declaring it (`KEPT`, `KEPT_PREFIXES`)."""
    return name in KEPT or name.startswith(KEPT_PREFIXES)


def name_problem(name: object) -> str | None:
    """Why `name` cannot be declared in ENV (None when it can)."""
    if not isinstance(name, str):
        return f"{name!r} is a {type(name).__name__}, not the name of an environment variable"
    if not _NAME.match(name):
        return (f"'{name}' is not the name of an environment variable (letters, digits and '_', "
                "not starting with a digit)")
    if name.startswith("LITREC_"):
        return f"'{name}' is one of litrec's own settings, not an input of the analysis"
    return None


def declared_values(names) -> dict[str, str | None]:
    """The declared variables' values here (None: unset), in name order: what the result is keyed on."""
    return {name: os.environ.get(name) for name in sorted(set(names))}


def point_env(declared: Mapping[str, str | None] | None) -> dict[str, str]:
    """The environment a point sees: this process's kept variables, and the declared ones as the
    run keyed them (`declared`: name -> value, None where unset)."""
    env = {k: v for k, v in os.environ.items() if kept(k)}
    for name, value in (declared or {}).items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return env


@contextlib.contextmanager
def cleaned(declared: Mapping[str, str | None] | None) -> Iterator[None]:
    """While inside, `os.environ` (and so the C library's environment, and what subprocesses
    inherit) is `point_env(declared)`; then as it was before."""
    before = dict(os.environ)
    replace_environ(point_env(declared))
    try:
        yield
    finally:
        replace_environ(before)


def replace_environ(target: Mapping[str, str]) -> None:
    """Make `os.environ` hold exactly `target` (variables not in it removed)."""
    for key in [k for k in os.environ if k not in target]:
        del os.environ[key]
    for key, value in target.items():
        if os.environ.get(key) != value:
            os.environ[key] = value


def env_diff(old, new: Mapping[str, str]) -> str:
    """The numerics variables that differ, in words (`NAME old -> new`, `(unset)` where unset)."""
    old = old if isinstance(old, dict) else {}
    keys = sorted(set(old) | set(new))
    return ", ".join(f"{k} {old.get(k, '(unset)')!s} -> {new.get(k, '(unset)')!s}"
                     for k in keys if old.get(k) != new.get(k)) or "(recorded in another form)"


def environ_changed(old, new: Mapping[str, str | None]) -> str:
    """`why_stale`'s words for the declared environment (`environment variable TOY_DRAWS changed:
    3 -> 5`); empty when the stored `old` and `new` agree."""
    old = old if isinstance(old, dict) else {}

    def shown(value) -> str:
        return "(unset)" if value is None else str(value)

    parts = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            parts.append(f"environment variable {name} declared (now {shown(new[name])})")
        elif name not in new:
            parts.append(f"environment variable {name} no longer declared")
        elif old[name] != new[name]:
            parts.append(f"environment variable {name} changed: {shown(old[name])} -> {shown(new[name])}")
    return "; ".join(parts) if parts or old == dict(new) else "declared environment changed"


def declared_in_folder(analysis_dir: Path) -> dict[str, str | None]:
    """The values now of every variable any module of the analysis folder declares in ENV (a
    superset of each analysis's), for the run memo's key: a no-op run's kept answer is not used
    once one of them changed. Each module's declaration is read once per content
    (`litrec.cache.sourcefacts`)."""
    from litrec.cache.sourcefacts import fact

    folder = Path(analysis_dir)
    names: set[str] = set()
    try:
        files = sorted(folder.rglob("*.py"))
    except OSError:
        return {}
    for path in files:
        if "__pycache__" in path.parts or path.is_symlink():
            continue
        try:
            raw = path.read_bytes()
        except OSError:
            continue
        if ENV_NAME.encode() not in raw:
            continue
        names.update(fact(folder.resolve().parent, "environ names", raw, functools.partial(_env_names, raw)))
    return declared_values(names)


def _env_names(raw: bytes) -> list[str]:
    """The literal names of a module's ENV (none when it has none, or it is not literal)."""
    try:
        tree = ast.parse(raw.decode("utf-8", "replace"))
    except SyntaxError:
        return []
    out: list[str] = []
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == ENV_NAME for t in targets):
                value = node.value
                elts = value.elts if isinstance(value, (ast.Tuple, ast.List)) else [value]
                out += [e.value for e in elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return out
