"""The server's edge: what every request and WebSocket upgrade passes before the app reads it.

:class:`Limits` holds the server's limits (their defaults are documented in docs/web.rst,
"Limits").  :class:`Guard`, an ASGI middleware wrapped around the whole app, checks in this
order, answering a refusal in words (JSON ``{"error": ...}``) without reading a body:

* the ``Host`` header names this server: ``localhost``, an IP address, or a name given with
  ``--allow-host`` (or ``--host``).  A page of another site whose name was made to resolve to
  this computer (DNS rebinding) sends its own name and is refused;
* a WebSocket upgrade, and any request that may change something (not GET or HEAD), carries
  no ``Origin`` or this server's own: a page of another site cannot play or make tables;
  such requests are JSON (``Content-Type: application/json``), which a plain form of another
  site cannot send without asking first;
* a body declared larger than :attr:`Limits.body` is refused with 413 at once, and a body
  sent in chunks is refused as soon as it passes the limit (WebSocket messages are capped
  by the server, uvicorn's ``ws_max_size``, before they are buffered).

Every HTTP response, static files and errors included, carries :data:`HEADERS`.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from dataclasses import dataclass, field, replace
from typing import Optional
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException

#: Nothing but the server itself: no script, style, font or connection elsewhere, no framing.
HEADERS = {"Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
                                      "frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
           "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
           "Cache-Control": "no-store"}
SAFE_METHODS = ("GET", "HEAD")


@dataclass(frozen=True)
class Limits:
    """The limits of one server (see docs/web.rst, "Limits")."""

    body: int = 16384               #: bytes in a request's body
    message: int = 16384            #: bytes in a WebSocket message (the server refuses larger frames)
    rate: float = 20.0              #: messages a second one socket may send, on average...
    burst: int = 40                 #: ...and at once
    sockets_per_seat: int = 8       #: pages open on one seat's link (the spectators' link: 4 times as many)
    send_queue: int = 32            #: messages waiting for a page that has not read them yet
    send_timeout: float = 10.0      #: seconds one message may take to leave for a page
    close_timeout: float = 2.0      #: seconds a close may take before the connection is cut
    hello_timeout: float = 10.0     #: seconds a WebSocket has to say a valid hello before it is closed
    socket_buffer: int = 262144     #: bytes held for a WebSocket page in the kernel, and again in the server
    hosts: tuple = field(default=())    #: names this server is reached by, beyond localhost and IP addresses

    def with_host(self, host: str) -> Limits:
        """These limits, also accepting ``host`` (the address served on) when it is a name."""
        if not host or _is_ip(host) or host in self.hosts:
            return self
        return replace(self, hosts=(*self.hosts, host.lower()))


def host_name(value: str) -> str:
    """The name in a ``Host`` header or an origin's ``host:port`` (lower case, no port, no brackets)."""
    value = value.strip().lower()
    if value.startswith("["):
        return value[1:value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return False


def host_allowed(name: str, extra=()) -> bool:
    """Whether a request naming ``name`` is for this server: an IP address cannot be rebound to
    another site, ``localhost`` is this computer, other names only when given."""
    return bool(name) and (name == "localhost" or _is_ip(name) or name in {h.lower() for h in extra})


def same_origin(origin: Optional[str], host: str) -> bool:
    """Whether a request's ``Origin`` (if any) is this server as the request itself names it."""
    if origin is None:
        return True             # not from a page (a program, a test): nothing to forge
    parts = urlsplit(origin.strip())
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.strip().lower()


def refusal(scope, limits: Limits) -> Optional[tuple]:
    """``(status, message)`` refusing a request or upgrade before it is read, or ``None``."""
    headers = Headers(scope=scope)
    host = headers.get("host", "")
    if not host_allowed(host_name(host), limits.hosts):
        return 400, (f"this server is not known as {host_name(host)[:60]!r}: use its address, or start it "
                     f"with --allow-host NAME")
    ws = scope["type"] == "websocket"
    changes = not ws and scope.get("method", "GET") not in SAFE_METHODS
    if (ws or changes) and not same_origin(headers.get("origin"), host):
        return 403, "requests from another site's pages are refused"
    if changes:
        ctype = headers.get("content-type", "").split(";")[0].strip().lower()
        if ctype != "application/json":
            return 415, "send the request as JSON (Content-Type: application/json)"
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limits.body):
            return 413, f"the request is too large (at most {limits.body} bytes)"
    return None


class Guard:
    """ASGI middleware: :func:`refusal` before the app, the body cap while it reads, and
    :data:`HEADERS` on every response.  A WebSocket's buffers are bounded
    (:attr:`Limits.socket_buffer`) and its scope gets ``catrules.abort``: a way to cut its connection when even a close cannot be written
    (see :mod:`catrules.web.links`)."""

    def __init__(self, app, limits: Limits):
        self.app, self.limits = app, limits

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        why = refusal(scope, self.limits)
        if scope["type"] == "websocket":
            if why is not None:
                return await deny_upgrade(scope, receive, send, *why)
            scope["catrules.abort"] = _bound_buffers(send, self.limits.socket_buffer)
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                have = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k.lower().encode(), v.encode()) for k, v in HEADERS.items()
                         if k.lower().encode() not in have]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        if why is not None:
            return await send_json(send_with_headers, *why)
        seen = 0

        async def receive_capped():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.limits.body:
                    raise HTTPException(413, f"the request is too large (at most {self.limits.body} bytes)")
            return message

        await self.app(scope, receive_capped, send_with_headers)


async def send_json(send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


async def deny_upgrade(scope, receive, send, status: int, message: str) -> None:
    """Refuse a WebSocket upgrade: an HTTP answer in words where the server can send one."""
    await receive()             # websocket.connect
    if "websocket.http.response" in scope.get("extensions", {}):
        body = json.dumps({"error": message}).encode()
        headers = [(b"content-type", b"application/json"),
                   *((k.lower().encode(), v.encode()) for k, v in HEADERS.items())]
        await send({"type": "websocket.http.response.start", "status": status, "headers": headers})
        await send({"type": "websocket.http.response.body", "body": body})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": message[:120]})


def _bound_buffers(send, size: int):
    """Bound what the server holds for one WebSocket page (in the kernel and in the server's
    own write buffer) to about ``size`` bytes, so that a page that does not read makes its
    sends wait soon; returns the way to cut the connection at once, or ``None``.  Only where the
    server lets it be reached (uvicorn: its protocol's transport); elsewhere, nothing changes."""
    transport = getattr(getattr(send, "__self__", None), "transport", None)
    if transport is None or not hasattr(transport, "abort"):
        return None
    try:
        transport.set_write_buffer_limits(high=size)
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, size)
    except (OSError, AttributeError, ValueError):
        pass
    return transport.abort
