"""The greedy bot's cheaper imagined games (issue 27, third pass) do the same work: the outcome
memo gives the scores and ranking keys worked out afresh, with the same steps counted; an
imagined game's random sources, seeded when they first draw, draw as if seeded at once; and
the look-ahead that drops what each player knows before the first answer of an imagined game
judges every option as the one that drops it after."""

from __future__ import annotations

import copy as copy_module
import random
from pathlib import Path

import pytest

import catrules
from catrules.bots import basic
from catrules.bots.basic import make_seat
from catrules.errors import RulesError
from catrules.play.lookahead import LOOKAHEAD_FOLLOW, follow, outcomes
from catrules.play.match import Match
from catrules.runtime import scoring
from catrules.runtime.randoms import Seeded
from catrules.runtime.sampling import redeal, sort_others_options

ROOT = Path(__file__).resolve().parent.parent
SEED_GAMES = ("meow", "catlady", "flapcat")


def _greedy_states(name: str, games: int = 2, players: int = 4, every: int = 1):
    """(state, player, option ids) at the greedy bots' decisions of a few games of ``name``."""
    g = catrules.load_game(str(ROOT / "games" / f"{name}.cat"))
    out = []
    real = basic.GreedyBot._values

    def spy(self, options, timed):
        out.append((self.table.state.clone(), self.player, [o.id for o in options]))
        return real(self, options, timed)
    basic.GreedyBot._values = spy
    try:
        for seed in range(1, games + 1):
            st = g.new_state(players, seed=seed)
            Match(g, st, [make_seat("greedy")] + [make_seat("random")] * (players - 1)).run()
    finally:
        basic.GreedyBot._values = real
    return out[::every]


@pytest.mark.parametrize("name", SEED_GAMES)
def test_outcomes_are_the_scores_and_keys_worked_out_afresh(name):
    """On imagined tables of greedy games: ``outcome`` (the memo, then a hit) gives the rows and
    keys of ``scores`` and ``rank_keys``, and counts the steps they count."""
    checked = hits = 0
    for st, player, _ids in _greedy_states(name, games=1, every=3):
        sample = st.sample_for(player, random.Random(checked))
        fresh, memo, again = sample.clone(), sample.clone(), sample.clone()
        rows = fresh.scores()
        keys = fresh.rank_keys(rows)
        both = getattr(fresh.prog.scorer(fresh.options)[0], "with_keys", None)
        before = len(both.memo) if both is not None else 0
        assert scoring.outcome(memo) == (rows, keys)
        assert scoring.outcome(again) == (rows, keys)         # the second time from the memo
        hits += both is not None and len(both.memo) == before
        assert fresh.steps == memo.steps == again.steps
        checked += 1
    assert checked >= 5
    if name != "flapcat":           # Flap Cat! tallies: its outcomes are not remembered whole
        assert hits > 0


def test_an_outcome_is_a_copy_the_memo_keeps_its_own():
    st, player, _ids = _greedy_states("meow", games=1)[5]
    sample = st.sample_for(player, random.Random(1))
    rows, keys = scoring.outcome(sample.clone())
    rows[0]["total"] = 999
    keys[0] = (999,)
    rows2, keys2 = scoring.outcome(sample.clone())
    assert rows2[0]["total"] != 999 and keys2[0] != (999,)


def test_a_lazily_seeded_source_draws_as_one_seeded_at_once():
    st, player, _ids = _greedy_states("meow", games=1)[3]
    rng = random.Random(42)
    twin = random.Random(42)
    sample = st.sample_for(player, rng)
    # the same draws as sample_for makes before it seeds the two sources
    copy = st._imagine()
    copy.known = copy.known_now()
    redeal(copy, player, twin)
    sort_others_options(copy, player)
    seeds = twin.getrandbits(64), twin.getrandbits(64)
    assert isinstance(sample._rng_frozen, Seeded) and sample._rng is None
    twin_of = sample.clone()            # a clone before any draw shares the seed, draws its own
    eager = random.Random(seeds[0])
    draws = [eager.random() for _ in range(5)]
    assert [sample.rng.random() for _ in range(5)] == draws
    assert [twin_of.rng.random() for _ in range(5)] == draws
    assert type(sample).trng.state(sample) == random.Random(seeds[1]).getstate()
    assert sample.to_dict()["trng"][1] == list(random.Random(seeds[1]).getstate()[1])


@pytest.mark.parametrize("name", SEED_GAMES)
def test_dropping_what_players_know_before_the_first_answer_judges_every_option_the_same(name):
    """``outcomes`` (``known`` dropped as the sample is drawn) against the same imagined games
    with ``known`` kept through the option's own answer, as before: the same outcomes."""
    compared = 0
    for st, player, ids in _greedy_states(name, games=1, every=4)[:12]:
        timed = 0.0 if st.decision_kind() == "race" else None
        fast, errors = outcomes(st, player, ids, 2, random.Random(7), timed)
        rng = random.Random(7)
        slow: list = [[] for _ in ids]
        for _ in range(2):
            base = st.sample_for(player, rng)
            for i, oid in enumerate(ids):
                s2 = base.clone() if i < len(ids) - 1 else base
                try:
                    s2.apply(player, oid, timed)
                    slow[i].append(follow(s2, player, LOOKAHEAD_FOLLOW))
                except RulesError:
                    pass
        assert [[(list(o), o.ranks) for o in per] for per in fast] == \
            [[(list(o), o.ranks) for o in per] for per in slow]
        assert errors == sum(2 - len(per) for per in slow)
        compared += 1
    assert compared >= 3


# Issue 27, fourth pass: the same imagined games, with cheaper pieces.

