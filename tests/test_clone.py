"""State.clone: a clone plays on exactly as its original would, neither sees the other's
changes (random sources included), and saves written before copy-on-write sources resume."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import catrules
from catrules.runtime.state import State
from catrules.errors import SaveError

ROOT = Path(__file__).resolve().parent.parent
GAMES = [("games/meow.cat", 4), ("games/catlady.cat", 3), ("games/flapcat.cat", 4), ("games/flapcat.cat", 6)]
SEEDS = range(1, 9)


@pytest.fixture(scope="module")
def games():
    return {path: catrules.load_game(ROOT / path) for path in {p for p, _n in GAMES}}


def step(st: State, rng: random.Random) -> None:
    """One random answer; a race's time is drawn from the state's own source of race times."""
    d = st.pending()[0]
    st.apply(d.player, rng.choice(d.options).id, st.reaction_time() if d.timed else None)


def mid_game(game, players: int, seed: int) -> State:
    st = game.new_state(players, seed=seed, log=True)
    rng = random.Random(seed * 13)
    for _ in range(rng.randrange(5, 60)):
        if st.finished:
            break
        step(st, rng)
    return st


def outcome(st: State) -> tuple:
    return st.history, st.log, st.scores(), json.dumps(st.to_dict())


@pytest.mark.parametrize("path,players", GAMES)
def test_a_clone_plays_on_as_its_original(games, path, players):
    for seed in SEEDS:
        parent = mid_game(games[path], players, seed)
        clone = parent.clone()
        assert json.dumps(clone.to_dict()) == json.dumps(parent.to_dict())
        # turn about, the same answers: a source shared by both would deal them different cards
        ra, rb = random.Random(seed), random.Random(seed)
        while not (parent.finished and clone.finished):
            assert parent.finished == clone.finished
            step(parent, ra)
            step(clone, rb)
        assert outcome(clone) == outcome(parent)


@pytest.mark.parametrize("path,players", GAMES)
def test_playing_a_clone_changes_nothing_in_its_original(games, path, players):
    for seed in SEEDS:
        parent = mid_game(games[path], players, seed)
        before = json.dumps(parent.to_dict())
        twin = parent.clone()                  # played later: what the parent would do untouched
        for k in range(3):
            clone = parent.clone()
            clone.rng.random()                 # draws straight from the sources too
            clone.trng.random()
            clone.c["#scribble"] = k
            rng = random.Random(seed + k)
            while not clone.finished:
                step(clone, rng)
            grandchild = clone.clone()
            grandchild.rng.shuffle(grandchild.z[0])
            assert json.dumps(parent.to_dict()) == before
        # and the parent, played after its clones, plays as its untouched twin
        ra, rb = random.Random(seed), random.Random(seed)
        while not parent.finished:
            step(parent, ra)
        while not twin.finished:
            step(twin, rb)
        assert outcome(parent) == outcome(twin)


def test_a_clone_does_not_see_its_originals_draws(games):
    parent = mid_game(games["games/flapcat.cat"], 4, 3)
    clone = parent.clone()
    want = (clone.to_dict()["rng"], clone.to_dict()["trng"])
    first = parent.rng.random(), parent.trng.random()
    parent.rng.random()
    assert (clone.to_dict()["rng"], clone.to_dict()["trng"]) == want
    assert (clone.rng.random(), clone.trng.random()) == first
    # a state that was cloned and then given a new source keeps it
    fresh = random.Random(99)
    parent.rng = fresh
    parent.clone()
    assert parent.rng.getstate() == random.Random(99).getstate()


def test_clones_of_different_states_drawing_in_turn_each_draw_their_own(games):
    # the state of the source thawed last is kept: clones of two states in turn must not mix them up
    game = games["games/flapcat.cat"]
    a, b = mid_game(game, 4, 1), mid_game(game, 4, 2)
    want = {id(s): random.Random() for s in (a, b)}
    for s in (a, b):
        want[id(s)].setstate(s.rng.getstate())
        s.clone()                                   # a and b now hold frozen sources
    expect = {id(s): [want[id(s)].random() for _ in range(3)] for s in (a, b)}
    for _ in range(3):
        for s in (a, b, a, b):
            c = s.clone()
            assert [c.rng.random() for _ in range(3)] == expect[id(s)]


def test_the_same_seed_deals_the_same_games_with_clones_in_between(games):
    # cloning (which freezes the original's sources) changes no draw of the original
    game = games["games/meow.cat"]
    for seed in SEEDS:
        a, b = game.new_state(4, seed=seed), game.new_state(4, seed=seed)
        ra, rb = random.Random(seed), random.Random(seed)
        while not a.finished:
            a.clone()
            step(a, ra)
            step(b, rb)
        assert a.history == b.history and a.scores() == b.scores()


OLD = json.loads((ROOT / "tests" / "data" / "old_saves.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", OLD, ids=[f"{c['game']}-{c['players']}p" for c in OLD])
def test_saves_of_the_old_format_resume_exactly(case):
    # format 1 counted instructions; today a frame's pc names a block of its compiled unit
    old = case["state"]
    assert old["format"] == 1
    st = State.from_dict(_game(case["game"]).program, json.loads(json.dumps(old)))
    now = json.loads(json.dumps(st.to_dict()))
    assert now["format"] == 2
    assert [f[:1] + f[2:] for f in now["frames"]] == [f[:1] + f[2:] for f in old["frames"]]
    assert {k: v for k, v in now.items() if k not in ("format", "frames")} == \
        {k: v for k, v in old.items() if k not in ("format", "frames")}
    rest = random.Random(case["seed"] + 100)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rest.choice(d.options).id, st.reaction_time() if d.timed else None)
    assert st.history == case["history"]
    assert st.decisions == case["decisions"]
    assert st.scores() == case["scores"]


# ------------------------------------------------------- the end of a game

class Looking:
    """A seat that plays the first option and keeps the view it is given at the end."""
    wants_events = False
    interactive = False

    def start(self, table, player):
        self.player = player

    def decide(self, view, decision):
        from catrules.play.seats import Choice
        return Choice(decision.options[0].id, 0.5 if decision.timed else None)

    def finish(self, view):
        self.final = view


def test_the_view_at_the_end_is_built_only_for_a_seat_that_looks(games, monkeypatch):
    from catrules.bots.basic import RandomBot
    from catrules.play.match import Match
    game = games["games/meow.cat"]
    built = []
    view = game.program.view
    monkeypatch.setattr(game.program, "view", lambda st, p: built.append(p) or view(st, p))
    st = game.new_state(4, seed=2)
    Match(game, st, [RandomBot() for _ in range(4)]).run()
    assert st.finished and built == []
    seats = [Looking() for _ in range(3)]
    st = game.new_state(3, seed=2)
    Match(game, st, seats).run()
    assert built == []
    final = dict(seats[1].final)
    assert built == [1] and final == st.view(1) and "scores" in final


# ------------------------------------------- states saved in format 1 (instructions)

FORMAT1 = json.loads((Path(__file__).parent / "data" / "format1_saves.json").read_text())["cases"]


@pytest.mark.parametrize("case", FORMAT1, ids=lambda c: f"{c['game']}-{c['seed']}-{c['at']}")
def test_a_state_saved_in_format_1_resumes_exactly(case):
    """Format 1 counted a frame's pc in instructions; the compiler maps each to its block now.
    The fixture was saved by the old code at many pauses (tests/data/make_format1_saves.py)."""
    game = _game(case["game"])
    saved = case["state"]
    # the random sources, left out of the fixture: the same seed and choices give the same draws
    twin = game.new_state(saved["players"], seed=saved["seed"], options=saved["options"])
    for h in saved["history"]:
        twin.apply(*h)
    now = twin.to_dict()
    before = len(saved["history"])
    st = State.from_dict(game.program, json.loads(json.dumps({**saved, "rng": now["rng"], "trng": now["trng"]})))
    rest = random.Random(case["seed"] * 1000 + case["at"])
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rest.choice(d.options).id, round(rest.random(), 4) if d.timed else None)
    assert st.history[before:] == case["rest"]
    assert st.scores() == case["scores"]


_GAMES: dict = {}


#: A save resumes only with the game file it was saved with: the game files that changed since
#: the fixtures were saved, as they were then (tests/data/as-saved/).  Their lines moved: Meow
#: changed, `catrules fmt` reformatted Cat Lady, Flap Cat!, lines.cat and reveal.cat, and a
#: saved decision names its statement by line.
SAVED_WITH = {path: f"tests/data/as-saved/{Path(path).name}" for path in (
    "games/meow.cat", "games/catlady.cat", "games/flapcat.cat", "tests/games/lines.cat", "tests/games/reveal.cat")}


def _game(path):
    """The game a fixture's save was made with."""
    if path not in _GAMES:
        _GAMES[path] = catrules.load_game(str(Path(__file__).resolve().parent.parent / SAVED_WITH.get(path, path)))
    return _GAMES[path]


