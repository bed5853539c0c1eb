"""Races fair to people: bots' race times are modelled on people's, and a person can win.

A test seat stands in for a person: it answers every race with scripted times (the times a
person at a keyboard takes) and everything else like the random bot.  Against default bots
in many seeded races it must win about as often as they do; a handicap must change that as
documented (it comes off the person's time, never below zero) and be kept by a saved game.
Bots' race times do not depend on the bot's kind, so the cheap random bot stands in for the
greedy default bot in the long runs (test_default_bots_draw_the_same_times checks that).
"""

import io
import itertools
import json
import statistics
import sys
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import GreedyBot, RandomBot, make_seat
from catrules.cli import main
from catrules.play.seats import Choice, Seat
from catrules.play.match import Match
from catrules.play.reflexes import REFLEXES, hick_time, reflex_median

ROOT = Path(__file__).resolve().parents[1]
FLAPCAT = ROOT / "games" / "flapcat.cat"
RACE = ROOT / "tests" / "games" / "race.cat"

# Four cards lie open and everyone races to touch one, 200 times (every race has four options).
FOUR_CARD_RACE = ROOT / "tests" / "games" / "four_card_race.cat"


@pytest.fixture(scope="module")
def four():
    return catrules.load_game(FOUR_CARD_RACE)


@pytest.fixture(scope="module")
def flapcat():
    return catrules.load_game(FLAPCAT)


class Person(Seat):
    """A stand-in for a person: race times from ``times`` in turn, other choices at random."""

    name = "person"
    wants_events = False

    def __init__(self, times, handicap: float = 0.0):
        self.times = itertools.cycle(times)
        self.handicap = handicap

    def decide(self, view, decision) -> Choice:
        options = decision.options
        option = options[self.table.rng.randrange(len(options))].id
        return Choice(option, next(self.times) if decision.timed else None)


def play(game, players, seed, person, bots="random"):
    state = game.new_state(players, seed=seed, log=True)
    Match(game, state, [person] + [make_seat(bots) for _ in range(players - 1)]).run()
    assert state.finished
    return state


def races_won(game, players, seeds, person_times, line=None, handicap=0.0):
    """(races the person won, races the person ran against at least one bot)."""
    won = ran = 0
    for seed in seeds:
        state = play(game, players, seed, Person(person_times, handicap))
        for ev in state.log:
            if ev["t"] != "race" or (line is not None and ev["line"] != line) or len(ev["choices"]) < 2:
                continue
            if any(ch["player"] == 0 for ch in ev["choices"]):
                ran += 1
                won += ev["choices"][0]["player"] == 0
    return won, ran


def slap_line() -> int:
    lines = FLAPCAT.read_text().splitlines()
    return next(i for i, ln in enumerate(lines, 1) if "race each player p chooses c from table" in ln)


# ------------------------------------------------------------------ the model

def draws(reflex, options, n=4000, seed=3):
    game = catrules.load_game(RACE)
    m = Match(game, game.new_state(2, seed=seed), [RandomBot(), RandomBot()])
    return [m.reaction_time(reflex, options) for _ in range(n)]


def test_default_bot_times_are_skewed_like_peoples_around_0_6_s():
    times = draws("normal", 4)
    median = statistics.median(times)
    assert 0.57 <= median <= 0.63
    assert statistics.mean(times) > median              # a long tail of slow answers, as people have
    assert min(times) >= 0.1
    assert sum(t < 0.35 for t in times) / len(times) < 0.05   # hardly ever faster than a simple reaction
    assert sum(t > 0.9 for t in times) / len(times) > 0.03    # and sometimes slow


def test_more_options_take_longer_by_the_hick_hyman_law():
    medians = [statistics.median(draws("normal", k, n=1500)) for k in (1, 2, 4, 8)]
    assert medians == sorted(medians) and medians[0] < 0.45 < 0.75 < medians[-1] + 0.05
    assert reflex_median("normal", 4) == pytest.approx(REFLEXES["normal"])
    assert hick_time(4) - hick_time(1) == pytest.approx(0.15 * (2.3219 - 1), abs=1e-3)


def test_reflexes_order_the_bots_and_a_number_is_the_median():
    assert REFLEXES["fast"] < REFLEXES["normal"] < REFLEXES["slow"]
    assert statistics.median(draws(0.8, 4, n=2000)) == pytest.approx(0.8, abs=0.04)
    assert statistics.median(draws("fast", 4, n=2000)) < statistics.median(draws("slow", 4, n=2000))


