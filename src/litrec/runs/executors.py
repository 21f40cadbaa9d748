"""Executors: where the points of a sweep run.

- `local`: a `concurrent.futures.ProcessPoolExecutor` on this machine. A worker
  that dies breaks the pool: the analysis fails and nothing is written.
- `dask`: a `dask.distributed` scheduler, the one at `--scheduler ADDRESS` or a
  `LocalCluster` on loopback started for the run. Each point is submitted with
  `retries=2` (a point that raises runs again, up to three times in all); a point
  whose worker dies is rescheduled on another worker by the scheduler (up to
  `distributed.scheduler.allowed-failures` deaths, 3 by default).

Which executor, how many workers and which scheduler is one `ExecutorSpec`
(`litrec.runs.options`, built once with the run's options); `start_executor` starts
its executor. Both give futures with `.result()`, `as_completed`
and `cancel`. Nothing is started until the runner has something to send; `distributed` is
imported only for `dask`. `close(wait=False)` (a run stopped by Ctrl-C or SIGTERM) stops the
workers at once; the local workers ignore SIGINT, so a Ctrl-C in the terminal stops litrec,
which stops them.

Hermetic points: on the local executor (and in litrec's own process) each point runs in a
sandbox of its inputs where the machine has one (`litrec.runs.sandbox`, bwrap on Linux); each
worker keeps one sandboxed point server per analysis. On dask the audit hook alone watches
the points (`describe` says so).

Warm workers: on Linux the local workers and those of a LocalCluster are forked
from a `forkserver` that imported litrec's point runner and JAX once (`warm`,
started before the analyses are prepared, so it imports while litrec does).
JAX is not fork-safe once it has started its backends, and the server never
does: it only imports. A worker then imports each analysis once, on its first
point, and keeps it for the next ones (`litrec.runs.sweep.load_analysis`). Elsewhere
the workers are spawned, each importing JAX itself.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import multiprocessing
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from litrec.analyses.environ import replace_environ as restore_environ  # `os.environ` put back as it was
from litrec.analyses.numerics import is_numeric_variable
from litrec.runs.leads import LeadQueue
from litrec.runs.options import ExecutorSpec  # where the points go: built once, with the run's options
from litrec.util.errors import ExecutorError

EXECUTORS = ("local", "dask")


class Executor(Protocol):
    """What the runner asks of an executor (`LocalExecutor`, `DaskExecutor`): its futures
    have `.result()`, `.cancel()` and `.done()`."""

    name: str

    def describe(self) -> str:
        """Where the points go, for the run's log."""
        ...

    def size(self) -> int:
        """How many points can run at once."""
        ...

    def holding(self) -> contextlib.AbstractContextManager[None]:
        """Inside: calls are queued, and sent on the way out."""
        ...

    def submit(self, fn: Callable, arg: Any, group: str | None = None) -> Any:
        """Send one call; a future. `group` names calls that share compiled programs."""
        ...

    def submit_first(self, fn: Callable, arg: Any) -> Any:
        """Send one short call ahead of those still waiting; a future."""
        ...

    def as_completed(self, futures: Iterable) -> Iterator:
        """The futures, in the order they finish."""
        ...

    def cancel(self, futures: Iterable) -> None:
        """Cancel the futures not yet started."""
        ...

    def close(self, wait: bool = True) -> None:
        """Shut the workers down: after their calls (wait), or now."""
        ...


# What dask's own forkserver preloads (distributed.utils.get_mp_context), for a LocalCluster.
_DASK_MODULES = ("distributed", "dask", "msgpack", "cloudpickle", "tornado", "toolz")

# A LocalCluster's processes share litrec's cores with the points, so they wake less:
# its workers do not sample their own stacks every 10 ms (dask's profiler, shown only on a
# dashboard litrec does not start); its processes poll their CPU and memory every 2 s, not
# 0.5 s, the nannies their worker's memory every 1 s, not 0.1 s, and their event loops
# check that they are not blocked every 0.5 s, not 0.02 s.
QUIET = {"distributed.worker.profile.enabled": False,
         "distributed.admin.system-monitor.interval": "2s",
         "distributed.worker.memory.monitor-interval": "1s",
         "distributed.admin.tick.interval": "500ms"}


def start_method() -> str:
    """How worker processes start: forked from a forkserver on Linux, spawned elsewhere
    (macOS frameworks are not safe to fork, and Windows cannot)."""
    return "forkserver" if sys.platform.startswith("linux") else "spawn"


