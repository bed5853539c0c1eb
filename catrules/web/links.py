"""The pages' connections: each with its own bounded send queue, sender task and rate limit;
the :class:`Hub` that knows which pages watch which table.

Fairness: a table's changes are put in each page's queue without waiting for any page; each
page's sender task sends its queue in order.  A page that does not read falls behind: once its
queue holds :attr:`Limits.send_queue` messages, or one send takes longer than
:attr:`Limits.send_timeout`, it is dropped (closed with code 1008 and a reason, or cut when
even the close cannot be written) and never delays its table or another page.  A dropped page
reconnects and is sent the current state (play.js reconnects by itself).

The race clock (:class:`Clock`, docs/web.rst "Fairness of races"): the sender notes when each
decision's state (its ``ask``) was first written to this socket, and when each of the server's
pings was; a page that asked for pings in its ``hello`` answers each with a pong, which gives
this socket's round trip.  A race answer's time is measured here, never taken from the page.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import Optional

from anyio import to_thread

from ..frontends.race_clock import COUNT_IN  # noqa: F401  (read as links.COUNT_IN: the page counts in as long)
from . import protocol
from .guard import Limits

log = logging.getLogger("catrules.web")
#: The close code for a page that broke a limit (WebSocket "policy violation").
POLICY = 1008
#: Pings sent when a page says hello (one every :data:`PING_START_GAP` seconds), then one every
#: :data:`PING_EVERY` seconds; the round trip is the least of the last :data:`RTT_SAMPLES`,
#: and the correction for it is never more than :data:`RTT_CAP` seconds.
PINGS_AT_START = 3
PING_START_GAP = 0.3
PING_EVERY = 5.0
RTT_SAMPLES = 5
RTT_CAP = 0.3
#: Pings not answered yet kept per socket, and decisions whose first state's time is kept.
OUTSTANDING = 8
SHOWN_KEPT = 8
#: Seats whose latest decision's first showing the hub remembers (a few bytes each).
SEATS_KEPT = 20000


async def _within(coro, seconds: float):
    """``await coro``, or :class:`asyncio.TimeoutError` after ``seconds``: a deadline on the
    running task (``asyncio.timeout``, Python 3.11+) where there is one, as no task is made for
    each message then; else ``asyncio.wait_for``."""
    timeout = getattr(asyncio, "timeout", None)
    if timeout is None:             # pragma: no cover - Python 3.10
        return await asyncio.wait_for(coro, seconds)
    async with timeout(seconds):
        return await coro


class Bucket:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def give_back(self) -> None:
        """Return the token of a message that turned out to be an answer the table took."""
        self.tokens = min(self.burst, self.tokens + 1)


class Clock:
    """One socket's race clock: when each decision's state was first written to it, its pings
    and their pongs, and what it measures a race answer's time to be.  Times are the server's
    ``time.monotonic()``."""

    def __init__(self):
        self.shown: dict = {}           # ask -> when its first state was written to this socket
        self.seat = [-1, 0.0]           # [ask, when] first written to any page of this seat (Hub.add shares it)
        self.pings: dict = {}           # n -> when that ping was written (None: still queued)
        self.rtts: deque = deque(maxlen=RTT_SAMPLES)
        self.k = 0

    def ping(self) -> dict:
        """A new ping message (kept as outstanding until its pong comes)."""
        self.k += 1
        self.pings[self.k] = None
        while len(self.pings) > OUTSTANDING:
            del self.pings[next(iter(self.pings))]
        return protocol.ping(self.k)

    def written(self, tag, now: float) -> None:
        """A message tagged ``("ask", n)`` or ``("ping", n)`` (or ``None``) was written at ``now``."""
        if tag is None:
            return
        kind, n = tag
        if kind == "ask" and n not in self.shown:
            self.shown[n] = now
            while len(self.shown) > SHOWN_KEPT:
                del self.shown[next(iter(self.shown))]
            if n > self.seat[0] or (n == self.seat[0] and now < self.seat[1]):
                self.seat[:] = [n, now]
        elif kind == "ping" and n in self.pings:
            self.pings[n] = now

    def pong(self, n, now: float) -> bool:
        """A pong arrived at ``now``: whether it answered a ping written to this socket (it then
        gives a round trip); any other pong is ignored."""
        at = self.pings.get(n)
        if at is None:
            return False
        del self.pings[n]
        self.rtts.append(max(0.0, now - at))
        return True

    def rtt(self) -> float:
        """The round trip taken off a race time: the least of the last few (a pong delayed by the
        page being busy does not count), at most :data:`RTT_CAP`; 0 with none measured."""
        return min(RTT_CAP, min(self.rtts, default=0.0))

    def race_time(self, ask, now: float) -> Optional[float]:
        """Seconds from when decision ``ask``'s state was written to this socket (or earlier to
        another page of its seat: a page opened late gains nothing) and the count-in after it
        (:data:`COUNT_IN`: the page shows the options then) to ``now``, less this socket's
        round trip, never below 0; ``None`` if this socket was never sent that state.  An answer
        that came before the count-in was over (before a page shows the options: a program that
        answers at once) is a false start: its time is the whole count-in."""
        at = self.shown.get(ask)
        if at is None:
            return None
        if self.seat[0] == ask:
            at = min(at, self.seat[1])
        start = at + COUNT_IN
        if now < start:
            return COUNT_IN
        return max(0.0, now - start - self.rtt())


class Conn:
    """One page's WebSocket: the seat it said hello as (once it has), its queue and its sender."""

    def __init__(self, ws, limits: Limits):
        self.ws, self.limits = ws, limits
        self.table, self.seat = None, None
        self.last = 0                           # the last event number sent
        self.version = None                     # the table's version last sent (each is sent once)
        self.queue: asyncio.Queue = asyncio.Queue(limits.send_queue)
        self.bucket = Bucket(limits.rate, limits.burst)
        self.build_lock = asyncio.Lock()        # messages built one at a time, queued in order
        self.dropped: Optional[str] = None      # why this page was dropped (or None)
        self.closing: Optional[asyncio.Task] = None
        self.clock = Clock()
        self.greeting = False                   # a hello is being checked (the hello timeout waits)
        self.pinger: Optional[asyncio.Task] = None
        self.sender = asyncio.create_task(self._send_all())
        self.watch = asyncio.create_task(self._hello_watch())

    def post(self, msg, tag=None) -> None:
        """Queue a message (a dict, or JSON text) for this page, never waiting (a table's change:
        it waits for no page); a page whose queue is full is dropped.  ``tag``: what the
        :class:`Clock` notes when it is written."""
        if self.dropped is not None:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"))
        try:
            self.queue.put_nowait((text, tag))
        except asyncio.QueueFull:
            self.drop(f"your page fell {self.limits.send_queue} messages behind; reconnect for the current state")

    async def reply(self, msg) -> None:
        """Queue the answer to this page's own message: waits for room (a page that asks faster
        than it reads slows only itself), and drops the page if none comes in time."""
        if self.dropped is not None:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"))
        try:
            await asyncio.wait_for(self.queue.put((text, None)), self.limits.send_timeout)
        except asyncio.TimeoutError:
            self.drop(f"an answer waited over {self.limits.send_timeout:g} s for your page to read it")

    async def push(self, built: Optional[dict] = None) -> None:
        """Queue this seat's next state message; nothing if this page was already sent the
        table as it is now.  It is built at once when the table's lock is free, else in a worker
        thread (bots may be thinking there with it held, and the event loop must go on serving
        other tables).  ``built``: messages built for the other pages of one change, by (seat,
        last event sent, version): a page of the same seat that was sent as much is sent the same
        text, serialized once."""
        async with self.build_lock:
            if self.dropped is None:
                got = self._build_now(built)
                if got is False:
                    got = await to_thread.run_sync(self._build, built)
                if got is not None:
                    self.post(*got)

    def _build_now(self, built: Optional[dict]):
        """The message built here and now if the table's lock is free (no hop to a thread),
        else ``False``."""
        lock = self.table.lock
        if not lock.acquire(blocking=False):
            return False
        try:
            return self._build_locked(built)
        finally:
            lock.release()

    def _build(self, built: Optional[dict] = None) -> Optional[tuple]:
        with self.table.lock:           # the version and the message read at once
            return self._build_locked(built)

    def _build_locked(self, built: Optional[dict]) -> Optional[tuple]:
        """``(text, tag)`` of the message for the table as it is, or ``None`` if this page was
        sent that version already.  Two showings may both hold a change (a page's hello and the
        bots' showing that began as it joined): each page is sent each version once, so the state
        it is sent after its own answer is always one holding that answer."""
        version = self.table.version
        if version == self.version:
            return None
        key = (self.seat, self.last, version)
        got = built.get(key) if built is not None else None
        if got is None:
            msg, last = self.table.message(self.seat, self.last)
            # a paused table's state holds no decision: a race's clock starts with the state after the pause
            tag = ("ask", msg["ask"]) if msg.get("type") == "state" and "pause" not in msg else None
            got = (json.dumps(msg, separators=(",", ":")), tag, last)
            if built is not None:
                built[key] = got
        text, tag, self.last = got
        self.version = version
        return text, tag

    def start_clock(self) -> None:
        """Ping this page (it asked for pings in its hello): a few now, then every few seconds."""
        if self.pinger is None and self.dropped is None:
            self.pinger = asyncio.create_task(self._ping_all())

    async def _ping_all(self) -> None:
        for i in range(PINGS_AT_START):
            self._ping()
            await asyncio.sleep(PING_START_GAP)
        while self.dropped is None:
            await asyncio.sleep(PING_EVERY)
            self._ping()

    def _ping(self) -> None:
        msg = self.clock.ping()
        self.post(msg, ("ping", msg["n"]))

    async def _hello_watch(self) -> None:
        """Close this page if it has not said a valid hello within :attr:`Limits.hello_timeout`."""
        await asyncio.sleep(self.limits.hello_timeout)
        while self.greeting:
            await asyncio.sleep(0.1)
        if self.table is None:
            self.drop(f"no valid hello within {self.limits.hello_timeout:g} s: a page says hello with "
                      f"its link's token first")

    async def _send_all(self) -> None:
        while True:
            text, tag = await self.queue.get()
            # noted as it is handed to the socket: its answer may be read before this task runs again
            self.clock.written(tag, time.monotonic())
            try:
                await _within(self.ws.send_text(text), self.limits.send_timeout)
            except asyncio.TimeoutError:
                self.drop(f"a message waited over {self.limits.send_timeout:g} s for your page to read it")
                return
            except Exception:           # the page went away (WebSocketDisconnect, OSError...)
                self.dropped = self.dropped or "gone"
                return

    def drop(self, reason: str, code: int = POLICY) -> None:
        """Close this page's connection with ``reason`` (in the background: never waits)."""
        if self.dropped is not None:
            return
        self.dropped = reason
        log.info("a page was dropped: %s", reason)
        if asyncio.current_task() is not self.sender:
            self.sender.cancel()
        self.closing = asyncio.create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        try:
            await asyncio.wait_for(self.ws.close(code, reason[:120]), self.limits.close_timeout)
            return
        except asyncio.TimeoutError:
            pass                        # the page reads nothing, not even a close
        except Exception:
            return                      # already gone
        abort = self.ws.scope.get("catrules.abort")
        if abort is not None:
            abort()

    async def finish(self) -> None:
        """When the page's connection ends: stop its sender and timers, let its close complete."""
        for task in (self.sender, self.watch, self.pinger):
            if task is not None:
                task.cancel()
        if self.closing is not None:
            await asyncio.gather(self.closing, return_exceptions=True)


