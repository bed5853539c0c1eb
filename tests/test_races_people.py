"""Races people can win: bots race at the people's own pace, at a level; a race starts with a
count-in; a page opened during a race pauses its clock; simulations keep the seeded model.

A scripted person stands in for a person at the table (an interactive seat) answering every
race 1.0 s after its options appear.  Over 200 races against two bots they must win about a
third at ``even`` (a wide interval), more at ``easy``, less at ``hard``.
"""

import asyncio
import sys
import io
import itertools
import math
import time
from pathlib import Path

import pytest
from rich.console import Console

import catrules
from catrules.bots.basic import make_seat
from catrules.frontends.race_clock import COUNT_IN, RaceClock, count_in_steps
from catrules.frontends.terminal import TerminalSeat
from catrules.frontends.tui import TableApp, TextScreen, TuiSeat
from catrules.play import pace
from catrules.play.match import Match
from catrules.play.seats import Choice, Seat
from catrules.runtime.decisions import Decision, Option

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tui_screen import screen_text, until  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
FLAPCAT = ROOT / "games" / "flapcat.cat"

# Four open cards raced for 200 times (shared with tests/test_races_fair.py).
RACES = ROOT / "tests" / "games" / "four_card_race.cat"


@pytest.fixture(scope="module")
def grab():
    return catrules.load_game(RACES)


class Person(Seat):
    """A person at the table (interactive) who answers every race in ``times`` seconds in turn."""

    name = "person"
    interactive = True
    wants_events = False

    def __init__(self, times):
        self.times = itertools.cycle(times)

    def decide(self, view, decision) -> Choice:
        return Choice(decision.options[0].id, next(self.times) if decision.timed else None)


def share(game, level, times=(1.0,), bots=2, seed=1):
    """(races the person won, races run) in one game of 200 races."""
    st = game.new_state(bots + 1, seed=seed, log=True)
    Match(game, st, [Person(times)] + [make_seat("random") for _ in range(bots)], race_level=level).run()
    races = [ev for ev in st.log if ev["t"] == "race"]
    return sum(ev["choices"][0]["player"] == 0 for ev in races), len(races)


# ------------------------------------------------------------------ a fair share

def test_a_steady_person_wins_about_their_share_at_even_and_more_at_easy_less_at_hard(grab):
    got = {level: share(grab, level) for level in pace.LEVELS}
    assert all(ran == 200 for _won, ran in got.values())
    even, easy, hard = (got[k][0] / 200 for k in ("even", "easy", "hard"))
    assert 0.22 <= even <= 0.45, got              # a third of the races, within a wide interval
    assert easy > even + 0.08 and hard < even - 0.08, got
    assert hard > 0.03, got                       # hard is not hopeless


def test_a_person_whose_times_vary_still_wins_about_their_share(grab):
    won, ran = share(grab, "even", times=(0.7, 1.0, 1.4, 0.9, 1.2), seed=2)
    assert 0.2 <= won / ran <= 0.47, (won, ran)


