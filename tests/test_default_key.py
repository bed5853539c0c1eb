"""A choice's default by a printed column (``default lowest c.value``) is worked out by the
column's own look-up (:func:`catrules.compile.choices._best_of`): the same default as the key's
code gives, ties and all, and the same error where the key's code fails."""

from __future__ import annotations

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.compile import choices
from catrules.errors import RulesError
from catrules.play.match import Match

SOURCE = """\
catrules 4
game "Keys"
players 2 to 3
cards tile in deck:
    for each value in 1, 2, 2, 3, 5, 5, 7, 8, 8, 4, 6, 1:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, pile
setup:
    shuffle deck
flow:
    repeat 3 times:
        for each player p:
            move top(deck, 2) to hand of p
            p chooses c from hand of p default lowest c.value
            move c to table
score:
    points = sum(table, value)
"""

#: the key's code itself, as before the column's look-up
def _by_code(o, pick, column, key, st, V):
    return pick(o, key=lambda x: key(st, V, x))


def _defaults(game, players: int, seed: int, last: bool) -> list:
    """Every decision's (player, default, options) and the end, answering the last or the default."""
    out, st = [], None
    try:
        st = game.new_state(players, seed=seed)
        while st.pending_ is not None:
            d = st.pending()[0]
            out.append((d.player, d.default, [o.id for o in d.options]))
            st.apply(d.player, d.options[-1].id if last else d.default)
    except RulesError as exc:
        out.append(("error", exc.message, exc.line))
    return out + [st and st.history, st.scores() if st and st.over else None]


@pytest.mark.parametrize("way", ["lowest", "highest"])
def test_a_column_key_gives_the_default_the_key_code_gives(way, monkeypatch):
    game = catrules.load_source(SOURCE.replace("lowest", way), "keys.cat")
    seen = []
    fast = choices._best_of
    monkeypatch.setattr(choices, "_best_of", lambda *a: seen.append(a[2]) or fast(*a))
    got = [_defaults(game, n, seed, last) for n in (2,) for seed in range(1, 9) for last in (True, False)]
    assert seen and all(col is not None for col in seen)     # the column's look-up was taken
    monkeypatch.setattr(choices, "_best_of", _by_code)
    assert got == [_defaults(game, n, seed, last) for n in (2,) for seed in range(1, 9) for last in (True, False)]
    # ties among equal values: the first in the hand, as min and max keep it
    assert any(len(set(opts)) == 2 and d == opts[0] for dd in got for _p, d, opts in dd[:-2] if _p != "error")


def test_a_column_key_that_fails_fails_as_the_key_code_does(monkeypatch):
    """Cards without the column (none) cannot be compared with numbers: the same stop, with its
    line, whichever way the default is worked out."""
    text = SOURCE.replace("        card\n", "        card\n    4 cards with colour red\n")
    game = catrules.load_source(text, "keys.cat")
    got = [_defaults(game, 2, seed, True) for seed in range(1, 9)]
    errors = [dd[-3] for dd in got if dd[-3][0] == "error"]
    assert errors and all(e[2] == 17 and "none" in e[1] for e in errors), errors
    monkeypatch.setattr(choices, "_best_of", _by_code)
    assert got == [_defaults(game, 2, seed, True) for seed in range(1, 9)]


def test_greedy_bots_choose_the_same_with_either_way(monkeypatch):
    game = catrules.load_source(SOURCE, "keys.cat")

    def games():
        out = []
        for seed in (1, 2, 3):
            for seats in (["greedy", "greedy"], ["greedy", "random"]):
                st = game.new_state(2, seed=seed)
                Match(game, st, [make_seat(x) for x in seats]).run()
            out.append((st.history, st.scores()))
        return out
    fast = games()
    monkeypatch.setattr(choices, "_best_of", _by_code)
    assert fast == games()