class Hub:
    """The open connections of each table."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.conns: dict = {}
        #: (table id, seat) -> [ask, when]: each seat's latest decision and when its state was first
        #: written to one of its pages (shared by their clocks; kept for the latest SEATS_KEPT seats).
        self.first: dict = {}

    def add(self, c: Conn) -> Optional[str]:
        """Count ``c`` among its table's pages; or why not (its seat has too many pages open)."""
        cap = self.limits.sockets_per_seat * (4 if c.seat is None else 1)
        same = [x for x in self.conns.get(c.table.id, ()) if x.seat == c.seat and x.dropped is None]
        if len(same) >= cap:
            who = "the spectators' link" if c.seat is None else "this seat"
            return f"{who} already has {cap} pages open: close one and reload"
        self.conns.setdefault(c.table.id, set()).add(c)
        if c.seat is not None:
            key = (c.table.id, c.seat)
            c.clock.seat = self.first.pop(key, None) or [-1, 0.0]
            self.first[key] = c.clock.seat
            while len(self.first) > SEATS_KEPT:
                del self.first[next(iter(self.first))]
        return None

    def remove(self, c: Optional[Conn]) -> None:
        if c is not None and c.table is not None:
            pages = self.conns.get(c.table.id, set())
            pages.discard(c)
            if not pages:
                self.conns.pop(c.table.id, None)

    async def broadcast(self, table) -> None:
        """Queue the table's change for each of its pages (waiting for none of them to read it)."""
        built: dict = {}
        for c in list(self.conns.get(table.id, ())):
            if c.dropped is not None:
                self.remove(c)
                continue
            try:
                await c.push(built)
            except Exception:
                log.exception("a message for a page could not be built")
                c.drop("the server could not build your page's message; reconnect", code=1011)
                self.remove(c)
