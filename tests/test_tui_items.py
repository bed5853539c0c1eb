"""Smaller things people met at the table (issue 25, item 7), in the painter and the full screen:
an invalid number is answered in words and the Enter after it plays nothing, cards counted
per kind, bots named with their seat, a counter's card left out once it has moved on, no
"a hidden choice" in a reveal, and "1 star" (not "1 stars") in a card's description."""

from pathlib import Path

import catrules
from catrules.frontends.painter import Painter
from catrules.frontends.tables import shared_counters
from catrules.frontends.tui import TableApp

from test_tui import new_match, run, until

ROOT = Path(__file__).resolve().parent.parent


def test_an_invalid_number_is_said_and_the_enter_after_it_plays_nothing():
    game, match, seat = new_match("catlady", players=2)
    app = TableApp(match, [seat], "")
    seen = {}

    async def script(pilot):
        await until(pilot, lambda: app.decision is not None)
        d = app.decision
        n = len(d.options)
        assert n < 9
        await pilot.press("9")
        await pilot.pause(0.05)
        seen["said"] = [x.message for x in app._notifications]
        await pilot.press("enter")
        await pilot.pause(0.05)
        seen["still"] = app.decision is d and d.player not in [h[0] for h in match.state.history]
        seen["then"] = [x.message for x in app._notifications]
        await pilot.press("enter")                  # a second Enter takes the highlighted option
        await until(pilot, lambda: len(match.state.history) > 0)
    run(app, (80, 24), script)
    assert any("There is no option 9" in m for m in seen["said"])
    assert seen["still"]
    assert any("Nothing played" in m for m in seen["then"])


def test_cards_are_counted_per_kind():
    p = Painter()
    cubes = [{"id": 1, "label": "tuna"}, {"id": 2, "label": "milk"}, {"id": 3, "label": "tuna"}]
    assert p.cards_text(cubes, compress=True).plain == "2× tuna · milk"
    assert p.cards_text(cubes).plain == "tuna · milk · tuna"


def test_bots_are_named_with_their_seat_where_no_number_is_shown():
    p = Painter(me=0, names=["", "", "greedy bot"])
    line = p.events([{"t": "tally", "title": "after round 1", "totals": [{"total": 3}, {"total": 4}, {"total": 5}]}])
    p.short_tally = True
    line = p.event({"t": "tally", "title": "after round 1", "totals": [{"total": 3}, {"total": 4}, {"total": 5}]})
    assert "3 greedy bot 5" in line.plain and "you 3" in line.plain


def test_a_counter_card_that_moved_on_is_left_out():
    p = Painter(me=0, names=["", ""])
    card = {"id": 5, "label": "green 7"}
    table = {"zones": [{"zone": "played", "owner": None, "cards": [card]}, {"zone": "discard", "owner": None, "cards": []}],
             "counters": {"lead": card}, "players": 2}
    after = {"zones": [{"zone": "played", "owner": None, "cards": []}, {"zone": "discard", "owner": None, "cards": [card]}],
             "counters": {"lead": card}, "players": 2}
    assert "lead: green 7" in shared_counters(p, table).plain
    assert "lead: green 7" in shared_counters(p, table).plain        # still lying where it was led
    assert shared_counters(p, after) is None                          # the trick is over
    nxt = {**after, "counters": {"lead": {"id": 6, "label": "red 2"}}}
    assert "lead: red 2" in shared_counters(p, nxt).plain             # a new lead shows


def test_a_reveal_does_not_list_choices_the_viewer_cannot_see_yet():
    p = Painter(me=0, names=["", ""])
    mine = p.event({"t": "reveal", "choices": [{"player": 0, "option": "n3"}, {"player": 1, "option": None}]})
    assert "hidden choice" not in mine.plain and "you 3" in mine.plain
    assert p.event({"t": "reveal", "choices": [{"player": 1, "option": None}]}) is None


def test_one_star_is_singular_in_flap_cats_descriptions():
    game = catrules.load_game(ROOT / "games" / "flapcat.cat")
    texts = [game.card(i).get("text", "") for i in range(game.card_count)]
    assert any(" 1 star." in t for t in texts) and any(" 2 stars" in t for t in texts)
    assert not [t for t in texts if " 1 stars" in t]