def test_a_seat_spec_sets_the_reflex_in_seconds():
    bot = make_seat("greedy:0.8")
    assert isinstance(bot, GreedyBot) and bot.reflex == 0.8 and bot.name == "greedy:0.8"
    assert make_seat("random:slow").name == "random:slow" and make_seat("bot:0.6s").reflex == 0.6
    with pytest.raises(ValueError, match="faster than people answer"):
        make_seat("bot:0.1")
    with pytest.raises(ValueError, match="from 0.15 to 5"):
        make_seat("bot:seven")


def test_same_seed_same_times(four):
    a = play(four, 3, 7, Person([0.6]))
    b = play(four, 3, 7, Person([0.6]))
    c = play(four, 3, 8, Person([0.6]))
    assert a.history == b.history
    assert a.history != c.history


def test_default_bots_draw_the_same_times(four):
    # the greedy bot (the default seat) and the random bot draw race times alike
    a = play(four, 2, 5, Person([0.6]), bots="greedy")
    b = play(four, 2, 5, Person([0.6]), bots="random")
    times = lambda st: [h[2] for h in st.history if h[0] == 1]
    assert times(a) == times(b)


# ------------------------------------------------------------ a person can win

def test_a_person_at_0_6_s_wins_about_half_of_two_player_races(four):
    share = {}
    for t in (0.5, 0.6, 0.7):
        won, ran = races_won(four, 2, range(3), [t])
        assert ran == 600
        share[t] = won / ran
    assert 0.35 <= share[0.6] <= 0.65
    assert share[0.5] > share[0.6] > share[0.7]
    assert share[0.7] > 0.1                 # even a slowish person wins some


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_person_wins_a_fair_share_of_flapcat_slaps(flapcat, players):
    # a person answering in 0.5 to 0.7 s, against default bots
    won, ran = races_won(flapcat, players, range(12), [0.5, 0.6, 0.7], line=slap_line())
    assert ran >= 100
    fair = 1 / players
    assert fair / 2 <= won / ran <= fair * 1.5, (won, ran)


# ------------------------------------------------------------------ handicap

def test_a_handicap_is_taken_off_the_persons_time(four):
    slow = play(four, 2, 4, Person([0.8], handicap=0.2))
    quick = play(four, 2, 4, Person([0.6]))
    assert slow.history == quick.history        # 0.8 s less 0.2 s races exactly as 0.6 s does
    without, _ = races_won(four, 2, [4], [0.8])
    with_it, _ = races_won(four, 2, [4], [0.8], handicap=0.2)
    assert with_it > without * 2


def test_a_handicap_never_makes_a_time_negative(four):
    state = play(four, 2, 1, Person([0.1], handicap=0.5))
    mine = [h[2] for h in state.history if h[0] == 0]
    assert mine and all(t == 0.0 for t in mine)


def _run(capsys, monkeypatch, *argv, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_handicap_is_saved_and_kept_on_resume(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    monkeypatch.setenv("NO_COLOR", "1")
    code, out, err = _run(capsys, monkeypatch, "play", RACE, "--seats", "human,random", "--seed", "3",
                          "--handicap", "2")
    assert code == 1, err                      # the input ended at once: the game is saved
    save = tmp_path / "race-3.save.json"
    assert json.loads(save.read_text())["cli"]["handicap"] == 2.0
    code, out, err = _run(capsys, monkeypatch, "play", "--resume", save, "--log", "game.jsonl", stdin="\n" * 40)
    assert code == 0, err
    events = [json.loads(x) for x in Path("game.jsonl").read_text().splitlines()]
    mine = [e["time"] for e in events if e.get("event") == "decision" and e["player"] == 0 and "time" in e]
    # a script answers at once, far within the 2 s handicap: with the handicap kept, every time is 0
    assert mine and all(t == 0.0 for t in mine)


@pytest.mark.parametrize("value", ["3", "-0.1", "nan", "soon"])
def test_play_rejects_a_bad_handicap(capsys, monkeypatch, tmp_path, value):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CATRULES_FORCE_TTY", "1")
    code, out, err = _run(capsys, monkeypatch, "play", RACE, "--seats", "human,random", "--handicap", value)
    assert code == 2
    assert "--handicap" in err and "from 0 to 2" in err and "hint:" in err and "Traceback" not in err