def prestart(spec: ExecutorSpec, analysis_dir, targets: Iterable[str] = ()) -> Early | None:
    """`warm`, at once, before the project is loaded: the server the workers fork from
    imports while litrec loads and plans, and for `dask` the LocalCluster starts (returned:
    hand it to `warm`, or `discard` it when nothing runs). Only where it is known what the
    server must import: JAX when every analysis that may run imports it, not when none does
    (read from the sources, as the inputs read their imports); the analyses that may run are
    those `targets` names where each is a registered analysis, else every module of
    `analysis_dir`. Where some import JAX and some do not, nothing starts here: the run's plan
    knows which analyses run (`litrec.runs.plan.run_plan` calls `warm`), and a run of
    NumPy-only analyses never imports JAX, in this process or in any worker."""
    if spec.scheduler is not None or not spec.parallel:
        return None
    uses = _jax_use(analysis_dir, _named_modules(analysis_dir, list(targets)))
    if len(uses) > 1:
        return None
    return warm(spec, True in uses)


def _named_modules(folder, targets: list[str]) -> list[str] | None:
    """The modules of the analyses `targets` names, read from the folder's registry.yaml; None
    where a target names none (a record, a claim, a name not registered: every module may run),
    no target is given, or the registry cannot be read (its own check says why, later)."""
    if not targets:
        return None
    from pathlib import Path

    import yaml

    from litrec.util.confine import MAX_RECORD_BYTES, Refused, project_root, read_file

    try:
        raw = read_file(Path(folder) / "registry.yaml", project_root(Path(folder)), MAX_RECORD_BYTES)
        registry = yaml.load(raw, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (OSError, Refused, yaml.YAMLError):
        return None
    entries = [registry.get(t) if isinstance(registry, dict) else None for t in targets]
    modules = [m for e in entries if isinstance(e, dict) and isinstance(m := e.get("module"), str)
               and m.isidentifier()]
    return modules if len(modules) == len(targets) else None


def _jax_use(folder, modules: list[str] | None = None) -> set[bool]:
    """For each module (None: every module of the analysis folder), whether it imports JAX
    (what the fingerprint reads of each module's imports, kept in `.litrec-cache/sources/`):
    {True}, {False}, both, or none for a folder without modules."""
    from pathlib import Path

    from litrec.analyses.inputs import module_imports
    from litrec.analyses.packages import JAX_IMPORTS

    if modules is None:
        try:
            with os.scandir(folder) as it:
                modules = [e.name[:-3] for e in it if e.name.endswith(".py") and e.name != "__init__.py"
                           and e.is_file(follow_symlinks=False)]
        except OSError:
            return set()
    try:
        return {bool(module_imports(Path(folder), stem)[1] & JAX_IMPORTS) for stem in modules}
    except (OSError, ValueError, SyntaxError):  # a module that cannot be read: the plan decides
        return {True, False}


def _start_server(kind: str, uses_jax: bool) -> None:
    from multiprocessing import forkserver, resource_tracker

    preload = ["litrec.runs.workerstart", "litrec.runs.sweep", "numpy"]
    preload += ["jax", "jax.numpy"] if uses_jax else []
    preload += list(_DASK_MODULES) if kind == "dask" else []
    multiprocessing.get_context("forkserver").set_forkserver_preload(preload)
    resource_tracker.ensure_running()  # first: it unblocks SIGINT once it has started
    with sigint_blocked():  # the server starts with Ctrl-C held off (`sigint_blocked`)
        forkserver.ensure_running()  # a running server keeps what it has imported


@contextlib.contextmanager
def sigint_blocked() -> Iterator[None]:
    """SIGINT blocked in this thread while inside: a process started meanwhile starts with it
    blocked (the mask is inherited), so a Ctrl-C in the terminal, sent to the whole process
    group, cannot hit it while it imports, before it ignores SIGINT itself; litrec gets the
    Ctrl-C when the block ends."""
    mask = getattr(signal, "pthread_sigmask", None)
    old = mask(signal.SIG_BLOCK, {signal.SIGINT}) if mask else None
    try:
        yield
    finally:
        if mask:
            mask(signal.SIG_SETMASK, old)


def warm(spec: ExecutorSpec, uses_jax: bool, early: Early | None = None) -> Early | None:
    """Start, while this process prepares the analyses, what workers on this machine would
    start from: the server they fork from, importing what every point needs (JAX when
    `uses_jax`; once per process: a server already running keeps what it imported), and
    for `dask` the LocalCluster of the spec's workers (returned, to `take`; `early`: one
    started already). Nothing when the points cannot go to such workers."""
    if spec.scheduler is not None or not spec.parallel:
        return None
    if start_method() == "forkserver" and spec.kind in EXECUTORS:
        _start_server(spec.kind, uses_jax)
    if spec.kind != "dask":
        return None
    return early if early is not None else Early(spec.workers)


class Early:
    """A LocalCluster being started in a thread while litrec prepares the analyses."""

    def __init__(self, jobs: int):
        threads = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="litrec-cluster")
        self.future = threads.submit(DaskExecutor, jobs)
        threads.shutdown(wait=False)
        self.taken = False

    def take(self) -> DaskExecutor:
        """The executor once started (raising what stopped it from starting); the caller
        closes it. A take stopped by Ctrl-C or SIGTERM while the cluster starts leaves it to
        `discard`, which closes it once started."""
        executor = self.future.result()
        self.taken = True
        return executor

    def discard(self) -> None:
        """Close the executor unless it was taken (nothing was sent, or the run stopped)."""
        if self.taken:
            return
        self.taken = True
        try:
            executor = self.future.result()
        except Exception:
            return  # it did not start: nothing to close
        executor.close(wait=False)


