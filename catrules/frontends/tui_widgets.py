"""The full-screen table's parts: its areas, the options, and the pages over the table.

:class:`Panel` is an area with a title in its border, :class:`Options` the numbered options
of a decision, :class:`TextScreen` a page of text (the keys, the history, the end) and
:class:`InspectScreen` the cards in sight.  The app that puts them together is
:mod:`catrules.frontends.tui`.
"""

from __future__ import annotations

from typing import Optional

from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList, Static

from .painter import Painter


class Panel(VerticalScroll, can_focus=False, inherit_bindings=False):
    """An area of the screen with a title in its top border; it scrolls inside itself.  An area
    that holds more than it shows takes the keyboard (Tab moves to it) and scrolls with PgUp,
    PgDn, Home and End (the arrows stay with the options); its top border says so ("table── ▼ more:
    PgDn").  ``cut``: the area shows a shortened content (see :func:`~.tui_fit.crop_blocks`)
    that it shows in full when it has the keyboard."""

    BINDINGS = [Binding("pageup", "page_up", show=False), Binding("pagedown", "page_down", show=False),
                Binding("home", "scroll_home", show=False), Binding("end", "scroll_end", show=False)]

    def __init__(self, *children, scrolls: bool = True, **kw):
        super().__init__(*children, **kw)
        self.scrolls = scrolls          # whether it may take the keyboard when it holds more
        self.cut = False
        self.name_shown = ""            # its title, in its top border (with the hint after it)

    def more(self) -> bool:
        """Whether there is more than the area shows."""
        return self.cut or self.max_scroll_y > 0

    def hint(self) -> None:
        """Take the keyboard only when there is more to see; say how to see it."""
        more = self.scrolls and self.more()
        self.can_focus = more or (self.scrolls and self.has_focus)
        if not more:
            text = ""
        elif not self.has_focus:
            text = "▼ more: Tab"
        elif self.scroll_y < self.max_scroll_y:
            text = "▼ more: PgDn"
        elif self.scroll_y > 0:
            text = "▲ PgUp"
        else:
            text = ""
        # after the title, along the border: "─table── ▼ more: PgDn ───"
        title = self.name_shown + (f"── {text} " if text else "")
        if self.border_title != title:
            self.border_title = title

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        self.hint()

    def on_focus(self, _ev) -> None:
        self.hint()
        self.post_message(Refit())

    def on_blur(self, _ev) -> None:
        self.hint()
        self.post_message(Refit())


class Refit(Message):
    """An area asks the table to draw itself again (it took or lost the keyboard)."""


