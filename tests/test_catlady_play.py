"""Whole games of Cat Lady (games/catlady.cat): bots finish them, the command line
simulates them, and the end-of-game feeding is consistent.

The feeding (C10) is checked on finished games against what the checklist
says, not against the game file's own definitions: every fed cat's meal is one
it may eat, the cubes eaten are exactly those meals (wild cubes, and with
Moonbeam two spare cubes, standing for any food), no hungry cat could still be
fed from the cubes left over, and the score items that follow from the
feeding agree.  How long feeding takes is measured by
``python benchmarks/run.py --feeding``, never asserted here.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.cli import main
from catrules.play.replay import replay
from catrules.play.match import Match
from catrules.testing import zone

ROOT = Path(__file__).resolve().parents[1]
CATLADY = ROOT / "games" / "catlady.cat"
KINDS = ("chicken", "tuna", "milk")

#: Seats of the bot games, per player count: greedy and random bots together.
SEATS = {
    2: ["greedy", "random"],
    3: ["random", "greedy:fast", "random"],
    4: ["greedy", "random", "random", "greedy"],
}


@pytest.fixture(scope="module")
def catlady():
    return catrules.load_game(CATLADY)


# ------------------------------------------------------------------ helpers

def play_random(game, players, seed):
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
        assert st.decisions < 1000, "the game does not end"
    return st


def play_bots(game, specs, seed):
    st = game.new_state(len(specs), seed=seed)
    Match(game, st, [make_seat(s) for s in specs]).run()
    return st


def possible_meals(game, cat, cubes_held):
    """What a cat may be fed (C10, C17): its printed food; Waffle 1 to 4 cubes of one
    kind; Cow any number of cubes (at least one); Truffle one cube."""
    a = game.card(cat)
    if a["name"] == "Waffle":
        return [[k] * n for k in KINDS for n in range(1, 5)]
    if a["name"] == "Cow":
        return [["anything"] * n for n in range(1, cubes_held + 1)]
    if a["name"] == "Truffle":
        return [[k] for k in KINDS]
    return [list(a["eats"])]


def can_serve(flavours, needs, spare=0):
    """Whether cubes of these flavours can meet these needs, one cube a need (some cubes
    may be left over): a cube meets its own kind, a wild cube any need, and up to
    ``spare`` cubes any need (Moonbeam); the need ``anything`` takes any cube."""
    if len(needs) > len(flavours):
        return False
    wild = flavours.count("wild")
    short = sum(max(0, needs.count(k) - flavours.count(k)) for k in KINDS)
    extra = sum(max(0, flavours.count(k) - needs.count(k)) for k in KINDS)
    return short <= wild + min(spare, extra)


def check_feeding(game, st):
    """The end-of-game feeding of a finished game is consistent (C10, C11, C14, C17)."""
    assert st.finished
    meal = st.c["meal"]
    scores = st.scores()
    owner = {}
    left_over = []
    for p in range(st.n):
        cats, eaten, left = zone(st, "cats", p), zone(st, "eaten", p), zone(st, "cubes", p)
        owner.update({c: p for c in cats})
        held = len(eaten) + len(left)
        fed = [c for c in cats if meal[c] is not None]
        hungry = [c for c in cats if meal[c] is None]
        for c in fed:
            assert list(meal[c]) in possible_meals(game, c, held), \
                f"{game.card(c)['name']} of player {p + 1} was fed {meal[c]}"
        needs = [x for c in fed for x in meal[c]]
        assert len(eaten) == len(needs), f"player {p + 1} ate {len(eaten)} cubes for meals of {len(needs)}"
        assert all(game.card(c)["type"] == "cube" for c in eaten + left)
        spare = 2 if any(game.card(c)["name"] == "Moonbeam" for c in cats) else 0
        flavours = [game.card(c)["flavour"] for c in eaten]
        assert can_serve(flavours, needs, spare), f"player {p + 1}'s cubes {flavours} cannot serve {needs}"
        # the best feeding never leaves a cat hungry that the cubes left over could feed
        rest = [game.card(c)["flavour"] for c in left]
        for c in hungry:
            for m in possible_meals(game, c, held):
                assert not can_serve(rest, m), \
                    f"player {p + 1} left {game.card(c)['name']} hungry with {rest} left over"
        row = scores[p]
        assert row["cats_fed"] == len(fed)
        assert row["fed_cats"] == sum(game.card(c)["vp"] for c in fed)
        assert row["unfed_cats"] == -2 * len(hungry)
        left_over.append(len(left))
    for c, m in enumerate(meal):                     # only cats in front of a player are fed
        if m is not None:
            assert c in owner
    most = max(left_over)
    for p in range(st.n):                            # C11 (ruling: no penalty when nobody has a cube)
        assert scores[p]["food_penalty"] == (-2 if left_over[p] == most > 0 else 0)
    cubes = [c for c in range(game.card_count) if game.card(c)["type"] == "cube"]
    held_somewhere = set(zone(st, "supply"))
    for p in range(st.n):
        held_somewhere |= set(zone(st, "cubes", p)) | set(zone(st, "eaten", p))
    assert held_somewhere == set(cubes)


# -------------------------------------------------------------- the checks

def test_can_serve_counts_wilds_and_spare_cubes():
    assert can_serve(["tuna", "wild"], ["tuna", "milk"])
    assert not can_serve(["tuna", "tuna"], ["tuna", "milk"])
    assert can_serve(["tuna", "tuna"], ["tuna", "milk"], spare=2)
    assert not can_serve(["milk"], ["milk", "milk"], spare=2)
    assert can_serve(["milk", "chicken"], ["anything", "milk"])
    assert not can_serve(["milk", "chicken"], ["anything", "tuna"])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_with_a_consistent_feeding(catlady, players):
    fed = 0
    for seed in range(40):
        st = play_random(catlady, players, seed)
        check_feeding(catlady, st)
        fed += sum(1 for m in st.c["meal"] if m is not None)
    assert fed > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_greedy_and_random_bots_finish_games(catlady, players):
    for seed in (1, 2):
        st = play_bots(catlady, SEATS[players], seed)
        assert st.finished and st.c["last_turn"]
        check_feeding(catlady, st)
        scores = st.scores()
        assert len(scores) == players and all(isinstance(s["total"], int) for s in scores)
        assert st.winners() and set(st.winners()) <= set(range(players))


def test_bot_games_are_deterministic_for_a_seed(catlady):
    a = play_bots(catlady, SEATS[3], 5)
    b = play_bots(catlady, SEATS[3], 5)
    assert a.history == b.history and a.scores() == b.scores() and a.c == b.c


def test_cli_simulates_four_players_deterministically(capsys, tmp_path):
    argv = ["simulate", str(CATLADY), "--players", "4", "--games", "20", "--seed", "3",
            "--bots", "random,greedy,random,random", "--json"]
    results = []
    for log in (None, tmp_path / "sim.jsonl"):
        code = main(argv + (["--log", str(log)] if log else []))
        out, err = capsys.readouterr()
        assert code == 0, err
        results.append(json.loads(out))
    a, b = results
    assert a.pop("timing") and b.pop("timing")
    assert a.pop("log") is None and b.pop("log") == str(tmp_path / "sim.jsonl")
    assert a == b                                     # the same seed, the same 20 games
    assert a["game"] == "Cat Lady" and a["players"] == 4 and a["games"] == 20
    assert [s["spec"] for s in a["seats"]] == ["random", "greedy", "random", "random"]
    assert sum(s["wins"] for s in a["seats"]) >= 20 and a["decisions_mean"] > 20
    report = replay(tmp_path / "sim.jsonl")          # the log of the 20 games replays exactly
    assert report.ok and len(report.games) == 20, report.format()


def test_benchmark_feeding_situations_are_what_they_say(catlady):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import catlady_feeding
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    for name in catlady_feeding.SITUATIONS:
        st = catlady_feeding.build(catlady, name)
        holders = [p for p in range(4) if zone(st, "cats", p)]
        assert sum(len(zone(st, "cats", p)) for p in range(4)) == (18 if name.endswith("-18") else 12)
        assert sum(len(zone(st, "cubes", p)) for p in range(4)) == 20
        assert len(holders) == (4 if name == "spread" else 1)
        assert zone(st, "deck") == [] and not any(c is not None for c in zone(st, "market"))
        cats = [c for p in range(4) for c in zone(st, "cats", p)]     # could be in one game:
        assert sum(1 for c in cats if catlady.card(c)["type"] == "stray") <= 3     # C02: 3 strays
    # the spread situation feeds quickly: play it out (the one-player one is the slow worst case)
    st = catlady_feeding.feed(catlady_feeding.build(catlady, "spread"))
    check_feeding(catlady, st)
    assert sum(1 for m in st.c["meal"] if m is not None) >= 4
