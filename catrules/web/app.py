"""The web server: a Starlette app with the lobby, the table page, and one WebSocket per page.

Routes: ``/`` the lobby, ``/play`` the table page (a seat's token travels in the link's
``#fragment``, which browsers never send, so it never shows in a server's access log),
``/static/...`` the page's own scripts and styles (nothing is loaded from elsewhere),
``/api/games`` and ``/api/tables`` for the lobby, ``/ws`` for play.  Each connection is
sent only its seat's view and events (:meth:`WebTable.message`); whatever a page sends is
checked (:func:`catrules.web.protocol.read_message`, :meth:`WebTable.answer`) and refused
with an error that changes nothing.  The edge (hosts, origins, sizes, headers) is
:mod:`catrules.web.guard`; each page's queue and rate limit, :mod:`catrules.web.links`.
"""

from __future__ import annotations

import contextlib
import logging
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
from .links import POLICY, Conn, Hub
from .store import Store, StoreError
from .tables import EXPIRE_DAYS, Registry, WebError

log = logging.getLogger("catrules.web")
STATIC = Path(__file__).resolve().parent / "static"
#: The JSON types of what a table's description may hold (the values are checked by the registry).
SPEC_TYPES = {"game": (str,), "players": (int,), "options": (list,), "seats": (list,), "seed": (int, str, type(None))}


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


def create_app(game_files: list, data_dir: str | Path, limits: Optional[Limits] = None,
               expire_days: float = EXPIRE_DAYS) -> Starlette:
    """The app serving ``game_files``, keeping its tables in ``data_dir/tables.sqlite3`` (locked
    until the app shuts down: :class:`~catrules.web.store.StoreError` if another holds it), within
    ``limits``."""
    limits = limits or Limits()
    store = Store(Path(data_dir) / "tables.sqlite3")
    registry = Registry(store, [str(p) for p in game_files], expire_days=expire_days)
    hub = Hub(limits)

    def page(name: str):
        async def endpoint(request: Request):
            return FileResponse(STATIC / name)
        return endpoint

    async def games(request: Request):
        return JSONResponse(registry.game_list())

    async def new_table(request: Request):
        try:
            spec = read_json(await request.body())      # the body's size is capped by the Guard
        except BadJSON as exc:
            return JSONResponse({"error": f"the request is not valid JSON: {exc.why}"}, status_code=400)
        why = spec_refusal(spec)
        if why is not None:
            return JSONResponse({"error": why}, status_code=400)
        try:
            made = await to_thread.run_sync(registry.create, spec)
        except WebError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        except StoreError as exc:   # not stored, so not made: the lobby may ask again
            return JSONResponse({"error": str(exc)}, status_code=503)
        return JSONResponse(made)

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

    routes = [Route("/", page("index.html")), Route("/play", page("play.html")),
              Route("/api/games", games), Route("/api/tables", new_table, methods=["POST"]),
              WebSocketRoute("/ws", play), Mount("/static", StaticFiles(directory=STATIC), name="static")]

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    inner = app.build_middleware_stack
    app.build_middleware_stack = lambda: Guard(inner(), limits)    # outermost: even a 500 gets the headers
    app.state.registry = registry
    app.state.hub = hub
    app.state.store = store
    app.state.limits = limits
    return app


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
        try:
            measured = conn.clock.race_time(msg["ask"], arrived)
            why = await to_thread.run_sync(conn.table.answer, conn.seat, msg, measured)
        except StoreError as exc:   # not saved, so not taken: the page may send it again
            why = str(exc)
        if why is not None:
            await conn.reply(protocol.error(why))
            return False
        await hub.broadcast(conn.table)
        return True
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


def serve(game_files: list, host: str = "127.0.0.1", port: int = 8000, data_dir: str | Path = ".catrules-web",
          echo=print, limits: Optional[Limits] = None, expire_days: float = EXPIRE_DAYS) -> None:
    """Run the server until Ctrl-C (uvicorn); prints the address."""
    import uvicorn
    app = create_app(game_files, data_dir, (limits or Limits()).with_host(host), expire_days=expire_days)
    n = len(app.state.registry.games)
    echo(f"catrules web tables: http://{host}:{port}/  ({n} game{'s' if n != 1 else ''}; tables kept in "
         f"{Path(data_dir) / 'tables.sqlite3'}; Ctrl-C stops)")
    uvicorn.Server(uvicorn_config(app, host, port, log_level="warning")).run()
