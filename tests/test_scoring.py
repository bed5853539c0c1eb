"""The score block and the winner keys written as one function each (catrules.runtime.scoring).

They are only a faster way to the values the items give one by one: the same rows and keys on
every state tried, and an item that fails is named, at its line, as before.
"""

from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.errors import RulesError
from catrules.play.match import Match
from catrules.runtime.scoring import written_keys, written_rows

ROOT = Path(__file__).resolve().parent.parent


def item_by_item(st):
    prog = st.prog
    key = tuple(st.options)
    kept = prog._scorers.get(key)
    prog._scorers[key] = None               # no scorer: the state scores item by item
    try:
        rows = st.score_now()
        return rows, st.rank_keys(rows)
    finally:
        prog._scorers[key] = kept


@pytest.mark.parametrize("path,players,options", [
    ("games/meow.cat", 4, ()), ("games/meow.cat", 3, ("expert",)),
    ("games/catlady.cat", 3, ()), ("games/flapcat.cat", 4, ("advanced",)),
    ("docs/examples/talking.cat", 2, ()),
])
def test_written_scorer_gives_the_items_values(path, players, options):
    game = catrules.load_game(str(ROOT / path))
    tried = 0
    for seed in range(6):
        st = game.new_state(players, seed=seed, options=options)
        m = Match(game, st, [make_seat("random") for _ in range(players)])
        while m.step():
            if st.decisions % 3 == 1:       # mid-game tables too, not only the last
                scorer = game.program.scorer(st.options)
                assert scorer is not None
                # written as one function, definitions keeping their values (errors not hidden)
                rows = written_rows(st, scorer)
                assert (rows, written_keys(st, scorer, rows)) == item_by_item(st)
                assert st.memo is None
                tried += 1
        rows = st.score_now()
        assert (rows, st.rank_keys(rows)) == item_by_item(st)
    assert tried >= 6


GAME = """catrules 3
game "Split"
players 2 to 2
cards numbered in deck:
    for each value in 1 to 4:
        card
zone deck: shared, public, pile
zone hand: per player, public, pile
flow:
    for each player p:
        p chooses c from deck
        move c to hand of p
score:
    held = count(hand)
    portion = 10 / (count(hand) - 1)
"""


def test_a_failing_item_is_still_named_at_its_line(tmp_path):
    path = tmp_path / "split.cat"
    path.write_text(GAME)
    game = catrules.load_game(str(path))
    st = game.new_state(2, seed=1)
    assert game.program.scorer(st.options) is not None
    st.score_now()                          # no card held: 10 / -1
    d = st.pending()[0]
    st.apply(d.player, d.options[0].id)     # one card held: 10 / 0
    with pytest.raises(RulesError) as exc:
        st.score_now()
    assert exc.value.line == 15 and "score item `portion`" in str(exc.value)


KEEPS = """catrules 3
game "Keeps"
players 2 to 2
cards numbered in deck:
    for each value in 1 to 6:
        card
zone deck: shared, public, pile
zone hand: per player, public, pile
define high(p) = hand of p where value > 3
define lucky = random([1, 2, 3])
define both(p) = [count(high(p)), lucky]
flow:
    for each player p:
        p chooses c from deck
        move c to hand of p
score:
    highs = count(high(player))
    luck = count(both(player))
"""


def test_definitions_keep_values_only_while_scoring_and_never_a_random_one(tmp_path):
    path = tmp_path / "keeps.cat"
    path.write_text(KEEPS)
    game = catrules.load_game(str(path))
    ns = game.program.score_items[0][2].__globals__
    assert "memo" in ns["_d_high"].__code__.co_names          # walks a list: may keep its value
    assert "memo" not in ns["_d_lucky"].__code__.co_names     # draws: never kept
    assert "memo" not in ns["_d_both"].__code__.co_names      # asks one that draws: never kept
    st = game.new_state(2, seed=3)
    while st.pending():
        d = st.pending()[0]
        st.apply(d.player, d.options[-1].id)
    plain = ns["_d_high"](st, 0)
    kept = {}
    st.memo = kept
    first = ns["_d_high"](st, 0)
    assert first == plain and len(kept) == 1     # worked out once, and kept
    assert ns["_d_high"](st, 0) is first         # the same arguments: the kept value
    ns["_d_lucky"](st)
    assert len(kept) == 1                        # a random draw is not kept
    st.memo = None
    assert ns["_d_high"](st, 0) is not first     # outside a scoring: worked out again
