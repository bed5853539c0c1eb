"""The searching bot (ISMCTS) and what its imagined games may know.

* What a choice tells the others (``preferring``: a player who does not follow has none of
  the colour) is kept as a fact, honoured by every imagined game of the players who saw the
  card, and forgotten once a face-down card comes into that hand.
* An imagined game depends only on what its player may see: two games that differ only in
  cards the player cannot see give the same imagined game, so the bot chooses the same.
* The bot is deterministic for a budget of iterations, plays legal options, and beats
  random players in a small trick game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.bots.ismcts import ISMCTSBot, parse_budget
from catrules.play.match import Match
from catrules.runtime.inference import exclusions
from catrules.testing import card, empty, put, refresh, slot

ROOT = Path(__file__).resolve().parent.parent
FOLLOW = ROOT / "tests" / "games" / "follow.cat"


@pytest.fixture(scope="module")
def follow():
    return catrules.load_game(FOLLOW)


@pytest.fixture(scope="module")
def meow():
    return catrules.load_game(ROOT / "games" / "meow.cat")


def by_name(game, text: str) -> int:
    """The card ``red 3``."""
    colour, value = text.split()
    return card(game, colour=colour, value=int(value))


def play(st, player: int, c: int) -> None:
    st.apply(player, f"c{c}")


def deal(game, hands: list, players: int = 3):
    """A game of Follow whose hands are ``hands`` (``red 3``...), the rest in the deck; each
    player knows where the cards are that they see, no more."""
    st = game.new_state(players, seed=1)
    for p in range(players):
        empty(st, "hand", p)
    for p, faces in enumerate(hands):
        put(st, [by_name(game, f) for f in faces], "hand", p)
    st.known = [st.layout.seers[s] for s in st.loc]
    refresh(st)
    return st


def test_a_player_who_does_not_follow_is_never_dealt_the_colour_led(follow):
    st = deal(follow, [["red 1", "red 2", "blue 1"], ["green 1", "green 2", "blue 2"], ["red 3", "red 4", "green 3"]])
    play(st, 0, by_name(follow, "red 1"))          # player 1 leads red
    play(st, 1, by_name(follow, "green 1"))        # player 2 shows out of red
    hand2 = slot(st, "hand", 1)
    reds = {c for c in range(follow.card_count) if follow.program.card_attrs[c]["colour"] == "red"}
    assert st.facts and st.facts[0][0] == hand2 and st.facts[0][1] == frozenset(reds)
    for p in (0, 2):                               # both saw the green card
        assert exclusions(st, p)[hand2] == st.facts[0][1]
        rng = random.Random(p)
        for _ in range(200):
            s = st.sample_for(p, rng)
            assert not reds & set(s.z[hand2]), "a player who showed out of red was dealt a red card"
    assert hand2 not in exclusions(st, 1)          # nothing to infer about one's own hand
    # without the fact, some imagined games would give player 2 a red card (the check can fail)
    st2 = st.clone()
    st2.facts = ()
    rng = random.Random(5)
    assert any(reds & set(st2.sample_for(0, rng).z[hand2]) for _ in range(200))


def test_a_face_down_draw_makes_the_fact_stale(follow):
    st = deal(follow, [["red 1", "red 2", "blue 1"], ["green 1", "green 2", "blue 2"], ["red 3", "red 4", "green 3"]])
    play(st, 0, by_name(follow, "red 1"))
    play(st, 1, by_name(follow, "green 1"))
    assert st.facts
    play(st, 2, by_name(follow, "red 3"))          # the trick ends; everyone draws face down
    assert st.facts == (), "after a face-down draw any card may be in that hand"


def test_facts_are_saved_and_resumed(follow):
    st = deal(follow, [["red 1", "red 2", "blue 1"], ["green 1", "green 2", "blue 2"], ["red 3", "red 4", "green 3"]])
    play(st, 0, by_name(follow, "red 1"))
    play(st, 1, by_name(follow, "green 1"))
    back = follow.restore(st.to_dict())
    assert back.facts == st.facts
    d = st.to_dict()
    d["facts"] = [[0, ["x"], 1, 0]]
    with pytest.raises(catrules.errors.SaveError, match="facts"):
        follow.restore(d)


def reachable(game, players: int, seed: int, steps: int):
    """A state ``steps`` random decisions into a seeded game (step by step: facts are kept)."""
    st = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.finished:
            break
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)
    return st


class Table:
    """What a match offers a bot, over one state."""

    def __init__(self, state, seed: int):
        self.state = state
        self.rng = random.Random(seed)

    def sample(self, player, rng=None):
        st = self.state.sample_for(player, rng or self.rng)
        st.ask_forced = False
        return st

    def reaction_time(self, reflex="normal", options=4):
        return 0.6


#: (game file, players, how many decisions into the game the states may be)
GAMES = [("games/meow.cat", 4, 40), ("games/catlady.cat", 3, 40), ("games/flapcat.cat", 4, 40),
         ("tests/games/follow.cat", 3, 10), ("tests/games/sealed_bids.cat", 3, 10)]


@pytest.mark.parametrize("path,players,depth", GAMES)
def test_what_the_bot_imagines_does_not_depend_on_what_it_cannot_see(path, players, depth):
    game = catrules.load_game(ROOT / path)
    checked = 0
    for seed in range(1, 13):
        st = reachable(game, players, seed, random.Random(seed).randrange(1, depth))
        if st.finished:
            continue
        for d in st.pending():
            p = d.player
            twin = st.sample_for(p, random.Random(seed + 100), keep_future=True)   # other hidden cards
            assert twin.view(p) == st.view(p)
            a, b = st.sample_for(p, random.Random(7)), twin.sample_for(p, random.Random(7))
            assert a.z == b.z and a.c == b.c, "an imagined game depends on cards its player cannot see"
            if len(d.options) > 1:
                picks = []
                for world in (st, twin):
                    bot = ISMCTSBot(iterations=25)
                    bot.start(Table(world, seed), p)
                    picks.append(bot.decide(world.view(p), world.pending()[[x.player for x in world.pending()].index(p)]).option)
                assert picks[0] == picks[1]
                checked += 1
    assert checked >= 3


def test_the_twin_test_can_fail_on_a_sampler_that_peeks(follow, monkeypatch):
    """With the deal taken in the order the cards lie (as before), two games that differ only in
    hidden cards give different imagined games: the test above would catch it."""
    import catrules.runtime.sampling as sampling
    st = reachable(follow, 3, 4, 3)
    p = st.pending()[0].player
    twin = st.sample_for(p, random.Random(3), keep_future=True)
    monkeypatch.setattr(sampling, "sorted", lambda xs, key=None: list(xs), raising=False)
    a, b = st.sample_for(p, random.Random(7)), twin.sample_for(p, random.Random(7))
    assert a.z != b.z


def test_budget_specs():
    assert parse_budget("2000") == ("iterations", 2000)
    assert parse_budget("1s") == ("seconds", 1.0)
    assert parse_budget("0.25s") == ("seconds", 0.25)
    for bad in ("", "0", "-3", "fast", "1m", "0s"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)
    assert (make_seat("ismcts").iterations, make_seat("ismcts").seconds) == (None, 1.0)
    assert make_seat("ismcts:50").iterations == 50
    assert make_seat("ISMCTS:2s").seconds == 2.0
    with pytest.raises(ValueError, match="ismcts:2000"):
        make_seat("ismcts:lots")
    bot = make_seat("ismcts:300:40")
    assert (bot.iterations, bot.horizon, bot.name) == (300, 40, "ismcts:300:h40")
    with pytest.raises(ValueError, match="horizon"):
        make_seat("ismcts:300:soon")


def test_a_playout_stops_at_its_horizon_and_scores_the_table(meow):
    st = meow.new_state(4, seed=2)
    start = st.decisions
    ISMCTSBot._play_out(st, random.Random(1), horizon=30)
    assert st.decisions == start + 30 and not st.over and st.auto is None
    from catrules.bots.ismcts import _results
    res, keys = _results(st), st.rank_keys(st.scores())
    assert len(set(keys)) > 1                      # some ahead of others: the check below bites
    assert sum(res) == pytest.approx(2.0)          # 4 players: each pair shares one point
    for p in range(4):
        for q in range(4):
            if keys[p] > keys[q]:
                assert res[p] > res[q]            # ahead on the table, a better result
    whole = meow.new_state(4, seed=2)
    ISMCTSBot._play_out(whole, random.Random(1))
    assert whole.over
    won = whole.winners()
    assert _results(whole) == [1 / len(won) if p in won else 0.0 for p in range(4)]


def test_the_bot_is_deterministic_and_plays_legal_options(follow):
    results = []
    for _ in range(2):
        st = follow.new_state(3, seed=11)
        Match(follow, st, [make_seat("ismcts:40"), make_seat("random"), make_seat("random")]).run()
        results.append(st.history)
    assert results[0] == results[1]


def test_the_bot_beats_random_players_in_a_small_trick_game(follow):
    wins = 0.0
    games = 60
    for i in range(games):
        me = i % 3
        seats = [make_seat("ismcts:150" if k == me else "random") for k in range(3)]
        st = follow.new_state(3, seed=i + 1)
        Match(follow, st, seats).run()
        w = st.winners()
        wins += 1 / len(w) if me in w else 0
    # a random seat wins 34% of these games (ties shared: 600 games); the searching bot 52%
    assert wins / games > 0.45, wins / games
