"""The server's edge, against a real uvicorn server on 127.0.0.1 with real WebSocket clients:
sizes refused before they are read, other sites' pages and names refused, a flooding or
crowding page closed with a reason, bad requests answered in words, the security headers, and
a page that does not read dropped without delaying its table."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
from websockets.exceptions import ConnectionClosed, InvalidStatus

from catrules.web.app import create_app, uvicorn_config
from catrules.web.guard import Limits

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
SECURITY = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options")


class Server:
    """A real uvicorn server in a thread on a free port, configured as ``catrules serve`` is."""

    def __init__(self, data: Path, limits: Limits | None = None):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.host = f"127.0.0.1:{self.port}"
        self.app = create_app([MEOW], data, limits)
        self.server = uvicorn.Server(uvicorn_config(self.app, "127.0.0.1", self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def request(self, method: str, path: str, body: bytes = b"", headers: dict | None = None,
                content_length: int | None = None) -> tuple:
        """``(status, headers, body)`` of one request on a fresh connection, sent as written here."""
        head = {"Host": self.host, "Connection": "close", **(headers or {})}
        if method != "GET" and content_length != -1:       # -1: no Content-Length (a chunked body)
            head.setdefault("Content-Length", str(len(body) if content_length is None else content_length))
        raw = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as s:
            s.sendall(raw.encode() + body)
            data = b""
            while True:
                try:
                    chunk = s.recv(65536)
                except ConnectionResetError:
                    break
                if not chunk:
                    break
                data += chunk
        head_text, _, rest = data.partition(b"\r\n\r\n")
        lines = head_text.decode("latin-1").split("\r\n")
        got = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:])}
        return int(lines[0].split()[1]), got, rest

    def post_table(self, spec, headers: dict | None = None) -> tuple:
        body = spec if isinstance(spec, bytes) else json.dumps(spec).encode()
        status, _, rest = self.request("POST", "/api/tables", body, {"Content-Type": "application/json",
                                                                       **(headers or {})})
        return status, json.loads(rest)

    def connect(self, **kw):
        return ws_client.connect(f"ws://{self.host}/ws", open_timeout=10, **kw)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def new_table(server) -> dict:
    status, made = server.post_table({"game": "meow", "players": 2, "seats": ["human", "human"], "seed": 3})
    assert status == 200, made
    tokens = {l["seat"]: l["link"].split("#", 1)[1] for l in made["links"]}
    tokens[None] = made["spectator"].split("#", 1)[1]
    return {"id": made["table"], "tokens": tokens}


def hello(ws, token) -> dict:
    ws.send(json.dumps({"type": "hello", "token": token}))
    return next_state(ws)


def next_state(ws, timeout: float = 10) -> dict:
    while True:
        m = json.loads(ws.recv(timeout=timeout))
        if m["type"] == "state":
            return m


def closed_with(ws, timeout: float = 10):
    """The close a server sent: ``(code, reason)`` (messages before it are read and dropped)."""
    end = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as exc:
        while time.monotonic() < end:
            ws.recv(timeout=max(0.01, end - time.monotonic()))
    rcvd = exc.value.rcvd
    return (rcvd.code, rcvd.reason) if rcvd is not None else (None, "")


# ------------------------------------------------------------------ sizes

def test_an_oversized_frame_is_refused_by_the_server(server):
    with server.connect(max_size=None) as ws:
        ws.send("x" * 5000)         # within the server's cap, over the protocol's: answered in words
        assert "too long" in json.loads(ws.recv(timeout=10))["message"]
        ws.send("x" * (server.app.state.limits.message + 1))
        code, _ = closed_with(ws)
    assert code == 1009             # "message too big", before the message was held


def test_an_oversized_body_is_refused_without_reading_it(server):
    # a body said to be 100 MB: refused at once, though only 2 bytes follow (it is never waited for)
    start = time.monotonic()
    status, headers, body = server.request("POST", "/api/tables", b"{}", {"Content-Type": "application/json"},
                                           content_length=100_000_000)
    assert status == 413 and "too large" in json.loads(body)["error"]
    assert time.monotonic() - start < 10            # not waiting for the 100 MB that never come
    assert all(h in headers for h in SECURITY)
    # a body sent in chunks is refused as soon as it passes the cap
    big = json.dumps({"game": "meow", "pad": "x" * 40000}).encode()
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(big[i:i + 4096]), big[i:i + 4096]) for i in range(0, len(big), 4096))
    status, _, body = server.request("POST", "/api/tables", chunked + b"0\r\n\r\n",
                                     {"Content-Type": "application/json", "Transfer-Encoding": "chunked"},
                                     content_length=-1)
    assert status == 413 and b"too large" in body, body
    assert server.app.state.store.count_tables() == 0


# ------------------------------------------------------------------ other sites, other names

def test_a_foreign_origin_is_refused(server):
    with pytest.raises(InvalidStatus) as exc:
        server.connect(origin="http://evil.example")
    assert exc.value.response.status_code == 403
    assert "another site" in json.loads(exc.value.response.body)["error"]
    spec = {"game": "meow", "players": 2}
    status, made = server.post_table(spec, {"Origin": "http://evil.example"})
    assert status == 403 and "another site" in made["error"]
    status, made = server.post_table(spec, {"Origin": "null"})
    assert status == 403
    assert server.app.state.store.count_tables() == 0
    # the server's own pages are welcome
    with server.connect(origin=f"http://{server.host}") as ws:
        ws.send(json.dumps({"type": "log"}))
        assert "hello" in json.loads(ws.recv(timeout=10))["message"]
    assert server.post_table(spec, {"Origin": f"http://{server.host}"})[0] == 200


def test_a_text_plain_post_cannot_make_a_table(server):
    body = json.dumps({"game": "meow", "players": 2}).encode()
    for ctype in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        status, _, rest = server.request("POST", "/api/tables", body, {"Content-Type": ctype})
        assert status == 415 and "application/json" in json.loads(rest)["error"], ctype
    status, _, rest = server.request("POST", "/api/tables", body)          # no content type at all
    assert status == 415
    assert server.app.state.store.count_tables() == 0


def test_a_name_the_server_does_not_go_by_is_refused(server):
    # DNS rebinding: another site's name made to resolve to 127.0.0.1 is still its name
    status, _, body = server.request("GET", "/api/games", headers={"Host": f"evil.example:{server.port}"})
    assert status == 400 and "not known as 'evil.example'" in json.loads(body)["error"]
    with pytest.raises(InvalidStatus) as exc:
        ws_client.connect(f"ws://127.0.0.1:{server.port}/ws", additional_headers={"Host": "evil.example"},
                          open_timeout=10)
    assert exc.value.response.status_code == 400
    for host in (f"localhost:{server.port}", server.host, f"[::1]:{server.port}"):
        assert server.request("GET", "/api/games", headers={"Host": host})[0] == 200, host


def test_a_name_given_with_allow_host_is_served(tmp_path):
    s = Server(tmp_path, Limits(hosts=("tables.example",)))
    try:
        assert s.request("GET", "/", headers={"Host": "tables.example"})[0] == 200
        assert s.request("GET", "/", headers={"Host": "other.example"})[0] == 400
    finally:
        s.stop()


# ------------------------------------------------------------------ bad requests, headers

@pytest.mark.parametrize("body, why", [
    (json.dumps({"game": ["meow"], "players": 2}).encode(), "'game' has the wrong type"),
    (json.dumps({"game": "meow", "players": 2, "options": [{"a": 1}]}).encode(), "list of names"),
    (json.dumps({"game": "meow", "players": 2, "seats": [1, 2]}).encode(), "list of names"),
    (json.dumps({"game": "meow", "players": True}).encode(), "'players' has the wrong type"),
    (json.dumps({"game": "meow", "players": 2, "seed": [1]}).encode(), "'seed' has the wrong type"),
    (b"[" * 5000 + b"]" * 5000, "nested too deeply"),
    (b'{"game": "meow", "players": 2, "seed": 1' + b"0" * 5000 + b"}", "too many digits"),
    (b'{"game": "\xff"}', "not UTF-8"),
    (b'{"game": ', "not valid JSON"),
    (b"", "not valid JSON"),
])
def test_a_bad_table_is_answered_in_words(server, body, why):
    status, _, rest = server.request("POST", "/api/tables", body, {"Content-Type": "application/json"})
    err = json.loads(rest)["error"]
    assert status == 400 and why in err and "Traceback" not in err, (status, err)
    assert server.app.state.store.count_tables() == 0


def test_every_response_carries_the_security_headers(server):
    for path in ("/", "/play", "/static/app.css", "/static/play.js", "/api/games", "/static/nothing.js", "/nothing"):
        status, headers, _ = server.request("GET", path)
        assert status in (200, 404), path
        assert all(h in headers for h in SECURITY), (path, headers)
        assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        assert "default-src 'self'" in headers["content-security-policy"]
    status, headers, _ = server.request("POST", "/api/tables", b"{}", {"Content-Type": "text/plain"})
    assert status == 415 and all(h in headers for h in SECURITY)


def test_a_binary_frame_is_answered_in_words(server):
    table = new_table(server)
    with server.connect() as ws:
        ws.send(b"\x00\x01binary")
        assert "JSON text" in json.loads(ws.recv(timeout=10))["message"]
        assert hello(ws, table["tokens"][0])["view"]        # the connection goes on


# ------------------------------------------------------------------ floods and crowds

def test_a_flooding_socket_is_closed_with_a_reason(server):
    rate = server.app.state.limits.rate
    with server.connect() as ws:
        for _ in range(1000):
            try:
                ws.send("junk")
            except ConnectionClosed:
                break
        code, reason = closed_with(ws)
    assert code == 1008 and f"at most {rate:g} a second" in reason


def test_a_game_at_machine_speed_is_not_a_flood(tmp_path):
    s = Server(tmp_path, Limits(rate=2, burst=3))
    try:
        table = new_table(s)
        with s.connect() as a, s.connect() as b:
            pages = {0: a, 1: b}
            last = {0: hello(a, table["tokens"][0]), 1: hello(b, table["tokens"][1])}
            for _ in range(30):         # ten times the burst, as fast as the table asks
                seat = next(k for k, m in last.items() if m["view"]["decisions"])
                d = last[seat]["view"]["decisions"][0]
                pages[seat].send(json.dumps({"type": "choose", "ask": last[seat]["ask"],
                                             "option": d["default"] or d["options"][0]["id"]}))
                last = {k: next_state(p) for k, p in pages.items()}
    finally:
        s.stop()


def test_a_seat_has_at_most_so_many_sockets(tmp_path):
    s = Server(tmp_path, Limits(sockets_per_seat=2))
    try:
        table = new_table(s)
        with s.connect() as first:
            with s.connect() as second:
                hello(first, table["tokens"][0]), hello(second, table["tokens"][0])
                with s.connect() as third:              # the new one is refused; the open ones go on
                    third.send(json.dumps({"type": "hello", "token": table["tokens"][0]}))
                    code, reason = closed_with(third)
                assert code == 1008 and "already has 2 pages open" in reason
                with s.connect() as other:              # another seat is not crowded out
                    hello(other, table["tokens"][1])
            first.send(json.dumps({"type": "log"}))
            assert json.loads(first.recv(timeout=10))["type"] == "log"
            end = time.monotonic() + 10                 # a page that closed makes room
            while True:
                with s.connect() as again:
                    again.send(json.dumps({"type": "hello", "token": table["tokens"][0]}))
                    try:
                        assert next_state(again)["view"]
                        break
                    except ConnectionClosed:
                        assert time.monotonic() < end, "the closed page's place was never freed"
    finally:
        s.stop()


# ------------------------------------------------------------------ a page that does not read

class NonReader:
    """A WebSocket client that sends but never reads (a raw socket with a small receive buffer)."""

    def __init__(self, server: Server):
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", server.port))
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /ws HTTP/1.1\r\nHost: {server.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)       # the handshake only, byte by byte: nothing after it is read
        assert head.startswith(b"HTTP/1.1 101"), head

    def send(self, obj) -> None:
        data, mask = json.dumps(obj).encode(), os.urandom(4)
        n = len(data)
        head = bytes([0x81, 0x80 | n]) if n < 126 else bytes([0x81, 0x80 | 126]) + struct.pack("!H", n)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def read_to_the_end(self, timeout: float) -> int:
        """Read what was sent until the server ends the connection; the bytes read."""
        self.sock.settimeout(timeout)
        n = 0
        try:
            while chunk := self.sock.recv(65536):
                n += len(chunk)
        except ConnectionResetError:
            pass
        return n


def page_of(server: Server, table_id: str, seat, timeout: float = 10):
    """The server's connection of ``seat`` at a table (white box: to see it fall behind)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = [c for c in server.app.state.hub.conns.get(table_id, ()) if c.seat == seat]
        if got:
            return got[0]
        time.sleep(0.01)
    raise AssertionError("the page never joined its table")


