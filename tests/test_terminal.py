"""The terminal front end, driven with injected input and a recorded console (no tty needed)."""

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

import catrules
from catrules.runtime.state import Decision, Option
from catrules.play.seats import Choice, Seat
from catrules.frontends.terminal import Painter, Quit, Spectator, TerminalSeat, score_table
from catrules.play.match import Match
from catrules.play.views import visible_event

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
TESTS = Path(__file__).resolve().parent / "games"


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


def console(width=80, **kw):
    return Console(file=io.StringIO(), width=width, highlight=False, **kw)


def feeder(answers):
    it = iter(answers)
    asked = []

    def ask(prompt=""):
        asked.append(prompt)
        return next(it)          # StopIteration = end of input
    ask.asked = asked
    return ask


class Last(Seat):
    name = "last"

    def decide(self, view, decision):
        return Choice(decision.options[-1].id, 0.5 if decision.timed else None)


def first_decision(meow, players=3, seed=3):
    st = meow.new_state(players, seed=seed)
    d = st.pending()[0]
    return st, d


def test_reasks_on_wrong_key_then_returns_a_legal_choice(meow):
    st, d = first_decision(meow)
    con = console()
    ask = feeder(["x", "99", "1"])
    seat = TerminalSeat(console=con, input=ask, game=meow)
    seat.start(None, d.player)
    ch = seat.decide(st.view(d.player), d)
    assert ch.option == d.options[0].id
    assert ch.reaction_time is None
    assert len(ask.asked) == 3
    out = con.file.getvalue()
    assert "'x' is not an option" in out
    assert "99 is not one of the options" in out
    d.option(ch.option)          # legal


def test_enter_takes_the_default(meow):
    st, d = first_decision(meow)
    assert d.default is not None
    seat = TerminalSeat(console=console(), input=feeder([""]), game=meow)
    seat.start(None, d.player)
    assert seat.decide(st.view(d.player), d).option == d.default


def test_enter_without_default_is_explained_and_asked_again():
    opts = [Option("yes", "yes", True, "value"), Option("no", "no", False, "value")]
    d = Decision(0, "choose", "Stop here?", opts, None, 1, False)
    con = console()
    seat = TerminalSeat(console=con, input=feeder(["", "2"]))
    seat.start(None, 0)
    assert seat.decide({"players": 1, "you": 0, "zones": [], "counters": {}}, d).option == "no"
    assert "no default" in con.file.getvalue()


def test_a_label_can_be_typed(meow):
    st, d = first_decision(meow)
    seat = TerminalSeat(console=console(), input=feeder([d.options[1].label.upper()]), game=meow)
    seat.start(None, d.player)
    assert seat.decide(st.view(d.player), d).option == d.options[1].id


def test_end_of_input_and_quit(meow):
    st, d = first_decision(meow)
    seat = TerminalSeat(console=console(), input=feeder(["x"]), game=meow)
    seat.start(None, d.player)
    with pytest.raises(EOFError):
        seat.decide(st.view(d.player), d)
    seat = TerminalSeat(console=console(), input=feeder(["q"]), game=meow)
    seat.start(None, d.player)
    with pytest.raises(Quit):
        seat.decide(st.view(d.player), d)


def test_race_reports_the_reaction_time(monkeypatch):
    clock = iter([100.0, 101.25])
    monkeypatch.setattr("catrules.frontends.terminal.time.monotonic", lambda: next(clock))
    opts = [Option("c1", "card 1", 1, "value"), Option("c2", "card 2", 2, "value")]
    d = Decision(0, "race", "Race! Grab one", opts, "c2", 1, True)
    seat = TerminalSeat(console=console(), input=feeder(["1"]))
    seat.start(None, 0)
    ch = seat.decide({"players": 2, "you": 0, "zones": [], "counters": {}}, d)
    assert ch.option == "c1"
    assert ch.reaction_time == pytest.approx(1.25)


def test_race_game_with_a_person_finishes():
    game = catrules.load_game(TESTS / "race.cat")
    con = console()
    seat = TerminalSeat(console=con, input=feeder([""] * 50), game=game)
    m = Match(game, game.new_state(2, seed=4, log=True), [seat, Last()])
    st = m.run()
    assert st.finished
    out = con.file.getvalue()
    assert "race: 1st" in out and "your time" in out
    assert "Final score" in out


