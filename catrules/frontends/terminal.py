"""The terminal front end: a person plays one seat at a text terminal.

:class:`TerminalSeat` shows the player's *view* (what the game file lets that
player see: zones, counters, cards and their attributes), the events since
their last decision, and the legal options, numbered; the person answers
with a number.  :class:`Spectator` prints a game's public events for people
watching bots play, and :func:`score_table` the final scores.

Nothing here knows a game.  Cards are drawn from their attributes: each card
is coloured after the symbol value of its first attribute; a value that
names a colour (``red``, ``orange``, ``purple``...) gets that colour, any other
value one from a fixed palette (:mod:`.painter`).  Output goes through a
:class:`rich.console.Console`, so ``NO_COLOR`` is respected and everything wraps to the
terminal's width (80 columns is enough).  This is the plain line mode of ``catrules play``
(for pipes and screen readers); :mod:`.tui` is the full-screen table.
"""

from __future__ import annotations

import sys
import time
from typing import Callable, Optional

from rich.columns import Columns
from rich.console import Console
from rich.rule import Rule
from rich.text import Text

from ..play.seats import Choice, Seat
from .painter import Painter
from .race_clock import COUNT_IN, count_in_steps
from .pieces import bullets, keep_said, plain
from .tables import render_view, score_notes, score_table, winners_line


class Quit(Exception):
    """The person asked to stop (``q``): the command line saves the game."""


def _stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False



def _option_number(ans: str, n: int) -> Optional[int]:
    """The option number typed, or None: only ASCII digits count (``²`` and ``٣`` are digits to
    :meth:`str.isdigit` but not numbers to type), and a number longer than ``n`` is never one."""
    digits = ans.lstrip("0")
    if not (ans.isascii() and ans.isdigit()) or not digits or len(digits) > len(str(n)):
        return None
    k = int(digits)
    return k if k <= n else None


# ------------------------------------------------------------------ seats

