"""Triggers of a statement that brings several cards into a zone run card by card.

Each card's trigger condition is tested when that card's turn comes, after the earlier
cards' triggers have run (they may pause for a decision), exactly as if the cards had been
moved one by one: for ``move``, ``fill`` and ``exchange``.  Game: tests/games/order.cat.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import catrules
from catrules import testing as T
from catrules.runtime.state import State

GAME = Path(__file__).resolve().parent / "games" / "order.cat"


@pytest.fixture(scope="module")
def game():
    return catrules.load_game(GAME)


def finish(st, pick=0):
    asked = 0
    while st.pending():
        d = st.pending()[0]
        st.apply(d.player, d.options[pick].id)
        asked += 1
    return asked


def test_a_trigger_asks_mid_move_and_the_next_card_waits(game):
    st = game.new_state(2, seed=1, log=True)
    (d,) = st.pending()
    assert d.player == 0 and d.line == 39            # the pot's bonus question
    # only the first chip has moved; the others wait for the trigger to finish
    assert len(T.zone(st, "pot")) == 1 and len(T.zone(st, "tray")) == 2
    assert [e["t"] for e in st.log] == ["move", "counter"] and len(st.log[0]["cards"]) == 1
    assert st.log[1] == {"t": "counter", "name": "budget", "value": 0}


def test_the_second_cards_guard_sees_what_the_first_cards_trigger_did(game):
    st = game.new_state(2, seed=1, log=True)
    asked = finish(st)
    assert asked == 1                                # one bonus: the budget was spent by the first chip
    assert st.c["budget"] == 0                       # tested up front, it went to -2
    assert st.c["arrivals"] == 4                     # three chips and, by the swap, one bonus
    assert len(T.zone(st, "pot")) == 3
    kinds = [(e["t"], e.get("from"), e.get("to")) for e in st.log if e["t"] != "counter"]
    assert kinds[:5] == [("move", "tray", "pot"), ("decision", None, None),
                         ("move", "bank", "hand of player 1"), ("move", "tray", "pot"), ("move", "tray", "pot")]


def test_fill_tests_each_cells_trigger_in_turn(game):
    st = game.new_state(2, seed=1)
    finish(st)
    assert st.c["board_hits"] == 1 and st.c["board_budget"] == 0


def test_exchange_tests_the_second_cards_trigger_after_the_first_cards(game):
    st = game.new_state(2, seed=1)
    finish(st)
    assert st.c["swap_hits"] == 1 and st.c["swap_budget"] == 0


def test_a_move_paused_by_a_trigger_saves_and_resumes_exactly(game):
    st = game.new_state(2, seed=1, log=True)
    data = json.loads(json.dumps(st.to_dict()))      # plain data, mid-move
    again = State.from_dict(st.prog, data)
    again.log = []
    n = len(st.log)
    finish(st, pick=1)
    finish(again, pick=1)
    assert again.z == st.z and again.c == st.c and again.over
    assert again.log == st.log[n:]


def test_clones_mid_move_do_not_share_the_rest_of_the_move(game):
    st = game.new_state(2, seed=1)
    twin = st.clone()
    finish(st, pick=0)
    finish(twin, pick=1)
    assert T.zone(st, "pot") != T.zone(twin, "pot") or T.zone(st, "hand", 0) != T.zone(twin, "hand", 0)
    assert len(T.zone(st, "pot")) == len(T.zone(twin, "pot")) == 3


ASKING = """catrules 1
game "Asking"
players 2 to 2
# triggers that ask a question in the middle of a fill and of an exchange

cards tile in stack:
    for each value in 1 to 4:
        card
cards gem in bank:
    for each value in 1 to 6:
        card

zone stack: shared, public, pile
zone board: shared, public, grid 1 by 3
zone bank: shared, public, pile
zone pot: shared, public, pile
zone hand: per player, public, pile

counter host = 0
counter budget = 2

when card c enters board if budget > 0:
    budget = budget - 1
    host chooses g from bank
    move g to hand of host

when card c enters hand of q from pot:
    host chooses g from bank
    move g to hand of q

when card c enters pot from hand of giver:
    host chooses g from bank
    move g to hand of giver

flow:
    fill board from stack
    move top(stack) to pot
    exchange first(pot) with first(hand of host)

score:
    gems = count(hand)

winner:
    highest total
"""


def test_fill_and_exchange_pause_for_questions_and_resume_from_saves():
    game = catrules.load_source(ASKING, "asking.cat")
    straight = game.new_state(2, seed=1, log=True)
    board_when_asked = []
    while straight.pending():
        board_when_asked.append(sum(1 for c in T.zone(straight, "board") if c is not None))
        d = straight.pending()[0]
        straight.apply(d.player, d.options[-1].id)
    assert board_when_asked[:2] == [1, 2]          # each cell's trigger runs before the next cell
    assert len(board_when_asked) == 4              # two cells, then each card of the exchange
    # the same game, saved and restored as plain data at every question
    st = game.new_state(2, seed=1, log=True)
    log = list(st.log)
    while st.pending():
        st = State.from_dict(game.program, json.loads(json.dumps(st.to_dict())))
        st.log = []
        d = st.pending()[0]
        st.apply(d.player, d.options[-1].id)
        log += st.log
    assert st.z == straight.z and st.c == straight.c and log == straight.log
