"""Zone families (language 4): `zone discard: shared, public, pile, one per colour`.

One member zone per value of the attribute (in the order the values first appear), named
`discard(red)`, `discard(c.colour)`, `expedition(k) of p`; the bare name reads all members.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from catrules import api
from catrules.authoring.fmt import format_text
from catrules.bots.basic import make_seat
from catrules.errors import GameFileError, RulesError
from catrules.play.match import Match
from catrules.testing import zone

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "families.cat"

HEAD = """catrules 4
game "Families"
players 2 to 3

cards tile in deck:
    for each colour in red, blue, green:
        for each value in 1 to 4:
            card

zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone discard: shared, public, pile, one per colour
zone expedition: per player, public, row, one per colour
zone stash: per player, owner, pile, one per colour

counter entered = 0
"""


def game(body: str, head: str = HEAD):
    return api.load_source(head + body, "fam.cat")


def errors(body: str, head: str = HEAD) -> list:
    with pytest.raises(GameFileError) as e:
        game(body, head)
    return e.value.diagnostics


def play(g, players=2, seed=1, limit=5000):
    st = g.new_state(players=players, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not st.finished and n < limit:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
        n += 1
    return st


DEAL = """
flow:
    for each player p:
        move deck where value == 1 and colour != green to hand of p
        for each c in hand of p:
            move c to expedition(c.colour) of p
    move deck where colour == red to discard(red)
    move top(deck) to discard(top(deck).colour)
    move deck where colour == blue and value == 4 to stash(blue) of 1

score:
    all_mine = count(expedition)
    reds = count(expedition(red))
    piles = count(discard)
"""


def test_members_are_zones_one_per_value_in_first_seen_order():
    g = game(DEAL)
    names = [z.name for z in g.program.zones]
    assert names[:3] == ["deck", "hand", "discard(red)"] or "discard(red)" in names
    assert [n for n in names if n.startswith("discard")] == ["discard(red)", "discard(blue)", "discard(green)"]
    assert [n for n in names if n.startswith("expedition")] == \
        ["expedition(red)", "expedition(blue)", "expedition(green)"]
    assert "discard" not in names and "expedition" not in names


def test_shared_and_per_player_members_hold_what_the_rules_put_there():
    g = game(DEAL)
    st = play(g, players=2, seed=3)
    colour = lambda c: g.program.card_attrs[c]["colour"]           # noqa: E731
    value = lambda c: g.program.card_attrs[c]["value"]             # noqa: E731
    red = zone(st, "discard(red)")
    assert len(red) >= 3 and all(colour(c) == "red" for c in red)
    for k in ("blue", "green"):
        assert all(colour(c) == k for c in zone(st, f"discard({k})"))
    exp0, exp1 = zone(st, "expedition(red)", 0), zone(st, "expedition(red)", 1)
    # player 1 took both value-1 cards of red and blue (the deck had them), player 2 none left
    assert [value(c) for c in exp0] == [1] and exp1 == []
    assert [colour(c) for c in zone(st, "expedition(blue)", 0)] == ["blue"]
    assert [value(c) for c in zone(st, "stash(blue)", 1)] == [4]
    assert zone(st, "stash(blue)", 0) == []
    sc = st.scores()
    total_discard = sum(len(zone(st, f"discard({k})")) for k in ("red", "blue", "green"))
    assert sc[0]["piles"] == total_discard == 4       # three reds and the top card
    assert sc[0]["all_mine"] == 2 and sc[0]["reds"] == 1 and sc[1]["all_mine"] == 0


def test_views_hide_each_member_by_the_familys_visibility():
    g = game(DEAL)
    st = play(g, players=2, seed=3)
    for viewer in (0, 1):
        view = st.view(viewer)
        stashes = [z for z in view["zones"] if z["zone"] == "stash(blue)"]
        assert [z["count"] for z in stashes] == [0, 1]
        assert [z["cards"] is not None for z in stashes] == [p == viewer for p in (0, 1)]
        discards = [z for z in view["zones"] if z["zone"].startswith("discard(")]
        assert len(discards) == 3 and all(z["cards"] is not None for z in discards)


def test_a_trigger_on_a_family_fires_for_every_member():
    g = game(DEAL + """
when card c enters discard:
    add 1 to entered
""")
    st = play(g, seed=3)
    assert st.c["entered"] == 4             # three reds, then the top card by its colour


def test_a_key_that_is_not_a_value_stops_the_game_in_the_rules_words():
    g = game("""