class TerminalSeat(Seat):
    """A person at a terminal.

    ``console`` is where the screen goes (default: a new :class:`rich.console.Console`), ``input`` a
    callable like :func:`input` (it gets the prompt text) for tests; by default the console reads
    the keyboard.  ``game`` lets the seat name cards that left the player's sight; ``names`` are
    the other seats' names for the tables.  Typing ``q`` raises :class:`Quit`; end of input raises
    :class:`EOFError` and Ctrl-C :class:`KeyboardInterrupt`, which the command line turns into a
    save file.  A race starts with a count-in (``3 2 1 go!``, :data:`COUNT_IN` seconds in all,
    waited with ``sleep``: by default only when the keyboard is a terminal), then the options
    are shown and the clock starts.
    """

    name = "human"
    interactive = True

    def __init__(self, console: Optional[Console] = None, input: Optional[Callable[[str], str]] = None,
                 game=None, names: Optional[list] = None, show_scores: bool = True,
                 max_events: int = 40, decisions: int = 0, sleep: Optional[Callable[[float], None]] = None):
        self.console = console or Console(highlight=False, emoji=False)
        self._input = input
        self.game = game
        self.names = names
        self.show_scores = show_scores
        self.max_events = max_events
        self.events: list = []
        self.painter: Optional[Painter] = None
        self.decisions = decisions      # decisions asked so far (a resumed game numbers on)
        self._sleep = sleep if sleep is not None else (time.sleep if input is None and _stdin_is_tty()
                                                       else (lambda _s: None))

    def start(self, table, player: int) -> None:
        super().start(table, player)
        game = self.game if self.game is not None else getattr(table, "game", None)
        self.painter = Painter(game, player, self.names)
        title = getattr(game, "title", None) or "the game"
        self.console.print(Rule(Text(f"{title} · you are player {player + 1}", style="bold")))
        self.console.print(Text("Type the number of your choice and Enter; Enter alone takes the "
                                "default (*); ? shows the table again; q saves and quits.", style="dim"))

    def show(self, view: dict, events: list) -> None:
        self.painter.n = view.get("players", self.painter.n)
        self.events.extend(events)

    def _flush_events(self) -> None:
        """What happened since the last decision.  Past :attr:`max_events`, the earlier events
        are left out, except those the game says aloud or that settle something (an ``announce``,
        a reveal, a race's result, a tally): the outcome of a race answered a while ago is not lost
        among the moves that came after it."""
        evs, self.events = self.events, []
        lines = self.painter.events(evs)
        if len(lines) > self.max_events:
            kept, left_out = keep_said(evs, self.max_events)
            lines = [Text(f"… {left_out} earlier events", style="dim")] + self.painter.events(kept)
        if lines:
            self.console.print(bullets(lines))

    def decide(self, view: dict, decision) -> Choice:
        c = self.console
        self.decisions += 1
        self.painter.n = view.get("players", self.painter.n)
        self.painter.width = c.width
        self._flush_events()
        opts = decision.options
        self._screen(view, decision, options=not decision.timed)
        if decision.timed:
            self._count_in()
            self._options(decision)
        t0 = time.monotonic()
        while True:
            prompt = self._prompt(decision)
            try:
                raw = self._ask(prompt)
            except StopIteration:
                raise EOFError from None
            ans = (raw or "").strip()
            low = ans.lower()
            if low in ("q", "quit", "exit"):
                raise Quit()
            if low in ("?", "h", "help"):
                self._screen(view, decision)
                continue
            if not ans:
                if decision.default is not None:
                    return self._choice(decision, decision.default, t0)
                c.print(Text(f"This choice has no default: type a number from 1 to {len(opts)}.",
                             style="yellow"))
                continue
            if ans.isdigit():
                k = _option_number(ans, len(opts))
                if k is not None:
                    return self._choice(decision, opts[k - 1].id, t0)
                shown = plain(ans if len(ans) <= 12 else ans[:9] + "…")
                c.print(Text(f"{shown} is not one of the options: type a number from 1 to {len(opts)}.",
                             style="yellow"))
                continue
            found = [o for o in opts if low in (o.id.lower(), str(o.label).lower())]
            if len(found) == 1:
                return self._choice(decision, found[0].id, t0)
            c.print(Text(f"{ans!r} is not an option: type a number from 1 to {len(opts)}"
                         + (", or Enter for the default." if decision.default is not None else "."),
                         style="yellow"))

    def _count_in(self) -> None:
        """``3 2 1 go!`` on one line, a step every third of :data:`COUNT_IN`: the race starts for
        everyone at once, and its clock when the options are shown after it."""
        c = self.console
        for step, wait in count_in_steps(COUNT_IN):
            c.print(Text(step, style="bold yellow"), end=" " if wait else "\n")
            self._sleep(wait)

    def _choice(self, decision, oid: str, t0: float) -> Choice:
        rt = round(time.monotonic() - t0, 4) if decision.timed else None
        if rt is not None:
            self.console.print(Text(f"your time: {rt:.2f} s", style="dim"))
        return Choice(oid, rt)

    def _ask(self, prompt: Text) -> str:
        if self._input is None:
            answer = self.console.input(prompt)
            if not _stdin_is_tty():
                self.console.print(Text(plain(answer)))    # scripted input: echo it as a terminal would
            return answer
        self.console.print(prompt, end="")
        answer = self._input(prompt.plain)
        self.console.print(Text(plain(str(answer))))    # the echo a terminal would show
        return answer

    def _prompt(self, decision) -> Text:
        n = len(decision.options)
        t = Text("Your choice", style="bold")
        rng = "1" if n == 1 else f"1-{n}"
        t.append(f" [{rng}")
        if decision.default is not None:
            k = next((i for i, o in enumerate(decision.options) if o.id == decision.default), None)
            if k is not None:
                t.append(f", Enter = {k + 1}")
        t.append("]: ")
        return t

    def _screen(self, view: dict, decision, options: bool = True):
        c = self.console
        p = self.painter
        title = Text(f"decision {self.decisions}", style="bold")
        c.print(Rule(title, style="dim"))
        # the player's own private zones are listed apart, unless the options are just those cards
        opt_cards = {o.value for o in decision.options if o.kind == "card"}
        mine = [z for z in view.get("zones", []) if z.get("owner") == p.me and z.get("visibility") == "owner"
                and z.get("cards") is not None]
        hide = {z["zone"] for z in mine}
        listed = [z for z in mine if z["cards"] and {x["id"] for x in z["cards"]} != opt_cards]
        p.width = c.width
        c.print(render_view(p, view, hide, listed))
        running = view.get("running")
        if running:                         # the same line as the full screen's score area
            c.print(Text("if it ended now: ", style="dim") +
                    Text(" · ".join(f"{p.seat_name(pl, True)} {r.get('total')}" for pl, r in enumerate(running))))
        parts = getattr(decision, "prompt_parts", None)
        head = p.parts(parts) if isinstance(parts, list) else Text(str(decision.prompt or "Choose"))
        head.stylize("bold")
        if decision.kind == "race":
            head.append("  (a race: the clock starts with the options)", style="bold yellow")
        elif decision.kind == "secret":
            head.append("  (secret until the reveal)", style="dim")
        c.print(head)
        if options:
            self._options(decision)

    def _options(self, decision) -> None:
        p = self.painter
        texts = [p.card_dict(o.value).get("text") if o.kind == "card" and isinstance(o.value, int)
                 and p.card_dict(o.value) else None for o in decision.options]
        if any(texts):                      # cards the game describes: each on its line, with its text
            for i, (o, full) in enumerate(zip(decision.options, texts)):
                line = Text(f"{i + 1:>2} ", style="bold")
                line.append_text(p.option(o))
                if o.id == decision.default:
                    line.append("*", style="bold")
                if full:
                    line.append(f"  {full}", style="dim")
                self.console.print(line)
            return
        cells = []
        for i, o in enumerate(decision.options):
            cell = Text(f"{i + 1:>2} ", style="bold")
            cell.append_text(p.option(o))
            if o.id == decision.default:
                cell.append("*", style="bold")
            cells.append(cell)
        self.console.print(Columns(cells, padding=(0, 3)))

    def finish(self, view: dict) -> None:
        self._flush_events()
        if self.show_scores and "scores" in view:
            self.console.print(Rule(Text("the end", style="bold"), style="dim"))
            self.painter.width = self.console.width
            self.console.print(render_view(self.painter, view, hide_zone=set()))   # the table as it ends
            self.console.print()
            self.console.print(score_table(view["scores"], view.get("winners", []), self.painter,
                                           score_notes(self.painter.game)))
            self.console.print(winners_line(view.get("winners", []), self.painter))


class Spectator:
    """Prints a game's public events (for people watching bots), then the scores.

    Feed it events with :meth:`event` (already filtered for a spectator, e.g. with
    :func:`catrules.play.match.visible_event` and player ``None``) and call :meth:`flush` to print
    what came in (moves of one zone to one place are printed as one line).
    """

    def __init__(self, console: Optional[Console] = None, game=None, names: Optional[list] = None,
                 quiet: bool = False):
        self.console = console or Console(highlight=False, emoji=False)
        self.painter = Painter(game, None, names)
        self.quiet = quiet
        self.events: list = []

    def event(self, ev: Optional[dict]) -> None:
        if not self.quiet and ev is not None:
            self.events.append(ev)

    def flush(self) -> None:
        self.painter.width = self.console.width
        lines = self.painter.events(self.events)
        self.events = []
        if lines:
            self.console.print(bullets(lines))

    def finish(self, scores: list, winners: list) -> None:
        self.flush()
        self.console.print()
        self.console.print(score_table(scores, winners, self.painter, score_notes(self.painter.game)))
        self.console.print(winners_line(winners, self.painter))
