"""Player-independent parts of score items worked out once (catrules.runtime.hoisting).

The written scorer takes such parts out of its per-player loop; the rows stay those the items
give one by one (tests/test_scoring.py compares them on played tables), randomness and
player-dependent parts stay in the loop, and a part that fails where the item would not ask
for it leaves the scores as the game file says.
"""

from pathlib import Path

import pytest

import catrules
from catrules.runtime.hoisting import hoist
from catrules.runtime.scoring import written_rows

ROOT = Path(__file__).resolve().parent.parent


def _pure(st, x):
    return x


def _drawn(st):
    return st.rng.random()


NS = {"_pure": _pure, "_drawn": _drawn, "_table": [1, 2, 3], "__builtins__": {"len": len, "max": max}}


def test_player_independent_calls_are_taken_out_once():
    bodies, once = hoist(["_pure(st, 1) + _pure(st, V['player'])",
                          "max([_pure(st, _i0) for _i0 in _table]) - _pure(st, 1)"], NS, {"V", "_pl"})
    codes = dict(once)
    assert sorted(codes.values()) == ["_pure(st, 1)", "max([_pure(st, _i0) for _i0 in _table])"]
    by_code = {c: n for n, c in once}
    assert bodies[0] == f"{by_code['_pure(st, 1)']} + _pure(st, V['player'])"
    assert bodies[1] == f"{by_code['max([_pure(st, _i0) for _i0 in _table])']} - {by_code['_pure(st, 1)']}"


def test_what_depends_on_the_player_or_draws_stays_in_the_loop():
    kept = ["_pure(st, V['player'])", "_drawn(st)", "len([_i0 for _i0 in _table if _i0 == _pl])",
            "(_o1 if (_o1 := _pure(st, V['player'])) else _pure(st, _o1))", "_unknown(st)", "_pure(st, st.rng)"]
    bodies, once = hoist(kept, NS, {"V", "_pl"})
    assert once == [] and bodies == kept


def test_a_comprehension_variable_is_not_taken_out_of_its_comprehension():
    bodies, once = hoist(["len([_pure(st, _i0) for _i0 in _table if _pure(st, V['player'])])"], NS, {"V", "_pl"})
    assert once == []


GAME = """catrules 3
game "Guarded"
players 2 to 3
cards numbered in deck:
    for each value in 1 to 4:
        card
zone deck: shared, public, pile
zone hand: per player, public, pile
flow:
    for each player p:
        p chooses c from deck
        move c to hand of p
define per_card(n) = 12 / n
score:
    held = count(hand)
    # the division is asked only where someone holds a card: never on an empty table
    portion = if count(deck) == 4 then 0 else per_card(4 - count(deck))
    most = max(players, count(hand of it))
"""


def test_a_part_that_fails_where_it_is_not_asked_leaves_the_scores_as_written(tmp_path):
    path = tmp_path / "guarded.cat"
    path.write_text(GAME)
    game = catrules.load_game(str(path))
    st = game.new_state(2, seed=1)
    rows = st.scores()                 # 12 / 0 taken out of its branch fails: item by item
    with pytest.raises(ZeroDivisionError):          # the written scorer fails on this table
        written_rows(st, game.program.scorer(st.options))
    assert [r["portion"] for r in rows] == [0, 0] and [r["most"] for r in rows] == [0, 0]
    for _ in range(2):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    rows = st.scores()
    assert [r["portion"] for r in rows] == [6, 6] and [r["most"] for r in rows] == [1, 1]
    assert [r["held"] for r in rows] == [1, 1]


def test_a_call_on_the_player_written_twice_is_worked_out_once_per_player():
    bodies = ["_pure(st, V['player']) + 1", "len([_i0 for _i0 in _table if _i0 == _pure(st, V['player'])])",
              "_pure(st, _pl)"]
    new, each = hoist(bodies, NS, set(), "_p", 2, frozenset({"V", "_pl"}))
    assert each == [("_p0", "_pure(st, V['player'])")]
    assert new == ["_p0 + 1", "len([_i0 for _i0 in _table if _i0 == _p0])", "_pure(st, _pl)"]
    # read once only, or reading a comprehension's variable: stays where it is
    new, each = hoist(["_pure(st, _pl)", "len([_pure(st, _i0) for _i0 in _table])",
                       "len([_pure(st, _i0) for _i0 in _table])"], NS, set(), "_p", 2, frozenset({"V", "_pl"}))
    assert [c for _n, c in each] == ["len([_pure(st, _i0) for _i0 in _table])"]
