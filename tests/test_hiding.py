"""Hidden stays hidden: secret choices, forced choices, public choices, several cards at once.

Each test is on the small game ``tests/games/passing.cat`` (or a text inline): three cards
passed face down to the next player at once, a suit named aloud, a sealed bid that stays face
down, and a last card played from hand.
"""

import random
from pathlib import Path

import pytest

from catrules import api
from catrules.errors import GameFileError, RulesError
from catrules.play.seats import Choice, Seat
from catrules.play.match import Match
from catrules.play.views import visible_event
from catrules.testing import ScriptedSeat, zone

HERE = Path(__file__).resolve().parent
PASSING = HERE / "games" / "passing.cat"


@pytest.fixture(scope="module")
def game():
    return api.load_game(PASSING)


def answer(st, d, rng):
    st.apply(d.player, rng.choice(d.options).id)


def to_the_bids(game, seed=1):
    """A 3-player game played (at random) up to the sealed bids."""
    st = game.new_state(3, seed=seed, log=True)
    rng = random.Random(seed)
    while not any(d.line == 32 for d in st.pending()):
        answer(st, st.pending()[0], rng)
    return st


# ------------------------------------------------------------- several cards at once

def test_choose_three_cards_asks_three_picks_and_passes_them_at_once(game):
    st = game.new_state(3, seed=1, log=True)
    hands = [zone(st, "hand", p) for p in range(3)]
    ds = st.pending()
    assert sorted(d.player for d in ds) == [0, 1, 2] and all(d.kind == "secret" for d in ds)
    assert all(d.prompt.endswith("(1 of 3)") and len(d.options) == 4 for d in ds)
    picked = {p: [] for p in range(3)}
    for k in range(3):
        for d in st.pending():
            assert d.prompt.endswith(f"({k + 1} of 3)")
            assert {o.value for o in d.options} == set(hands[d.player]) - set(picked[d.player])
            picked[d.player].append(d.options[0].value)
            st.apply(d.player, d.options[0].id)
    # every hand now holds the card it kept and the three passed by the previous player
    for p in range(3):
        kept = set(hands[p]) - set(picked[p])
        assert set(zone(st, "hand", p)) == kept | set(picked[(p - 1) % 3])


def test_cards_passed_in_secret_are_seen_only_by_the_passer_and_the_receiver(game):
    st = to_the_bids(game)
    (reveal,) = [e for e in st.log if e["t"] == "reveal" and e["line"] == 25]
    for ch in reveal["choices"]:
        giver = ch["player"]
        receiver = (giver + 1) % 3
        other = (giver + 2) % 3
        assert visible_event(st, reveal, giver)["choices"][giver]["option"] == ch["option"]
        # nothing of it: not the cards, nor the zone they lay in, nor how many
        assert visible_event(st, reveal, other)["choices"][giver] == {"player": giver, "option": None}
        assert visible_event(st, reveal, receiver)["choices"][giver] == {"player": giver, "option": None}
        # the receiver sees the cards when they arrive in their hand, the third player never
        (arrive,) = [e for e in st.log if e["t"] == "move" and e["from"] == f"passing of player {giver + 1}"]
        assert visible_event(st, arrive, receiver)["cards"] == arrive["cards"]
        assert visible_event(st, arrive, other)["cards"] is None
    # the full log keeps everything
    assert all(len(ch["option"]) == 3 for ch in reveal["choices"])


def test_a_sealed_bid_stays_face_down(game):
    st = to_the_bids(game)
    rng = random.Random(2)
    while any(d.line == 32 for d in st.pending()):
        answer(st, st.pending()[0], rng)
    (reveal,) = [e for e in st.log if e["t"] == "reveal" and e["line"] == 32]
    for viewer in range(3):
        seen = visible_event(st, reveal, viewer)["choices"]
        assert [ch["option"] is not None for ch in seen] == [p == viewer for p in range(3)]
        view = st.view(viewer)
        bids = [z for z in view["zones"] if z["zone"] == "bid"]
        assert [z["cards"] is not None for z in bids] == [p == viewer for p in range(3)]


