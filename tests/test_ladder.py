"""The skill ladder (catrules ladder): its seatings in balance, the Bradley-Terry ratings against
known answers, random < greedy on Meow, the same output for every --jobs, and bad bot specs."""

from __future__ import annotations

import json
import math
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

import catrules
from catrules.cli import main
from catrules.lab.ladder import ELO, fit, ladder, pairs, rate, rating_gap, seating, totals

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(MEOW)


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ seatings

@pytest.mark.parametrize("k,players", [(2, 2), (2, 4), (3, 4), (4, 4), (4, 2), (5, 3), (6, 4)])
def test_every_bot_sits_in_every_seat_once_per_deal(k, players):
    for d in range(6):
        games = [seating(k, players, d * k + r) for r in range(k)]
        for p in range(players):
            assert sorted(g[p] for g in games) == list(range(k))
        for g in games:
            assert len(set(g)) == min(k, players)        # as many different bots as the table holds


def test_with_more_bots_than_seats_every_two_bots_meet():
    k, players = 5, 2
    met = {frozenset(seating(k, players, i)) for i in range(k * 4)}
    assert met == {frozenset(c) for c in combinations(range(k), 2)}


def test_pairs_from_a_ranking_with_a_tie_and_bots_with_two_seats():
    # seats: bot 0, bot 1, bot 0, bot 1; places: seat 2 first, seats 1 and 4 tied second, seat 3 last
    got = pairs((0, 1, 0, 1), (1, 0, 2, 1))
    assert Counter(got) == Counter([(0, 1, 0.0), (0, 1, 0.5), (0, 1, 0.0), (0, 1, 0.0)])


# ------------------------------------------------------------------ ratings

def test_two_bots_rating_is_the_log_odds_with_the_prior():
    # 30 points of 40 for bot 1; one drawn virtual game: exp(gap) = 30.5 / 10.5
    games = [((0, 1, 0.0),)] * 30 + [((0, 1, 1.0),)] * 10
    theta = fit(*totals(games, 2))
    assert theta[1] - theta[0] == pytest.approx(math.log(30.5 / 10.5), abs=1e-8)
    assert sum(theta) == pytest.approx(0.0, abs=1e-9)


def test_ratings_of_a_synthetic_result_set_with_a_known_order():
    specs = ["weak", "middle", "strong", "best"]
    records = []
    for i in range(120):
        seats = seating(4, 4, i)
        # the stronger bot is placed better, but each bot's place is shaken by a fixed pattern
        noise = [(i * 7 + p * 3) % 5 for p in range(4)]
        score = [2.2 * seats[p] + noise[p] for p in range(4)]
        place = tuple(sorted(score, reverse=True).index(score[p]) for p in range(4))
        records.append((seats, place, tuple(p for p in range(4) if place[p] == 0)))
    r = rate(records, specs, rounds=50, seed=3)
    assert [b["bot"] for b in r.bots] == ["best", "strong", "middle", "weak"]
    elo = [b["elo"] for b in r.bots]
    assert elo == sorted(elo, reverse=True) and sum(elo) == pytest.approx(0.0, abs=1e-3)
    for b in r.bots:
        assert b["elo_low"] <= b["elo"] <= b["elo_high"]
        assert b["elo"] == pytest.approx(b["rating"] * ELO, abs=1e-4)
        assert b["seats"] == 120
    assert r.bots[-1]["elo_high"] < r.bots[0]["elo_low"]


def test_a_gap_with_its_interval():
    games = [((0, 1, 0.0),)] * 60 + [((0, 1, 1.0),)] * 20
    g = rating_gap(games, 2, strong=1, weak=0, rounds=100, seed=1)
    assert g["elo"] == pytest.approx(math.log(60.5 / 20.5) * ELO, abs=1e-3)
    assert 0 < g["elo_low"] < g["elo"] < g["elo_high"]


# ------------------------------------------------------------------ games

def test_random_is_below_greedy_on_meow(meow):
    r = ladder(meow, 4, ["random", "greedy"], 160, seed=1)
    assert [b["bot"] for b in r.bots] == ["greedy", "random"]
    greedy, rand = r.bots
    assert rand["elo_high"] < greedy["elo_low"]             # the intervals do not overlap
    assert greedy["win_share"] > rand["win_share"] and greedy["seats"] == rand["seats"] == 320
    assert r.unfinished == 0 and len(r.format_table().splitlines()) > 5
    assert max(len(line) for line in r.format_table().splitlines()) <= 80


def test_the_same_output_for_every_jobs(capsys):
    outs = []
    for jobs in (1, 2):
        code, out, err = run(capsys, "ladder", MEOW, "--bots", "random,greedy,bot:fast", "--players", 3,
                             "--games", 12, "--seed", 4, "--json", "--jobs", jobs)
        assert code == 0, err
        d = json.loads(out)
        d.pop("timing")
        outs.append(d)
    assert outs[0] == outs[1]
    assert outs[0]["games"] == 12 and {b["bot"] for b in outs[0]["ratings"]} == {"random", "greedy", "bot:fast"}


def test_the_table_on_the_command_line(capsys):
    code, out, err = run(capsys, "ladder", MEOW, "--games", 4, "--players", 2)
    assert code == 0, err
    assert "rank  bot" in out and "95% interval" in out and "bootstrap" in out
    assert max(len(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("bots,words", [
    ("random,foo", "unknown seat spec 'foo'"),
    ("random", "a ladder needs two bots or more"),
    ("random,random", "the bot 'random' is listed twice"),
    ("random,ismcts:0x", "unknown budget '0x'"),
    ("human,random", "the ladder rates bots"),
    ("random,,greedy", "has an empty seat"),
])
def test_bad_bot_specs_are_told_in_words(capsys, bots, words):
    code, out, err = run(capsys, "ladder", MEOW, "--bots", bots, "--games", 2)
    assert code == 2 and words in err and "Traceback" not in err and "Error" not in err


def test_bad_arguments_of_the_function(meow):
    with pytest.raises(ValueError, match="two bots or more"):
        ladder(meow, 4, ["greedy"], 4)
    with pytest.raises(ValueError, match="at least 1"):
        ladder(meow, 4, ["greedy", "random"], 0)


def test_the_balance_lab_gives_the_ladder_gap_of_its_skill_games(meow):
    from catrules.lab.balance import balance
    res = balance(meow, 4, 8, seed=1, skill_games=40).to_dict()["results"][0]["skill"]
    gap = res["rating_gap"]
    assert gap["elo_low"] <= gap["elo"] <= gap["elo_high"] and "bootstrap" in gap["method"]
    assert gap["elo"] == pytest.approx(gap["rating"] * ELO, abs=1e-4)
    assert f"greedy rates {gap['elo']:+.0f} Elo above random" in res["verdict"]["text"]
    assert (gap["elo"] > 0) == (res["rate"] > res["fair_share"])    # more wins than its share: rated above
