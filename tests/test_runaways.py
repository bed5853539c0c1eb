"""Runaways stop in bounded time through the command line, with the default limits and greedy
seats (issue 29): a loop that nobody decides in, and games that never end.

The limits are counts of work (loop rounds, decisions), not times; the wall bound asserted
here is the issue's requirement ("stops within 10 s on this machine"), with a generous margin
for a slow, shared machine.
"""

import sys
import time
from pathlib import Path

import pytest

from catrules import cli, limits
from catrules.api import load_game

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "games"
# the games that never end are kept out of tests/games/*.cat: the tests that play every test game
# there to its end (with no decision budget) would never end either
#: Generous: the issue asks for 10 s on the development machine.
WALL = 60.0


def run_cli(capsys, *argv):
    start = time.perf_counter()
    code = cli.main([str(a) for a in argv])
    took = time.perf_counter() - start
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and "Error:" not in err, err
    return code, out, err, took


def test_a_loop_nobody_decides_in_stops_with_its_line(capsys):
    code, _out, err, took = run_cli(capsys, "play", GAMES / "never_ending" / "lost_move.cat", "--seats", "greedy,greedy",
                                    "--seed", "1", "--quiet")
    assert code == 1
    assert f"ran {limits.STEP_LIMIT:,} loop rounds without anyone deciding anything" in err
    assert "lost_move.cat:20:" in err
    assert took < WALL, took


# endless_growing_until.cat: the state grows every round (each look-ahead dearer than the last)
# and the checker cannot prove the loop endless; greedy seats stop looking ahead past
# LOOKAHEAD_DECISIONS, so the game reaches the decision budget in seconds (it took 12.8 s)
@pytest.mark.parametrize("command", ["play", "simulate"])
@pytest.mark.parametrize("game", ["endless_until.cat", "endless_growing_until.cat"])
def test_a_game_that_never_ends_stops_at_the_decision_budget(capsys, command, game):
    extra = ["--quiet"] if command == "play" else ["--games", "1", "--players", "2"]
    code, out, err, took = run_cli(capsys, command, GAMES / "never_ending" / game, "--seats", "greedy,greedy",
                                   "--seed", "1", *extra)
    if command == "play":
        assert code == 1
        assert f"more than {limits.DECISION_LIMIT:,} decisions without ending" in err
    else:
        assert code == 0
        assert f"stopped past {limits.DECISION_LIMIT:,} decisions" in out
    assert took < WALL, took


def test_ismcts_playouts_of_a_game_that_never_ends_stop(capsys):
    # without the playout limit, the search's first imagined game would never end
    code, _out, err, took = run_cli(capsys, "play", GAMES / "never_ending" / "endless_until.cat", "--seats", "ismcts:20,random",
                                    "--seed", "1", "--quiet", "--max-decisions", "20")
    assert code == 1 and "more than 20 decisions without ending" in err
    assert took < WALL, took


def test_the_web_referee_stops_bots_alone_at_the_decision_budget():
    from catrules.api import load_game
    from catrules.bots.basic import make_seat
    from catrules.errors import RulesError
    from catrules.play.core import Referee
    game = load_game(GAMES / "never_ending" / "endless_until.cat")
    st = game.new_state(2, seed=1, log=True)
    seats = [make_seat("random"), make_seat("random")]

    class Table:                     # what a seat's start() is given: the match's seeded source
        import random as _r
        rng = _r.Random(1)
    for i, s in enumerate(seats):
        s.start(Table, i)
    ref = Referee(st, seats)
    with pytest.raises(RulesError, match=f"more than {limits.DECISION_LIMIT:,} decisions in a row"):
        ref.advance()


@pytest.mark.parametrize("seats", ["greedy,greedy", "ismcts,ismcts", "random,ismcts"])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_bots_alone_stop_at_once_in_a_loop_the_checker_proved_endless(capsys, command, seats):
    # endless.cat's `repeat while true` has no way out: the checker warns of it, and bots alone
    # stop as soon as they enter it, before a searching one spends a decision on it
    extra = ["--quiet"] if command == "play" else ["--games", "1", "--players", "2"]
    code, out, err, took = run_cli(capsys, command, GAMES / "never_ending" / "endless.cat", "--seats", seats,
                                   "--seed", "1", *extra)
    said = "entered the loop of line 17, which has no way out"
    if command == "play":
        assert code == 1 and said in err, err
    else:
        assert code == 0 and "unfinished: 1 game stopped" in out, out
    assert took < WALL, took


