"""The bot fast path (catrules.play.autoplay) and the compiled units (catrules.compile.units).

With bots only and no log, a match lets the bots answer inside the running game.  It must
play exactly the game the step-by-step match plays: the same history (every choice and race
time), the same decisions count and the same scores, for every shipped game and test game.
"""

from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.errors import RulesError
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent


def small(title: str, rest: str) -> str:
    """A small test game of two players with a counter ``n``: ``rest`` is what follows."""
    return (f'catrules 3\ngame "{title}"\nplayers 2 to 2\ncards numbered in deck:\n    card with kind number\n'
            f"zone deck: shared, hidden, pile\ncounter n = 0\n{rest}")


def play(game, players, seed, specs, options=(), fast=True):
    st = game.new_state(players, seed=seed, options=options)
    m = Match(game, st, [make_seat(x) for x in specs])
    if not fast:
        for seat in m.seats:
            seat.inline = False         # an instance that cannot answer inline: step by step
    m.run()
    return st


def same_game(game, players, seeds, specs, options=()):
    for seed in seeds:
        a = play(game, players, seed, specs, options, fast=True)
        b = play(game, players, seed, specs, options, fast=False)
        assert a.history == b.history, seed
        assert a.decisions == b.decisions, seed
        assert a.scores() == b.scores(), seed
        assert a.z == b.z and a.c == b.c, seed
    return True


@pytest.mark.parametrize("path,players,options", [
    ("games/meow.cat", 4, ()), ("games/meow.cat", 3, ("expert",)),
    ("games/catlady.cat", 4, ()), ("games/catlady.cat", 2, ()),
    ("games/flapcat.cat", 4, ("advanced",)), ("games/flapcat.cat", 2, ()),
])
def test_fast_path_plays_the_same_games(path, players, options):
    game = catrules.load_game(str(ROOT / path))
    assert same_game(game, players, range(12), ["random"] * players, options)


def test_fast_path_with_greedy_bots_through_decide():
    # greedy seats answer through decide() with a decision built for them, mid-run
    game = catrules.load_game(str(ROOT / "games/flapcat.cat"))
    assert same_game(game, 4, range(2), ["greedy", "random", "greedy:0.8", "random"])
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    assert same_game(game, 3, range(2), ["greedy", "random", "random"])


@pytest.mark.parametrize("name", sorted(p.name for p in (ROOT / "tests/games").glob("*.cat")))
def test_fast_path_on_the_test_games(name):
    game = catrules.load_game(str(ROOT / "tests/games" / name))
    n = max(game.min_players, 2)
    try:
        play(game, n, 1, ["random"] * n, fast=False)
    except RulesError:
        pytest.skip(f"{name} stops with a rules error on purpose")
    assert same_game(game, n, range(5), ["random"] * n)


def test_the_fast_path_is_taken_only_for_bots_and_no_log():
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    st = game.new_state(4, seed=3)
    seen = []

    class Watch:
        inline = True
        wants_events = False
        interactive = False

        def start(self, table, player):
            self.table, self.player = table, player

        def pick(self, st, player, values, kind):
            seen.append(st.auto is not None)
            return 0, None

        def decide(self, view, d):
            seen.append(False)
            return d.options[0].id

        def finish(self, view):
            pass
    Match(game, st, [Watch() for _ in range(4)]).run()
    assert st.finished and st.auto is None          # taken away at the end
    # the first decision was pending when the match began: asked the usual way, the rest inline
    assert seen[0] is False and len(seen) > 20 and all(seen[1:])
    st = game.new_state(4, seed=3, log=True)          # a log: step by step
    seen.clear()
    Match(game, st, [Watch() for _ in range(4)]).run()
    assert seen and not any(seen)


def test_a_failing_bot_raises_its_own_error_not_a_rules_error():
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    st = game.new_state(4, seed=3)
    seats = [make_seat("random") for _ in range(4)]

    def broken(*a):
        raise ValueError("the bot broke")
    seats[2].pick = broken
    with pytest.raises(ValueError, match="the bot broke"):
        Match(game, st, seats).run()


def test_units_are_python_source_with_a_line_table():
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    prog = game.program
    src = prog.unit_sources["phase:turn"]
    assert "def " in src and "fr.pc" in src
    # a loop with no pause inside is a Python loop (the deal), one with a choice is blocks
    assert "for " in prog.unit_sources["phase:round"]
    assert all(callable(f) for f in prog.codes["phase:turn"])
    table = next(t for name, t in prog.line_tables.items() if "phase:turn" in name)
    lines = (ROOT / "games/meow.cat").read_text().splitlines()
    assert any("chooses" in lines[n - 1] for n in table if n)


