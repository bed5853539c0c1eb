"""Run many independent games on many cores or on a Dask cluster, results in game order.

:func:`map_in_order` applies a picklable function to a list of items (one
item per game: a game number, a seed...) and yields the results in the order
of the items, whether it runs here (``jobs=1``), on a pool of ``jobs``
processes, or on a Dask distributed cluster (``cluster="tcp://host:8786"``).
Items go out in chunks; a chunk reports progress when it is done, and a
caller that merges the results in order gets the same answer for every
number of workers.  An exception in a worker comes back as a
:class:`WorkerError` naming the item and saying what went wrong in words,
never as a pickled traceback.

Workers never read game files: :class:`GameText` carries a game file and the
base files of a variant as text, and a worker process loads each game once
(cached by its text), not once per game.

The pool uses the ``spawn`` start method on every platform: ``fork`` would
copy the threads of the parent (a progress bar, Dask's event loop) into the
children, which can deadlock, and ``spawn`` behaves the same on Linux, macOS
and Windows.  Its cost, importing catrules once per worker, is paid once per
simulation.  Dask rather than Ray for clusters: Dask distributed is pure
Python and a small pip install, ``LocalCluster`` lets the tests start a real
two-worker cluster in a second, and ``dask scheduler`` / ``dask worker`` start
a real one; Ray's wheel is large and brings its own runtime.
"""

from __future__ import annotations

import gc
import math
import os
import signal
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Optional, Sequence

from ..errors import CatrulesError, GameFileError, RulesError

#: Most items per chunk: small enough for a progress bar that moves, large enough that
#: sending a chunk costs little next to playing it.
CHUNK_MAX = 100
#: Chunks per worker of the remaining items (so that a slow chunk does not leave a core idle).
CHUNKS_PER_WORKER = 4
#: Games a worker process keeps loaded (each simulation uses one; a balance run a few).
CACHE_SIZE = 4
CLUSTER_HINT = "install Dask distributed with: pip install 'catrules[cluster]'"


class ParallelError(CatrulesError):
    """The pool or the cluster could not run the work (no Dask, no scheduler, a worker died)."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class WorkerError(CatrulesError):
    """The function failed on one item: ``index`` (in the items), ``message`` and ``hint`` in words."""

    def __init__(self, index: int, message: str, hint: str = ""):
        super().__init__(message)
        self.index = index
        self.message = message
        self.hint = hint

    def __reduce__(self):
        return (WorkerError, (self.index, self.message, self.hint))


def cores() -> int:
    """The cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:              # not on Linux
        return max(1, os.cpu_count() or 1)


def resolve_jobs(jobs: int) -> int:
    """``jobs`` processes, 0 meaning every core."""
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise ValueError(f"the number of jobs must be a whole number of at least 0 (0 = every core), not {jobs!r}")
    return jobs or cores()


def describe(exc: BaseException) -> tuple:
    """``(message, hint)`` of an exception, as a user should read it."""
    if isinstance(exc, RulesError):
        where = f"{exc.path}:{exc.line}: " if exc.path and exc.line else (f"line {exc.line}: " if exc.line else "")
        return where + exc.message, exc.hint or "this is a problem in the game file"
    if isinstance(exc, GameFileError):
        return str(exc), "fix the game file, then `catrules check` it"
    if isinstance(exc, CatrulesError):
        return str(exc), ""
    return (f"{type(exc).__name__}: {exc}",
            "this is a bug in catrules; please report it with the game file, its options and the seed")


# ------------------------------------------------------------------ games as text

