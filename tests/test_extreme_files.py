"""Extreme game files and games that never end: parameters named twice, `pick` cases that are
not fixed values, loops with no way out (a warning), and the decision budget of `simulate` and
of `play` with bots only.  The probe of every extreme case is tools/probe_extreme.py."""

import json
import sys
from pathlib import Path

import pytest

from catrules import api
from catrules.cli import main
from catrules.errors import GameFileError
from catrules.lab.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent

BASE = """\
catrules 3
game "Extreme"
players 2 to 4

cards number in deck:
    for each colour in red, green:
        for each value in 1 to 5:
            card

zone deck: shared, hidden, pile
zone hand: per player, public, pile

counter pot = 0
counter k = 2

"""
ENDLESS = """\
flow:
    shuffle deck
    repeat while true:
        for each player p:
            p chooses c from [1, 2]
            BODY

score:
    points = count(hand)
"""


def endless(body="pot = c", decls=""):
    return BASE + decls + ENDLESS.replace("BODY", body)


def errors(source):
    with pytest.raises(GameFileError) as info:
        api.load_source(source, "x.cat")
    return [d for d in info.value.diagnostics if d.severity == "error"]


def warnings(source):
    return [str(w) for w in api.load_source(source, "x.cat").warnings]


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")


# ------------------------------------------------------------ parameters and pick

@pytest.mark.parametrize("decl, use, kind", [
    ("define f(a, a) = a\n\n", "pot = f(1, 2)", "definition"),
    ("action f(a, b, a):\n    pot = a\n\n", "do f(1, 2, 3)", "action"),
])
def test_a_parameter_named_twice_is_located(decl, use, kind):
    d, = errors(BASE + decl + ENDLESS.replace("repeat while true", "repeat 1 times").replace("BODY", use))
    assert d.line == 16 and d.message == f"{kind} `f` names the parameter `a` twice"


def test_a_pick_case_that_is_a_counter_warns_with_a_hint():
    w, = warnings(BASE + ENDLESS.replace("repeat while true", "repeat 1 times").replace(
        "BODY", "pot = pick(c, k: 2, else: 3)"))
    assert "x.cat:21:27:" in w and "the case `k` of `pick` is compared with the value of counter `k`" in w
    assert "hint: write the value itself" in w


def test_a_pick_case_that_hides_a_card_value_is_an_error():
    d, = errors(BASE + "define f(c, red) = pick(c.colour, red: 1, else: 2)\n\n" +
                ENDLESS.replace("repeat while true", "repeat 1 times").replace("BODY", "pot = c"))
    assert d.line == 16 and "the case `red` of `pick` is the variable `red` here, not the card value" in d.message


def test_pick_cases_that_are_values_say_nothing():
    assert warnings(BASE + "define f(c) = pick(c.colour, red: 1, green: 2)\n\n" +
                    ENDLESS.replace("repeat while true", "repeat 1 times").replace("BODY", "pot = pick(c, 1: 2)")) \
        == []


# ------------------------------------------------------------ loops with no way out

@pytest.mark.parametrize("source", [
    endless(),
    endless().replace("repeat while true", "repeat until false"),
    endless("if c == 2:\n                stop"),         # leaves only the `for each`
    endless(decls="action a():\n    pot = 1\n\n", body="do a()"),
])
def test_a_loop_with_no_way_out_warns(source):
    w, = warnings(source)
    line = source.splitlines().index("    repeat " + source.split("    repeat ")[1].split("\n")[0]) + 1
    assert f"x.cat:{line}:5: warning: this `repeat" in w and "has no way out" in w and "hint: add `stop`" in w


@pytest.mark.parametrize("source", [
    endless("if c == 2:\n                end game"),
    endless(decls="action a():\n    end game\n\naction b():\n    do a()\n\n", body="if c == 2:\n"
            "                do b()"),
    endless(decls="phase last:\n    end game\n\n", body="if c == 2:\n                play last"),
    endless().replace("        for each player p:\n", "        if pot == 2:\n            stop\n"
                      "        for each player p:\n"),
    endless().replace("repeat while true", "repeat while pot < 2"),
    endless(decls="when card x enters hand of p:\n    end game\n\n"),
])
def test_a_loop_with_a_way_out_says_nothing(source):
    assert warnings(source) == []


def test_a_game_capped_by_a_counter_ends_and_is_scored():
    capped = endless().replace("    repeat while true:\n", "    repeat while true:\n        pot = pot + 1\n"
                               "        if pot > 30:\n            end game\n").replace("            pot = c\n", "")
    assert warnings(capped) == []
    res = simulate(api.load_source(capped, "x.cat"), players=2, games=3, seed=1, max_decisions=1000)
    assert res.unfinished == 0 and res.decisions_mean == 60


