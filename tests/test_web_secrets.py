"""No secret leaves a web table before it is public: a real server on 127.0.0.1, real WebSocket
clients (the ``websockets`` package) for two people's seats and a spectator, a bot in the third seat.

Every message each page is sent during whole games of the three shipped games holds only what
the allow-list of :mod:`catrules.web.protocol` lets a page have, and never the table's seed
before the end; logs asked for in the middle of a game carry no seed, the log at the end does;
a table whose creator chose the seed says so to every page (and the page shows it, in headless
Chromium where Playwright and Chromium are installed).
"""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="the websockets package is not installed")

import catrules
from catrules.play.logs import LogWriter
from catrules.web import protocol
from catrules.web import tables as web_tables
from catrules.web.app import create_app
from test_web_protocol import settled

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"meow": ROOT / "games" / "meow.cat", "catlady": ROOT / "games" / "catlady.cat",
         "flapcat": ROOT / "games" / "flapcat.cat"}


class Server:
    """A real uvicorn server in a thread, on a free port of 127.0.0.1."""

    def __init__(self, data: Path):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.app = create_app(list(GAMES.values()), data)
        self.server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_config=None,
                                                    ws="websockets-sansio"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the server did not start"

    def new_table(self, game, seats=("human", "human", "bot"), seed=None) -> tuple:
        spec = {"game": game, "players": len(seats), "seats": list(seats)}
        if seed is not None:
            spec["seed"] = seed
        req = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/tables", json.dumps(spec).encode(),
                                     {"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=30) as r:
            made = json.loads(r.read())
        tokens = {x["seat"]: x["link"].split("#", 1)[1] for x in made["links"]}
        tokens[None] = made["spectator"].split("#", 1)[1]
        return self.app.state.registry.table(made["table"]), tokens

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def open_socket(server: Server):
    """A WebSocket to the server, as a page opens it (no proxy; long logs fit)."""
    return ws_client.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10, proxy=None,
                             max_size=1 << 24).__enter__()


class Page:
    """A real WebSocket connection as a page holds it; every message it is sent, as sent."""

    def __init__(self, server: Server, token: str, seat):
        self.ws = open_socket(server)
        self.seat = seat
        self.texts: list = []           # (finished when sent?, the text)
        self.ws.send(json.dumps({"type": "hello", "token": token}))
        self.last = self.receive()
        assert self.last["type"] == "state", self.last
        while not settled(self.last):           # the bots play on the server's pool
            assert self.receive()["type"] == "state"

    def receive(self) -> dict:
        text = self.ws.recv(timeout=30)
        m = json.loads(text)
        self.texts.append(text)
        if m["type"] == "state":
            self.last = m
        return m

    def log(self) -> list:
        self.ws.send(json.dumps({"type": "log"}))
        m = self.receive()
        assert m["type"] == "log", m
        return [json.loads(x) for x in m["lines"]]

    def close(self) -> None:
        self.ws.close()


