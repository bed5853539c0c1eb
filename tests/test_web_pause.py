"""A round's end at a web table waits for the people (catrules.web.pauses): against a real
uvicorn server on 127.0.0.1 with real WebSocket clients.  The table sends no next decision (no
race) before every person has continued, or before the pause's time is up (a person who left
holds it no longer); the race after the pause is timed from when its options were sent after
the pause; a spectator cannot continue; bots wait too and a table of bots only never pauses;
a pause survives a restart and one whose time is up is skipped."""

from __future__ import annotations

import queue
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("uvicorn", reason="the web extra (uvicorn) is not installed")
pytest.importorskip("websockets.sync.client", reason="websockets is not installed")

from catrules.web import links, protocol
from catrules.web.pauses import Pause, paused_view
from test_web_clock import Page, Server, race_times

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ROOT / "tests" / "games" / "race_rounds.cat"   # three races, each round tallied


def open_table(server: Server, seats=("human", "human"), seed=1) -> tuple:
    """``(table id, {seat: token}, spectator token)`` of a new table of the rounds game."""
    made = server.app.state.registry.create({"game": "race_rounds", "players": len(seats),
                                             "seats": list(seats), "seed": seed})
    tokens = {l["seat"]: l["link"].split("#", 1)[1] for l in made["links"]}
    return made["table"], tokens, made["spectator"].split("#", 1)[1]


def grab(page: Page, state: dict, k: int) -> None:
    """Answer a race with the ``k``-th option (two pages taking different cards: no second choice)."""
    d = state["view"]["decisions"][0]
    page.send({"type": "choose", "ask": state["ask"], "option": d["options"][k]["id"]})


def paused(page: Page, timeout: float = 20) -> dict:
    """The next state of this page that says the table is paused (a second choice on the way,
    the card taken by a faster player, is answered with its default)."""
    while True:
        _, m = page.next("state", timeout)
        if "pause" in m:
            return m
        ds = m["view"]["decisions"]
        if ds and not ds[0]["timed"]:
            page.send({"type": "choose", "ask": m["ask"], "option": ds[0]["default"] or ds[0]["options"][0]["id"]})


def race_at(page: Page, ask: int, timeout: float = 20) -> tuple:
    """``(when it arrived, state)``: the race of decision ``ask`` (older states are skipped)."""
    while True:
        at, m = page.race(timeout)
        if m["ask"] == ask:
            return at, m


def no_state_with_decisions(page: Page, seconds: float) -> list:
    """The states this page got in ``seconds``; none may hold a decision."""
    got, end = [], time.monotonic() + seconds
    while True:
        try:
            _, m = page.inbox.get(timeout=max(0.01, end - time.monotonic()))
        except queue.Empty:
            return got
        if m is not None and m["type"] == "state":
            assert not m["view"]["decisions"] and "pause" in m, m
            got.append(m)
        if time.monotonic() >= end:
            return got


def first_round(a: Page, b: Page) -> None:
    (_, sa), (_, sb) = a.race(), b.race()
    grab(a, sa, 0)
    grab(b, sb, 1)


@pytest.fixture
def slow(tmp_path):
    s = Server(tmp_path, games=(ROUNDS,), round_pause=30.0)
    yield s
    s.stop()


def test_the_table_waits_after_a_rounds_end_until_each_person_continues(slow):
    tid, tokens, spectator = open_table(slow)
    a, b, watcher = Page(slow, tokens[0]), Page(slow, tokens[1]), Page(slow, spectator)
    try:
        first_round(a, b)
        m = paused(a)
        assert m["pause"]["waiting"] == [0, 1] and 25 <= m["pause"]["seconds"] <= 30, m["pause"]
        assert m["view"]["decisions"] == [] and "zones" not in m["view"] and m["view"]["waiting_for"] == [0, 1]
        assert m["ending"]["kind"] == "round" and m["events"][-1]["t"] == "tally"  # nothing of the next round
        seen = paused(watcher)
        assert seen["pause"]["waiting"] == [0, 1] and seen["view"]["decisions"] == []
        # a spectator cannot continue, an answer is refused during the pause
        watcher.send({"type": "continue"})
        assert "spectator" in watcher.next("error")[1]["message"]
        b.send({"type": "choose", "ask": m["ask"], "option": "c1"})
        assert "waiting for everyone to continue" in b.next("error")[1]["message"]
        a.send({"type": "continue", "ask": m["ask"]})
        assert paused(b)["pause"]["waiting"] == [1]
        a.send({"type": "continue", "ask": m["ask"]})
        assert "already continued" in a.next("error")[1]["message"]
        # one person still reading: no race is sent, no bot or answer moves the table
        no_state_with_decisions(a, 1.5)
        table = slow.app.state.registry.table(tid)
        assert table.pause is not None and table.pause.waiting == [1] and not table.answers
        b.send({"type": "continue", "ask": m["ask"]})
        _, race = race_at(a, m["ask"])
        assert "pause" not in race and race["view"]["zones"] and table.pause is None
    finally:
        a.close(), b.close(), watcher.close()


