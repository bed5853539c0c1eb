"""Bounded bot work, against a real uvicorn server on 127.0.0.1 with real WebSocket clients: a
bot budget over the server's cap refused, all-bot tables made at once and played in the
background, another table's person answered while searching bots are busy, a released table's
bots stopped, tables made at a bounded rate per client, a page sent each version of its table once."""

from __future__ import annotations

import json
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="the websockets package is not installed")

from catrules.bots.ismcts import ISMCTSBot
from catrules.web.app import create_app, uvicorn_config

ROOT = Path(__file__).resolve().parent.parent
GAMES = [ROOT / "games" / "meow.cat", ROOT / "games" / "flapcat.cat"]


class Server:
    """A real uvicorn server in a thread on a free port, configured as ``catrules serve`` is."""

    def __init__(self, data: Path, **options):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.app = create_app(GAMES, data, **{"tables_per_minute": 600, "table_burst": 100, **options})
        self.server = uvicorn.Server(uvicorn_config(self.app, "127.0.0.1", self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)

    def post(self, spec) -> tuple:
        """``(status, headers, JSON body, seconds taken)`` of one POST /api/tables."""
        body = json.dumps(spec).encode()
        raw = (f"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nConnection: close\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", self.port), timeout=120) as s:
            s.sendall(raw)
            data = b""
            while chunk := s.recv(65536):
                data += chunk
        took = time.monotonic() - t0
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.strip().lower(): v.strip() for k, v in (x.split(":", 1) for x in lines[1:])}
        return int(lines[0].split()[1]), headers, json.loads(rest), took

    def table(self, spec) -> dict:
        status, _, made, _ = self.post(spec)
        assert status == 200, made
        return made

    def connect(self):
        return ws_client.connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=10, proxy=None, max_size=1 << 24)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(30)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def token(link: str) -> str:
    return link.split("#", 1)[1]


def recv_state(ws, timeout: float = 60) -> dict:
    while True:
        m = json.loads(ws.recv(timeout=timeout))
        assert m["type"] == "state", m
        return m


def test_a_bot_budget_over_the_cap_is_refused(tmp_path):
    s = Server(tmp_path, max_bot_seconds=1.5)
    try:
        for seat in ("ismcts:3600s", "ismcts:2s"):
            status, _, body, _ = s.post({"game": "meow", "players": 2, "seats": ["human", seat]})
            assert status == 400, body
            assert "1.5 s a decision at most" in body["error"] and seat in body["error"]
        # within the cap, and an iteration budget (cut at the cap in time): made
        for seat in ("ismcts:1.5s", "ismcts:0.5s", "ismcts:10000000", "ismcts"):
            status, _, body, _ = s.post({"game": "meow", "players": 2, "seats": ["human", seat]})
            assert status == 200, body
        # the lobby offers the searching bot within the cap
        games = s.app.state.registry.game_list()
        assert all("ismcts:1s" in g["seats"] for g in games)
    finally:
        s.stop()
    s = Server(tmp_path / "small", max_bot_seconds=0.25)
    try:
        assert all("ismcts:0.25s" in g["seats"] for g in s.app.state.registry.game_list())
    finally:
        s.stop()


def test_the_search_deadline_and_stop():
    from catrules.api import load_game
    from catrules.play.match import Match
    game = load_game(GAMES[0])

    def decide(bot, seed=4):
        st = game.new_state(2, seed=seed)
        Match(game, st, [bot, ISMCTSBot(iterations=10)])
        d = next(d for d in st.pending() if d.player == 0)
        return bot.search([o.id for o in d.options], d.default), bot.last

    # an iteration budget reached before the cap: the same choice as without a cap
    assert decide(ISMCTSBot(iterations=60, max_seconds=30))[0] == decide(ISMCTSBot(iterations=60))[0]
    # a budget far beyond the cap: ends at the cap
    _, last = decide(ISMCTSBot(iterations=10_000_000, max_seconds=0.3))
    assert last["iterations"] < 10_000_000 and last["seconds"] < 10
    # stopped: ends at once, with an answer
    choice, last = decide(ISMCTSBot(iterations=10_000_000, stop=lambda: True))
    assert choice and last["iterations"] == 0
    with pytest.raises(ValueError, match="max_seconds"):
        ISMCTSBot(max_seconds=0)


def test_an_all_bot_table_is_made_at_once_and_played_in_the_background(server):
    # Flap Cat! with six greedy bots takes seconds to play: the links come back before
    status, _, made, took = server.post({"game": "flapcat", "players": 6, "seats": ["bot"] * 6, "seed": 3})
    assert status == 200 and took < 3, took
    store = server.app.state.store
    assert not store.table(made["table"])["finished"]
    with server.connect() as ws:            # a spectator sees the game progress to its end
        ws.send(json.dumps({"type": "hello", "token": token(made["spectator"])}))
        seen = [recv_state(ws)]
        while not seen[-1]["view"]["finished"]:
            seen.append(recv_state(ws, timeout=120))
    asks = [m["ask"] for m in seen]
    assert len(seen) > 3 and asks == sorted(asks) and asks[-1] > asks[0]
    assert store.table(made["table"])["finished"]


