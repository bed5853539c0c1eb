"""``tallied(p)`` and ``tallied(p, ITEM)``: the rules read a player's running totals.

A game "played until someone has N points" reads the totals that ``tally`` keeps, with no
counter of its own.  The small game below is decided without choices: every round the first
player wins 2 chips and the others 1; chips stay won, so each tally adds everything won so
far (``points``), plus 1 for the round (``bonus``).  After r rounds the first player's points
add up to 2 + 4 + ... + 2r = r(r + 1) and an other player's to r(r + 1) / 2; each total
is that plus r.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import catrules
from catrules.errors import GameFileError

ROOT = Path(__file__).resolve().parents[1]

GAME = '''catrules 2
game "Chip Race"
players 2 to 3

cards chip in supply:
    40 cards with kind token

zone supply: shared, public, pile
zone won: per player, public, pile

counter rounds = 0
counter at_start = none
counter gain of each player = 1
counter seen of each player = none       # tallied(p) before the round's tally

flow:
    at_start = tallied(first(players))
    gain of first(players) = 2
    repeat until any(players where UNTIL):
        add 1 to rounds
        play round

phase round:
    for each player p:
        seen of p = tallied(p)
        move top(supply, gain of p) to won of p
    tally

score:
    points = count(won)
    bonus = 1
    note chips = count(won)

winner:
    highest total
'''


def play(until: str, n: int = 2):
    game = catrules.load_source(GAME.replace("UNTIL", until))
    assert not game.warnings, [str(w) for w in game.warnings]
    st = game.new_state(n, seed=1)
    assert st.finished                     # no choices: the game plays through at once
    return st


def test_until_the_total_reaches_n():
    # first player's totals: 2 + 1 = 3, then 3 + 4 + 1 = 8: stops after round 2
    st = play("tallied(it) >= 8")
    assert st.c["rounds"] == 2
    assert st.c["at_start"] == 0           # 0 before the first tally
    assert st.c["seen"] == [3, 2]          # the totals after round 1, read in round 2
    sc = st.scores()
    assert [(s["points"], s["bonus"], s["chips"], s["total"]) for s in sc] == [(6, 2, 4, 8), (3, 2, 2, 5)]
    assert st.winners() == [0]


def test_until_one_item_reaches_n():
    # points alone: 2, 6, 12 -- the bonus does not count, so round 3 is played
    st = play("tallied(it, points) >= 8")
    assert st.c["rounds"] == 3
    assert st.c["seen"] == [8, 5]
    sc = st.scores()
    assert [(s["points"], s["bonus"], s["total"]) for s in sc] == [(12, 3, 15), (6, 3, 9)]


def test_a_note_item_reads_its_latest_value():
    # chips is a note: it is not added up; the first player holds 2r chips after round r
    st = play("tallied(it, chips) >= 5")
    assert st.c["rounds"] == 3
    assert [s["chips"] for s in st.scores()] == [6, 3]


def test_any_player_can_end_it():
    # an other player reaches 3 points (1 + 2) in round 2, before the first player's 6 >= 10
    st = play("tallied(it, points) >= 10 or (it != first(players) and tallied(it) >= 5)", n=3)
    assert st.c["rounds"] == 2
    assert [s["total"] for s in st.scores()] == [8, 5, 5]


@pytest.mark.parametrize("arg, message, hint", [
    ("pionts", "`pionts` is not a score item", "did you mean `points`?"),
    ("3", "`tallied(p, ITEM)` takes the name of a score item", "name an item of the `score:` block (points, bonus, chips)"),
    ("total", "`total` is not a score item", "or write `tallied(p)` for the total"),
])
def test_the_item_must_be_a_score_item(arg, message, hint):
    src = GAME.replace("UNTIL", f"tallied(it, {arg}) >= 8")
    with pytest.raises(GameFileError) as e:
        catrules.load_source(src)
    (d,) = e.value.diagnostics
    assert message in d.message and hint in d.hint
    line = src.splitlines()[d.line - 1]
    assert line[d.column - 1:].startswith(arg)


def test_one_or_two_arguments():
    with pytest.raises(GameFileError) as e:
        catrules.load_source(GAME.replace("UNTIL", "tallied() >= 8"))
    assert "`tallied` takes 1 or 2 argument(s), not 0" in str(e.value)


def test_warns_when_the_game_never_tallies():
    src = GAME.replace("UNTIL", "rounds >= 2 or tallied(it) >= 8").replace("    tally\n", "    add 0 to rounds\n")
    game = catrules.load_source(src)
    assert [w.message for w in game.warnings] == ["`tallied` is always 0: the game never runs `tally`"]


def test_the_docs_example_stops_at_the_first_tally_that_reaches_ten_or_three_stars():
    game = catrules.load_game(ROOT / "docs" / "examples" / "first-to-ten.cat")
    for seed in range(20):
        st = game.new_state(3, seed=seed)
        while not st.finished:
            assert not any(st.tallied(p) >= 10 or st.tallied(p, "stars") >= 3 for p in range(3))
            d = st.pending()[0]
            st.apply(d.player, d.options[seed % len(d.options)].id)
        sc = st.scores()
        assert any(s["total"] >= 10 or s["stars"] >= 3 for s in sc)
        assert [s["total"] for s in sc] == [st.tallied(p) for p in range(3)]
