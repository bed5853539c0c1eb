"""The mechanisms Meow does not use, on the small example games in tests/games/.

Simultaneous secret choice and reveal, races, chained triggers, grids and
lines of cards, each in a concrete situation.
"""

from pathlib import Path

import pytest

import catrules
from catrules.runtime import _insert, _remove, ref_cards
from catrules.play.views import visible_event
from catrules.testing import cards, empty, put, refresh, zone

GAMES = Path(__file__).resolve().parent / "games"


def load(name):
    return catrules.load_game(GAMES / f"{name}.cat")


def option_for(decision, game, **attrs):
    for o in decision.options:
        if o.kind == "card" and all(game.card(o.value).get(k) == v for k, v in attrs.items()):
            return o.id
    raise AssertionError(f"no option {attrs} in {[o.label for o in decision.options]}")


# --------------------------------------------------------------- secret + reveal

def test_secret_choice_is_asked_of_everyone_at_once():
    g = load("reveal")
    st = g.new_state(players=3, seed=4)
    ds = st.pending()
    assert sorted(d.player for d in ds) == [0, 1, 2]
    assert {d.kind for d in ds} == {"secret"}
    assert all(len(d.options) == 3 for d in ds)


def test_secret_choice_stays_hidden_until_everyone_has_chosen():
    g = load("reveal")
    st = g.new_state(players=2, seed=4, log=True)
    d0 = next(d for d in st.pending() if d.player == 0)
    chosen = option_for(d0, g, value=5)
    st.apply(0, chosen)
    # player 1 still has to choose; nothing of player 0's choice is visible to them
    assert [d.player for d in st.pending()] == [1]
    v1 = st.view(1)
    assert "my_choice" not in v1
    shown = [z for z in v1["zones"] if z["zone"] == "shown"]
    assert all(z["count"] == 0 for z in shown)
    assert chosen not in str(v1)
    assert not [e for e in st.log if e["t"] == "decision"]     # answers show at the reveal
    # the chooser sees their own choice
    assert st.view(0)["my_choice"] == chosen
    d1 = st.pending()[0]
    st.apply(1, d1.options[0].id)
    ev = [e for e in st.log if e["t"] == "decision"][0]
    assert ev["player"] == 0
    assert visible_event(st, ev, 1)["option"] is None
    assert visible_event(st, ev, 0)["option"] == chosen


def test_reveal_happens_after_the_last_choice_and_highest_bid_wins():
    g = load("reveal")
    st = g.new_state(players=2, seed=4, log=True)
    offer = [z for z in st.view(0)["zones"] if z["zone"] == "offer"][0]["cards"]
    assert len(offer) == 1
    prize_value = offer[0]["value"]
    st.apply(0, option_for(st.pending()[0], g, value=5))
    st.apply(1, option_for(st.pending()[0], g, value=3))
    reveal = [e for e in st.log if e["t"] == "reveal"][0]
    assert [c["player"] for c in reveal["choices"]] == [0, 1]
    assert st.scores()[0]["prize_value"] == prize_value
    assert st.scores()[1]["prize_value"] == 0


def test_tied_bids_take_nothing():
    g = load("reveal")
    st = g.new_state(players=2, seed=4)
    st.apply(0, option_for(st.pending()[0], g, value=3))
    st.apply(1, option_for(st.pending()[0], g, value=3))
    assert [s["prize_value"] for s in st.scores()] == [0, 0]
    assert len(zone(st, "spent")) == 3   # two bids and the prize


# -------------------------------------------------------------------- races

def test_race_fastest_chooses_first_and_slowest_pays():
    g = load("race")
    st = g.new_state(players=3, seed=2)
    ds = st.pending()
    assert {d.kind for d in ds} == {"race"} and all(d.timed for d in ds)
    middle = zone(st, "middle")
    best = max(middle, key=lambda c: g.card(c)["value"])
    # everyone wants the best card; player 2 is fastest, player 1 slowest
    times = {0: 0.30, 1: 0.55, 2: 0.12}
    for p in (0, 1, 2):
        st.apply(p, f"c{best}", times[p])
    assert zone(st, "grabbed", 2) == [best]
    # player 0 (second fastest) must pick again among what is left
    d = st.pending()
    assert [x.player for x in d] == [0] and d[0].kind == "choose"
    assert f"c{best}" not in [o.id for o in d[0].options]
    st.apply(0, d[0].options[0].id)
    # player 1 gets the last card automatically (one option) and pays for being slowest
    assert len(zone(st, "grabbed", 1)) == 1
    assert st.c["penalty"] == [0, 1, 0]