def test_bots_follow_the_people_pace_slow_or_quick(grab):
    # the bots' times move with the person's: a slow person's bots are slow, a quick one's quick
    def bot_median(t):
        st = grab.new_state(2, seed=3, log=True)
        Match(grab, st, [Person([t]), make_seat("random")]).run()
        times = sorted(h[2] for h in st.history[100:] if h[0] == 1)
        return times[len(times) // 2]
    slow, quick = bot_median(2.5), bot_median(0.5)
    assert 1.8 < slow < 3.5 and 0.35 < quick < 0.7, (slow, quick)


def test_the_model_reads_the_options_and_the_levels_order_the_bots():
    assert pace.model_time(4, 4) < pace.model_time(4, 12) < pace.model_time(8, 24)
    # four one-word options: a base, a choice, and about 2.5 words read
    assert pace.model_time(4, 4) == pytest.approx(0.5 + 0.15 * math.log2(5) + 2.5 * 60 / 238)
    p = {level: pace.Pace(level).median(4, 4, 2)[0] for level in pace.LEVELS}
    assert p["hard"] < p["even"] < p["easy"]
    with pytest.raises(ValueError, match="unknown race level"):
        pace.Pace("brutal")
    # with one bot and the same spread as the person, even is exactly the person's median
    assert pace.offset(0.3, 0.3, 1, 0.5) == pytest.approx(0.0, abs=1e-6)
    assert pace.win_chance(pace.offset(0.1, 0.2, 3, 0.25), 0.1, 0.2, 3) == pytest.approx(0.25, abs=1e-3)


# ------------------------------------------------------------------ determinism

def test_without_people_the_seeded_model_is_kept(grab):
    def sim(seed):
        st = grab.new_state(3, seed=seed, log=True)
        m = Match(grab, st, [make_seat("random") for _ in range(3)])
        assert m.pace is None
        m.run()
        return st.history
    assert sim(5) == sim(5) and sim(5) != sim(6)


def test_same_answers_same_game_and_a_save_keeps_the_pace(grab, tmp_path):
    def game():
        st = grab.new_state(3, seed=4, log=True)
        return st, Match(grab, st, [Person([1.0, 0.8])] + [make_seat("random") for _ in range(2)])
    a, ma = game()
    ma.run()
    b, _ = game()
    _.run()
    assert a.history == b.history
    # stop half-way, save, resume: the rest is the same as without the stop
    c, mc = game()
    for _i in range(100):
        mc.step()
    mc.save(tmp_path / "g.save.json")
    data = Match.read_save(tmp_path / "g.save.json")
    assert data["race_level"] == "even" and data["pace"] == mc.pace.record() and data["pace"]
    st = grab.restore(data["state"])
    st.log = []
    mr = Match.resume(grab, data, [Person([1.0, 0.8])] + [make_seat("random") for _ in range(2)], state=st)
    mr.run()
    assert st.history == a.history


# ------------------------------------------------------------------ count-in, terminal

def test_the_terminal_counts_in_then_shows_the_options_and_starts_the_clock(monkeypatch):
    now = [100.0]
    monkeypatch.setattr("catrules.frontends.terminal.time.monotonic", lambda: now[0])
    waits = []

    def sleep(s):
        waits.append(s)
        now[0] += s

    def answer(_prompt):
        now[0] += 1.0                       # a second after the options appeared
        return "2"
    con = Console(file=io.StringIO(), width=80, color_system=None)
    opts = [Option("c1", "red cat", 1, "value"), Option("c2", "blue cat", 2, "value")]
    d = Decision(0, "race", "Grab one", opts, None, 1, True)
    seat = TerminalSeat(console=con, input=answer, sleep=sleep)
    seat.start(None, 0)
    ch = seat.decide({"players": 2, "you": 0, "zones": [], "counters": {}}, d)
    out = con.file.getvalue()
    assert ch.option == "c2" and ch.reaction_time == pytest.approx(1.0)     # the count-in is not counted
    assert sum(waits) == pytest.approx(COUNT_IN) and 1.0 <= COUNT_IN <= 2.5
    assert "3 2 1 go!" in out and out.index("3 2 1 go!") < out.index("red cat")
    assert [s for s, _w in count_in_steps()] == ["3", "2", "1", "go!"]


# ------------------------------------------------------------------ count-in and pause, full screen

def test_the_full_screen_counts_in_and_a_page_opened_pauses_the_clock():
    game = catrules.load_game(FLAPCAT)
    st = game.new_state(3, seed=3, log=True, ask_forced=True)
    seat = TuiSeat(game=game, names=["you", "greedy", "greedy"])
    match = Match(game, st, [seat, make_seat("greedy"), make_seat("greedy")])
    app = TableApp(match, [seat], game.title)
    now = [50.0]
    app.race = RaceClock(now=lambda: now[0])
    seen = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            # the first screen is a race: the count-in comes first, without the options
            await until(pilot, lambda: app.waiting_options is not None)
            seen["counting"] = screen_text(app)
            d = app.waiting_options[0]
            seen["first"] = d.options[0].label
            assert app.decision is None
            await until(pilot, lambda: app.decision is not None and app.race.running)
            seen["shown"] = screen_text(app)
            now[0] += 0.4
            await pilot.press("h")                  # the history, over the table: the clock stops
            await until(pilot, lambda: isinstance(app.screen, TextScreen))
            now[0] += 5.0
            await pilot.press("escape")
            await until(pilot, lambda: not isinstance(app.screen, TextScreen))
            now[0] += 0.6
            await pilot.press("1")
            await until(pilot, lambda: any(h[0] == 0 for h in match.state.history))
            seen["rec"] = next(h for h in match.state.history if h[0] == 0)
            await pilot.press("q")
            await until(pilot, lambda: not app.worker.is_alive())
    asyncio.run(main())
    assert "race in 3" in seen["counting"] and seen["first"] not in seen["counting"].split("race in")[1]
    assert seen["first"] in seen["shown"]
    assert seen["rec"][2] == pytest.approx(1.0)          # 0.4 + 0.6: the 5 s with the history open not counted


# ------------------------------------------------------------------ the web

def test_the_lobby_offers_the_level_and_a_table_keeps_it(tmp_path):
    pytest.importorskip("starlette")
    from catrules.web.store import Store
    from catrules.web.registry import Registry
    from catrules.web.tables import WebError
    reg = Registry(Store(tmp_path / "t.db"), [FLAPCAT])
    key = next(iter(reg.games))
    with pytest.raises(WebError, match="race level is one of: easy, even, hard"):
        reg.create({"game": key, "players": 2, "seats": ["human", "greedy"], "race_level": "brutal"})
    made = reg.create({"game": key, "players": 2, "seats": ["human", "greedy"], "race_level": "hard"})
    assert reg.table(made["table"]).match.pace.level == "hard"
    html = (ROOT / "catrules" / "web" / "static" / "index.html").read_text()
    assert 'id="race-level"' in html and all(f'value="{k}"' in html for k in pace.LEVELS)
    js = (ROOT / "catrules" / "web" / "static" / "play.js").read_text()
    from catrules.web import links
    assert f"const COUNT_IN_MS = {round(links.COUNT_IN * 1000)};" in js     # the page counts in as the server


def test_the_server_times_a_race_from_after_the_count_in(tmp_path):
    pytest.importorskip("uvicorn")
    pytest.importorskip("websockets")
    from test_web_clock import Page, Server, race_result
    from catrules.web import links
    server = Server(tmp_path)
    try:
        _tid, tokens = server.new_table()
        a, b = Page(server, tokens[0]), Page(server, tokens[1])
        try:
            (ta, sa), (tb, sb) = a.race(), b.race()
            b.answer(sb, 0.0)                       # at once: during the count-in, a false start
            time.sleep(max(0.0, ta + links.COUNT_IN + 0.3 - time.monotonic()))
            a.answer(sa, 0.0)                       # 0.3 s after the options showed
            ev = race_result(a)
            times = dict(zip([c["player"] for c in ev["choices"]], ev["times"]))
            assert [c["player"] for c in ev["choices"]] == [0, 1], ev
            assert 0.0 <= times[0] < 1.0, ev        # counted from after the count-in
            assert times[1] == pytest.approx(links.COUNT_IN), ev   # a false start: the whole count-in
        finally:
            a.close(), b.close()
    finally:
        server.stop()