counter k = none

flow:
    move top(deck) to discard(k)
""")
    with pytest.raises(RulesError) as e:
        play(g)
    text = str(e.value)
    assert "there is no zone `discard(none)`" in text and "red, blue, green" in text
    assert "fam.cat:" in text and "Error" not in text.split("\n")[0].split(":", 1)[0]


def test_a_constant_key_that_is_not_a_value_is_an_error_with_a_suggestion():
    (d,) = errors("""
flow:
    move top(deck) to discard(rde)
""")
    assert (d.line, d.column) == (19, 31)
    assert "`discard` has no zone for `rde`" in d.message and "red" in d.hint


def test_the_key_must_have_the_type_of_the_attributes_values():
    (d,) = errors("""
flow:
    for each c in deck:
        move c to discard(c.value)
""")
    assert (d.line, d.column) == (20, 27 + 2)     # at the key
    assert "one per colour" in d.message and "a number" in d.message


def test_moving_to_the_bare_family_is_an_error_naming_the_call_form():
    (d,) = errors("""
flow:
    move top(deck) to discard
""")
    assert (d.line, d.column) == (19, 23)
    assert "family of zones" in d.message and "discard(red)" in d.hint


def test_owner_mistakes_with_members():
    ds = errors("""
flow:
    move top(deck) to discard(red) of 0
    move top(deck) to expedition(red)
    move top(deck) to hand(red) of 0
""")
    msgs = [(d.line, d.message) for d in ds]
    assert any(ln == 19 and "shared, so `of ...` names no one" in m for ln, m in msgs)
    assert any(ln == 20 and "belongs to each player: say whose" in m for ln, m in msgs)
    assert any(ln == 21 and "`hand` is not a zone family" in m for ln, m in msgs)


def test_a_family_of_an_unknown_attribute_is_an_error():
    head = HEAD.replace("one per colour\nzone expedition", "one per color\nzone expedition")
    ds = errors("\nflow:\n    shuffle deck\n", head)
    assert any("no card has an attribute `color`" in d.message and "colour" in d.hint for d in ds)


def test_member_in_expressions_with_p_and_the_implicit_player():
    g = game("""
flow:
    for each player p:
        move deck where colour == green to expedition(green) of p

score:
    greens = count(expedition(green))
    in_theirs = count(deck where count(expedition(colour)) == 0)
    tops = if any(expedition(green)) then top(expedition(green)).value else 0
""")
    st = play(g)
    sc = st.scores()
    assert sc[0]["greens"] == 4 and sc[1]["greens"] == 0
    assert sc[0]["tops"] in (1, 4) and sc[1]["tops"] == 0
    assert sc[0]["in_theirs"] == sc[1]["in_theirs"] == 8      # `colour` there is the card's: red and blue


def test_fmt_keeps_members_and_round_trips():
    text = EXAMPLE.read_text()
    assert format_text(text) == text
    messy = HEAD + "\nflow:\n    move top(deck)   to expedition( red )  of 0\n"
    once = format_text(messy)
    assert "expedition(red) of 0" in once and format_text(once) == once


def test_an_older_file_may_not_declare_a_family():
    head = HEAD.replace("catrules 4", "catrules 3")
    ds = errors("\nflow:\n    shuffle deck\n", head)
    fam = [d for d in ds if "zone family" in d.message]
    assert len(fam) == 3
    assert fam[0].line == 12 and "is language 4, and this file says `catrules 3`" in fam[0].message


def test_an_older_file_with_a_counter_named_one_still_checks_and_plays():
    text = """catrules 3
game "One"
players 2 to 2

cards tile in deck:
    for each value in 1 to 4:
        card

zone deck: shared, hidden, pile
zone hand: per player, public, pile

counter one = 1

flow:
    for each player p:
        move top(deck, one) to hand of p
        add one to one

score:
    held = count(hand)
