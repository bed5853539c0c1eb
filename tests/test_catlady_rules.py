"""Cat Lady, rule by rule: one or more tests per checklist id C01-C17.

The checklist is the project's Cat Lady rules checklist (ids C01-C17, with its card data and
rulings).  Every test builds a concrete situation -- a given grid, given hands, given cats and
cubes at the end of the game -- or plays whole games, and checks the outcome against what the
rules say.  Every expected number was worked out by hand from the rules (the working is in the
comments next to it); none was copied from a run.

End-of-game situations are built at the game's first decision (the cat token's placement,
before any turn): the players' zones are filled by hand, ``last_turn`` is set so that no turn
is played, and the feeding phase and the scoring run as in a real game (see :class:`Table`).
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

import catrules
from catrules.testing import cards, empty, put, refresh, slot, zone

GAME_PATH = Path(__file__).resolve().parents[1] / "games" / "catlady.cat"

FLAVOUR = {"c": "chicken", "t": "tuna", "m": "milk", "w": "wild"}
MENU = "Choose what to do"
TAKE = "take a line"
STRAY = "find a stray with 2 lost cats"
TOKEN = "take a VP token with 2 lost cats"
SPRAY = "use a spray bottle"
END = "end the turn"


# ============================================================== fixtures, helpers

@lru_cache(maxsize=None)
def _load():
    return catrules.load_game(GAME_PATH)


@pytest.fixture(scope="module")
def game():
    return _load()


def of_type(game, type_name) -> list:
    return [i for i in range(game.card_count) if game.card(i)["type"] == type_name]


def name_of(game, c) -> str:
    return game.card(c).get("name")


def names(game, ids) -> list:
    return sorted(name_of(game, c) for c in ids)


def the(game, name) -> int:
    """The id of the one card with this name (cats, strays)."""
    found = cards(game, name=name)
    assert len(found) == 1, (name, found)
    return found[0]


def flavours(game, ids) -> Counter:
    return Counter(game.card(c)["flavour"] for c in ids)


def row(st, i) -> str:
    """The value of the i-th row (0 = top) of the grid, as decisions and ``blocked`` give it."""
    return f"row:{slot(st, 'market')}:{i}"


def col(st, i) -> str:
    return f"col:{slot(st, 'market')}:{i}"


def all_lines(st) -> set:
    return {row(st, i) for i in range(3)} | {col(st, i) for i in range(3)}


def decision(st):
    ds = st.pending()
    assert len(ds) == 1, ds
    return ds[0]


def option_ids(st) -> list:
    return [o.id for o in decision(st).options]


def do(st, option_id) -> None:
    """Apply an option of the one pending decision (a menu label, a line, ...)."""
    d = decision(st)
    assert option_id in [o.id for o in d.options], (option_id, [o.id for o in d.options])
    st.apply(d.player, option_id)


def do_card(st, card_id) -> None:
    d = decision(st)
    for o in d.options:
        if o.kind == "card" and o.value == card_id:
            st.apply(d.player, o.id)
            return
    raise AssertionError(f"{card_id} is not offered: {[o.value for o in d.options]}")


def is_line_choice(st) -> bool:
    ids = option_ids(st)
    return bool(ids) and all(i.startswith(("row:", "col:")) for i in ids)


class Table:
    """A game paused at its first decision, for building a situation by hand.

    ``give`` hands out cards by name (each call takes copies not handed out yet) and cubes by
    letter (``"ccmw"``: 2 chicken, 1 milk, 1 wild).  ``finish`` sets ``last_turn`` (so no turn
    is played), lets the placer put the cat token down, and runs the feeding and the scoring.
    """

    def __init__(self, game, n=2, seed=1):
        self.game = game
        self.st = game.new_state(n, seed=seed)
        self.n = n
        self.used: set = set()

    def one(self, **attrs) -> int:
        for i in cards(self.game, **attrs):
            if i not in self.used:
                self.used.add(i)
                return i
        raise AssertionError(f"no card {attrs} left to hand out")

    def give(self, p, cats=(), cubes="", kept=(), hand=(), tokens=0) -> list:
        g = self.game
        cat_ids = [self.one(name=nm) for nm in cats]
        put(self.st, cat_ids, "cats", owner=p)
        put(self.st, [self.one(flavour=FLAVOUR[x]) for x in cubes], "cubes", owner=p)
        put(self.st, [self.one(name=nm) for nm in kept], "kept", owner=p)
        put(self.st, [self.one(name=nm) for nm in hand], "hand", owner=p)
        put(self.st, [self.one(name="VP token") for _ in range(tokens)], "kept", owner=p)
        assert all(g.card(c)["kind"] == "cat" for c in cat_ids)
        return cat_ids

    def finish(self) -> list:
        st = self.st
        refresh(st)
        st.c["last_turn"] = True
        for _ in range(50):
            if st.over:
                return st.scores()
            ids = option_ids(st)
            do(st, END if END in ids else TAKE if TAKE in ids else ids[0])
        raise AssertionError("the game did not end")

    def meal(self, name):
        return self.st.c["meal"][the(self.game, name)]

    def leftover(self, p) -> int:
        return len(zone(self.st, "cubes", p))


def finished(game, n, **players):
    """Build and finish a game: ``players`` maps ``p0``, ``p1``... to ``give`` arguments."""
    t = Table(game, n)
    for key, kw in players.items():
        t.give(int(key[1:]), **kw)
    return t, t.finish()


def set_market(st, game, rows) -> list:
    """Lay out the grid by card names, row by row; the cards it held go on top of the deck."""
    empty(st, "market", to="deck")
    taken: set = set()
    ids = []
    for r in rows:
        for nm in r:
            c = next(i for i in cards(game, name=nm) if i not in taken)
            taken.add(c)
            ids.append(c)
    put(st, ids, "market")            # the grid fills its empty cells in order, row by row
    assert zone(st, "market") == ids
    return ids


PLAIN = ["Mouse Toy", "Yarn Ball", "Feather Wand", "Cat Tower", "Scratching Post"]
COSTUMES = ["Bunny", "Pirate", "Superhero", "Alien Suit", "Sailor Outfit", "Fancy Suit", "Crown"]

# the checklist's card tables, copied by hand: name -> (colours, vp, food, marker)
CATS = {
    "Shadow": ("B", 1, "t", 2), "Jazz": ("B", 1, "t", 2), "Lily": ("B", 2, "m", 3),
    "Blackberry": ("B", 3, "cc", 2), "Keaton": ("B", 4, "mm", 2), "Pablo Picatso": ("B", 6, "ttt", 2),
    "Chester": ("O", 1, "t", 3), "Bell": ("O", 1, "c", 2), "Bronte": ("O", 3, "tt", 2),
    "Zeus": ("O", 3, "cc", 2), "Pumpkin": ("O", 6, "ccm", 2), "Chairman Meow": ("O", 6, "ccc", 2),
    "Cooper": ("W", 1, "c", 3), "Gershon": ("W", 1, "c", 2), "Snowflake": ("W", 2, "m", 2),
    "Sparkle": ("W", 3, "tt", 2), "Sir Cuddleface": ("W", 4, "mm", 2), "Sox": ("W", 6, "ttm", 2),
    "Henriette": ("BOW", 5, "tcm", 4),
    "Alvin": ("BO", 0, "tm", 3), "Dinah": ("OW", 0, "cm", 3), "Luna": ("BW", 0, "tc", 3),
}
COLOUR = {"B": "black", "O": "orange", "W": "white"}


# ========================================================================== C01

def test_C01_component_counts(game):
    assert len(of_type(game, "game_card")) == 102
    assert len(of_type(game, "stray")) == 13
    tokens = of_type(game, "vp_token")
    assert len(tokens) == 6
    cubes = of_type(game, "cube")
    assert flavours(game, cubes) == {"chicken": 20, "tuna": 20, "milk": 15, "wild": 5}
    kinds = Counter(game.card(c)["kind"] for c in of_type(game, "game_card"))
    assert kinds == {"cat": 22, "food": 34, "toy": 15, "costume": 9, "catnip": 7, "spray": 5, "lost": 10}


def test_C01_cat_cards_match_the_checklist(game):
    cats = [c for c in of_type(game, "game_card") if game.card(c)["kind"] == "cat"]
    assert sorted(name_of(game, c) for c in cats) == sorted(CATS)
    for c in cats:
        a = game.card(c)
        colours, vp, food, marker = CATS[a["name"]]
        assert list(a["colours"]) == [COLOUR[x] for x in colours], a["name"]
        assert a["vp"] == vp and a["marker"] == marker, a["name"]
        assert list(a["eats"]) == [FLAVOUR[x] for x in food], a["name"]
    # the three "1 VP per <colour> cat you feed" cats
    assert {n: (game.card(the(game, n))["bonus"], game.card(the(game, n))["bonus_colour"])
            for n in ("Alvin", "Dinah", "Luna")} == {"Alvin": (1, "orange"), "Dinah": (1, "white"),
                                                     "Luna": (1, "black")}


def test_C01_other_game_cards_by_marker_match_the_checklist(game):
    def tally(kind):
        return Counter((name_of(game, c), game.card(c)["marker"]) for c in of_type(game, "game_card")
                       if game.card(c)["kind"] == kind)
    assert tally("food") == {("Chicken", 2): 5, ("Chicken", 3): 2, ("Chicken", 4): 1,
                             ("Chicken x2", 2): 2, ("Chicken x2", 4): 1,
                             ("Tuna", 2): 5, ("Tuna", 3): 2, ("Tuna", 4): 1,
                             ("Tuna x2", 2): 2, ("Tuna x2", 3): 1,
                             ("Milk", 2): 4, ("Milk", 3): 2, ("Milk", 4): 2,
                             ("Milk x2", 2): 1,
                             ("Wild food", 2): 2, ("Wild food", 4): 1}
    assert tally("toy") == {**{(t, 2): 2 for t in PLAIN}, **{(t, 4): 1 for t in PLAIN}}
    assert tally("costume") == {**{(c, 2): 1 for c in COSTUMES}, ("Frog", 3): 1, ("Duck Hat", 4): 1}
    assert tally("catnip") == {("Catnip", 2): 3, ("Catnip", 3): 2, ("Catnip", 4): 2}
    assert tally("spray") == {("Spray Bottle", 2): 4, ("Spray Bottle", 4): 1}
    assert tally("lost") == {("Lost Cat", 2): 6, ("Lost Cat", 3): 2, ("Lost Cat", 4): 2}


def test_C01_strays_match_the_checklist(game):
    strays = {name_of(game, c): game.card(c) for c in of_type(game, "stray")}
    expected = {  # name: (colours, food or None for the three that eat freely)
        "Florence": ("O", "cm"), "Antoinette": ("W", "tm"), "Eliot": ("B", "tc"),
        "LeVar Purrton": ("W", "tc"), "Zoroaster": ("B", "cc"), "Penny": ("O", "m"), "Macak": ("O", "m"),
        "Hemingway": ("B", "m"), "Sweetheart": ("BOW", "tc"), "Moonbeam": ("W", "tc"),
        "Waffle": ("O", None), "Cow": ("W", None), "Truffle": ("B", None)}
    assert set(strays) == set(expected)
    for nm, (colours, food) in expected.items():
        assert list(strays[nm]["colours"]) == [COLOUR[x] for x in colours], nm
        if food is not None:
            assert list(strays[nm]["eats"]) == [FLAVOUR[x] for x in food], nm
    assert strays["Macak"]["vp"] == 2 and strays["Sweetheart"]["vp"] == 5 and strays["Moonbeam"]["vp"] == 3


def test_C01_food_card_totals_never_exceed_the_cube_supply(game):
    gives = Counter()
    for c in of_type(game, "game_card"):
        a = game.card(c)
        if a["kind"] == "food":
            gives[a["gives"]] += a["amount"]
    # chicken 8 + 3x2 = 14, tuna 8 + 3x2 = 14, milk 8 + 1x2 = 10, wild 3
    assert gives == {"chicken": 14, "tuna": 14, "milk": 10, "wild": 3}
    supply = flavours(game, of_type(game, "cube"))
    assert all(gives[f] <= supply[f] for f in gives)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_C01_two_to_four_players(game, n):
    st = game.new_state(n, seed=n)
    assert st.n == n and not st.over
    assert (game.min_players, game.max_players) == (2, 4)


@pytest.mark.parametrize("n", [1, 5])
def test_C01_other_player_counts_rejected(game, n):
    with pytest.raises(catrules.CatrulesError):
        game.new_state(n, seed=1)


def test_C01_game_starts_with_every_cube_and_token_in_the_supply(game):
    st = game.new_state(3, seed=2)
    assert sorted(zone(st, "supply")) == sorted(of_type(game, "cube"))
    assert sorted(zone(st, "tokens")) == sorted(of_type(game, "vp_token"))


# ========================================================================== C02

# by hand from the card tables: 18 cards are marked 4 (1 cat, 6 food, 5 toys, 1 costume,
# 2 catnip, 1 spray, 2 lost cats) and 18 are marked 3+ (6 cats, 7 food, 1 costume, 2 catnip,
# 2 lost cats): 102 - 18 - 18 = 66 for 2 players, 102 - 18 = 84 for 3, all 102 for 4.
DECK_BEFORE = {2: 66, 3: 84, 4: 102}
DECK_AFTER = {2: 64, 3: 82, 4: 102}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_C02_deck_sizes_by_player_count(game, n):
    eligible = [c for c in of_type(game, "game_card") if game.card(c)["marker"] <= n]
    assert len(eligible) == DECK_BEFORE[n]
    for seed in range(3):
        st = game.new_state(n, seed=seed)
        in_play = zone(st, "deck") + [c for c in zone(st, "market") if c is not None]
        assert len(in_play) == DECK_AFTER[n]
        assert len(zone(st, "box")) == 102 - DECK_AFTER[n]
        assert set(in_play) <= set(eligible)


@pytest.mark.parametrize("n", [2, 3])
def test_C02_removes_marked_cards_then_two_unseen(game, n):
    randoms = set()
    for seed in range(12):
        st = game.new_state(n, seed=seed)
        box = zone(st, "box")
        marked = {c for c in of_type(game, "game_card") if game.card(c)["marker"] > n}
        assert marked <= set(box)
        extra = set(box) - marked
        assert len(extra) == 2 and all(game.card(c)["marker"] <= n for c in extra)
        randoms.add(frozenset(extra))
    assert len(randoms) > 6, "the two unseen removals are not random"


def test_C02_four_players_remove_nothing(game):
    st = game.new_state(4, seed=3)
    assert zone(st, "box") == []
    assert len(zone(st, "deck")) == 102 - 9


@pytest.mark.parametrize("n", [2, 3, 4])
def test_C02_grid_of_nine_and_three_strays(game, n):
    st = game.new_state(n, seed=5)
    market = zone(st, "market")
    assert len(market) == 9 and None not in market
    assert all(game.card(c)["type"] == "game_card" for c in market)
    assert len(zone(st, "deck")) == DECK_AFTER[n] - 9
    strays = zone(st, "strays")
    assert len(strays) == 3 and len(zone(st, "stray_deck")) == 10
    assert sorted(strays + zone(st, "stray_deck")) == sorted(of_type(game, "stray"))
    # the grid and the strays are face up: everyone sees them
    v = st.view(0)
    shown = {z["zone"]: z for z in v["zones"] if z["zone"] in ("market", "strays", "deck")}
    assert [c["id"] for c in shown["strays"]["cards"]] == strays
    assert shown["deck"]["cards"] is None


def test_C02_deck_and_strays_are_shuffled(game):
    grids = {tuple(zone(game.new_state(3, seed=s), "market")) for s in range(8)}
    strays = {tuple(zone(game.new_state(3, seed=s), "strays")) for s in range(8)}
    assert len(grids) == 8 and len(strays) > 4


# ========================================================================== C03

@pytest.mark.parametrize("n", [2, 3, 4])
def test_C03_player_counter_clockwise_of_first_places_the_token(game, n):
    firsts = set()
    for seed in range(30):
        st = game.new_state(n, seed=seed)
        first = st.c["first_player"]
        firsts.add(first)
        d = decision(st)
        # turns go clockwise (first, first + 1, ...), so counter-clockwise is first - 1
        assert d.player == (first - 1) % n
        assert {o.id for o in d.options} == all_lines(st)          # any of the 3 rows and 3 columns
        assert d.default is None                                   # a real choice, nothing preselected
        assert st.c["blocked"] is None
    assert firsts == set(range(n))


@pytest.mark.parametrize("which", range(6))
def test_C03_placed_line_is_blocked_for_the_first_turn(game, which):
    st = game.new_state(3, seed=7)
    first = st.c["first_player"]
    line = sorted(all_lines(st))[which]
    do(st, line)
    assert st.c["blocked"] == line
    d = decision(st)
    assert d.player == first == st.c["current"]
    assert {o.id for o in d.options} == all_lines(st) - {line}


# ========================================================================== C04

GRID = [["Bell", "Chicken", "Crown"],
        ["Shadow", "Tuna", "Pirate"],
        ["Snowflake", "Milk", "Bunny"]]


def test_C04_take_a_line_moves_the_token_and_refills_it(game):
    st = game.new_state(3, seed=11)
    first = st.c["first_player"]
    grid = set_market(st, game, GRID)
    do(st, row(st, 0))                                  # the placer blocks the top row
    assert set(option_ids(st)) == all_lines(st) - {row(st, 0)}
    deck = zone(st, "deck")
    do(st, col(st, 0))                                  # Bell, Shadow, Snowflake
    assert names(game, zone(st, "cats", first)) == ["Bell", "Shadow", "Snowflake"]
    assert st.c["blocked"] == col(st, 0)
    after = zone(st, "market")
    # the taken column (cells 0, 3, 6) holds the three top cards of the deck; the rest is unchanged
    assert sorted(after[i] for i in (0, 3, 6)) == sorted(deck[-3:])
    assert [after[i] for i in (1, 2, 4, 5, 7, 8)] == [grid[i] for i in (1, 2, 4, 5, 7, 8)]
    assert zone(st, "deck") == deck[:-3]
    # the next player clockwise: the taken column is blocked for them, the top row is free again
    d = decision(st)
    assert d.player == (first + 1) % 3 == st.c["current"]
    assert {o.id for o in d.options} == all_lines(st) - {col(st, 0)}


def test_C04_row_taken_by_the_second_player(game):
    st = game.new_state(2, seed=3)
    first = st.c["first_player"]
    set_market(st, game, GRID)
    do(st, col(st, 2))
    do(st, row(st, 2))                                  # first player: Snowflake, Milk, Bunny
    assert st.c["blocked"] == row(st, 2)
    second = (first + 1) % 2
    assert decision(st).player == second
    assert set(option_ids(st)) == all_lines(st) - {row(st, 2)}
    market = zone(st, "market")
    do(st, row(st, 0))                                  # second player: Bell, Chicken, Crown
    assert names(game, zone(st, "cats", second)) == ["Bell"]
    assert names(game, zone(st, "kept", second)) == ["Crown"]
    assert flavours(game, zone(st, "cubes", second)) == {"chicken": 1}
    assert st.c["blocked"] == row(st, 0)
    assert zone(st, "market")[3:] == market[3:]
    assert decision(st).player == first


def play_random(game, n, seed):
    """A whole game with random choices; records every line taken: (player, blocked, offered, taken)."""
    st = game.new_state(n, seed=seed)
    rng = random.Random(seed * 7 + n)
    takes = []
    last = None
    placed = False
    while not st.over:
        d = decision(st)
        ids = [o.id for o in d.options]
        choice = rng.choice(ids)
        # a line choice is the placer's (the first), a spray's (right after "use a spray
        # bottle"), or else the line taken in a turn
        taking = is_line_choice(st) and placed and last != SPRAY
        placed = placed or is_line_choice(st)
        if taking:
            takes.append((d.player, st.c["blocked"], set(ids), choice))
        st.apply(d.player, choice)
        if taking:
            assert st.c["blocked"] == choice          # the cat token moves beside the line taken
        last = choice
        assert st.decisions < 5000
    return st, takes


@lru_cache(maxsize=None)
def random_games():
    game = _load()
    return tuple((n, seed) + play_random(game, n, seed) for n in (2, 3, 4) for seed in range(2))


def test_C04_blocked_line_never_offered_no_diagonals_in_whole_games(game):
    for n, seed, st, takes in random_games():
        lines = all_lines(st)
        first = st.c["first_player"]
        for k, (player, blocked, offered, taken) in enumerate(takes):
            assert player == (first + k) % n, "turns do not go clockwise"
            assert blocked in lines
            assert offered == lines - {blocked}, (n, seed, k)


# ========================================================================== C05

def test_C05_lost_cats_and_sprays_before_and_after_the_line(game):
    st = game.new_state(2, seed=4)
    f = st.c["first_player"]
    other = 1 - f
    grid = set_market(st, game, GRID)
    lost = cards(game, name="Lost Cat")[:4]
    sprays = cards(game, name="Spray Bottle")[:3]
    put(st, lost + sprays, "hand", owner=f)
    put(st, cards(game, name="Lost Cat")[4:6], "hand", owner=other)   # not theirs to play now
    do(st, row(st, 0))
    # start of the turn: everything but ending the turn
    assert decision(st).player == f
    assert option_ids(st) == [TAKE, STRAY, TOKEN, SPRAY]
    do(st, SPRAY)
    do(st, col(st, 2))
    assert st.c["blocked"] == col(st, 2)
    do(st, SPRAY)                                     # a second spray, still before the line
    do(st, row(st, 2))
    assert st.c["blocked"] == row(st, 2)
    do(st, TOKEN)
    assert len([c for c in zone(st, "kept", f) if game.card(c)["kind"] == "token"]) == 1
    assert option_ids(st) == [TAKE, STRAY, TOKEN, SPRAY]
    do(st, TAKE)
    assert set(option_ids(st)) == all_lines(st) - {row(st, 2)}   # the top row is free again
    do(st, row(st, 0))                                 # Bell, Chicken, Crown
    # after the line: the same cards, and ending the turn; no second line
    assert option_ids(st) == [STRAY, TOKEN, SPRAY, END]
    do(st, SPRAY)
    do(st, col(st, 1))
    do(st, STRAY)
    stray = zone(st, "strays")[1]
    do_card(st, stray)
    # no lost cats and no spray left: ending the turn is all there is, so the turn ends
    assert zone(st, "hand", f) == []
    # discarded: the four lost cats, the three sprays, and the Chicken card of the line
    assert sorted(zone(st, "discard")) == sorted(lost + sprays + [grid[1]])
    assert flavours(game, zone(st, "cubes", f)) == {"chicken": 1}
    assert names(game, zone(st, "cats", f)) == sorted(["Bell", name_of(game, stray)])
    d = decision(st)
    assert d.player == other and st.c["current"] == other
    # the other player's lost cats were never offered to them during the first player's turn
    assert len(zone(st, "hand", other)) == 2
    assert st.c["blocked"] == col(st, 1)


def test_C05_only_the_current_player_decides(game):
    st = game.new_state(3, seed=9)
    f = st.c["first_player"]
    for p in range(3):
        put(st, cards(game, name="Lost Cat")[2 * p:2 * p + 2] + cards(game, name="Spray Bottle")[p:p + 1],
            "hand", owner=p)
    set_market(st, game, GRID)
    do(st, row(st, 1))
    ds = st.pending()
    assert [d.player for d in ds] == [f]
    assert option_ids(st) == [TAKE, STRAY, TOKEN, SPRAY]


# ========================================================================== C06

@pytest.mark.parametrize("column, expect", [
    (0, {"cats": ["Bronte"], "cubes": {"chicken": 2, "wild": 1}, "kept": [], "hand": [],
         "discard": ["Chicken x2", "Wild food"]}),
    (1, {"cats": [], "cubes": {"tuna": 1}, "kept": ["Crown", "Mouse Toy"], "hand": [], "discard": ["Tuna"]}),
    (2, {"cats": [], "cubes": {}, "kept": ["Catnip"], "hand": ["Lost Cat", "Spray Bottle"], "discard": []}),
])
def test_C06_each_card_type_goes_to_its_place(game, column, expect):
    st = game.new_state(2, seed=6)
    f = st.c["first_player"]
    set_market(st, game, [["Chicken x2", "Tuna", "Catnip"],
                          ["Wild food", "Crown", "Lost Cat"],
                          ["Bronte", "Mouse Toy", "Spray Bottle"]])
    supply = flavours(game, zone(st, "supply"))
    do(st, row(st, 0))
    do(st, col(st, column))
    assert names(game, zone(st, "cats", f)) == expect["cats"]
    assert flavours(game, zone(st, "cubes", f)) == expect["cubes"]
    assert names(game, zone(st, "kept", f)) == expect["kept"]
    assert names(game, zone(st, "hand", f)) == expect["hand"]
    assert names(game, zone(st, "discard")) == expect["discard"]     # food cards are discarded
    assert flavours(game, zone(st, "supply")) == supply - Counter(expect["cubes"])
    if column == 2:   # a spray bottle in hand: the turn goes on until the player ends it
        assert option_ids(st) == [SPRAY, END]


def test_C06_double_food_cards_give_two_cubes(game):
    st = game.new_state(2, seed=8)
    f = st.c["first_player"]
    set_market(st, game, [["Milk x2", "Bell", "Crown"],
                          ["Tuna x2", "Shadow", "Pirate"],
                          ["Milk", "Snowflake", "Bunny"]])
    do(st, row(st, 0))
    do(st, col(st, 0))
    # Milk x2 -> 2 milk, Tuna x2 -> 2 tuna, Milk -> 1 milk
    assert flavours(game, zone(st, "cubes", f)) == {"milk": 3, "tuna": 2}
    assert zone(st, "cats", f) == [] and zone(st, "kept", f) == []


# ========================================================================== C07

def test_C07_stray_found_with_two_lost_cats_is_not_replaced(game):
    st = game.new_state(2, seed=12)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    lost = cards(game, name="Lost Cat")[:3]
    put(st, lost, "hand", owner=f)
    strays, stray_deck = zone(st, "strays"), zone(st, "stray_deck")
    do(st, row(st, 0))
    do(st, STRAY)
    d = decision(st)
    assert {o.value for o in d.options} == set(strays)          # any of the three face-up strays
    do_card(st, strays[2])
    assert zone(st, "cats", f) == [strays[2]]
    assert zone(st, "strays") == strays[:2]                     # not replaced
    assert zone(st, "stray_deck") == stray_deck
    assert len(zone(st, "hand", f)) == 1 and len(zone(st, "discard")) == 2
    assert set(zone(st, "discard")) <= set(lost)
    # one lost cat left: neither lost-cat option is offered, so the line choice comes at once
    assert is_line_choice(st)


def test_C07_all_three_strays_gone_then_no_stray_offered(game):
    st = game.new_state(2, seed=13)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    put(st, cards(game, name="Lost Cat")[:8], "hand", owner=f)
    do(st, row(st, 0))
    for left in (3, 2, 1):
        do(st, STRAY)
        if left > 1:                  # the last stray is the only choice: it is taken at once
            assert len(option_ids(st)) == left
            do_card(st, zone(st, "strays")[0])
    assert zone(st, "strays") == [] and len(zone(st, "stray_deck")) == 10
    assert len(zone(st, "cats", f)) == 3
    assert option_ids(st) == [TAKE, TOKEN]


def test_C07_vp_token_while_any_remain(game):
    st = game.new_state(2, seed=14)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    tokens = zone(st, "tokens")
    put(st, tokens[:5], "box")                    # one token left
    put(st, cards(game, name="Lost Cat")[:4], "hand", owner=f)
    do(st, row(st, 0))
    do(st, TOKEN)
    assert zone(st, "kept", f) == tokens[5:] and zone(st, "tokens") == []
    assert option_ids(st) == [TAKE, STRAY]        # no token left to take


def test_C07_a_single_lost_cat_does_nothing(game):
    st = game.new_state(2, seed=15)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    put(st, cards(game, name="Lost Cat")[0], "hand", owner=f)
    do(st, row(st, 0))
    assert is_line_choice(st)                     # the menu had one item: take a line


# ========================================================================== C08

@pytest.mark.parametrize("target", ["row0", "col1", "row2"])
def test_C08_spray_moves_the_token_to_any_line(game, target):
    st = game.new_state(2, seed=16)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    spray = cards(game, name="Spray Bottle")[0]
    put(st, spray, "hand", owner=f)
    do(st, row(st, 0))
    do(st, SPRAY)
    assert set(option_ids(st)) == all_lines(st)    # any row or column, the blocked one included
    line = (row if target.startswith("row") else col)(st, int(target[-1]))
    do(st, line)
    assert st.c["blocked"] == line
    assert zone(st, "discard") == [spray] and zone(st, "hand", f) == []
    assert set(option_ids(st)) == all_lines(st) - {line}


def test_C08_spray_after_the_line_blocks_the_next_player(game):
    st = game.new_state(3, seed=17)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    put(st, cards(game, name="Spray Bottle")[0], "hand", owner=f)
    do(st, row(st, 0))
    do(st, TAKE)
    do(st, col(st, 0))
    assert st.c["blocked"] == col(st, 0)
    assert option_ids(st) == [SPRAY, END]
    do(st, SPRAY)
    do(st, row(st, 1))
    # nothing left to play: ending the turn was the only choice, so the next turn has begun
    d = decision(st)
    assert d.player == (f + 1) % 3
    assert {o.id for o in d.options} == all_lines(st) - {row(st, 1)}   # column 1 is free again


# ========================================================================== C09

def test_C09_partial_refill_ends_the_game_after_that_turn(game):
    st = game.new_state(3, seed=18)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    do(st, row(st, 0))
    # two cards left in the deck, and two lost cats in hand
    deck = zone(st, "deck")
    put(st, deck[:-2], "box")
    put(st, cards(game, name="Lost Cat")[:2], "hand", owner=f)
    refresh(st)
    do(st, col(st, 1))                                    # Chicken, Tuna, Milk
    market = zone(st, "market")
    # cells 1, 4, 7: refilled as far as the deck allows (two cards), one stays empty
    assert sorted(c for c in (market[1], market[4], market[7]) if c is not None) == sorted(deck[-2:])
    assert [market[i] for i in (1, 4, 7)].count(None) == 1
    assert zone(st, "deck") == []
    assert st.c["last_turn"] is True and not st.over
    # the player may still use lost cats after the line, then the game ends with that turn
    assert decision(st).player == f
    assert option_ids(st) == [STRAY, TOKEN, END]
    do(st, TOKEN)
    # nothing else to play: ending the turn is the only choice left, and with it the game ends
    if not st.over:
        assert option_ids(st) == [END]
        do(st, END)
    assert st.over
    assert flavours(game, zone(st, "cubes", f)) == {"chicken": 1, "tuna": 1, "milk": 1}
    # the other players never had a turn
    assert all(zone(st, "cats", p) + zone(st, "cubes", p) + zone(st, "kept", p) == []
               for p in range(3) if p != f)
    assert st.scores()[f]["vp_tokens"] == 2


def test_C09_exact_refill_does_not_end_the_game(game):
    st = game.new_state(2, seed=19)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    do(st, row(st, 0))
    deck = zone(st, "deck")
    put(st, deck[:-3], "box")                            # exactly three cards left
    refresh(st)
    do(st, row(st, 1))
    assert None not in zone(st, "market") and zone(st, "deck") == []
    assert st.c["last_turn"] is False and not st.over
    d = decision(st)
    assert d.player == 1 - f                             # the game goes on
    # this line cannot be refilled at all: the game ends after this turn
    do(st, row(st, 2))
    market = zone(st, "market")
    assert market[6:] == [None, None, None] and market.count(None) == 3
    assert st.over


@pytest.mark.parametrize("n, turns, left", [(2, 19, 7), (3, 25, 7), (4, 32, 6)])
def test_C09_whole_games_end_when_the_deck_cannot_refill(game, n, turns, left):
    # after the grid: 64 - 9 = 55 cards (2 players) = 18 full refills + 1 card, so the 19th
    # turn refills one card and the grid keeps 7; 82 - 9 = 73 = 24 x 3 + 1 (3 players);
    # 102 - 9 = 93 = 31 x 3 (4 players): the 32nd turn cannot refill anything and 6 stay.
    for n_, seed, st, takes in random_games():
        if n_ != n:
            continue
        assert st.over
        assert len(takes) == turns, (n, seed)
        assert zone(st, "deck") == []
        assert len([c for c in zone(st, "market") if c is not None]) == left


# ========================================================================== C10

def test_C10_fully_fed_scores_vp_no_partial_credit(game):
    t, sc = finished(game, 2, p0=dict(cats=["Bronte"], cubes="tt"),
                     p1=dict(cats=["Pablo Picatso"], cubes="tt"))
    # P0: Bronte eats 2 tuna: +3.  P1: Pablo needs 3 tuna, has 2: unfed, -2, both tuna left over
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (3, 0, 1)
    assert (sc[1]["fed_cats"], sc[1]["unfed_cats"], sc[1]["cats_fed"]) == (0, -2, 0)
    assert t.meal("Bronte") == ["tuna", "tuna"] and t.meal("Pablo Picatso") is None
    assert t.leftover(0) == 0 and t.leftover(1) == 2 and zone(t.st, "eaten", 1) == []
    # P1 has the most leftover food (2 > 0): -2; nobody has a costume: -2 each
    assert sc[0]["total"] == 3 - 2 == 1
    assert sc[1]["total"] == -2 - 2 - 2 == -6


def test_C10_best_feeding_beats_greedy(game):
    # greedy by VP feeds Sox (t, t, m: 6) and leaves one milk: Sparkle and Keaton unfed, 6 - 4 = 2.
    # best: Sparkle (t, t: 3) and Keaton (m, m: 4), Sox unfed: 7 - 2 = 5
    t, sc = finished(game, 2, p0=dict(cats=["Sox", "Sparkle", "Keaton"], cubes="ttmm"))
    assert t.meal("Sox") is None
    assert t.meal("Sparkle") == ["tuna", "tuna"] and t.meal("Keaton") == ["milk", "milk"]
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (7, -2, 2)
    assert t.leftover(0) == 0 and len(zone(t.st, "eaten", 0)) == 4
    assert sc[0]["total"] == 7 - 2 - 2 == 3


def test_C10_wild_cube_stands_in_where_it_is_needed(game):
    # giving the wild to Bell would starve Snowflake; best: Bell eats the chicken, Snowflake the wild
    t, sc = finished(game, 2, p0=dict(cats=["Bell", "Snowflake"], cubes="cw"),
                     p1=dict(cats=["Pumpkin"], cubes="cwm"))
    assert t.meal("Bell") == ["chicken"] and t.meal("Snowflake") == ["milk"]
    assert (sc[0]["fed_cats"], sc[0]["cats_fed"]) == (1 + 2, 2)
    # Pumpkin (c, c, m) with a chicken, a wild and a milk: fed, 6
    assert sorted(t.meal("Pumpkin")) == ["chicken", "chicken", "milk"]
    assert (sc[1]["fed_cats"], sc[1]["unfed_cats"]) == (6, 0)
    assert t.leftover(0) == t.leftover(1) == 0


@pytest.mark.parametrize("order", [["Zoroaster", "Snowflake"], ["Snowflake", "Zoroaster"]])
def test_C10_ties_broken_by_fewest_leftover_cubes(game, order):
    # two wilds; Zoroaster (c, c; 2 VP per costume, 1 costume) or Snowflake (m; 2), not both.
    # Zoroaster fed: 2 - 2 (Snowflake) = 0; Snowflake fed: 2 - 2 (Zoroaster) = 0.  A tie: the
    # feeding that leaves fewer cubes wins, Zoroaster (eats 2, none left; Snowflake would leave 1)
    t, sc = finished(game, 2, p0=dict(cats=order, cubes="ww", kept=["Crown"]))
    assert t.meal("Zoroaster") == ["chicken", "chicken"] and t.meal("Snowflake") is None
    assert t.leftover(0) == 0
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["food_penalty"]) == (0, 2, -2, 0)
    assert sc[0]["costumes"] == 6 and sc[1]["costumes"] == -2
    assert sc[0]["total"] == 0 + 2 - 2 + 6 == 6


def test_C10_a_players_cubes_feed_only_their_own_cats(game):
    t, sc = finished(game, 2, p0=dict(cats=["Keaton"]), p1=dict(cubes="mm"))
    assert t.meal("Keaton") is None and t.leftover(1) == 2
    assert sc[0]["unfed_cats"] == -2 and sc[1]["food_penalty"] == -2
    assert sc[0]["total"] == -2 - 2 and sc[1]["total"] == -2 - 2


def test_C10_feeding_more_cats_with_catnip(game):
    # 4 catnip: +2 per fed cat.  Cubes t, t.  Bronte (t, t): 3 + 2 x 1 = 5, Shadow and Jazz -4: 1.
    # Shadow and Jazz (t each): 1 + 1 + 2 x 2 = 6, Bronte -2: 4.  The second is best.
    t, sc = finished(game, 2, p0=dict(cats=["Bronte", "Shadow", "Jazz"], cubes="tt", kept=["Catnip"] * 4))
    assert t.meal("Bronte") is None and t.meal("Shadow") == ["tuna"] and t.meal("Jazz") == ["tuna"]
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"], sc[0]["catnip"], sc[0]["cats_fed"]) == (2, -2, 4, 2)


@pytest.mark.parametrize("order", [["Pablo Picatso", "Shadow", "Bronte"], ["Shadow", "Bronte", "Pablo Picatso"]])
def test_C10_equally_good_feedings_feed_the_most_cats(game, order):
    # cubes t, t, t.  Pablo (t t t) alone: 6 - 2 - 2 = 2, no cube left.  Shadow (t) and Bronte (t t):
    # 1 + 3 - 2 = 2, no cube left.  Same feeding score, same leftover: the ruling feeds the most
    # cats, Shadow and Bronte, whichever order the cats are in.
    t, sc = finished(game, 2, p0=dict(cats=order, cubes="ttt"))
    assert t.meal("Pablo Picatso") is None
    assert t.meal("Shadow") == ["tuna"] and t.meal("Bronte") == ["tuna", "tuna"]
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (4, -2, 2)
    assert t.leftover(0) == 0


def test_C10_most_cats_fed_decides_the_C16_tie(game):
    # P0 as above: 2 from feeding, costumes tied 1-1: 3 -> 5, and 2 fed cats (Shadow, Bronte).
    # P1: Snowflake (m) 2 + 3 = 5, 1 fed cat.  Feeding Pablo alone would give P0 1 fed cat and a
    # shared win; feeding the most cats gives P0 the win.
    t, sc = finished(game, 2, p0=dict(cats=["Pablo Picatso", "Shadow", "Bronte"], cubes="ttt", kept=["Crown"]),
                     p1=dict(cats=["Snowflake"], cubes="m", kept=["Pirate"]))
    assert [s["total"] for s in sc] == [5, 5]
    assert [s["cats_fed"] for s in sc] == [2, 1]
    assert t.st.winners() == [0]


@pytest.mark.parametrize("owner", [0, 2])
def test_C10_most_cats_fed_counts_against_an_opponents_hemingway(game, owner):
    # The rival (P1) holds Pablo, Jazz and Bronte with t, t, t: Pablo alone or Jazz and Bronte,
    # both 2 with no cube left; the ruling feeds Jazz and Bronte, 2 cats.  Hemingway's owner feeds
    # 2 (Hemingway m, Shadow t): tied for the most, Hemingway scores 3, not 7.
    t = Table(game, 3)
    t.give(owner, cats=["Hemingway", "Shadow"], cubes="mt")
    t.give(1, cats=["Pablo Picatso", "Jazz", "Bronte"], cubes="ttt")
    sc = t.finish()
    assert t.meal("Pablo Picatso") is None and t.meal("Jazz") == ["tuna"]
    assert sc[1]["cats_fed"] == 2 and sc[owner]["cats_fed"] == 2
    assert (sc[owner]["fed_cats"], sc[owner]["abilities"]) == (1, 3)


# ========================================================================== C11

def test_C11_most_leftover_loses_two(game):
    _t, sc = finished(game, 3, p0=dict(cubes="ttt"), p1=dict(cubes="c"), p2=dict())
    assert [s["food_penalty"] for s in sc] == [-2, 0, 0]


def test_C11_tie_for_most_leftover_both_lose_two(game):
    _t, sc = finished(game, 3, p0=dict(cubes="cm"), p1=dict(cubes="tw"), p2=dict(cubes="m"))
    assert [s["food_penalty"] for s in sc] == [-2, -2, 0]
    assert [s["total"] for s in sc] == [-4, -4, -2]          # with -2 each for no costume


def test_C11_nobody_penalised_when_no_food_is_left(game):
    t, sc = finished(game, 3, p0=dict(cats=["Shadow"], cubes="t"), p1=dict(), p2=dict(cats=["Bell"], cubes="c"))
    assert [t.leftover(p) for p in range(3)] == [0, 0, 0]
    assert [s["food_penalty"] for s in sc] == [0, 0, 0]


def test_C11_leftover_counted_after_feeding(game):
    # P0 holds 5 cubes but Keaton and Sparkle eat 4: 1 left.  P1 holds 2 (a wild counts too)
    t, sc = finished(game, 2, p0=dict(cats=["Keaton", "Sparkle"], cubes="mmttc"), p1=dict(cubes="cw"))
    assert t.leftover(0) == 1 and t.leftover(1) == 2
    assert [s["food_penalty"] for s in sc] == [0, -2]


# ========================================================================== C12

@pytest.mark.parametrize("toys, points", [
    (["Feather Wand", "Cat Tower", "Cat Tower", "Mouse Toy", "Mouse Toy", "Mouse Toy"], 5 + 3 + 1),  # rulebook
    ([], 0),
    (["Yarn Ball"], 1),
    (["Yarn Ball", "Yarn Ball"], 1 + 1),
    (["Yarn Ball", "Cat Tower"], 3),
    (["Yarn Ball", "Cat Tower", "Mouse Toy"], 5),
    (["Yarn Ball", "Cat Tower", "Mouse Toy", "Scratching Post"], 8),
    (PLAIN, 12),
    (PLAIN + ["Mouse Toy"], 12 + 1),
    (["Mouse Toy", "Mouse Toy", "Yarn Ball", "Yarn Ball", "Feather Wand", "Cat Tower"], 8 + 3),
    (PLAIN * 3, 12 * 3),
])
def test_C12_toy_sets(game, toys, points):
    _t, sc = finished(game, 2, p0=dict(kept=toys))
    assert sc[0]["toys"] == points
    assert sc[0]["total"] == points - 2                      # no costume


def test_C12_toy_sets_rulebook_example(game):
    # 1 feather wand, 2 cat towers, 3 mouse toys: {wand, tower, mouse} 5 + {tower, mouse} 3 + {mouse} 1
    _t, sc = finished(game, 2, p0=dict(kept=["Feather Wand", "Cat Tower", "Cat Tower",
                                             "Mouse Toy", "Mouse Toy", "Mouse Toy"]))
    assert sc[0]["toys"] == 9
    assert sc[1]["toys"] == 0


# ========================================================================== C13

@pytest.mark.parametrize("n, counts, points", [
    (2, [3, 1], [6, 0]),
    (2, [1, 0], [6, -2]),
    (2, [2, 2], [3, 3]),
    (3, [2, 2, 0], [3, 3, -2]),
    (3, [1, 1, 1], [2, 2, 2]),
    (4, [1, 1, 1, 1], [1, 1, 1, 1]),           # 6 / 4 rounded down
    (4, [2, 2, 2, 1], [2, 2, 2, 0]),
    (4, [0, 0, 0, 0], [-2, -2, -2, -2]),
    (3, [0, 3, 0], [-2, 6, -2]),
])
def test_C13_costumes(game, n, counts, points):
    all_costumes = COSTUMES + ["Frog", "Duck Hat"]
    it = iter(all_costumes)
    _t, sc = finished(game, n, **{f"p{p}": dict(kept=[next(it) for _ in range(k)]) for p, k in enumerate(counts)})
    assert [s["costumes"] for s in sc] == points


# ========================================================================== C14

@pytest.mark.parametrize("catnip, points", [(0, 0), (1, -2), (2, 2), (3, 2), (4, 4), (5, 4), (7, 4)])
def test_C14_catnip_thresholds(game, catnip, points):
    # Shadow (t) and Bell (c) fed, Keaton (m, m) unfed: 2 fed cats
    _t, sc = finished(game, 2, p0=dict(cats=["Shadow", "Bell", "Keaton"], cubes="tc", kept=["Catnip"] * catnip))
    assert sc[0]["cats_fed"] == 2
    assert sc[0]["catnip"] == points
    assert sc[0]["total"] == 2 - 2 - 2 + points


@pytest.mark.parametrize("catnip, fed_macak, points", [
    (0, True, -2),        # Macak fed alone is one catnip: -2
    (1, True, 2),         # 1 + Macak = 2: +1 for each of 2 fed cats (Macak, Shadow)
    (3, True, 4),         # 3 + Macak = 4: +2 for each of 2 fed cats
    (1, False, -2),       # Macak unfed does not count: 1 catnip, -2
    (2, False, 1),        # 2 catnip: +1 for the one fed cat (Shadow)
])
def test_C14_macak_fed_counts_as_one_more_catnip(game, catnip, fed_macak, points):
    cubes = "mt" if fed_macak else "t"
    t, sc = finished(game, 2, p0=dict(cats=["Macak", "Shadow"], cubes=cubes, kept=["Catnip"] * catnip))
    assert (t.meal("Macak") is not None) == fed_macak
    assert sc[0]["catnip"] == points
    assert sc[0]["fed_cats"] == (2 + 1 if fed_macak else 1)


# ========================================================================== C15

def test_C15_tokens_two_each_lost_cats_and_sprays_nothing(game):
    _t, sc = finished(game, 2, p0=dict(tokens=3, hand=["Lost Cat", "Spray Bottle", "Spray Bottle"]),
                      p1=dict(hand=["Lost Cat", "Lost Cat", "Lost Cat"]))
    assert sc[0]["vp_tokens"] == 6 and sc[1]["vp_tokens"] == 0
    assert sc[0]["total"] == 6 - 2 and sc[1]["total"] == -2


def test_C15_token_taken_in_play_scores_two(game):
    st = game.new_state(2, seed=21)
    f = st.c["first_player"]
    set_market(st, game, GRID)
    put(st, cards(game, name="Lost Cat")[:3], "hand", owner=f)
    do(st, row(st, 0))
    do(st, TOKEN)
    assert st.scores()[f]["vp_tokens"] == 2
    assert len(zone(st, "tokens")) == 5


# ========================================================================== C16

def test_C16_highest_total_wins_even_with_fewer_fed_cats(game):
    # P0: Keaton fed 4, costumes tied 1-1: 3 -> 7 with 1 fed cat.  P1: Shadow + Jazz 2, 3 -> 5
    t, sc = finished(game, 2, p0=dict(cats=["Keaton"], cubes="mm", kept=["Crown"]),
                     p1=dict(cats=["Shadow", "Jazz"], cubes="tt", kept=["Pirate"]))
    assert [s["total"] for s in sc] == [7, 5]
    assert t.st.winners() == [0]


def test_C16_tie_broken_by_most_fed_cats(game):
    # P0: Keaton 4 + 3 = 7, 1 fed cat.  P1: Shadow 1 + Jazz 1 + Snowflake 2 + 3 = 7, 3 fed cats
    t, sc = finished(game, 2, p0=dict(cats=["Keaton"], cubes="mm", kept=["Crown"]),
                     p1=dict(cats=["Shadow", "Jazz", "Snowflake"], cubes="ttm", kept=["Pirate"]))
    assert [s["total"] for s in sc] == [7, 7]
    assert [s["cats_fed"] for s in sc] == [1, 3]
    assert t.st.winners() == [1]


def test_C16_still_tied_share_the_win(game):
    # P0: Keaton 4, P2: Sir Cuddleface 4, each with 1 costume of 2 tied (6 // 2 = 3): 7 and 1 fed cat
    # each; P1: Bell 1 and no costume (-2): -1
    t, sc = finished(game, 3, p0=dict(cats=["Keaton"], cubes="mm", kept=["Crown"]),
                     p1=dict(cats=["Bell"], cubes="c"),
                     p2=dict(cats=["Sir Cuddleface"], cubes="mm", kept=["Pirate"]))
    assert [s["total"] for s in sc] == [7, -1, 7]
    assert t.st.winners() == [0, 2]


# ========================================================================== C17

def test_C17_florence_two_per_orange_fed_cat(game):
    # cubes c, c, m, m.  Florence (c, m) + Bell (c) + Snowflake (m): VP 0 + 1 + 2 = 3, Florence
    # 2 x 2 orange fed (herself, Bell) = 4, Zeus unfed -2: 5.  Zeus (c, c) + Snowflake instead:
    # 3 + 2 - 2 - 2 = 1.  Best: 5.
    t, sc = finished(game, 2, p0=dict(cats=["Florence", "Bell", "Zeus", "Snowflake"], cubes="ccmm"))
    assert t.meal("Zeus") is None
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (3, 4, -2, 3)
    assert sc[0]["total"] == 3 + 4 - 2 - 2


def test_C17_florence_counts_only_fed_cats(game):
    # cubes c, m: Florence fed (herself: 2) and Bell unfed (-2) = 0 beats Bell fed (1) - 2 = -1
    t, sc = finished(game, 2, p0=dict(cats=["Florence", "Bell"], cubes="cm"))
    assert t.meal("Bell") is None
    assert (sc[0]["abilities"], sc[0]["unfed_cats"]) == (2, -2)


def test_C17_antoinette_and_sweetheart(game):
    # all fed: white cats Antoinette, Snowflake, Sweetheart (B+O+W) = 3 -> 6; VP 0 + 2 + 5 = 7
    _t, sc = finished(game, 2, p0=dict(cats=["Antoinette", "Snowflake", "Sweetheart"], cubes="tmmtc"))
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (7, 6, 3)
    assert sc[0]["total"] == 7 + 6 - 2


def test_C17_eliot_and_alvin(game):
    # all fed: black Eliot, Shadow, Alvin (B+O) = 3 -> Eliot 6; orange: Alvin himself -> Alvin 1
    _t, sc = finished(game, 2, p0=dict(cats=["Eliot", "Shadow", "Alvin"], cubes="tcttm"))
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (1, 7, 3)


def test_C17_levar_purrton_sets_with_multicoloured_cats(game):
    # fed: LeVar (W), Shadow (B), Bell (O), Henriette (B+O+W), Alvin (B+O).
    # black 3 (Shadow, Henriette, Alvin), orange 3 (Bell, Henriette, Alvin), white 2 (LeVar,
    # Henriette): 2 sets -> 8; Alvin: 3 orange -> 3.  VP 0 + 1 + 1 + 5 + 0 = 7
    _t, sc = finished(game, 2, p0=dict(cats=["LeVar Purrton", "Shadow", "Bell", "Henriette", "Alvin"],
                                       cubes="tc" + "t" + "c" + "tcm" + "tm"))
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (7, 8 + 3, 5)
    assert sc[0]["total"] == 7 + 11 - 2


def test_C17_levar_purrton_without_a_black_cat_scores_nothing(game):
    _t, sc = finished(game, 2, p0=dict(cats=["LeVar Purrton", "Bell", "Snowflake"], cubes="tccm"))
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (3, 0, 3)


def test_C17_zoroaster_costumes_also_score_normally(game):
    # 3 costumes: Zoroaster 2 x 3 = 6, and the most costumes +6; P1 no costume -2
    _t, sc = finished(game, 2, p0=dict(cats=["Zoroaster"], cubes="cc", kept=["Crown", "Pirate", "Bunny"]))
    assert (sc[0]["abilities"], sc[0]["costumes"], sc[1]["costumes"]) == (6, 6, -2)
    assert sc[0]["total"] == 12


def test_C17_penny_one_per_toy(game):
    # 4 toys: Penny 4; toy sets {mouse, yarn, tower} 5 + {tower} 1 = 6; no costume -2
    _t, sc = finished(game, 2, p0=dict(cats=["Penny"], cubes="m",
                                       kept=["Mouse Toy", "Yarn Ball", "Cat Tower", "Cat Tower"]))
    assert (sc[0]["abilities"], sc[0]["toys"]) == (4, 6)
    assert sc[0]["total"] == 4 + 6 - 2


def test_C17_penny_unfed_scores_no_ability(game):
    _t, sc = finished(game, 2, p0=dict(cats=["Penny"], kept=["Mouse Toy", "Yarn Ball"]))
    assert (sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["toys"]) == (0, -2, 3)


@pytest.mark.parametrize("owner", [0, 2])
@pytest.mark.parametrize("rival_fed, points", [(1, 7), (2, 3), (3, 3)])
def test_C17_hemingway_most_fed_cats(game, owner, rival_fed, points):
    # Hemingway's owner feeds 2 cats (Hemingway, Shadow); the rival feeds rival_fed cats of 3
    # (Keaton m m, Bell c, Gershon c; the rival always holds all three, and cubes for some)
    rival = 1
    rival_cubes = {1: "mm", 2: "mmc", 3: "mmcc"}[rival_fed]
    t = Table(game, 3)
    t.give(owner, cats=["Hemingway", "Shadow"], cubes="mt")
    t.give(rival, cats=["Keaton", "Bell", "Gershon"], cubes=rival_cubes)
    sc = t.finish()
    assert sc[rival]["cats_fed"] == rival_fed and sc[owner]["cats_fed"] == 2
    assert sc[owner]["abilities"] == points
    assert sc[owner]["fed_cats"] == 1


@pytest.mark.parametrize("owner", [0, 2])
def test_C17_hemingway_owner_feeds_more_cats_to_have_the_most(game, owner):
    # Owner: Hemingway (m), Pablo (t t t), Shadow (t), Jazz (t); cubes m, t, t, t.  The rival feeds
    # 2 cats (Keaton, Bell).  Hemingway + Pablo: 2 fed, tied -> 3 + 6 - 4 = 5.  Hemingway + Shadow
    # + Jazz: 3 fed, the most -> 7 + 1 + 1 - 2 = 7.  Best: the second (a tuna left over).
    t = Table(game, 3)
    t.give(owner, cats=["Hemingway", "Pablo Picatso", "Shadow", "Jazz"], cubes="mttt")
    t.give(1, cats=["Keaton", "Bell"], cubes="mmc")
    sc = t.finish()
    assert t.meal("Pablo Picatso") is None and t.meal("Hemingway") == ["milk"]
    assert (sc[owner]["fed_cats"], sc[owner]["abilities"], sc[owner]["unfed_cats"]) == (2, 7, -2)
    assert t.leftover(owner) == 1 and sc[owner]["food_penalty"] == -2
    # 2 + 7 - 2 - 2 (food) - 2 (no costume)
    assert sc[owner]["total"] == 3
    assert sc[1]["total"] == 4 + 1 - 2


def test_C17_moonbeam_two_cubes_as_wilds(game):
    # P0: three milk.  Moonbeam (t, c) eats two milk as wilds: 3.  Pablo (t t t) would need three
    # wilds: unfed -2, one milk left.  P1 has no Moonbeam: Sparkle (t t) cannot eat milk.
    t, sc = finished(game, 2, p0=dict(cats=["Moonbeam", "Pablo Picatso"], cubes="mmm"),
                     p1=dict(cats=["Sparkle"], cubes="mm"))
    assert t.meal("Moonbeam") == ["tuna", "chicken"] and t.meal("Pablo Picatso") is None
    assert t.meal("Sparkle") is None
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"]) == (3, -2) and t.leftover(0) == 1
    assert (sc[1]["unfed_cats"], sc[1]["food_penalty"]) == (-2, -2) and t.leftover(1) == 2
    assert sc[0]["total"] == 3 - 2 - 2
    assert sc[1]["total"] == -2 - 2 - 2


def test_C17_moonbeam_wilds_work_while_she_is_unfed(game):
    # cubes c, m, m: Pumpkin (c c m) eats c, m and m-as-chicken: 6, Moonbeam unfed -2 = 4;
    # Moonbeam fed instead (m as tuna, c) leaves m, m for Pumpkin: not enough, 3 - 2 = 1
    t, sc = finished(game, 2, p0=dict(cats=["Moonbeam", "Pumpkin"], cubes="cmm"))
    assert t.meal("Moonbeam") is None and sorted(t.meal("Pumpkin")) == ["chicken", "chicken", "milk"]
    assert (sc[0]["fed_cats"], sc[0]["unfed_cats"]) == (6, -2) and t.leftover(0) == 0


@pytest.mark.parametrize("cubes, meal, points, left", [
    ("ccctt", ["chicken"] * 3, 9, 2),        # one kind only: the 3 chicken beat the 2 tuna
    ("ccccc", ["chicken"] * 4, 12, 1),       # at most 4
    ("ccw", ["chicken"] * 3, 9, 0),          # a wild as chicken
    ("ct", None, 3, 1),                      # one cube of either kind
])
def test_C17_waffle_three_per_cube_of_one_kind(game, cubes, meal, points, left):
    t, sc = finished(game, 2, p0=dict(cats=["Waffle"], cubes=cubes))
    if meal is not None:
        assert t.meal("Waffle") == meal
    else:
        assert t.meal("Waffle") in (["chicken"], ["tuna"])
    assert (sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (points, 0, 1)
    assert t.leftover(0) == left


def test_C17_waffle_beats_a_cat_that_eats_the_same_food(game):
    # cubes c, c, c: Waffle 3 cubes (9) + Blackberry unfed (-2) = 7 beats Blackberry (c c: 3) +
    # Waffle 1 cube (3) = 6
    t, sc = finished(game, 2, p0=dict(cats=["Waffle", "Blackberry"], cubes="ccc"))
    assert t.meal("Waffle") == ["chicken"] * 3 and t.meal("Blackberry") is None
    assert (sc[0]["abilities"], sc[0]["unfed_cats"]) == (9, -2)


@pytest.mark.parametrize("cat", ["Waffle", "Cow", "Truffle"])
def test_C17_fed_nothing_is_unfed(game, cat):
    t, sc = finished(game, 2, p0=dict(cats=[cat]))
    assert t.meal(cat) is None
    assert (sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (0, -2, 0)


def test_C17_cow_two_per_cube_of_any_kind(game):
    t, sc = finished(game, 2, p0=dict(cats=["Cow"], cubes="ctmw"))
    assert len(t.meal("Cow")) == 4 and t.leftover(0) == 0
    assert (sc[0]["abilities"], sc[0]["cats_fed"]) == (8, 1)


def test_C17_cow_leaves_what_another_cat_needs(game):
    # cubes t, c: Shadow (t) 1 + Cow (c) 2 = 3 beats Cow (t, c) 4 - 2 (Shadow) = 2
    t, sc = finished(game, 2, p0=dict(cats=["Cow", "Shadow"], cubes="tc"))
    assert t.meal("Shadow") == ["tuna"] and len(t.meal("Cow")) == 1
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["unfed_cats"]) == (1, 2, 0)


def test_C17_truffle_two_per_other_cat_of_that_kind(game):
    # Shadow (t), Jazz (t), Bell (c) fed; Truffle takes a tuna (the wild): 2 x 2 = 4 (a chicken would
    # give 2 x 1 = 2)
    t, sc = finished(game, 2, p0=dict(cats=["Truffle", "Shadow", "Jazz", "Bell"], cubes="ttcw"))
    assert t.meal("Truffle") == ["tuna"]
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (3, 4, 4)
    assert t.leftover(0) == 0


def test_C17_truffle_does_not_count_herself(game):
    t, sc = finished(game, 2, p0=dict(cats=["Truffle"], cubes="c"))
    assert t.meal("Truffle") == ["chicken"]
    assert (sc[0]["abilities"], sc[0]["unfed_cats"], sc[0]["cats_fed"]) == (0, 0, 1)


@pytest.mark.parametrize("cat, cubes", [("Alvin", "tm"), ("Dinah", "cm"), ("Luna", "tc")])
def test_C17_colour_bonus_cat_counts_itself(game, cat, cubes):
    _t, sc = finished(game, 2, p0=dict(cats=[cat], cubes=cubes))
    assert (sc[0]["fed_cats"], sc[0]["abilities"]) == (0, 1)


def test_C17_multicoloured_cat_counts_for_each_colour(game):
    # Henriette (B+O+W) is orange for Florence, white for Antoinette and black for Eliot:
    # each has 2 cats of its colour fed -> 4 + 4 + 4; VP: Henriette 5
    _t, sc = finished(game, 2, p0=dict(cats=["Florence", "Antoinette", "Eliot", "Henriette"],
                                       cubes="cm" + "tm" + "tc" + "tcm"))
    assert (sc[0]["fed_cats"], sc[0]["abilities"], sc[0]["cats_fed"]) == (5, 12, 4)
