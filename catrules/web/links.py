"""The pages' connections: each with its own bounded send queue, sender task and rate limit;
the :class:`Hub` that knows which pages watch which table.

Fairness: a table's changes are put in each page's queue without waiting for any page; each
page's sender task sends its queue in order.  A page that does not read falls behind: once its
queue holds :attr:`Limits.send_queue` messages, or one send takes longer than
:attr:`Limits.send_timeout`, it is dropped (closed with code 1008 and a reason, or cut when
even the close cannot be written) and never delays its table or another page.  A dropped page
reconnects and is sent the current state (play.js reconnects by itself).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Optional

from anyio import to_thread

from .guard import Limits

log = logging.getLogger("catrules.web")
#: The close code for a page that broke a limit (WebSocket "policy violation").
POLICY = 1008


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


class Conn:
    """One page's WebSocket: the seat it said hello as (once it has), its queue and its sender."""

    def __init__(self, ws, limits: Limits):
        self.ws, self.limits = ws, limits
        self.table, self.seat = None, None
        self.last = 0                           # the last event number sent
        self.queue: asyncio.Queue = asyncio.Queue(limits.send_queue)
        self.bucket = Bucket(limits.rate, limits.burst)
        self.build_lock = asyncio.Lock()        # messages built one at a time, queued in order
        self.dropped: Optional[str] = None      # why this page was dropped (or None)
        self.closing: Optional[asyncio.Task] = None
        self.sender = asyncio.create_task(self._send_all())

    def post(self, msg) -> None:
        """Queue a message (a dict, or JSON text) for this page, never waiting (a table's change:
        it waits for no page); a page whose queue is full is dropped."""
        if self.dropped is not None:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"))
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(f"your page fell {self.limits.send_queue} messages behind; reconnect for the current state")

    async def reply(self, msg) -> None:
        """Queue the answer to this page's own message: waits for room (a page that asks faster
        than it reads slows only itself), and drops the page if none comes in time."""
        if self.dropped is not None:
            return
        text = msg if isinstance(msg, str) else json.dumps(msg, separators=(",", ":"))
        try:
            await asyncio.wait_for(self.queue.put(text), self.limits.send_timeout)
        except asyncio.TimeoutError:
            self.drop(f"an answer waited over {self.limits.send_timeout:g} s for your page to read it")

    async def push(self) -> None:
        """Queue this seat's next state message (built in a worker thread: the table's lock may
        be held there by bots thinking, and the event loop must go on serving other tables)."""
        async with self.build_lock:
            if self.dropped is None:
                self.post(await to_thread.run_sync(self._build))

    def _build(self) -> str:
        msg, self.last = self.table.message(self.seat, self.last)
        return json.dumps(msg, separators=(",", ":"))

    async def _send_all(self) -> None:
        while True:
            text = await self.queue.get()
            try:
                await asyncio.wait_for(self.ws.send_text(text), self.limits.send_timeout)
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
        """When the page's connection ends: stop its sender, let its close complete."""
        self.sender.cancel()
        if self.closing is not None:
            await asyncio.gather(self.closing, return_exceptions=True)


class Hub:
    """The open connections of each table."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.conns: dict = {}

    def add(self, c: Conn) -> Optional[str]:
        """Count ``c`` among its table's pages; or why not (its seat has too many pages open)."""
        cap = self.limits.sockets_per_seat * (4 if c.seat is None else 1)
        same = [x for x in self.conns.get(c.table.id, ()) if x.seat == c.seat and x.dropped is None]
        if len(same) >= cap:
            who = "the spectators' link" if c.seat is None else "this seat"
            return f"{who} already has {cap} pages open: close one and reload"
        self.conns.setdefault(c.table.id, set()).add(c)
        return None

    def remove(self, c: Optional[Conn]) -> None:
        if c is not None and c.table is not None:
            pages = self.conns.get(c.table.id, set())
            pages.discard(c)
            if not pages:
                self.conns.pop(c.table.id, None)

    async def broadcast(self, table) -> None:
        """Queue the table's change for each of its pages (waiting for none of them to read it)."""
        for c in list(self.conns.get(table.id, ())):
            if c.dropped is not None:
                self.remove(c)
                continue
            try:
                await c.push()
            except Exception:
                log.exception("a message for a page could not be built")
                c.drop("the server could not build your page's message; reconnect", code=1011)
                self.remove(c)
