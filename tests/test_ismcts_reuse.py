"""The searching bot's defaults for long games, its tree kept between decisions, and its playouts' ties.

* A horizon by default while the game is long (a game played on at random has more than
  ``LONG_GAME`` decisions to go); ``ismcts:N:end`` plays every playout to the end.
* The tree is kept from one decision to the next only when nothing but the bot's own choice
  came between and its view is the one its imagined games showed it (``catrules/bots/reuse.py``).
* A playout's player breaks ties between equal means at random, not by the first option.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules.bots import ismcts, reuse
from catrules.bots.basic import make_seat
from catrules.bots.ismcts import ISMCTSBot, parse_horizon
from catrules.bots.playout import UNSEEN, Policy
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def flapcat():
    return catrules.load_game(ROOT / "games" / "flapcat.cat")


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(ROOT / "games" / "meow.cat")


def first_search(game, bot, players=4, seed=1):
    st = game.new_state(players, seed=seed)
    d = st.pending()[0]
    Match(game, st, [bot if p == d.player else make_seat("random") for p in range(players)])
    return bot.search([o.id for o in d.options], d.default), dict(bot.last)


def test_a_long_game_has_a_horizon_by_default_and_end_plays_to_the_end(flapcat, meow):
    _, last = first_search(flapcat, ISMCTSBot(iterations=5))
    assert last["horizon"] == ismcts.DEFAULT_HORIZON            # Flap Cat!: hundreds of decisions to go
    _, last = first_search(meow, ISMCTSBot(iterations=5))
    assert last["horizon"] is None                              # Meow: about 110 in all
    _, last = first_search(flapcat, make_seat("ismcts:5:end"))
    assert last["horizon"] is None
    _, last = first_search(flapcat, make_seat("ismcts:5:60"))
    assert last["horizon"] == 60


def test_playouts_to_a_horizon_are_random_and_teach_the_means_nothing(flapcat, meow):
    bot = ISMCTSBot(iterations=8)
    first_search(flapcat, bot)
    assert bot.last["horizon"] and not any(bot._policy.stats)
    bot = ISMCTSBot(iterations=8)
    first_search(meow, bot)
    assert bot.last["horizon"] is None and any(bot._policy.stats)


def test_the_horizon_spec_end():
    assert parse_horizon("end") == 0 and parse_horizon("40") == 40
    bot = make_seat("ismcts:300:end")
    assert (bot.iterations, bot.horizon, bot.name) == (300, 0, "ismcts:300:end")
    assert make_seat("ismcts:300").horizon is None
    with pytest.raises(ValueError, match="end"):
        make_seat("ismcts:300:0")


def searches_of(game, spec, seed, players=4):
    """Each search of the bot at seat 1 (against greedy): (decisions before it, visits reused)."""
    seats = [make_seat(spec)] + [make_seat("greedy") for _ in range(players - 1)]
    bot, out = seats[0], []
    search = bot.search

    def counted(*a, **k):
        before = bot.table.decisions
        option = search(*a, **k)
        out.append((before, bot.last["reused visits"]))
        return option
    bot.search = counted
    st = game.new_state(players, seed=seed)
    Match(game, st, seats).run()
    return out, st.history


def test_the_tree_is_kept_only_after_the_bots_own_choice(meow):
    kept = 0
    for seed in (1, 2, 3):
        out, _ = searches_of(meow, "ismcts:60", seed)
        for (was, _), (now, reused) in zip(out, out[1:]):
            if reused:
                kept += 1
                assert now == was + 1           # nobody else chose between the two searches
                assert reused >= 1
        assert not out[0][1]
    assert kept >= 1                            # the check above saw kept trees


def test_a_kept_tree_is_dropped_when_the_view_differs(meow):
    st = meow.new_state(4, seed=1)
    bot = ISMCTSBot(iterations=5)
    match = Match(meow, st, [bot] + [make_seat("random") for _ in range(3)])
    node = ismcts._Node(0)
    mine, theirs = ismcts._Node(0), ismcts._Node(1)
    node.children = {"a": mine, "b": theirs}
    view = st.view(0)
    kept = reuse.Kept(node, reuse.view_text(view), match.decisions)
    assert reuse.reuse(kept, match, view, 0) is node
    assert node.children == {"a": mine}         # another player's decision: left out
    other = dict(view, running_note="something else")
    assert reuse.reuse(kept, match, other, 0) is None
    later = reuse.Kept(node, reuse.view_text(view), match.decisions + 1)
    assert reuse.reuse(later, match, view, 0) is None


def test_reuse_keeps_the_game_deterministic(meow):
    a = searches_of(meow, "ismcts:40", 2)[1]
    b = searches_of(meow, "ismcts:40", 2)[1]
    assert a == b


def test_playout_ties_are_broken_at_random():
    pol = Policy(2, random.Random(5))
    values = [11, 12, 13, 14]
    taken = {pol.best(0, values) for _ in range(200)}
    assert taken == {0, 1, 2, 3}                # knowing nothing, any of them (was: always the first)
    pol.moves = [(0, 13)]
    pol.credit([1.0, 0.0])
    assert pol.mean(0, 13) > UNSEEN
    assert {pol.best(0, values) for _ in range(50)} == {2}
    assert pol.mean(1, 13) == UNSEEN            # the other player learnt nothing


def node_with(visits: int, wins: float):
    n = ismcts._Node(0)
    n.visits, n.wins = visits, wins
    return n


def test_the_default_stands_unless_the_search_found_better_beyond_its_noise():
    bot = ISMCTSBot(iterations=5)
    bot._chosen = {}
    root = ismcts._Node(0)
    root.children = {"a": node_with(30, 16.5), "b": node_with(20, 10.0)}      # 0.55 against 0.50
    assert bot._best(root, ["a", "b"], "b")[0] == "b"       # within the noise: the default
    assert bot._best(root, ["a", "b"], None)[0] == "a"      # no default: the most visited
    root.children["a"] = node_with(30, 27.0)                 # 0.90 against 0.50
    assert bot._best(root, ["a", "b"], "b")[0] == "a"
    root.children["b"] = node_with(0, 0.0)                   # a default never tried tells nothing
    assert bot._best(root, ["a", "b"], "b")[0] == "a"