def test_a_runtime_error_inside_a_python_loop_names_its_line():
    src = small("Loop error", """flow:
    for each player p:
        n = n + 1
        n = 5 % (n - 1)
""")
    game = catrules.load_source(src, "loop.cat")
    with pytest.raises(RulesError) as err:
        game.new_state(2, seed=1)
    assert err.value.line == 11


def test_an_action_with_no_pause_runs_where_it_is_called_and_its_errors_name_its_line():
    src = small("Inline action", """action bump(k):
    n = n + k
    n = 5 % (n - 1)
flow:
    do bump(1)
    do bump(2)
""")
    game = catrules.load_source(src, "inline.cat")
    # `do bump(...)` is written into the flow's block as a call: no frame, no block of its own
    assert "_do_now(st, fr, 'action:bump', {'k': 1})" in game.program.unit_sources["flow"]
    assert len(game.program.codes["action:bump"]) == 1
    with pytest.raises(RulesError) as err:
        game.new_state(2, seed=1)
    assert err.value.line == 10             # the line in the action, not the `do`


def test_an_action_that_starts_itself_keeps_its_frames():
    src = small("Recursive action", """action count_down(k):
    if k > 0:
        n = n + 1
        do count_down(k - 1)
flow:
    do count_down(5)
""")
    game = catrules.load_source(src, "recursive.cat")
    assert "_do_now" not in game.program.unit_sources["flow"]
    st = game.new_state(2, seed=1)
    assert st.finished and st.c["n"] == 5


def test_texts_of_the_game_stay_data_in_the_generated_code():
    # a menu label that looks like code, or like the writer's own marks, is a string constant
    src = small("Labels", '''flow:
    player 1 chooses:
        "__END__":
            n = 1
        "')\\nimport os #":
            n = 2
''')
    src = src.replace("player 1 chooses", "first_player chooses")
    src = src.replace("counter n = 0", "counter n = 0\ncounter first_player = 0")
    game = catrules.load_source(src, "labels.cat")
    flow = game.program.unit_sources["flow"]
    import ast as pyast
    tree = pyast.parse(flow)
    assert not any(isinstance(n, (pyast.Import, pyast.ImportFrom)) for n in pyast.walk(tree))
    constants = {n.value for n in pyast.walk(tree) if isinstance(n, pyast.Constant)}
    assert {"__END__", "')\\nimport os #"} <= constants
    for choice, value in (("__END__", 1), ("')\\nimport os #", 2)):
        st = game.new_state(2, seed=1)
        st.apply(0, next(o.id for o in st.pending()[0].options if o.label == choice or o.id == choice))
        assert st.finished and st.c["n"] == value


def test_blocks_call_the_next_one_only_a_few_in_a_row():
    # 40 choices one after the other: a bot's answer goes on by calling the next block, but a run
    # of such calls stops at CHAIN_DEPTH and goes back through the engine's loop
    from catrules.compile.units import CHAIN_DEPTH
    lines = "\n".join(f"    first_player chooses c{i} from hand\n    n = n + 1" for i in range(40))
    src = f'''catrules 3
game "Many choices"
players 2 to 2
cards numbered in hand:
    for each value in 1 to 3:
        card with kind number
zone hand: shared, public, pile
counter n = 0
counter first_player = 0
flow:
{lines}
'''
    game = catrules.load_source(src, "many.cat")
    flow = game.program.unit_sources["flow"]
    assert flow.count("return _u") > CHAIN_DEPTH and "fr.pc = 1\\n    return False" not in flow
    st = play(game, 2, 1, ["random", "random"])
    assert st.finished and st.c["n"] == 40
    assert same_game(game, 2, range(3), ["random", "random"])


