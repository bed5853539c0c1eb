"""Properties over many random games (hypothesis chooses players, seeds and choices).

For every game file: cards are never lost or duplicated, only legal options
are ever accepted, the game ends, and no view shows a card its player may
not see.
"""

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import catrules
from catrules.engine import cards_in
from catrules.testing import zone

ROOT = Path(__file__).resolve().parents[1]
FILES = [ROOT / "games" / "meow.cat"] + sorted((ROOT / "tests" / "games").glob("*.cat"))
FILES = [f for f in FILES if f.stem != "runaway"]
GAMES = {f.stem: catrules.load_game(f) for f in FILES}


def all_cards(st):
    return [c for z in st.z for c in cards_in(z)]


def visible_ids(view):
    ids = set()
    for z in view["zones"]:
        for key in ("cards", "cells"):
            for c in z.get(key) or []:
                if c is not None:
                    ids.add(c["id"])
        for line in z.get("lines") or []:
            ids.update(c["id"] for c in line)
    return ids


def may_see(st, player):
    lay = st.layout
    return {c for s, z in enumerate(st.z) if lay.visible(s, player) for c in cards_in(z)}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=hs.sampled_from(sorted(GAMES)), seed=hs.integers(0, 10 ** 6), data=hs.data())
def test_random_games_conserve_cards_and_hide_what_is_hidden(name, seed, data):
    game = GAMES[name]
    players = data.draw(hs.integers(game.min_players, game.max_players))
    options = data.draw(hs.sets(hs.sampled_from(sorted(game.options)))) if game.options else set()
    st = game.new_state(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    n_cards = game.program.card_count
    steps = 0
    while not st.finished:
        cards = all_cards(st)
        assert sorted(cards) == list(range(n_cards)), "a card was lost or duplicated"
        decisions = st.pending()
        assert decisions, "the game is stuck: not finished and nobody to decide"
        for d in decisions:
            view = st.view(d.player)
            assert visible_ids(view) <= may_see(st, d.player)
            # another player's owner-only zone never shows its cards
            for z in view["zones"]:
                if z["visibility"] == "owner" and z["owner"] != d.player:
                    assert z["cards"] is None
            legal = {o.id for o in d.options}
            assert len(legal) == len(d.options) >= 1
        d = decisions[rng.randrange(len(decisions))]
        bad = f"c{n_cards + 5}"
        with pytest.raises(catrules.IllegalChoice):
            st.apply(d.player, bad, 0.5)
        choice = d.options[rng.randrange(len(d.options))]
        st.apply(d.player, choice.id, rng.random() if d.timed else None)
        steps += 1
        assert steps < 5000
    assert sorted(all_cards(st)) == list(range(n_cards))
    scores = st.scores()
    assert len(scores) == players and all("total" in s for s in scores)
    assert set(st.winners()) <= set(range(players)) and st.winners()


@settings(max_examples=25, deadline=None)
@given(seed=hs.integers(0, 10 ** 6), players=hs.integers(2, 6), expert=hs.booleans())
def test_meow_only_cards_that_follow_the_led_colour_are_offered(seed, players, expert):
    game = GAMES["meow"]
    st = game.new_state(players=players, seed=seed, options=["expert"] if expert else [])
    rng = random.Random(seed)
    checked = 0
    while not st.finished:
        d = st.pending()[0]
        offered = {o.value for o in d.options}
        hand = set(zone(st, "hand", d.player))
        if offered <= hand:                       # a card of the turn (not the fish phase)
            if d.player == st.c["leader"]:
                assert offered == hand
            else:
                led = game.card(st.c["lead"])["colour"]
                same = {c for c in hand if game.card(c)["colour"] == led}
                assert offered == (same or hand)
                checked += 1
        st.apply(d.player, rng.choice(d.options).id)
    assert checked > 0