@dataclass(frozen=True)
class GameText:
    """A game as text: what a worker needs to load it without reading a file.

    ``files`` holds ``(relative path, text)`` for the game file (first) and every base
    file of a variant, placed relative to one another as on the disk they came from."""
    path: str                           # the game file as it was named (the loaded game's path)
    files: tuple

    @classmethod
    def of(cls, game) -> "GameText":
        """The text of a loaded :class:`~catrules.api.Game` (and of its base files)."""
        tree = game.checked.game
        path = str(game.path)
        if not tree.sources:            # no base file: the text alone is the game
            text = cls(path, ((path, tree.source),))
        else:
            named = [(path, tree.source)] + sorted(tree.sources.items())
            real = [os.path.realpath(p) for p, _ in named]
            top = os.path.commonpath([os.path.dirname(r) for r in real])
            text = cls(path, tuple((os.path.relpath(r, top), t) for r, (_, t) in zip(real, named)))
        _remember(text, game)           # this process has it loaded already
        return text

    def load(self):
        """The game, loaded once per process."""
        game = _CACHE.get(self)
        if game is None:
            game = self._load()
            _remember(self, game)
            if _OWN_WORKER:
                # the game lives as long as the worker: the collector need not look at it again
                # for each of the games' many short-lived objects (as `catrules simulate` does)
                gc.freeze()
        return game

    def _load(self):
        from ..api import load_game, load_source
        if len(self.files) == 1:
            return load_source(self.files[0][1], self.path)
        # a variant reads its base files from the disk: give it a private copy of them
        with tempfile.TemporaryDirectory(prefix="catrules-") as tmp:
            for rel, text in self.files:
                f = Path(tmp, rel)
                f.parent.mkdir(parents=True, exist_ok=True)
                f.write_text(text, encoding="utf-8")
            game = load_game(Path(tmp, self.files[0][0]))
        game.path = self.path       # as it was named: logs and errors say so
        return game


_CACHE: dict = {}


def _remember(text: GameText, game) -> None:
    if text not in _CACHE and len(_CACHE) >= CACHE_SIZE:
        _CACHE.pop(next(iter(_CACHE)))
    _CACHE[text] = game


# ------------------------------------------------------------------ mapping

def chunks_of(items: int, workers: int) -> list:
    """``(start, stop)`` of each chunk: smaller and smaller towards the end (as remaining work
    / (workers * CHUNKS_PER_WORKER)), so that the workers finish at nearly the same time."""
    out, a = [], 0
    while a < items:
        size = max(1, min(CHUNK_MAX, math.ceil((items - a) / (workers * CHUNKS_PER_WORKER))))
        out.append((a, min(items, a + size)))
        a += size
    return out


def run_chunk(fn: Callable, start: int, items: Sequence) -> tuple:
    """Apply ``fn`` to ``items`` (the first is item ``start``), in a worker.

    Returns ``(results, failure)``: the results before the first failing item, and
    ``None`` or a :class:`WorkerError` for that item."""
    out = []
    for k, item in enumerate(items):
        try:
            out.append(fn(item))
        except Exception as exc:        # noqa: BLE001 - every failure goes back as words
            return out, WorkerError(start + k, *describe(exc))
    return out, None


def map_in_order(fn: Callable, items: Sequence, jobs: int = 1, cluster: Optional[str] = None,
                 progress: Optional[Callable[[int], None]] = None) -> Iterator:
    """Yield ``fn(item)`` for each item, in the order of ``items``.

    ``jobs=1`` runs here, ``jobs=N`` on N processes (0 = every core), ``cluster`` (an address
    such as ``tcp://127.0.0.1:8786``) on a Dask scheduler.  ``fn`` must be picklable for a
    pool or a cluster (a module-level function, or an instance of a module-level class).
    ``progress(done)`` is told how many items are done, as chunks finish.  A failing item
    raises :class:`WorkerError` once every item before it has been yielded; the same item
    fails first for every number of workers."""
    items = list(items)
    workers = resolve_jobs(jobs)
    if cluster is None and workers == 1:
        for k, item in enumerate(items):
            results, failure = run_chunk(fn, k, [item])
            if failure is not None:
                raise failure
            if progress is not None:
                progress(k + 1)
            yield results[0]
        return
    if not items:
        return
    # a cluster's size is unknown here: chunks for 8 workers keep a few machines busy
    chunks = [(a, items[a:b]) for a, b in chunks_of(len(items), workers if cluster is None else max(workers, 8))]
    runner = _dask_chunks if cluster is not None else _pool_chunks
    yield from _in_order(runner(fn, chunks, cluster if cluster is not None else workers), chunks, progress)


def _in_order(finished: Iterator, chunks: list, progress) -> Iterator:
    """Chunks arrive as they finish, ``(k, (results, failure))``; yield their results in order."""
    done_items = 0
    waiting: dict = {}
    k_next = 0
    try:
        for k, outcome in finished:
            waiting[k] = outcome
            done_items += len(chunks[k][1])
            if progress is not None:
                progress(done_items)
            while k_next in waiting:
                results, failure = waiting.pop(k_next)
                yield from results
                if failure is not None:
                    raise failure
                k_next += 1
    finally:
        finished.close()                # stops the workers when this ends early