def test_whole_game_fits_80_columns_and_shows_only_the_view(meow):
    con = console()
    seat = TerminalSeat(console=con, input=feeder([""] * 200), game=meow, names=["you", "last", "last", "last"])
    st = meow.new_state(4, seed=5, log=True)
    Match(meow, st, [seat, Last(), Last(), Last()]).run()
    out = con.file.getvalue()
    lines = out.splitlines()
    assert max(len(x) for x in lines) <= 80
    assert "Final score" in out and "total" in out
    assert "fish used (note)" in out           # a note item of the game's score, marked
    assert re.search(r"(Winner|You win|You share)", out)
    # another player's hand never shows its cards, only how many
    first_screen = out.split("decision 1")[1].split("Your choice")[0]
    assert "8 cards" in first_screen or "9 cards" in first_screen


def test_other_hands_are_counts_not_cards(meow):
    st, d = first_decision(meow, players=3, seed=9)
    con = console()
    seat = TerminalSeat(console=con, input=feeder([""]), game=meow)
    seat.start(None, d.player)
    seat.decide(st.view(d.player), d)
    out = con.file.getvalue()
    view_all = st.view(None)
    for z in st.view(d.player)["zones"]:
        if z["zone"] == "hand" and z["owner"] != d.player:
            assert z["cards"] is None
    assert view_all["you"] is None
    mine = [z for z in st.view(d.player)["zones"] if z["zone"] == "hand" and z["owner"] == d.player][0]
    for c in mine["cards"]:
        assert c["label"] in out