def test_a_format_1_pc_that_names_no_pause_is_refused():
    game = _game("games/meow.cat")
    saved = next(c["state"] for c in FORMAT1 if c["game"] == "games/meow.cat")
    twin = game.new_state(saved["players"], seed=saved["seed"])
    for h in saved["history"]:
        twin.apply(*h)
    bad = {**saved, "rng": twin.to_dict()["rng"], "trng": twin.to_dict()["trng"],
           "frames": [[k, 10 ** 6, v, dep] for k, _pc, v, dep in saved["frames"]]}
    with pytest.raises(SaveError, match="older catrules"):
        State.from_dict(game.program, bad)


@pytest.mark.parametrize("case", OLD + FORMAT1, ids=lambda c: f"{c['game']}-{c['seed']}-{c.get('at', 'old')}")
def test_a_saved_decision_names_a_choice_of_the_file_it_resumes_with(case):
    """The line a save's waiting decision names is a choice in the game file it is resumed with
    (a file whose lines moved since is kept as it was: SAVED_WITH)."""
    pending = case["state"].get("pending")
    if not pending or not pending.get("line"):
        pytest.skip("no decision waits in this save")
    lines = (ROOT / SAVED_WITH.get(case["game"], case["game"])).read_text(encoding="utf-8").splitlines()
    assert " chooses" in lines[pending["line"] - 1], (case["game"], pending["line"], lines[pending["line"] - 1])
