"""The greedy bot's imagined games: the winner block, sampled states, errors in look-aheads."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import catrules
from catrules import testing as T
from catrules.bots.basic import GreedyBot, RandomBot
from catrules.runtime.state import State
from catrules.compile.zone_types import type_zones
from catrules.play.lookahead import lead
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "tests" / "games"


def load(name):
    return catrules.load_game(GAMES / name)


# ------------------------------------------------------------ the winner block

def test_lead_compares_ranking_keys_component_by_component():
    # keys are "higher is better": a lowest-wins total is negated by State.rank_keys
    assert lead([(-10, 0), (-12, -1)], 0) == (2, 1)
    assert lead([(-10, -2), (-10, 0), (-15, 0)], 0) == (0, -2)   # the best other is (-10, 0)
    assert lead([(3,)], 0) == (3,)


def play(game, seats, seeds):
    wins = [0] * len(seats)
    for seed in seeds:
        st = game.new_state(len(seats), seed=seed)
        Match(game, st, seats).run()
        for w in st.winners():
            wins[w] += 1
    return wins


def test_greedy_minimises_where_the_lowest_total_wins():
    game = load("lowest.cat")
    wins = play(game, [GreedyBot(), RandomBot()], range(200))
    # before the bot read the winner block it took the highest cards and won 4 of these 200
    assert wins[0] >= 170, wins
    assert wins[1] <= 30, wins


def test_greedy_honours_the_tie_breaker():
    game = load("lowest.cat")
    st = game.new_state(2, seed=1)
    T.empty(st, "market", to="deck")
    T.empty(st, "pile", 0, to="deck")
    T.empty(st, "pile", 1, to="deck")
    plain, crowned = T.card(game, value=1, crown="no"), T.card(game, value=1, crown="yes")
    # the market: the crowned 1 first, so that picking the first of equals would be wrong
    T.put(st, [crowned, plain, T.card(game, value=9, crown="no")], "market")
    T.put(st, [T.card(game, value=5, crown="no")], "pile", 0)
    T.put(st, [T.card(game, value=6, crown="no")], "pile", 1)
    T.refresh(st)
    (d,) = st.pending()
    assert d.player == 0 and {o.id for o in d.options} >= {f"c{plain}", f"c{crowned}"}
    m = Match(game, st, [GreedyBot(samples=1), RandomBot()])
    ch = m.seats[0].decide(None, d)
    assert ch.option == f"c{plain}"


# -------------------------------------------------------------- sampled states

PIT = """catrules 1
game "Pit"
players 2 to 2
# each player buries a card face down, then plays one face up

cards number in deck:
    for each value in 1 to 10:
        card
cards marker in markers:
    2 cards

zone deck: shared, hidden, pile
zone markers: shared, hidden, pile
zone hand: per player, owner, pile
zone pit: shared, hidden, pile
zone pile: shared, public, pile
zone flags: shared, public, pile

counter buried = none

flow:
    shuffle deck
    shuffle markers
    for each player p:
        move top(deck, 3) to hand of p
    for each player p:
        p chooses c from hand of p
        move c to pit
        buried = c
    move top(markers) to flags
    for each player p:
        p chooses d from hand of p
        move d to pile

score:
    points = sum(pile, value)

winner:
    highest total