"""
    st = play(api.load_source(text, "one.cat"))
    assert st.finished and [s["held"] for s in st.scores()] == [1, 2]


def test_the_example_plays_with_random_greedy_and_ismcts_bots():
    g = api.load_game(EXAMPLE)
    for seats in (["random", "random"], ["greedy", "random"], ["ismcts:15", "greedy"]):
        st = g.new_state(2, seed=7)
        Match(g, st, [make_seat(s) for s in seats]).run()
        assert st.finished
        cards = sum(len(z) for z in st.z)
        assert cards == 18                  # no card lost or made
        members = [zone(st, f"expedition({k})", p) for k in ("red", "blue", "green") for p in (0, 1)] + \
            [zone(st, f"discard({k})") for k in ("red", "blue", "green")]
        assert sum(map(len, members)) > 0


def test_a_saved_game_with_families_restores():
    g = api.load_game(EXAMPLE)
    st = g.new_state(2, seed=5)
    rng = random.Random(5)
    for _ in range(12):
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
    back = g.restore(st.to_dict())
    assert back.z == st.z and back.to_dict() == st.to_dict()


def test_the_rulebook_says_which_member():
    from catrules.authoring.prose import prose
    text = prose(api.load_game(EXAMPLE))
    assert "expedition for c's colour" in text and "discard for c's colour" in text


def test_members_by_a_run_time_key_take_moves_shuffle_and_from_triggers():
    g = game("""
counter came_back = 0

setup:
    for each player p:
        move deck where value == 2 to hand of p
    for each c in deck where value == 3:
        move c to discard(c.colour)

flow:
    k = top(deck).colour
    move top(deck, 2) to expedition(k) of 0
    shuffle discard(k)
    for each c in hand of 0:
        move c to stash(c.colour) of 0
    move top(discard(k)) to expedition(k) of 1

when card c enters expedition from discard:
    add 1 to came_back

score:
    mine = count(expedition)
""")
    st = play(g)
    sc = st.scores()
    assert st.c["came_back"] == 1
    assert sc[1]["mine"] == 1 and sc[0]["mine"] >= 1
    assert sum(len(zone(st, f"stash({k})", 0)) for k in ("red", "blue", "green")) == 3


def test_the_table_shows_each_member_and_folds_the_empty_ones():
    import io

    from rich.console import Console

    from catrules.frontends.terminal import TerminalSeat
    g = api.load_game(EXAMPLE)
    st = g.new_state(2, seed=3)
    rng = random.Random(3)
    while True:                     # play until some discard pile holds a card
        d = st.pending()[0]
        if any(zone(st, f"discard({k})") for k in ("red", "blue", "green")) and d.player == 0:
            break
        st.apply(d.player, rng.choice(d.options).id)
    con = Console(file=io.StringIO(), width=80, highlight=False)
    seat = TerminalSeat(console=con, input=lambda prompt="": "1", game=g)
    seat.start(None, 0)
    seat.decide(st.view(0), d)
    out = con.file.getvalue()
    full = [k for k in ("red", "blue", "green") if zone(st, f"discard({k})")]
    empty = [k for k in ("red", "blue", "green") if not zone(st, f"discard({k})")]
    for k in full:
        assert f"discard({k})" in out
    if empty:
        folded = [ln for ln in out.splitlines() if ln.startswith("empty") and "discard(" in ln]
        assert folded and all(f"discard({k})" in folded[0] for k in empty)


def test_an_imagined_game_keeps_what_the_player_sees_of_every_member():
    g = game(DEAL)
    st = play(g, players=2, seed=3)
    moved = 0
    for seed in range(4):
        seen = st.sample_for(0, random.Random(seed))
        assert seen.view(0)["zones"] == st.view(0)["zones"]     # every member as player 1 sees it
        slot = st.layout.slot_name.index("stash(blue) of player 2")
        moved += seen.z[slot] != st.z[slot]
    assert moved > 0                # what player 1 cannot see is imagined, not copied


def test_the_example_is_an_rl_environment_that_hides_what_a_player_cannot_see():
    pytest.importorskip("pettingzoo")
    import contextlib
    import io
    import warnings

    import numpy as np
    from pettingzoo.test import api_test

    from catrules.envs import encoding
    from catrules.envs.pettingzoo import env
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        api_test(env(str(EXAMPLE), players=2, seed=3), num_cycles=200)
    sp = encoding.spec(str(EXAMPLE), 2)
    g = api.load_game(EXAMPLE)
    st = g.new_state(2, seed=4)
    rng = random.Random(4)
    differ = 0
    while not st.finished:
        p = st.pending()[0].player
        twin = st.sample_for(p, random.Random(differ), keep_future=True)
        assert np.array_equal(sp.encoder.encode(st.view(p)), sp.encoder.encode(twin.view(p)))
        differ += twin.z != st.z
        d = st.pending()[0]
        encoding.answer(st, d, rng.choice(d.options).id)
    assert differ > 0
