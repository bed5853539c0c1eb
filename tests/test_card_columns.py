"""A card's attribute read where the card can only be a card id (an element of a pile's or a
row's cards) comes from a tuple indexed by card id (:meth:`CodeGen.card_column`); anywhere
else from the dict that also gives none for none.  The same games either way, on both paths."""

from __future__ import annotations

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.compile.compiler import compile_game
from catrules.compile.program import Program
from catrules.play.match import Match

SOURCE = """\
catrules 4
game "Columns"
players 2 to 3
cards tile in deck:
    for each colour in red, blue, green:
        for each value in 1, 2, 3, 4, 5, 6:
            card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, pile
counter lead = none
counter reds = 0
counter nones = 0
define warm(c) = c.colour == red
setup:
    shuffle deck
flow:
    repeat 3 times:
        for each player p:
            move top(deck, 2) to hand of p
            p chooses c from hand of p where value >= 2 preferring warm(c)
            reds = reds + count(hand of p where warm(it))
            # `lead` is none at first: its colour is none, never an error
            nones = nones + count([lead, c] where colour == none)
            lead = c
            move c to table
score:
    points = sum(table where colour == blue, value) + reds + nones
"""


def _play(game, players: int, seed: int):
    m = Match.new(game, players, [make_seat("random") for _ in range(players)], seed=seed)
    st = m.run()
    return st.history, st.scores(), st.c["nones"]


def test_cards_of_a_pile_are_read_from_the_tuple_and_others_from_the_dict():
    game = catrules.load_source(SOURCE, "columns.cat")
    src = "\n".join(compile_game(game.program.checked, lean=True).unit_sources.values())
    assert "_t_colour[" in src and "_t_value[" in src     # the hand's and the table's cards
    assert "_a_colour[" in src                             # `[lead, c]`: maybe none


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_same_game_on_the_lean_and_the_instrumented_blocks(seed, monkeypatch):
    game = catrules.load_source(SOURCE, "columns.cat")
    lean = _play(game, 3, seed)
    assert lean[2] >= 1                     # the first `[lead, c]` had a none in it
    monkeypatch.setattr(Program, "lean_codes", lambda self: self.codes)
    assert _play(catrules.load_source(SOURCE, "columns.cat"), 3, seed) == lean



def test_a_bare_word_of_the_card_data_is_read_as_plain_text_equal_to_the_word_in_the_rules():
    game = catrules.load_source(SOURCE, "columns.cat")
    lean = compile_game(game.program.checked, lean=True)
    ns = next(iter(lean.codes.values()))[0].__globals__
    assert {str(v) for v in game.program.attr_col["colour"]} == {"red", "blue", "green"}
    # what the rules read is exact `str`, as `red` written in the rules compiles to
    tables = [ns[k] for k in ("_a_colour", "_t_colour")]
    values = [v for t in tables for v in (t.values() if isinstance(t, dict) else t) if v is not None]
    assert values and all(type(v) is str for v in values)
