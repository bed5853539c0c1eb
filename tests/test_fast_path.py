"""The lean blocks of the bot fast path (issue 27): the same games, and the same errors.

Under :class:`~catrules.play.autoplay.Autoplay` with every seat picking, the state runs the
lean compilation of its game (:meth:`catrules.compile.program.Program.lean_codes`), where
definitions are written out where they are asked.  An error there is replayed on the
instrumented blocks, so that it names the same game-file line with the same words.  Here
every game file of the tests and of the docs, and every game text in the test modules that
names a runtime error, is played by random bots through both paths: the same history and
scores, or the same error (message and line).
"""

from __future__ import annotations

import ast
import glob
import importlib.util
import os

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.compile.program import Program
from catrules.errors import CatrulesError, OverBudget, RulesError
from catrules.lab.simulate import decision_budget
from catrules.play.match import Match

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = (1, 2, 3)
#: decisions a game may take here (games that never end stop at it, on both paths alike)
BUDGET = 400


def _files() -> list:
    pats = ("tests/games/*.cat", "tests/games/*/*.cat", "games/*.cat", "docs/examples/*.cat",
            "docs/**/*.cat", "examples/*.cat")
    out = set()
    for pat in pats:
        out.update(glob.glob(os.path.join(ROOT, pat), recursive=True))
    return sorted(out)