def test_race_needs_a_reaction_time():
    g = load("race")
    st = g.new_state(players=2, seed=2)
    d = st.pending()[0]
    with pytest.raises(catrules.IllegalChoice):
        st.apply(d.player, d.options[0].id)


def test_race_order_ignores_answer_order():
    g = load("race")
    st = g.new_state(players=2, seed=5)
    a, b = zone(st, "middle")
    st.apply(0, f"c{a}", 0.9)       # answers first but is slower
    st.apply(1, f"c{a}", 0.2)
    assert zone(st, "grabbed", 1) == [a]
    assert zone(st, "grabbed", 0) == [b]
    assert st.c["penalty"] == [1, 0]


# ----------------------------------------------------------------- triggers

def _set_hands(st, g, hands):
    for p in range(len(hands)):
        empty(st, "hand", p)
    for p, kinds in enumerate(hands):
        for k in kinds:
            c = next(c for c in zone(st, "deck") if g.card(c)["kind"] == k)
            put(st, c, "hand", p)
    refresh(st)


def test_chained_triggers_run_at_once_across_three_players():
    g = load("chain")
    st = g.new_state(players=3, seed=1, log=True)
    _set_hands(st, g, [["pass", "plain"], ["pass", "plain"], ["plain"]])
    # player 0 starts a chain: passes a `pass` card to player 1 ...
    st.apply(0, option_for(st.pending()[0], g, kind="pass"))
    # ... which makes player 1 act at once, before anyone else
    d = st.pending()
    assert [x.player for x in d] == [1]
    st.apply(1, option_for(d[0], g, kind="pass"))
    # player 2 received a pass card: their only card is passed on automatically (plain: chain ends)
    assert st.c["received"] == [0, 1, 1]
    assert [g.card(c)["kind"] for c in zone(st, "area", 0)] == ["plain"]
    moves = [(e["from"], e["to"]) for e in st.log if e["t"] == "move" and "area" in e["to"]]
    assert moves[:3] == [("hand of player 1", "area of player 2"), ("hand of player 2", "area of player 3"),
                         ("hand of player 3", "area of player 1")]


def test_chain_ends_when_a_hand_is_empty():
    g = load("chain")
    st = g.new_state(players=2, seed=1)
    _set_hands(st, g, [["pass"], []])
    # player 0's only card is played automatically; player 1 receives a pass card but has
    # nothing to pass on, so the chain stops there and player 1's own turn comes
    assert st.c["received"] == [0, 1]
    assert [g.card(c)["kind"] for c in zone(st, "area", 1)] == ["pass"]
    assert zone(st, "area", 0) == []


def test_runaway_chain_stops_with_an_error_naming_the_chain():
    g = load("runaway")
    with pytest.raises(catrules.RulesError) as exc:
        g.new_state(players=2, seed=1)
    msg = str(exc.value)
    assert "chain" in msg and "when card enters ring (line 13)" in msg and "runaway.cat:13" in msg


def test_checker_warns_about_a_trigger_cycle_that_consumes_nothing():
    assert any("forever" in w.message for w in load("runaway").warnings)
    assert not load("chain").warnings


# --------------------------------------------------------------------- grids

def test_grid_blocked_line_is_never_offered_and_marker_moves():
    g = load("grid")
    st = g.new_state(players=2, seed=3)
    marker = st.c["marker"]
    d = st.pending()[0]
    ids = [o.id for o in d.options]
    assert len(ids) == 5 and marker not in ids
    assert {o.label for o in d.options} <= {f"row {i}" for i in (1, 2, 3)} | {f"column {i}" for i in (1, 2, 3)}
    take = d.options[0]
    before = {c for c in zone(st, "market") if c is not None}
    line_cards = set(ref_cards(st, take.value))
    st.apply(d.player, take.id)
    assert st.c["marker"] == take.value
    assert set(zone(st, "stash", 0)) == line_cards and len(line_cards) == 3
    market = zone(st, "market")
    assert None not in market                          # refilled
    assert not (line_cards & set(market)) and before - line_cards <= set(market)