def test_a_count_below_one_is_an_error_in_the_file():
    text = PASSING.read_text().replace("chooses 3 cards c", "chooses 0 cards c")
    with pytest.raises(GameFileError) as e:
        api.load_source(text, "zero.cat")
    (d,) = e.value.diagnostics
    assert d.line == 25 and "at least 1 card" in d.message and d.hint


def test_a_count_that_is_not_a_whole_number_stops_with_the_line():
    text = PASSING.read_text().replace("chooses 3 cards c", "chooses (2 - 5) cards c")
    g = api.load_source(text, "negative.cat")
    with pytest.raises(RulesError) as e:
        g.new_state(3, seed=1)
    assert e.value.line == 25 and "whole number" in str(e.value)


# ------------------------------------------------------------------ public choices

def test_a_choice_made_openly_is_seen_by_everyone(game):
    st = to_the_bids(game)
    named = [e for e in st.log if e["t"] == "decision" and e["line"] == 30]
    assert len(named) == 3 and all(e["public"] for e in named)
    for e in named:
        assert all(visible_event(st, e, v)["option"] in ("red", "blue") for v in range(3))
    # a choice not made openly is not
    played = game.new_state(3, seed=1, log=True)
    rng = random.Random(1)
    while not played.finished:
        answer(played, played.pending()[0], rng)
    last = [e for e in played.log if e["t"] == "decision" and e["line"] == 36]
    assert "public" not in last[0]
    assert visible_event(played, last[0], (last[0]["player"] + 1) % 3)["option"] is None


# ------------------------------------------------------------------ forced choices

FORCED = '''catrules 1
game "Forced"
players 2 to 2

cards number in deck:
    for each value in 1 to 6:
        card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, pile

flow:
    move deck where value <= 3 to hand of first(players)
    move deck where value == 4 to hand of last(players)
    repeat 2 times:
        for each player p:
            p chooses c from hand of p
            move c to table

score:
    played = count(table)
'''


def test_a_forced_choice_is_logged_like_a_free_one():
    g = api.load_source(FORCED, "forced.cat")
    st = g.new_state(2, seed=1, log=True)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    decisions = [e for e in st.log if e["t"] == "decision"]
    # player 1 chose freely twice; player 2 was forced (one card), then had nothing (none)
    assert [e["player"] for e in decisions] == [0, 1, 0, 1]
    assert [e["option"] for e in decisions if e["player"] == 1][1] == "none"
    shapes = {tuple(sorted(visible_event(st, e, 0 if e["player"] == 1 else 1))) for e in decisions}
    assert len(shapes) == 1                                  # the same keys, forced or free
    assert all(visible_event(st, e, 1 - e["player"])["option"] is None for e in decisions)
    assert len(st.history) == 2 and st.decisions == 4         # forced answers: not in the history


def test_with_ask_forced_a_player_is_asked_even_with_one_option_or_none():
    g = api.load_source(FORCED, "forced.cat")
    st = g.new_state(2, seed=1, log=True, ask_forced=True)
    asked = []
    while not st.finished:
        d = st.pending()[0]
        asked.append((d.player, [o.id for o in d.options]))
        st.apply(d.player, d.options[0].id)
    assert [p for p, _ in asked] == [0, 1, 0, 1]
    assert len(asked[1][1]) == 1 and asked[3][1] == ["none"]
    auto = g.new_state(2, seed=1, log=True)
    while not auto.finished:
        d = auto.pending()[0]
        auto.apply(d.player, d.options[0].id)
    assert auto.log == st.log                                 # the same events either way


class Person(ScriptedSeat):
    interactive = True


def test_a_match_with_a_person_asks_forced_choices():
    g = api.load_source(FORCED, "forced.cat")
    st = g.new_state(2, seed=1, log=True)
    seen = []

    class Record(Seat):
        def decide(self, view, decision):
            seen.append(len(decision.options))
            return Choice(decision.options[0].id)

    person = Person(["c0", "c1"])
    Match(g, st, [person, Record()]).run()
    assert st.ask_forced and st.finished and seen == [1, 1]


