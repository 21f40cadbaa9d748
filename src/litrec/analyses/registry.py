"""The analysis registry: stable analysis names mapped to modules of `analysis/`.

The registry is `analysis/registry.yaml`, plain data read with the safe YAML
loader. Claims resolve their `analysis:` names here, so validating records
never imports code, and a module path is never taken from a record. The
registry and the modules of `analysis/` are read only as regular files inside
the project (`litrec.util.confine`): a module that links out of the project would
run code from elsewhere, so it is an error.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from litrec.analyses.contract import source_metrics, source_problems, source_profile_order
from litrec.analyses.inputs import module_closure
from litrec.analyses.scales import KEY as SCALES_KEY
from litrec.analyses.scales import contrary, declared, default_scales
from litrec.cache.sourcefacts import fact
from litrec.util.confine import GENERATED_PAGE_NAMES, Refused, check, project_root, read_file, walk
from litrec.util.diagnostics import Diagnostic, format_field
from litrec.util.formatting import excerpt
from litrec.util.mend import explain_error
from litrec.util.yamlsafe import MAX_BYTES, YamlProblem, load_bytes, locate

NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
MODULE_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$")


class Entry(BaseModel):
    """One registry entry: the module under analysis/ and the title pages show."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    module: str = Field(description="module name inside analysis/, e.g. prop1_identity")
    title: str
    description: str | None = None

    @field_validator("module")
    @classmethod
    def _module_name(cls, v: str) -> str:
        if not MODULE_RE.match(v):
            raise ValueError("must be a Python module name under analysis/ (letters, digits and '_', "
                             "a '.' between the names of a package and its module; no '/' and no "
                             "'.py'), e.g. prop1_identity for analysis/prop1_identity.py")
        return v


@dataclass
class Registry:
    """The registry file and its entries by analysis name."""

    path: Path
    exists: bool
    entries: dict[str, Entry] = field(default_factory=dict)
    profiles: dict[str, frozenset[str] | None] = field(default_factory=dict)  # None: not readable
    metrics: dict[str, frozenset[str] | None] = field(default_factory=dict)  # None: not declared
    order: dict[str, tuple[str, ...]] = field(default_factory=dict)  # readable PROFILES, as listed
    declared_scales: tuple[str, ...] | None = None  # the `scales:` key, where given and valid
    broken: set[str] = field(default_factory=set)  # names whose entry is there but not valid

    @property
    def scales(self) -> tuple[str, ...]:
        """The project's scales, smallest first, the last the paper's own (`litrec.analyses.scales`):
        those `scales:` names, else those the analyses' PROFILES give."""
        return self.declared_scales or default_scales(list(self.order.values()))

    def module_path(self, name: str) -> Path:
        """The source file of an entry's module."""
        mod = self.entries[name].module
        return self.path.parent.joinpath(*mod.split(".")).with_suffix(".py")


def load_registry(analysis_dir: Path, diags: list[Diagnostic],
                  display: Callable[[Path], str] = str) -> Registry:
    """Read `analysis/registry.yaml`, adding a located diagnostic for every problem."""
    path = Path(analysis_dir) / "registry.yaml"
    reg = Registry(path, os.path.lexists(path))
    if not reg.exists:
        return reg
    shown = display(path)
    root = project_root(analysis_dir)
    _check_modules(Path(analysis_dir), root, diags, display)
    try:
        loaded = load_bytes(read_file(path, root, MAX_BYTES))
    except YamlProblem as p:
        diags.append(Diagnostic(shown, p.line, p.col, p.field, p.message, p.code))
        return reg
    except (Refused, OSError) as exc:
        why = exc.message if isinstance(exc, Refused) else f"cannot read file: {exc.strerror}"
        diags.append(Diagnostic(shown, 1, 1, "", why, "refused"))
        return reg
    has_scales = SCALES_KEY in loaded.data  # the registry's list of scales, not an analysis
    scales_raw = loaded.data.pop(SCALES_KEY, None)
    for name, raw in loaded.data.items():
        line, col = locate(loaded.root, (name,), key=True)
        if isinstance(name, str) and name in GENERATED_PAGE_NAMES:
            diags.append(Diagnostic(shown, line, col, name,
                                    f"analysis name '{name}' is the name of a page the site "
                                    f"generates (analyses/{name}.md); choose another name",
                                    "registry"))
            continue
        if not isinstance(name, str) or not NAME_RE.match(name):
            diags.append(Diagnostic(shown, line, col, str(name),
                                    f"analysis name {excerpt(repr(name), 60)} must be lower-case "
                                    "words joined by '-'",
                                    "registry"))
            continue
        try:
            reg.entries[name] = Entry.model_validate(raw)
        except ValidationError as exc:
            reg.broken.add(name)
            for err in exc.errors(include_url=False):
                loc = (name, *err["loc"])
                line, col = locate(loaded.root, loc, key=err["type"] == "extra_forbidden")
                diags.append(Diagnostic(shown, line, col, format_field(loc), explain_error(err, Entry),
                                        "registry"))
            continue
        path = reg.module_path(name)
        if not os.path.lexists(path):
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module '{excerpt(raw['module'])}' not found at "
                                    f"{excerpt(display(path))}", "registry"))
            continue
        try:
            raw = read_file(path, root)
            source = raw.decode("utf-8")
        except Refused:
            continue  # reported by _check_modules, at the module itself
        except (OSError, UnicodeDecodeError) as exc:
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module {display(path)} cannot be read: {exc}", "registry"))
            continue
        profiles, problems, metrics = fact(root, f"contract-profiles-listed {path}", raw,
                                              functools.partial(_contract, source))
        reg.profiles[name] = None if profiles is None else frozenset(profiles)
        if profiles is not None:
            reg.order[name] = tuple(profiles)
        reg.metrics[name] = None if metrics is None else frozenset(metrics)
        for problem in problems:
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module {display(path)} breaks the analysis contract: "
                                    f"{problem} (see site/writing-analyses.md)", "contract"))
        for problem in module_closure(Path(analysis_dir), reg.entries[name].module).problems:
            diags.append(Diagnostic(shown, line, col, name,
                                    f"analysis '{name}' has inputs litrec cannot see: {problem} "
                                    "(see site/writing-analyses.md)", "inputs"))
    _scales(reg, loaded, scales_raw if has_scales else _ABSENT, shown, diags)
    return reg