def test_the_written_out_shuffle_draws_as_random_shuffle():
    """The shuffle of sampling and decks (its steps worked out once per length) gives the list
    and leaves the source exactly as ``random.Random.shuffle`` does."""
    from catrules.runtime.randoms import shuffler
    for seed in range(60):
        ours, theirs = random.Random(seed), random.Random(seed)
        shuffle = shuffler(ours)
        for size in list(range(0, 34)) + [65, 130]:
            a, b = list(range(size)), list(range(size))
            shuffle(a)
            theirs.shuffle(b)
            assert a == b
            assert ours.getstate() == theirs.getstate()


def _old_lead(ranks, me):
    def num(v):
        if isinstance(v, bool) or v is None:
            return int(bool(v))
        return v if isinstance(v, (int, float)) else 0
    mine = ranks[me]
    others = [k for i, k in enumerate(ranks) if i != me]
    if not others:
        return tuple(num(x) for x in mine)
    best = max(others)
    return tuple(num(a) - num(b) for a, b in zip(mine, best))


def test_lead_is_the_difference_it_was_on_any_key():
    """``lead`` subtracts numbers as they are and reads booleans, none and anything else as
    before: the same values, of the same types."""
    from catrules.play.lookahead import lead
    rng = random.Random(3)
    plain, odd = [0, 1, -3, 2.5, 7], [True, False, None]
    for _ in range(3000):
        players, width = rng.randint(1, 4), rng.randint(1, 3)
        ranks = [tuple(rng.choice(plain) if rng.random() < .7 else rng.choice(odd) for _ in range(width))
                 for _ in range(players)]
        me = rng.randrange(players)
        try:
            want = _old_lead(ranks, me)
        except TypeError:           # keys that do not compare (None against a number): both raise
            with pytest.raises(TypeError):
                lead(ranks, me)
            continue
        got = lead(ranks, me)
        assert got == want and [type(x) for x in got] == [type(x) for x in want]
    assert lead([("a", 3), ("b", 1)], 1) == _old_lead([("a", 3), ("b", 1)], 1)


@pytest.mark.parametrize("name", ["lines", "runs"])
def test_a_clone_copies_zones_of_lines_a_level_deeper(name):
    """A clone's zones (copied in one go, the slots of lines a level deeper) and frames are its
    own: changing them in place leaves the original as it was."""
    g = catrules.load_game(str(ROOT / "tests" / "games" / f"{name}.cat"))
    st = g.new_state(2, seed=1)
    while not st.finished and not any(st.z[s] for s, shape in enumerate(st.layout.slot_shape) if shape == "lines"):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id, 0.5 if d.timed else None)
    lines = [s for s, shape in enumerate(st.layout.slot_shape) if shape == "lines" and st.z[s]]
    assert lines
    before = copy_module.deepcopy(st.to_dict())      # a save shares the zones' lists
    copy = st.clone()
    assert copy.z == st.z
    for s, zone in enumerate(copy.z):
        if s in lines:
            zone[0].append(-1)
        zone.append(-2)
    for fr in copy.frames:
        for k, v in fr.vars.items():
            if type(v) is list:
                v.append(-3)
        fr.vars["new"] = 1
    assert st.to_dict() == before


@pytest.mark.parametrize("name", SEED_GAMES)
def test_samples_drawn_together_are_those_drawn_one_by_one(name):
    """``samples_for`` (the deal worked out once) gives the copies that as many calls of
    ``sample_for`` give, and leaves the source where they leave it."""
    compared = 0
    for st, player, _ids in _greedy_states(name, games=1, every=3)[:15]:
        together, one_by_one = random.Random(11), random.Random(11)
        got = st.samples_for(player, together, 3)
        want = [st.sample_for(player, one_by_one) for _ in range(3)]
        assert [s.to_dict() for s in got] == [s.to_dict() for s in want]
        assert together.getstate() == one_by_one.getstate()
        compared += 1
    assert compared >= 5


# Issue 27, fifth pass: a fork of an imagined game shares its frames until it runs them.

def _play_on(st, player: int, oid: str, answers: int = 6) -> None:
    """``player`` answers ``oid``, then whoever is asked takes their first option, a few times."""
    try:
        st.apply(player, oid, 0.0 if st.decision_kind() == "race" else None)
        for _ in range(answers):
            if st.decision_kind() is None:
                break
            pl = st.choosers()[0]
            st.apply(pl, st.option_ids_for(pl)[0], 0.5 if st.decision_kind() == "race" else None)
    except RulesError:
        pass


@pytest.mark.parametrize("name", SEED_GAMES)
def test_forks_play_on_as_clones_do(name):
    """Forks (``State._fork``: the frames shared, copied by whoever runs one first) and the state
    they were forked from each play on as clones do: the same saves, none seeing another's changes."""
    compared = 0
    for st, player, ids in _greedy_states(name, games=1, every=5)[:8]:
        base = st.sample_for(player, random.Random(3))
        ref = base.clone()
        forks = [base._fork() for _ in ids]
        assert all(a is b for a, b in zip(forks[0].frames, base.frames))      # shared until run
        clones = [ref.clone() for _ in ids]
        for i, oid in enumerate(ids):
            _play_on(forks[i], player, oid)
            _play_on(clones[i], player, oid)
            assert forks[i].to_dict() == clones[i].to_dict()
        assert base.to_dict() == ref.to_dict()          # untouched by its forks' play
        _play_on(base, player, ids[-1])
        _play_on(ref, player, ids[-1])
        assert base.to_dict() == ref.to_dict()
        compared += 1
    assert compared >= 3