def test_forced_secret_answers_show_at_the_reveal_in_seat_order(game):
    # the bids: a player with a single card of the named suit is forced; the answers are all
    # logged at the reveal, in seat order, whoever was forced and whoever answered first
    for seed in range(1, 30):
        st = to_the_bids(game, seed)
        ds = st.pending()
        if len(ds) < 3:
            break
    else:
        pytest.skip("no seed with a forced bid")
    free = sorted(d.player for d in ds)
    for d in reversed(ds):
        st.apply(d.player, d.options[0].id)
    bids = [e for e in st.log if e["t"] == "decision" and e["line"] == 32]
    assert [e["player"] for e in bids] == [0, 1, 2] and len(free) < 3


# ------------------------------------------------------------------ player logs

def test_simulate_and_play_write_a_players_log_with_viewer(tmp_path):
    import json
    from catrules.cli import main
    path = tmp_path / "p2.jsonl"
    assert main(["simulate", str(PASSING), "--players", "3", "--games", "2", "--log", str(path),
                 "--viewer", "2"]) == 0
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert [x["viewer"] for x in lines if x["type"] == "header"] == [1, 1]
    for x in lines:
        if x.get("event") == "move" and x["cards"] is not None:
            # only a zone player 2 may see shows cards: their own, or the public `shown`
            assert any(z.endswith("of player 2") or z == "shown" for z in (x["from"], x["to"])), x
        if x.get("event") == "decision" and x["player"] != 1 and not x.get("public"):
            assert x["option"] is None
    path2 = tmp_path / "m.jsonl"
    assert main(["play", "games/meow.cat", "--seats", "random,random,random", "--seed", "3", "--quiet",
                 "--log", str(path2), "--viewer", "1"]) == 0
    head = json.loads(path2.read_text().splitlines()[0])
    assert head["viewer"] == 0
    assert main(["simulate", str(PASSING), "--players", "3", "--games", "1", "--viewer", "2"]) == 2


def test_several_at_once_must_be_cards():
    text = PASSING.read_text().replace("chooses 3 cards c from hand of p:", "chooses 2 cards c from others(p):")
    with pytest.raises(GameFileError) as e:
        api.load_source(text, "players.cat")
    (d,) = e.value.diagnostics
    assert (d.line, d.column) == (25, 51) and "among cards" in d.message and "players" in d.message


def test_a_loop_of_forced_choices_still_stops_with_a_located_error():
    # forced answers the engine gives itself do not count as deciding: a loop that only asks
    # an empty hand for a card forever is stopped, as a loop with no choice at all would be
    text = FORCED.replace("    repeat 2 times:\n", "    repeat while true:\n")
    g = api.load_source(text, "forever.cat")
    st = g.new_state(2, seed=1)
    with pytest.raises(RulesError) as e:
        while not st.finished:
            d = st.pending()[0]
            st.apply(d.player, d.options[0].id)
    assert e.value.line == 16 and "forced choice does not count" in str(e.value)


def test_a_menu_made_openly_is_seen_by_everyone():
    text = FORCED.replace('''            p chooses c from hand of p
            move c to table''', '''            openly p chooses:
                "play a card":
                    p chooses c from hand of p
                    move c to table
                "pass":
                    announce "pass"''').replace("catrules 1", "catrules 2", 1)
    g = api.load_source(text, "menu.cat")
    st = g.new_state(2, seed=1, log=True)
    while not st.finished:
        d = st.pending()[0]
        st.apply(d.player, d.options[-1].id)
    menus = [e for e in st.log if e["t"] == "decision" and e["line"] == 18]
    assert len(menus) == 4 and all(e["public"] and e["option"] == "pass" for e in menus)
    assert all(visible_event(st, e, 1 - e["player"])["option"] == "pass" for e in menus)
