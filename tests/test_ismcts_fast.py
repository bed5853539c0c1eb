"""The searching bot's faster iteration (issue 27, third pass).

* A playout's choices inside the running game (``playout.chooser``) are those of
  :meth:`Policy.pick`, draw for draw, and learn the same moves.
* An imagined game is drawn once for ``SHARED`` iterations, each on a copy with a future of
  its own.
* The whole iteration (the tree's decisions too) runs inside the running game and still stops
  a playout at its horizon.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules.bots import ismcts
from catrules.bots.basic import make_seat
from catrules.bots.ismcts import ISMCTSBot
from catrules.bots.playout import Horizon, Policy, chooser
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(ROOT / "games" / "meow.cat")


class _St:
    """What a choice inside the running game touches of a state."""

    def __init__(self):
        self.decisions, self.actor, self.steps, self.steps_from = 0, None, 0, 7


def _values(rng: random.Random, kind: str) -> list:
    n = rng.randrange(1, 9)
    if kind == "card":
        vals = rng.sample(range(20), n)
        return vals + [None] if rng.random() < 0.2 else vals
    return [rng.choice(["a", "b", "c", 1.5, True, (1, 2)]) for _ in range(n)]


@pytest.mark.parametrize("kind", ["card", "value"])
@pytest.mark.parametrize("learn", [True, False])
def test_the_written_in_choice_is_the_policys_draw_for_draw(kind, learn):
    gen = random.Random(5)
    a, b = Policy(2, random.Random(11), learn=learn), Policy(2, random.Random(11), learn=learn)
    for pol in (a, b):                  # means with ties and without
        for pl in range(2):
            for key in list(range(0, 20, 3)) + ["a", "b"]:
                pol.means[pl][key] = 0.45 if key in (3, "a") else 0.2 + (key if type(key) is int else 1) / 40
    choose = chooser(b, 10**6, [None])
    st = _St()
    for _ in range(300):
        vals, who = _values(gen, kind), gen.randrange(2)
        want = vals[a.pick(st, who, vals, "choose")[0]] if len(vals) > 1 else vals[0]
        assert choose(st, who, list(vals), kind) == want
    assert a.moves == b.moves and (a.moves or not learn)
    assert a.rng.getstate() == b.rng.getstate()


def test_the_written_in_choice_stops_at_its_horizon():
    st = _St()
    st.decisions = 40
    limit = [None]
    choose = chooser(Policy(2, random.Random(1)), 3, limit)
    assert choose(st, 0, [7], "card") == 7          # forced: not counted against the horizon's start
    choose(st, 0, [1, 2], "card")                   # the first choice asked: decision 42
    assert limit == [44]
    choose(st, 1, [1, 2], "card")
    with pytest.raises(Horizon):
        choose(st, 0, [1, 2], "card")


def _first_table(game, bot, seed=1):
    st = game.new_state(4, seed=seed)
    d = st.pending()[0]
    m = Match(game, st, [bot if p == d.player else make_seat("random") for p in range(4)])
    bot.start(m, d.player)
    return m, d


def test_an_imagined_game_is_drawn_once_for_shared_iterations(meow, monkeypatch):
    counts = {}
    for shared in (1, 4):
        monkeypatch.setattr(ismcts, "SHARED", shared)
        bot = ISMCTSBot(iterations=37)
        bot.reuse = False
        m, d = _first_table(meow, bot)
        sample, n = m.sample, [0]

        def counted(*a, **k):
            n[0] += 1
            return sample(*a, **k)
        m.sample = counted
        bot.search([o.id for o in d.options], d.default)
        assert bot.last["iterations"] == 37
        counts[shared] = n[0]
    assert counts[1] - counts[4] == 37 - 10         # ceil(37 / 4) draws instead of 37


def test_copies_of_a_drawn_game_have_futures_of_their_own(meow, monkeypatch):
    seen = []
    iterate = ISMCTSBot._iterate

    def noted(self, st, *a, **k):
        seen.append((st, st.rng.getstate()))     # kept alive: no id used twice
        return iterate(self, st, *a, **k)
    monkeypatch.setattr(ISMCTSBot, "_iterate", noted)
    bot = ISMCTSBot(iterations=8)
    m, d = _first_table(meow, bot)
    bot.search([o.id for o in d.options], d.default)
    assert len({id(st) for st, _s in seen}) == 8     # a state of its own for each iteration
    assert len({s for _i, s in seen}) == 8           # and a random source of its own


def test_a_horizon_bounds_each_iteration_inside_the_running_game(meow):
    bot = ISMCTSBot(iterations=30, horizon=5)
    m, d = _first_table(meow, bot)
    bot.search([o.id for o in d.options], d.default)
    # a few decisions down the tree, then at most the horizon's; without it, about 110 each
    assert 30 * 5 < bot.last["imagined decisions"] < 30 * 20
