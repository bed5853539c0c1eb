"""The allotment memo (:mod:`catrules.allot.memo`): a way from the memo is the way worked out
afresh, on many Cat Lady games and the test games with allotments; what the search read of other
players is in the key; a pile whose order the keys may see is keyed in its order."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules.allot import search

ROOT = Path(__file__).resolve().parent.parent


def _play(path_or_text, n, seed, tmp_path=None):
    """A random game played to its end: (final scores, meals, zones, log)."""
    if tmp_path is not None:
        p = tmp_path / "game.cat"
        p.write_text(path_or_text)
        path_or_text = p
    g = catrules.load_game(str(path_or_text))
    st = g.new_state(n, seed=seed)
    rng = random.Random(seed)
    for _ in range(2000):
        if st.over or not st.pending():
            break
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
    return st.score_now(), list(st.c["meal"]), [list(z) for z in st.z], list(st.log or [])


class _Count:
    """Counts the allotments asked and those worked out afresh (not from the memo)."""

    def __init__(self, monkeypatch):
        self.asked = self.fresh = 0
        self.jobs = []
        best, key = search._best, search.memo_key

        def counted_best(st, V, job):
            self.fresh += 1
            return best(st, V, job)

        def counted_key(st, V, job):
            self.asked += 1
            self.jobs.append(job)
            return key(st, V, job)
        monkeypatch.setattr(search, "_best", counted_best)
        monkeypatch.setattr(search, "memo_key", counted_key)


def _without_memo(monkeypatch):
    monkeypatch.setattr(search, "memo_key", lambda st, V, job: None)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_catlady_games_from_the_memo_are_fresh_games(monkeypatch, n):
    """Cat Lady played to the end (two feeding passes, the memo kept from game to game and
    then played again from the memo): the same games as without the memo."""
    path = ROOT / "games" / "catlady.cat"
    with_memo = [_play(path, n, seed) for seed in range(1, 9)]
    again = [_play(path, n, seed) for seed in range(1, 9)]
    _without_memo(monkeypatch)
    fresh = [_play(path, n, seed) for seed in range(1, 9)]
    assert with_memo == fresh
    assert again == fresh


def test_catlady_second_feeding_pass_comes_from_the_memo(monkeypatch):
    """The second pass repeats the first (each player's cubes back in the pile in another order,
    the others fed meanwhile): it is found in the memo, not searched again."""
    count = _Count(monkeypatch)
    for seed in range(1, 6):
        _play(ROOT / "games" / "catlady.cat", 4, seed + 100)
    assert count.asked == 5 * 8
    assert count.fresh < count.asked * 3 // 4


@pytest.mark.parametrize("n", [2, 3])
def test_the_test_games_allotments_from_the_memo_are_fresh_ones(monkeypatch, n):
    path = ROOT / "tests" / "games" / "feeding.cat"
    with_memo = [_play(path, n, seed) for seed in range(1, 13)]
    _without_memo(monkeypatch)
    assert with_memo == [_play(path, n, seed) for seed in range(1, 13)]


_HEADER = '''catrules 2
game "Allot memo test"
players 2 to 3
'''

# The boss scores 3 when fed if its owner fed more pets than anyone else: the first pass feeds
# the boss, the second (the other player fed one pet meanwhile) the dog instead.
BOSS = _HEADER + '''
cards pet in pets:
    card with name Tom, points 2, needs [meat], boss 0
    card with name Kit, points 2, needs [meat], boss 0
    card with name Dog, points 2, needs [meat], boss 0
    card with name Boss, points 0, needs [meat], boss 1
cards bowl in pantry:
    for each kind in meat, meat, meat:
        card
zone pets: shared, public, pile
zone pantry: shared, public, pile
zone home: per player, public, pile
zone food: per player, public, pile
zone eaten: per player, public, pile
counter meal of each card = none
define serves_it(b, need) = b.kind == need
define fed(c) = meal of c != none
define fed_count(p) = count(home of p where fed(it))
define worth(c) = if c.boss == 1 then (if fed_count(owner(c)) > max(others(owner(c)), fed_count(it)) \\
    then 3 else 0) else c.points
define pet_points(p) = sum(home of p where fed(it), worth(it))

flow:
    for each player p:
        move top(pets, 2) to home of p
        move top(pantry) to food of p
    repeat 2 times:
        for each player p:
            allot food of p to home of p into eaten of p:
                wants [it.needs]
                serves serves_it
                note meal
                prefer highest pet_points(p)

score:
    pet_score = pet_points(player)

winner:
    highest total
    ties share
'''


def test_what_is_read_of_the_other_players_is_in_the_key(monkeypatch, tmp_path):
    """The boss's owner reads the other player's pets and meals: the second pass, the other
    player fed meanwhile, is not answered by the first pass's way (the boss, worth 0 by then)
    but searched again (the dog); the other player's home is among what its key holds."""
    count = _Count(monkeypatch)
    got = _play(BOSS, 2, 1, tmp_path)
    assert [r["pet_score"] for r in got[0]] == [2, 2]       # from the memo, the first: [0, 2]
    assert count.asked == 4 and count.fresh >= 3
    st = catrules.load_game(str(tmp_path / "game.cat")).new_state(2, seed=1)
    home = st.layout.base[st.prog.zone_by_name["home"].index]
    kept = [reads for tables in count.jobs[0].model.memo.values() for reads, _t in tables]
    assert any({home, home + 1} <= set(r.slots) for r in kept)
    _without_memo(monkeypatch)
    assert _play(BOSS, 2, 1, tmp_path)[:3] == got[:3]


