"""The web server: a Starlette app with the lobby, the table page, and one WebSocket per page.

Routes: ``/`` the lobby, ``/play`` the table page (a seat's token travels in the link's
``#fragment``, which browsers never send, so it never shows in a server's access log),
``/static/...`` the page's own scripts and styles (nothing is loaded from elsewhere),
``/api/games`` and ``/api/tables`` for the lobby, ``/ws`` for play.  Each connection is
sent only its seat's view and events (:meth:`WebTable.message`); whatever a page sends is
checked (:func:`catrules.web.protocol.read_message`, :meth:`WebTable.answer`) and refused
with an error that changes nothing.  The edge (hosts, origins, sizes, headers) is
:mod:`catrules.web.guard`; each page's queue and rate limit, :mod:`catrules.web.links`; the
bots, on a bounded pool off the request path, :mod:`catrules.web.workers`.  Tables are made
at a bounded rate per client address (a token bucket: 429 with ``Retry-After`` beyond it).
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from pathlib import Path
from typing import Optional

from anyio import to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..play.strict_json import BadJSON, read_json
from . import protocol
from .guard import HEADERS, Guard, Limits  # noqa: F401  (HEADERS: for those who import it from here)
from .links import POLICY, Bucket, Conn, Hub
from .pauses import ROUND_PAUSE
from .store import Store, StoreError
from .registry import EXPIRE_DAYS, Registry
from .tables import MAX_BOT_SECONDS, WebError
from .workers import WORKERS, BotPool, PlayHub

log = logging.getLogger("catrules.web")
STATIC = Path(__file__).resolve().parent / "static"
#: The JSON types of what a table's description may hold (the values are checked by the registry).
SPEC_TYPES = {"game": (str,), "players": (int,), "options": (list,), "seats": (list,), "seed": (int, str, type(None))}
#: Tables one client address may make a minute, and at once (``catrules serve --tables-per-minute``).
TABLES_PER_MINUTE, TABLE_BURST = 10.0, 5
#: Client addresses whose buckets are kept before the full ones are forgotten.
KEEP_CLIENTS = 10_000


def spec_refusal(spec) -> Optional[str]:
    """Why a table's description has the wrong shape (a list for a name, objects in a list), or ``None``."""
    if not isinstance(spec, dict):
        return "a table is described by a JSON object"
    for key, types in SPEC_TYPES.items():
        v = spec.get(key)
        if key in spec and (not isinstance(v, types) or isinstance(v, bool)):
            return f"{key!r} has the wrong type ({type(v).__name__})"
        if isinstance(v, list) and not all(isinstance(x, str) for x in v):
            return f"{key!r} is a list of names"
    return None


class TableRate:
    """Tables made per client address: a token bucket each (``per_minute`` on average, ``burst``
    at once); a table that is not made gives its token back."""

    def __init__(self, per_minute: float = TABLES_PER_MINUTE, burst: int = TABLE_BURST):
        self.per_minute, self.burst = per_minute, burst
        self.buckets: dict = {}

    def take(self, client: str) -> Optional[int]:
        """``None`` if ``client`` may make a table now (its token taken), else the seconds to wait."""
        rate = self.per_minute / 60.0
        b = self.buckets.get(client)
        if b is None:
            if len(self.buckets) >= KEEP_CLIENTS:
                self._forget(rate)
            b = self.buckets[client] = Bucket(rate, self.burst)
        if b.take():
            return None
        return max(1, math.ceil((1 - b.tokens) / rate))

    def give_back(self, client: str) -> None:
        b = self.buckets.get(client)
        if b is not None:
            b.give_back()

    def _forget(self, rate: float) -> None:
        now = time.monotonic()
        for k, b in list(self.buckets.items()):
            if b.tokens + (now - b.at) * rate >= b.burst:
                del self.buckets[k]