def _texts() -> list:
    """Game texts of the test modules whose tests speak of runtime errors: their string
    constants, their module-level texts, and a module-level header followed by a module-level
    body (``BASE + FLOW``), each as written and under ``catrules 4``."""
    out = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "test_*.py"))):
        src = open(path, encoding="utf-8").read()
        if "RulesError" not in src and "runtime error" not in src or path.endswith("test_fast_path.py"):
            continue
        name = os.path.basename(path)
        texts = [(node.lineno, node.value) for node in ast.walk(ast.parse(src))
                 if isinstance(node, ast.Constant) and isinstance(node.value, str) and ":\n" in node.value]
        spec = importlib.util.spec_from_file_location(f"_fast_path_{name[:-3]}", path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception:
            module = None
        strings = [v for k, v in vars(module).items() if isinstance(v, str) and not k.startswith("__")] \
            if module is not None else []
        heads = [v for v in strings if 'game "' in v]
        bodies = [v for v in strings if "flow:" in v and 'game "' not in v]
        texts += [(0, v) for v in strings] + [(0, h + b) for h in heads for b in bodies]
        for line, text in texts:
            if "flow:" in text and 'game "' in text:
                out.setdefault(text, (name, line))
    return [(name, line, text) for text, (name, line) in out.items()]


def _games() -> list:
    games = []
    for path in _files():
        try:
            games.append((os.path.relpath(path, ROOT), catrules.load_game(path)))
        except CatrulesError:
            continue
    for name, line, text in _texts():
        for version in ("", "catrules 4\n"):
            try:
                games.append((f"{name}:{line}{' (catrules 4)' if version else ''}",
                              catrules.load_source(version + text, f"{name}-{line}.cat")))
                break
            except CatrulesError:
                continue
    return games


GAMES = _games()


def play(game, players: int, seed: int, lean: bool, monkeypatch, new: bool = False) -> tuple:
    """A game of random bots on the fast path: (history, scores) or ("error", message, line).
    With ``new``, the game is made as ``simulate`` makes it (:meth:`Match.new`: on the fast path
    from its start), else by ``new_state`` and a :class:`Match` of it."""
    if not lean:
        monkeypatch.setattr(Program, "lean_codes", lambda self: self.codes)
    try:
        seats = [make_seat("random") for _ in range(players)]
        if new:
            m = Match.new(game, players, seats, seed=seed)
            st = m.run(decision_budget(m.state, BUDGET))
        else:
            st = game.new_state(players, seed=seed)
            Match(game, st, seats).run(decision_budget(st, BUDGET))
        out = (st.history, st.scores() if st.finished else None)
    except RulesError as exc:
        out = ("error", exc.message, exc.line)
    except (OverBudget, CatrulesError) as exc:
        out = ("stopped", type(exc).__name__, str(exc))
    finally:
        monkeypatch.undo()
    return out


def test_there_are_games_and_errors_to_compare(monkeypatch):
    assert len(GAMES) > 40
    assert len(_texts()) > 15
    errors = {name for name, game in GAMES if play(game, game.min_players, 1, True, monkeypatch)[0] == "error"}
    assert len(errors) >= 5, errors


@pytest.mark.parametrize("name,game", GAMES, ids=[n for n, _g in GAMES])
def test_lean_and_instrumented_paths_play_the_same(name, game, monkeypatch):
    for players in sorted({game.min_players, min(game.max_players, 4)}):
        for seed in SEEDS:
            assert play(game, players, seed, True, monkeypatch) == play(game, players, seed, False, monkeypatch), \
                (name, players, seed)


DEFINED_ERROR = """\
catrules 4
game "Lean"
players 2 to 2
cards tile in deck:
    for each value in 1 to 6:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
counter picked = none

define worth(c) = \\
    c.value * 10 + 100 / (c.value - 4)

flow:
    repeat 3 times:
        for each player p:
            move top(deck) to hand of p
            p chooses c from hand of p default lowest c.value
            picked = worth(c)
score:
    points = 1
"""


#: the same game, its error elsewhere: (what replaces the definition and its use, the error's line)
VARIANTS = {
    "asked from a list": ("define worth(c) = \\\n    c.value * 10 + 100 / (c.value - 4)",
                          "picked = best(hand of p, worth(it))", 12),
    "through another": ("define base(c) = 100 / (c.value - 4)\ndefine worth(c) = \\\n    c.value * 10 + base(c)",
                        "picked = worth(c)", 11),
    "without arguments": ("define worth = \\\n    100 / (count(deck) - 3)", "picked = worth", 12),
    "too big a number": ("define worth(c) = \\\n    c.value * 1000000000 * 1000000000 * 1000000000",
                         "picked = worth(c)", 12),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_errors_inside_definitions_name_the_same_line_on_both_paths(variant, monkeypatch):
    define, use, line = VARIANTS[variant]
    text = DEFINED_ERROR.replace("define worth(c) = \\\n    c.value * 10 + 100 / (c.value - 4)", define)
    text = text.replace("picked = worth(c)", use)
    game = catrules.load_source(text, "lean.cat")
    errors = 0
    for seed in range(1, 15):
        lean = play(game, 2, seed, True, monkeypatch)
        assert lean == play(game, 2, seed, False, monkeypatch), seed
        if lean[0] == "error":
            errors += 1
            assert lean[2] == line, lean
    assert errors


def test_an_error_inside_a_definition_written_out_names_the_definition(monkeypatch):
    game = catrules.load_source(DEFINED_ERROR, "lean.cat")
    assert game.program.lean_codes() is not game.program.codes
    failed = [(seed, e) for seed in range(1, 30) if (e := play(game, 2, seed, True, monkeypatch))[0] == "error"]
    assert failed, "some seed picks the card of value 4"
    for seed, e in failed:
        assert e == play(game, 2, seed, False, monkeypatch)
        assert e[2] == 12, e                  # the line of the definition's body
        assert "zero" in e[1], e


def test_without_the_replay_the_lean_path_would_name_another_line(monkeypatch):
    """The replay is what keeps the line: the lean blocks alone, where the definition is written
    out in the block that asks it, name another line."""
    from catrules.runtime.state import State
    game = catrules.load_source(DEFINED_ERROR, "lean.cat")
    seeds = [seed for seed in range(1, 30) if play(game, 2, seed, False, monkeypatch)[0] == "error"]
    assert seeds
    st = game.new_state(2, seed=seeds[0])
    run = State._run

    def no_replay(self, codes):
        if self.auto is None:               # the replay's state: it replays nothing
            return None
        return run(self, codes)
    monkeypatch.setattr(State, "_run", no_replay)
    monkeypatch.setattr("catrules.play.autoplay.Autoplay.replayer", lambda self, answers: None)
    with pytest.raises(RulesError) as err:
        Match(game, st, [make_seat("random") for _ in range(2)]).run()
    assert err.value.line != 12             # the lean blocks alone: not the definition's line


def test_a_game_without_its_origin_replays_from_where_the_run_began(monkeypatch):
    """A restored or imagined game does not hold every answer since its start: its error is
    replayed from a copy of the state taken as the fast path's run began."""
    game = catrules.load_source(DEFINED_ERROR, "lean.cat")
    seen = 0
    for seed in range(1, 15):
        want = play(game, 2, seed, False, monkeypatch)
        if want[0] != "error":
            continue
        st = game.new_state(2, seed=seed)
        st = game.restore(st.to_dict())
        assert st.origin is None
        with pytest.raises(RulesError) as err:
            Match(game, st, [make_seat("random") for _ in range(2)]).run()
        assert (err.value.message, err.value.line) == want[1:]
        seen += 1
    assert seen


def test_an_imagined_game_takes_no_copy_for_a_replay(monkeypatch):
    """A bot's imagined game (a playout) runs the lean blocks without the copy a replay would
    need: its errors are only counted by the bot, never shown, so no copy is made per run."""
    import random

    from catrules.bots.playout import Policy, play_out
    from catrules.runtime.state import State
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    st = game.new_state(4, seed=3)
    me = st.pending()[0].player
    copies = []
    original = State.clone
    monkeypatch.setattr(State, "clone", lambda self: copies.append(1) or original(self))
    for k in range(5):
        imagined = st.sample_for(me, random.Random(k))
        copies.clear()
        play_out(imagined, Policy(imagined.n, random.Random(k), learn=False))
        assert imagined.finished
        assert copies == [], len(copies)
    # the same playout of a game that is not imagined (as a restored game: no origin) takes one
    imagined = st.sample_for(me, random.Random(0))
    imagined.steps_from = 0
    copies.clear()
    play_out(imagined, Policy(imagined.n, random.Random(0), learn=False))
    assert imagined.finished and copies, "a game whose errors are shown takes its copy to replay one"


PHASED_ERROR = """\
catrules 4
game "Straight"
players 2 to 3
cards tile in deck:
    for each value in 1 to 6:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, pile
counter picked = none

flow:
    repeat 2 times:
        play round

phase round:
    for each player p:
        move top(deck) to hand of p
    repeat 1 times:
        play turn

phase turn:
    for each player p:
        p chooses c from hand of p default lowest c.value
        move c to table
        picked = 100 / (c.value - 4)
score:
    points = 1
"""


def _lean_source(game, key: str) -> str:
    from catrules.compile.compiler import compile_game
    return compile_game(game.program.checked, lean=True).unit_sources[key]


def test_phases_whose_only_pauses_are_choices_run_straight():
    """Meow's turn and fish phases are written as one straight run in the lean compilation (taken
    when nobody looks between decisions), and its round plays the turn in place, with no frame;
    the flow, which is no phase, keeps its blocks."""
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    for key in ("phase:turn", "phase:fish", "phase:round"):
        assert "if st.auto.plain:" in _lean_source(game, key), key
    assert "['phase:turn'][0](st, " in _lean_source(game, "phase:round")
    assert "if st.auto.plain:" not in _lean_source(game, "flow")
    assert "st.auto.plain" not in game.program.unit_sources["phase:turn"]     # not the instrumented blocks


def test_straight_runs_and_blocks_play_the_same_games():
    """A check that looks between decisions (``looks`` true) keeps the lean blocks; one that does not
    takes the straight runs: the same games."""
    def looking(st):
        def check():
            return None
        check.looks = True
        return check
    for path in ("games/meow.cat", "games/catlady.cat", "games/flapcat.cat"):
        game = catrules.load_game(os.path.join(ROOT, path))
        for seed in (1, 2):
            out = []
            for after in (None, looking):
                st = game.new_state(4, seed=seed)
                Match(game, st, [make_seat("random") for _ in range(4)]).run(after(st) if after else None)
                out.append((st.history, st.scores()))
            assert out[0] == out[1], (path, seed)


def test_an_error_in_a_phase_run_straight_names_its_line_on_both_paths(monkeypatch):
    game = catrules.load_source(PHASED_ERROR, "straight.cat")
    assert "if st.auto.plain:" in _lean_source(game, "phase:turn")
    assert "['phase:turn'][0](st, " in _lean_source(game, "phase:round")
    errors = 0
    for players in (2, 3):
        for seed in range(1, 12):
            lean = play(game, players, seed, True, monkeypatch)
            assert lean == play(game, players, seed, False, monkeypatch), (players, seed)
            if lean[0] == "error":
                errors += 1
                assert lean[2] == 26 and "zero" in lean[1], lean
    assert errors


def test_playouts_run_straight_and_note_what_choices_tell_as_the_blocks_do(monkeypatch):
    """A playout of an imagined game keeps what players know, so a straight run (its variables in
    locals) hands a choice ``preferring`` its variables: the same facts, answers and scores as
    the instrumented blocks."""
    import random

    from catrules.bots.playout import Policy, play_out
    game = catrules.load_game(os.path.join(ROOT, "games", "meow.cat"))
    assert "_S_v_p" in _lean_source(game, "phase:turn")

    def playouts():
        out = []
        for seed in (3, 4):
            st = game.new_state(4, seed=seed)
            me = st.pending()[0].player
            for k in range(3):
                imagined = st.sample_for(me, random.Random(k))
                assert imagined.known is not None
                play_out(imagined, Policy(imagined.n, random.Random(k), learn=False))
                out.append((imagined.history, imagined.facts, imagined.scores()))
        return out
    straight = playouts()
    assert any(facts for _h, facts, _s in straight)
    monkeypatch.setattr(Program, "lean_codes", lambda self: self.codes)
    assert straight == playouts()


MOVES_ERROR = """\
catrules 4
game "Moves"
players 2 to 4
cards tile in deck:
    for each value in 1 to 9:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone played: per player, public, pile
zone discard: shared, public, pile

flow:
    repeat 5 times:
        play deal

phase deal:
    move discard to deck
    for each player p:
        move top(deck, 2) to hand of p
    for each player p clockwise from 0:
        p chooses c from hand of p default lowest c.value
        move c to played of p
    move played of everyone to discard
score:
    points = count(hand)
"""


def test_moves_written_out_in_a_straight_run_fail_as_the_blocks_do(monkeypatch):
    """A deal of ``top(deck, 2)`` and a move of everyone's piles, written out in the straight run:
    the same games, and the deal that runs short names its line on every path."""
    game = catrules.load_source(MOVES_ERROR, "moves.cat")
    assert "del " in game.program.compile_game(game.program.checked, lean=True).unit_sources["phase:deal"]
    for players in (2, 3):
        out = play(game, players, 1, False, monkeypatch)
        assert out[0] == "error" and out[2] == 19 and "deck" in out[1], out
        assert play(game, players, 1, True, monkeypatch) == out
        assert play(game, players, 1, True, monkeypatch, new=True) == out


@pytest.mark.parametrize("name,game", GAMES[::3], ids=[n for n, _g in GAMES[::3]])
def test_a_game_made_by_match_new_plays_the_same_on_both_paths(name, game, monkeypatch):
    players = game.min_players
    assert play(game, players, 1, True, monkeypatch, new=True) == play(game, players, 1, False, monkeypatch), name