# ------------------------------------------------------------ the decision budget

def unproved():
    """endless() with a loop the checker cannot prove endless: only the budget stops it."""
    return endless().replace("repeat while true:", "repeat until pot < 0:")


def test_simulate_counts_games_past_the_budget_as_unfinished():
    game = api.load_source(unproved(), "x.cat")
    res = simulate(game, players=2, games=3, seed=1, max_decisions=40)
    assert res.unfinished == 3 and res.max_decisions == 40
    assert all(s.wins == 0 and s.score_min is None for s in res.seats)
    assert "unfinished: 3 games stopped past 40 decisions" in res.format_table()
    d = res.to_dict()
    assert d["unfinished_games"] == 3 and d["max_decisions"] == 40


def test_a_game_that_ends_is_not_unfinished():
    game = api.load_source(endless("if c == 2:\n                end game"), "x.cat")
    res = simulate(game, players=2, games=20, seed=1, max_decisions=500)
    assert res.unfinished == 0 and sum(s.wins for s in res.seats) >= 20
    assert "unfinished" not in res.format_table()


def test_the_budget_must_be_a_whole_number_of_at_least_one():
    game = api.load_source(endless(), "x.cat")
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="decision budget"):
            simulate(game, players=2, games=1, seed=1, max_decisions=bad)


def test_cli_simulate_and_play_with_bots_use_the_budget(capsys, tmp_path):
    path = tmp_path / "endless.cat"
    path.write_text(unproved(), encoding="utf-8")
    assert main(["simulate", str(path), "--games", "2", "--players", "2", "--max-decisions", "30", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["unfinished_games"] == 2
    code = main(["play", str(path), "--seats", "random,random", "--seed", "1", "--quiet", "--max-decisions", "30"])
    out, err = capsys.readouterr()
    assert code == 1 and "more than 30 decisions without ending: the game was stopped, unfinished" in err
    assert "Traceback" not in out + err
    assert main(["simulate", str(path), "--max-decisions", "0"]) == 2
    assert "--max-decisions must be 1 or more" in capsys.readouterr().err


def test_a_loop_proved_endless_stops_bots_alone_before_the_budget(capsys, tmp_path):
    path = tmp_path / "endless.cat"
    path.write_text(endless(), encoding="utf-8")
    res = simulate(api.load_source(endless(), "x.cat"), players=2, games=2, seed=1, max_decisions=40)
    # Match.new starts a game of bots inside the match's run: the decision asked as the loop is
    # entered is answered before the budget's check sees the loop, so at most 1 is counted
    assert res.unfinished == 2 and res.decisions_mean <= 1
    code = main(["play", str(path), "--seats", "random,random", "--seed", "1", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "entered the loop of line 18, which has no way out" in err and "stopped at once" in err


# ------------------------------------------------------------ other extreme files

def test_a_score_item_that_is_none_counts_nothing_and_lowest_ties():
    src = BASE + ENDLESS.replace("repeat while true", "repeat 1 times").replace("BODY", "pot = c") \
        .replace("count(hand)", "none") + "\nwinner:\n    lowest total\n"
    game = api.load_source(src, "x.cat")
    st = game.new_state(2, seed=1)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id, None)
    assert [r["total"] for r in st.scores()] == [0, 0] and st.winners() == [0, 1]


def test_the_probe_of_extreme_files_runs_clean(capsys):
    sys.path.insert(0, str(ROOT / "tools"))     # for the probe's spawned children too
    try:
        import probe_extreme
        assert probe_extreme.main(["--only", "f(a, a)", "--timeout", "60"]) == 0
    finally:
        sys.path.pop(0)
    out = capsys.readouterr().out
    assert out.count("rejected") == 2 and "failures: 0" in out


def test_a_counted_score_item_must_be_a_number():
    src = BASE + "flow:\n    do nothing\nscore:\n    stars = (hand where value > 2)\n    note shown = hand\n"
    with pytest.raises(GameFileError) as exc:
        api.load_source(src, "t.cat")
    (d,) = exc.value.diagnostics
    assert "score item `stars` adds up to the total" in d.message and "`note`" in d.hint


def test_a_huge_count_of_cards_to_choose_is_refused_where_it_is_written():
    src = BASE + "flow:\n    for each player p:\n        p chooses " + "9" * 400 + " cards c from deck\n"
    with pytest.raises(GameFileError) as exc:
        api.load_source(src, "t.cat")
    d = exc.value.diagnostics[0]
    assert "a number larger than" in d.message and d.line == BASE.count("\n") + 3