def test_the_web_referee_stops_bots_alone_in_a_loop_with_no_way_out():
    from catrules.bots.basic import make_seat
    from catrules.errors import RulesError
    from catrules.play.core import Referee
    game = load_game(GAMES / "never_ending" / "endless.cat")
    st = game.new_state(2, seed=1, log=True)
    seats = [make_seat("random"), make_seat("random")]

    class Table:
        import random as _r
        rng = _r.Random(1)
    for i, s in enumerate(seats):
        s.start(Table, i)
    with pytest.raises(RulesError, match="a loop that has no way out") as e:
        Referee(st, seats).advance()
    assert e.value.line == 17 and st.decisions < 10, (e.value.line, st.decisions)


def test_a_person_may_go_round_a_loop_with_no_way_out():
    # only bots alone are stopped: a state played by hand goes on
    game = load_game(GAMES / "never_ending" / "endless.cat")
    st = game.new_state(2, seed=1)
    for _ in range(200):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    assert st.no_way_out == 17 and not st.finished


def test_game_file_mutants_through_the_command_line_stop_cleanly():
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz_files
    counts, bad = fuzz_files.campaign("games", 40, 7, limit=WALL, show_bad=False)
    assert not bad, bad
    assert counts["clean-error"] > 0 and sum(counts.values()) == 40, counts


def test_an_ismcts_search_by_iterations_is_bounded_in_imagined_decisions(monkeypatch):
    # each playout of the endless game runs to the playout limit; the search stops once its
    # playouts together have imagined SEARCH_DECISION_LIMIT decisions, whatever its iterations
    import random
    from catrules.bots import ismcts
    monkeypatch.setattr(ismcts, "SEARCH_DECISION_LIMIT", 3 * limits.PLAYOUT_LIMIT)
    st = load_game(GAMES / "never_ending" / "endless.cat").new_state(2, seed=1)
    pending = st.pending()[0]

    class Table:                    # what the bot reads of its table: a seeded source, samples
        rng = random.Random(1)

        def sample(self, me, rng):
            return st.sample_for(me, rng)
    bot = ismcts.ISMCTSBot(iterations=10 ** 6)
    bot.table, bot.player = Table(), pending.player
    bot.search([o.id for o in pending.options])
    assert 3 * limits.PLAYOUT_LIMIT <= bot.last["imagined decisions"] < 5 * limits.PLAYOUT_LIMIT, bot.last
    assert bot.last["iterations"] <= 5, bot.last


def test_greedy_stops_looking_ahead_past_its_decisions_and_stays_deterministic(monkeypatch):
    # past LOOKAHEAD_DECISIONS the greedy bot takes the default without imagining anything
    from catrules.bots import basic
    from catrules.play.match import Match
    game = load_game(GAMES / "never_ending" / "endless_growing_until.cat")
    looked = []
    original = Match.lookahead_options

    def counting(self, player, options, samples=1):
        looked.append(self.state.decisions)
        return original(self, player, options, samples)
    monkeypatch.setattr(Match, "lookahead_options", counting)
    monkeypatch.setattr(basic, "LOOKAHEAD_DECISIONS", 40)

    def play():
        st = game.new_state(2, seed=3)
        m = Match(game, st, [basic.make_seat("greedy"), basic.make_seat("greedy")])
        from catrules.errors import RulesError

        def stop():
            if st.decisions >= 200:
                raise RulesError("enough")
        with pytest.raises(RulesError, match="enough"):
            m.run(stop)
        return st.history
    first = play()
    assert looked and max(looked) < 40 and len(looked) >= 10, looked
    looked.clear()
    assert play() == first


def test_a_greedy_look_ahead_stops_following_others_who_decide_for_ever(capsys):
    # others_alone.cat: after the first player's one choice only the others decide, in secret,
    # for ever; the first player's look-ahead played their defaults on without end (it hung)
    code, _out, err, took = run_cli(capsys, "play", GAMES / "never_ending" / "others_alone.cat", "--seats", "greedy,greedy",
                                    "--seed", "1", "--quiet")
    assert code == 1
    assert f"more than {limits.DECISION_LIMIT:,} decisions without ending" in err
    assert took < WALL, took