_ABSENT = object()  # no `scales:` in the registry


def _scales(reg: Registry, loaded, raw, shown: str, diags: list[Diagnostic]) -> None:
    """The registry's `scales:` (where given), each problem a located error; without it, a
    warning for each analysis whose PROFILES list two scales the other way round from an
    earlier one's (the order of the scales is then the earlier one's)."""
    if raw is not _ABSENT:
        # every analysis's profiles known (an empty PROFILES breaks the contract: unknown too)
        everyone = all(reg.profiles.get(n) for n in reg.entries)
        known = set().union(*reg.order.values()) if everyone and reg.entries else None
        reg.declared_scales, problems = declared(raw, known)
        for loc, message in problems:
            line, col = locate(loaded.root, (SCALES_KEY, *loc), key=not loc)
            diags.append(Diagnostic(shown, line, col, format_field((SCALES_KEY, *loc)), message,
                                    "registry"))
        return
    for name, other, a, b in contrary(reg.order, reg.scales):
        line, col = locate(loaded.root, (name,), key=True)
        diags.append(Diagnostic(shown, line, col, name,
                                f"its PROFILES list '{a}' before '{b}', those of '{other}' '{b}' "
                                f"before '{a}'; the scales are ordered as the analyses list their "
                                f"profiles, smallest first, so '{other}' decides: list them alike, "
                                "or name the order in 'scales:' (see site/writing-analyses.md)",
                                "registry", severity="warning"))


def _contract(source: str) -> list:
    """[the PROFILES names as the source lists them (None: not readable from the source), the
    contract's problems, the METRICS names (None: none declared)]."""
    profiles = source_profile_order(source)
    metrics = source_metrics(source)
    return [None if profiles is None else list(profiles), source_problems(source),
            None if metrics is None else sorted(metrics)]


def _check_modules(analysis_dir: Path, root: Path, diags: list[Diagnostic],
                   display: Callable[[Path], str]) -> None:
    """An error for every module of analysis/ that is not a regular file inside the project,
    and for every linked folder of modules that leads outside it: importing them would run
    code from elsewhere."""
    files, linked = walk(analysis_dir, (".py",))
    for path, _ in linked:
        real = path.resolve()
        if root in real.parents or not any(n.endswith(".py") for n in _names(real)):
            continue
        diags.append(Diagnostic(display(path), 1, 1, "", f"is a symbolic link to a folder of "
                                f"modules outside the project ({excerpt(os.readlink(path), 120)}); "
                                "litrec does not run code from outside the project", "refused"))
    for path in files:
        try:
            check(path, root)
        except Refused as r:
            diags.append(Diagnostic(display(path), 1, 1, "", r.message, "refused"))
        except OSError:  # a link to nothing: reported when a registry entry names it
            pass


def _names(folder: Path) -> list[str]:
    try:
        return os.listdir(folder)
    except OSError:
        return []
