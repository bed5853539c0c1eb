"""Properties over many random games (hypothesis chooses players, seeds and choices).

For every game file (``games/*.cat`` and the small test games): cards are
never lost or duplicated, only legal options are ever accepted, the game
ends, and no view shows a card its player may not see.  Then properties of
single games: Meow's follow-the-colour rule, and Cat Lady's deck sizes,
lines, turn order, hidden zones and save/restore.
"""

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import catrules
from catrules.runtime.state import cards_in
from catrules.testing import slot, zone

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "games").glob("*.cat")) + sorted((ROOT / "tests" / "games").glob("*.cat"))
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


# ------------------------------------------------------------------ Cat Lady
#
# Random games of games/catlady.cat at 2, 3 and 4 players, checked at every
# step.  Rule ids (C01...) are those of the game's checklist.

#: C01: what the game holds, by card type.
CATLADY_TYPES = {"game_card": 102, "stray": 13, "cube": 60, "vp_token": 6}
#: C02: the main deck by player count, before the two cards removed unseen.
CATLADY_DECK = {2: 66, 3: 84, 4: 102}
#: Zones whose cards nobody may see.
CATLADY_HIDDEN = ("deck", "box", "stray_deck")


def catlady_source_line(text):
    """The number of the one line of games/catlady.cat that holds ``text``."""
    lines = (ROOT / "games" / "catlady.cat").read_text().splitlines()
    found = [i for i, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, f"games/catlady.cat should have exactly one line with {text!r}, not {found}"
    return found[0]


def market_lines(st):
    """The ids of the market's three rows and three columns."""
    s = slot(st, "market")
    return {f"{kind}:{s}:{i}" for kind in ("row", "col") for i in range(3)}


def market_line_cards(st, line_id):
    """The cards now in one row or column of the 3x3 market."""
    kind, _slot, i = line_id.split(":")
    cells = zone(st, "market")
    part = cells[3 * int(i):3 * int(i) + 3] if kind == "row" else cells[int(i)::3]
    return [c for c in part if c is not None]


def check_catlady_setup(game, st, players):
    assert game.card_count == sum(CATLADY_TYPES.values()) == 181
    types = {}
    for c in range(game.card_count):
        types[game.card(c)["type"]] = types.get(game.card(c)["type"], 0) + 1
    assert types == CATLADY_TYPES
    in_play = [c for c in range(game.card_count)
               if game.card(c)["type"] == "game_card" and game.card(c)["marker"] <= players]
    assert len(in_play) == CATLADY_DECK[players]                          # C02: 66 / 84 / 102
    unseen = 2 if players < 4 else 0
    deck, box = zone(st, "deck"), zone(st, "box")
    market = [c for c in zone(st, "market") if c is not None]
    assert len(market) == 9                                                # C02: the 3x3 grid
    assert len(deck) + len(market) == CATLADY_DECK[players] - unseen
    assert set(deck) | set(market) <= set(in_play)
    assert len(set(in_play) & set(box)) == unseen                          # two removed unseen
    assert len(zone(st, "strays")) == 3 and len(zone(st, "stray_deck")) == 10
    assert len(zone(st, "supply")) == 60 and len(zone(st, "tokens")) == 6
    for p in range(players):
        for name in ("cats", "cubes", "kept", "hand", "eaten"):
            assert zone(st, name, p) == []


def check_catlady_views(st):
    """No view (any player's or a spectator's) shows a card of a hidden zone."""
    hidden = {c for name in CATLADY_HIDDEN for c in zone(st, name)}
    for p in [*range(st.n), None]:
        view = st.view(p)
        shown = visible_ids(view)
        assert not shown & hidden, f"player {p}'s view shows hidden cards {sorted(shown & hidden)}"
        assert shown <= may_see(st, p)
        for z in view["zones"]:
            if z["zone"] in CATLADY_HIDDEN:
                assert z["cards"] is None and z["count"] == len(zone(st, z["zone"]))
        for d in view["decisions"]:
            for o in d["options"]:
                if o["kind"] == "card":
                    assert int(o["id"][1:]) not in hidden
        assert not {int(k) for k in view["counters"]["meal"]} & hidden


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=hs.integers(0, 10 ** 6), save_at=hs.integers(0, 45))
def test_catlady_random_games_keep_the_rules(players, seed, save_at):
    game = GAMES["catlady"]
    place_line = catlady_source_line("placer chooses l from lines(market)")         # C03
    take_line = catlady_source_line("chooses l from lines(market) where it != blocked")  # C04
    st = game.new_state(players=players, seed=seed)
    check_catlady_setup(game, st, players)
    n_cards = game.card_count
    box = sorted(zone(st, "box"))
    deck_at_start = len(zone(st, "deck"))
    first = st.c["first_player"]
    rng = random.Random(seed)
    takers, saved, steps = [], [], 0
    while not st.finished:
        assert sorted(all_cards(st)) == list(range(n_cards)), "a card was lost or duplicated"
        assert sorted(zone(st, "box")) == box                    # only setup puts cards out of the game
        decisions = st.pending()
        assert len(decisions) == 1, "Cat Lady has one decision at a time"
        d = decisions[0]
        check_catlady_views(st)
        legal = [o.id for o in d.options]
        assert len(set(legal)) == len(legal) >= 2
        if steps == save_at:                                     # save and copy mid-game
            data = json.loads(json.dumps(st.to_dict()))
            saved = [(steps, game.restore(data)), (steps, st.clone())]
            for _, other in saved:
                assert [x.to_dict() for x in other.pending()] == [d.to_dict()]
        if d.line == place_line:                                 # C03: counter-clockwise of the first player
            assert steps == 0 and d.player == (first - 1) % players
            assert set(legal) == market_lines(st)
        elif d.line == take_line:                                # C04: any line but the cat token's
            blocked = st.c["blocked"]
            assert blocked in market_lines(st)
            assert set(legal) == market_lines(st) - {blocked}
            assert d.player == st.c["current"] == (first + len(takers)) % players
            assert len([c for c in zone(st, "market") if c is not None]) == 9
        elif any(o.kind == "value" for o in d.options):          # C05: the turn's menu
            assert ("take a line" in legal) != ("end the turn" in legal)
        choice = d.options[rng.randrange(len(d.options))].id
        if d.line == take_line:
            taken, deck_before = market_line_cards(st, choice), len(zone(st, "deck"))
        st.apply(d.player, choice)
        steps += 1
        assert steps < 1000, "the game does not end"
        if d.line == take_line:
            takers.append(d.player)
            assert st.c["blocked"] == choice                     # C04: the token moves beside it
            assert len(taken) == 3
            mine = {c for name in ("cats", "cubes", "kept", "hand") for c in zone(st, name, d.player)}
            for c in taken:                                      # C06: to the taker (food to the discard)
                assert c in mine or (game.card(c)["kind"] == "food" and c in zone(st, "discard"))
            assert deck_before - len(zone(st, "deck")) == min(3, deck_before)    # C04: refilled
    # C09: the game ends after the turn whose line could not be refilled
    assert st.c["last_turn"] and zone(st, "deck") == []
    assert len(takers) == deck_at_start // 3 + 1
    assert len([c for c in zone(st, "market") if c is not None]) == 6 + deck_at_start % 3
    assert sorted(all_cards(st)) == list(range(n_cards))
    scores = st.scores()
    assert len(scores) == players and all(isinstance(s["total"], int) for s in scores)
    assert st.winners() and set(st.winners()) <= set(range(players))
    check_catlady_views(st)
    for at, other in saved:                                      # the copies play on to the same end
        for rec in st.history[at:]:
            other.apply(*rec)
        assert other.finished and other.z == st.z and other.c == st.c
        assert other.scores() == scores and other.history == st.history
