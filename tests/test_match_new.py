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
