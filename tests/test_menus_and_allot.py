"""Menus (``p chooses:``), counters of each card, ``allot`` and the list builtins.

Most tests run the small example game ``tests/games/feeding.cat`` or a
game written inline; each builds a situation and checks what the rules say.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules.allot import search as allot
from catrules.errors import GameFileError, RulesError
from catrules.testing import zone

ROOT = Path(__file__).resolve().parents[1]
FEEDING = ROOT / "tests" / "games" / "feeding.cat"

HEADER = 'catrules 1\ngame "T"\nplayers 2 to 2\n'


def feeding():
    return catrules.load_game(FEEDING)


def menu_labels(st):
    d = st.pending()[0]
    return d.player, [o.id for o in d.options]


def apply_label(st, label):
    d = st.pending()[0]
    st.apply(d.player, label)


# ------------------------------------------------------------------- menus

def test_menu_offers_only_the_moves_whose_condition_holds():
    g = feeding()
    st = g.new_state(2, seed=1)
    who, labels = menu_labels(st)
    assert labels == ["adopt a pet", "get food"]          # "end the turn" needs a pet first
    apply_label(st, "adopt a pet")
    d = st.pending()[0]
    st.apply(d.player, d.options[0].id)                   # which pet
    who2, labels = menu_labels(st)
    assert who2 == who
    assert labels == ["get food", "end the turn"]        # adopting is done for this turn


def test_menu_moves_repeat_until_a_move_stops_the_loop():
    g = feeding()
    st = g.new_state(2, seed=1)
    who, _ = menu_labels(st)
    for _ in range(3):
        apply_label(st, "get food")
    assert len(zone(st, "food", owner=who)) == 3
    # "get food" is used up and "end the turn" needs a pet: the one move left is taken
    # at once, so the next question is which pet, still to the same player
    d = st.pending()[0]
    assert d.player == who and all(o.kind == "card" for o in d.options)


def test_a_menu_with_one_move_left_takes_it_without_asking():
    src = HEADER + '''
cards chip in bag:
    3 cards with value 1
zone bag: shared, public, pile
zone mine: per player, public, pile
flow:
    for each player p:
        repeat while true:
            p chooses:
                "take" if any(bag):
                    move top(bag) to mine of p
                "stop" if not any(bag):
                    stop
score:
    chips = count(mine)
winner:
    highest total
'''
    g = catrules.load_source(src)
    st = g.new_state(2, seed=0)
    # every menu here has a single move: the game plays itself out
    assert st.over and [s["chips"] for s in st.scores()] == [3, 0]


def test_menu_names_must_differ():
    src = HEADER + '''
cards chip in bag:
    card with value 1
zone bag: shared, public, pile
flow:
    for each player p:
        p chooses:
            "a":
                shuffle bag
            "a":
                shuffle bag
'''
    with pytest.raises(GameFileError) as e:
        catrules.load_source(src)
    assert 'the choice "a" is offered twice' in str(e.value)


# -------------------------------------------------------- counters of cards

def test_a_counter_of_each_card_is_kept_per_card_and_needs_an_owner():
    src = HEADER + '''
cards chip in bag:
    for each value in 1 to 3:
        card
zone bag: shared, public, pile
counter marks of each card = 0
flow:
    for each c in bag:
        marks of c = c.value * 10
score:
    marked = sum(bag, marks of it)
winner:
    highest total
'''
    g = catrules.load_source(src)
    st = g.new_state(2, seed=0)
    assert st.over and st.scores()[0]["marked"] == 60
    assert sorted(st.c["marks"]) == [10, 20, 30]
    shown = st.view(0)["counters"]["marks"]
    assert sorted(shown.values()) == [10, 20, 30] and set(shown) == {"0", "1", "2"}
    bad = src.replace("marked = sum(bag, marks of it)", "marked = marks")
    with pytest.raises(GameFileError) as e:
        catrules.load_source(bad)
    assert "belongs to each card" in str(e.value)


# ---------------------------------------------------------------- builtins

def test_range_copies_collect_join_build_lists():
    src = HEADER + '''
cards chip in bag:
    card with value 1
zone bag: shared, public, pile
define kinds = [meat, fish]
define pairs(k) = copies(k, 2)
score:
    a = count(range(2, 5))
    b = sum(collect(range(1, 3), it * it))
    c = count(join(collect(kinds, pairs(it))))
    d = count(copies(meat, 0))
    e = sum(join([[1], [2, 3]]))
winner:
    highest total
flow:
    shuffle bag
'''.replace("card with value 1", "card with value 1, kind meat\n    card with value 2, kind fish")
    g = catrules.load_source(src)
    st = g.new_state(2, seed=0)
    s = st.scores()[0]
    assert (s["a"], s["b"], s["c"], s["d"], s["e"]) == (4, 14, 4, 0, 6)


def test_top_of_a_filtered_list():
    src = HEADER + '''
cards chip in bag:
    for each value in 1 to 6:
        card
zone bag: shared, public, pile
zone out: shared, public, pile
flow:
    move top(bag where value % 2 == 0, 2) to out
score:
    moved = sum(out, value)
winner:
    highest total
'''
    st = catrules.load_source(src).new_state(2, seed=0)
    assert st.scores()[0]["moved"] == 6 + 4                 # the last two even cards


# ------------------------------------------------------------------- allot

ALLOT_GAME = HEADER + '''
cards pet in pets:
    card with name "Big", points 6, needs [meat, meat, fish]
    card with name "A", points 2, needs [meat]
    card with name "B", points 2, needs [meat]
    card with name "C", points 2, needs [fish]
    card with name "Odd", points 1, needs [seed]
cards bowl in pantry:
    for each kind in meat, fish, seed:
        4 cards
    3 cards with kind wild
zone pets: shared, public, pile
zone pantry: shared, public, pile
zone home: per player, public, pile
zone food: per player, public, pile
zone eaten: per player, public, pile
counter meal of each card = none
counter spares = 0
define feeds(b, need) = b.kind == need or b.kind == wild
define fed(c) = meal of c != none
define value(p) = sum(home of p, if fed(it) then it.points else -2)
flow:
    for each player p:
        allot food of p to home of p into eaten of p:
            wants [it.needs]
            serves feeds
            spare spares
            note meal
            prefer highest value(p) then lowest count(food of p)
score:
    pets_value = value(player)
    note left = count(food)
winner:
    highest total
'''


def run_allot(pets, food, spares=0):
    # Build the situation in setup: a separate game whose setup moves the cards by name.
    lines = ["setup:"]
    for name in pets:
        lines.append(f'    move pets where name == "{name}" to home of first(players)')
    counts: dict = {}
    for kind in food:
        counts[kind] = counts.get(kind, 0) + 1
    for kind, n in counts.items():
        lines.append(f"    move top(pantry where kind == {kind}, {n}) to food of first(players)")
    lines.append(f"    spares = {spares}")
    g = catrules.load_source(ALLOT_GAME + "\n".join(lines) + "\n")
    st = g.new_state(2, seed=0)
    assert st.over
    meals = {g.card(c)["name"]: st.c["meal"][c] for c in zone(st, "home", owner=0)}
    return st, meals


def test_allot_finds_the_best_sharing_not_the_first():
    # Big (6) needs meat, meat, fish; A and B (2 each) need meat; C needs fish.
    # With 2 meat and 1 fish: Big alone = 6 - 2 - 2 - 2 = 0; A + B + C = 6 - 2 = 4.
    st, meals = run_allot(["Big", "A", "B", "C"], ["meat", "meat", "fish"])
    assert meals == {"Big": None, "A": ["meat"], "B": ["meat"], "C": ["fish"]}
    assert st.scores()[0]["pets_value"] == 2 + 2 + 2 - 2
    assert len(zone(st, "eaten", owner=0)) == 3 and zone(st, "food", owner=0) == []


def test_allot_uses_wild_resources_for_any_need():
    st, meals = run_allot(["Big", "Odd"], ["meat", "wild", "seed", "fish"])
    assert meals["Big"] == ["meat", "meat", "fish"] and meals["Odd"] == ["seed"]
    g = st.prog
    eaten = sorted(g.card_attrs[c]["kind"] for c in zone(st, "eaten", owner=0))
    assert eaten == ["fish", "meat", "seed", "wild"]


def test_allot_ties_go_to_fewest_resources_left():
    # A alone or B alone both score 2 - 2 = 0; feeding both needs 2 meat. With one meat
    # and one wild both can eat; fewer leftovers never loses to more.
    st, meals = run_allot(["A", "B"], ["meat", "wild"])
    assert meals == {"A": ["meat"], "B": ["meat"]}
    assert st.scores()[0]["left"] == 0


def test_allot_spare_resources_meet_any_need():
    # No meat at all: without spares A is unfed; with 1 spare a seed stands in.
    _st, meals = run_allot(["A"], ["seed"], spares=0)
    assert meals == {"A": None}
    st, meals = run_allot(["A"], ["seed"], spares=1)
    assert meals == {"A": ["meat"]}
    # one spare is not two
    _st, meals = run_allot(["A", "B"], ["seed", "seed"], spares=1)
    assert sorted(map(str, meals.values())) == ["None", "['meat']"]


def test_allot_again_returns_the_used_resources_first():
    g = feeding()
    for seed in range(4):
        st = g.new_state(2, seed=seed)
        rng = random.Random(seed)
        while not st.over:
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id)
        for p in range(2):
            eaten = len(zone(st, "eaten", owner=p))
            assert eaten == sum(len(st.c["meal"][c] or []) for c in zone(st, "home", owner=p))


def test_allot_search_has_a_limit(monkeypatch):
    monkeypatch.setattr(allot, "ALLOT_LIMIT", 3)
    with pytest.raises(RulesError) as e:
        run_allot(["A", "B", "C"], ["meat", "meat", "fish"])
    assert "allot" in str(e.value) and "stopped" in str(e.value)


@pytest.mark.parametrize("bad, message", [
    ("            wants [it.needs]\n", "`allot` needs a `wants` line"),
    ("            serves feeds\n", "`allot` needs a `serves` line"),
])
def test_allot_clauses_are_checked(bad, message):
    with pytest.raises(GameFileError) as e:
        catrules.load_source(ALLOT_GAME.replace(bad, ""))
    assert message in str(e.value)


def test_allot_checks_serves_note_and_zones():
    src = ALLOT_GAME.replace("define feeds(b, need)", "define feeds(b)").replace("b.kind == need or ", "")
    with pytest.raises(GameFileError) as e:
        catrules.load_source(src)
    assert "`serves` needs 2" in str(e.value)
    src = ALLOT_GAME.replace("note meal", "note spares")
    with pytest.raises(GameFileError) as e:
        catrules.load_source(src)
    assert "`note` needs a counter of each card" in str(e.value)
    src = ALLOT_GAME.replace("zone eaten: per player, public, pile", "zone eaten: per player, public, lines")
    with pytest.raises(GameFileError) as e:
        catrules.load_source(src)
    assert "needs a pile or a row" in str(e.value)


def test_feeding_example_game_plays_to_the_end_for_every_player_count():
    g = feeding()
    for n in (2, 3):
        for seed in range(3):
            st = g.new_state(n, seed=seed)
            rng = random.Random(seed)
            while not st.over:
                d = st.pending()[0]
                st.apply(d.player, rng.choice(d.options).id)
            total = sum(len(zone(st, z, owner=p)) for p in range(n) for z in ("home",))
            assert total == 6


def test_maximal_compares_only_ways_that_leave_no_target_that_fits():
    # Same situation as the first allot test: with `maximal` the best is unchanged ...
    src = ALLOT_GAME.replace("            note meal\n", "            maximal\n            note meal\n")
    lines = ["setup:", '    move pets where name == "Big" or name == "A" or name == "B" or name == "C" '
             'to home of first(players)',
             "    move top(pantry where kind == meat, 2) to food of first(players)",
             "    move top(pantry where kind == fish, 1) to food of first(players)"]
    g = catrules.load_source(src + "\n".join(lines) + "\n")
    st = g.new_state(2, seed=0)
    meals = {g.card(c)["name"]: st.c["meal"][c] for c in zone(st, "home", owner=0)}
    assert meals == {"Big": None, "A": ["meat"], "B": ["meat"], "C": ["fish"]}


def test_maximal_shortens_the_search(monkeypatch):
    # 14 meat for 16 meat eaters: without `maximal` thousands of ways are compared.
    pets = "\n".join(f"    card with name \"P{i}\", points 1, needs [meat]" for i in range(14))
    src = (ALLOT_GAME.replace('    card with name "Big", points 6, needs [meat, meat, fish]\n', pets + "\n")
           .replace("        4 cards\n", "        14 cards\n")
           + "setup:\n    move pets to home of first(players)\n"
             "    move top(pantry where kind == meat, 14) to food of first(players)\n")
    monkeypatch.setattr(allot, "ALLOT_LIMIT", 1000)
    monkeypatch.setattr(allot, "USE_SOLVER", False)       # the search's own limit is what is shown here
    with pytest.raises(RulesError):
        catrules.load_source(src).new_state(2, seed=0)
    g = catrules.load_source(src.replace("            note meal\n", "            maximal\n            note meal\n"))
    st = g.new_state(2, seed=0)
    # 16 pets want meat (P0-P13, A, B) and there are 14 meat: 14 are fed, each with meat
    fed = [st.c["meal"][c] for c in zone(st, "home", owner=0) if st.c["meal"][c] is not None]
    assert fed == [["meat"]] * 14


def test_a_counter_of_a_hidden_card_stays_hidden():
    src = HEADER + '''
cards chip in bag:
    for each value in 1 to 2:
        card
zone bag: shared, hidden, pile
zone open: shared, public, pile
counter marks of each card = none
flow:
    for each c in bag:
        marks of c = c.value
    move bag where value == 1 to open
score:
    marked = count(open)
winner:
    highest total
'''
    g = catrules.load_source(src)
    st = g.new_state(2, seed=0)
    shown = st.view(0)["counters"]["marks"]
    assert list(shown.values()) == [1]                       # the card in the hidden bag is not listed
