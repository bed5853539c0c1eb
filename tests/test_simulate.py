"""Simulations: determinism, win counting (shared wins), player counts, output formats."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.play.logs import read_log
from catrules.play.replay import replay
from catrules.play.match import Match
from catrules.lab.simulate import SimResult, game_seed, simulate

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"

EVEN = '''catrules 1
game "Even Split"
players 1 to 6

cards token in box:
    for each value in 1 to 8:
        card

zone box: shared, public, pile
zone hand: per player, public, pile

flow:
    for each player p:
        p chooses c from box default lowest c.value
        move c to hand of p

score:
    points = 0

winner:
    highest total
    ties share
'''


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


def without_timing(d: dict) -> dict:
    d = dict(d)
    del d["timing"]
    return d


def test_same_seed_same_result(meow):
    a = simulate(meow, 4, 12, seed=5, seats=["random", "greedy", "random:fast", "bot:slow"])
    b = simulate(meow, 4, 12, seed=5, seats=["random", "greedy", "random:fast", "bot:slow"])
    c = simulate(meow, 4, 12, seed=6, seats=["random", "greedy", "random:fast", "bot:slow"])
    assert without_timing(a.to_dict()) == without_timing(b.to_dict())
    assert json.dumps(without_timing(a.to_dict())) == json.dumps(without_timing(b.to_dict()))
    assert without_timing(a.to_dict()) != without_timing(c.to_dict())


def test_game_i_uses_the_derived_seed(meow):
    # a one-game simulation is exactly the match started with game_seed(seed, 0), here game 0
    res = simulate(meow, 3, 1, seed=42)
    assert game_seed(42, 0) == 42 * 1_000_003
    state = meow.new_state(3, seed=game_seed(42, 0))
    Match(meow, state, [make_seat("random") for _ in range(3)]).run()
    assert [s.score_mean for s in res.seats] == [r["total"] for r in state.scores()]
    assert res.decisions_mean == state.decisions


def test_wins_and_scores_match_the_games_played_one_by_one(meow):
    games, seed = 40, 8
    res = simulate(meow, 3, games, seed=seed)
    wins = [0, 0, 0]
    totals: list = [[], [], []]
    shared = 0
    decisions = 0
    for i in range(games):
        state = meow.new_state(3, seed=game_seed(seed, i))
        Match(meow, state, [make_seat("random") for _ in range(3)]).run()
        won = state.winners()
        shared += len(won) > 1
        for w in won:
            wins[w] += 1
        for p, row in enumerate(state.scores()):
            totals[p].append(row["total"])
        decisions += state.decisions
    assert [s.wins for s in res.seats] == wins
    assert [s.win_rate for s in res.seats] == [pytest.approx(w / games) for w in wins]
    assert [s.score_min for s in res.seats] == [min(t) for t in totals]
    assert [s.score_max for s in res.seats] == [max(t) for t in totals]
    assert [s.score_mean for s in res.seats] == [pytest.approx(sum(t) / games) for t in totals]
    assert res.shared_games == shared
    assert res.decisions_mean == pytest.approx(decisions / games)


def test_shared_wins_count_for_every_winner():
    game = catrules.load_source(EVEN, "even.cat")
    res = simulate(game, 3, 7, seed=1)
    assert [s.wins for s in res.seats] == [7, 7, 7]
    assert [s.win_rate for s in res.seats] == [1.0, 1.0, 1.0]
    assert res.shared_games == 7
    assert res.decisions_mean == 3


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count(meow, players):
    res = simulate(meow, players, 4, seed=players, seats="random")
    assert len(res.seats) == players
    assert sum(s.wins for s in res.seats) >= 4
    assert res.decisions_mean > 0
    assert all(s.score_min <= s.score_mean <= s.score_max for s in res.seats)


def test_greedy_seats_and_options(meow):
    res = simulate(meow, 5, 2, seed=2, seats="bot", options=["expert"])
    assert res.options == ["expert"]
    assert [s.spec for s in res.seats] == ["bot"] * 5


def test_bad_arguments(meow):
    with pytest.raises(ValueError, match="seat specs for 4 players"):
        simulate(meow, 4, 1, seed=1, seats=["random", "random"])
    with pytest.raises(ValueError, match="valid seat specs"):
        simulate(meow, 4, 1, seed=1, seats="human")
    with pytest.raises(catrules.CatrulesError):
        simulate(meow, 9, 1, seed=1)
    with pytest.raises(catrules.CatrulesError):
        simulate(meow, 4, 1, seed=1, options=["no-such-option"])


def test_progress_is_reported(meow):
    seen = []
    simulate(meow, 2, 3, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_to_dict_and_table(meow):
    res = simulate(MEOW, 4, 3, seed=9, seats=["greedy", "random", "random", "random"])
    assert isinstance(res, SimResult)
    d = res.to_dict()
    assert list(d) == ["game", "path", "players", "games", "seed", "options", "seats", "shared_games",
                       "decisions_mean", "unfinished_games", "max_decisions", "log", "timing"]
    assert list(d["seats"][0]) == ["seat", "spec", "wins", "win_rate", "score_mean", "score_min", "score_max"]
    assert list(d["timing"]) == ["elapsed_seconds", "games_per_second"]
    assert d["timing"]["games_per_second"] > 0
    json.dumps(d)
    table = res.format_table()
    assert "Meow" in table and "greedy" in table and "games/s" in table
    assert all(len(line) <= 80 for line in table.splitlines())
    assert len([line for line in table.splitlines() if line.strip().startswith(("1 ", "2 ", "3 ", "4 "))]) == 4


def test_zero_games(meow):
    res = simulate(meow, 2, 0, seed=1)
    assert [s.wins for s in res.seats] == [0, 0]
    res.format_table()


def test_log_of_a_simulation_replays(tmp_path, meow):
    path = tmp_path / "sim.jsonl"
    res = simulate(meow, 3, 3, seed=4, seats=["greedy", "random", "random"], log_path=path)
    games = read_log(path)
    assert len(games) == 3
    assert [g.header["seed"] for g in games] == [game_seed(4, i) for i in range(3)]
    assert games[0].header["seats"] == ["greedy", "random", "random"]
    assert sum(1 for g in games for w in g.result["winners"] if w == 0) == res.seats[0].wins
    rep = replay(path)
    assert rep.ok, rep.format()
    assert len(rep.games) == 3
