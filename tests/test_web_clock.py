"""The server keeps the clock of races: against a real uvicorn server on 127.0.0.1 with real
WebSocket clients.  A page that answers late but claims a fast time is ranked by the server's
measure; the server's pings are answered and give each socket's round trip, which comes off a
race's time; a second page of a seat opened late gains nothing; pongs do not count against the
rate limit; a socket that says no hello is closed.  :class:`Clock` itself is checked with
given times (no waiting)."""

from __future__ import annotations

import json
import queue
import socket
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
ws_client = pytest.importorskip("websockets.sync.client", reason="websockets is not installed")
from websockets.exceptions import ConnectionClosed

from catrules.web import links, protocol
from catrules.web.app import create_app, uvicorn_config
from catrules.web.guard import Limits
from catrules.web.links import Clock

ROOT = Path(__file__).resolve().parent.parent
RACE = ROOT / "tests" / "games" / "race.cat"        # two races: everyone grabs a card at once


class Server:
    """A real uvicorn server in a thread on a free port, configured as ``catrules serve`` is."""

    def __init__(self, data: Path, limits: Limits | None = None, games=(RACE,), **app):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        self.port = s.getsockname()[1]
        s.close()
        self.app = create_app(list(games), data, limits, **app)
        self.server = uvicorn.Server(uvicorn_config(self.app, "127.0.0.1", self.port, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.01)
        assert self.server.started, "the server did not start"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def new_table(self, seats=("human", "human"), seed=1, game="race") -> tuple:
        registry = self.app.state.registry
        made = registry.create({"game": game, "players": len(seats), "seats": list(seats), "seed": seed})
        tokens = {l["seat"]: l["link"].split("#", 1)[1] for l in made["links"]}
        return made["table"], tokens

    def conns(self, table_id: str, seat) -> list:
        return [c for c in self.app.state.hub.conns.get(table_id, ()) if c.seat == seat]


class Page:
    """A WebSocket client as a page: a thread reads, answers pings at once (or ``pong_delay``
    seconds later, or never) and keeps the other messages for the test."""

    def __init__(self, server: Server, token=None, pings: bool = True, pong_delay: float = 0.0):
        self.cm = ws_client.connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10)
        self.ws = self.cm.__enter__()
        self.inbox: queue.Queue = queue.Queue()
        self.pings: list = []
        self.pong_delay = pong_delay
        self.closed = None                  # (code, reason) once the server closed it
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        if token is not None:
            self.send({"type": "hello", "token": token, "pings": pings})

    def _read(self) -> None:
        try:
            while True:
                m = json.loads(self.ws.recv())
                if m["type"] == "ping":
                    self.pings.append(m["n"])
                    pong = {"type": "pong", "n": m["n"]}
                    if self.pong_delay:
                        threading.Timer(self.pong_delay, self.send, (pong,)).start()
                    else:
                        self.send(pong)
                else:
                    self.inbox.put((time.monotonic(), m))
        except ConnectionClosed as exc:
            rcvd = exc.rcvd
            self.closed = (rcvd.code, rcvd.reason) if rcvd is not None else (None, "")
        rcvd = self.ws.protocol.close_rcvd
        if self.closed is None:
            self.closed = (rcvd.code, rcvd.reason) if rcvd is not None else (None, "")
        self.inbox.put((time.monotonic(), None))

    def send(self, obj) -> None:
        try:
            self.ws.send(json.dumps(obj))
        except ConnectionClosed:
            pass

    def next(self, kind: str = "state", timeout: float = 20) -> tuple:
        """``(when it arrived, message)``: the next message of ``kind`` (others are skipped)."""
        end = time.monotonic() + timeout
        while True:
            at, m = self.inbox.get(timeout=max(0.01, end - time.monotonic()))
            assert m is not None, f"the server closed the page: {self.closed}"
            if m["type"] == kind:
                return at, m

    def race(self, timeout: float = 20) -> tuple:
        """``(when it arrived, state)`` of the next state asking this page a race."""
        while True:
            at, m = self.next("state", timeout)
            ds = m["view"]["decisions"]
            if ds and ds[0]["timed"]:
                return at, m

    def answer(self, state: dict, claim: float) -> None:
        d = state["view"]["decisions"][0]
        self.send({"type": "choose", "ask": state["ask"], "option": d["default"] or d["options"][0]["id"],
                   "time": claim})

    def close(self) -> None:
        self.cm.__exit__(None, None, None)
        self.reader.join(10)


