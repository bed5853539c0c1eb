"""The full-screen table (catrules.frontends.tui), driven headless with Textual's Pilot."""

import asyncio
import sys
import re
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.frontends.terminal import Quit
from catrules.frontends.tui import InspectScreen, TableApp, TextScreen, TuiSeat
from catrules.frontends.tui_endings import GoOnScreen
from catrules.play.match import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tui_screen import screen_text
from tui_screen import until as wait_until  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GAMES = {name: ROOT / "games" / f"{name}.cat" for name in ("meow", "catlady", "flapcat")}


def new_match(name, players=3, seed=3, state=None, bot="greedy"):
    game = catrules.load_game(GAMES[name])
    st = state or game.new_state(players, seed=seed, log=True, ask_forced=True)
    seat = TuiSeat(game=game, names=["you"] + ["greedy"] * (players - 1))
    match = Match(game, st, [seat] + [make_seat(bot) for _ in range(players - 1)])
    return game, match, seat


async def until(pilot, test, tries=200, go_on=True):
    """Wait until ``test()``; a round's end waits for a key, pressed here unless not ``go_on``."""
    await wait_until(pilot, test, tries, press_on=GoOnScreen if go_on else None)


def run(app, size, script):
    """Run ``app`` headless at ``size``; ``script(pilot)`` plays; the match thread is stopped after."""
    async def main():
        async with app.run_test(size=size) as pilot:
            await script(pilot)
            if app.decision is not None or app.seat.final is None:
                await pilot.press("q")
            await until(pilot, lambda: not app.worker.is_alive())
    asyncio.run(main())


def hand_cards(view, me):
    return [c for z in view["zones"] if z["owner"] == me and z.get("cards") for c in z["cards"]]


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
@pytest.mark.parametrize("name", ["meow", "catlady", "flapcat"])
def test_everything_needed_for_a_decision_is_on_one_screen(name, size):
    game, match, seat = new_match(name)
    app = TableApp(match, [seat], game.title)
    seen = {}

    async def script(pilot):
        # answer with Enter until the player holds cards of their own (Cat Lady starts with none)
        for _ in range(30):
            await until(pilot, lambda: app.decision is not None)
            if hand_cards(seat.view, 0) and len(app.decision.options) > 1:
                break
            await pilot.press("enter")
        await pilot.pause(0.1)
        seen["text"] = screen_text(app)
        seen["decision"] = app.decision
        seen["view"] = seat.view
    run(app, size, script)
    text, d, view = seen["text"], seen["decision"], seen["view"]
    lines = text.splitlines()
    assert len(lines) <= size[1] and max(len(x) for x in lines) <= size[0]
    flat = " ".join(text.split())
    assert d.prompt in flat
    for i, o in enumerate(d.options):
        assert f"{i + 1} {o.label}" in flat
    for c in hand_cards(view, 0):
        assert c["label"] in flat, c["label"]
    for area in ("table", "the others", "score", "what happened", "your cards"):
        assert f"─{area}─" in text
    assert f"decision {seat.decisions}" in text


def test_others_hidden_cards_never_show_not_even_in_inspection():
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")
    seen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        seen["table"] = screen_text(app)
        await pilot.press("i")
        await until(pilot, lambda: isinstance(app.screen, InspectScreen))
        seen["inspect"] = [c["label"] for _w, c in app.screen.cards]
        await pilot.press("escape")
    run(app, (120, 40), script)
    st = match.state
    others = [game.card(c)["label"] for pl in (1, 2) for z in st.view(pl)["zones"]
              if z["owner"] == pl and z["visibility"] == "owner" for c in [x["id"] for x in z["cards"]]]
    assert others
    for label in others:
        assert not re.search(rf"(?<!\w){label}(?!\w)", seen["table"]), label      # "pink 1", not "pink 12"
        assert label not in seen["inspect"]


def test_number_then_enter_chooses_and_arrows_move():
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")
    chosen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        d = app.decision
        chosen["want"] = d.options[2].id
        await pilot.press("3")
        assert app.decision is d                     # not yet: Enter confirms
        await pilot.press("right", "left", "enter")
        await until(pilot, lambda: len(match.state.history) > 0)
        chosen["got"] = match.state.history[0][1]
    run(app, (80, 24), script)
    assert chosen["got"] == chosen["want"]