def quiet_broken_pool(manager: threading.Thread) -> None:
    """Drop the InvalidStateError Python 3.11's pool manager raises when killed workers
    break a future already cancelled (a stop's expected race); every other error prints."""
    previous = threading.excepthook

    def hook(args):
        if args.thread is manager and isinstance(args.exc_value, concurrent.futures.InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


class LocalExecutor:
    """Points in worker processes on this machine (spawned: JAX is not fork-safe)."""

    name = "local"

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = self._pool(jobs)
        self.queue = LeadQueue(self._send, jobs)  # an analysis's first point ahead of its others
        self.side: concurrent.futures.ProcessPoolExecutor | None = None  # for `submit_first`

    @staticmethod
    def _pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
        return concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context(start_method()),
            initializer=_ignore_sigint)

    def describe(self) -> str:
        """Where the points go, for the run's log."""
        from litrec.runs import sandbox

        return f"the local executor ({_n(self.jobs, 'worker process', 'worker processes')}), {sandbox.describe()}"

    def size(self) -> int:
        """How many points can run at once."""
        return self.jobs

    def submit(self, fn: Callable, arg: Any, group: str | None = None):
        """Queue one call for a worker; a future. The calls of one `group` (an analysis's
        points) wait until its first is back, while another group's can go
        (`litrec.runs.leads`): the first compiles the programs the others load."""
        return self.queue.submit(fn, arg, group)

    def holding(self) -> contextlib.AbstractContextManager[None]:
        """Inside: calls are queued, and sent on the way out (`LeadQueue.holding`)."""
        return self.queue.holding()

    def _send(self, fn: Callable, arg: Any):
        """Put one call in the pool. A worker started here starts with SIGINT blocked, so a
        Ctrl-C before it is ready cannot hit it half way through its start."""
        with sigint_blocked():
            return self.pool.submit(fn, arg)

    def submit_first(self, fn: Callable, arg: Any):
        """Send one short call ahead of the points still waiting for a worker (an analysis's
        seed figures, drawn once its points are back, so that its result is written then and not
        after every other analysis's points): to a worker process of its own, started on first
        use; a future."""
        with sigint_blocked():
            if self.side is None:
                self.side = self._pool(1)
            return self.side.submit(fn, arg)

    def as_completed(self, futures: Iterable) -> Iterator:
        """The futures, in the order they finish; a stop of the run is looked for between
        waits (`interrupt.check`), even one whose `Interrupted` was swallowed."""
        from litrec.runs import interrupt

        pending = set(futures)
        while pending:
            done, pending = concurrent.futures.wait(pending, timeout=interrupt.TICK_S,
                                                    return_when=concurrent.futures.FIRST_COMPLETED)
            interrupt.check()
            yield from done

    def cancel(self, futures: Iterable) -> None:
        """Cancel the futures not yet started."""
        for fut in futures:
            fut.cancel()  # a point already running runs to its end; its output is dropped

    def close(self, wait: bool = True) -> None:
        """Shut the workers down: after their points (wait), or now, killing them; the
        points still queued are cancelled."""
        self.queue.close()
        for pool in (self.pool, self.side):
            if pool is not None:
                _shut(pool, wait)


def _shut(pool: concurrent.futures.ProcessPoolExecutor, wait: bool) -> None:
    """Shut a process pool down: after its calls (wait), or now, killing its workers."""
    if wait:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    workers = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        quiet_broken_pool(manager)
    for proc in workers:
        proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        proc.join(5)
    if manager is not None:
        # The manager closes its wake-up pipe now, or at exit concurrent.futures' hook
        # races it (3.11 checks `_closed`, then writes: OSError: Bad file descriptor).
        manager.join(5)