"""


@pytest.fixture(scope="module")
def pit():
    return catrules.load_source(PIT, "pit.cat")


def at_second_round(pit, seed, player):
    st = pit.new_state(2, seed=seed)
    T.play_until(st, lambda s: s.decisions == 2 + player)
    return st


def where(st, c):
    return st.layout.slot_name[st.loc[c]]


def test_a_card_the_player_put_face_down_stays_where_they_know_it_is(pit):
    moved = 0
    for seed in range(20):
        st = at_second_round(pit, seed, 0)
        mine = next(c for c in T.zone(st, "pit") if st.known[c] == 0b01)      # player 1's buried card
        theirs = next(c for c in T.zone(st, "pit") if st.known[c] == 0b10)
        rng = random.Random(seed)
        for _ in range(5):
            s = st.sample_for(0, rng)
            assert where(s, mine) == "pit"
            moved += where(s, theirs) != "pit"
    assert moved > 0          # what the other player buried is unknown: it may be anywhere hidden


def test_sampled_cards_keep_to_the_zones_their_type_can_reach(pit):
    markers = {i for i, t in enumerate(pit.program.card_type) if t == "marker"}
    for seed in range(20):
        st = at_second_round(pit, seed, 0)
        s = st.sample_for(0, random.Random(seed))
        for m in markers:
            assert where(s, m) in ("markers", "flags")
        assert sorted(T.zone(s, "flags")) == sorted(T.zone(st, "flags"))


def test_references_to_renamed_cards_follow_them(pit):
    for seed in range(20):
        st = at_second_round(pit, seed, 1)          # player 2 decides; sample for player 1
        assert st.c["buried"] is not None
        rng = random.Random(seed)
        for _ in range(5):
            s = st.sample_for(0, rng)
            # the counter still names a card in the pit, the pending options are player 2's hand
            assert where(s, s.c["buried"]) == "pit"
            assert sorted(s.pending_["options"][1]) == sorted(T.zone(s, "hand", 1))
            assert T.zone(s, "hand", 0) == T.zone(st, "hand", 0)
            assert s.view(0) == st.view(0)


def test_keep_future_keeps_the_random_sources_and_answers(pit):
    st = at_second_round(pit, 3, 0)
    s = st.sample_for(0, random.Random(1), keep_future=True)
    assert s.rng.getstate() == st.rng.getstate() and s.trng.getstate() == st.trng.getstate()
    s = st.sample_for(0, random.Random(1))
    assert s.rng.getstate() != st.rng.getstate()


def test_knowledge_is_saved_and_old_saves_load_as_everyone_knows(pit):
    st = at_second_round(pit, 5, 0)
    d = st.to_dict()
    back = State.from_dict(st.prog, json.loads(json.dumps(d)))
    assert back.known == st.known and back.known != [3] * len(st.known)
    del d["known"]
    old = State.from_dict(st.prog, json.loads(json.dumps(d)))
    assert old.known == [3] * len(st.known)
    assert st.clone().known == st.known


def test_a_blind_move_makes_the_source_unknown(pit):
    st = pit.new_state(2, seed=1)
    # the deal: each hand is known to its owner only, the rest of the deck to nobody
    for c in T.zone(st, "hand", 0):
        assert st.known[c] == 0b01
    for c in T.zone(st, "deck"):
        assert st.known[c] == 0
    # the markers have not moved since the game file put them there: everyone knows
    for c in T.zone(st, "markers"):
        assert st.known[c] == 0b11


# ------------------------------------------------------ errors in imagined games

def old_sample_for(self, player, rng, keep_future=False):
    """The sampler before it knew the rules' structure: every card anywhere hidden."""
    st = self.clone()
    st.log = None
    hidden = [s for s in range(len(st.z)) if not st.layout.visible(s, player)]
    cards = [c for s in hidden for c in st.z[s]]
    rng.shuffle(cards)
    i = 0
    for s in hidden:
        for k in range(len(st.z[s])):
            st.z[s][k] = cards[i]
            st.loc[cards[i]] = s
            i += 1
    st.rng = random.Random(rng.getrandbits(64))
    return st


def _lookahead_errors(game) -> int:
    """Imagined games the greedy bots had to skip over five whole games (each must finish)."""
    errors = 0
    for seed in range(5):
        st = game.new_state(2, seed=seed)
        m = Match(game, st, [GreedyBot(), GreedyBot()])
        m.run()
        assert st.finished
        errors += m.lookahead_errors
    return errors


def test_errors_in_imagined_games_are_the_bots_and_do_not_happen_now(monkeypatch):
    game = load("bank.cat")
    assert _lookahead_errors(game) == 0
    # the old sampler dealt tokens into hands, where the rules' sum of values fails: the
    # bot skips those imagined games, and the real game goes on to its end
    monkeypatch.setattr(State, "sample_for", old_sample_for)
    monkeypatch.setattr(State, "samples_for",       # the greedy bot draws its samples together
                        lambda self, player, rng, count: [old_sample_for(self, player, rng) for _ in range(count)])
    assert _lookahead_errors(game) > 0


def test_meow_tokens_stay_out_of_hands_in_imagined_games():
    game = catrules.load_game(ROOT / "games" / "meow.cat")
    prog = game.program
    zones = {z.index: z.name for z in prog.zones}
    tz = type_zones(prog)
    assert {zones[i] for i in tz["award"]} == {"tokens", "row", "won", "used"}
    assert "tokens" not in {zones[i] for i in tz["cat"]}
    awards = prog.cards_of_type["award"]
    for seed in range(10):
        st = game.new_state(4, seed=seed)
        rng = random.Random(seed)
        T.play_until(st, lambda s: s.decisions >= 3 + seed * 4)
        for p in range(4):
            s = st.sample_for(p, rng)
            for c in awards:
                assert st.layout.slot_spec[s.loc[c]].name in ("tokens", "row", "won", "used")
            assert s.view(p) == st.view(p)
