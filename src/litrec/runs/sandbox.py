"""Hermetic points: each point of an analysis runs in a sandbox that holds only its inputs.

On Linux, with bubblewrap (`bwrap`, unprivileged user and mount namespaces), a point runs in a
child process whose filesystem holds

- read-only: the system's programs and libraries (`/usr`, `/bin`, `/lib*`), a few files of
  `/etc` (the loader's cache, users, time zone, certificates), the interpreter and its
  installed packages (the virtual environment, the base prefix, every folder of `sys.path`
  outside the project), litrec's own source, the editable installs the analysis depends on,
  the analysis package (`analysis/`) and the data files it declares (`DATA`);
- writable: litrec's caches of the project (`.litrec-cache/`, JAX's compiled programs among
  them; the folder `JAX_COMPILATION_CACHE_DIR` names too), the folder that the run's trainings
  keep their checkpoints in, and a scratch `/tmp` of its own;
- `/proc`, a minimal `/dev` (with the accelerators' devices, where there are any) and `/sys`,
  read-only.

Nothing else of the project is there, whatever reads it: `open`, a program the analysis starts
(`cat notes.txt`), a C function through ctypes, SQLite, a forked worker, a helper reading a
file as it is imported. Such a read fails inside the sandbox; the point then fails with
`UndeclaredInput` naming the file and the fix, as the audit hook (`litrec.analyses.observe`)
says it where the read is Python's own: the child reports the paths it tried, and this process
looks them up in the project. The network is not cut off.

The child is `litrec.runs.pointserver`, started once per process and analysis (the same
binds): it imports the analysis inside the sandbox, and keeps it, and JAX's compiled programs,
for the next points of the same analysis, as a warm worker does. A point goes to it pickled
on its standard input and its output comes back on its standard output; what the analysis
prints goes to standard error.

Where no sandbox can be made (not Linux, no `bwrap`, namespaces refused: probed once per
process) or `LITREC_SANDBOX=off` turns it off, the audit hook alone watches the points, and the
result says so (`hermetic: false`). The dask executor's workers are watched by the hook alone.
"""

from __future__ import annotations

import atexit
import contextlib
import dataclasses
import functools
import glob
import os
import pickle
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from litrec.analyses.observe import refusal
from litrec.cache.slots import cache_folder, caching_off
from litrec.util.errors import SweepError, UndeclaredInput

SETTING = "LITREC_SANDBOX"   # `off`: no sandbox (for debugging); anything else: a sandbox where there can be one
OFF = ("off", "0", "no", "false")
# Why a point ran without a sandbox when none was asked for: where the runner sends points to dask.
NOT_ASKED = "its points ran on dask workers, which the audit hook alone watches (no sandbox)"

_SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
_ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "nsswitch.conf", "passwd", "group", "hosts",
        "resolv.conf", "host.conf", "gai.conf", "localtime", "timezone", "ssl", "ca-certificates",
        "pki", "alternatives", "fonts", "mime.types", "matplotlibrc")


def refused(kind: str) -> str | None:
    """Why the points of a run on the executor `kind` must not run in a sandbox (None: they may,
    where the machine running them can make one): read where the run is prepared, and sent with
    each point (`litrec.runs.sweep.Point.no_sandbox`)."""
    if os.environ.get(SETTING, "").strip().lower() in OFF:
        return f"the sandbox is turned off ({SETTING}=off)"
    return NOT_ASKED if kind == "dask" else None


def unavailable() -> str | None:
    """Why the points of this process cannot run in a sandbox (None: they can)."""
    return refused("local") or _probe()


def marked(out, why: str | None):
    """The point's output (or outputs, one per seed) saying whether it ran hermetic, and why not."""
    for one in out if isinstance(out, list) else [out]:
        one["hermetic"] = why is None
        if why is not None:
            one["not_hermetic"] = why
    return out


def describe() -> str:
    """How the points of this process run, in words, for the run's output."""
    why = unavailable()
    return "each point in a bwrap sandbox (hermetic)" if why is None else f"not hermetic on this machine: {why}"