def test_no_color_is_respected(meow, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    st, d = first_decision(meow)
    con = Console(file=io.StringIO(), width=80, force_terminal=True, highlight=False)
    seat = TerminalSeat(console=con, input=feeder(["1"]), game=meow)
    seat.start(None, d.player)
    seat.decide(st.view(d.player), d)
    out = con.file.getvalue()
    assert not re.search(r"\x1b\[(3[0-7]|38;|9[0-7])", out)     # no foreground colours


def test_colours_come_from_the_first_attribute():
    p = Painter()
    p.learn({"id": 0, "type": "t", "label": "orange 1", "colour": "orange", "value": 1})
    p.learn({"id": 1, "type": "t", "label": "red 1", "colour": "red", "value": 1})
    p.learn({"id": 2, "type": "t", "label": "alpha", "suit": "alpha"})
    p.learn({"id": 3, "type": "t", "label": "beta", "suit": "beta"})
    p.learn({"id": 4, "type": "t", "label": "7", "value": 7})
    assert p.styles["orange"] == "dark_orange"
    assert p.styles["red"] == "red"
    assert p.styles["alpha"] != p.styles["beta"]
    assert "bold" in p.card(2).style
    assert p.card(4).plain == "7"


def test_events_read_from_the_viewer_side(meow):
    p = Painter(meow, me=0, names=["you", "b", "c"])
    p.n = 3
    lines = p.events([
        {"t": "move", "cards": [1], "from": "hand of player 2", "to": "played of player 2", "actor": 1},
        {"t": "move", "cards": None, "count": 9, "from": "deck", "to": "hand of player 3", "actor": None},
        {"t": "move", "cards": [2], "from": "played of player 1", "to": "discard", "actor": 1},
        {"t": "move", "cards": [3], "from": "played of player 2", "to": "discard", "actor": 1},
        {"t": "move", "cards": [4], "from": "played of player 3", "to": "discard", "actor": 1},
        {"t": "race", "choices": [{"player": 1, "option": "c5"}, {"player": 0, "option": "c6"}],
         "times": [0.4, 0.9]},
        {"t": "reveal", "choices": [{"player": 0, "option": "c7"}]},
        {"t": "move", "cards": [8], "from": "deck", "to": "hand of player 1", "actor": None},
        {"t": "move", "cards": None, "count": 3, "from": "deck", "to": "hand of player 2", "actor": None},
        {"t": "move", "cards": None, "count": 3, "from": "deck", "to": "hand of player 3", "actor": None},
    ])
    text = [x.plain for x in lines]
    assert text[0] == f"player 2: hand → played  {meow.card(1)['label']}"
    assert text[1] == "deck → hand of player 3  9 cards"
    assert text[2].startswith("played of everyone → discard")
    assert text[3].startswith("race: 1st player 2") and "2nd you" in text[3] and "0.40s" in text[3]
    assert text[4].startswith("reveal: you")
    assert text[5].startswith("deck → your hand")
    assert text[6] == "deck → hand of players 2, 3  3 cards each"


def test_spectator_and_score_table(meow):
    con = console()
    spec = Spectator(con, meow, ["last"] * 3)
    st = meow.new_state(3, seed=2, log=True)
    m = Match(meow, st, [Last(), Last(), Last()], on_event=lambda ev: spec.event(visible_event(st, ev, None)))
    m.run()
    spec.finish(st.scores(), st.winners())
    out = con.file.getvalue()
    assert "Final score" in out and "★" in out
    assert max(len(x) for x in out.splitlines()) <= 80
    t = score_table(st.scores(), st.winners(), Painter(meow, None, ["a", "b", "c"]), ["fish_used"])
    assert t.row_count == 3


# ---------------------------------------------------------------- Cat Lady

CATLADY = ROOT / "games" / "catlady.cat"


def _catlady_line_decision(seed=5):
    g = catrules.load_game(CATLADY)
    st = g.new_state(3, seed=seed)
    while True:
        d = st.pending()[0]
        if d.prompt.startswith("Take a row or column") and d.player == st.c["current"]:
            return g, st, d
        st.apply(d.player, d.options[0].id)


def test_grid_numbers_its_lines_and_marks_the_blocked_one():
    g, st, d = _catlady_line_decision()
    con = console()
    seat = TerminalSeat(console=con, input=feeder(["1"]), game=g)
    seat.start(None, d.player)
    seat.decide(st.view(d.player), d)
    out = con.file.getvalue()
    blocked = st.view(d.player)["counters"]["blocked"]["label"]          # "row 2" or "column 3"
    kind, k = blocked.split()
    assert "row 1" in out and "col 3" in out
    if kind == "row":
        assert re.search(rf"row {k} .*◀ blocked", out)
    else:
        assert re.search(rf"col {k} ▼ blocked", out)
    assert blocked not in [o.label for o in d.options]                    # never offered
    assert f"blocked: {blocked}" in out


def test_a_line_is_taken_by_naming_it():
    g, st, d = _catlady_line_decision()
    name = d.options[-1].label                                             # e.g. "column 3"
    seat = TerminalSeat(console=console(), input=feeder(["row 9", name.upper()]), game=g)
    seat.start(None, d.player)
    assert seat.decide(st.view(d.player), d).option == d.options[-1].id


def test_feeding_shows_each_cats_meal_at_the_end():
    g = catrules.load_game(CATLADY)
    st = g.new_state(2, seed=4)
    while not st.over:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    view = st.view(0)
    meals = view["counters"]["meal"]
    assert meals, "somebody fed a cat"
    con = console()
    seat = TerminalSeat(console=con, input=feeder([]), game=g)
    seat.start(None, 0)
    seat.show(view, [])
    seat.finish(view)
    out = con.file.getvalue()
    cid, meal = next(iter(meals.items()))
    assert "meal: " in out and g.card(int(cid))["label"] in out
    assert "Final score" in out and "food penalty" in out and "vp tokens" in out
    face = g.card(int(cid)).get("face") or g.card(int(cid))["label"]
    assert f"{face}: {', '.join(meal)}" in out.replace("\n", " ")


# ------------------------------------------------ painting: the data contract

def test_faces_texts_parts_and_display_names():
    card = {"id": 7, "type": "cat", "label": "Pablo 6", "face": "Pablo Picatso 6★", "text": "Eats tuna.\nA painter.",
            "colour": "orange"}
    p = Painter(None, 0, ["you", "bot"])
    assert p.card(card).plain == "Pablo Picatso 6★"
    assert p.card({"id": 8, "label": "plain 1", "colour": "red"}).plain == "plain 1"
    assert "Eats tuna.\nA painter." in p.card_text(card).plain
    assert "colour: red" in p.card_text({"id": 8, "label": "plain 1", "colour": "red"}).plain
    line = p.event({"t": "announce", "text": "old", "parts": [{"player": 1}, " gives ", {"card": card}, " to ",
                                                                {"player": 0}, " and ", {"card": {"hidden": True}}]})
    assert line.plain == "player 2 gives Pablo Picatso 6★ to player 1 (you) and a hidden card"
    assert p.event({"t": "announce", "text": "old"}).plain == "old"
    assert p.value("fish_bone").plain == "fish bone"

    class Named:
        display_names = {"fish_bone": "Fish bone (-1)"}
        card_count = 0
    assert Painter(Named(), 0).value("fish_bone").plain == "Fish bone (-1)"


def test_a_tally_has_a_title_and_names_the_items_that_are_0_for_everyone():
    p = Painter(None, 0, ["you", "bot"])
    ev = {"t": "tally", "number": 2, "scores": [{"stars": 3, "longest": 0, "total": 3},
                                                {"stars": 1, "longest": 0, "total": 1}],
          "totals": [{"total": 5}, {"total": 4}]}
    out = console()
    out.print(p.event(ev))
    text = out.file.getvalue()
    assert "Score at the 2nd tally" in text and "running total" in text
    assert "0 for everyone: longest" in text and not re.search(r"longest\s+0", text)
    out = console()
    out.print(p.event({**ev, "title": "after round 1"}))
    assert "Score after round 1" in out.file.getvalue()


def test_a_card_is_never_cut_in_two_in_a_narrow_cell():
    cards = [{"id": i, "label": f"black middle {i} toy draw", "colour": "black"} for i in range(4)]
    view = {"you": 0, "players": 2, "zones": [
        {"zone": "cats", "owner": 1, "visibility": "public", "shape": "lines", "count": 4,
         "lines": [cards[:3], cards[3:]]},
        {"zone": "hand", "owner": 1, "visibility": "owner", "shape": "pile", "count": 5, "cards": None}],
        "counters": {}}
    p = Painter(None, 0, ["you", "bot"])
    from catrules.frontends.tables import render_view
    for width in (60, 80, 120):
        out = console(width)
        out.print(render_view(p, view))
        text = out.file.getvalue()
        for i in range(4):
            assert f"black middle {i} toy draw" in text, (width, text)


def test_a_long_pile_says_its_top_card_comes_last(meow):
    """A public pile longer than the area shows its last cards, and says the list ends at the top
    (it said "top:" before them, as if the first shown were the top)."""
    p = Painter(meow, me=0, names=["you", "b"])
    pieces = p.card_pieces(list(range(20)), limit=3)
    assert [x.plain for x in pieces] == ["20 cards, up to the top:"] + [p.card(c).plain for c in (17, 18, 19)]


def test_a_grid_without_marks_keeps_each_card_on_one_line(meow):
    """Short card names in a grid with room to spare stay whole (an empty column of row marks
    made the last column wrap: "green" above "12")."""
    from rich.table import Table
    from catrules.frontends.tables import _zone_cards
    p = Painter(meow, me=0, names=["you", "b"])
    cells = [0, 1, 2, 3, 4, None]
    grid = _zone_cards(p, {"shape": "grid", "cells": cells, "rows": 2, "cols": 3})
    outer = Table.grid(padding=(0, 1))
    outer.add_column(no_wrap=True)
    outer.add_column()
    outer.add_row("market", grid)
    con = console(width=60)
    con.print(outer)
    out = con.file.getvalue()
    for c in cells[:5]:
        assert p.card(c).plain in out, out


def test_a_players_public_top_pile_shows_its_top_card():
    # a `public top` pile of a player (Snap's face-up pile) showed only "11 cards": the card that
    # everyone sees, the one a race is about, was only in the history
    src = ('catrules 4\ngame "T"\nplayers 2 to 2\ncards chip in deck:\n    for each value in 1 to 9:\n'
           '        card\nzone deck: shared, hidden\nzone face: per player, public top, pile\n'
           'flow:\n    for each player p:\n        move top(deck, 3) to face of p\n'
           '    for each player p:\n        p chooses c from [1, 2]\n')
    game = catrules.load_source(src, "t.cat")
    st = game.new_state(2, seed=1)
    d = st.pending()[0]
    view = st.view(d.player)
    tops = {z["owner"]: z["top"]["label"] for z in view["zones"] if z["zone"] == "face"}
    con = console()
    seat = TerminalSeat(console=con, input=feeder(["1"]), game=game)
    seat.start(None, d.player)
    seat.decide(view, d)
    out = con.file.getvalue()
    assert f"3 cards, top: {tops[1]}" in out and f"3 cards, top: {tops[0]}" in out
    assert all(z["cards"] is None for z in view["zones"] if z["zone"] == "face")   # nor those under it


def test_what_the_game_says_stays_when_earlier_events_are_left_out():
    # Snap: after a race the game turns cards over for a while before the next decision; the
    # race's outcome, said with `announce`, was among the events left out ("… 9 earlier events")
    src = ('catrules 4\ngame "T"\nplayers 2 to 2\ncards chip in deck:\n    for each value in 1 to 9:\n'
           '        card\nzone deck: shared, public, pile\ncounter n = 0\nflow:\n'
           '    race each player p chooses c from ["snap"]:\n        if position == 1:\n'
           '            announce "{p} was first"\n    repeat 60 times:\n        add 1 to n\n'
           '    for each player p:\n        p chooses d from [1, 2]\n')
    game = catrules.load_source(src, "t.cat")
    con = console()
    seat = TerminalSeat(console=con, input=feeder(["1", "1"]), game=game)
    st = Match(game, game.new_state(2, seed=1, log=True), [seat, Last()]).run()
    assert st.finished
    out = con.file.getvalue()
    assert re.search(r"… \d+ earlier events", out)
    assert "was first" in out and "n: 60" in out
