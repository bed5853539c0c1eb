"""The full-screen table at 80×24 with the most players of each seed game (issue 25): every
player named, the status line and the decision in sight, the areas with more scrolling from
the keyboard and saying so, long options kept inside the screen, the history at its newest
event, and a resumed game's past shown.  Driven headless with Textual's pilot."""

import asyncio

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.frontends.tui import TableApp, TextScreen, TuiSeat
from catrules.frontends.tui_fit import allot, past_events
from catrules.frontends.tui_widgets import Options, Panel
from catrules.play.match import Match
from catrules.runtime.decisions import Decision, Option

from test_tui import GAMES, screen_text, until

SIZE = (80, 24)
MOST = {"meow": 6, "catlady": 4, "flapcat": 6}


@pytest.fixture(autouse=True)
def no_count_in(monkeypatch):
    """What fits on screen is checked here; the races' count-in (1.5 s of real time each) is
    tested in test_races_people, so these tables race at once."""
    monkeypatch.setattr(TableApp, "count_in", 0.0)


def new_table(name, players, seed=11, seat_class=TuiSeat, state=None, decisions=0, match_data=None):
    game = catrules.load_game(GAMES[name])
    names = ["you"] + ["greedy"] * (players - 1)
    seat = seat_class(game=game, names=names, decisions=decisions)
    seats = [seat] + [make_seat("greedy") for _ in range(players - 1)]
    if match_data is not None:
        match = Match.resume(game, match_data, seats, state=state)
    else:
        st = game.new_state(players, seed=seed, log=True, ask_forced=True)
        match = Match(game, st, seats)
    return game, match, seat, TableApp(match, [seat], game.title)


def drive(app, script):
    async def main():
        async with app.run_test(size=SIZE) as pilot:
            await script(pilot)
            if app.worker.is_alive():
                await pilot.press("q")
                await until(pilot, lambda: not app.worker.is_alive(), tries=500)
    asyncio.run(main())


async def answer(pilot, app, seat):
    """The scripted person: the second option of a race at once, else Enter (the default)."""
    await until(pilot, lambda: app.decision is not None or seat.final is not None, tries=1500)
    if seat.final is not None:
        return False
    await pilot.pause(0.02)
    await pilot.press("2" if app.decision.timed and len(app.decision.options) > 1 else "enter")
    return True


def check_screen(app, seat, text):
    """What must be in sight whatever happens: the screen's size, every other player by name,
    the status line, the decision's prompt and the option under the cursor (or the page of
    options it is on), what happened, and a hint on each area that holds more than it shows."""
    lines = text.splitlines()
    assert len(lines) <= SIZE[1] and max(len(x) for x in lines) <= SIZE[0], text
    n = seat.painter.n
    players_area = [ln[:app.query_one("#players").region.width] for ln in lines]
    for pl in range(1, n):
        assert any(ln.startswith(f"{pl + 1} greedy") for ln in players_area), (pl, text)
    assert "q save+quit" in lines[-1] and f"decision {seat.decisions}" in lines[-1], text
    assert "─what happened─" in text and "nothing yet" not in text
    events = app.query_one("#events")
    assert events.region.height >= 3, text        # its title and two lines at least
    r = events.region
    top = lines[r.y + 1][r.x:r.x + r.width].strip(" │")
    assert top.startswith("•"), (top, text)       # whole events: the top line is never a cut end
    flat = " ".join(text.split())
    d = app.decision
    if d is not None:
        assert " ".join(d.prompt.split())[:40] in flat, text
        cur = app.query_one("#options", Options).cursor
        assert f"{cur + 1} " in flat
        label = " ".join(d.options[cur].label.split())
        assert label[:20] in flat, (label, text)
    for pid in ("shared", "players", "mine"):
        panel = app.query_one(f"#{pid}", Panel)
        if panel.more():
            assert "▼ more" in text.splitlines()[panel.region.y], (pid, text)


async def read_table(pilot, app):
    """Everything the table area holds, read by scrolling it from the keyboard (PgDn)."""
    panel = app.query_one("#shared", Panel)
    seen = [screen_text(app)]
    if not panel.more():
        return seen
    if not panel.has_focus:
        await pilot.press("tab")
        for _ in range(6):
            if panel.has_focus:
                break
            await pilot.press("tab")
    assert panel.has_focus
    for _ in range(40):
        await pilot.press("pagedown")
        await pilot.pause(0.02)
        seen.append(screen_text(app))
        if panel.scroll_y >= panel.max_scroll_y:
            break
    assert panel.scroll_y == panel.max_scroll_y > 0
    assert "▲ PgUp" in seen[-1].splitlines()[panel.region.y]
    return seen


@pytest.mark.parametrize("name", ["meow", "catlady", "flapcat"])
def test_each_seed_game_fits_80x24_with_its_most_players(name):
    game, match, seat, app = new_table(name, MOST[name])
    got = {"checked": 0, "read": []}

    async def script(pilot):
        for k in range(40):
            if not await answer(pilot, app, seat):
                break
            await until(pilot, lambda: app.decision is not None or seat.final is not None, tries=1500)
            if app.decision is None:
                break
            await pilot.pause(0.05)
            check_screen(app, seat, screen_text(app))
            got["checked"] += 1
        if app.decision is not None and not app.decision.timed:
            got["read"] = await read_table(pilot, app)
            got["view"] = seat.view
    drive(app, script)
    assert got["checked"] >= 10
    if got["read"]:
        # every shared zone of the table is reached by the keyboard
        p, seen = seat.painter, "\n".join(got["read"])
        for z in got["view"]["zones"]:
            if z.get("owner") is None and z.get("count"):
                assert p.sym(z["zone"]) in seen, z["zone"]


