"""The full-screen table's parts: its areas, the options, and the pages over the table.

:class:`Panel` is an area with a title in its border, :class:`Options` the numbered options
of a decision, :class:`TextScreen` a page of text (the keys, the history, the end) and
:class:`InspectScreen` the cards in sight.  The app that puts them together is
:mod:`catrules.frontends.tui`.
"""

from __future__ import annotations

from rich.measure import Measurement
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList, Static

from .painter import Painter


class Panel(VerticalScroll, can_focus=False):
    """An area of the screen with a title in its top border; it scrolls inside itself."""


class Options(Widget):
    """The options, numbered, in as many columns as fit; the cursor cell is highlighted."""

    DEFAULT_CSS = "Options { height: auto; }"

    def __init__(self, **kw):
        super().__init__(**kw)
        self.cells: list = []
        self.cursor = 0

    def set(self, cells: list, cursor: int) -> None:
        self.cells, self.cursor = cells, cursor
        self.refresh(layout=True)

    def _columns(self, width: int) -> int:
        cell = max((c.cell_len for c in self.cells), default=1) + 3
        return max(1, min(len(self.cells) or 1, width // cell))

    def get_content_height(self, container, viewport, width: int) -> int:
        cols = self._columns(width)
        return max(1, -(-len(self.cells) // cols))

    def move(self, step: str) -> None:
        if not self.cells:
            return
        cols = self._columns(self.size.width or 80)
        d = {"left": -1, "right": 1, "up": -cols, "down": cols}[step]
        k = self.cursor + d
        if 0 <= k < len(self.cells):
            self.cursor = k
            self.refresh()

    def render(self):
        cols = self._columns(self.size.width or 80)
        g = Table.grid(padding=(0, 3))
        for _ in range(cols):
            g.add_column(no_wrap=True)
        row: list = []
        for i, c in enumerate(self.cells):
            cell = c.copy()
            if i == self.cursor:
                cell.stylize("reverse")
            row.append(cell)
            if len(row) == cols:
                g.add_row(*row)
                row = []
        if row:
            g.add_row(*row, *[""] * (cols - len(row)))
        return g


class TextScreen(ModalScreen):
    """A page over the table (help, history, the end): any of its keys closes it."""

    BINDINGS = [Binding("escape,q,enter,h,question_mark,space", "close", "close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll { width: 100%; height: 100%; border: round $accent; padding: 0 1;
                                  background: $surface; }
    """

    def __init__(self, title: str, body, end: bool = False):
        super().__init__()
        self.title_text, self.body, self.end = title, body, end

    def compose(self) -> ComposeResult:
        box = VerticalScroll(Static(self.body))
        box.border_title = self.title_text
        box.border_subtitle = "Enter: leave the game" if self.end else "Esc: back to the table"
        yield box

    def on_mount(self) -> None:
        if not self.end:
            self.query_one(VerticalScroll).scroll_end(animate=False)

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
?            these keys
q            save the game and quit (Ctrl-C too); `catrules play --resume FILE` goes on
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
