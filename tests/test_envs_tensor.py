"""The fast encoders give the same values as the plain ones, on many states of many games.

The observation vector read from the engine state (:class:`catrules.envs.tensor.StateEncoder`,
whole or brought up to date from the last one) against :meth:`Encoder.encode` of the player's
view; a memory brought up to date at once (:meth:`Memory.catch_up`) against :meth:`Memory.note`
of each event's visible part; the tensors OpenSpiel gets as lists against those, bit for bit.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np
import pytest

from catrules.api import load_game
from catrules.envs.encoding import spec
from catrules.envs.history import Memory, ParsedLog
from catrules.envs.running import Kept, RunningScore, reads
from catrules.envs.lists import TensorArray, TensorList, as_float32
from catrules.envs.tensor import Seen, StateEncoder, scores_now
from catrules.errors import CatrulesError
from catrules.play.views import visible_event

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in [*ROOT.glob("games/*.cat"), *ROOT.glob("tests/games/*.cat"),
                                                    *ROOT.glob("docs/examples/*.cat")])
STEPS = 150


def _games_states(path, seeds=2):
    """``(spec, state, rng)`` along random games of ``path`` (a state is yielded, then played on)."""
    g = load_game(str(ROOT / path))
    n = g.min_players
    try:
        sp = spec(g, n, explore=2)
    except CatrulesError:               # a game that does not end (tests/games/runaway.cat)
        pytest.skip(f"{path}: no environment")
    for seed in range(seeds):
        st = g.new_state(n, seed=seed, options=sp.options, log=True)
        rng = random.Random(seed)
        for _ in range(STEPS):
            yield sp, st, rng
            if st.finished:
                break
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id, st.reaction_time() if d.timed else None)


def _same(a: np.ndarray, b: np.ndarray, what: str, names) -> None:
    if not np.array_equal(a.view(np.uint32), b.view(np.uint32)):
        i = int(np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))[0])
        seg = next(name for name, start, length in names if start <= i < start + length)
        raise AssertionError(f"{what}: entry {i} ({seg}) is {b[i]}, not {a[i]}")


@pytest.mark.parametrize("path", GAMES)
def test_the_state_encoder_gives_the_views_vector(path):
    """Whole, and brought up to date from what each player saw last (asked at random moments)."""
    fast, seen, checked = None, {}, 0
    for sp, st, rng in _games_states(path):
        if fast is None or fast.enc is not sp.encoder:
            fast = StateEncoder(sp.encoder)
        if not st.history:
            seen = {p: Seen() for p in [None, *range(st.n)]}
        for p in [None, *range(st.n)]:
            want = sp.encoder.encode(st.view(p))
            _same(want, fast.encode(st, p), f"{path} player {p}, whole", sp.encoder.segments)
            if rng.random() < 0.6:
                _same(want, fast.encode(st, p, seen[p]), f"{path} player {p}, brought up to date",
                      sp.encoder.segments)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("path", GAMES)
def test_the_memory_caught_up_at_once_is_the_memory_event_by_event(path):
    mem, checked = None, 0
    for sp, st, rng in _games_states(path, seeds=1):
        if mem is None or mem.spec is not sp:
            mem = Memory(sp)
        if not st.history:
            slow = [mem.fresh() for _ in range(st.n)]
            fast = [mem.fresh() for _ in range(st.n)]
            done = [0] * st.n
        for p in range(st.n):
            if rng.random() < 0.5 and not st.finished:
                continue
            for ev in st.log[done[p]:]:
                v = visible_event(st, ev, p)
                if v is not None:
                    mem.note(slow[p], p, v)
            mem.catch_up(fast[p], p, st.layout, st.log[done[p]:])
            done[p] = len(st.log)
            _same(slow[p], fast[p], f"{path} player {p}", mem.segments)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("path", GAMES)
def test_the_kept_running_score_is_the_running_score_at_every_step(path):
    """The figure kept while nothing the score reads changed is the one worked out anew."""
    rs, kept, checked = None, None, 0
    for sp, st, _rng in _games_states(path):
        if rs is None:
            rs = RunningScore(sp.program, st.n)
        if not st.history:
            kept = Kept()
        assert rs.rows(st, kept) == scores_now(st), f"{path}: step {len(st.history)}"
        checked += 1
    assert checked > 0


def test_what_the_running_score_reads():
    """Meow's score and end read the piles won and used; Cat Lady's read where cards are
    (``owner``) and what each cat ate (a counter of each card)."""
    g = load_game(str(ROOT / "games/meow.cat"))
    assert reads(g.program) == ({"won", "used"}, set(), False)
    st = g.new_state(4, seed=3)
    rs, kept = RunningScore(g.program, 4), Kept()
    figures = []
    while not st.finished:
        figures.append(rs.rows(st, kept))
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    assert len({id(f) for f in figures}) < len(figures) / 2         # kept at most steps
    assert [f for f in figures if f is not None] == figures
    cl = load_game(str(ROOT / "games/catlady.cat"))
    zones, counters, places = reads(cl.program)
    assert "cats" in zones and "hand" not in zones and counters == {"meal"} and places


def test_a_value_as_float32_is_what_tolist_gives_bit_for_bit():
    memo, rng = {}, np.random.default_rng(0)
    specials = [0, 1, 0.0, -0.0, float("nan"), 1.0, 0.5, float("inf"), -3, 1e30, 0.1, 2 ** 40 + 1, True]
    for v in specials + list(rng.normal(size=20) * 1e6):
        for _ in range(2):                                  # the second time from the memo
            got, want = as_float32(v, memo), np.array([v], np.float32).tolist()[0]
            assert type(got) is float
            assert (got == want or (got != got and want != want)) and math.copysign(1, got) == math.copysign(1, want)


def _catch_up(mem, slow, done, st, p) -> None:
    """Bring player ``p``'s reference memory ``slow[p]`` up to ``st``'s log (``done[p]``: events read)."""
    for ev in st.log[done[p]:]:
        v = visible_event(st, ev, p)
        if v is not None:
            mem.note(slow[p], p, v)
    done[p] = len(st.log)


@pytest.mark.parametrize("path", GAMES)
def test_the_tensor_lists_are_the_plain_vectors_tolist(path):
    """A :class:`TensorList` and a :class:`TensorArray` of each player and of a spectator, asked at
    random moments, give the view's vector then the memory of every visible event, as
    ``tolist()`` gives it (bit for bit); an array the caller kept does not change."""
    fast, mem, checked = None, None, 0
    for sp, st, rng in _games_states(path):
        if fast is None:
            fast, mem = StateEncoder(sp.encoder), Memory(sp)
        if not st.history:
            lists = {(p, r, kind): kind(p, r) for p in [None, *range(st.n)] for r in (True, False)
                     for kind in (TensorList, TensorArray) if p is not None or not r}
            parsed = ParsedLog(mem, st)         # the log parsed once, for every reader's memory
            slow = [mem.fresh() for _ in range(st.n)]
            done = [0] * st.n
            held = []
        for p in [*range(st.n), None]:
            if p is not None:
                _catch_up(mem, slow, done, st, p)
            obs = sp.encoder.encode(st.view(p))
            for recall in (True, False) if p is not None else (False,):
                if rng.random() < 0.5 and not st.finished:
                    continue
                want = np.concatenate([obs, slow[p]]) if recall else obs
                segments = [*sp.encoder.segments, *((n, s + sp.encoder.size, k) for n, s, k in mem.segments)]
                got = lists[(p, recall, TensorList)].get(fast, mem, st, scores_now(st), lambda p=p: _memory(mem, st, p),
                                                         parsed if rng.random() < 0.7 else None)
                assert all(type(v) is float for v in got)
                _same(want, np.array(got, np.float32), f"{path} player {p} recall {recall}", segments)
                arr = lists[(p, recall, TensorArray)].get(fast, mem, st, scores_now(st),
                                                          lambda p=p: _memory(mem, st, p), parsed)
                assert arr.dtype == np.float32 and not arr.flags.writeable
                _same(want, arr, f"{path} player {p} recall {recall} array", segments)
                if rng.random() < 0.3:                  # kept by the caller: it must not change
                    held.append((arr, arr.copy()))
                checked += 1
        for arr, was in held:
            _same(was, arr, f"{path}: an array the caller kept changed", sp.encoder.segments)
    assert checked > 0


def test_an_array_nobody_holds_is_changed_in_place_and_one_held_is_left_alone():
    """``tensors="array"``: the array handed out last is brought up to date in place when the
    caller let it go, and left as it was (the next one a copy) when the caller kept it."""
    g = load_game(str(ROOT / "games/meow.cat"))
    sp = spec(g, 4, explore=2)
    fast, mem = StateEncoder(sp.encoder), Memory(sp)
    st = g.new_state(4, seed=1, options=sp.options, log=True)
    ta = TensorArray(0, True)

    def play(k):
        for _ in range(k):
            d = st.pending()[0]
            st.apply(d.player, d.options[0].id)

    first = id(ta.get(fast, mem, st, scores_now(st), lambda: _memory(mem, st, 0)))
    play(2)
    assert id(ta.get(fast, mem, st, scores_now(st), lambda: _memory(mem, st, 0))) == first    # let go: reused
    kept = ta.get(fast, mem, st, scores_now(st), None)
    was = kept.copy()
    play(4)
    now = ta.get(fast, mem, st, scores_now(st), None)
    assert now is not kept and np.array_equal(kept, was) and not np.array_equal(now, was)
    with pytest.raises(ValueError):
        now[0] = 1.0


def test_a_slice_the_caller_keeps_of_an_array_it_let_go_does_not_change():
    """A view of the handed-out array's data (a slice: its base is the array kept inside) counts
    as held: the next call goes on with a copy."""
    g = load_game(str(ROOT / "games/meow.cat"))
    sp = spec(g, 4, explore=2)
    fast, mem = StateEncoder(sp.encoder), Memory(sp)
    st = g.new_state(4, seed=1, options=sp.options, log=True)
    ta = TensorArray(0, True)
    part = ta.get(fast, mem, st, scores_now(st), lambda: _memory(mem, st, 0))[:sp.encoder.size]
    was = part.copy()
    for _ in range(6):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    now = ta.get(fast, mem, st, scores_now(st), None)
    assert np.array_equal(part, was) and not np.array_equal(now[:sp.encoder.size], was)


def _memory(mem, st, p):
    m = mem.fresh()
    mem.catch_up(m, p, st.layout, st.log)
    return m


@pytest.mark.parametrize("path,players", [("games/meow.cat", 4), ("games/catlady.cat", 3), ("games/flapcat.cat", 4),
                                          ("tests/games/sealed_bids.cat", 3), ("docs/examples/visibility.cat", 3)])
def test_openspiel_tensors_are_the_plain_encoders_values(path, players):
    """``information_state_tensor`` and ``observation_tensor`` (worked out in Python, as lists)
    equal the view's vector and the memory of every visible event, and what pyspiel's C++ asks
    the observer for."""
    import pyspiel
    from catrules.envs.openspiel import register

    # a name of its own: other test modules in the same process register these games with
    # other settings (explore), which would be refused under the default name
    stem = "".join(ch if ch.isalnum() else "_" for ch in path.rsplit("/", 1)[-1][:-4])
    game = pyspiel.load_game(register(str(ROOT / path), players=players, explore=3,
                                      name=f"tensor_test_{stem}_{players}p"))
    sp = game.setup.spec
    mem = Memory(sp)
    rng = random.Random(1)
    state = game.new_initial_state()
    slow = [mem.fresh() for _ in range(players)]
    done = [0] * players
    steps = 0
    while not state.is_terminal() and steps < 120:
        st = state.engine_state()
        for p in range(players):
            if rng.random() < 0.5:
                continue
            _catch_up(mem, slow, done, st, p)
            obs = sp.encoder.encode(st.view(p))
            want = np.concatenate([obs, slow[p]])
            _same(want, np.array(state.information_state_tensor(p), np.float32), f"{path} ist {p}", [
                *sp.encoder.segments, *((n, s + sp.encoder.size, k) for n, s, k in mem.segments)])
            _same(want, np.array(pyspiel.State.information_state_tensor(state, p), np.float32), f"{path} C++ {p}",
                  [*sp.encoder.segments, *((n, s + sp.encoder.size, k) for n, s, k in mem.segments)])
            _same(obs, np.array(state.observation_tensor(p), np.float32), f"{path} obs {p}", sp.encoder.segments)
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert steps > 5
    with pytest.raises(pyspiel.SpielError):
        state.information_state_tensor(players)


def test_reading_a_tensor_from_python_takes_the_game_seeds_pyspiels_call_takes():
    """Without chance nodes, pyspiel's tensor call starts a state of its own (to learn the size),
    which takes a game seed: the Python answer takes one too, so later games keep their seeds."""
    import pyspiel
    from catrules.envs.openspiel import register

    name = register(str(ROOT / "games/meow.cat"), players=3, explore=2, name="tensor_test_seeds_meow_3p")
    seeds = []
    for call in (lambda s, p: pyspiel.State.information_state_tensor(s, p), lambda s, p: s.information_state_tensor(p),
                 lambda s, p: pyspiel.State.observation_tensor(s, p), lambda s, p: s.observation_tensor(p)):
        game = pyspiel.load_game(name, {"seed": 10})
        first = game.new_initial_state()
        for _ in range(3):
            call(first, first.current_player())
        seeds.append((first.engine_state().seed, game.new_initial_state().engine_state().seed))
    assert seeds[0] == seeds[1] == seeds[2] == seeds[3]
    assert seeds[0][1] > seeds[0][0] + 1


def test_openspiel_tensors_as_arrays_are_the_lists_values():
    """``register(..., tensors="array")``: the same values as the lists, as read-only float32
    arrays (before the deal too); an unknown ``tensors`` is refused in words."""
    import pyspiel
    from catrules.envs.openspiel import register

    path = str(ROOT / "games/flapcat.cat")
    games = [pyspiel.load_game(register(path, players=3, explore=2, chance="deal", tensors=t,
                                        name=f"tensor_test_arrays_{t}")) for t in ("list", "array")]
    states = [g.new_initial_state() for g in games]
    rng = random.Random(5)
    arr = states[1].information_state_tensor(0)
    assert isinstance(arr, np.ndarray) and not arr.flags.writeable
    assert arr.tolist() == states[0].information_state_tensor(0)
    steps = 0
    while not states[0].is_terminal() and steps < 80:
        if states[0].is_chance_node():
            action = 7
        else:
            for p in range(3):
                for call in ("information_state_tensor", "observation_tensor"):
                    lst, arr = (getattr(s, call)(p) for s in states)
                    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32 and not arr.flags.writeable
                    assert arr.tolist() == lst, f"{call} {p} at step {steps}"
            action = rng.choice(states[0].legal_actions())
        for s in states:
            s.apply_action(action)
        steps += 1
    assert steps > 10
    with pytest.raises(CatrulesError, match="unknown tensors 'lists'"):
        register(path, players=3, tensors="lists")


def test_the_running_score_an_env_keeps_is_the_running_score_of_its_game():
    """``RunningScore.now`` (the Gymnasium and PettingZoo envs') keeps one figure per game: asked
    about two games in turn, or a new game, it gives each one's own running score."""
    g = load_game(str(ROOT / "games/meow.cat"))
    rs = RunningScore(g.program, 4)
    games = [g.new_state(4, seed=s) for s in (1, 2)]
    rng = random.Random(3)
    checked = 0
    while not all(st.finished for st in games):
        for st in games:
            assert rs.now(st) == scores_now(st)
            if rng.random() < 0.5 and not st.finished:
                assert rs.now(st) == scores_now(st)             # asked again, same game
            if not st.finished:
                d = st.pending()[0]
                st.apply(d.player, rng.choice(d.options).id)
            checked += 1
    assert checked > 100


class _Opaque:
    """A counter value :mod:`marshal` cannot write (the running score then keeps copies)."""

    def __init__(self, v):
        self.v = v

    def __eq__(self, other):
        return isinstance(other, _Opaque) and other.v == self.v

    __hash__ = None


@pytest.mark.parametrize("first, same, other", [(1, 1, True), ([1, [2]], [1, [2]], [1, [2.0]]),
                                                (_Opaque(1), _Opaque(1), _Opaque(2))])
def test_the_kept_running_score_sees_a_counter_change_value_or_type(first, same, other):
    """A counter the score reads (an internal one) set again to an equal value of the same types
    keeps the figure; set to another value or type (``1`` then ``True``), it is worked out again;
    values :mod:`marshal` cannot write are compared as copies."""
    g = load_game(str(ROOT / "games/meow.cat"))
    st = g.new_state(4, seed=3)
    rs, kept = RunningScore(g.program, 4), Kept()
    st.c["#probe"] = first
    a = rs.rows(st, kept)
    st.c["#probe"] = same
    assert rs.rows(st, kept) is a
    st.c["#probe"] = other
    b = rs.rows(st, kept)
    assert b is not a and b == scores_now(st)
    assert rs.rows(st, kept) is b