def _quiet_worker() -> None:
    # Ctrl-C reaches every process of the terminal: the parent alone decides to stop
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    global _OWN_WORKER
    _OWN_WORKER = True


#: True in a worker process of this module's own pool (not in a cluster's workers).
_OWN_WORKER = False


def _pool_chunks(fn, chunks: list, workers: int) -> Iterator:
    """Chunks played by ``workers - 1`` processes and by this one, which needs no start-up.

    This process takes the next chunk whenever no finished chunk waits; when only chunks given
    to the pool are left, it plays the earliest of them too, and the copy that ends first
    counts (a chunk always gives the same result).  So a pool that is slow to start, on a
    busy machine, never makes the simulation slower than one process."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool
    helpers = max(1, workers - 1)
    pool = ProcessPoolExecutor(max_workers=helpers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_quiet_worker)
    queue = deque(range(len(chunks)))
    needed = set(range(len(chunks)))        # less after a failure: nothing after it is needed
    yielded: set = set()
    pending: dict = {}
    clean = False
    try:
        while needed - yielded:
            while len(queue) > 1 and len(pending) < 2 * helpers:   # one chunk queued behind each running one
                k = queue.popleft()
                pending[pool.submit(run_chunk, fn, *chunks[k])] = k
            done = [f for f in pending if f.done()]
            if done:
                f = min(done, key=pending.get)
                k = pending.pop(f)
                if k in yielded or k not in needed:         # played here meanwhile, or not needed
                    continue
                try:
                    outcome = f.result()
                except BrokenProcessPool:
                    raise ParallelError("a worker process stopped without finishing its games",
                                        "it may have run out of memory: try fewer --jobs") from None
                except Exception as exc:        # noqa: BLE001 - e.g. a function that cannot be pickled
                    raise ParallelError(f"a worker process could not run the games: {type(exc).__name__}: {exc}",
                                        "the function must be picklable: defined at the top of a module") from None
            else:
                k = queue.popleft() if queue else min(j for j in pending.values() if j in needed and j not in yielded)
                outcome = run_chunk(fn, *chunks[k])
            if outcome[1] is not None:
                needed = {j for j in needed if j <= k}
                queue = deque(j for j in queue if j < k)
            yielded.add(k)
            yield k, outcome
        clean = not pending
    finally:
        if clean:
            pool.shutdown(wait=True)
        else:                       # interrupted, a failure, or copies still running: stop now
            _stop_pool(pool)


def _stop_pool(pool) -> None:
    """Stop a process pool now, its running chunks with it.

    The pool has no public way to stop a running chunk: its processes are ended, then it is
    left to notice (waiting for them could take minutes).  No future is cancelled first:
    Python 3.11's pool fails on a cancelled future when it finds its processes gone.  A process
    ended while it was sending a result leaves half a message in the pool's result pipe, and
    the pool's own thread would wait for the rest for ever (this process holds a writing end
    of that pipe too): that end is closed once the processes are gone, so the wait ends."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(5)
    writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
    if writer is not None and not any(p.is_alive() for p in procs):
        try:
            writer.close()
        except OSError:
            pass
    pool.shutdown(wait=True)


def _dask_chunks(fn, chunks: list, address: str) -> Iterator:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ParallelError("running on a cluster needs Dask distributed, which is not installed",
                            CLUSTER_HINT) from None
    try:
        client = Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise ParallelError(f"cannot reach the Dask scheduler at {address}: {exc}",
                            "start one with `dask scheduler` and workers with `dask worker ADDRESS`; "
                            "give the address it prints (tcp://HOST:8786)") from None
    futures = {}
    try:
        for k, (a, part) in enumerate(chunks):
            futures[client.submit(run_chunk, fn, a, part, pure=False)] = k
        for f in as_completed(list(futures)):
            k = futures[f]
            try:
                outcome = f.result()
            except Exception as exc:                # noqa: BLE001 - the worker could not even run it
                raise ParallelError(f"a cluster worker could not run the games: {type(exc).__name__}: {exc}",
                                    "every worker needs the same version of catrules installed") from None
            yield k, outcome
    finally:
        client.cancel(list(futures))
        client.close()
