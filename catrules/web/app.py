"""The web server: a Starlette app with the lobby, the table page, and one WebSocket per page.

Routes: ``/`` the lobby, ``/play`` the table page (a seat's token travels in the link's
``#fragment``, which browsers never send, so it never shows in a server's access log),
``/static/...`` the page's own scripts and styles (nothing is loaded from elsewhere),
``/api/games`` and ``/api/tables`` for the lobby, ``/ws`` for play.  Each connection is
sent only its seat's view and events (:meth:`WebTable.message`); whatever a page sends is
checked (:func:`catrules.web.protocol.read_message`, :meth:`WebTable.answer`) and refused
with an error that changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Optional

from anyio import to_thread
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from . import protocol
from .store import Store, StoreError
from .tables import EXPIRE_DAYS, Registry, WebError

log = logging.getLogger("catrules.web")
STATIC = Path(__file__).resolve().parent / "static"
#: Nothing but the server itself: no script, style, font or connection elsewhere.
HEADERS = {"Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store"}
#: The largest body of a request to make a table.
BODY_LIMIT = 16384


class Conn:
    """One page connected to a table as one seat (or a spectator)."""

    def __init__(self, ws: WebSocket, table, seat: Optional[int]):
        self.ws, self.table, self.seat = ws, table, seat
        self.last = 0               # the last event number sent
        self.lock = asyncio.Lock()  # one message at a time, in order

    async def push(self) -> None:
        async with self.lock:
            # built in a worker thread: the table's lock may be held there by bots thinking at
            # the same table, and the event loop must go on serving the other tables meanwhile
            text = await to_thread.run_sync(self._build)
            await self.ws.send_text(text)

    def _build(self) -> str:
        msg, self.last = self.table.message(self.seat, self.last)
        return json.dumps(msg, separators=(",", ":"))


class Hub:
    """The open connections of each table."""

    def __init__(self):
        self.conns: dict = {}

    def add(self, c: Conn) -> None:
        self.conns.setdefault(c.table.id, set()).add(c)

    def remove(self, c: Optional[Conn]) -> None:
        if c is not None:
            self.conns.get(c.table.id, set()).discard(c)

    async def broadcast(self, table) -> None:
        for c in list(self.conns.get(table.id, ())):
            try:
                await c.push()
            except (WebSocketDisconnect, RuntimeError, OSError):
                self.remove(c)      # a page that went away: it reconnects and is sent all again
            except Exception:
                log.exception("a message for a page could not be built")
                self.remove(c)


def create_app(game_files: list, data_dir: str | Path, expire_days: float = EXPIRE_DAYS) -> Starlette:
    """The app serving ``game_files``, keeping its tables in ``data_dir/tables.sqlite3`` (locked
    until the app shuts down: :class:`~catrules.web.store.StoreError` if another holds it)."""
    store = Store(Path(data_dir) / "tables.sqlite3")
    registry = Registry(store, [str(p) for p in game_files], expire_days=expire_days)
    hub = Hub()

    def page(name: str):
        async def endpoint(request: Request):
            return FileResponse(STATIC / name, headers=HEADERS)
        return endpoint

    async def games(request: Request):
        return JSONResponse(registry.game_list(), headers=HEADERS)

    async def new_table(request: Request):
        body = await request.body()
        if len(body) > BODY_LIMIT:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        try:
            spec = json.loads(body)
            made = await to_thread.run_sync(registry.create, spec)
        except ValueError as exc:           # WebError, JSONDecodeError
            msg = str(exc) if isinstance(exc, WebError) else "the request is not valid JSON"
            return JSONResponse({"error": msg}, status_code=400, headers=HEADERS)
        return JSONResponse(made, headers=HEADERS)

    async def play(ws: WebSocket):
        await ws.accept()
        conn: Optional[Conn] = None
        try:
            while True:
                text = await ws.receive_text()
                try:
                    msg = protocol.read_message(text)
                except protocol.Refused as exc:
                    await ws.send_json(protocol.error(str(exc)))
                    continue
                conn = await _on_message(ws, msg, conn, registry, hub)
        except WebSocketDisconnect:
            pass
        finally:
            hub.remove(conn)

    routes = [Route("/", page("index.html")), Route("/play", page("play.html")),
              Route("/api/games", games), Route("/api/tables", new_table, methods=["POST"]),
              WebSocketRoute("/ws", play), Mount("/static", StaticFiles(directory=STATIC), name="static")]
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        store.close()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.registry = registry
    app.state.hub = hub
    app.state.store = store
    return app


async def _on_message(ws: WebSocket, msg: dict, conn: Optional[Conn], registry: Registry,
                      hub: Hub) -> Optional[Conn]:
    """Answer one message of a page; its connection, made by its ``hello`` (None before)."""
    kind = msg["type"]
    if kind == "hello":
        if conn is not None:
            await ws.send_json(protocol.error("this connection already belongs to a seat"))
            return conn
        try:
            table, seat = await to_thread.run_sync(registry.by_token, msg["token"])
        except WebError as exc:
            await ws.send_json(protocol.error(str(exc)))
            return conn
        conn = Conn(ws, table, seat)
        hub.add(conn)
        await conn.push()
    elif conn is None:
        await ws.send_json(protocol.error("send hello with your link's token first"))
    elif kind == "choose":
        try:
            why = await to_thread.run_sync(conn.table.answer, conn.seat, msg)
        except StoreError as exc:   # not saved, so not taken: the page may send it again
            why = str(exc)
        if why is not None:
            await ws.send_json(protocol.error(why))
        else:
            await hub.broadcast(conn.table)
    elif kind == "log":
        lines = await to_thread.run_sync(conn.table.log_lines, conn.seat)
        await ws.send_json({"type": "log", "lines": lines})
    return conn


def serve(game_files: list, host: str = "127.0.0.1", port: int = 8000, data_dir: str | Path = ".catrules-web",
          echo=print, expire_days: float = EXPIRE_DAYS) -> None:
    """Run the server until Ctrl-C (uvicorn); prints the address."""
    import uvicorn
    app = create_app(game_files, data_dir, expire_days=expire_days)
    n = len(app.state.registry.games)
    echo(f"catrules web tables: http://{host}:{port}/  ({n} game{'s' if n != 1 else ''}; tables kept in "
         f"{Path(data_dir) / 'tables.sqlite3'}; Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning", ws="websockets-sansio")
