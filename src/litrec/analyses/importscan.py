"""What a module's source says of its inputs, read without importing it (`litrec.analyses.inputs`).

The modules of the analysis package it imports (by `import` statements, and by
`importlib.import_module` or `__import__` with a literal name), the top-level
names of the other modules it imports, the data files it declares (`DATA`), the environment
variables it declares (`ENV`) and the modules it declares it may load by a computed name
(`IMPORTS`); a module loaded by a computed name without `IMPORTS`, or a `DATA` or `ENV` that is
not literal, is a located problem.
"""

from __future__ import annotations

import ast

DATA_NAME = "DATA"        # a module's declared data files
ENV_NAME = "ENV"          # a module's declared environment variables (`litrec.analyses.environ`)
_DATA_WHAT, _DATA_EXAMPLE = "paths or globs relative to the project folder", '"data/prices.csv"'
_ENV_WHAT, _ENV_EXAMPLE = "environment variable names", '"TOY_DRAWS"'
IMPORTS_NAME = "IMPORTS"  # a module's declared modules loaded by a computed name


def _literal_strings(node: ast.AST | None) -> list[str] | None:
    """The strings of a literal tuple or list of strings (or of one string); None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return None


def _loaded_by_name(node: ast.Call) -> str | None:
    """'import_module' or '__import__' when the call loads a module by name."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    return name if name in ("import_module", "__import__") else None


def _resolve(name: str, package_arg: str | None, cur_pkg: str) -> str | None:
    """The absolute module name of `import_module(name, package)`; None when unknown."""
    if not name.startswith("."):
        return name
    base = package_arg if package_arg is not None else None
    if base is None:
        return None
    level = len(name) - len(name.lstrip("."))
    parts = base.split(".")
    parts = parts[: len(parts) - (level - 1)] if level > 1 else parts
    rest = name[level:]
    return ".".join(parts + ([rest] if rest else []))


def read_source(tree: ast.AST, package: str, current: str, path: str) -> dict:
    """What a module's source says of its inputs: the modules of `package` it imports (by
    statement or by a literal name), the top-level names of the others, its declared
    DATA, and the problems (a module loaded by a computed name, a DATA that is not literal)."""
    found: set[str] = set()
    tops: set[str] = set()
    data: list[str] = []
    env: list[str] = []
    problems: list[str] = []
    cur_pkg = current.rpartition(".")[0]

    def add(mod: str) -> None:
        if mod == package or mod.startswith(package + "."):
            found.add(mod)
        else:
            tops.add(mod.split(".")[0])

    declared = None
    for node in getattr(tree, "body", []):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = [t.id for t in targets if isinstance(t, ast.Name)]
            for kind, what, example, into in ((DATA_NAME, _DATA_WHAT, _DATA_EXAMPLE, data),
                                              (ENV_NAME, _ENV_WHAT, _ENV_EXAMPLE, env)):
                if kind in names:
                    values = _literal_strings(node.value)
                    if values is None:
                        problems.append(f"{path}:{node.lineno}: {kind} must be a literal tuple of "
                                        f"{what}, e.g. {kind} = ({example},)")
                    else:
                        into += values
            if IMPORTS_NAME in names:
                declared = _literal_strings(node.value)
                if declared is None:
                    problems.append(f"{path}:{node.lineno}: {IMPORTS_NAME} must be a literal tuple "
                                    f"of module names, e.g. {IMPORTS_NAME} = (\"{package}.helper\",)")
                    declared = []
                for mod in declared:
                    add(mod)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = cur_pkg.split(".")
                base = base[: len(base) - (node.level - 1)] if node.level > 1 else base
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if mod == package or mod.startswith(package + "."):
                found.add(mod)
                for alias in node.names:  # `from analysis import lsa` names a module
                    found.add(f"{mod}.{alias.name}")
            elif mod:
                tops.add(mod.split(".")[0])
        elif isinstance(node, ast.Call) and _loaded_by_name(node):
            how = _loaded_by_name(node)
            first = node.args[0] if node.args else None
            pkg = node.args[1] if len(node.args) > 1 and how == "import_module" else None
            pkg = pkg or next((k.value for k in node.keywords if k.arg == "package"), None)
            name = first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) \
                else None
            pkg_name = (pkg.value if isinstance(pkg, ast.Constant) and isinstance(pkg.value, str)
                        else None if pkg is not None else cur_pkg)
            resolved = _resolve(name, pkg_name, cur_pkg) if name is not None else None
            if resolved is not None:
                add(resolved)
            elif declared is None:
                problems.append(
                    f"{path}:{node.lineno}: {how}() loads a module whose name is worked out at "
                    "run time, so litrec cannot tell which code the result depends on; import "
                    f"the module by name, or list every module it may load in {IMPORTS_NAME} = "
                    f"(\"{package}.name\", ...) at the top of the module")
    return {"modules": sorted(found), "tops": sorted(tops - {package}), "data": data,
            "env": env, "problems": problems}