def test_the_market_of_cat_lady_is_reached_by_page_down_and_says_so():
    game, match, seat, app = new_table("catlady", 4, seed=7)
    got = {}

    async def script(pilot):
        for _ in range(30):
            await answer(pilot, app, seat)
            await until(pilot, lambda: app.decision is not None)
            if app.query_one("#shared", Panel).more():
                break
        await pilot.pause(0.05)
        got["first"] = screen_text(app)
        got["read"] = await read_table(pilot, app)
    drive(app, script)
    assert "─table── ▼ more: " in got["first"].splitlines()[0]
    whole = "\n".join(got["read"])
    for zone in ("market", "strays", "supply", "tokens"):
        assert zone in whole, zone


class LongQuestion(TuiSeat):
    """A person asked, at their third decision, a question with three long options."""

    def decide(self, view, decision):
        if self.decisions != 2:
            return super().decide(view, decision)
        ids = [o.id for o in decision.options]
        long = [Option(ids[min(i, len(ids) - 1)], f"option {i + 1}: " + "a very long name of a thing " * 6,
                       None, "label") for i in range(3)]
        asked = Decision(decision.player, "choose", "Which of these three things with long names? " * 3,
                         long, None, decision.line, False)
        return super().decide(view, asked)


def test_a_long_three_option_question_stays_inside_the_screen():
    game, match, seat, app = new_table("catlady", 4, seat_class=LongQuestion)
    got = {}

    async def script(pilot):
        for _ in range(2):
            await answer(pilot, app, seat)
        await until(pilot, lambda: app.decision is not None and seat.decisions == 3)
        await pilot.pause(0.05)
        got["text"] = screen_text(app)
        await pilot.press("down", "down")
        await pilot.pause(0.05)
        got["third"] = screen_text(app)
        got["cursor"] = app.query_one("#options", Options).cursor
    drive(app, script)
    for text in (got["text"], got["third"]):
        lines = text.splitlines()
        assert len(lines) == SIZE[1] and "q save+quit" in lines[-1], text
        assert "Which of these three things" in text
        for pl in (2, 3, 4):
            assert f"{pl} greedy" in text
    assert "1 option 1: a very long name" in got["text"]
    assert got["cursor"] == 2 and "3 option 3: a very long name" in got["third"]


def test_history_opens_at_the_newest_event():
    game, match, seat, app = new_table("catlady", 4)
    got = {}

    async def script(pilot):
        for _ in range(12):
            await answer(pilot, app, seat)
        await until(pilot, lambda: app.decision is not None)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, TextScreen))
        await pilot.pause(0.2)
        box = app.screen.query_one("VerticalScroll")
        got["at"], got["end"] = box.scroll_y, box.max_scroll_y
        got["text"] = screen_text(app)
        await pilot.press("escape")
    drive(app, script)
    assert got["end"] > 0 and got["at"] == got["end"]
    # the newest mark is in sight: the decision being asked (the one before it may be a long
    # turn of the others further up)
    assert f"your decision {seat.decisions} —" in got["text"]


def test_after_a_resume_what_happened_and_the_history_show_the_game_so_far(tmp_path):
    game, match, seat, app = new_table("catlady", 4, seed=5)

    async def play(pilot):
        for _ in range(6):
            await answer(pilot, app, seat)
        await until(pilot, lambda: app.decision is not None)
    drive(app, play)
    path = tmp_path / "g.save.json"
    match.save(path)
    before = [e for e in seat.events]
    data = Match.read_save(path)
    state = game.restore(data["state"])
    game, match2, seat2, app2 = new_table("catlady", 4, state=state, match_data=data,
                                          decisions=seat.decisions - 1)    # as the command line counts them
    got = {}

    async def resumed(pilot):
        await until(pilot, lambda: app2.decision is not None)
        await pilot.pause(0.05)
        got["table"] = screen_text(app2)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app2.screen, TextScreen))
        await pilot.pause(0.2)
        got["history"] = screen_text(app2)
        await pilot.press("escape")
    drive(app2, resumed)
    assert "nothing yet" not in got["table"] and "nothing yet" not in got["history"]
    assert got["history"].count("• ") > 10 and f"your decision {seat.decisions}" in got["history"]
    assert [k for _at, k in seat2.marks] == list(range(1, seat.decisions + 1))
    # the events rebuilt are the ones the person saw before the save
    assert seat2.events[:len(before)] == before
    assert [k for _at, k in seat2.marks[:len(seat.marks) - 1]] == [k for _at, k in seat.marks[:-1]]


def test_past_events_of_a_game_without_choices_and_of_choices_that_do_not_replay():
    game = catrules.load_game(GAMES["meow"])
    st = game.new_state(3, seed=1, log=True, ask_forced=True)
    assert past_events(game, st, 0, 0) == ([], [])
    st.history = [(0, "not an option")]
    assert past_events(game, st, 0, 1) == ([], [])


def test_allot_gives_each_area_its_least_then_more_in_order():
    assert allot(10, [(2, 5), (3, 3), (1, 9)]) == [5, 3, 2]
    assert allot(4, [(2, 5), (3, 3), (1, 9)]) == [2, 2, 0]
    assert sum(allot(23, [(2, 8), (3, 9), (6, 6), (2, 5)])) == 23