def create_app(game_files: list, data_dir: str | Path, limits: Optional[Limits] = None,
               expire_days: float = EXPIRE_DAYS, max_bot_seconds: float = MAX_BOT_SECONDS,
               bot_workers: int = WORKERS, tables_per_minute: Optional[float] = None,
               table_burst: int = TABLE_BURST, round_pause: float = ROUND_PAUSE) -> Starlette:
    """The app serving ``game_files``, keeping its tables in ``data_dir/tables.sqlite3`` (locked
    until the app shuts down: :class:`~catrules.web.store.StoreError` if another holds it), within
    ``limits``; its bots think ``max_bot_seconds`` a decision at most, ``bot_workers`` decisions at
    once; a client address makes ``tables_per_minute`` tables a minute (``table_burst`` at once;
    ``None``: no limit, for programs that make many tables themselves; :func:`serve`, as
    ``catrules serve``, limits to :data:`TABLES_PER_MINUTE` unless told otherwise); a round's end
    waits ``round_pause`` seconds at most for a table's people to continue (0: never waits)."""
    limits = limits or Limits()
    store = Store(Path(data_dir) / "tables.sqlite3")
    registry = Registry(store, [str(p) for p in game_files], expire_days=expire_days,
                        max_bot_seconds=max_bot_seconds, round_pause=round_pause)
    pool = BotPool(bot_workers, touch=registry.touch)
    registry.on_release = pool.cancel
    hub = PlayHub(limits, pool)
    rate = TableRate(tables_per_minute, table_burst) if tables_per_minute else None

    def page(name: str):
        async def endpoint(request: Request):
            return FileResponse(STATIC / name)
        return endpoint

    async def games(request: Request):
        return JSONResponse(registry.game_list())

    routes = [Route("/", page("index.html")), Route("/play", page("play.html")),
              Route("/api/games", games),
              Route("/api/tables", _table_maker(registry, pool, rate), methods=["POST"]),
              WebSocketRoute("/ws", _player_socket(limits, registry, hub)),
              Mount("/static", StaticFiles(directory=STATIC), name="static")]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        await pool.close()      # every search ends at its next iteration; nothing after is saved
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    inner = app.build_middleware_stack
    app.build_middleware_stack = lambda: Guard(inner(), limits)    # outermost: even a 500 gets the headers
    app.state.registry = registry
    app.state.hub = hub
    app.state.pool = pool
    app.state.store = store
    app.state.limits = limits
    return app


def _table_maker(registry, pool, rate):
    """The endpoint that makes a table from the lobby's request (``rate`` limits a client
    address; ``None``: no limit)."""

    async def new_table(request: Request):
        client = request.client.host if request.client else "?"
        wait = rate.take(client) if rate is not None else None
        if wait is not None:
            return JSONResponse({"error": f"too many new tables from your address: at most {rate.per_minute:g} a "
                                          f"minute ({rate.burst} at once); try again in {wait} s"},
                                status_code=429, headers={"Retry-After": str(wait)})
        try:
            spec = read_json(await request.body())      # the body's size is capped by the Guard
        except BadJSON as exc:
            return _refused(client, f"the request is not valid JSON: {exc.why}")
        why = spec_refusal(spec)
        if why is not None:
            return _refused(client, why)
        try:
            made = await to_thread.run_sync(registry.create, spec)
        except WebError as exc:
            return _refused(client, str(exc))
        except StoreError as exc:   # not stored, so not made: the lobby may ask again
            return _refused(client, str(exc), 503)
        table = registry.held(made["table"])
        if table is not None:       # no page has it yet: nothing to show
            table.shown = max(table.shown, table.changes)
            pool.kick(table)        # its bots play in the background: the links go back at once
        return JSONResponse(made)

    def _refused(client: str, why: str, status: int = 400) -> JSONResponse:
        if rate is not None:
            rate.give_back(client)  # a table not made is not counted
        return JSONResponse({"error": why}, status_code=status)

    return new_table


def _player_socket(limits, registry, hub):
    """The endpoint of a page's WebSocket: its messages, within ``limits``, to the tables."""

    async def play(ws: WebSocket):
        await ws.accept()
        conn = Conn(ws, limits)
        try:
            while conn.dropped is None:
                got = await ws.receive()
                if got["type"] == "websocket.disconnect":
                    break
                if not conn.bucket.take():
                    conn.drop(f"too many messages: at most {limits.rate:g} a second")
                    break
                if await _on_message(conn, got.get("text"), registry, hub):
                    conn.bucket.give_back()     # an answer the table took: a game's pace is not a flood
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(conn)
            await conn.finish()

    return play


async def _act(conn, hub, work, *args) -> bool:
    """Run a page's move on the table (off the event loop); tell the page why it was refused, or
    show the table to everyone.  A move the store could not keep is refused: the page may send
    it again."""
    try:
        why = await to_thread.run_sync(work, *args)
    except StoreError as exc:
        why = str(exc)
    if why is not None:
        await conn.reply(protocol.error(why))
        return False
    await hub.broadcast(conn.table)
    return True