def test_picking_bots_leave_knowledge_alone_and_it_is_rebuilt_after():
    # seats that only pick never sample the game: what each player knows of where cards are is
    # not kept during the run, and afterwards it is what each player sees now, never more
    game = catrules.load_game(str(ROOT / "games/meow.cat"))

    class Stop(Exception):
        pass

    def run(st, fast):
        seen = []
        m = Match(game, st, [make_seat("random") for _ in range(4)])
        if not fast:
            for seat in m.seats:
                seat.inline = False

        def check():
            seen.append(st.known is None)
            if st.decisions >= 20:      # stopped mid-game, as by a budget
                raise Stop
        with pytest.raises(Stop):
            m.run(check)
        return seen

    fast, stepped = game.new_state(4, seed=3), game.new_state(4, seed=3)
    assert all(run(fast, True))
    assert not any(run(stepped, False))
    seers = fast.layout.seers
    assert fast.known == [seers[s] for s in fast.loc]
    # step by step it was kept: everyone knows which pile the tokens not yet drawn are in
    assert any(k & ~seers[s] for k, s in zip(stepped.known, stepped.loc))
    assert all(k | seers[s] == k for k, s in zip(stepped.known, stepped.loc))


def test_a_seat_that_looks_keeps_knowledge_up_to_date():
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    st = game.new_state(4, seed=3)
    seen = []
    m = Match(game, st, [make_seat(x) for x in ("greedy", "random", "random", "random")])
    m.run(lambda: seen.append(st.known is None))
    assert seen and not any(seen)


def test_a_picking_seat_that_samples_or_saves_mid_run_sees_no_more_than_the_table():
    # a bot of one's own with `pick` gets the state: cloning, sampling or saving it while
    # knowledge is not kept works, with what each player sees now (never more)
    game = catrules.load_game(str(ROOT / "games/meow.cat"))
    seen = []

    class Sampler:
        inline = True
        wants_events = False
        interactive = False
        handicap = 0.0
        name = "sampler"

        def start(self, table, player):
            self.table, self.player = table, player

        def pick(self, st, player, values, kind):
            assert st.known is None
            sample = st.sample_for(player, self.table.rng)
            saved = st.to_dict()["known"]
            seers = st.layout.seers
            assert saved == [seers[s] for s in st.loc]
            assert st.clone().known is None
            seen.append(sample.finished is False)
            return 0, None

        def finish(self, view):
            pass

    st = game.new_state(4, seed=5)
    Match(game, st, [Sampler(), make_seat("random"), make_seat("random"), make_seat("random")]).run()
    assert st.finished and seen and all(seen)
    assert st.known == [st.layout.seers[s] for s in st.loc]


def test_a_phase_played_again_and_again_in_a_straight_run_starts_each_play_afresh():
    # the straight run of `round` makes the frame of `turn` once and empties it for each play;
    # `turn` calls an action, so it keeps its variables in that frame's dictionary
    src = """catrules 3
game "Afresh"
players 2 to 3
cards numbered in deck:
    for each value in 1 to 12:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone pile: shared, public, pile
counter n = 0
action add_up(c):
    n = n + c.value
phase turn:
    for each player p:
        p chooses c from hand of p default lowest c.value
        move c to pile
        do add_up(c)
phase round:
    for each player p:
        move top(deck, 3) to hand of p
    repeat 3 times:
        play turn
flow:
    shuffle deck
    play round
score:
    points = n
"""
    game = catrules.load_source(src, "afresh.cat")
    lean = game.program.compile_game(game.program.checked, lean=True)
    assert ".vars.clear()" in lean.unit_sources["phase:round"]          # played on one frame
    assert "V['c']" in lean.unit_sources["phase:turn"].split("if st.auto.plain:")[1].split("\ndef ")[0]
    assert same_game(game, 2, range(6), ["random"] * 2)
    assert same_game(game, 3, range(6), ["random"] * 3)


def test_a_whole_pile_moved_in_a_straight_run_lands_as_the_step_by_step_move_puts_it():
    # `move pile to deck` is written out in the straight run of `round` (all the cards at
    # once, bottom first); the pile is empty the first time round, and the hand goes back too
    src = """catrules 3
game "Whole"
players 2 to 3
cards numbered in deck:
    for each value in 1 to 12:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone pile: shared, public, pile
counter n = 0
phase round:
    move pile to deck
    shuffle deck
    for each player p:
        move top(deck, 3) to hand of p
    for each player p:
        p chooses c from hand of p
        move c to pile
        n = n + c.value
    for each player p:
        move hand of p to deck
flow:
    repeat 4 times:
        play round
score:
    points = n
"""
    game = catrules.load_source(src, "whole.cat")
    lean = game.program.compile_game(game.program.checked, lean=True)
    assert ".clear()" in lean.unit_sources["phase:round"]          # the pile moved, written out
    assert same_game(game, 2, range(6), ["random"] * 2)
    assert same_game(game, 3, range(6), ["random"] * 3)