@pytest.fixture(autouse=True)
def no_count_in(monkeypatch):
    """These tests time the server's clock itself, without the count-in before a race's options
    (links.COUNT_IN, which only moves the clock's start: tests/test_races_people.py)."""
    monkeypatch.setattr(links, "COUNT_IN", 0.0)


@pytest.fixture
def server(tmp_path):
    s = Server(tmp_path)
    yield s
    s.stop()


def race_result(page: Page, timeout: float = 20) -> dict:
    """The next race event this page is shown (who came in which order, and their times)."""
    end = time.monotonic() + timeout
    while True:
        _, m = page.next("state", max(0.01, end - time.monotonic()))
        for item in m["events"]:
            if item["ev"].get("t") == "race":
                return item["ev"]


def race_times(server: Server, table_id: str) -> list:
    """player -> recorded time of each answer with a time in the table's history (the game's record)."""
    table = server.app.state.registry.table(table_id)
    return [(h[0], h[2]) for h in table.state.history if len(h) == 3]


# ------------------------------------------------------------------------ races

def test_a_late_answer_claiming_a_fast_time_loses_to_an_honest_fast_one(server):
    tid, tokens = server.new_table()
    cheat, honest = Page(server, tokens[0]), Page(server, tokens[1])
    try:
        (t_cheat, s_cheat), (t_honest, s_honest) = cheat.race(), honest.race()
        time.sleep(max(0.0, t_honest + 0.1 - time.monotonic()))
        honest.answer(s_honest, 0.1)                    # after about 0.1 s, and says so
        time.sleep(max(0.0, t_cheat + 0.8 - time.monotonic()))
        cheat.answer(s_cheat, 0.01)                     # after 0.8 s (less at most 0.3 s), claiming 0.01 s
        ev = race_result(honest)
        assert [c["player"] for c in ev["choices"]] == [1, 0], ev       # the honest fast page won
        assert ev["times"][0] < ev["times"][1] and ev["times"][1] >= 0.5, ev
        recorded = dict(race_times(server, tid))
        assert recorded[0] >= 0.5 and recorded[1] < recorded[0]
    finally:
        cheat.close(), honest.close()


def test_a_page_of_the_seat_opened_late_is_timed_from_the_seats_first_page(server):
    _, tokens = server.new_table()
    first, other = Page(server, tokens[0]), Page(server, tokens[1])
    try:
        t0, _ = first.race()
        _, s_other = other.race()
        time.sleep(max(0.0, t0 + 0.8 - time.monotonic()))
        late = Page(server, tokens[0])                  # the same seat, opened after the race showed
        _, s_late = late.race()
        late.answer(s_late, 0.01)                       # at once on the new page
        time.sleep(0.2)
        other.answer(s_other, 5.0)
        ev = race_result(first)
        times = dict(zip([c["player"] for c in ev["choices"]], ev["times"]))
        assert times[0] >= 0.5, ev                      # timed from when the seat's first page was sent it
        late.close()
    finally:
        first.close(), other.close()


def test_what_a_page_claims_is_never_believed_and_may_be_left_out(server):
    _, tokens = server.new_table()
    a, b = Page(server, tokens[0]), Page(server, tokens[1])
    try:
        (_, sa), (_, sb) = a.race(), b.race()
        d = sa["view"]["decisions"][0]
        a.send({"type": "choose", "ask": sa["ask"], "option": d["options"][0]["id"]})     # no "time" at all
        time.sleep(0.5)
        b.answer(sb, 99.0)                              # a slow claim: measured as well
        ev = race_result(a)
        assert len(ev["times"]) == 2 and all(0.1 <= t < 30 for t in ev["times"]), ev
        assert 99.0 not in ev["times"] and ev["choices"][0]["player"] == 0, ev
    finally:
        a.close(), b.close()


