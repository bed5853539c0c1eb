"""The running score, "if it ended now" (issue 25, item 4): the end's own rules are played on a
copy (Cat Lady's feeding, Meow's fish), what cannot be played is named, and the figure a viewer
is shown does not depend on any card hidden from them."""

import random
from pathlib import Path

import pytest

import catrules

ROOT = Path(__file__).resolve().parents[1]
GAMES = {name: ROOT / "games" / f"{name}.cat" for name in ("meow", "catlady", "flapcat")}
PLAYERS = {"meow": 3, "catlady": 2, "flapcat": 3}


def play_by_defaults(game, players, seed, viewer=0):
    """A whole game, each choice by :func:`choose`; the viewer's running score, its note and the
    score block alone, before each decision."""
    st = game.new_state(players, seed=seed, ask_forced=True)     # "end the turn" is asked too
    seen = []
    while not st.over:
        v = st.view(viewer)
        seen.append((v.get("running"), v.get("running_note", ""), st.scores()))
        d = st.pending()[0]
        st.apply(d.player, choose(d), 0.5 if d.timed else None)
    return st, seen


def choose(d):
    """The default; else ending the turn (so that the last decision of a game that ends after a
    turn changes nothing on the table); else the first option."""
    if d.default is not None:
        return d.default
    return next((o.id for o in d.options if o.label == "end the turn"), d.options[0].id)


def totals(rows):
    return [r["total"] for r in rows]


@pytest.mark.parametrize("name", ["meow", "catlady"])
def test_the_running_score_at_the_last_decision_is_the_final_score(name):
    game = catrules.load_game(GAMES[name])
    differs = 0
    for seed in (1, 2, 3):
        st, seen = play_by_defaults(game, PLAYERS[name], seed)
        running, _note, plain = seen[-1]
        assert running is not None
        assert running == st.scores()
        differs += totals(plain) != totals(running)
    # the end's rules changed the figure: the score block alone would not have said it
    assert differs


def test_cat_lady_counts_the_feeding_before_the_end():
    game = catrules.load_game(GAMES["catlady"])
    st, seen = play_by_defaults(game, 2, 3)
    # a turn before the end the cats are not all counted unfed: the feeding was played
    running, note, _plain = seen[-1]
    assert any(r["fed_cats"] > 0 for r in running) and note == ""
    assert running == st.scores()


def test_meows_fish_cancel_a_fish_bone_in_the_running_score():
    game = catrules.load_game(GAMES["meow"])
    found = False
    for seed in range(1, 12):
        st = game.new_state(3, seed=seed)
        while not st.over:
            run = st.view(0)["running"]
            plain = st.scores()
            if any(r["fish_used"] for r in run):
                found = True
                # the fish cancelled a bone: that player's figure is better than the plain count
                assert any(a["total"] > b["total"] for a, b in zip(run, plain))
                break
            d = st.pending()[0]
            st.apply(d.player, d.default or d.options[0].id)
        if found:
            break
    assert found


def test_a_game_that_tallies_each_round_names_what_its_running_score_leaves_out():
    game = catrules.load_game(GAMES["flapcat"])
    st = game.new_state(3, seed=4)
    v = st.view(1)
    assert v["running"] is not None
    assert "round's end" in v["running_note"] and "line" in v["running_note"]


@pytest.mark.parametrize("name", ["meow", "catlady", "flapcat"])
def test_the_running_score_does_not_depend_on_cards_hidden_from_the_viewer(name):
    game = catrules.load_game(GAMES[name])
    st = game.new_state(PLAYERS[name], seed=5)
    rng = random.Random(5)
    checked = differed = 0
    while not st.over and checked < 40:
        d = st.pending()[0]
        viewer = (d.player + 1) % st.n
        mine = st.view(viewer)
        for k in range(3):
            other = st.sample_for(viewer, random.Random(k), keep_future=True)
            differed += other.z != st.z
            theirs = game.program.view(other, viewer)
            assert theirs.get("running") == mine.get("running")
            assert theirs.get("running_note") == mine.get("running_note")
        checked += 1
        st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)
    assert differed           # the hidden cards did move in the imagined tables


CLOSING = """catrules 3
game "Closing"
players 2 to 2
cards tile in deck:
    for each value in 1 to 6:
        card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone won: per player, public, pile
counter bonus = 0
setup:
    shuffle deck
flow:
    repeat 2 times:
        for each player p:
            move top(deck) to hand of p
            p chooses c from hand of p
    {tail}
phase finish:
    for each player p:
        move {source} of p to won of p
score:
    points = sum(won, value) + bonus
"""


def test_the_end_rules_that_read_hidden_cards_or_are_not_phases_are_named():
    g = catrules.load_source(CLOSING.format(tail="play finish", source="hand"), "t.cat")
    st = g.new_state(2, seed=1, ask_forced=True)
    v = st.view(0)
    assert "hidden" in v["running_note"]          # the hands are not played into won
    assert totals(v["running"]) == [0, 0]
    g = catrules.load_source(CLOSING.format(tail="bonus = 5\n    play finish", source="won"), "t.cat")
    v = g.new_state(2, seed=1, ask_forced=True).view(0)
    assert "without the end's" in v["running_note"]
    g = catrules.load_source(CLOSING.format(tail="play finish", source="won"), "t.cat")
    v = g.new_state(2, seed=1, ask_forced=True).view(0)
    assert "running_note" not in v


def test_the_web_state_message_carries_the_running_note_and_how_the_end_came_about():
    from catrules.play.views import visible_event
    from catrules.web import protocol
    game = catrules.load_game(GAMES["catlady"])
    st = game.new_state(2, seed=7, log=True, ask_forced=True)
    allow = protocol.allowed(game)
    p = protocol.painter(game, 0, ["you", "greedy"])
    while not st.over:
        d = st.pending()[0]
        st.apply(d.player, choose(d))
    numbered = [(n, ev) for n, ev in ((i + 1, visible_event(st, e, 0)) for i, e in enumerate(st.log))
                if ev is not None]
    ending = protocol.ending_of(p, numbered)
    assert ending["kind"] == "end" and ending["items"]
    texts = [it["text"] for it in ending["items"]]
    assert all(it["t"] == "announce" for it in ending["items"])
    assert any("eats" in t or "hungry" in t for t in texts)
    msg = protocol.state_message({"table": "t", "seat": 0}, st.view(0), [], allow, ending)
    assert msg["ending"]["items"] == ending["items"]
    flap = catrules.load_game(GAMES["flapcat"])
    view = flap.new_state(3, seed=4).view(0)
    assert protocol.state_message({"seat": 0}, view, [], protocol.allowed(flap))["view"]["running_note"]