def test_a_race_is_answered_by_one_key_and_timed():
    game, match, seat = new_match("flapcat")
    app = TableApp(match, [seat], "")
    got = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        d = app.decision
        assert d.timed and "a race: one key answers" in screen_text(app)
        got["want"] = d.options[1].id
        await pilot.press("2")                        # no Enter
        await until(pilot, lambda: any(r[0] == 0 for r in match.state.history))
        got["rec"] = next(r for r in match.state.history if r[0] == 0)
        await pilot.pause()
        got["screen"] = screen_text(app)
        got["notices"] = len(app._notifications)
    run(app, (80, 24), script)
    player, option, rt = got["rec"]
    assert option == got["want"] and isinstance(rt, float) and rt >= 0
    # the time shows in the bottom line, not as a notice over the table (they piled up)
    assert f"your time: {rt:.2f} s" in got["screen"].splitlines()[-1] and got["notices"] == 0


@pytest.mark.parametrize("key, exc", [("q", Quit), ("ctrl+c", KeyboardInterrupt)])
def test_q_and_ctrl_c_stop_the_match_at_the_decision(key, exc):
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        await pilot.press("enter")
        await until(pilot, lambda: app.decision is not None and seat.decisions == 2)
        await pilot.press(key)
        await until(pilot, lambda: not app.worker.is_alive())
    run(app, (80, 24), script)
    assert isinstance(app.outcome, exc)
    # nothing of the interrupted decision was applied: it is the one pending
    assert len([r for r in match.state.history if r[0] == 0]) == 1
    assert match.state.pending()[0].player == 0 or 0 in [d.player for d in match.state.pending()]


def test_history_and_help_and_inspect_keys():
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")
    seen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        await pilot.press("enter")
        await until(pilot, lambda: app.decision is not None and seat.decisions == 2)
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, TextScreen))
        await pilot.pause(0.1)
        seen["history"] = screen_text(app)
        await pilot.press("escape", "question_mark")
        await pilot.pause(0.1)
        seen["help"] = screen_text(app)
        await pilot.press("escape", "i")
        await until(pilot, lambda: isinstance(app.screen, InspectScreen))
        await pilot.pause(0.1)
        seen["inspect"] = screen_text(app)
        seen["first"] = app.screen.cards[app.screen.start][1]
        await pilot.press("escape")
    run(app, (80, 24), script)
    assert "your decision 1" in seen["history"]
    assert "save the game and quit" in seen["help"]
    first = seen["first"]
    # the game's own description of the card (Meow describes every card)
    words = " ".join(seen["inspect"].replace("│", " ").split())
    assert first["text"] and first["text"] in words


def near_the_end(name, players, seed, left):
    """A state ``left`` decisions before the end of the game (every answer the first option)."""
    game = catrules.load_game(GAMES[name])
    full = game.new_state(players, seed=seed, ask_forced=True)
    while not full.finished:
        d = full.pending()[0]
        full.apply(d.player, d.options[0].id, 0.5 if d.timed else None)
    st = game.new_state(players, seed=seed, log=True, ask_forced=True)
    for player, option, *rt in full.history[:-left]:
        st.apply(player, option, rt[0] if rt else None)
    return st


def test_the_end_shows_the_final_score_and_enter_leaves():
    game, match, seat = new_match("meow", players=2, state=near_the_end("meow", 2, 5, 6), bot="random")
    app = TableApp(match, [seat], "")

    async def script(pilot):
        while seat.final is None:
            await until(pilot, lambda: app.decision is not None or seat.final is not None)
            if app.decision is not None:
                await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, TextScreen))
        text = screen_text(app)
        assert "Final score" in text and "total" in text
        await pilot.press("enter")
    run(app, (80, 24), script)
    assert app.outcome is None and match.state.finished


def test_a_match_started_before_the_app_shows_its_first_decision_at_once():
    # run_tui starts the match before the app: what it asks before the app is mounted is kept
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")
    app.start_match()
    until_asked = 0
    while app.early is not None and not any(fn == app.ask for fn, _a in app.early):
        until_asked += 1
        assert until_asked < 1000, "the match never asked"
        app.worker.join(0.01)
    seen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        seen["text"] = " ".join(screen_text(app).split())
        seen["decision"] = app.decision
    run(app, (120, 40), script)
    d = seen["decision"]
    assert d.prompt in seen["text"] and f"1 {d.options[0].label}" in seen["text"]
    assert seat.decisions >= 1


