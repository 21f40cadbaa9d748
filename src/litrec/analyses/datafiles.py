"""The data files an analysis declares (`DATA` in its module): each entry a path or a glob
relative to the project, expanded to the files it names with the SHA-256 of each, and the
folders to watch for them. Part of a result's inputs (`litrec.analyses.inputs`)."""

from __future__ import annotations

import glob
import hashlib
import itertools
import re
from pathlib import Path

from litrec.analyses.importscan import DATA_NAME
from litrec.util.confine import Refused, read_file

_GLOB = re.compile(r"[*?\[]")


def data_files(project: Path, patterns: list[str]) -> tuple[dict[str, str], list[str]]:
    """The declared data files (path relative to the project -> SHA-256) and the problems:
    a pattern that leaves the project or matches no regular file inside it."""
    project = Path(project)
    files: dict[str, str] = {}
    problems: list[str] = []
    for pattern in patterns:
        pure = Path(pattern)
        if pure.is_absolute() or ".." in pure.parts or not pattern.strip():
            problems.append(f"{DATA_NAME} entry '{pattern}' must be a path or glob relative to "
                            f"the project folder {project}, without '..'")
            continue
        paths = (sorted(project / p for p in glob.glob(pattern, root_dir=project, recursive=True))
                 if _GLOB.search(pattern) else [project / pattern])
        paths = [p for p in paths if "__pycache__" not in p.parts]
        matched = 0
        for path in paths:
            if path.is_dir() and not path.is_symlink():
                continue
            try:
                raw = read_file(path, project)
            except FileNotFoundError:
                continue
            except Refused as r:
                problems.append(f"{DATA_NAME} entry '{pattern}': {r.message}")
                continue
            except OSError as exc:
                problems.append(f"{DATA_NAME} entry '{pattern}': {path} cannot be read "
                                f"({exc.strerror or exc})")
                continue
            files[path.relative_to(project).as_posix()] = hashlib.sha256(raw).hexdigest()
            matched += 1
        if not matched and not any(p.startswith(f"{DATA_NAME} entry '{pattern}'") for p in problems):
            problems.append(f"{DATA_NAME} entry '{pattern}' matches no file in {project}; add the "
                            "file, or correct the entry")
    return dict(sorted(files.items())), problems


def watch_paths(project: Path, patterns) -> set[tuple[Path, bool]]:
    """The folders to watch for the declared data `patterns`, each with whether to watch it
    recursively: a file's folder, or a glob's folder above its first wildcard."""
    out = set()
    for pattern in patterns:
        parts = Path(pattern).parts
        if Path(pattern).is_absolute() or ".." in parts:
            continue
        fixed = [p for p in itertools.takewhile(lambda p: not _GLOB.search(p), parts)]
        if len(fixed) == len(parts):
            out.add((Path(project, *fixed[:-1]), False))
        else:
            out.add((Path(project, *fixed), True))
    return out
