"""The bot pool: the bots of every web table decide here, off the request path, a bounded few at a time.

A page's answer is taken, stored and shown, and its request returns; the table's bots then
play on the pool.  Each table with a bot to move has one *job*, an asyncio task that asks for
one of the pool's ``workers`` places (an anyio :class:`~anyio.CapacityLimiter`, whose waiters
are served first come, first served), lets its bots make one decision (or a slice of cheap
ones, :meth:`~catrules.web.tables.WebTable.play_bots`) in a worker thread, gives the place
back, shows the change to the table's pages, and queues again at the back.  So:

* the bot work running at once is bounded (``workers`` threads; at most one job per table),
  whatever tables are made and whatever their seats ask for (each search is capped at the
  server's ``--max-bot-seconds``);
* tables take turns, one decision each per turn of the pool: a table of slow searching bots
  delays another table's bots by one decision at most per turn, never by its whole game;
* the event loop never runs a bot, so pages of every table are answered meanwhile (Python
  threads share one processor core for Python code: the point is responsiveness and bounds,
  not parallel speed).

Why asyncio tasks over anyio's threads rather than a ``ThreadPoolExecutor``: the limiter's
queue is fair and holds one waiter per table (an executor's queue is unbounded), the change is
shown to the pages on the event loop where the pages live, and the lifespan can cancel and
await every job when the server stops.

A job ends when no bot is due (a person must answer, or the game is over) and is started
again by the next answer (:meth:`BotPool.kick`).  :meth:`BotPool.cancel` (a table let go of
from memory or deleted) and :meth:`BotPool.close` (the server stopping) set the job's stop flag:
checked between decisions, and asked by a running search between its iterations, so the work
ends promptly; a decision cut short is not kept.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Awaitable, Callable, Optional

from anyio import CapacityLimiter, to_thread

from .links import Hub
from .store import StoreError
from .tables import BOT_SLICE

log = logging.getLogger("catrules.web")
#: Bot decisions running at once (``catrules serve --bot-workers``).
WORKERS = 2
#: How long the pool waits before trying a table whose change could not be saved again, and how often.
RETRY_SECONDS, RETRIES = 1.0, 5


class Job:
    """One table's turn-taking on the pool: its task and its stop flag."""

    def __init__(self, table):
        self.table = table
        self.stop = threading.Event()
        self.again = False              # kicked while running: look for bot work once more
        self.task: Optional[asyncio.Task] = None


