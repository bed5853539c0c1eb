"""Flap Cat! as a whole: random games at every player count, checked at every step, and the
game end to end through the command line and the bots.

Properties (rule ids from the checklist): cards are conserved (all 73, or 69 plus the 4 PAWS IN!
left in the box with 2 players, F17); every cat is a valid line (at most one head, at the start;
at most one tail, at the end, F07); chains of DRAW/DONATE end (F11: the game reaches its end,
the engine's chain guard never fires); views are clean (before a reveal no one sees another
player's chosen card, F04; hands and piles are hidden).
"""

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import catrules
from catrules.bots.basic import make_seat
from catrules.runtime.state import cards_in
from catrules.play.match import Match
from catrules.testing import zone

ROOT = Path(__file__).resolve().parents[1]
GAME = catrules.load_game(ROOT / "games" / "flapcat.cat")
PROG = GAME.program
OPTIONS = sorted(GAME.options)


def part(c):
    return PROG.card_attrs[c]["part"]


def check_cats(st):
    for p in range(st.n):
        for line in zone(st, "cats", p):
            parts = [part(c) for c in line]
            assert line, "an empty cat"
            assert all(x in ("head", "middle", "tail") for x in parts), f"not a cat piece in a cat: {parts}"
            assert parts.count("head") <= 1 and parts.count("tail") <= 1, parts
            if "head" in parts:
                assert parts[0] == "head", parts
            if "tail" in parts:
                assert parts[-1] == "tail", parts
        for c in zone(st, "beside", p):
            assert part(c) in ("rat", "fish_bone")
        for c in zone(st, "covered", p):
            assert part(c) in ("head", "tail")


def visible_ids(view):
    ids = set()
    for z in view["zones"]:
        for c in z.get("cards") or []:
            ids.add(c["id"])
        for line in z.get("lines") or []:
            ids.update(c["id"] for c in line)
    return ids


def play_random(players, seed, options=(), check=True):
    st = GAME.new_state(players=players, seed=seed, options=options)
    rng = random.Random(seed)
    steps = 0
    while not st.finished:
        if check:
            assert sorted(c for z in st.z for c in cards_in(z)) == list(range(PROG.card_count))
            check_cats(st)
        ds = st.pending()
        assert ds, "stuck"
        if check and st.pending_["kind"] == "secret":
            # F04: a player who has chosen still holds the card in hand, where nobody else looks;
            # no one else's view shows it anywhere
            chosen = [pl for pl in st.pending_["players"] if st.pending_["chosen"][pl] != "?"]
            for pl in chosen:
                card = st.pending_["chosen"][pl]
                for other in range(players):
                    if other != pl:
                        assert card not in visible_ids(st.view(other))
                        assert "my_choice" not in st.view(other) or other in chosen
        d = ds[rng.randrange(len(ds))]
        o = d.options[rng.randrange(len(d.options))]
        st.apply(d.player, o.id, rng.random() if d.timed else None)
        steps += 1
        assert steps < 3000
    return st


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                HealthCheck.function_scoped_fixture])
@given(seed=hs.integers(0, 10 ** 6), opts=hs.sets(hs.sampled_from(OPTIONS)))
def test_random_games_keep_cards_cats_and_secrets(players, seed, opts):
    st = play_random(players, seed, sorted(opts))
    assert st.c["#tallies"] == 3                                  # F16: three rounds
    if players == 2:                                              # F17: PAWS IN! left out
        assert sorted(zone(st, "box")) == sorted(c for c in range(PROG.card_count)
                                                 if PROG.card_attrs[c].get("icon") == "paws_in")
    else:
        assert zone(st, "box") == []
    scores = st.scores()
    assert [r["total"] for r in scores] == [sum(v for k, v in r.items() if k not in ("total", "one_colour_pieces"))
                                           for r in scores]
    assert st.winners()


def source_line(text):
    """The number of the one line of games/flapcat.cat holding ``text``."""
    lines = (ROOT / "games" / "flapcat.cat").read_text().splitlines()
    found = [i for i, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, (text, found)
    return found[0]


def test_random_play_reaches_paws_in_swap_races_and_donations():
    """The random games above do reach the interesting parts (so the properties are checked
    where they matter): PAWS IN! races, SWAP races and cards given from hand to another area."""
    paws_line = source_line('race each player p in others(first(pawing))')
    swap_line = source_line('race each player p in swapping')
    seen = {"paws": 0, "swap": 0, "given": 0}
    for seed in range(12):
        st = GAME.new_state(players=4, seed=seed, log=True)
        rng = random.Random(seed)
        while not st.finished:
            d = st.pending()[0]
            st.apply(d.player, d.options[rng.randrange(len(d.options))].id, rng.random() if d.timed else None)
        for ev in st.log:
            if ev["t"] == "race":
                seen["paws"] += ev["line"] == paws_line
                seen["swap"] += ev["line"] == swap_line
            if ev["t"] == "move" and ev["from"].startswith("hand of") and \
                    ev["to"].startswith(("cats of", "beside of")) and ev["from"][-1] != ev["to"][-1]:
                seen["given"] += 1
    assert seen["paws"] > 0 and seen["swap"] > 0 and seen["given"] > 0, seen


def test_saving_mid_step_resumes_the_same_game():
    st = GAME.new_state(players=3, seed=11)
    rng = random.Random(1)
    for _ in range(60):
        d = st.pending()[0]
        st.apply(d.player, d.options[rng.randrange(len(d.options))].id, rng.random() if d.timed else None)
    saved = json.loads(json.dumps(st.to_dict()))
    a, b = st, GAME.restore(saved)
    for _ in range(200):
        if a.finished:
            break
        d = a.pending()[0]
        o = d.options[rng.randrange(len(d.options))].id
        t = rng.random() if d.timed else None
        a.apply(d.player, o, t)
        b.apply(d.player, o, t)
    assert a.z == b.z and a.c == b.c


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_bot_beats_random_bots(players):
    """The generic greedy bot, judging moves by the game's own score, builds cats."""
    wins = 0
    for seed in range(4):
        seats = [make_seat("greedy")] + [make_seat("random") for _ in range(players - 1)]
        st = GAME.new_state(players=players, seed=seed)
        Match(GAME, st, seats).run()
        wins += 0 in st.winners()
    assert wins >= 3


def test_cli_simulate_flapcat_with_bots(tmp_path):
    out = subprocess.run([sys.executable, "-m", "catrules", "simulate", "games/flapcat.cat", "--players", "4",
                          "--games", "6", "--bots", "random,greedy,random,random", "--seed", "3", "--json"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["games"] == 6


def test_cli_play_flapcat_with_bots_and_every_option(tmp_path):
    log = tmp_path / "g.jsonl"
    out = subprocess.run([sys.executable, "-m", "catrules", "play", "games/flapcat.cat", "--seats",
                          "random,bot:fast,bot:slow", "--seed", "8", "--option", "advanced", "--log", str(log)],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "Score after round 3" in out.stdout and "Final score" in out.stdout
    events = [json.loads(x) for x in log.read_text().splitlines()]
    assert sum(1 for e in events if e.get("event") == "tally") == 3
