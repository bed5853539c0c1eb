"""Flap Cat!, the deal, the slap and the reveal: rule by rule, F01-F06 and F17.

The checklist is the project's Flap Cat! rules checklist (ids F01-F18, with the deck and the
rulings).  This file covers the start of a round and the first half of a construction step:

- F01 the deal into draw piles and the first player;
- F02, F03 the slap phase and the central draw pile made of what is left of the piles;
- F04 the secret choice and the reveal;
- F05 SWAP, F06 PAWS IN! (the primary actions, 3 to 6 players);
- F17 the same with 2 players (two piles, two cards each, no PAWS IN!, automatic SWAP).

Building, secondary actions and scoring (F07-F16, F18) are tested elsewhere.

Situations are built by hand: a game runs on its defaults to the first slap race or to the first
secret choice of the construction phase; then the cards a test needs are put on the table or into
the hands, the decision is worked out again (:func:`refresh`), and the players choose what the
test says.  Where a card ends up is read from the zones (``where``), so every test checks concrete
card ids.  Reaction times are inputs of the races; nothing here measures time.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import catrules
from catrules.play.views import visible_event
from catrules.testing import card, cards, play_until, put, put_line, refresh, zone

GAME_PATH = Path(__file__).resolve().parents[1] / "games" / "flapcat.cat"

DECK_SIZE = 73
PAWS_IN_CARDS = 4
HAND = 8
HAND_2P = 10
COLOURS = ("orange", "white", "grey", "black")
START_A_CAT = "start a new cat"
ADD_TO_A_CAT = "add it to a cat"


# ============================================================== fixtures, helpers

@cache
def _load():
    return catrules.load_game(GAME_PATH)


@pytest.fixture(scope="module")
def game():
    return _load()


def label(game, c) -> str:
    return game.program.card_label[c]


def where(st, c) -> tuple:
    """(zone name, owner) of card ``c``; the owner is None for a shared zone."""
    s = st.loc[c]
    own = st.layout.slot_owner[s]
    return st.layout.slot_spec[s].name, (own if own >= 0 else None)


def swap_card(game, colour) -> int:
    """The SWAP middle of a colour (middle 3 with the SWAP icon)."""
    return card(game, colour=colour, part="middle", stars=3, icon="swap")


def paws_card(game, colour) -> int:
    """The PAWS IN! head of a colour (head 3, hat)."""
    return card(game, colour=colour, part="head", stars=3, icon="paws_in")


def plain(game, colour, part="middle", stars=5) -> int:
    """A piece with no icon (by default the middle 5 of the colour)."""
    return card(game, colour=colour, part=part, stars=stars, icon=None)


def is_secret(st) -> bool:
    ds = st.pending()
    return bool(ds) and ds[0].kind == "secret"


def at_construction(game, n, seed=1):
    """A game paused at the first secret choice of round 1 (the slap is over)."""
    st = game.new_state(n, seed=seed, log=True)
    play_until(st, is_secret)
    return st


def decisions(st) -> dict:
    return {d.player: d for d in st.pending()}


def option_for(d, c) -> str:
    for o in d.options:
        if o.kind == "card" and o.value == c:
            return o.id
    raise AssertionError(f"card {c} is not offered to player {d.player}: {[o.value for o in d.options]}")


def offered(d) -> set:
    return {o.value for o in d.options}


def reveal(st, chosen: dict) -> None:
    """At a secret choice: make sure each player holds their card, then all choose it."""
    for p, c in chosen.items():
        if where(st, c) != ("hand", p):
            put(st, c, "hand", p)
    refresh(st)
    ds = decisions(st)
    assert set(ds) == set(range(st.n)) and all(d.kind == "secret" for d in ds.values())
    for p, c in chosen.items():
        st.apply(p, option_for(ds[p], c))


def race(st, wants: dict) -> None:
    """Answer the pending race: ``wants`` maps each racer to (card or option id, reaction time)."""
    ds = decisions(st)
    assert set(ds) == set(wants), (set(ds), set(wants))
    for p, (want, t) in wants.items():
        d = ds[p]
        assert d.kind == "race" and d.timed
        oid = option_for(d, want) if isinstance(want, int) else want
        st.apply(p, oid, t)


def exchanges(st, since=0) -> list:
    return [tuple(e["cards"]) for e in st.log[since:] if e["t"] == "exchange"]


def deals(st) -> list:
    """The deals of the log, one list per round of (zone, number of cards) in dealing order."""
    rounds = []
    for e in st.log:
        if e["t"] == "phase" and e["name"] == "round":
            rounds.append([])
        elif e["t"] == "move" and e["from"] == "deck" and e["to"].startswith(("pile", "second_pile")):
            rounds[-1].append((e["to"], len(e["cards"])))
    return rounds


def hand_sizes(st) -> list:
    return [len(zone(st, "hand", p)) for p in range(st.n)]


# ========================================================================== F01

SEEDS = (1, 2, 3)


def dealt_cards(st) -> list:
    """The ids of the cards dealt into piles in the first round."""
    out = []
    for e in st.log:
        if e["t"] == "move" and e["from"] == "deck" and e["to"].startswith(("pile", "second_pile")):
            out.extend(e["cards"])
    return out


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_F01_piles_dealt_evenly(game, n):
    for seed in SEEDS:
        st = game.new_state(n, seed=seed, log=True)
        first = st.c["first_player"]
        (deal,) = deals(st)
        # one pile per player, dealt clockwise from the first player, sizes within 1, all 73 cards
        assert [z for z, _k in deal] == [f"pile of player {(first + i) % n + 1}" for i in range(n)]
        sizes = [k for _z, k in deal]
        assert sum(sizes) == DECK_SIZE
        assert max(sizes) - min(sizes) <= 1
        # e.g. 5 players: 15, 15, 15, 14, 14 (the first player's pile first)
        assert sizes == [DECK_SIZE // n + (1 if i < DECK_SIZE % n else 0) for i in range(n)]
        assert sorted(dealt_cards(st)) == list(range(DECK_SIZE))
        # nothing is kept back and nothing is boxed with 3 or more players
        assert zone(st, "deck") == [] and zone(st, "box") == []
        on_table = len(zone(st, "table"))
        assert on_table == n               # the first slap reveal has happened
        assert sum(len(zone(st, "pile", p)) for p in range(n)) + on_table == DECK_SIZE


def test_F01_two_players_four_piles_without_paws_in(game):
    paws = cards(game, icon="paws_in")
    assert len(paws) == PAWS_IN_CARDS
    for seed in SEEDS:
        st = game.new_state(2, seed=seed, log=True)
        first = st.c["first_player"]
        (deal,) = deals(st)
        order = [first, 1 - first]
        assert [z for z, _k in deal] == [f"{pile} of player {p + 1}" for p in order
                                         for pile in ("pile", "second_pile")]
        assert [k for _z, k in deal] == [18, 17, 17, 17]     # 69 cards in 4 piles: 18 + 3 * 17
        assert sorted(dealt_cards(st)) == sorted(set(range(DECK_SIZE)) - set(paws))
        assert sorted(zone(st, "box")) == sorted(paws)


def test_F01_first_player_is_random(game):
    for n in (3, 4, 5, 6):
        firsts = {game.new_state(n, seed=s).c["first_player"] for s in range(40)}
        assert firsts <= set(range(n))
        assert len(firsts) >= 2, (n, firsts)
    assert {game.new_state(2, seed=s).c["first_player"] for s in range(40)} == {0, 1}


@pytest.mark.parametrize("n,seed", [(2, 1), (4, 5), (6, 3)])
def test_F01_first_player_moves_clockwise_each_round(game, n, seed):
    st = game.new_state(n, seed=seed, log=True)
    first = st.c["first_player"]
    seen = [first]
    for r in (2, 3):
        play_until(st, lambda s, r=r: len(deals(s)) == r)
        seen.append(st.c["first_player"])
        # the new round's deal starts at the new first player
        assert deals(st)[-1][0][0] == f"pile of player {seen[-1] + 1}"
        total = sum(k for _z, k in deals(st)[-1])
        assert total == (DECK_SIZE - PAWS_IN_CARDS if n == 2 else DECK_SIZE)
    assert seen == [first, (first + 1) % n, (first + 2) % n]


# ========================================================================== F02

def test_F02_each_player_reveals_the_top_card_of_their_pile(game):
    st = game.new_state(4, seed=7, log=True)
    for step in range(HAND):
        assert hand_sizes(st) == [step] * 4
        table = zone(st, "table")
        assert len(table) == 4
        # the revealed cards came off the players' piles, one from each
        moves = [e for e in st.log if e["t"] == "move" and e["to"] == "table"][-4:]
        assert sorted(e["from"] for e in moves) == [f"pile of player {p + 1}" for p in range(4)]
        assert sorted(c for e in moves for c in e["cards"]) == sorted(table)
        tops = [zone(st, "pile", p)[-1] for p in range(4)]
        for d in st.pending():
            st.apply(d.player, d.default or d.options[0].id, 0.5 + d.player / 10)
        while st.pending() and st.pending()[0].kind == "choose":
            d = st.pending()[0]
            st.apply(d.player, d.default)
        if step < HAND - 1:
            # the next reveal is the next card of each pile
            assert sorted(zone(st, "table")) == sorted(tops)
    assert hand_sizes(st) == [HAND] * 4
    assert is_secret(st)


def test_F02_fastest_chooses_first(game):
    st = game.new_state(3, seed=1, log=True)
    x, y, z = plain(game, "orange"), plain(game, "white"), plain(game, "grey")
    for c in zone(st, "table"):
        put(st, c, "deck")
    put(st, [x, y, z], "table")
    refresh(st)
    assert all(offered(d) == {x, y, z} for d in st.pending())
    race(st, {0: (x, 0.5), 1: (x, 0.3), 2: (x, 0.7)})
    assert where(st, x) == ("hand", 1)               # the fastest gets the card
    # the second fastest wanted the same card: asked again among the cards left
    (d,) = st.pending()
    assert (d.player, d.kind) == (0, "choose")
    assert offered(d) == {y, z}
    st.apply(0, option_for(d, z))
    # the slowest has a single card left: it is theirs without asking
    assert where(st, z) == ("hand", 0)
    assert where(st, y) == ("hand", 2)
    assert zone(st, "table") != [] and set(zone(st, "table")).isdisjoint({x, y, z})   # next reveal
    assert hand_sizes(st) == [1, 1, 1]
    ev = [e for e in st.log if e["t"] == "race"][-1]
    assert [c["player"] for c in ev["choices"]] == [1, 0, 2]


def test_F02_different_wishes_each_player_gets_theirs(game):
    st = game.new_state(3, seed=2, log=True)
    x, y, z = plain(game, "orange", "tail", 4), plain(game, "white", "head", 5), card(game, part="rat", icon=None)
    for c in zone(st, "table"):
        put(st, c, "deck")
    put(st, [x, y, z], "table")
    refresh(st)
    race(st, {0: (z, 0.9), 1: (x, 0.2), 2: (y, 0.4)})
    # nobody was asked again: the next slap race is already waiting
    assert [d.kind for d in st.pending()] == ["race"] * 3
    assert (where(st, x), where(st, y), where(st, z)) == (("hand", 1), ("hand", 2), ("hand", 0))


def test_F02_two_slower_players_asked_again_in_speed_order(game):
    st = game.new_state(4, seed=3, log=True)
    w, x, y, z = (plain(game, k) for k in COLOURS)
    for c in zone(st, "table"):
        put(st, c, "deck")
    put(st, [w, x, y, z], "table")
    refresh(st)
    race(st, {0: (w, 0.8), 1: (w, 0.2), 2: (w, 0.5), 3: (x, 0.6)})
    assert where(st, w) == ("hand", 1)
    # player 3 is third fastest; player 2 (second) is asked first, among x, y, z
    (d,) = st.pending()
    assert d.player == 2 and offered(d) == {x, y, z}
    st.apply(2, option_for(d, x))                    # takes the card player 3 wants
    # player 3 wanted x, now taken: asked again among y and z
    (d,) = st.pending()
    assert d.player == 3 and offered(d) == {y, z}
    st.apply(3, option_for(d, z))
    # player 0, the slowest, gets the last card
    assert [where(st, c) for c in (w, x, y, z)] == [("hand", 1), ("hand", 2), ("hand", 0), ("hand", 3)]
    assert hand_sizes(st) == [1, 1, 1, 1]


@pytest.mark.parametrize("n", [3, 6])
def test_F02_slap_ends_with_hands_of_8(game, n):
    st = game.new_state(n, seed=11, log=True)
    races = 0
    while not is_secret(st):
        ds = st.pending()
        if ds[0].kind == "race":
            races += 1
            assert hand_sizes(st) == [races - 1] * n          # one more card each per step
        for d in ds:
            st.apply(d.player, d.options[-1].id, 0.5 if d.timed else None)
    assert races == HAND
    assert hand_sizes(st) == [HAND] * n
    assert zone(st, "table") == []


# ========================================================================== F03

@pytest.mark.parametrize("n", [3, 6])
def test_F03_piles_become_one_shuffled_draw_pile(game, n):
    st = game.new_state(n, seed=5, log=True)
    # stop at the last slap race and note what is left in the piles
    play_until(st, lambda s: s.pending()[0].kind == "race" and len(zone(s, "hand", 0)) == HAND - 1)
    left = [c for p in range(n) for c in zone(st, "pile", p)]
    assert len(left) == DECK_SIZE - HAND * n
    assert zone(st, "deck") == []
    play_until(st, is_secret)
    assert all(zone(st, "pile", p) == [] and zone(st, "second_pile", p) == [] for p in range(n))
    assert zone(st, "table") == []
    assert hand_sizes(st) == [HAND] * n
    deck = zone(st, "deck")
    assert len(deck) == DECK_SIZE - HAND * n
    assert sorted(deck) == sorted(left)
    assert deck != left                      # shuffled, not just stacked
    assert [e["zone"] for e in st.log if e["t"] == "shuffle"] == ["deck", "deck"]


# ========================================================================== F04

def test_F04_choice_is_secret_until_all_have_chosen(game):
    st = at_construction(game, 3, seed=1)
    a, b, c = plain(game, "orange"), plain(game, "white"), plain(game, "grey")
    for p, x in enumerate((a, b, c)):
        put(st, x, "hand", p)
    refresh(st)
    ds = decisions(st)
    assert set(ds) == {0, 1, 2} and all(d.kind == "secret" and not d.timed for d in ds.values())
    st.apply(0, option_for(ds[0], a))
    # still waiting for the others; nothing is revealed yet
    assert sorted(d.player for d in st.pending()) == [1, 2]
    assert where(st, a) == ("hand", 0)
    assert all(zone(st, "front", p) == [] for p in range(3))
    seen_by = {}
    for viewer in (1, 2, None):
        v = st.view(viewer)
        seen_by[viewer] = v
        ids = set()
        for e in v["zones"]:
            for x in (e.get("cards") or []):
                ids.add(x["id"])
            for line in (e.get("lines") or []):
                ids.update(x["id"] for x in line)
            if e["zone"] == "hand" and e["owner"] == 0:
                assert e["cards"] is None and e["count"] == len(zone(st, "hand", 0))
            if e["zone"] == "front":
                assert e["count"] == 0
        assert a not in ids
        assert "my_choice" not in v
        assert all(d["player"] == viewer for d in v["decisions"])
    assert st.view(0)["my_choice"] == option_for(ds[0], a)
    # nothing is logged before everyone has chosen: the order of answers says nothing
    assert not [e for e in st.log if e["t"] == "decision" and e["kind"] == "secret"]
    # the last two choose: the reveal happens then, for all three at once
    st.apply(1, option_for(ds[1], b))
    assert where(st, b) == ("hand", 1) and zone(st, "front", 0) == []
    st.apply(2, option_for(ds[2], c))
    # the answers are logged at the reveal, in seat order; the others learn that player 0
    # chose, not what (the card shows when it moves to the public front)
    evs = [e for e in st.log if e["t"] == "decision" and e["kind"] == "secret"]
    assert [e["player"] for e in evs] == [0, 1, 2]
    assert visible_event(st, evs[0], 1)["option"] is None
    assert visible_event(st, evs[0], 0)["option"] == option_for(ds[0], a)
    ev = [e for e in st.log if e["t"] == "reveal"][-1]
    assert {(x["player"], x["option"]) for x in ev["choices"]} == {(0, f"c{a}"), (1, f"c{b}"), (2, f"c{c}")}
    assert [where(st, x) for x in (a, b, c)] == [("cats", 0), ("cats", 1), ("cats", 2)]


def test_F04_all_revealed_cards_lie_in_front_together(game):
    st = at_construction(game, 3, seed=1)
    fp = st.c["first_player"]
    # the first player has a cat, so building their card is a real choice: the game pauses there
    head = plain(game, "black", "head", 5)
    put_line(st, [head], "cats", fp)
    a, b, c = plain(game, "orange"), plain(game, "white"), plain(game, "grey")
    reveal(st, {0: a, 1: b, 2: c})
    (d,) = st.pending()
    assert d.player == fp and {o.id for o in d.options} == {START_A_CAT, ADD_TO_A_CAT}
    assert [zone(st, "front", p) for p in range(3)] == [[a], [b], [c]]
    assert all(x not in zone(st, "hand", p) for p, x in enumerate((a, b, c)))


# ========================================================================== F05

def test_F05_one_swap_trades_with_the_chosen_card(game):
    st = at_construction(game, 3, seed=1)
    s, a, b = swap_card(game, "grey"), plain(game, "orange"), plain(game, "white")
    mark = len(st.log)
    reveal(st, {0: s, 1: a, 2: b})
    (d,) = st.pending()
    # only the swapper races; any other player's revealed card, never their own
    assert d.player == 0 and d.kind == "race" and offered(d) == {a, b}
    race(st, {0: (b, 0.5)})
    assert is_secret(st)
    assert exchanges(st, mark) == [(s, b)]
    assert [where(st, x) for x in (s, a, b)] == [("cats", 2), ("cats", 1), ("cats", 0)]


def test_F05_one_swap_with_a_rat_gives_the_rat_away(game):
    st = at_construction(game, 3, seed=2)
    rat, a, b = card(game, part="rat", icon="swap"), plain(game, "orange"), plain(game, "white")
    reveal(st, {0: a, 1: rat, 2: b})
    (d,) = st.pending()
    assert d.player == 1 and offered(d) == {a, b}
    race(st, {1: (a, 0.5)})
    assert [where(st, x) for x in (rat, a, b)] == [("beside", 0), ("cats", 1), ("cats", 2)]


def test_F05_two_swaps_fastest_first_slower_chooses_again(game):
    st = at_construction(game, 4, seed=1)
    s0, s1 = swap_card(game, "orange"), swap_card(game, "white")
    a, b = plain(game, "grey"), plain(game, "black")
    mark = len(st.log)
    reveal(st, {0: s0, 1: s1, 2: a, 3: b})
    ds = decisions(st)
    assert set(ds) == {0, 1}                              # only the swappers race
    assert offered(ds[0]) == {s1, a, b} and offered(ds[1]) == {s0, a, b}
    race(st, {0: (a, 0.6), 1: (a, 0.2)})
    # player 1 was faster and took a; player 0 wanted a too: asked again, a is not offered
    (d,) = st.pending()
    assert d.player == 0 and d.kind == "choose"
    assert offered(d) == {s1, b}                          # s1 now lies in front of player 2
    st.apply(0, option_for(d, b))
    assert is_secret(st)
    assert exchanges(st, mark) == [(s1, a), (s0, b)]
    assert [where(st, x) for x in (s0, s1, a, b)] == [("cats", 3), ("cats", 2), ("cats", 1), ("cats", 0)]


def test_F05_faster_swappers_choice_wins(game):
    st = at_construction(game, 3, seed=3)
    s0, s1, a = swap_card(game, "orange"), swap_card(game, "white"), plain(game, "grey")
    reveal(st, {0: s0, 1: s1, 2: a})
    race(st, {0: (a, 0.3), 1: (a, 0.4)})
    # player 0 is faster and gets a; for player 1 only s0 (in front of player 2 now) is left
    assert is_secret(st)
    assert [where(st, x) for x in (s0, s1, a)] == [("cats", 1), ("cats", 2), ("cats", 0)]


def test_F05_slower_swapper_whose_card_now_lies_in_front_of_them_chooses_again(game):
    st = at_construction(game, 3, seed=1)
    s0, s1, a = swap_card(game, "orange"), swap_card(game, "white"), plain(game, "grey")
    mark = len(st.log)
    reveal(st, {0: s0, 1: s1, 2: a})
    # player 1 (faster) takes player 0's SWAP card; player 0 wanted player 1's, which the
    # exchange has just put in front of player 0: they choose again, and only a is left
    race(st, {0: (s1, 0.7), 1: (s0, 0.1)})
    assert is_secret(st)
    assert exchanges(st, mark) == [(s1, s0), (s1, a)]
    assert [where(st, x) for x in (s0, s1, a)] == [("cats", 1), ("cats", 2), ("cats", 0)]


def test_F05_swap_card_taken_by_a_swap_does_not_swap_again(game):
    st = at_construction(game, 3, seed=4)
    # a single swapper takes a plain card: the receiver of the SWAP card does not swap
    s0, a, b = swap_card(game, "orange"), plain(game, "grey"), plain(game, "black")
    mark = len(st.log)
    reveal(st, {0: s0, 1: a, 2: b})
    race(st, {0: (a, 0.5)})
    assert is_secret(st)                          # no race for player 1, who now has s0
    assert exchanges(st, mark) == [(s0, a)]
    assert [where(st, x) for x in (s0, a, b)] == [("cats", 1), ("cats", 0), ("cats", 2)]


def test_F05_swapper_taking_a_swap_card_swaps_once(game):
    st = at_construction(game, 4, seed=4)
    s0, s1 = swap_card(game, "orange"), swap_card(game, "white")
    a, b = plain(game, "grey"), plain(game, "black")
    mark = len(st.log)
    reveal(st, {0: s0, 1: s1, 2: a, 3: b})
    # player 0 (faster) takes player 1's SWAP card and keeps it; player 1 swaps once, for b
    race(st, {0: (s1, 0.2), 1: (b, 0.5)})
    assert is_secret(st)
    assert exchanges(st, mark) == [(s0, s1), (s0, b)]
    assert [where(st, x) for x in (s0, s1, a, b)] == [("cats", 3), ("cats", 0), ("cats", 2), ("cats", 1)]


def test_F05_three_swaps_each_swapper_swaps_at_most_once(game):
    st = at_construction(game, 3, seed=5)
    s0, s1, s2 = (swap_card(game, k) for k in ("orange", "white", "grey"))
    mark = len(st.log)
    reveal(st, {0: s0, 1: s1, 2: s2})
    race(st, {0: (s1, 0.5), 1: (s2, 0.4), 2: (s0, 0.3)})
    # speed order 2, 1, 0.  Player 2 takes s0: fronts s2 | s1 | s0.
    # Player 1 wants s2 (in front of player 0, not taken): fronts s1 | s2 | s0.
    # Player 0 wants s1, now in front of themselves; every other card was taken: no swap.
    assert is_secret(st)
    assert exchanges(st, mark) == [(s2, s0), (s1, s2)]
    assert [where(st, x) for x in (s0, s1, s2)] == [("cats", 2), ("cats", 0), ("cats", 1)]


def test_F05_no_swap_when_paws_in_is_revealed(game):
    st = at_construction(game, 3, seed=1)
    s, p, a = swap_card(game, "grey"), paws_card(game, "orange"), plain(game, "white")
    mark = len(st.log)
    reveal(st, {0: s, 1: p, 2: a})
    # the only race is to cover the PAWS IN!; nobody is offered a card to swap with
    ds = decisions(st)
    assert set(ds) == {0, 2}
    assert all(d.kind == "race" and [o.id for o in d.options] == ["paws in!"] for d in ds.values())
    race(st, {0: (ds[0].options[0].id, 0.3), 2: (ds[2].options[0].id, 0.6)})
    assert is_secret(st)
    assert exchanges(st, mark) == []
    assert [where(st, x) for x in (s, p, a)] == [("cats", 0), ("cats", 1), ("discard", None)]


# ========================================================================== F06

def paws_race(st, times: dict) -> None:
    ds = decisions(st)
    assert set(ds) == set(times)
    for d in ds.values():
        assert d.kind == "race" and [o.id for o in d.options] == ["paws in!"]
    race(st, {p: (ds[p].options[0].id, t) for p, t in times.items()})


@pytest.mark.parametrize("slowest", [1, 2])
def test_F06_one_paws_in_slowest_discards(game, slowest):
    st = at_construction(game, 3, seed=2)
    p, a, b = paws_card(game, "grey"), plain(game, "orange"), plain(game, "white")
    reveal(st, {0: p, 1: a, 2: b})
    paws_race(st, {1: 0.9 if slowest == 1 else 0.3, 2: 0.9 if slowest == 2 else 0.3})
    assert is_secret(st)
    assert zone(st, "discard") == [a if slowest == 1 else b]
    assert where(st, p) == ("cats", 0)                       # the revealer keeps theirs
    kept = b if slowest == 1 else a
    assert where(st, kept) == ("cats", 3 - slowest)


def test_F06_one_paws_in_four_players(game):
    st = at_construction(game, 4, seed=2)
    p, a, b, c = paws_card(game, "white"), plain(game, "orange"), plain(game, "grey"), plain(game, "black")
    reveal(st, {2: p, 0: a, 1: b, 3: c})
    paws_race(st, {0: 0.4, 1: 0.8, 3: 0.2})
    assert is_secret(st)
    assert zone(st, "discard") == [b]
    assert [where(st, x) for x in (p, a, c)] == [("cats", 2), ("cats", 0), ("cats", 3)]


def test_F06_several_paws_in_every_other_player_discards(game):
    st = at_construction(game, 4, seed=3)
    p0, p2 = paws_card(game, "orange"), paws_card(game, "grey")
    a, b = swap_card(game, "white"), plain(game, "black")
    reveal(st, {0: p0, 1: a, 2: p2, 3: b})
    # no race at all: the non-revealers discard, the SWAP is cancelled
    assert is_secret(st)
    assert sorted(zone(st, "discard")) == sorted([a, b])
    assert [where(st, x) for x in (p0, p2)] == [("cats", 0), ("cats", 2)]


@pytest.mark.parametrize("n", [3, 4])
def test_F06_all_reveal_paws_in_all_discard(game, n):
    st = at_construction(game, n, seed=4)
    ps = [paws_card(game, k) for k in COLOURS[:n]]
    reveal(st, dict(enumerate(ps)))
    assert is_secret(st)
    assert sorted(zone(st, "discard")) == sorted(ps)
    assert all(zone(st, "cats", p) == [] for p in range(n))


# ========================================================================== F17

def test_F17_two_players_hands_of_10_from_4_piles(game):
    st = game.new_state(2, seed=6, log=True)
    paws = sorted(cards(game, icon="paws_in"))
    steps = 0
    while not is_secret(st):
        assert sorted(zone(st, "box")) == paws
        ds = st.pending()
        if ds[0].kind == "race" and len(zone(st, "table")) == 4:
            steps += 1
            assert hand_sizes(st) == [2 * (steps - 1)] * 2
        for d in ds:
            st.apply(d.player, d.default, 0.5 if d.timed else None)
    assert steps == 5
    assert hand_sizes(st) == [HAND_2P] * 2
    # F03 with 2 players: all four piles went into the central draw pile
    assert len(zone(st, "deck")) == DECK_SIZE - PAWS_IN_CARDS - 2 * HAND_2P
    assert all(zone(st, z, p) == [] for z in ("pile", "second_pile") for p in range(2))


def test_F17_two_cards_revealed_each_and_two_races_per_step(game):
    st = game.new_state(2, seed=7, log=True)
    table = zone(st, "table")
    assert len(table) == 4
    moves = [e for e in st.log if e["t"] == "move" and e["to"] == "table"]
    assert sorted(e["from"] for e in moves) == ["pile of player 1", "pile of player 2",
                                                "second_pile of player 1", "second_pile of player 2"]
    w, x, y, z = table
    next_tops = sorted(zone(st, z, p)[-1] for p in range(2) for z in ("pile", "second_pile"))
    # first race: both want w; player 1 is faster, player 0 chooses again among the 3 left
    race(st, {0: (w, 0.5), 1: (w, 0.3)})
    (d,) = st.pending()
    assert d.player == 0 and offered(d) == {x, y, z}
    st.apply(0, option_for(d, y))
    # second race, on the two cards left, with no new reveal
    ds = decisions(st)
    assert set(ds) == {0, 1} and all(d.kind == "race" and offered(d) == {x, z} for d in ds.values())
    assert sorted(zone(st, "table")) == sorted([x, z])
    race(st, {0: (z, 0.2), 1: (x, 0.4)})
    assert sorted(zone(st, "hand", 0)) == sorted([y, z]) and sorted(zone(st, "hand", 1)) == sorted([w, x])
    # the next step reveals four new cards, the next card of each of the four piles
    assert sorted(zone(st, "table")) == next_tops
    assert all(len(d.options) == 4 for d in st.pending())


def test_F17_no_paws_in_in_a_whole_two_player_game(game):
    st = game.new_state(2, seed=1, log=True)
    paws = sorted(cards(game, icon="paws_in"))
    play_until(st)
    assert sorted(zone(st, "box")) == paws
    # they were boxed at the setup and never moved again
    moved = [e for e in st.log if e["t"] in ("move", "exchange") and set(e["cards"]) & set(paws)]
    assert [(e["from"], e["to"], sorted(e["cards"])) for e in moved] == [("deck", "box", paws)]
    # every construction race of the game was a slap race (two per slap step), none a paws race
    slaps = [e for e in st.log if e["t"] == "race"]
    assert len(slaps) == 3 * 2 * (HAND_2P // 2)


def test_F17_one_swap_exchanges_at_once(game):
    st = at_construction(game, 2, seed=1)
    s, a = swap_card(game, "black"), plain(game, "orange")
    mark = len(st.log)
    reveal(st, {0: a, 1: s})
    assert is_secret(st)                         # no race and no choice
    assert not [e for e in st.log[mark:] if e["t"] == "race"]
    assert exchanges(st, mark) == [(a, s)]
    assert [where(st, x) for x in (s, a)] == [("cats", 0), ("cats", 1)]


def test_F17_two_swaps_cancel(game):
    st = at_construction(game, 2, seed=2)
    s0, s1 = swap_card(game, "orange"), swap_card(game, "white")
    mark = len(st.log)
    reveal(st, {0: s0, 1: s1})
    assert is_secret(st)
    assert exchanges(st, mark) == []
    assert [where(st, x) for x in (s0, s1)] == [("cats", 0), ("cats", 1)]