# ------------------------------------------------------------------------ pings

def test_pings_are_answered_and_give_the_round_trip(server):
    tid, tokens = server.new_table()
    quick, slow, silent = Page(server, tokens[0]), Page(server, tokens[1], pong_delay=0.2), None
    try:
        quick.race(), slow.race()
        deadline = time.monotonic() + 20
        conn_q, conn_s = server.conns(tid, 0)[0], server.conns(tid, 1)[0]
        while (len(conn_q.clock.rtts) < links.PINGS_AT_START or len(conn_s.clock.rtts) < links.PINGS_AT_START) \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(quick.pings) >= links.PINGS_AT_START and len(conn_q.clock.rtts) >= links.PINGS_AT_START
        # a page whose pongs take 0.2 s is measured as 0.2 s away (the least of its round trips)
        assert 0.19 <= min(conn_s.clock.rtts) and 0.19 <= conn_s.clock.rtt() <= links.RTT_CAP
        assert 0 <= conn_q.clock.rtt() < min(conn_s.clock.rtts)
        # a pong answering no ping is ignored: no error, the page stays (Clock.pong: no round trip)
        quick.send({"type": "pong", "n": 987654})
        quick.send({"type": "pong", "n": quick.pings[0]})          # answered already
        quick.send({"type": "log"})
        _, log = quick.next("log")
        assert log["lines"] and quick.inbox.empty() and quick.closed is None
        # a page that does not ask for pings is sent none (older pages and programs)
        silent = Page(server, tokens[1], pings=False)
        silent.next("state")
        time.sleep(1.0)
        assert silent.pings == []
    finally:
        quick.close(), slow.close()
        if silent is not None:
            silent.close()


def test_the_round_trip_comes_off_a_races_time(server):
    tid, tokens = server.new_table()
    far, near = Page(server, tokens[0], pong_delay=0.3), Page(server, tokens[1])
    try:
        (t_far, s_far), (_, s_near) = far.race(), near.race()
        conn = server.conns(tid, 0)[0]
        deadline = time.monotonic() + 20
        while not conn.clock.rtts and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(max(0.0, t_far + 0.8 - time.monotonic()))
        far.answer(s_far, 0.8)
        time.sleep(0.3)
        near.answer(s_near, 1.0)
        ev = race_result(near)
        far_time = ev["times"][[c["player"] for c in ev["choices"]].index(0)]
        # at least 0.8 s passed on the server's clock: under that, the page's round trip came off it
        assert 0.1 <= far_time < 0.8, ev
    finally:
        far.close(), near.close()


def test_pongs_do_not_count_against_the_rate_limit(tmp_path):
    srv = Server(tmp_path, Limits(rate=1.0, burst=2))
    try:
        _, tokens = srv.new_table()
        page = Page(srv, tokens[0])
        page.next("state")
        deadline = time.monotonic() + 20
        while len(page.pings) < links.PINGS_AT_START and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.5)         # every pong sent and read
        assert len(page.pings) >= links.PINGS_AT_START and page.closed is None
        page.send({"type": "log"})
        _, m = page.next("log")
        assert m["lines"]
        page.close()
    finally:
        srv.stop()


# ------------------------------------------------------------------------ hello

def test_a_socket_that_says_no_hello_is_closed(tmp_path):
    srv = Server(tmp_path, Limits(hello_timeout=1.0))
    try:
        _, tokens = srv.new_table()
        mute, wrong, good = Page(srv), Page(srv, "not-a-token"), Page(srv, tokens[0])
        _, err = wrong.next("error")
        assert "not valid" in err["message"]
        for p in (mute, wrong):
            p.reader.join(15)
            code, reason = p.closed
            assert code == 1008 and "hello" in reason, p.closed
        good.next("state")
        time.sleep(0.5)
        good.send({"type": "log"})
        _, m = good.next("log")                          # a page that said hello stays
        assert m["lines"] and good.closed is None
        good.close()
    finally:
        srv.stop()