async def _on_message(conn: Conn, text, registry: Registry, hub: Hub) -> bool:
    """One message of a page (``text`` is ``None`` for a binary frame); whether it was an
    answer the table took (or a pong answering a ping: neither counts against the rate)."""
    arrived = time.monotonic()          # a race's answer is timed by the server (links.Clock)
    try:
        msg = protocol.read_message(text)
    except protocol.Refused as exc:
        return await conn.reply(protocol.error(str(exc)))
    kind = msg["type"]
    if kind == "pong":
        return conn.clock.pong(msg["n"], arrived)
    if kind == "hello":
        if conn.table is not None:
            return await conn.reply(protocol.error("this connection already belongs to a seat"))
        try:
            conn.greeting = True
            conn.table, conn.seat = await to_thread.run_sync(registry.by_token, msg["token"])
        except WebError as exc:
            return await conn.reply(protocol.error(str(exc)))
        finally:
            conn.greeting = False
        why = hub.add(conn)
        if why is not None:
            conn.table = None
            return conn.drop(why, POLICY)
        if msg.get("pings") and conn.seat is not None:
            conn.start_clock()
        await conn.push()
    elif conn.table is None:
        await conn.reply(protocol.error("send hello with your link's token first"))
    elif kind == "choose":
        return await _act(conn, hub, conn.table.answer, conn.seat, msg, conn.clock.race_time(msg["ask"], arrived))
    elif kind == "continue":        # a round's end read: the table goes on once everyone has
        return await _act(conn, hub, conn.table.go_on, conn.seat, msg.get("ask"))
    elif kind == "log":
        lines = await to_thread.run_sync(conn.table.log_lines, conn.seat)
        await conn.reply({"type": "log", "lines": lines})
    return False


def uvicorn_config(app: Starlette, host: str = "127.0.0.1", port: int = 8000, **kw):
    """The uvicorn configuration that enforces ``app``'s limits as the server reads: WebSocket
    messages over :attr:`Limits.message` bytes are refused before they are buffered."""
    import uvicorn
    limits = app.state.limits
    # no per-message compression: the messages are small, and deflating them was an eighth of the
    # server's processor time under load (benchmarks/web_load.py)
    return uvicorn.Config(app, host=host, port=port, ws="websockets-sansio", ws_max_size=limits.message,
                          ws_per_message_deflate=False,
                          ws_ping_interval=20.0, ws_ping_timeout=20.0, **kw)


def limit_malloc_arenas(arenas: int = 2) -> bool:
    """Ask the C library (glibc) for at most ``arenas`` memory arenas; whether it agreed.

    Each thread of the server (the bot pool, the request threads) would otherwise get an arena
    of its own, and memory freed in one is not reused by another: the server grew by about
    100 kB per finished game, against under 2 kB with two arenas (benchmarks/web_load.py with
    ``--server-arg=--expire-days=0.0001``, docs/web.rst).  Elsewhere than glibc it does nothing."""
    import ctypes
    import ctypes.util
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        return bool(libc.mallopt(-8, arenas))          # M_ARENA_MAX
    except (OSError, AttributeError):
        return False


def serve(game_files: list, host: str = "127.0.0.1", port: int = 8000, data_dir: str | Path = ".catrules-web",
          echo=print, limits: Optional[Limits] = None, expire_days: float = EXPIRE_DAYS, **bots) -> None:
    """Run the server until Ctrl-C (uvicorn); prints the address.  ``bots``: :func:`create_app`'s
    ``max_bot_seconds``, ``bot_workers``, ``tables_per_minute``, ``table_burst``, ``round_pause``."""
    import uvicorn
    limit_malloc_arenas()
    bots.setdefault("tables_per_minute", TABLES_PER_MINUTE)
    app = create_app(game_files, data_dir, (limits or Limits()).with_host(host), expire_days=expire_days, **bots)
    n = len(app.state.registry.games)
    echo(f"catrules web tables: http://{host}:{port}/  ({n} game{'s' if n != 1 else ''}; tables kept in "
         f"{Path(data_dir) / 'tables.sqlite3'}; Ctrl-C stops)")
    uvicorn.Server(uvicorn_config(app, host, port, log_level="warning")).run()