def test_another_tables_person_is_answered_while_searching_bots_are_busy(server):
    bots = [server.table({"game": "meow", "players": 4, "seats": ["ismcts:1s"] * 4, "seed": seed})["table"]
            for seed in range(4)]           # searching bots, a second a decision, on every place of the pool
    pool, busy = server.app.state.pool, False
    made = server.table({"game": "meow", "players": 2, "seats": ["human", "human"], "seed": 7})
    with server.connect() as a, server.connect() as b:
        a.send(json.dumps({"type": "hello", "token": token(made["links"][0]["link"])}))
        b.send(json.dumps({"type": "hello", "token": token(made["links"][1]["link"])}))
        states = {0: recv_state(a), 1: recv_state(b)}
        pages = {0: a, 1: b}
        for _ in range(4):
            seat = next(s for s, m in states.items() if m["view"]["decisions"])
            m = states[seat]
            d = m["view"]["decisions"][0]
            t0 = time.monotonic()
            pages[seat].send(json.dumps({"type": "choose", "ask": m["ask"],
                                         "option": d["default"] or d["options"][0]["id"]}))
            states[seat] = recv_state(pages[seat])
            assert time.monotonic() - t0 < 2, "a person waited for other tables' bots"
            busy = busy or any(pool.running(t) for t in bots)
            states[1 - seat] = recv_state(pages[1 - seat])
            assert states[seat]["ask"] > m["ask"]
    assert busy                                         # the searching bots were at work meanwhile
    deadline = time.monotonic() + 60
    while pool.decisions == 0:                          # and their searches come to decisions
        assert time.monotonic() < deadline, "the searching bots decided nothing"
        time.sleep(0.1)


def test_a_released_table_stops_its_bots(server):
    made = server.table({"game": "meow", "players": 4, "seats": ["ismcts:0.5s"] * 4, "seed": 1})
    tid = made["table"]
    store, registry, pool = server.app.state.store, server.app.state.registry, server.app.state.pool

    def decisions():
        return store.table(tid)["snapshot"]["state"]["decisions"]
    deadline = time.monotonic() + 60
    while decisions() < 2:
        assert time.monotonic() < deadline, "the bots did not play"
        time.sleep(0.05)
    registry.tidy(now=time.monotonic() + 10 ** 6)         # idle for ever: let go of
    assert tid not in registry.tables
    deadline = time.monotonic() + 10
    while pool.running(tid):                               # the search under way ends promptly
        assert time.monotonic() < deadline, "the released table's bots went on"
        time.sleep(0.02)
    after = decisions()
    time.sleep(2)
    assert decisions() == after and not store.table(tid)["finished"]
    # a page opening it again lets its bots play on from where they were
    with server.connect() as ws:
        ws.send(json.dumps({"type": "hello", "token": token(made["spectator"])}))
        recv_state(ws)
        deadline = time.monotonic() + 60
        while decisions() == after:
            assert time.monotonic() < deadline, "the bots did not play on"
            time.sleep(0.05)


def test_the_server_stopping_cancels_the_bots(tmp_path):
    s = Server(tmp_path)
    made = s.table({"game": "meow", "players": 4, "seats": ["ismcts:10000000"] * 4, "seed": 1})
    deadline = time.monotonic() + 30
    while not s.app.state.pool.running(made["table"]):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    t0 = time.monotonic()
    s.stop()
    assert not s.thread.is_alive() and time.monotonic() - t0 < 15, "the server waited for a search"


def test_tables_are_made_at_a_bounded_rate_per_client(tmp_path):
    s = Server(tmp_path, tables_per_minute=10, table_burst=5)
    try:
        spec = {"game": "meow", "players": 2, "seats": ["human", "human"]}
        for _ in range(3):                                 # refused ones are not counted
            assert s.post({**spec, "players": 99})[0] == 400
        for _ in range(5):
            assert s.post(spec)[0] == 200
        status, headers, body, _ = s.post(spec)
        assert status == 429, body
        assert "at most 10 a minute" in body["error"] and "try again in" in body["error"]
        assert 1 <= int(headers["retry-after"]) <= 6
    finally:
        s.stop()


def test_a_page_is_sent_each_version_of_its_table_once(tmp_path):
    # A page's hello and a showing of the bots' decision that began as it joined may both hold the
    # same change: the page is sent it once, so the state after its own answer holds that answer
    # (a repeat made a whole game through the TestClient answer one race twice and wait for ever).
    from test_web_protocol import Page, make_client, new_table
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, "meow", 2, ("human", "human"), seed=7)
        pages = [Page(client, tokens[s], s) for s in (0, 1)]
        table, hub = client.app.state.registry.table(tid), client.app.state.hub
        for _ in range(2):                  # showings holding nothing new: nothing is sent
            client.portal.call(hub.show, table)
        me = next(p for p in pages if p.last["view"]["decisions"])
        before = me.last
        d = before["view"]["decisions"][0]
        me.send({"type": "choose", "ask": before["ask"], "option": d["default"] or d["options"][0]["id"]})
        for p in pages:
            m = p.receive()
            assert m["type"] == "state", m
            assert m["ask"] > before["ask"] or me.seat not in m["view"]["waiting_for"], "a state was sent twice"
        for p in pages:
            p.close()
