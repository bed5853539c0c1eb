"""Round ends and the game's end on the full-screen table: how the scores came about.

At the end the page over the table shows who won, the score item by item, then what the end's
rules did (whose cat ate what, who went hungry: the events since the last decision, see
:mod:`catrules.frontends.endings`); Enter leaves.  After a round's ``tally`` the person's next
decision waits behind a page with what the round's end did and the round's score (each item,
the round's points and the totals) until they press a key; a race's clock starts only once its
options are on screen, so nobody loses time reading it.  The running score's note (what it
leaves out, :mod:`catrules.runtime.ending`) is drawn under it.  Nothing here knows a game.
"""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text

from .endings import last_ending
from .pieces import bullets
from .tables import score_notes, score_table, tally_table, tally_title, winners_line
from .tui_widgets import TextScreen


class GoOnScreen(TextScreen):
    """A round's end over the table: any key goes on to the person's next decision."""

    def compose(self):
        for w in super().compose():
            w.border_subtitle = "Enter: go on"
            yield w


def end_body(seat):
    """The page at the game's end: the winners, the final score by item, the last round's tally
    (in a game that tallies), how it came about."""
    p, final = seat.painter, seat.final
    winners = final.get("winners", [])
    parts = [winners_line(winners, p), Text(),
             score_table(final["scores"], winners, p, score_notes(p.game))]
    ending = last_ending(list(enumerate(seat.events)), game=p.game)
    if ending and ending["tally"] is not None:       # the last round's tally, just before the end
        parts += [Text(), tally_table(ending["tally"], p, score_notes(p.game))]
    lines = p.events([ev for _n, ev in ending["events"]]) if ending else []
    if lines:
        parts += [Text(), Text("How it came about (↑↓ PgUp PgDn to scroll):", style="bold"), bullets(lines)]
    return Group(*parts)


def round_end_body(seat, ending):
    """The page after a round's tally: its score, then what the round's end did."""
    p = seat.painter
    parts = [tally_table(ending["tally"], p, score_notes(p.game) if p.game is not None else ())]
    lines = p.events([ev for _n, ev in ending["events"]])
    if lines:
        parts += [Text(), Text("How the round ended (↑↓ PgUp PgDn to scroll):", style="bold"), bullets(lines)]
    return Group(*parts)


class EndingsMixin:
    """The round-end and end pages of :class:`catrules.frontends.tui.TableApp`."""

    def round_end_first(self, seat, then) -> bool:
        """If a round ended since the person's last look, show it and call ``then`` after a key;
        True if the page is shown (``then`` waits for it)."""
        seen = getattr(seat, "ends_seen", 0)
        seat.ends_seen = len(seat.events)
        if seat.painter is None or seat.final is not None:
            return False
        ending = last_ending(list(enumerate(seat.events)), since=seen, game=seat.painter.game)
        if ending is None or ending["tally"] is None:
            return False
        title = tally_title(ending["tally"])
        self.push_screen(GoOnScreen(title, round_end_body(seat, ending), end=True), lambda _r: then())
        return True

    def show_end(self, seat) -> None:
        """The page at the game's end; Enter leaves the game."""
        self.push_screen(TextScreen("the end", end_body(seat), end=True), lambda _r: self.exit())


def running_rows(title: str, rows: list, note: str, painter):
    """The running score for the score area, with its note (what it leaves out) below."""
    t = Table.grid(padding=(0, 1))
    t.add_column(no_wrap=True)
    t.add_column(justify="right", style="bold cyan")
    for pl, total in rows:
        t.add_row(("▸ " if pl == painter.me else "  ") + painter.seat_name(pl), str(total))
    parts = [Text(title + ("*" if note else ""), style="dim"), t]
    if note:
        parts.append(Text("* " + note, style="dim italic"))
    return Group(*parts)