def test_the_race_after_a_pause_is_timed_from_when_its_options_were_sent(slow):
    tid, tokens, _ = open_table(slow)
    a, b = Page(slow, tokens[0]), Page(slow, tokens[1])
    try:
        first_round(a, b)
        m = paused(a)
        a.send({"type": "continue", "ask": m["ask"]})
        time.sleep(4.0)                                 # the other one reads on: a long pause
        b.send({"type": "continue", "ask": m["ask"]})
        (t_a, s_a), (t_b, s_b) = race_at(a, m["ask"]), race_at(b, m["ask"])
        # a person who answers 1.0 s after the options appear (after the count-in)
        time.sleep(max(0.0, t_b + links.COUNT_IN + 1.0 - time.monotonic()))
        grab(b, s_b, 0)
        time.sleep(max(0.0, t_a + links.COUNT_IN + 1.5 - time.monotonic()))
        grab(a, s_a, 1)
        paused(a)                                       # the second round's end
        times = race_times(slow, tid)[2:]               # the second race's answers
        mine = dict(times)[1]
        # timed about 1.0 s (less the round trip, at most 0.3 s): neither the 4 s pause nor the
        # count-in counts (with the pause it would be over 4.7 s; the bound leaves room for a busy machine)
        assert 0.7 <= mine <= 3.0, times
    finally:
        a.close(), b.close()


def test_without_the_people_the_pause_ends_when_its_time_is_up_and_bots_wait(tmp_path):
    server = Server(tmp_path, games=(ROUNDS,), round_pause=2.0)
    try:
        tid, tokens, _ = open_table(server, seats=("human", "bot"))
        a = Page(server, tokens[0])
        _, s = a.race()
        grab(a, s, 0)
        m = paused(a)
        started = time.monotonic()
        table = server.app.state.registry.table(tid)
        made = server.app.state.pool.decisions
        a.close()                                       # the person left without continuing
        time.sleep(1.0)
        assert table.pause is not None and not table.answers          # the bot waits too
        assert server.app.state.pool.decisions == made
        b = Page(server, tokens[0])                     # back later: the race after the pause is there
        _, race = race_at(b, m["ask"], timeout=15)
        assert time.monotonic() - started >= 1.5
        assert table.pause is None
        b.close()
    finally:
        server.stop()


def test_a_table_of_bots_only_never_pauses(tmp_path):
    server = Server(tmp_path, games=(ROUNDS,), round_pause=300.0)
    try:
        tid, _, spectator = open_table(server, seats=("bot", "bot"))
        table = server.app.state.registry.table(tid)
        table.shown = table.changes                     # as the lobby's request does: nothing to show yet
        watcher = Page(server, spectator)               # a page joining lets the bots play
        end = time.monotonic() + 30
        while not table.state.finished and time.monotonic() < end:
            assert table.pause is None
            time.sleep(0.05)
        assert table.state.finished                     # three rounds, no pause of 300 s between them
        with table.lock:                                # (read once the bots' last change is saved)
            pass
        assert sum(1 for ev in server.app.state.store.events(tid, None) if ev[1].get("t") == "tally") == 3
        watcher.close()
    finally:
        server.stop()


def test_a_pause_survives_a_restart(tmp_path):
    server = Server(tmp_path, games=(ROUNDS,), round_pause=30.0)
    try:
        tid, tokens, _ = open_table(server)
        a, b = Page(server, tokens[0]), Page(server, tokens[1])
        first_round(a, b)
        before = paused(a)
        a.send({"type": "continue", "ask": before["ask"]})
        assert paused(b)["pause"]["waiting"] == [0, 1]
        assert paused(b)["pause"]["waiting"] == [1]
        a.close(), b.close()
    finally:
        server.stop()
    server = Server(tmp_path, games=(ROUNDS,), round_pause=30.0)    # a new server on the same data
    try:
        b = Page(server, tokens[1])
        m = paused(b)
        assert m["pause"]["waiting"] == [1] and m["ask"] == before["ask"] and not m["view"]["decisions"]
        b.send({"type": "continue", "ask": m["ask"]})
        race_at(b, before["ask"])
        b.close()
    finally:
        server.stop()


def test_a_pause_whose_time_is_up_is_skipped_and_a_continue_is_checked():
    assert Pause.from_dict({"waiting": [1], "until": 100.0, "upto": 9}, 2, now=99.0).waiting == [1]
    assert Pause.from_dict({"waiting": [1], "until": 100.0, "upto": 9}, 2, now=100.5) is None   # time up
    assert Pause.from_dict({"waiting": [5], "until": 100.0, "upto": 9}, 2, now=99.0) is None    # nobody to wait for
    assert Pause.from_dict({"waiting": "x"}, 2) is None and Pause.from_dict(None, 2) is None
    assert protocol.read_message('{"type": "continue"}') == {"type": "continue"}
    with pytest.raises(protocol.Refused, match="ask"):
        protocol.read_message('{"type": "continue", "ask": "soon"}')
    view = paused_view({"zones": [1], "counters": {}, "decisions": [{"x": 1}], "players": 2, "running": []})
    assert view == {"decisions": [], "players": 2}
    msg = {"type": "state", "view": {}, "events": [], "pause": {"waiting": [1], "seconds": 3}}
    protocol.check(msg, "state", protocol.SENT)
    with pytest.raises(protocol.Unlisted):
        protocol.check({**msg, "pause": {"waiting": [1], "until": 3.0}}, "state", protocol.SENT)


def test_the_round_pause_on_the_command_line(capsys):
    from catrules.cli import main
    assert main(["serve", "--help"]) == 0
    assert "--round-pause" in capsys.readouterr().out
    for bad in ("-1", "nan", "7200"):
        assert main(["serve", str(ROUNDS), "--round-pause", bad]) == 2
        err = capsys.readouterr().err
        assert "--round-pause" in err and "out of range" in err and "Traceback" not in err
