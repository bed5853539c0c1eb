"""The searching bot's budgets in seconds of work, its playout policy, and options alike.

* A budget in seconds is counted in work (iterations and the decisions of their imagined
  games), not timed: the same seed gives the same choices, and ``simulate`` agrees for any
  number of jobs.  Plain ``ismcts`` is a second of work.
* The wall-clock cap (``max_seconds``) and ``stop`` still cut a search short.
* Cards alike (same place, same values) are one edge of the tree.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules import cli
from catrules.bots import ismcts
from catrules.bots.alike import Alike
from catrules.bots.basic import make_seat
from catrules.bots.ismcts import ISMCTSBot
from catrules.bots.playout import Policy
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent
FOLLOW = ROOT / "tests" / "games" / "follow.cat"
DECK = ROOT / "tests" / "games" / "deckbuilder.cat"


@pytest.fixture(scope="module")
def follow():
    return catrules.load_game(FOLLOW)


def first_search(game, bot, players=3, seed=4):
    st = game.new_state(players, seed=seed)
    Match(game, st, [bot] + [make_seat("random") for _ in range(players - 1)])
    d = next(d for d in st.pending() if d.player == 0)
    return bot.search([o.id for o in d.options], d.default), dict(bot.last)


def test_a_budget_in_seconds_is_counted_in_work(follow):
    a, last_a = first_search(follow, ISMCTSBot(seconds=0.05))
    b, last_b = first_search(follow, ISMCTSBot(seconds=0.05))
    units = 0.05 * ismcts.WORK_PER_SECOND
    # the same work, so the same iterations and choice, however long each took on the clock
    assert (a, last_a["iterations"], last_a["work"]) == (b, last_b["iterations"], last_b["work"])
    assert units <= last_a["work"] < units + ismcts.ITERATION_WORK + 1000, last_a
    _, more = first_search(follow, ISMCTSBot(seconds=0.2))
    assert more["iterations"] > 2 * last_a["iterations"], (more, last_a)


def test_plain_ismcts_is_a_second_of_work():
    bot = make_seat("ismcts")
    assert (bot.seconds, bot.iterations, bot.name) == (ismcts.DEFAULT_SECONDS, None, "ismcts:1s")


def test_the_wall_clock_cap_and_stop_cut_a_budget_of_work(follow):
    _, last = first_search(follow, ISMCTSBot(seconds=3600, max_seconds=0.2))
    assert last["work"] < 3600 * ismcts.WORK_PER_SECOND and last["seconds"] < 30, last
    choice, last = first_search(follow, ISMCTSBot(seconds=3600, stop=lambda: True))
    assert choice and last["iterations"] == 0


def test_simulate_agrees_for_any_number_of_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        code = cli.main(["simulate", str(FOLLOW), "--seats", "ismcts:0.02s,random,greedy", "--players", "3",
                         "--games", "4", "--seed", "3", "--jobs", jobs])
        out, err = capsys.readouterr()
        assert code == 0, err
        outs.append([line for line in out.splitlines() if not line.startswith("time:")])
    assert outs[0] == outs[1]


def test_cards_alike_are_one_edge():
    game = catrules.load_game(DECK)
    st = game.new_state(2, seed=1)
    d = st.pending()[0]
    ids, vals = st.option_ids_for(d.player), st.values_for(d.player)
    edges = Alike().edges(st, ids, vals)
    kinds = {game.program.card_label[v] for v in vals if v is not None}
    # each kind of card on offer once (all in the market), and "done" (no card)
    assert len(ids) > 10 and len(edges) == len(kinds) + (None in vals), (len(ids), edges)
    assert all(oid in ids for oid, _v in edges.values())


def test_options_that_are_not_cards_are_their_own_edges(follow):
    st = follow.new_state(3, seed=2)
    d = st.pending()[0]
    ids, vals = st.option_ids_for(d.player), st.values_for(d.player)
    edges = Alike().edges(st, ids, vals)
    # Follow's cards all differ: each its own edge, as without grouping
    assert [oid for oid, _v in edges.values()] == ids


def test_the_policy_learns_the_values_that_win():
    policy = Policy(2, random.Random(1))
    for _ in range(20):
        policy.moves = [(0, "good"), (1, "good")]
        policy.credit([1.0, 0.0])
        policy.moves = [(0, "bad")]
        policy.credit([0.0, 1.0])
    assert policy.mean(0, "good") > policy.mean(0, "unseen") > policy.mean(0, "bad")
    assert policy.best(0, ["bad", "good"]) == 1
    assert policy.mean(1, "good") < policy.mean(1, "unseen")
