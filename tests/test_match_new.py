"""Match.new: a game of bots started inside the match's run (the fast path from the first
decision on) is the same game as one started by ``new_state`` and then played by a Match."""

from __future__ import annotations

import glob
import os

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.errors import RulesError
from catrules.play.match import Match

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = sorted(glob.glob(os.path.join(ROOT, "games", "*.cat")) +
               glob.glob(os.path.join(ROOT, "tests", "games", "*.cat")))


def _played(game, players, seed, specs, new: bool):
    seats = [make_seat(x) for x in specs]
    try:
        if new:
            m = Match.new(game, players, seats, seed=seed)
            assert m.unstarted and not m.state.history      # not run until the match runs
            st = m.run()
        else:
            st = game.new_state(players, seed=seed)
            Match(game, st, seats).run()
    except RulesError as exc:
        return ("error", str(exc))
    return (st.history, st.decisions, st.scores() if st.finished else None, st.known, st.z)


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_a_new_match_plays_the_same_game(path):
    try:
        game = catrules.load_game(path)
    except catrules.CatrulesError:
        pytest.skip("not a playable game file")
    for players in sorted({game.min_players, 4}):
        try:
            game.check_start(players, ())
        except Exception:
            continue
        for seed in (1, 2, 3):
            assert _played(game, players, seed, ["random"] * players, True) == \
                _played(game, players, seed, ["random"] * players, False)


def test_a_new_match_with_greedy_seats_plays_the_same_game():
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    specs = ["greedy", "random", "greedy", "random"]
    assert _played(game, 4, 5, specs, True) == _played(game, 4, 5, specs, False)


def test_a_new_match_with_a_log_runs_as_it_starts():
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    m = Match.new(game, 4, [make_seat("random") for _ in range(4)], seed=3, log=True)
    assert not m.unstarted and m.state.log and m.state.pending()


def test_a_finished_match_of_random_bots_is_freed_without_the_garbage_collector():
    """Random bots hold their table weakly (``weak_table``), as the referee does: a match and its
    seats make no reference cycle, so a finished simulation is freed as soon as it is dropped."""
    import gc
    import weakref
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    seats = [make_seat("random") for _ in range(4)]
    m = Match.new(game, 4, seats, seed=3)
    st = m.run()
    assert st.finished and seats[0].table.state is st      # the table, while the match lives
    gone = weakref.ref(m)
    was = gc.isenabled()
    gc.disable()
    try:
        del m
        assert gone() is None
    finally:
        if was:
            gc.enable()
    with pytest.raises(ReferenceError):     # a bot left without its match reads no table
        seats[0].table.state


def test_a_greedy_bot_keeps_its_table():
    """A seat that reads its table after the game (any but ``weak_table`` ones) keeps the match."""
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    bot = make_seat("greedy")
    st = Match(game, game.new_state(2, seed=1), [bot, make_seat("random")]).state
    assert bot.table.state is st
