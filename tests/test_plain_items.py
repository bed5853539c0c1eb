"""``--plain`` (the line front end) shows what the other front ends show: each card option's
description from the game file, and the running score line ("if it ended now")."""

import io
from pathlib import Path

from rich.console import Console

import catrules
from catrules.frontends.terminal import TerminalSeat
from catrules.play.match import Match

ROOT = Path(__file__).resolve().parent.parent


def first_screen(name: str, players: int = 2) -> tuple:
    game = catrules.load_game(ROOT / "games" / name)
    st = game.new_state(players, seed=3)
    con = Console(file=io.StringIO(), width=100, highlight=False, color_system=None)
    seat = TerminalSeat(console=con, input=lambda _p="": "q", game=game)
    seat.start(None, st.pending()[0].player)
    d = st.pending()[0]
    seat._screen(st.view(d.player), d)
    return game, d, con.file.getvalue()


def test_card_options_show_their_descriptions():
    game, d, out = first_screen("flapcat.cat")
    cards = [o for o in d.options if o.kind == "card"]
    assert cards
    for o in cards:
        text = game.card(o.value).get("text")
        assert text and text[:40] in out.replace("\n", " ")


def test_the_running_score_line_is_shown_where_the_score_is_public():
    game, d, out = first_screen("catlady.cat")
    st = game.new_state(2, seed=3)
    running = st.view(d.player).get("running")
    assert running
    line = next(ln for ln in out.splitlines() if ln.startswith("if it ended now:"))
    for r in running:
        assert f" {r['total']}" in line