class Options(Widget):
    """The options, numbered, in as many columns as fit; the cursor cell is highlighted.  In
    one column a long option takes up to two lines.  When they do not all fit in the lines
    the table gives them (``rows``), they show a page at a time, the cursor's, above a line
    that says which options are shown and how to see the others."""

    DEFAULT_CSS = "Options { height: auto; }"
    #: Lines an option may take in one column (the rest is cut, "…").
    WRAP = 2

    def __init__(self, **kw):
        super().__init__(**kw)
        self.cells: list = []
        self.cursor = 0
        self.rows: Optional[int] = None     # the lines given (None: as many as needed)
        self.top = 0                         # the first row shown

    def set(self, cells: list, cursor: int) -> None:
        self.cells, self.cursor, self.top = cells, cursor, 0
        self.refresh(layout=True)

    def _columns(self, width: int) -> int:
        cell = max((c.cell_len for c in self.cells), default=1) + 3
        return max(1, min(len(self.cells) or 1, width // cell))

    def _grid_rows(self, width: int) -> list:
        """The rows of the grid: ``(first option, options, lines)`` each."""
        cols = self._columns(width)
        out = []
        for i in range(0, len(self.cells), cols):
            cells = self.cells[i:i + cols]
            if cols == 1:
                cells = [self._fold(cells[0], width)]
            out.append((i, cells, len(cells[0].plain.split("\n")) if cols == 1 else 1))
        return out

    def _fold(self, cell: Text, width: int) -> Text:
        """A cell of one column in up to :attr:`WRAP` lines of ``width``, cut with "…" if longer."""
        lines = list(cell.wrap(self.app.console, max(2, width)))
        if len(lines) > self.WRAP:
            lines = lines[:self.WRAP]
            lines[-1].rstrip()
            lines[-1].truncate(max(1, width - 1))
            lines[-1].append("…")
        for ln in lines:
            ln.rstrip()
        return Text("\n").join(lines)

    def lines_wanted(self, width: int) -> int:
        """The lines that show every option at ``width``."""
        return max(1, sum(n for _i, _c, n in self._grid_rows(width)))

    def get_content_height(self, container, viewport, width: int) -> int:
        want = self.lines_wanted(width)
        return want if self.rows is None else max(1, min(want, self.rows))

    def move(self, step: str) -> None:
        if not self.cells:
            return
        cols = self._columns(self.size.width or 80)
        d = {"left": -1, "right": 1, "up": -cols, "down": cols}[step]
        k = self.cursor + d
        if 0 <= k < len(self.cells):
            self.cursor = k
            self.refresh()

    def _page(self, rows: list, room: int) -> tuple:
        """The rows shown (keeping the cursor's row in sight) and whether some are not."""
        if sum(n for _i, _c, n in rows) <= room:
            return rows, False
        room = max(1, room - 1)                 # a line says there is more
        at = next((k for k, (i, cells, _n) in enumerate(rows) if i <= self.cursor < i + len(cells)), 0)
        self.top = min(self.top, at)
        while True:
            shown, used = [], 0
            for r in rows[self.top:]:
                if used + r[2] > room and shown:
                    break
                shown.append(r)
                used += r[2]
            if at < self.top + len(shown) or self.top >= at:
                return shown, True
            self.top += 1

    def render(self):
        width = self.size.width or 80
        cols = self._columns(width)
        rows = self._grid_rows(width)
        room = self.size.height or self.lines_wanted(width)
        shown, paged = self._page(rows, room)
        g = Table.grid(padding=(0, 3))
        for _ in range(cols):
            g.add_column(no_wrap=True, overflow="ellipsis")
        for first, cells, _lines in shown:
            row = []
            for k, c in enumerate(cells):
                cell = c.copy()
                if first + k == self.cursor:
                    cell.stylize("reverse")
                row.append(cell)
            g.add_row(*row, *[""] * (cols - len(row)))
        if not paged:
            return g
        a = shown[0][0] + 1
        b = shown[-1][0] + len(shown[-1][1])
        more = Text(f"options {a}–{b} of {len(self.cells)}: ↑↓ or a number for the others", style="dim")
        more.truncate(width, overflow="ellipsis")
        return Group(g, more)


class TextScreen(ModalScreen):
    """A page over the table (help, history, the end): any of its keys closes it."""

    BINDINGS = [Binding("escape,q,enter,h,r,question_mark,space", "close", "close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent; padding: 0 1;
                                  background: $surface; }
    """

    def __init__(self, title: str, body, end: bool = False, top: bool = False):
        super().__init__()
        self.title_text, self.body, self.end = title, body, end
        self.top = top                  # opens at its start (a text read from the top), not its end

    def compose(self) -> ComposeResult:
        box = VerticalScroll(Static(self.body))
        box.border_title = self.title_text
        box.border_subtitle = "Enter: leave the game" if self.end else "Esc: back to the table"
        yield box

    def on_mount(self) -> None:
        if not self.end and not self.top:
            # the newest at the bottom, in sight, however long the text takes to lay out: the
            # box stays at its end (anchored) until the person scrolls
            box = self.query_one(VerticalScroll)
            box.anchor()
            self.call_after_refresh(lambda: box.scroll_end(animate=False, immediate=True))

    def action_close(self) -> None:
        self.dismiss(None)


class InspectScreen(ModalScreen):
    """Every card in sight; the highlighted one in full (its text, else its attributes)."""

    BINDINGS = [Binding("escape,q,i", "close", "close")]
    DEFAULT_CSS = """
    InspectScreen { align: center middle; }
    InspectScreen > Vertical { width: 100%; height: 100%; border: round $accent; background: $surface; }
    InspectScreen OptionList, InspectScreen OptionList:focus { height: 1fr; border: none; }
    InspectScreen #card { height: auto; max-height: 60%; padding: 0 1; border-top: solid $accent; }
    """

    def __init__(self, painter: Painter, cards: list, start: int = 0):
        super().__init__()
        self.painter, self.cards, self.start = painter, cards, start

    def compose(self) -> ComposeResult:
        box = Vertical(OptionList(*[Text.assemble((f"{where:<12} ", "dim"), self.painter.card(c))
                                    for where, c in self.cards]), Static(id="card"))
        box.border_title = "cards in sight: ↑↓ to look at one, Esc to go back"
        yield box

    def on_mount(self) -> None:
        ol = self.query_one(OptionList)
        ol.focus()
        if self.cards:
            ol.highlighted = min(self.start, len(self.cards) - 1)
        else:
            self.query_one("#card", Static).update(Text("No card in sight.", style="dim"))

    def on_option_list_option_highlighted(self, ev) -> None:
        self.query_one("#card", Static).update(self.painter.card_text(self.cards[ev.option_index][1]))

    def action_close(self) -> None:
        self.dismiss(None)


HELP = """\
1-9, 10...   type an option's number (then Enter; in a race the key alone answers)
← → ↑ ↓      move between the options, Enter takes the highlighted one
Enter        takes the default option (marked *), highlighted when the choice comes
i            inspect the cards in sight (the highlighted option first)
h            everything that happened so far
r            how to play this game (its rules in a few words)
?            these keys
q            save the game and quit (Ctrl-C too); `catrules play --resume FILE` goes on

Races: a count-in (3 2 1), then the options and the clock; h, i, r and ? pause the clock.
Bots race at your own pace: `catrules play --race-level easy` (or hard) makes them slower
(quicker); `--handicap 0.2` takes 0.2 s off each of your race times.
"""


class Drawn:
    """A rich renderable that is drawn once for each width: Textual draws an area's content to
    measure its height, then again to paint it, and rich tables are slow to draw.  For what
    does not fill a height (tables, text and groups of them: the table's areas), as the height
    Textual asks for changes only where it cuts the lines (it cuts them itself)."""

    def __init__(self, renderable):
        self.renderable = renderable
        self.drawn: dict = {}

    def __rich_console__(self, console, options):
        key = (options.max_width, options.min_width, options.justify, options.overflow, options.no_wrap,
               options.highlight, options.markup)
        segments = self.drawn.get(key)
        if segments is None:
            segments = self.drawn[key] = list(console.render(self.renderable, options))
        return segments

    def __rich_measure__(self, console, options):
        return Measurement.get(console, options, self.renderable)


def drawn(renderable):
    """``renderable`` drawn once per width (a ``Text`` as it is: Textual draws those itself)."""
    return renderable if isinstance(renderable, Text) else Drawn(renderable)


def how_to_play(paragraphs: list) -> Text:
    """A game's "how to play" text (``Game.how_to_play``: paragraphs and list items) for a page."""
    out = Text()
    for i, (kind, text) in enumerate(paragraphs):
        if i:
            out.append("\n" if kind == "item" and paragraphs[i - 1][0] == "item" else "\n\n")
        out.append("• " + text if kind == "item" else text)
    return out if paragraphs else Text("This game has no how-to-play text: `catrules rules GAME --prose` "
                                       "describes its rules.", style="dim")