def numbers_in(obj) -> set:
    """Every number in a message (log lines read too)."""
    if isinstance(obj, dict):
        return set().union(*(numbers_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(numbers_in(v) for v in obj)) if obj else set()
    if isinstance(obj, str) and obj.startswith("{"):
        return numbers_in(json.loads(obj))
    return {obj} if isinstance(obj, (int, float)) and not isinstance(obj, bool) else set()


def check_sent(m: dict, allow: dict) -> None:
    """A message holds only allowed keys (its log lines too)."""
    protocol.check(m, m["type"], allow)
    if m["type"] == "log":
        for line in m["lines"]:
            protocol.check_log_line(line, allow)


def play_through(pages: list, table, logs_every: int = 7) -> dict:
    """Answer with each page's default until the game ends; every page asks for its log every
    ``logs_every`` answers.  Returns what was seen: messages before the end, mid-game logs."""
    seats = [p for p in pages if p.seat is not None]
    seen = {"before_end": [], "midgame_logs": []}
    n = 0
    while not pages[0].last["view"]["finished"]:
        assert n < 3000, "the game does not end"
        if n % logs_every == 0:
            for p in pages:
                lines = p.log()
                seen["midgame_logs"].append((p.seat, lines))
                seen["before_end"].append(p.texts[-1])
        held = next((p for p in seats if p.seat in p.last.get("pause", {}).get("waiting", ())), None)
        if held is not None:        # a round's end: the table waits until each person continues
            held.ws.send(json.dumps({"type": "continue", "ask": held.last["ask"]}))
        else:
            me = next(p for p in seats if p.last["view"]["decisions"])
            d = me.last["view"]["decisions"][0]
            me.ws.send(json.dumps({"type": "choose", "ask": me.last["ask"],
                                   "option": d["default"] or d["options"][0]["id"], "time": 0.45}))
        n += 1
        for p in pages:
            while True:                             # the answer's state, then the bots' decisions
                m = p.receive()
                assert m["type"] == "state", m      # an error here: a message withheld, or a refusal
                if not m["view"]["finished"]:
                    seen["before_end"].append(p.texts[-1])
                if settled(m):
                    break
    seen["answers"] = n
    return seen


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_whole_game_sends_no_seed_and_nothing_unlisted_before_the_end(server, game):
    table, tokens = server.new_table(game)          # a seed the server drew: nobody knows it
    assert not table.seed_chosen
    seed = str(table.seed)
    pages = [Page(server, tokens[s], s) for s in (0, 1, None)]
    seen = play_through(pages, table)
    assert seen["answers"] > 20 and table.state.finished
    allow = protocol.allowed(table.game)
    for p in pages:
        for text in p.texts:
            check_sent(json.loads(text), allow)             # (b) every message, end included
        assert all(json.loads(t).get("seed_chosen") is False for t in p.texts if '"state"' in t[:20])
    # (b) the seed's value is in no message sent before the end (a drawn seed is 0 to 2**31: almost
    # always long enough to be searched for as text; a short one is looked for as a number)
    assert len(seen["before_end"]) > 3 * seen["answers"]
    for t in seen["before_end"]:
        assert seed not in t if len(seed) >= 6 else table.seed not in numbers_in(json.loads(t))
    # (a) every log asked for mid-game: a header with no seed, only allowed keys
    assert len(seen["midgame_logs"]) >= 9
    for seat, lines in seen["midgame_logs"]:
        assert lines[0]["type"] == "header" and lines[0]["seed"] is None and lines[0]["viewer"] == seat
        assert all(x["type"] != "result" for x in lines)
    # (c) at the end each page's log carries the seed (and its result)
    for p in pages:
        lines = p.log()
        check_sent(json.loads(p.texts[-1]), allow)
        assert lines[0]["seed"] == table.seed and lines[-1]["type"] == "result"
        p.close()


def test_a_chosen_seed_is_said_on_every_seats_page(server):
    chosen, tokens = server.new_table("meow", seed=12345)
    drawn, tokens2 = server.new_table("meow")
    assert chosen.seed_chosen and not drawn.seed_chosen
    for table, toks, flag in ((chosen, tokens, True), (drawn, tokens2, False)):
        pages = [Page(server, toks[s], s) for s in (0, 1, None)]
        for p in pages:
            assert p.last["seed_chosen"] is flag, (p.seat, p.last.get("seed_chosen"))
            p.close()
    # the mark survives a restart: it is kept with the table
    server.app.state.registry.tables.clear()
    pages = [Page(server, tokens[s], s) for s in (0, 1, None)]
    assert all(p.last["seed_chosen"] is True for p in pages)
    for p in pages:
        p.close()


def test_a_message_with_an_unlisted_key_is_withheld(server, monkeypatch):
    real = web_tables.view_for

    def leaky(state, seat, answers):
        return {**real(state, seat, answers), "rng": state.seed}        # a field nobody listed
    monkeypatch.setattr(web_tables, "view_for", leaky)
    table, tokens = server.new_table("meow", seed=987654321)
    ws = open_socket(server)
    ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
    text = ws.recv(timeout=30)
    ws.close()
    m = json.loads(text)
    assert m["type"] == "error" and "withheld" in m["message"] and "987654321" not in text


@pytest.mark.parametrize("msg, where", [
    ({"type": "state", "seed": 5}, "'seed'"),
    ({"type": "state", "view": {"zones": [{"zone": "hand", "secret": 1}]}}, "'secret'"),
    ({"type": "state", "view": {"zones": [{"zone": "hand", "cards": [{"id": 3, "rng": 1}]}]}}, "'rng'"),
    ({"type": "state", "events": [{"n": 1, "ev": {"t": "move", "seed": 1}}]}, "'seed'"),
    ({"type": "state", "names": [{"seed": 1}]}, "plain data"),
    ({"type": "error", "message": "x", "detail": 1}, "'detail'"),
])
def test_the_allow_list_refuses_what_it_does_not_name(msg, where):
    allow = protocol.allowed(catrules.load_game(GAMES["meow"]))
    with pytest.raises(protocol.Unlisted, match=where):
        protocol.check(msg, msg["type"], allow)
    with pytest.raises(protocol.Unlisted):
        protocol.check_log_line(json.dumps({"type": "header", "seed": None, "bot_rng": [1]}), allow)


def test_a_log_writer_can_withhold_the_seed_and_full_logs_keep_it():
    import io
    game = catrules.load_game(GAMES["meow"])
    for withhold, seed in ((True, None), (False, 77)):
        buf = io.StringIO()
        w = LogWriter(buf, game, 3, [], 77, ["a", "b", "c"], viewer=1, withhold_seed=withhold)
        w.close()
        header = json.loads(buf.getvalue().splitlines()[0])
        assert header["seed"] == seed and list(header) == ["type", "catrules", "language", "game", "title",
                                                          "players", "options", "seed", "seats", "viewer"]


def test_the_page_shows_a_chosen_seed(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    import shutil
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        pytest.skip("no Chromium found (Debian: apt-get install chromium)")
    _chosen, tokens = server.new_table("meow", seed=4242)
    _drawn, tokens2 = server.new_table("meow")
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu"])
        try:
            for toks, shown in ((tokens, True), (tokens2, False)):
                for seat in (0, None):
                    page = browser.new_page()
                    page.goto(f"http://127.0.0.1:{server.port}/play#{toks[seat]}")
                    page.wait_for_selector("body[data-state]", timeout=15000)
                    note = page.locator("#seed-note")
                    assert note.is_visible() is shown, (seat, shown)
                    if shown:
                        assert "chosen by its creator" in note.inner_text()
                    page.close()
        finally:
            browser.close()
