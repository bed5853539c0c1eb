"""Crazy Eights (``tests/games/eights.cat``), a shedding game written from the docs alone.

A genre none of the seed games has: play a card of the suit or rank on top of the discard
pile, or a wild eight that names the suit to follow; draw when you cannot play; the first to
empty their hand wins.  The file uses an action with a parameter for a player's turn, a menu
said aloud (``openly``), a pile turned back into the deck but for its top card (``where it !=
keep``) and a definition that reads a counter and the top of a pile.  What is checked here is
worked out from the rules, not copied from a run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import catrules
from catrules.testing import cards, play_until, put, refresh, zone

GAME = Path(__file__).resolve().parent / "games" / "eights.cat"


@pytest.fixture(scope="module")
def game():
    return catrules.load_game(GAME)


def attrs(game, c):
    card = game.card(c)
    return card["suit"], card["rank"]


@pytest.mark.parametrize("players", [2, 3, 5])
def test_every_game_ends_with_every_card_in_play(game, players):
    for seed in (1, 2, 3):
        st = game.new_state(players, seed=seed)
        play_until(st, policy=lambda s, d: d.options[seed % len(d.options)].id)
        assert st.finished
        held = [zone(st, "hand", p) for p in range(players)]
        assert sum(map(len, held)) + len(zone(st, "deck")) + len(zone(st, "discard")) == 52
        # the game ends when a hand is empty, or when every player in a row could not play
        assert any(not h for h in held) or not zone(st, "deck")


def test_only_cards_that_fit_are_offered_and_an_eight_names_the_suit(game):
    st = game.new_state(3, seed=1)
    p = st.pending()[0].player
    suit, rank = attrs(game, zone(st, "discard")[-1])
    other = next(s for s in ("clubs", "diamonds", "hearts", "spades") if s != suit)
    third = next(s for s in ("clubs", "diamonds", "hearts", "spades") if s not in (suit, other))
    same_suit = cards(game, suit=suit, rank=12 if rank != 12 else 11)[0]
    same_rank = cards(game, suit=other, rank=rank)[0]
    eight = cards(game, suit=other, rank=8)[0]
    misfit = cards(game, suit=third, rank=13 if rank != 13 else 1)[0]
    nxt = (p + 1) % 3                                   # turns go in seat order
    next_fit = cards(game, suit=third, rank=2)[0]
    next_eight = cards(game, suit=suit, rank=8)[0]       # not the discard's top: seed 1 turns a 4
    next_misfit = cards(game, suit=suit, rank=13 if rank != 13 else 1)[0]
    assert rank != 8
    # (two cards that fit, as the engine answers a choice of one by itself in tests)
    for who, hand in ((p, [same_suit, same_rank, eight, misfit]), (nxt, [next_fit, next_eight, next_misfit])):
        put(st, zone(st, "hand", who), "deck")
        put(st, hand, "hand", who)
    refresh(st)
    d = st.pending()[0]
    assert sorted(o.value for o in d.options) == sorted([same_suit, same_rank, eight])
    st.apply(p, f"c{eight}")
    # the eight lies on the discard pile, and its player names a suit, seen by everyone
    assert zone(st, "discard")[-1] == eight
    d = st.pending()[0]
    assert d.player == p and sorted(o.label for o in d.options) == ["clubs", "diamonds", "hearts", "spades"]
    st.apply(p, next(o.id for o in d.options if o.label == third))
    # the next player may play the named suit (or an eight), not the suit the eight covered
    d = st.pending()[0]
    assert d.player == nxt and sorted(o.value for o in d.options) == sorted([next_fit, next_eight])