def test_the_collector_paused_for_the_start_is_on_after_the_first_frame():
    import gc
    game, match, seat = new_match("meow")
    app = TableApp(match, [seat], "")
    app.collect_after_first_frame = True
    seen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        await pilot.pause(0.05)
        seen["on"] = gc.isenabled()
    gc.disable()
    try:
        run(app, (80, 24), script)
    finally:
        gc.enable()
    assert seen["on"]


def test_ctrl_c_before_the_app_starts_stops_the_match_thread_first(monkeypatch):
    # run_tui starts the match before the app: interrupted then, the match thread must be
    # stopped (at a decision) before the caller saves the game
    from catrules.frontends.tui import run_tui
    game, match, seat = new_match("meow")

    def interrupted(self, *a, **k):
        self.worker.join(0.2)               # the match gets going meanwhile
        raise KeyboardInterrupt
    monkeypatch.setattr(TableApp, "run", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_tui(match, [seat], "")
    assert not seat.app.worker.is_alive()
    assert isinstance(seat.app.outcome, EOFError)
    assert 0 in [d.player for d in match.state.pending()]     # stopped at the person's decision


def test_the_bottom_line_says_who_the_table_waits_for_while_a_bot_thinks():
    """A searching bot may take seconds: the screen says whom it waits for, not nothing."""
    import threading
    from catrules.play.seats import Choice, Seat

    class Thinking(Seat):
        wants_events = False
        release = threading.Event()

        def decide(self, view, decision):
            self.release.wait(10)
            return Choice(decision.options[0].id)
    game = catrules.load_game(GAMES["catlady"])
    st = game.new_state(3, seed=3, log=True, ask_forced=True)
    first = st.pending()[0].player                 # the bot takes the seat that chooses first
    seats = [make_seat("random") for _ in range(3)]
    seats[first] = Thinking()
    seat = seats[(first + 1) % 3] = TuiSeat(game=game, names=["thinking", "you", "random"])
    match = Match(game, st, seats)
    app = TableApp(match, [seat], "")
    got = {}

    async def script(pilot):
        await until(pilot, lambda: f"player {first + 1} is choosing" in screen_text(app).splitlines()[-1])
        got["before"] = screen_text(app).splitlines()[-1]
        Thinking.release.set()
        await until(pilot, lambda: app.decision is not None)
        await pilot.pause()
        got["mine"] = screen_text(app).splitlines()[-1]
    try:
        run(app, (100, 30), script)
    finally:
        Thinking.release.set()
    assert f"player {first + 1} is choosing…" in got["before"]
    assert "choosing" not in got["mine"]               # the person's own turn: nothing to wait for


def test_a_race_outcome_said_long_ago_stays_in_what_happened():
    # Snap: after a race the game turns cards over until the next decision, and the race's
    # outcome scrolled out of "what happened" at 80x24 behind the moves that came after it
    src = ('catrules 4\ngame "T"\nplayers 2 to 2\ncards chip in deck:\n    for each value in 1 to 9:\n'
           '        card\nzone deck: shared, public, pile\ncounter n = 0\nflow:\n'
           '    race each player p chooses c from ["snap"]:\n        if position == 1:\n'
           '            announce "{p} was first"\n    repeat 30 times:\n        add 1 to n\n'
           '    for each player p:\n        p chooses d from [1, 2]\n')
    game = catrules.load_source(src, "t.cat")
    st = game.new_state(2, seed=1, log=True, ask_forced=True)
    seat = TuiSeat(game=game, names=["you", "random"])
    match = Match(game, st, [seat, make_seat("random")])
    app = TableApp(match, [seat], game.title)
    got = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None and app.decision.timed)
        await pilot.press("1")
        await until(pilot, lambda: app.decision is not None and not app.decision.timed)
        await pilot.pause()
        got["screen"] = screen_text(app)
    run(app, (80, 24), script)
    assert "was first" in got["screen"] and "n: 30" in got["screen"]
