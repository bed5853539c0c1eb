"""The greedy bot's cheaper imagined games (issue 27, third pass) do the same work: the outcome
memo gives the scores and ranking keys worked out afresh, with the same steps counted; an
imagined game's random sources, seeded when they first draw, draw as if seeded at once; and
the look-ahead that drops what each player knows before the first answer of an imagined game
judges every option as the one that drops it after."""

from __future__ import annotations

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