# The bowls' worth is read from the pile they go to: which bowl is eaten matters, so the pile is
# keyed in its order.  The first pass eats the +5 bowl (first in the pile); the second pass finds
# it put back behind the -5 bowl, which it would have to eat: it leaves the pet unfed.
WORTH = _HEADER + '''
cards pet in pets:
    card with name Dog, needs [meat]
    card with name Cat, needs [meat]
cards bowl in pantry:
    card with kind meat, worth 1
    card with kind meat, worth 1
    card with kind meat, worth -5
    card with kind meat, worth 5
zone pets: shared, public, pile
zone pantry: shared, public, pile
zone home: per player, public, pile
zone food: per player, public, pile
zone eaten: per player, public, pile
counter meal of each card = none
define serves_it(b, need) = b.kind == need

flow:
    for each player p:
        move top(pets) to home of p
        move top(pantry, 2) to food of p
    repeat 2 times:
        for each player p:
            allot food of p to home of p into eaten of p:
                wants [it.needs]
                serves serves_it
                note meal
                prefer highest sum(eaten of p, it.worth)

score:
    points = sum(eaten of player, worth)

winner:
    highest total
    ties share
'''


def test_a_pile_whose_cards_the_keys_read_is_keyed_in_its_order(monkeypatch, tmp_path):
    """The keys read the worth of the bowls eaten: the second pass (the pile in another order)
    is searched again and gives the fresh way, which differs from the first pass's."""
    count = _Count(monkeypatch)
    got = _play(WORTH, 2, 1, tmp_path)
    # the first player's pet ate the +5 bowl in the first pass, nothing in the second
    assert [r["points"] for r in got[0]] == [0, 1]
    assert count.fresh == count.asked == 4
    _without_memo(monkeypatch)
    assert _play(WORTH, 2, 1, tmp_path)[:3] == got[:3]


def test_the_games_options_are_in_the_key(monkeypatch):
    """A compiled statement serves every game of its program, whose keys may read the options:
    two games played with other options never share a way."""
    seen = []
    key = search.memo_key

    def watched(st, V, job):
        if not seen:
            saved = st.options
            try:
                st.options = ["another"]
                seen.append(key(st, V, job))
            finally:
                st.options = saved
            seen.append(key(st, V, job))
        return key(st, V, job)
    monkeypatch.setattr(search, "memo_key", watched)
    _play(ROOT / "games" / "catlady.cat", 2, 1)
    assert seen[0] is not None and seen[1] is not None and seen[0] != seen[1]
