"""The greedy bot's imagined games: the winner block, sampled states, errors in look-aheads."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules import testing as T
from catrules.bots import GreedyBot, RandomBot
from catrules.match import Match, lead

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "games"


def load(name):
    return catrules.load_game(GAMES / name)


# ------------------------------------------------------------ the winner block

def test_lead_compares_ranking_keys_component_by_component():
    # keys are "higher is better": a lowest-wins total is negated by State.rank_keys
    assert lead([(-10, 0), (-12, -1)], 0) == (2, 1)
    assert lead([(-10, -2), (-10, 0), (-15, 0)], 0) == (0, -2)   # the best other is (-10, 0)
    assert lead([(3,)], 0) == (3,)


def play(game, seats, seeds):
    wins = [0] * len(seats)
    for seed in seeds:
        st = game.new_state(len(seats), seed=seed)
        Match(game, st, seats).run()
        for w in st.winners():
            wins[w] += 1
    return wins


def test_greedy_minimises_where_the_lowest_total_wins():
    game = load("lowest.cat")
    wins = play(game, [GreedyBot(), RandomBot()], range(200))
    # before the bot read the winner block it took the highest cards and won 4 of these 200
    assert wins[0] >= 170, wins
    assert wins[1] <= 30, wins


def test_greedy_honours_the_tie_breaker():
    game = load("lowest.cat")
    st = game.new_state(2, seed=1)
    T.empty(st, "market", to="deck")
    T.empty(st, "pile", 0, to="deck")
    T.empty(st, "pile", 1, to="deck")
    plain, crowned = T.card(game, value=1, crown="no"), T.card(game, value=1, crown="yes")
    # the market: the crowned 1 first, so that picking the first of equals would be wrong
    T.put(st, [crowned, plain, T.card(game, value=9, crown="no")], "market")
    T.put(st, [T.card(game, value=5, crown="no")], "pile", 0)
    T.put(st, [T.card(game, value=6, crown="no")], "pile", 1)
    T.refresh(st)
    (d,) = st.pending()
    assert d.player == 0 and {o.id for o in d.options} >= {f"c{plain}", f"c{crowned}"}
    m = Match(game, st, [GreedyBot(samples=1), RandomBot()])
    ch = m.seats[0].decide(None, d)
    assert ch.option == f"c{plain}"