def test_grid_game_ends_after_a_partial_refill():
    g = load("grid")
    st = g.new_state(players=2, seed=3)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    # 20 cards: 9 dealt, then refills of 3 while the deck has 3 or more; the last refill is partial
    market = zone(st, "market")
    assert zone(st, "deck") == []
    assert market.count(None) > 0
    total = sum(len(zone(st, "stash", p)) for p in range(2)) + sum(c is not None for c in market)
    assert total == 20


# --------------------------------------------------------------------- lines

def test_lines_places_and_legal_positions():
    g = load("lines")
    st = g.new_state(players=2, seed=6)
    # give player 0 a head, a body and a tail
    empty(st, "hand", 0)
    head = next(c for c in zone(st, "deck") if g.card(c)["part"] == "head")
    put(st, head, "hand", 0)
    refresh(st)
    # one card in hand and an empty area (the only place is a new line): both choices are
    # automatic, and it is player 1's turn
    assert zone(st, "snakes", 0) == [[head]]
    assert st.pending()[0].player == 1


def test_lines_a_second_head_cannot_join_a_headed_snake():
    src = (GAMES / "lines.cat").read_text()
    g = catrules.load_source(src, "lines.cat")
    st = g.new_state(players=2, seed=6)
    heads = [c for c in cards(g, part="head")][:2]
    tail = cards(g, part="tail")[0]
    put(st, [heads[0]], "snakes", 0)      # a snake of one head
    empty(st, "hand", 0)
    put(st, [heads[1], tail], "hand", 0)
    refresh(st)
    st.apply(0, f"c{heads[1]}")
    # the only legal place is a new snake, so the place is taken without asking
    assert zone(st, "snakes", 0) == [[heads[0]], [heads[1]]]
    assert st.pending()[0].player == 1


def test_lines_a_tail_goes_after_a_head_or_starts_a_snake():
    g = load("lines")
    st = g.new_state(players=2, seed=6)
    head, tail = cards(g, part="head")[0], cards(g, part="tail")[0]
    put(st, [head], "snakes", 0)
    empty(st, "hand", 0)
    put(st, [tail, cards(g, part="body")[0]], "hand", 0)
    refresh(st)
    st.apply(0, f"c{tail}")
    labels = [o.label for o in st.pending()[0].options]
    assert labels == ["a new line in snakes", "snakes 1: at the end, after head red"]
    st.apply(0, st.pending()[0].options[1].id)
    assert zone(st, "snakes", 0) == [[head, tail]]


def test_lines_score_only_finished_snakes():
    src = (GAMES / "lines.cat").read_text()
    g = catrules.load_source(src, "lines.cat")
    st = g.new_state(players=2, seed=6)
    h, b, t = cards(g, part="head")[0], cards(g, part="body")[0], cards(g, part="tail")[0]
    put(st, [h], "snakes", 0)
    for c, pos in ((b, 1), (t, 2)):
        _remove(st, c)
        _insert(st, c, st.layout.base[st.prog.zone_by_name["snakes"].index], (0, pos))
    h2 = cards(g, part="head")[1]
    put(st, [h2], "snakes", 0)              # an unfinished snake: a lone head
    assert zone(st, "snakes", 0) == [[h, b, t], [h2]]
    assert st.scores()[0]["finished"] == 3


SMALL = """catrules 1
game "Small"
players 2 to 2
cards c in pile:
    for each value in 1 to 4:
        card
zone pile: shared, public, pile
zone other: shared, public, row
flow:
    move top(pile) to other
    move top(pile) to bottom(other)
    exchange first(pile) with last(other)
score:
    top_value = sum(other, value)
"""


def test_bottom_and_exchange():
    g = catrules.load_source(SMALL, "small.cat")
    st = g.new_state(players=2, seed=1)
    # pile starts 1,2,3,4 (top is 4): 4 moves to other, then 3 to its bottom: other = [3, 4]
    # then the first card of the pile (1) trades places with the last card of other (4)
    val = lambda c: g.card(c)["value"]
    assert [val(c) for c in zone(st, "other")] == [3, 1]
    assert [val(c) for c in zone(st, "pile")] == [4, 2]