def test_the_hello_timeout_is_ten_seconds_by_default():
    assert Limits().hello_timeout == 10.0


# ------------------------------------------------------------------------ the clock itself

def test_the_clock_measures_from_the_first_showing_less_the_least_round_trip():
    c = Clock()
    c.written(("ask", 4), 100.0)
    c.written(("ask", 4), 100.5)                        # the same decision again: timed from its first
    assert c.race_time(4, 101.0) == pytest.approx(1.0)
    assert c.race_time(5, 101.0) is None                # never shown on this socket
    ping = c.ping()
    assert ping == protocol.check(ping, "ping", protocol.SENT) and ping["type"] == "ping"
    assert not c.pong(ping["n"], 100.1)                 # not written yet: a guess, ignored
    c.written(("ping", ping["n"]), 100.2)
    assert not c.pong(ping["n"] + 1, 100.3)             # answers no ping
    assert c.pong(ping["n"], 100.3) and not c.pong(ping["n"], 100.4)
    for at, back in ((101.0, 101.05), (102.0, 102.9)):  # a late pong does not make the page look far
        p = c.ping()
        c.written(("ping", p["n"]), at)
        c.pong(p["n"], back)
    assert c.rtt() == pytest.approx(0.05)
    assert c.race_time(4, 101.0) == pytest.approx(0.95)
    assert c.race_time(4, 100.01) == 0.0                # never below zero
    far = Clock()
    p = far.ping()
    far.written(("ping", p["n"]), 0.0)
    far.pong(p["n"], 5.0)
    assert far.rtt() == links.RTT_CAP                   # a page cannot make itself look further than that


def test_a_seats_pages_share_the_first_showing():
    first, late = Clock(), Clock()
    late.seat = first.seat                              # as Hub.add shares them
    first.written(("ask", 7), 10.0)
    late.written(("ask", 7), 12.0)
    assert late.race_time(7, 12.5) == pytest.approx(2.5)
    first.written(("ask", 8), 20.0)                     # the next decision
    assert late.race_time(8, 21.0) is None              # not shown on the late page
    late.written(("ask", 8), 20.5)
    assert late.race_time(8, 21.0) == pytest.approx(1.0)


def test_a_pong_is_read_and_a_bad_one_refused():
    assert protocol.read_message('{"type": "pong", "n": 3}')["n"] == 3
    for bad in ('{"type": "pong"}', '{"type": "pong", "n": "x"}', '{"type": "pong", "n": true}'):
        with pytest.raises(protocol.Refused, match="pong needs"):
            protocol.read_message(bad)
    with pytest.raises(protocol.Refused, match="pings"):
        protocol.read_message('{"type": "hello", "token": "abc", "pings": 1}')


# ------------------------------------------------------------------------ the real page

def test_the_table_page_answers_pings_and_its_race_is_timed_by_the_server(server):
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    import shutil
    chromium = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"), "/usr/bin/chromium")
                     if p and Path(p).exists()), None)
    if chromium is None:
        pytest.skip("no Chromium found (Debian: apt-get install chromium)")
    tid, tokens = server.new_table(seats=("human", "bot"))
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox", "--disable-gpu",
                                                                     "--disable-background-networking"])
        try:
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{server.port}/play#{tokens[0]}")
            page.wait_for_selector("body[data-state='deciding']", timeout=20000)
            conn = server.conns(tid, 0)[0]
            deadline = time.monotonic() + 20
            while len(conn.clock.rtts) < links.PINGS_AT_START and time.monotonic() < deadline:
                time.sleep(0.05)
            assert len(conn.clock.rtts) >= links.PINGS_AT_START and conn.clock.rtt() < links.RTT_CAP
            page.click("#choices button.choice, #table .card.legal")
            deadline = time.monotonic() + 20
            while not any(p == 0 for p, _ in race_times(server, tid)) and time.monotonic() < deadline:
                time.sleep(0.05)
            mine = [t for p, t in race_times(server, tid) if p == 0]
            assert mine and 0.1 <= mine[0] < 30
        finally:
            browser.close()