@functools.lru_cache(maxsize=1)
def _probe() -> str | None:
    """Whether bwrap can make a sandbox here: once per process."""
    if not sys.platform.startswith("linux"):
        return f"no sandbox on {sys.platform} (bwrap needs Linux's user and mount namespaces)"
    exe, true = shutil.which("bwrap"), shutil.which("true") or "/bin/true"
    if exe is None:
        return "bwrap (bubblewrap) is not installed; install it (apt-get install bubblewrap)"
    try:
        done = subprocess.run([exe, *_system(), "--unshare-user", "--die-with-parent", "--", true],
                              capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap could not start ({exc})"
    if done.returncode != 0:
        said = done.stderr.decode("utf-8", "replace").strip().splitlines()
        return f"bwrap cannot make a sandbox here ({said[-1] if said else f'exit status {done.returncode}'})"
    return None


def _system() -> list[str]:
    """The binds every sandbox has: the system's programs, libraries and devices."""
    out: list[str] = []
    for top in _SYSTEM:
        if os.path.islink(top):
            out += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            out += ["--ro-bind", top, top]
    for name in _ETC:
        out += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    out += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm", "--ro-bind-try", "/sys", "/sys"]
    for dev in sorted(glob.glob("/dev/nvidia*") + glob.glob("/dev/dri")):
        out += ["--dev-bind-try", dev, dev]
    return out + ["--tmpfs", "/tmp"]


def _within(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _python_paths(root: str) -> set[str]:
    """The interpreter's folders and its packages', bound read-only: none that holds the project,
    and inside it only the virtual environment and folders of installed packages."""
    import litrec

    prefixes = {os.path.realpath(p) for p in (sys.prefix, sys.exec_prefix, sys.base_prefix,
                                               sys.base_exec_prefix)}
    out = {str(Path(litrec.__file__).resolve().parent)}
    for p in {*prefixes, *sys.path}:
        if not p or not os.path.isabs(p) or not os.path.isdir(p):
            continue
        real = os.path.realpath(p)
        if _within(root, real):
            continue  # it holds the project
        if _within(real, root) and not (any(_within(real, q) for q in prefixes)
                                        or "site-packages" in real or "dist-packages" in real):
            continue
        out.add(real)
    return out


def _mpl_folders() -> list[str]:
    """matplotlib's configuration and cache folders (its font list): shared, outside the project."""
    home = os.path.expanduser("~")
    return [os.environ.get("MPLCONFIGDIR") or "",
            os.path.join(os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache"), "matplotlib"),
            os.path.join(os.environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config"), "matplotlib")]


def binds(point) -> tuple[list[str], list[str]]:
    """(read-only, writable) folders and files of the point's sandbox (`litrec.runs.sweep.Point`);
    what the writable ones need is made first."""
    from litrec.analyses.packages import editable_places

    root = os.path.realpath(point.root)
    editable = editable_places((*(point.versions or ()), *(point.deps or ())))  # as the point's check
    ro = _python_paths(root) | {os.path.realpath(p) for p in editable}
    ro.add(os.path.join(root, point.package))
    for rel in ((point.inputs or {}).get("data") or {}):
        ro.add(os.path.realpath(os.path.join(root, rel)))
    caches = cache_folder(Path(root))
    if not caching_off():  # with the caches off nothing of them is made (`--no-cache`)
        with contextlib.suppress(OSError):
            caches.mkdir(exist_ok=True)
    own = os.environ.get("JAX_COMPILATION_CACHE_DIR") or ""
    if own and "://" not in own:  # JAX makes the folder it is given; only one that exists is bound
        with contextlib.suppress(OSError):
            os.makedirs(own, exist_ok=True)
    rw = [str(caches), own, *_mpl_folders()]
    if point.checkpoints:  # the run's checkpoint folder: every point of the analysis keeps its own there
        parent = Path(point.checkpoints).parent
        with contextlib.suppress(OSError):
            parent.mkdir(parents=True, exist_ok=True)
        rw.append(str(parent.resolve()))
    return sorted(p for p in ro if os.path.exists(p)), sorted({p for p in rw if p and os.path.isdir(p)})


def command(point, ro: list[str], rw: list[str]) -> list[str]:
    """The bwrap command line that starts the point server for `point`, with its binds."""
    mounts = [*_system()]
    for path in sorted(ro + rw, key=lambda p: (p.count(os.sep), p)):  # a folder before what it holds
        mounts += ["--bind" if path in rw else "--ro-bind", path, path]
    return [shutil.which("bwrap") or "bwrap", *mounts, "--unshare-user", "--unshare-pid",
            "--die-with-parent", "--new-session", "--setenv", "TMPDIR", "/tmp",
            "--chdir", os.path.realpath(point.root), "--",
            sys.executable, "-m", "litrec.runs.pointserver"]


class RemoteTraceback(Exception):
    """The traceback of a point that failed in its sandbox."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Server:
    """A point server in its sandbox: started for one analysis's binds, kept for its next points."""

    def __init__(self, args: list[str]):
        self.args = args
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def alive(self) -> bool:
        """Whether the server is still running."""
        return self.proc.poll() is None

    def run(self, point, progress) -> tuple[Any, list]:
        """The point's output and the paths it tried inside the project; its error re-raised."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        pickle.dump((point, progress is not None), self.proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
        self.proc.stdin.flush()
        while True:
            try:
                kind, *rest = pickle.load(self.proc.stdout)
            except (EOFError, pickle.UnpicklingError, OSError):
                code = self.proc.wait()
                raise SweepError(f"the point's sandboxed process ended with exit status {code} before "
                                 "it answered (killed, or out of memory)") from None
            if kind == "progress":
                if progress is not None:
                    progress(*rest[0], **rest[1])
            elif kind == "done":
                return rest[0], rest[1]
            else:
                exc, text, tried = rest
                exc.__cause__ = RemoteTraceback(text)
                return exc, tried

    def close(self) -> None:
        """End its input (it leaves), and wait for it; killed if it does not leave in 5 s."""
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


_SERVER: Server | None = None


def close() -> None:
    """Stop this process's point server, if any."""
    global _SERVER
    server, _SERVER = _SERVER, None
    if server is not None:
        server.close()


atexit.register(close)


def run(point, progress=None) -> Any:
    """Run `point` in its sandbox (`litrec.runs.sweep.run_point` asks, where `unavailable()` is
    None); its output, or UndeclaredInput where it tried a file of the project outside its binds."""
    global _SERVER
    if point.checkpoints:  # named from litrec's working folder, which the sandbox's is not
        point = dataclasses.replace(point, checkpoints=os.path.abspath(point.checkpoints))
    ro, rw = binds(point)
    args = command(point, ro, rw)
    if _SERVER is None or _SERVER.args != args or not _SERVER.alive():
        close()
        _SERVER = Server(args)
    server = _SERVER
    try:
        out, tried = server.run(point, progress)
    except BaseException:
        close()  # stopped half way: its state is unknown
        raise
    refused = undeclared(point, tried, ro + rw)
    if refused is not None:
        raise refused from (out if isinstance(out, BaseException) else None)
    if isinstance(out, BaseException):
        raise out
    return out


def undeclared(point, tried: list, bound: list[str]) -> UndeclaredInput | None:
    """The refusal of what the point tried inside the project and the sandbox did not hold (a file
    that is there, outside every bind), in the audit hook's words; None when it tried none."""
    root = os.path.realpath(point.root)
    files, modules = set(), set()
    for kind, value in tried:
        if kind == "module":
            base = os.path.join(root, *str(value).split("."))
            for path in (base + ".py", os.path.join(base, "__init__.py")):
                if os.path.isfile(path) and not any(_within(path, b) for b in bound):
                    modules.add((str(value), os.path.relpath(path, root)))
            continue
        path = os.path.realpath(os.path.join(root, str(value)))
        if _within(path, root) and os.path.isfile(path) and not any(_within(path, b) for b in bound):
            files.add(os.path.relpath(path, root))
    if not files and not modules:
        return None
    return refusal(point.package, sorted(modules), sorted(files))