class DaskExecutor:
    """Points on a dask.distributed cluster, each retried on failure."""

    name = "dask"

    def __init__(self, jobs: int, address: str | None = None):
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise ExecutorError("--executor dask needs dask.distributed: "
                                "pip install 'dask[distributed]'") from None
        self.cluster = self.method = self.environ = None
        if address:
            _check_tls_settings(address)
            try:
                self.client = Client(address)  # waits distributed.comm.timeouts.connect (30 s)
            except (OSError, TimeoutError) as exc:
                raise ExecutorError(f"cannot reach the dask scheduler at {address}: {exc}") from None
        else:
            # for the cluster's life (a killed worker restarts the same way): forked workers
            # and without the thread counts dask's nannies give them (OMP_NUM_THREADS=1, ...):
            # numerics variables, the same in every worker as in litrec's own process
            spawn = dask.config.get("distributed.nanny.pre-spawn-environ", default={}) or {}
            self.method = dask.config.set({"distributed.worker.multiprocessing-method":
                                           start_method(), **QUIET,
                                           "distributed.nanny.pre-spawn-environ":
                                               {k: v for k, v in spawn.items()
                                                if not is_numeric_variable(k)}})
            before = self.environ = dict(os.environ)
            try:
                self.cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address=None)
                self.client = Client(self.cluster)
            except BaseException:
                self.close()
                raise
            finally:  # dask's nannies write their workers' environment into this process's
                restore_environ(before)  # (PYTHONHASHSEED=6640): litrec's children never see it

    def describe(self) -> str:
        """Where the points go, for the run's log."""
        workers = len(self.client.scheduler_info().get("workers", {}))
        where = "a LocalCluster" if self.cluster is not None else "the scheduler"
        return (f"dask ({where} at {self.client.scheduler.address}, {_n(workers, 'worker')}), not hermetic: "
                "dask workers are watched by the audit hook alone, with no sandbox")

    def size(self) -> int:
        """How many points can run at once: the cluster's worker threads now."""
        workers = self.client.scheduler_info().get("workers", {})
        return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))

    def holding(self) -> contextlib.AbstractContextManager[None]:
        """The local executor's (`LocalExecutor.holding`): the scheduler places the calls."""
        return contextlib.nullcontext()

    def submit(self, fn: Callable, arg: Any, group: str | None = None):
        """Send one call to the cluster (pure=False, with retries); a future. `group` is the
        local executor's (`LocalExecutor.submit`): the scheduler places the calls."""
        return self.client.submit(fn, arg, retries=2, pure=False)

    def submit_first(self, fn: Callable, arg: Any):
        """Send one short call ahead of the points still queued (dask's priority)."""
        return self.client.submit(fn, arg, retries=2, pure=False, priority=1)

    def as_completed(self, futures: Iterable) -> Iterator:
        """The futures, in the order they finish."""
        from distributed import as_completed

        return iter(as_completed(list(futures)))

    def cancel(self, futures: Iterable) -> None:
        """Cancel the futures in one call."""
        self.client.cancel(list(futures))  # also frees finished points' outputs on the workers

    def close(self, wait: bool = True) -> None:
        """Close the client, and the LocalCluster if litrec started it."""
        if getattr(self, "client", None) is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        if self.environ is not None:  # a restarted worker's nanny wrote it again
            restore_environ(self.environ)
        if self.method is not None:
            self.method.__exit__(None, None, None)
            self.method = None


def _check_tls_settings(address: str) -> None:
    """A `tls://` scheduler needs dask's TLS settings for a client (dask's `Client` would
    fail with a TypeError deep in its connection code)."""
    if not address.startswith("tls://"):
        return
    from distributed.security import Security

    security = Security()  # from dask's configuration: files, DASK_* environment variables
    # the ignores: Security sets its tls_* attributes in __init__, from a table its stub does not see
    missing = [name for name, value in (("distributed.comm.tls.ca-file",
                                         security.tls_ca_file),  # type: ignore[attr-defined]
                                        ("distributed.comm.tls.client.cert",
                                         security.tls_client_cert))  # type: ignore[attr-defined]
               if not value]
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        raise ExecutorError(f"cannot reach the dask scheduler at {address}: a tls:// scheduler needs dask's "
                            f"TLS settings for a client, and {' and '.join(missing)} {verb} not set "
                            "(site/scale-out.md, 'Keeping a cluster private')")


def _ignore_sigint() -> None:
    """In a local worker: Ctrl-C is litrec's to handle (it stops the workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else many or one + 's'}"


def start_executor(spec: ExecutorSpec, n_points: int | None = None) -> Executor:
    """Start the spec's executor, with no more workers than `n_points`."""
    return open_executor(spec.kind, min(spec.workers, n_points or spec.workers), spec.scheduler)


def open_executor(kind: str, jobs: int, scheduler: str | None = None) -> Executor:
    """Start an executor of `kind` with `jobs` workers (ignored with a scheduler address)."""
    if kind == "local":
        return LocalExecutor(jobs)
    if kind == "dask":
        return DaskExecutor(jobs, scheduler)
    raise ExecutorError(f"unknown executor '{kind}'; choose one of {', '.join(EXECUTORS)}")