def answer(pages: dict, last: dict) -> int:
    """The seat whose turn it is answers its default; the seat that answered."""
    seat = next(k for k, m in last.items() if m["view"]["decisions"])
    d = last[seat]["view"]["decisions"][0]
    pages[seat].send(json.dumps({"type": "choose", "ask": last[seat]["ask"], "option": d["default"] or d["options"][0]["id"]}))
    return seat


def test_a_page_that_does_not_read_is_dropped_and_delays_nobody(tmp_path):
    limits = Limits(socket_buffer=16384, send_timeout=3)       # small buffers: it falls behind in seconds
    s = Server(tmp_path, limits)
    try:
        table = new_table(s)
        with s.connect() as a, s.connect() as b:
            pages = {0: a, 1: b}
            last = {0: hello(a, table["tokens"][0]), 1: hello(b, table["tokens"][1])}
            slow = NonReader(s)
            slow.send({"type": "hello", "token": table["tokens"][None]})
            conn = page_of(s, table["id"], None)
            end = time.monotonic() + 30
            while conn.queue.qsize() == 0:          # asks for logs (within the rate) until its sends wait
                assert time.monotonic() < end and conn.dropped is None, "the page never fell behind"
                slow.send({"type": "log"})
                time.sleep(0.1)
            # it is stuck, not yet dropped: its table goes on, each change reaching the other seat at once
            for _ in range(3):
                assert conn.dropped is None
                seat = answer(pages, last)
                start = time.monotonic()
                last[1 - seat] = next_state(pages[1 - seat], timeout=5)
                assert time.monotonic() - start < 1.0
                last[seat] = next_state(pages[seat], timeout=5)
            # dropped within a bound, with a reason; its connection ends
            end = time.monotonic() + limits.send_timeout + limits.close_timeout + 10
            while conn.dropped is None:
                assert time.monotonic() < end, "the page that does not read was never dropped"
                time.sleep(0.05)
            assert "waited over 3 s" in conn.dropped or "messages behind" in conn.dropped, conn.dropped
            slow.read_to_the_end(timeout=limits.close_timeout + 10)
            end = time.monotonic() + 10
            while conn in s.app.state.hub.conns.get(table["id"], ()):
                assert time.monotonic() < end, "the dropped page is still counted at its table"
                time.sleep(0.05)
            # the page reconnects and is sent the current state
            with s.connect() as again:
                now = hello(again, table["tokens"][None])
                assert now["ask"] == last[0]["ask"] and now["view"]["finished"] == last[0]["view"]["finished"]
            answer(pages, last)                     # and the table still goes on
            assert next_state(a)["type"] == next_state(b)["type"] == "state"
    finally:
        s.stop()


def test_the_limits_on_the_command_line(capsys):
    from catrules.cli import main
    assert main(["serve", "--help"]) == 0
    out = capsys.readouterr().out
    assert all(o in out for o in ("--allow-host", "--sockets-per-seat", "--messages-per-second", "--send-timeout"))
    assert main(["serve", str(MEOW), "--send-timeout", "0"]) == 2
    err = capsys.readouterr().err
    assert "--send-timeout 0 is out of range" in err and "Traceback" not in err
    # the address served on, when it is a name, is a name the server goes by
    assert Limits().with_host("Tables.example").hosts == ("tables.example",)
    assert Limits().with_host("0.0.0.0").hosts == ()