def test_one_look_ahead_gives_the_others_a_bounded_number_of_answers(monkeypatch):
    from catrules.play import lookahead
    game = load_game(GAMES / "never_ending" / "others_alone.cat")
    st = game.new_state(3, seed=1)
    me = st.choosers()[0]
    value = st.values_for(me)[0]
    monkeypatch.setattr(lookahead, "FOLLOW_ANSWERS", 30)
    s2 = st.clone()
    s2.take(me, value)
    s2.run()
    before = s2.decisions
    out = lookahead.follow(s2, me, lookahead.LOOKAHEAD_FOLLOW)
    # two others answer each round: 31 rounds at most, then the game is judged where it stands
    assert 0 < s2.decisions - before <= 2 * 31 and not s2.finished
    assert len(out.ranks) == 3


# greedy:look's play-ons stop at checkpoints and never reach an end: it probes as ISMCTS does
@pytest.mark.parametrize("seats", ["ismcts,ismcts", "ismcts:0.2s:10,greedy", "random,ismcts:300",
                                   "greedy:look,greedy:look", "greedy:look:200,random"])
@pytest.mark.parametrize("command", ["play", "simulate"])
def test_searching_bots_stop_a_game_that_cannot_end_within_its_budget(capsys, command, seats):
    # endless_until.cat's loop never ends but the checker cannot prove it: before a search, the
    # bot plays imagined games on at random to the decision budget; none ends, so it stops the
    # game at once instead of searching 10,000 decisions (hours), with or without a horizon
    extra = ["--quiet"] if command == "play" else ["--games", "1", "--players", "2"]
    code, out, err, took = run_cli(capsys, command, GAMES / "never_ending" / "endless_until.cat", "--seats", seats,
                                   "--seed", "1", *extra)
    if command == "play":
        assert code == 1, (out, err)
        assert f"the game would ask for more than {limits.DECISION_LIMIT:,} decisions without ending" in err, err
        assert "imagined games that the searching bots played on at random from decision" in err, err
        assert "--max-decisions N" in err, err
    else:
        assert code == 0 and "unfinished: 1 game stopped" in out, out
    assert took < WALL, took


def test_the_budget_the_bots_check_is_the_one_given(capsys):
    # a larger budget: the bots look that far before they give up
    code, _out, err, took = run_cli(capsys, "play", GAMES / "never_ending" / "endless_until.cat", "--seats",
                                    "ismcts:0.1s,ismcts:0.1s", "--seed", "2", "--quiet", "--max-decisions", "30000")
    assert code == 1 and "more than 30,000 decisions without ending" in err and "the 30,000 decisions left" in err, err
    assert took < WALL, took


@pytest.mark.parametrize("seats", ["ismcts:30,ismcts:0.02s", "greedy:look:200,greedy:look:200"])
@pytest.mark.parametrize("game", ["expedition.cat", "race_rounds.cat", "deckbuilder.cat"])
def test_games_that_end_are_played_to_their_end_by_searching_bots(capsys, game, seats):
    code, out, err, _took = run_cli(capsys, "play", GAMES / game, "--seats", seats, "--seed", "1", "--quiet")
    assert code == 0 and "decisions" not in err, (out, err)


@pytest.mark.parametrize("seats", ["random,random", "greedy,greedy", "ismcts,greedy"])
def test_a_web_table_of_bots_alone_stops_a_game_that_never_ends(tmp_path, seats):
    # at a web table the bots decide one decision at a time (play_bots), so the table counts
    # their decisions in a row itself; searching bots are given the budget and probe it at once
    import threading
    pytest.importorskip("starlette", reason="the web extra is not installed")
    from catrules.web.store import Store
    from catrules.web.registry import Registry
    reg = Registry(Store(tmp_path / "tables.sqlite3"), [GAMES / "never_ending" / "endless_until.cat"])
    made = reg.create({"game": "endless_until", "players": 2, "seats": seats.split(","), "seed": 1})
    table = reg.table(made["table"])
    start, stop = time.perf_counter(), threading.Event()
    while time.perf_counter() - start < WALL:
        table.shown = table.changes         # as the server does once a change has been shown
        _made, due = table.play_bots(stop, 5.0)
        if not due:
            break
    assert table.broken is not None and not table.state.finished, table.state.decisions
    if seats.startswith("ismcts"):
        assert "imagined games that the searching bots played on at random" in table.broken
        assert table.state.decisions == 0
    else:
        assert f"the bots took more than {limits.DECISION_LIMIT:,} decisions in a row" in table.broken
        assert table.state.decisions == limits.DECISION_LIMIT + 1
    # a stopped table refuses a page's answer in those words, and its bots are no longer due
    assert table.bot_due() is None