class BotPool:
    """Runs the tables' bots on ``workers`` places; ``show(table)`` is awaited after each change,
    ``touch(table_id)`` told that the table is in use."""

    def __init__(self, workers: int = WORKERS, show: Optional[Callable[..., Awaitable]] = None,
                 touch: Optional[Callable] = None, slice_: float = BOT_SLICE):
        if not isinstance(workers, int) or workers < 1:
            raise ValueError(f"the bot pool needs at least one worker, not {workers!r}")
        self.workers, self.show, self.touch, self.slice = workers, show, touch, slice_
        self.limiter: Optional[CapacityLimiter] = None       # made on the event loop, when first needed
        self.jobs: dict = {}            # table id -> Job
        self.decisions = 0              # bot decisions made (for the tests and the curious)
        self.timers: dict = {}          # table id -> the task that ends its pause when its time is up
        self.closed = False

    def kick(self, table) -> None:
        """See that ``table``'s bots play if one is due (call on the event loop; never waits)."""
        if self.closed:
            return
        self.watch_pause(table)
        job = self.jobs.get(table.id)
        if job is not None and job.table is table and not job.stop.is_set():
            job.again = True
            return
        if table.state.finished:        # read without the lock (a bot may hold it): the job looks again
            return
        if self.limiter is None:
            self.limiter = CapacityLimiter(self.workers)
        job = self.jobs[table.id] = Job(table)
        job.task = asyncio.get_running_loop().create_task(self._run(job))

    def cancel(self, table_id: str) -> None:
        """Stop the work of a table that is gone (any thread): its search ends, nothing more is kept."""
        job = self.jobs.get(table_id)
        if job is not None:
            job.stop.set()
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.get_loop().call_soon_threadsafe(timer.cancel)

    def running(self, table_id: str) -> bool:
        """Whether a job of that table is still on the pool (running, or waiting for its turn)."""
        job = self.jobs.get(table_id)
        return job is not None and job.task is not None and not job.task.done()

    async def _run(self, job: Job) -> None:
        table, failures = job.table, 0
        try:
            while not job.stop.is_set():
                job.again = False
                try:
                    made, more = await to_thread.run_sync(table.play_bots, job.stop, self.slice,
                                                          limiter=self.limiter)
                except StoreError as exc:      # not saved, so not shown: the same decision is made again
                    failures += 1
                    log.warning("table %s: a bot's decision could not be saved (%s)", table.id, exc)
                    if failures > RETRIES:
                        return
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                except Exception:
                    log.exception("table %s: its bots stopped on a fault of the server", table.id)
                    return
                if made:
                    failures = 0
                    self.decisions += made
                    if self.touch is not None:
                        self.touch(table.id)
                    if self.show is not None:     # saved, so shown (even if the table is going)
                        await self.show(table)
                    self.watch_pause(table)       # a round ended: the table waits for its people
                if not (more or job.again):
                    return
        finally:
            if self.jobs.get(table.id) is job:
                del self.jobs[table.id]

    def watch_pause(self, table) -> None:
        """See that ``table``'s pause after a round's end (if any) ends when its time is up: one
        timer a table (call on the event loop; the people's ``continue`` may end it sooner)."""
        timer = self.timers.get(table.id)
        if self.closed or table.pause is None or (timer is not None and not timer.done()):
            return
        self.timers[table.id] = asyncio.get_running_loop().create_task(self._time_pause(table))

    async def _time_pause(self, table) -> None:
        try:
            while not self.closed:
                pause = table.pause         # read without the lock: pause_over looks again with it
                if pause is None:
                    return
                await asyncio.sleep(pause.left() + 0.01)
                try:
                    ended = await to_thread.run_sync(table.pause_over)
                except StoreError as exc:   # not saved: still paused, tried again
                    log.warning("table %s: the end of its pause could not be saved (%s)", table.id, exc)
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if ended:
                    if self.show is not None:
                        await self.show(table)
                    else:
                        table.shown = max(table.shown, table.changes)
                    self.kick(table)
        finally:
            if self.timers.get(table.id) is asyncio.current_task():
                del self.timers[table.id]

    async def close(self, timeout: float = 10.0) -> None:
        """Stop every job (the server is stopping) and wait for the searches under way to end."""
        self.closed = True
        for timer in self.timers.values():
            timer.cancel()
        jobs = list(self.jobs.values())
        for job in jobs:
            job.stop.set()
        tasks = [j.task for j in jobs if j.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)


class PlayHub(Hub):
    """The hub of a server with a bot pool: a change a page made (:meth:`broadcast`) and a page
    joining its table (:meth:`add`, e.g. after a restart) let the table's bots play on;
    :meth:`show` shows the pool's own changes."""

    def __init__(self, limits, pool: BotPool):
        super().__init__(limits)
        self.pool = pool
        pool.show = self.show

    def add(self, c) -> Optional[str]:
        why = super().add(c)
        if why is None:
            self.pool.kick(c.table)
        return why

    async def broadcast(self, table) -> None:
        await self.show(table)
        self.pool.kick(table)

    async def show(self, table) -> None:
        """Show the table's changes to its pages; then they count as shown (the bots may play on)."""
        changes = table.changes         # an int, read without the lock: the changes this showing holds
        try:
            await super().broadcast(table)
        finally:
            table.shown = max(table.shown, changes)
