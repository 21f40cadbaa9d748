"""The folders the site build writes, and the rule that keeps it from deleting anyone's files.

litrec writes two folders: the docs folder (`build/docs/`, synchronised in
place so that `litrec site serve` reloads only what changed) and the HTML
site (`--out`, default `public/`, built in a new folder beside it and swapped
in by rename). Each holds a manifest, `.litrec-docs` or `.litrec-site`: a JSON
list of every file litrec wrote there. litrec replaces or cleans such a folder
only while the manifest lists every file in it; a folder that does not exist
or is empty is litrec's to fill. Any other folder is refused, untouched, with
the files that are not litrec's named: a folder that merely looks like a site
(a `sitemap.xml`, an `assets/`) is not litrec's.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path, PurePosixPath

from litrec.util import jsonread
from litrec.util.atomic import fresh_dir, fresh_name, replace_file
from litrec.util.confine import Refused, read_regular
from litrec.util.errors import SiteError, UsageError

SHOWN = 3  # foreign files named in a refusal
MANIFEST_BYTES = 1 << 26  # a larger manifest is none litrec wrote (a million files' names): not read


def listed(folder: Path, marker: str) -> set[str] | None:
    """The files the folder's manifest lists (None: no manifest, or one litrec cannot read)."""
    try:
        data = jsonread.loads(read_regular(folder / marker, limit=MANIFEST_BYTES))
    except (Refused, OSError, ValueError):
        return None
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, list) or not all(isinstance(f, str) for f in files):
        return None
    return {f for f in files if _plain(f)}


def _plain(rel: str) -> bool:
    """A relative path that stays in its folder (a manifest is never trusted to lead out)."""
    p = PurePosixPath(rel)
    return bool(rel) and not p.is_absolute() and ".." not in p.parts and p.as_posix() == rel


def remove_listed(folder: Path, rel: str) -> None:
    """Delete a file litrec wrote in `folder` (not through a link), and folders left empty."""
    path = folder / rel
    base = folder.resolve()
    if path.parent.resolve() != base and base not in path.parent.resolve().parents:
        return  # a folder on the way is a link out: not litrec's to follow
    if not os.path.lexists(path) or (path.is_dir() and not path.is_symlink()):
        return
    path.unlink()
    for parent in path.parents:
        if parent == folder or any(parent.iterdir()):
            break
        parent.rmdir()


def files_in(folder: Path) -> list[str]:
    """Every entry that is not a folder (files, links), relative, in walking order."""
    found: list[str] = []
    for top, dirs, names in os.walk(folder):
        dirs.sort()
        rel = Path(top).relative_to(folder)
        for name in sorted(names) + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
            found.append((rel / name).as_posix())
    return found


def write_manifest(folder: Path, marker: str, files) -> None:
    """Record in the folder the files litrec wrote there."""
    text = json.dumps({"written_by": "litrec", "files": sorted(files)}, indent=0) + "\n"
    replace_file(folder / marker, text.encode("utf-8"))


def claim(folder: Path, marker: str, what: str, option: str) -> set[str]:
    """The files litrec wrote in `folder` (empty when it is new or empty); SiteError, touching
    nothing, when it holds anything else."""
    if os.path.lexists(folder) and not folder.is_dir():
        raise SiteError(f"{what} folder '{folder}' is a file; choose another path{option}")
    if not folder.is_dir():
        return set()
    present = files_in(folder)
    if not present:
        return set()
    mine = listed(folder, marker)
    foreign = [f for f in present if f != marker and (mine is None or f not in mine)]
    if mine is not None and not foreign:
        return mine
    shown = ", ".join(foreign[:SHOWN]) + (f" and {len(foreign) - SHOWN} more"
                                          if len(foreign) > SHOWN else "")
    if mine is None and (folder / marker).exists():
        why = f"it was built by an older litrec, which did not list its files in {marker}"
    elif mine is None:
        why = f"litrec did not build it (no {marker} in it)"
    else:
        why = f"it holds files litrec did not write: {shown}"
    if mine is None:
        why += f"; it holds {shown}"
    raise SiteError(f"{what} folder '{folder}' is not empty and litrec will not replace it: {why}. "
                    f"litrec deletes only what it wrote; choose an empty or new folder{option}, "
                    f"or remove '{folder}' yourself")


def replace(folder: Path, built: Path, marker: str, what: str, option: str) -> None:
    """Put the freshly built folder `built` (beside `folder`) in `folder`'s place; the old one,
    checked again to hold only litrec's files, is removed."""
    write_manifest(built, marker, [f for f in files_in(built) if f != marker])
    mine = claim(folder, marker, what, option)
    if not os.path.lexists(folder):
        os.rename(built, folder)
        return
    old = fresh_name(folder.parent, f".{folder.name}-old-")
    try:
        os.rename(folder, old)
    except OSError:  # a folder that cannot move (a mount point): refill it in place
        for rel in sorted(mine):
            remove_listed(folder, rel)
        shutil.copytree(built, folder, dirs_exist_ok=True)
        return
    try:
        os.rename(built, folder)
    except BaseException:
        os.rename(old, folder)  # the old build back in its place
        raise
    shutil.rmtree(old, ignore_errors=True)


def new_beside(folder: Path) -> Path:
    """A new empty folder beside `folder`, to build in before the swap."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        return fresh_dir(folder.parent, f".{folder.name}-build-")
    except OSError as exc:
        raise SiteError(f"cannot create a folder beside '{folder}' to build in: "
                        f"{exc.strerror or exc}; choose another folder with --out") from None


def check_out(out: Path, root: Path, owned: dict[str, Path]) -> None:
    """SiteError when --out is the project, holds it, or lies in (or holds) one of its folders."""
    if out == root or out in root.parents:
        raise UsageError(f"--out '{out}' would hold the project itself; choose a new folder, "
                        "e.g. public")
    for what, path in owned.items():
        path = path.resolve()
        how = ("is" if out == path else "is inside" if path in out.parents
               else "holds" if out in path.parents else None)
        if how:
            raise UsageError(f"--out '{out}' {how} the {what} folder '{path}'; choose a folder "
                            "of its own, e.g. public")
