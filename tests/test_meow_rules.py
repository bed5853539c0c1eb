"""Meow, rule by rule: one or more tests per checklist id M01-M18.

The checklist is the project's Meow rules checklist (ids M01-M18, with its rulings).  Every
test builds a concrete situation (given hands, a given trick, given tokens) or
plays whole games, and checks the outcome against what the rules say.  The
expectations are worked out here, from the rules, by code that does not share
anything with ``games/meow.cat`` (see :func:`referee_winner` and
:func:`expected_total`); none of them was copied from a run.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import pytest

import catrules
from catrules.testing import cards, choose, empty, play_until, put, refresh, zone

GAME_PATH = Path(__file__).resolve().parents[1] / "games" / "meow.cat"

COLOURS = ("green", "blue", "pink")
ALL_COUNTS = (2, 3, 4, 5, 6)
#: M18: the values the expert variant takes out, per player count (inclusive ranges).
EXPERT_REMOVED = {2: range(6, 18), 3: range(9, 18), 4: range(12, 18), 5: range(15, 18), 6: range(0)}


# ============================================================== fixtures, helpers

@lru_cache(maxsize=None)
def _load():
    return catrules.load_game(GAME_PATH)


@pytest.fixture(scope="module")
def game():
    return _load()


def cat(game, colour, value) -> int:
    """The id of one cat card."""
    found = cards(game, colour=colour, value=value)
    assert len(found) == 1, (colour, value, found)
    return found[0]


def cat_ids(game) -> list:
    return [i for i in range(game.program.card_count) if game.card(i)["type"] == "cat"]


def award_ids(game) -> list:
    return [i for i in range(game.program.card_count) if game.card(i)["type"] == "award"]


def tokens_of(game, kind, value=None) -> list:
    """Ids of the award tokens of a kind (and value)."""
    attrs = {"kind": kind} if value is None else {"kind": kind, "value": value}
    return cards(game, **attrs)


def kind_of(game, c):
    return game.card(c).get("kind")


def value_of(game, c):
    return game.card(c).get("value")


def colour_of(game, c):
    return game.card(c).get("colour")


def is_award_decision(game, d) -> bool:
    return bool(d.options) and all(o.kind == "card" and game.card(o.value)["type"] == "award" for o in d.options)


def option_cards(d) -> set:
    return {o.value for o in d.options}


def arrange_hands(st, hands: dict) -> None:
    """Give each player exactly the given cards, then work out the pending decision again."""
    for p in range(st.n):
        empty(st, "hand", p)
    for p, ids in hands.items():
        put(st, ids, "hand", owner=p)
    refresh(st)


def expected_total(game, won: list) -> int:
    """M13, M15: the sum of the token values of ``won`` (fish count nothing), -20 for two or more vases."""
    food = sum(value_of(game, t) for t in won if kind_of(game, t) == "food")
    bones = sum(value_of(game, t) for t in won if kind_of(game, t) == "fishbone")
    vases = sum(1 for t in won if kind_of(game, t) == "vase")
    return food + bones + (-20 if vases >= 2 else 0)


def referee_winner(game, plays: list) -> int:
    """M10, written from the checklist: ``plays`` is [(player, card)] in play order, the first led.

    The cards that count are the green ones if any green was played, else those of the led
    colour; among them a 1 wins if the 18 of that colour was played too, else the highest wins.
    """
    led = colour_of(game, plays[0][1])
    contest = "green" if any(colour_of(game, c) == "green" for _p, c in plays) else led
    pool = [(p, value_of(game, c)) for p, c in plays if colour_of(game, c) == contest]
    values = {v for _p, v in pool}
    if 1 in values and 18 in values:
        return next(p for p, v in pool if v == 1)
    return max(pool, key=lambda pv: pv[1])[0]


# ------------------------------------------------------------------- one trick

_SLOT = re.compile(r"^(\w+) of player (\d+)$")


def _slot(name: str):
    m = _SLOT.match(name)
    return (m.group(1), int(m.group(2)) - 1) if m else (name, None)


def _events_since(st, start: int):
    """(kind, player, cards) for the moves in the log after index ``start``."""
    out = []
    for ev in st.log[start:]:
        if ev["t"] != "move":
            continue
        src, sp = _slot(ev["from"])
        dst, dp = _slot(ev["to"])
        out.append((src, sp, dst, dp, list(ev["cards"])))
    return out


def _plays_since(st, start: int) -> list:
    return [(dp, c) for src, sp, dst, dp, cs in _events_since(st, start) if src == "hand" and dst == "played"
            for c in cs]


@dataclass
class Trick:
    st: object
    leader: int
    seat: list            # seat[i] = the player i places after the leader
    plays: list           # [(player, card)] in play order, as the engine played them
    winner: int           # who took the token
    token: int            # the token taken
    row_before: list      # the row before the turn


def trick(game, hands: list, plays: list, n: int = 3, seed: int = 1) -> Trick:
    """Play one turn from a given situation.

    ``hands[i]`` and ``plays[i]`` are for the player ``i`` places after the leader of turn 1
    (``(colour, value)`` pairs).  A player who has a decision chooses ``plays[i]``; a player whose
    only legal card is forced plays it automatically (the plays are returned as they happened).
    """
    st = game.new_state(players=n, seed=seed, log=True)
    leader = st.pending()[0].player
    seat = [(leader + i) % n for i in range(n)]
    arrange_hands(st, {seat[i]: [cat(game, *cv) for cv in hands[i]] for i in range(n)})
    row_before = zone(st, "row")
    start = len(st.log)
    for i, (colour, value) in enumerate(plays):
        if len(_plays_since(st, start)) > i:
            continue            # this player's card was forced, it was played without a decision
        choose(st, seat[i], colour=colour, value=value)
    took = [(dp, c) for src, sp, dst, dp, cs in _events_since(st, start) if src == "row" and dst == "won" for c in cs]
    assert len(took) == 1, f"the turn did not end with one token taken: {took}"
    return Trick(st, leader, seat, _plays_since(st, start), took[0][0], took[0][1], row_before)


def expected_plays(game, t: Trick, plays: list) -> list:
    return [(t.seat[i], cat(game, *cv)) for i, cv in enumerate(plays)]


# ------------------------------------------------------------------ whole games

@dataclass
class TurnRec:
    plays: list = field(default_factory=list)    # [(player, card)]
    took: list = field(default_factory=list)     # [(player, token)]


@dataclass
class RoundRec:
    row: list = field(default_factory=list)      # the tokens laid out, left to right
    deal: dict = field(default_factory=dict)     # player -> cards dealt
    turns: list = field(default_factory=list)
    first_player: int = -1


@dataclass
class GameRec:
    game: object
    n: int
    expert: bool
    seed: int
    first_player: int              # at the start of the game
    st: object
    rounds: list
    fish_moves: list               # [(player, fishbone)] moved to used, in order
    fish_decisions: list           # [(player, option cards, default card)]
    boxed: list


def policy_random_cards_default_fish(game, rng):
    def decide(st, d):
        if is_award_decision(game, d):
            return d.default
        return rng.choice(d.options).id
    return decide


def play_recorded(game, n, seed, expert=False, policy=None) -> GameRec:
    """Play a whole game (random cards, default fish choices unless ``policy``) and record it from its log."""
    st = game.new_state(players=n, seed=seed, options=["expert"] if expert else [], log=True)
    fp0 = st.c["first_player"]
    boxed = zone(st, "box")
    policy = policy or policy_random_cards_default_fish(game, random.Random(seed * 31 + n))
    rounds: list = []
    fish_decisions: list = []
    while not st.finished:
        d = st.pending()[0]
        if is_award_decision(game, d):
            fish_decisions.append((d.player, option_cards(d), d.option(d.default).value))
        st.apply(d.player, policy(st, d))
        assert st.decisions < 10_000
    fish_moves = []
    phase = None
    for ev in st.log:
        if ev["t"] == "phase":
            phase = ev["name"]
            if phase == "round":
                rounds.append(RoundRec())
            elif phase == "turn":
                rounds[-1].turns.append(TurnRec())
            continue
        if ev["t"] != "move":
            continue
        src, sp = _slot(ev["from"])
        dst, dp = _slot(ev["to"])
        if src == "tokens" and dst == "row":
            rounds[-1].row.extend(ev["cards"])
        elif src == "deck" and dst == "hand":
            rounds[-1].deal.setdefault(dp, []).extend(ev["cards"])
        elif src == "hand" and dst == "played":
            rounds[-1].turns[-1].plays.extend((dp, c) for c in ev["cards"])
        elif src == "row" and dst == "won":
            rounds[-1].turns[-1].took.extend((dp, c) for c in ev["cards"])
        elif dst == "used":
            assert phase == "fish", f"a token was cancelled outside the fish phase: {ev}"
            fish_moves.extend((dp, c) for c in ev["cards"])
    for r, rec in enumerate(rounds):
        rec.first_player = (fp0 + r) % n       # M12: passes clockwise after each round
    return GameRec(game, n, expert, seed, fp0, st, rounds, fish_moves, fish_decisions, boxed)


@lru_cache(maxsize=None)
def recorded_games() -> tuple:
    game = _load()
    out = []
    for n in ALL_COUNTS:
        for expert in (False, True):
            for seed in range(4):
                out.append(play_recorded(game, n, seed, expert))
    return tuple(out)


def at_round_start(k):
    """The first decision of round ``k`` (1-based): the row holds its 9 fresh tokens, none taken."""
    return lambda st: (len(zone(st, "tokens")) == 27 - 9 * k and len(zone(st, "row")) == 9
                       and bool(st.pending()))


def finish_with_won(game, won: dict, n=3, seed=5, fish_policy=None):
    """Play to turn 8 of round 3, replace every player's tokens by ``won`` ({player: [tokens]}),
    take the last tokens out of the row (so the last two turns award nothing), and play to the end.

    Returns the finished state and the fish decisions met: [(player, option cards, default card)].
    """
    st = game.new_state(players=n, seed=seed, log=True)
    play_until(st, lambda s: len(zone(s, "tokens")) == 0 and len(zone(s, "row")) == 2 and bool(s.pending())
               and all(not zone(s, "played", p) for p in range(s.n)))
    assert not any(is_award_decision(game, d) for d in st.pending())
    for p in range(n):
        empty(st, "won", p)
        empty(st, "used", p)
    empty(st, "row")
    for p, toks in won.items():
        put(st, toks, "won", owner=p)
    refresh(st)
    seen = []
    while not st.finished:
        d = st.pending()[0]
        if is_award_decision(game, d):
            seen.append((d.player, option_cards(d), d.option(d.default).value))
            oid = fish_policy(st, d) if fish_policy else d.default
        else:
            oid = d.default
        st.apply(d.player, oid)
    return st, seen


# ========================================================================== M01

def test_M01_fifty_four_cat_cards_three_colours_values_1_to_18(game):
    cats = cat_ids(game)
    assert len(cats) == 54
    pairs = Counter((colour_of(game, c), value_of(game, c)) for c in cats)
    assert set(pairs) == {(col, v) for col in COLOURS for v in range(1, 19)}
    assert all(k == 1 for k in pairs.values())


def test_M01_all_cat_cards_are_in_play_at_the_start(game):
    st = game.new_state(players=3, seed=2)
    in_play = zone(st, "deck") + [c for p in range(3) for c in zone(st, "hand", p)]
    assert sorted(in_play) == sorted(cat_ids(game))
    assert zone(st, "box") == []


def test_M01_green_is_trump_green_one_beats_led_blue_eighteen(game):
    # the lowest green beats the highest card of the led colour
    hands = [[("blue", 18), ("pink", 2), ("pink", 3)],
             [("green", 1), ("pink", 4), ("pink", 6)],
             [("blue", 17), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 18), ("green", 1), ("blue", 17)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


# ========================================================================== M02

def test_M02_award_tokens_are_exactly_the_ruled_multiset(game):
    awards = award_ids(game)
    assert len(awards) == 27
    kinds = Counter(kind_of(game, t) for t in awards)
    assert kinds == {"food": 11, "fishbone": 8, "fish": 4, "vase": 4}
    food = sorted(value_of(game, t) for t in awards if kind_of(game, t) == "food")
    assert food == [1, 2, 3, 4, 5, 5, 6, 7, 8, 9, 10]
    bones = sorted(value_of(game, t) for t in awards if kind_of(game, t) == "fishbone")
    assert bones == [-10, -8, -6, -5, -4, -3, -2, -1]
    # fish and broken vases have no face value: they add nothing to a sum
    assert all(value_of(game, t) in (0, None) for t in awards if kind_of(game, t) in ("fish", "vase"))


def test_M02_all_tokens_start_face_down_or_in_the_row(game):
    st = game.new_state(players=4, seed=3)
    assert sorted(zone(st, "tokens") + zone(st, "row")) == sorted(award_ids(game))
    assert all(zone(st, z, p) == [] for z in ("won", "used") for p in range(4))


# ========================================================================== M03

@pytest.mark.parametrize("n", ALL_COUNTS)
def test_M03_two_to_six_players_accepted(game, n):
    st = game.new_state(players=n, seed=n)
    assert st.n == n and not st.finished
    assert len(st.pending()) == 1
    assert all(len(zone(st, "hand", p)) == 9 for p in range(n))


@pytest.mark.parametrize("n", [0, 1, 7, 8])
def test_M03_other_player_counts_rejected(game, n):
    with pytest.raises(catrules.CatrulesError):
        game.new_state(players=n, seed=1)


def test_M03_declared_player_range(game):
    assert (game.min_players, game.max_players) == (2, 6)


def test_M03_one_first_player_token_held_by_a_player(game):
    for n in ALL_COUNTS:
        st = game.new_state(players=n, seed=7)
        fp = st.c["first_player"]
        assert isinstance(fp, int) and 0 <= fp < n


# ========================================================================== M04

def test_M04_each_round_lays_out_nine_new_tokens(game):
    st = game.new_state(players=3, seed=4)
    seen = []
    for k in (1, 2, 3):
        play_until(st, at_round_start(k))
        row = zone(st, "row")
        assert len(row) == 9
        assert len(zone(st, "tokens")) == 27 - 9 * k          # the other stacks stay face down
        assert all(kind_of(game, t) is not None for t in row)
        assert not set(row) & set(seen), "a token came out twice"
        seen += row
    assert sorted(seen) == sorted(award_ids(game))


def test_M04_all_27_tokens_distinct_over_every_recorded_game(game):
    for g in recorded_games():
        rows = [r.row for r in g.rounds]
        assert [len(r) for r in rows] == [9, 9, 9], (g.n, g.seed)
        assert sorted(t for r in rows for t in r) == sorted(award_ids(game)), (g.n, g.seed)


def test_M04_tokens_are_shuffled(game):
    rows = {tuple(zone(game.new_state(players=3, seed=s), "row")) for s in range(8)}
    assert len(rows) > 1, "every seed lays out the same row"
    awards = award_ids(game)
    in_order = {tuple(awards[:9]), tuple(awards[-9:]), tuple(reversed(awards[:9])), tuple(reversed(awards[-9:]))}
    assert not rows & in_order, "the row is the tokens in their printed order"


# ========================================================================== M05

def test_M05_first_player_is_random_and_varies_with_seed(game):
    for n in (2, 3, 5):
        firsts = {game.new_state(players=n, seed=s).c["first_player"] for s in range(40)}
        assert firsts == set(range(n)), (n, firsts)


def test_M05_same_seed_same_first_player_and_deal(game):
    a, b = game.new_state(players=3, seed=11), game.new_state(players=3, seed=11)
    assert a.c["first_player"] == b.c["first_player"]
    assert [zone(a, "hand", p) for p in range(3)] == [zone(b, "hand", p) for p in range(3)]


def test_M05_deck_is_shuffled(game):
    deals = set()
    for s in range(6):
        st = game.new_state(players=3, seed=s)
        hands = [zone(st, "hand", p) for p in range(3)]
        deals.add(tuple(tuple(sorted(h)) for h in hands))
        # an unshuffled deck (cards in their printed order) deals nine of one colour to a player
        assert all(len({colour_of(game, c) for c in h}) > 1 for h in hands)
        order = zone(st, "deck")
        assert order != sorted(order) and order != sorted(order, reverse=True)
    assert len(deals) == 6, "two seeds dealt the same hands"


def test_M05_first_player_token_holder_makes_the_first_decision(game):
    for s in range(10):
        st = game.new_state(players=4, seed=s)
        assert st.pending()[0].player == st.c["first_player"] == st.c["leader"]


# ========================================================================== M06

def test_M06_tokens_won_strictly_left_to_right(game):
    for g in recorded_games():
        for r in g.rounds:
            taken = [tok for t in r.turns for _p, tok in t.took]
            assert taken == r.row, (g.n, g.seed, "tokens taken out of order")


def test_M06_each_turn_takes_the_leftmost_remaining_token(game):
    # turns 1 to 8 each start with a decision, so the game can be watched turn by turn
    # until turn 8 starts; the whole-game test above covers turns 8 and 9 too
    st = game.new_state(players=3, seed=8)
    for _turn in range(1, 8):
        before = zone(st, "row")
        won_before = [zone(st, "won", p) for p in range(3)]
        play_until(st, lambda s, k=len(before): len(zone(s, "row")) == k - 1)
        won_after = [zone(st, "won", p) for p in range(3)]
        gained = [p for p in range(3) if won_after[p] != won_before[p]]
        assert len(gained) == 1
        assert won_after[gained[0]] == won_before[gained[0]] + [before[0]]
        assert zone(st, "row") == before[1:]


def test_M06_row_is_face_up(game):
    st = game.new_state(players=3, seed=2)
    row = zone(st, "row")
    for who in (0, 1, 2, None):
        entry = next(z for z in st.view(who)["zones"] if z["zone"] == "row")
        assert [c["id"] for c in entry["cards"]] == row


# ========================================================================== M07

@pytest.mark.parametrize("n", ALL_COUNTS)
def test_M07_each_player_draws_nine(game, n):
    st = game.new_state(players=n, seed=n + 20)
    hands = [zone(st, "hand", p) for p in range(n)]
    assert [len(h) for h in hands] == [9] * n
    assert len(set(c for h in hands for c in h)) == 9 * n
    assert len(zone(st, "deck")) == 54 - 9 * n
    assert all(game.card(c)["type"] == "cat" for h in hands for c in h)


def test_M07_hands_are_private_to_their_owner(game):
    st = game.new_state(players=4, seed=9)
    for me in range(4):
        v = st.view(me)
        hand_entries = [z for z in v["zones"] if z["zone"] == "hand"]
        assert len(hand_entries) == 4
        for e in hand_entries:
            assert e["count"] == 9
            if e["owner"] == me:
                assert [c["id"] for c in e["cards"]] == zone(st, "hand", me)
            else:
                assert e["cards"] is None
        deck = next(z for z in v["zones"] if z["zone"] == "deck")
        assert deck["cards"] is None and deck["count"] == 54 - 36
    spectator = st.view(None)
    assert all(z["cards"] is None for z in spectator["zones"] if z["zone"] == "hand")


def test_M07_deal_events_show_cards_only_to_their_owner(game):
    from catrules.play.views import visible_event
    st = game.new_state(players=3, seed=14, log=True)
    deals = [ev for ev in st.log if ev["t"] == "move" and ev["from"] == "deck"
             and _slot(ev["to"])[0] == "hand"]
    assert len(deals) == 3
    for ev in deals:
        owner = _slot(ev["to"])[1]
        assert sorted(ev["cards"]) == sorted(zone(st, "hand", owner))
        for who in (0, 1, 2, None):
            seen = visible_event(st, ev, who)
            if who == owner:
                assert seen["cards"] == ev["cards"]
            else:
                assert seen["cards"] is None and seen["count"] == 9


def test_M07_decision_offers_only_own_cards(game):
    st = game.new_state(players=3, seed=10)
    d = st.pending()[0]
    assert option_cards(d) == set(zone(st, "hand", d.player))


# ========================================================================== M08

def test_M08_first_turn_starter_holds_the_token(game):
    for n in ALL_COUNTS:
        for s in range(5):
            st = game.new_state(players=n, seed=s)
            d = st.pending()[0]
            assert d.player == st.c["first_player"]
            assert option_cards(d) == set(zone(st, "hand", d.player))   # a lead: any card


def test_M08_winner_of_a_turn_starts_the_next(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("blue", 13), ("pink", 4), ("green", 6)],
             [("blue", 5), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("blue", 13), ("blue", 5)]
    t = trick(game, hands, plays)
    a = t.seat[1]
    assert t.winner == a and a != t.leader
    d = t.st.pending()[0]
    assert d.player == a and t.st.c["leader"] == a
    # and it is a lead: every remaining card may be played, whatever its colour
    assert option_cards(d) == {cat(game, "pink", 4), cat(game, "green", 6)}


def test_M08_starters_in_whole_games(game):
    for g in recorded_games():
        for r in g.rounds:
            assert len(r.turns) == 9
            assert r.turns[0].plays[0][0] == r.first_player, (g.n, g.seed)
            for prev, cur in zip(r.turns, r.turns[1:]):
                assert cur.plays[0][0] == prev.took[0][0], (g.n, g.seed)


# ========================================================================== M09

def test_M09_follower_must_play_led_colour(game):
    st = game.new_state(players=3, seed=1)
    L = st.pending()[0].player
    a, b = (L + 1) % 3, (L + 2) % 3
    arrange_hands(st, {L: [cat(game, "blue", 8), cat(game, "pink", 1)],
                       a: [cat(game, "blue", 5), cat(game, "blue", 13), cat(game, "green", 3), cat(game, "pink", 9)],
                       b: [cat(game, "pink", 10), cat(game, "green", 11)]})
    choose(st, L, colour="blue", value=8)
    d = st.pending()[0]
    assert d.player == a
    assert option_cards(d) == {cat(game, "blue", 5), cat(game, "blue", 13)}
    with pytest.raises(catrules.IllegalChoice):
        st.apply(a, f"c{cat(game, 'green', 3)}")
    with pytest.raises(catrules.IllegalChoice):
        st.apply(a, f"c{cat(game, 'pink', 9)}")


def test_M09_player_void_in_led_colour_may_play_any_card(game):
    st = game.new_state(players=3, seed=1)
    L = st.pending()[0].player
    a, b = (L + 1) % 3, (L + 2) % 3
    a_hand = [cat(game, "green", 3), cat(game, "pink", 9), cat(game, "pink", 12)]
    arrange_hands(st, {L: [cat(game, "blue", 8), cat(game, "pink", 1)], a: a_hand,
                       b: [cat(game, "blue", 10), cat(game, "green", 11)]})
    choose(st, L, colour="blue", value=8)
    d = st.pending()[0]
    assert d.player == a
    assert option_cards(d) == set(a_hand)


def test_M09_leader_may_play_any_card(game):
    st = game.new_state(players=3, seed=6)
    L = st.pending()[0].player
    hand = [cat(game, "green", 3), cat(game, "blue", 9), cat(game, "pink", 12), cat(game, "pink", 1)]
    others = [c for c in cat_ids(game) if c not in hand]
    arrange_hands(st, {L: hand, (L + 1) % 3: others[:4], (L + 2) % 3: others[4:8]})
    d = st.pending()[0]
    assert d.player == L and option_cards(d) == set(hand)


def test_M09_green_does_not_excuse_following(game):
    # a player holding a card of the led colour may not trump, even with a green card in hand:
    # the single legal card is played without a decision
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("blue", 2), ("green", 18), ("green", 17)],
             [("pink", 4), ("pink", 6), ("green", 1)]]
    plays = [("blue", 8), ("blue", 2), ("pink", 4)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.leader


def test_M09_players_play_clockwise_from_the_starter(game):
    for g in recorded_games():
        for r in g.rounds:
            for turn in r.turns:
                lead = turn.plays[0][0]
                assert [p for p, _c in turn.plays] == [(lead + i) % g.n for i in range(g.n)]


def test_M09_follow_colour_in_whole_games(game):
    for g in recorded_games():
        for r in g.rounds:
            hands = {p: set(cs) for p, cs in r.deal.items()}
            for turn in r.turns:
                led = colour_of(game, turn.plays[0][1])
                for i, (p, c) in enumerate(turn.plays):
                    assert c in hands[p], "a card that was not in the player's hand"
                    if i > 0 and any(colour_of(game, x) == led for x in hands[p]):
                        assert colour_of(game, c) == led, (g.n, g.seed, "did not follow the led colour")
                    hands[p].remove(c)
            assert all(not h for h in hands.values())


# ========================================================================== M10

def test_M10_rulebook_lead_blue_8_blue_13_beats_blue_5(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("blue", 13), ("pink", 4), ("pink", 6)],
             [("blue", 5), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("blue", 13), ("blue", 5)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1] == referee_winner(game, t.plays)


def test_M10_highest_of_led_colour_wins_wherever_it_sits(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("blue", 5), ("pink", 4), ("pink", 6)],
             [("blue", 13), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("blue", 5), ("blue", 13)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[2]


def test_M10_green_five_beats_led_blue(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("green", 5), ("pink", 4), ("pink", 6)],      # void in blue
             [("blue", 18), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("green", 5), ("blue", 18)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


def test_M10_green_five_among_non_green_cards_wins(game):
    # the rulebook picture: one green 5 among cards of other colours, higher ones included
    hands = [[("pink", 17), ("blue", 2), ("blue", 3)],
             [("green", 5), ("blue", 4), ("blue", 6)],      # void in pink
             [("pink", 18), ("blue", 7), ("blue", 9)]]
    plays = [("pink", 17), ("green", 5), ("pink", 18)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


def test_M10_green_one_beats_green_eighteen(game):
    hands = [[("green", 18), ("pink", 2), ("pink", 3)],
             [("green", 1), ("pink", 4), ("pink", 6)],
             [("green", 10), ("pink", 7), ("pink", 9)]]
    plays = [("green", 18), ("green", 1), ("green", 10)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


def test_M10_green_one_beats_green_eighteen_when_both_trump_a_blue_lead(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("green", 18), ("pink", 4), ("pink", 6)],
             [("green", 1), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("green", 18), ("green", 1)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[2]


def test_M10_one_beats_eighteen_and_seventeen_of_led_colour(game):
    hands = [[("pink", 1), ("blue", 2), ("blue", 3)],
             [("pink", 18), ("blue", 4), ("blue", 6)],
             [("pink", 17), ("blue", 7), ("blue", 9)]]
    plays = [("pink", 1), ("pink", 18), ("pink", 17)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.leader


def test_M10_green_one_without_green_eighteen_is_lowest(game):
    # the 18 played is blue, not green: the green 1 is just the lowest green
    hands = [[("green", 1), ("pink", 2), ("pink", 3)],
             [("green", 2), ("pink", 4), ("pink", 6)],
             [("blue", 18), ("pink", 7), ("pink", 9)]]     # void in green
    plays = [("green", 1), ("green", 2), ("blue", 18)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


def test_M10_blue_one_with_only_a_pink_eighteen_is_lowest(game):
    hands = [[("blue", 1), ("green", 2), ("green", 3)],
             [("blue", 2), ("green", 4), ("green", 6)],
             [("pink", 18), ("pink", 7), ("pink", 9)]]     # void in blue, plays pink 18
    plays = [("blue", 1), ("blue", 2), ("pink", 18)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[1]


def test_M10_led_one_and_eighteen_still_lose_to_green(game):
    hands = [[("blue", 18), ("pink", 2), ("pink", 3)],
             [("blue", 1), ("pink", 4), ("pink", 6)],
             [("green", 2), ("pink", 7), ("pink", 9)]]     # void in blue
    plays = [("blue", 18), ("blue", 1), ("green", 2)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[2]


def test_M10_off_colour_one_and_eighteen_do_not_matter(game):
    hands = [[("blue", 8), ("green", 2), ("green", 3)],
             [("pink", 1), ("green", 4), ("green", 6)],     # void in blue
             [("pink", 18), ("green", 7), ("green", 9)]]    # void in blue
    plays = [("blue", 8), ("pink", 1), ("pink", 18)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.leader


def test_M10_off_colour_one_and_eighteen_do_not_matter_when_green_played(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("pink", 1), ("pink", 4), ("pink", 6)],
             [("pink", 18), ("pink", 7), ("pink", 9)],
             [("green", 2), ("pink", 10), ("pink", 11)]]
    plays = [("blue", 8), ("pink", 1), ("pink", 18), ("green", 2)]
    t = trick(game, hands, plays, n=4)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[3]


def test_M10_led_colour_beats_higher_off_colour_cards(game):
    hands = [[("pink", 3), ("green", 2), ("green", 3)],
             [("blue", 18), ("green", 4), ("green", 6)],   # void in pink
             [("pink", 2), ("green", 7), ("green", 9)]]
    plays = [("pink", 3), ("blue", 18), ("pink", 2)]
    t = trick(game, hands, plays)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.leader


def test_M10_highest_green_wins_among_several_greens(game):
    hands = [[("blue", 5), ("pink", 2), ("pink", 3)],
             [("green", 9), ("pink", 4), ("pink", 6)],
             [("green", 4), ("pink", 7), ("pink", 8)],
             [("green", 17), ("pink", 10), ("pink", 11)]]
    plays = [("blue", 5), ("green", 9), ("green", 4), ("green", 17)]
    t = trick(game, hands, plays, n=4)
    assert t.plays == expected_plays(game, t, plays)
    assert t.winner == t.seat[3]


def test_M10_winners_in_whole_games_match_the_referee(game):
    for g in recorded_games():
        for r in g.rounds:
            for turn in r.turns:
                assert len(turn.took) == 1
                assert turn.took[0][0] == referee_winner(game, turn.plays), (g.n, g.seed, turn.plays)


# ========================================================================== M11

def test_M11_winner_takes_leftmost_token_and_played_cards_are_discarded(game):
    hands = [[("blue", 8), ("pink", 2), ("pink", 3)],
             [("green", 5), ("pink", 4), ("pink", 6)],
             [("blue", 18), ("pink", 7), ("pink", 9)]]
    plays = [("blue", 8), ("green", 5), ("blue", 18)]
    t = trick(game, hands, plays)
    st, a = t.st, t.seat[1]
    assert t.winner == a and t.token == t.row_before[0]
    assert zone(st, "won", a) == [t.row_before[0]]
    assert all(zone(st, "won", p) == [] for p in range(3) if p != a)
    assert zone(st, "row") == t.row_before[1:]
    assert sorted(zone(st, "discard")) == sorted(cat(game, *cv) for cv in plays)
    assert all(zone(st, "played", p) == [] for p in range(3))
    assert all(len(zone(st, "hand", p)) == 2 for p in range(3))


def test_M11_every_turn_gives_exactly_one_token_to_its_winner(game):
    for g in recorded_games():
        assert sum(len(r.turns) for r in g.rounds) == 27
        for r in g.rounds:
            for turn in r.turns:
                assert len(turn.took) == 1 and len(turn.plays) == g.n


# ========================================================================== M12

def test_M12_new_round_reshuffles_every_cat_card_and_passes_first_player(game):
    st = game.new_state(players=3, seed=12)
    fp0 = st.c["first_player"]
    played_round1 = {c for p in range(3) for c in zone(st, "hand", p)}   # all of them get played
    play_until(st, at_round_start(2))
    # everything played in round 1 was in the discard; now all 54 are deck + hands again
    hands = [zone(st, "hand", p) for p in range(3)]
    assert [len(h) for h in hands] == [9, 9, 9]
    assert zone(st, "discard") == [] and all(zone(st, "played", p) == [] for p in range(3))
    assert sorted(zone(st, "deck") + [c for h in hands for c in h]) == sorted(cat_ids(game))
    assert {c for h in hands for c in h} & played_round1, "no card played in round 1 came back"
    assert st.c["first_player"] == (fp0 + 1) % 3
    assert st.pending()[0].player == st.c["leader"] == (fp0 + 1) % 3
    play_until(st, at_round_start(3))
    assert st.c["first_player"] == (fp0 + 2) % 3
    assert st.pending()[0].player == (fp0 + 2) % 3


def test_M12_expert_round_two_redeals_the_discarded_cards(game):
    # in the expert variant every card is dealt, so round 2 needs all of round 1's cards back
    st = game.new_state(players=3, seed=13, options=["expert"])
    r1 = [sorted(zone(st, "hand", p)) for p in range(3)]
    play_until(st, at_round_start(2))
    r2 = [sorted(zone(st, "hand", p)) for p in range(3)]
    assert [len(h) for h in r2] == [9, 9, 9]
    assert sorted(c for h in r2 for c in h) == sorted(c for h in r1 for c in h)
    assert zone(st, "deck") == [] and zone(st, "discard") == []
    assert r2 != r1, "round 2 dealt the same hands: the cards were not shuffled"


def test_M12_first_player_passes_clockwise_in_whole_games(game):
    for g in recorded_games():
        assert [r.first_player for r in g.rounds] == [(g.first_player + k) % g.n for k in range(3)]
        assert [r.turns[0].plays[0][0] for r in g.rounds] == [(g.first_player + k) % g.n for k in range(3)]
        for r in g.rounds:
            assert sorted(len(h) for h in r.deal.values()) == [9] * g.n


# ========================================================================== M13

def test_M13_three_rounds_of_nine_turns_take_all_tokens(game):
    for g in recorded_games():
        st = g.st
        assert st.finished and len(g.rounds) == 3
        assert zone(st, "tokens") == [] and zone(st, "row") == []
        taken = [t for p in range(g.n) for z in ("won", "used") for t in zone(st, z, p)]
        assert sorted(taken) == sorted(award_ids(game))


def test_M13_totals_are_the_sums_of_the_tokens(game):
    for g in recorded_games():
        for p, sc in enumerate(g.st.scores()):
            won = zone(g.st, "won", p)
            assert sc["total"] == expected_total(game, won), (g.n, g.seed, p)
            assert sc["food"] == sum(value_of(game, t) for t in won if kind_of(game, t) == "food")


def test_M13_total_of_a_given_set_of_tokens(game):
    st = game.new_state(players=3, seed=1)
    put(st, [tokens_of(game, "food", 1)[0], tokens_of(game, "food", 2)[0], tokens_of(game, "food", 9)[0],
             tokens_of(game, "fishbone", -4)[0]], "won", owner=0)
    put(st, [tokens_of(game, "food", 5)[0], tokens_of(game, "food", 5)[1], tokens_of(game, "fish")[0]], "won",
        owner=1)
    sc = st.scores()
    assert sc[0]["food"] == 12 and sc[0]["fishbones_kept"] == -4 and sc[0]["total"] == 8
    assert sc[1]["total"] == 10            # a fish kept is worth nothing
    assert sc[2]["total"] == 0


def test_M13_cancelled_fishbones_do_not_count(game):
    st = game.new_state(players=3, seed=1)
    put(st, [tokens_of(game, "food", 7)[0], tokens_of(game, "fish")[0]], "won", owner=2)
    put(st, tokens_of(game, "fishbone", -6), "used", owner=2)
    sc = st.scores()[2]
    assert sc["fish_used"] == 1 and sc["fishbones_kept"] == 0 and sc["total"] == 7


# ========================================================================== M14

def test_M14_fish_decision_offers_exactly_the_fishbones_default_most_negative(game):
    fish = tokens_of(game, "fish")
    b10, b2 = tokens_of(game, "fishbone", -10)[0], tokens_of(game, "fishbone", -2)[0]
    food6, vase = tokens_of(game, "food", 6)[0], tokens_of(game, "vase")[0]
    st, seen = finish_with_won(game, {1: [fish[0], b10, food6, b2, vase]})
    assert seen == [(1, {b10, b2}, b10)]
    assert zone(st, "used", 1) == [b10]
    assert sorted(zone(st, "won", 1)) == sorted([fish[0], food6, b2, vase])
    assert st.scores()[1]["total"] == 6 - 2


def test_M14_owner_chooses_which_fishbone_to_discard(game):
    fish = tokens_of(game, "fish")
    b10, b2 = tokens_of(game, "fishbone", -10)[0], tokens_of(game, "fishbone", -2)[0]
    food6 = tokens_of(game, "food", 6)[0]
    pick_b2 = lambda st, d: next(o.id for o in d.options if o.value == b2)   # noqa: E731
    st, seen = finish_with_won(game, {0: [fish[0], b10, food6, b2]}, fish_policy=pick_b2)
    assert [s[0] for s in seen] == [0]
    assert zone(st, "used", 0) == [b2]
    assert st.scores()[0]["total"] == 6 - 10


def test_M14_one_fishbone_per_fish(game):
    fish = tokens_of(game, "fish")
    b1, b4, b8 = (tokens_of(game, "fishbone", v)[0] for v in (-1, -4, -8))
    b3, b5 = tokens_of(game, "fishbone", -3)[0], tokens_of(game, "fishbone", -5)[0]
    st, seen = finish_with_won(game, {0: [fish[0], fish[1], b1, b4, b8],     # two fish, three bones
                                      2: [fish[2], b3, b5]})                 # one fish, two bones
    # player 1 is asked twice (the second time among the two bones left), player 3 once
    assert [(p, opts) for p, opts, _d in seen] == [(0, {b1, b4, b8}), (0, {b1, b4}), (2, {b3, b5})]
    assert sorted(zone(st, "used", 0)) == sorted([b8, b4])
    assert zone(st, "used", 2) == [b5]
    sc = st.scores()
    assert sc[0]["total"] == -1 and sc[0]["fish_used"] == 2
    assert sc[2]["total"] == -3 and sc[2]["fish_used"] == 1


def test_M14_fish_without_fishbone_does_nothing(game):
    fish = tokens_of(game, "fish")
    b6 = tokens_of(game, "fishbone", -6)[0]
    food3 = tokens_of(game, "food", 3)[0]
    st, seen = finish_with_won(game, {0: [fish[0], fish[1], b6],     # two fish, one bone: one is wasted
                                      1: [fish[2], food3]})          # a fish and no bone
    assert seen == []                                                # nothing to choose anywhere
    assert zone(st, "used", 0) == [b6]
    assert sorted(zone(st, "won", 0)) == sorted([fish[0], fish[1]])
    assert zone(st, "used", 1) == [] and sorted(zone(st, "won", 1)) == sorted([fish[2], food3])
    sc = st.scores()
    assert (sc[0]["total"], sc[0]["fish_used"]) == (0, 1)
    assert (sc[1]["total"], sc[1]["fish_used"]) == (3, 0)


def test_M14_fishbones_without_fish_are_all_kept(game):
    b8, b1 = tokens_of(game, "fishbone", -8)[0], tokens_of(game, "fishbone", -1)[0]
    st, seen = finish_with_won(game, {2: [b8, b1]})
    assert seen == [] and zone(st, "used", 2) == []
    assert st.scores()[2]["total"] == -9


def test_M14_in_whole_games_each_fish_cancels_the_most_negative_bone(game):
    for g in recorded_games():
        st = g.st
        for p in range(g.n):
            won, used = zone(st, "won", p), zone(st, "used", p)
            fish = sum(1 for t in won if kind_of(game, t) == "fish")
            bones = sorted(value_of(game, t) for t in won + used if kind_of(game, t) == "fishbone")
            assert all(kind_of(game, t) == "fishbone" for t in used)
            assert len(used) == min(fish, len(bones)), (g.n, g.seed, p)
            # default choices: the most negative ones go
            assert sorted(value_of(game, t) for t in used) == bones[:len(used)]
            assert st.scores()[p]["fish_used"] == len(used)
        for p, opts, dflt in g.fish_decisions:
            assert all(kind_of(game, t) == "fishbone" for t in opts)
            assert value_of(game, dflt) == min(value_of(game, t) for t in opts)


# ========================================================================== M15

@pytest.mark.parametrize("vases, expected", [(0, 0), (1, 0), (2, -20), (3, -20), (4, -20)])
def test_M15_broken_vases(game, vases, expected):
    st = game.new_state(players=3, seed=1)
    food7 = tokens_of(game, "food", 7)[0]
    put(st, [food7] + tokens_of(game, "vase")[:vases], "won", owner=1)
    sc = st.scores()[1]
    assert sc["vases"] == expected
    assert sc["total"] == 7 + expected


def test_M15_vases_of_other_players_do_not_add_up(game):
    st = game.new_state(players=3, seed=1)
    v = tokens_of(game, "vase")
    put(st, v[0], "won", owner=0)
    put(st, v[1], "won", owner=2)
    assert [s["vases"] for s in st.scores()] == [0, 0, 0]


# ========================================================================== M16

def test_M16_highest_total_wins(game):
    st = game.new_state(players=3, seed=1)
    f = lambda v, i=0: tokens_of(game, "food", v)[i]   # noqa: E731
    put(st, [f(10), tokens_of(game, "fishbone", -3)[0]], "won", owner=0)            # 7
    put(st, [f(8)], "won", owner=1)                                                  # 8
    put(st, [f(9), f(6)] + tokens_of(game, "vase")[:2], "won", owner=2)              # -5
    assert [s["total"] for s in st.scores()] == [7, 8, -5]
    assert st.winners() == [1]


def test_M16_tied_players_share_the_win(game):
    st = game.new_state(players=4, seed=1)
    f = lambda v, i=0: tokens_of(game, "food", v)[i]   # noqa: E731
    put(st, [f(10)], "won", owner=0)                   # 10
    put(st, [f(3)], "won", owner=1)                    # 3
    put(st, [f(6), f(4)], "won", owner=2)              # 10
    put(st, [f(5), f(5, 1)], "won", owner=3)           # 10... plus one vase: still 10
    put(st, tokens_of(game, "vase")[0], "won", owner=3)
    assert [s["total"] for s in st.scores()] == [10, 3, 10, 10]
    assert st.winners() == [0, 2, 3]


def test_M16_whole_games_winners_have_the_highest_total(game):
    for g in recorded_games():
        totals = [expected_total(game, zone(g.st, "won", p)) for p in range(g.n)]
        assert g.st.winners() == [p for p in range(g.n) if totals[p] == max(totals)]
        v = g.st.view(0)
        assert v["finished"] and v["winners"] == g.st.winners()


# ========================================================================== M17

def test_M17_rulebook_example_scores_18(game):
    food10, food8 = tokens_of(game, "food", 10)[0], tokens_of(game, "food", 8)[0]
    b5 = tokens_of(game, "fishbone", -5)[0]
    fish, vase = tokens_of(game, "fish")[0], tokens_of(game, "vase")[0]
    st, seen = finish_with_won(game, {0: [food10, food8, b5, fish, vase]})
    assert seen == []                       # one bone, one fish: no choice to make
    assert zone(st, "used", 0) == [b5]      # the fish discarded the -5
    sc = st.scores()[0]
    assert sc["food"] == 18 and sc["fishbones_kept"] == 0 and sc["vases"] == 0 and sc["fish_used"] == 1
    assert sc["total"] == 10 + 8 == 18


def test_M17_same_tokens_for_another_player_in_a_bigger_game(game):
    food10, food8 = tokens_of(game, "food", 10)[0], tokens_of(game, "food", 8)[0]
    b5, b10 = tokens_of(game, "fishbone", -5)[0], tokens_of(game, "fishbone", -10)[0]
    fish, vase = tokens_of(game, "fish"), tokens_of(game, "vase")
    st, _seen = finish_with_won(game, {3: [food10, food8, b5, fish[0], vase[0]],
                                       1: [b10, vase[1], vase[2]]}, n=5, seed=3)
    sc = st.scores()
    assert sc[3]["total"] == 18
    assert sc[1]["total"] == -10 - 20
    assert st.winners() == [3]


# ========================================================================== M18

@pytest.mark.parametrize("n", ALL_COUNTS)
def test_M18_expert_removes_the_right_values(game, n):
    st = game.new_state(players=n, seed=n, options=["expert"])
    removed = EXPERT_REMOVED[n]
    expected_box = {cat(game, col, v) for col in COLOURS for v in removed}
    assert set(zone(st, "box")) == expected_box
    remaining = set(cat_ids(game)) - expected_box
    assert len(remaining) == 9 * n
    hands = [zone(st, "hand", p) for p in range(n)]
    assert [len(h) for h in hands] == [9] * n
    assert {c for h in hands for c in h} == remaining        # every remaining card is dealt
    assert zone(st, "deck") == []


def test_M18_two_players_keep_one_to_five_and_eighteen(game):
    st = game.new_state(players=2, seed=4, options=["expert"])
    kept = {(colour_of(game, c), value_of(game, c)) for p in range(2) for c in zone(st, "hand", p)}
    assert kept == {(col, v) for col in COLOURS for v in (1, 2, 3, 4, 5, 18)}


@pytest.mark.parametrize("n", ALL_COUNTS)
def test_M18_without_the_option_nothing_is_removed(game, n):
    st = game.new_state(players=n, seed=n)
    assert zone(st, "box") == []
    assert len(zone(st, "deck")) == 54 - 9 * n


def test_M18_expert_deals_every_card_in_every_round(game):
    for g in recorded_games():
        if not g.expert:
            continue
        boxed = {cat(game, col, v) for col in COLOURS for v in EXPERT_REMOVED[g.n]}
        assert set(g.boxed) == boxed
        for r in g.rounds:
            assert sorted(c for cs in r.deal.values() for c in cs) == sorted(set(cat_ids(game)) - boxed)
        for turn in (t for r in g.rounds for t in r.turns):
            assert not any(c in boxed for _p, c in turn.plays)


def test_every_player_sees_which_card_was_led(game):
    """The led card is set once it lies face up: every player's history names it (set while it
    was still in the leader's hand, the event would show the others an unseen card)."""
    from catrules.play.views import visible_event
    st = game.new_state(players=4, seed=7, log=True)
    rng = random.Random(7)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
    leads = [ev for ev in st.log if ev["t"] == "counter" and ev["name"] == "lead" and ev["value"] is not None]
    assert len(leads) == 27                                  # three rounds of nine turns
    for ev in leads:
        for p in range(4):
            assert visible_event(st, ev, p)["value"] == ev["value"]
