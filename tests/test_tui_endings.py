"""Round ends and the game's end on the full-screen table at 80×24 (issue 25, item 3): the end
page shows the winners, every score item and how the scores came about (the events of the
end's rules), and waits for a key; a round's tally waits for a key before the next decision.
Driven headless with Textual's pilot, from a game played by default answers to near its end."""

import asyncio

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.frontends.endings import last_ending
from catrules.frontends.tui import TableApp, TextScreen, TuiSeat
from catrules.frontends.tui_endings import GoOnScreen
from catrules.play.match import Match

from test_tui import GAMES, screen_text, until

SIZE = (80, 24)


@pytest.fixture(autouse=True)
def no_count_in(monkeypatch):
    monkeypatch.setattr(TableApp, "count_in", 0.0)


def default(d):
    return d.default if d.default is not None else d.options[0].id


def near(game, players, seed, before):
    """A game played by default answers until ``before`` decisions are left."""
    probe = game.new_state(players, seed=seed, ask_forced=True)
    total = 0
    while not probe.over:
        d = probe.pending()[0]
        probe.apply(d.player, default(d), 0.5 if d.timed else None)
        total += 1
    st = game.new_state(players, seed=seed, log=True, ask_forced=True)
    for _ in range(total - before):
        d = st.pending()[0]
        st.apply(d.player, default(d), 0.5 if d.timed else None)
    st.log.clear()
    return st


def table(game, st):
    seat = TuiSeat(game=game, names=["you"] + ["greedy"] * (st.n - 1))
    match = Match(game, st, [seat] + [make_seat("greedy") for _ in range(st.n - 1)])
    return seat, TableApp(match, [seat], game.title)


def scroll_all(app):
    """Every line of the page on top, scrolled from its top to its end."""
    return app.screen.query_one("VerticalScroll")


@pytest.mark.parametrize("name", ["meow", "catlady", "flapcat"])
def test_the_end_shows_the_score_items_and_how_they_came_about_and_waits_for_a_key(name):
    game = catrules.load_game(GAMES[name])
    st = near(game, 2, 7, 4)
    seat, app = table(game, st)
    got = {}

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(60):
                await until(pilot, lambda: app.decision is not None or seat.final is not None, tries=1500)
                if seat.final is not None:
                    break
                await pilot.press("enter")
            await until(pilot, lambda: isinstance(app.screen, TextScreen) and app.screen.end
                        and not isinstance(app.screen, GoOnScreen), tries=500, go_on=True)
            await pilot.pause(0.3)
            got["top"] = screen_text(app)
            box = scroll_all(app)
            pages = [got["top"]]
            while box.scroll_y < box.max_scroll_y:
                await pilot.press("pagedown")
                await pilot.pause(0.1)
                pages.append(screen_text(app))
            got["pages"] = pages
            got["waiting"] = app.is_running and isinstance(app.screen, TextScreen)
            await pilot.press("enter")
            await until(pilot, lambda: not app.is_running, tries=200)
    asyncio.run(main())
    text = "\n".join(got["pages"])
    assert "the end" in got["top"] and got["waiting"]
    assert max(len(x) for x in got["top"].splitlines()) <= SIZE[0] and len(got["top"].splitlines()) <= SIZE[1]
    for item in seat.final["scores"][0]:
        if item != "total":         # a column's head may wrap: its words
            assert all(w in text for w in seat.painter.sym(item).split()), item
    # the end's rules, as the events since the last decision: each of them on the page
    ending = last_ending(list(enumerate(seat.events)), game=game)
    lines = [x.plain for x in seat.painter.events([ev for _n, ev in ending["events"]])]
    if name != "flapcat":           # Flap Cat's game ends with a round's tally: shown before
        assert lines
    for line in lines:
        assert " ".join(line.split("\n")[0].split())[:40] in " ".join(text.split()), line


def test_a_rounds_end_waits_for_a_key_and_shows_its_tally():
    game = catrules.load_game(GAMES["flapcat"])
    st = near_round_end(game, 2, 7)         # a little before the end of round 1
    seat, app = table(game, st)
    got = {}

    async def main():
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(40):
                await until(pilot, lambda: app.decision is not None or isinstance(app.screen, GoOnScreen),
                            tries=1500, go_on=False)
                if isinstance(app.screen, GoOnScreen):
                    break
                await pilot.press("enter")
            await pilot.pause(0.3)
            got["page"] = screen_text(app)
            got["decision"] = app.decision
            await pilot.press("enter")
            await until(pilot, lambda: app.decision is not None, tries=1500, go_on=False)
            got["after"] = app.decision
            await pilot.press("q")
            await until(pilot, lambda: not app.worker.is_alive(), tries=500)
    asyncio.run(main())
    assert got["decision"] is None and got["after"] is not None      # the next decision waited
    assert "after round 1" in got["page"] and "Enter: go on" in got["page"]
    tally = next(ev for ev in seat.events if ev.get("t") == "tally")
    page = " ".join(got["page"].split())
    for item in tally["scores"][0]:
        if item != "total":
            assert seat.painter.sym(item) in page, item


def near_round_end(game, players, seed):
    """Flap Cat played by default answers to 3 decisions before the first tally."""
    probe = game.new_state(players, seed=seed, ask_forced=True, log=True)
    k = 0
    while not any(ev.get("t") == "tally" for ev in probe.log):
        d = probe.pending()[0]
        probe.apply(d.player, default(d), 0.5 if d.timed else None)
        k += 1
    st = game.new_state(players, seed=seed, log=True, ask_forced=True)
    for _ in range(k - 3):
        d = st.pending()[0]
        st.apply(d.player, default(d), 0.5 if d.timed else None)
    st.log.clear()
    return st
