"""The point server: runs the points of one analysis inside its sandbox (`litrec.runs.sandbox`).

bwrap starts it as `python -m litrec.runs.pointserver`. It reads `(point, with_progress)`,
pickled, from its standard input, runs each point here (`litrec.runs.sweep.run_here`: observed
by the audit hook, in the point's environment) and answers on its standard output, pickled:
`("progress", args, kwargs)` while the point runs (when asked), then `("done", output, tried)` or
`("error", exception, traceback, tried)`. `tried` lists what the point tried inside the project
that the sandbox may not have held, for litrec to look up outside: `("file", path)` (a path
handed to a program, to ctypes or to SQLite, or named by the error it failed with) and
`("module", name)` (a module it could not import).

Its standard output is the answers' alone: what the analysis (or a program it starts) writes
there goes to standard error. It ignores SIGINT (litrec stops it) and leaves at the end of its
input.
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import traceback


def _from_error(exc: BaseException | None) -> list[tuple[str, str]]:
    """The paths and modules an error names, along its chain of causes."""
    out: list[tuple[str, str]] = []
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ModuleNotFoundError) and exc.name:
            out.append(("module", exc.name))
        if isinstance(exc, OSError):
            out += [("file", os.fsdecode(f)) for f in (exc.filename, exc.filename2)
                    if isinstance(f, (str, bytes))]
        words = list(map(str, exc.cmd)) if isinstance(exc, subprocess.CalledProcessError) and \
            isinstance(exc.cmd, (list, tuple)) else []
        for word in words + str(exc).replace("'", " ").replace('"', " ").split():
            word = word.rstrip(":,;.)")
            if word.startswith(os.sep):
                out.append(("file", word))
        exc = exc.__cause__ or exc.__context__
    return out


def _tried(seen: list) -> list[tuple[str, str]]:
    return [("file", path) for obs in seen for path in obs.tried]


def main() -> None:
    """Serve points until litrec closes the standard input."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = os.fdopen(os.dup(0), "rb")
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # the analysis's standard output, and its programs', is standard error
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)
    from litrec.runs.sweep import run_here

    def send(*message) -> None:
        pickle.dump(message, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()

    while True:
        try:
            point, with_progress = pickle.load(requests)
        except EOFError:
            return
        seen: list = []

        def progress(*args, **kwargs) -> None:
            send("progress", args, kwargs)

        try:
            out = run_here(point, progress if with_progress else None, seen)
        except BaseException as exc:  # sent back: the point failed, the server goes on
            text = "".join(traceback.format_exception(exc))
            tried = _tried(seen) + _from_error(exc)
            try:
                pickle.loads(pickle.dumps(exc))
                sent = exc
            except Exception:
                from litrec.util.errors import SweepError

                sent = SweepError(f"{type(exc).__name__}: {exc}")
            send("error", sent, text, tried)
            continue
        send("done", out, _tried(seen))


if __name__ == "__main__":
    main()
