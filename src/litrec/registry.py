"""The analysis registry: stable analysis names mapped to modules of `analysis/`.

The registry is `analysis/registry.yaml`, plain data read with the safe YAML
loader. Claims resolve their `analysis:` names here, so validating records
never imports code, and a module path is never taken from a record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from litrec.contract import source_problems, source_profiles
from litrec.diagnostics import Diagnostic, format_field
from litrec.yamlsafe import YamlProblem, load_bytes, locate

NAME_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class Entry(BaseModel):
    """One registry entry: the module under analysis/ and the title pages show."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    module: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$",
                        description="module name inside analysis/, e.g. prop1_identity")
    title: str
    description: str | None = None


@dataclass
class Registry:
    """The registry file and its entries by analysis name."""

    path: Path
    exists: bool
    entries: dict[str, Entry] = field(default_factory=dict)
    profiles: dict[str, frozenset[str] | None] = field(default_factory=dict)  # None: not readable

    def module_path(self, name: str) -> Path:
        """The source file of an entry's module."""
        mod = self.entries[name].module
        return self.path.parent.joinpath(*mod.split(".")).with_suffix(".py")


def load_registry(analysis_dir: Path, diags: list[Diagnostic],
                  display: Callable[[Path], str] = str) -> Registry:
    """Read `analysis/registry.yaml`, adding a located diagnostic for every problem."""
    path = Path(analysis_dir) / "registry.yaml"
    reg = Registry(path, path.is_file())
    if not reg.exists:
        return reg
    shown = display(path)
    try:
        loaded = load_bytes(path.read_bytes())
    except YamlProblem as p:
        diags.append(Diagnostic(shown, p.line, p.col, p.field, p.message, p.code))
        return reg
    for name, raw in loaded.data.items():
        line, col = locate(loaded.root, (name,), key=True)
        if not isinstance(name, str) or not NAME_RE.match(name):
            diags.append(Diagnostic(shown, line, col, str(name),
                                    f"analysis name {name!r} must be lower-case words joined by '-'",
                                    "registry"))
            continue
        try:
            reg.entries[name] = Entry.model_validate(raw)
        except ValidationError as exc:
            for err in exc.errors(include_url=False):
                loc = (name, *err["loc"])
                line, col = locate(loaded.root, loc)
                diags.append(Diagnostic(shown, line, col, format_field(loc), err["msg"], "registry"))
            continue
        path = reg.module_path(name)
        if not path.is_file():
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module '{raw['module']}' not found at {display(path)}",
                                    "registry"))
            continue
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module {display(path)} cannot be read: {exc}", "registry"))
            continue
        reg.profiles[name] = source_profiles(source)
        for problem in source_problems(source):
            diags.append(Diagnostic(shown, line, col, name,
                                    f"module {display(path)} breaks the analysis contract: "
                                    f"{problem} (see site/writing-analyses.md)", "contract"))
    return reg
