"""The full-screen table: a person plays at a terminal in a Textual app.

The screen has fixed areas (they never push each other off the screen): the shared table,
the other players (their public zones, how many cards the hidden ones hold, their counters),
the score so far, what happened recently, your own cards, and the decision (its prompt and
numbered options).  It fits 80×24 and uses more room when there is more.  Keys: a number or
the arrows and Enter choose, Enter alone takes the default, ``i`` inspects a card, ``h``
shows every event so far, ``r`` how to play the game, ``?`` the keys, ``q`` saves and quits,
Ctrl-C too (:mod:`catrules.frontends.tui_keys`).

Why a worker thread: :class:`~catrules.play.match.Match` asks its seats synchronously
(``decide()`` returns the answer), and the engine, the bots and the save/resume logic are
written that way.  Rather than turning the match inside out into callbacks, the match runs
unchanged in a worker thread; a :class:`TuiSeat`'s ``decide()`` hands the decision to the app
(``App.call_from_thread``) and blocks on a queue until the person answers (or asks to stop:
then the answer is the exception the line UI would raise, ``Quit``, ``KeyboardInterrupt`` or
``EOFError``, and the match is left at that decision, ready to be saved).  All painting happens
in the app's thread; the worker only hands over views, events and decisions.  :func:`run_tui`
starts the match while the app starts: what the worker hands over before the app is mounted
is kept and drawn on mount, so the first frame already shows the first decision.

The score area shows only what the player may know: the running score when the game's score
reads only public things (the view's ``running``), else the totals of the last ``tally`` (a
public event); at the end, the final score.  Nothing here knows a game.
"""

from __future__ import annotations

import gc
import queue
import threading
from typing import Optional

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from ..play.seats import Choice, Seat
from .painter import Painter
from .pieces import keep_said
from .tables import (card_counters, others_part, player_flow, shared_counters,
                     shared_part, tally_title)
from .tui_fit import allot, crop_blocks, measure, newest_whole, past_events
from .tui_endings import EndingsMixin, running_rows
from .tui_keys import KeysMixin
from .tui_race import RaceMixin
from .tui_widgets import InspectScreen, Options, Panel, Refit, TextScreen, drawn  # noqa: F401

#: Events kept in the "recent" area (all of them are a key away, in the history).
RECENT = 60
#: Since the last decision, the newest events always shown; earlier, only what the game says
#: (:func:`catrules.frontends.pieces.keep_said`) when there is some.
SAID_TAIL = 8


class TuiSeat(Seat):
    """A person at the full-screen table; :func:`run_tui` connects the seats to the app."""

    name = "human"
    interactive = True

    def __init__(self, game=None, names: Optional[list] = None, decisions: int = 0):
        self.game = game
        self.names = names
        self.app: Optional["TableApp"] = None
        self.painter: Optional[Painter] = None
        self.events: list = []          # every event this player has seen, filtered
        self.marks: list = []           # (index in events, decision number): where each decision came
        self.view: dict = {}
        self.final: Optional[dict] = None
        self.decisions = decisions      # decisions asked so far (continues after a resume)
        self.answers: "queue.Queue" = queue.Queue()

    def start(self, table, player: int) -> None:
        super().start(table, player)
        game = self.game if self.game is not None else getattr(table, "game", None)
        self.painter = Painter(game, player, self.names)
        state = getattr(table, "state", None)
        if game is not None and state is not None and state.decisions and not self.events:
            # a resumed game: what happened before the save, as this player saw it
            self.events, self.marks = past_events(game, state, player, self.decisions)

    def _tell(self, fn, *args) -> None:
        self.app.tell(fn, *args)

    def show(self, view: dict, events: list) -> None:
        self.view = dict(view)
        self.events.extend(events)
        self._tell(self.app.refresh_seat, self)

    def decide(self, view: dict, decision) -> Choice:
        if self.app.stop_with is not None:          # q or Ctrl-C while the bots were playing
            raise self.app.stop_with
        self.decisions += 1
        self.view = dict(view)
        self.marks.append((len(self.events), self.decisions))
        self._tell(self.app.ask, self, decision)
        if self.app.stop_with is not None and self.answers.empty():
            raise self.app.stop_with
        answer = self.answers.get()
        if isinstance(answer, BaseException):
            raise answer
        return answer

    def finish(self, view: dict) -> None:
        self.view = self.final = dict(view)
        self._tell(self.app.refresh_seat, self)


# ---------------------------------------------------------------------- app

class TableApp(KeysMixin, EndingsMixin, RaceMixin, App):
    """The full-screen table for one or more :class:`TuiSeat`; the match runs in a worker thread."""

    TITLE = "catrules"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("q", "stop('quit')", "save & quit"),
        Binding("ctrl+c", "stop('interrupt')", "save & quit", priority=True, show=False),
        Binding("i", "inspect", "inspect a card"),
        Binding("h", "history", "history"),
        Binding("r", "how_to_play", "how to play"),
        Binding("question_mark", "help", "keys"),
    ]
    CSS = """
    Screen { layout: vertical; }
    Panel { border-top: solid $primary; border-title-color: $text; border-title-style: bold;
            scrollbar-size-vertical: 1; height: auto; }
    #upper { height: auto; }
    #shared { width: 1fr; max-height: 100%; }
    #score { width: 20; max-height: 100%; padding-left: 1; }
    #lower { height: 1fr; }
    #players { width: 1fr; height: 100%; }
    #events { width: 30; height: 100%; padding-left: 1; }
    #mine { height: 2; }
    #decision { height: auto; background: $boost; padding: 0 1; }
    #prompt { height: auto; }
    #keys { height: 1; background: $primary-background; }
    Panel:focus { border-top: solid $accent; }
    Panel:focus-within { border-top: solid $accent; }
    """

    def __init__(self, match, seats: list, title: str = ""):
        super().__init__()
        self.match, self.seats, self.head = match, seats, title
        self.race_time = ""             # "your time: 0.45 s" after a race, in the bottom line
        self.seat: Optional[TuiSeat] = seats[0] if seats else None
        self.decision = None
        self.prompt_text = Text("")
        self.bodies: dict = {}
        self.race_init()
        self.typed = ""
        self.bad_digit = False          # an invalid number was typed: the next Enter plays nothing
        self.stop_with: Optional[BaseException] = None
        self.outcome: Optional[BaseException] = None   # what the match raised, if it did not finish
        self.worker: Optional[threading.Thread] = None
        self.handover: Optional[int] = None
        # what the match thread asked of the app before it was mounted: done, in order, on mount
        self.early: Optional[list] = []
        self.collect_after_first_frame = False
        self.early_lock = threading.Lock()
        for s in seats:
            s.app = self

    def start_match(self) -> None:
        """Start the match thread (once).  Started before the app runs, the match reaches its
        first decision while the app starts, and the first frame already shows it."""
        if self.worker is None:
            self.worker = threading.Thread(target=self._play, name="catrules-match", daemon=True)
            self.worker.start()

    def tell(self, fn, *args) -> None:
        """Call ``fn(*args)`` in the app's thread (from the match thread); before the app is
        mounted, keep it for :meth:`on_mount` (so nothing is drawn twice before the first frame)."""
        with self.early_lock:
            if self.early is not None:
                self.early.append((fn, args))
                return
        try:
            self.call_from_thread(fn, *args)
        except RuntimeError:            # the app is gone: the match's next decision ends it
            pass

    def compose(self) -> ComposeResult:
        with Horizontal(id="upper"):
            yield Panel(Static(id="shared-body"), id="shared")
            yield Panel(Static(id="score-body"), id="score")
        with Horizontal(id="lower"):
            yield Panel(Static(id="players-body"), id="players")
            yield Panel(Static(id="events-body"), id="events", scrolls=False)
        yield Panel(Static(id="mine-body"), id="mine")
        with Vertical(id="decision"):
            yield Static(id="prompt")
            yield Options(id="options")
        yield Static(id="keys")

    def on_mount(self) -> None:
        for pid, title in (("shared", "table"), ("players", "the others"), ("score", "score"),
                           ("events", "what happened"), ("mine", "your cards")):
            panel = self.query_one(f"#{pid}", Panel)
            panel.name_shown = panel.border_title = title
        self._keys()
        self._fit()
        with self.early_lock:
            early, self.early = self.early, None
        for i, (fn, args) in enumerate(early):
            # each call draws the table from the seat's latest view: a refresh with a call
            # after it would be drawn over before the first frame
            if fn != self.refresh_seat or i == len(early) - 1:
                fn(*args)
        self.start_match()
        if self.collect_after_first_frame:
            self.call_after_refresh(gc.enable)

    def _fit(self) -> None:
        # the recent events get 34 columns of a narrow screen, two fifths of a wide one
        w = self.size.width
        self.query_one("#events").styles.width = 30 if w < 100 else w * 2 // 5
        self.query_one("#score").styles.width = 20 if w < 100 else 32

    # -------------------------------------------------------- the match thread
    def _play(self) -> None:
        try:
            self.match.run()
        except BaseException as exc:       # handed to the command line, which saves or reports it
            self.outcome = exc
        self.tell(self.match_over)

    def match_over(self) -> None:
        if self.outcome is not None or self.seat is None or self.seat.final is None:
            self.exit()
            return
        self._show(self.seat)
        self.show_end(self.seat)

    # ------------------------------------------------------------- drawing
    def refresh_seat(self, seat: TuiSeat) -> None:
        if seat is self.seat and self.handover is None:
            self._show(seat)

    def _show(self, seat: TuiSeat) -> None:
        p, view = seat.painter, seat.view
        if not view:
            return
        p.n = view.get("players", p.n)
        p.width = None
        shared = [x for x in (shared_part(p, view, show_empty=False), shared_counters(p, view)) if x is not None]
        self.bodies = {
            "shared": drawn(Group(*shared)) if shared else Text("—", style="dim"),
            "score": drawn(self._score(seat)),
            "events": self._recent(seat),
            "mine": drawn(player_flow(p, view, p.me, empty=True)) if p.me is not None else Text(""),
            # each other player a block: when they do not all fit, each keeps a line
            "players": [drawn(others_part(p, view, only=pl)) for pl in range(p.n) if pl != p.me]
                       + [drawn(c) for c in card_counters(p, view)],
        }
        for key in ("shared", "score", "mine"):
            self.query_one(f"#{key}-body", Static).update(self.bodies[key])
        self._layout()
        events = self.query_one("#events", Panel)
        # it holds the newest whole events that fit (see _layout): shown from their top
        self.call_after_refresh(lambda: events.scroll_home(animate=False))
        self._keys()

    def on_resize(self, _ev) -> None:
        self._fit()
        self._layout()

    def on_refit(self, _msg: Refit) -> None:
        self._layout()

    def _layout(self) -> None:
        """Share the screen's lines between the areas, so that nothing is pushed off it: the
        decision first (its options page when they do not fit), a line for each other player
        and two for what happened, then the table, your cards, and the rest to the others and
        what happened.  An area with more than it shows scrolls from the keyboard (Tab to it,
        PgUp/PgDn) and says so in its top border."""
        bodies = self.bodies
        width, height = self.size
        if not bodies or not width or not height:
            return
        con, q = self.console, self.query_one
        ew, sw = q("#events").styles.width.value, q("#score").styles.width.value
        opts = q("#options", Options)
        prompt = min(3, measure(con, self.prompt_text, width - 2))
        opt_lines = opts.lines_wanted(width - 2) if opts.cells else 0
        n_others = len(bodies["players"])
        upper_want = 1 + max(measure(con, bodies["shared"], int(width - sw - 1)),
                             measure(con, bodies["score"], int(sw - 1)))
        players = q("#players", Panel)
        others_full = sum(measure(con, b, int(width - ew - 1)) for b in bodies["players"])
        mine_want = 1 + measure(con, bodies["mine"], width - 1)
        room = height - 1
        dec, upper, lower, mine = 0, 1, 2, 3
        h = allot(room, [(prompt + min(opt_lines, 2), prompt + min(opt_lines, max(3, room // 3))),
                         (3, min(upper_want, room * 2 // 5)), (1 + max(n_others, 2), 1 + max(n_others, 4)),
                         (2, min(mine_want, max(3, room // 4)))])
        more = room - sum(h)
        h[lower] += min(more, max(0, 1 + max(others_full, 4) - h[lower]))
        h[upper] += min(upper_want - h[upper], room - sum(h)) if upper_want > h[upper] else 0
        h[lower] += room - sum(h)
        q("#decision").styles.height = h[dec]
        q("#prompt").styles.height = prompt
        opts.rows = max(1, h[dec] - prompt)
        opts.refresh(layout=True)
        q("#upper").styles.height = h[upper]
        q("#lower").styles.height = h[lower]
        q("#mine").styles.height = h[mine]
        if players.has_focus:
            body, players.cut = crop_blocks(con, bodies["players"], int(width - ew - 1), 10 ** 6)[0], False
        else:
            body, players.cut = crop_blocks(con, bodies["players"], int(width - ew - 1), h[lower] - 1)
        q("#players-body", Static).update(body)
        q("#events-body", Static).update(drawn(newest_whole(con, bodies["events"], int(ew - 2), h[lower] - 1)))
        self.call_after_refresh(self._hints)

    def _hints(self) -> None:
        for panel in self.query(Panel):
            panel.hint()
        if self.focused is None and len(self.screen_stack) == 1:
            # PgDn scrolls the first area with more (the table's, mostly) without a Tab first
            first = next((p for p in self.query(Panel) if p.can_focus and p.id != "players"), None)
            if first is not None:
                first.focus()

    def _score(self, seat: TuiSeat):
        p = seat.painter
        if seat.final is not None:
            sc = seat.final["scores"]
            rows = [(pl, r.get("total")) for pl, r in enumerate(sc)]
            title = "final score"
        else:
            tally = next((e for e in reversed(seat.events) if e.get("t") == "tally"), None)
            running = seat.view.get("running")
            if running:                     # the game's score reads only public things
                return running_rows("if it ended now", [(pl, r.get("total")) for pl, r in enumerate(running)],
                                    seat.view.get("running_note", ""), p)
            if tally is None:
                return Text("scores are counted at the end" + (" (and at each tally)" if p.game is not None
                                                                 and p.game.has_tallies else ""),
                            style="dim")
            else:
                rows = [(pl, r.get("total")) for pl, r in enumerate(tally.get("totals", []))]
                title = tally_title(tally).replace("Score ", "", 1)
        t = Table.grid(padding=(0, 1))
        t.add_column(no_wrap=True)
        t.add_column(justify="right", style="bold cyan")
        for pl, total in rows:
            t.add_row(("▸ " if pl == p.me else "  ") + p.seat_name(pl, True), str(total))
        return Group(Text(title, style="dim"), t)

    def _recent(self, seat: TuiSeat):
        """The events since the seat's previous decision, after dimmer earlier ones."""
        p = seat.painter
        last = seat.marks[-2][0] if len(seat.marks) > 1 else 0
        if self.decision is None or self.seat is not seat:
            last = seat.marks[-1][0] if seat.marks else 0
        start = max(0, len(seat.events) - RECENT)
        p.short_tally = True                # the full tally table is in the history
        try:
            old = p.events(seat.events[start:max(start, last)])
            fresh = seat.events[max(start, last):]
            kept, left_out = keep_said(fresh, SAID_TAIL)
            if left_out and len(kept) > SAID_TAIL:
                # what the game said (a race's outcome) would scroll away behind the moves after it
                old = [Text(f"… {left_out} earlier events (h: history)", style="dim")]
                new = p.events(kept)
            else:
                new = p.events(fresh)
        finally:
            p.short_tally = False
        for x in old:
            if isinstance(x, Text):
                x.stylize("dim")
        return old + new           # a list of events: the newest whole ones that fit are shown

    def _keys(self) -> None:
        seat = self.seat
        bits = [self.head]
        if seat is not None and seat.painter is not None:
            bits.append(f"player {seat.player + 1}")
            if seat.decisions:
                bits.append(f"decision {seat.decisions}")
        if self.race_time:
            bits.append(self.race_time)
        waiting = self._waiting(seat)
        if waiting:
            bits.append(waiting)
        keys = Text(" i card · h history · ? keys · q save+quit ", style="reverse")
        while len(bits) > 1 and len(" · ".join(bits)) + 2 + keys.cell_len > self.size.width:
            bits.pop(0)                 # a narrow screen: the decision number matters most
        line = Text(" " + " · ".join(bits), style="bold")
        pad = max(1, self.size.width - line.cell_len - keys.cell_len)
        line.append(" " * pad)
        line.append_text(keys)
        self.query_one("#keys", Static).update(line)

    def _waiting(self, seat) -> str:
        """Who the table waits for while this person has nothing to answer ("player 3 is
        choosing…"): a bot that searches may take seconds, and the screen should not look stuck.
        From the view's ``waiting_for``, which everyone sees."""
        if seat is None or self.decision is not None or seat.final is not None or not seat.view:
            return ""
        others = [pl for pl in seat.view.get("waiting_for", []) if pl != seat.player]
        if not others:
            return ""
        names = ", ".join(f"player {pl + 1}" for pl in others)
        return f"{names} {'is' if len(others) == 1 else 'are'} choosing…"

    # ------------------------------------------------------------ deciding
    def ask(self, seat: TuiSeat, decision) -> None:
        humans = [s for s in self.seats if s.painter is not None]
        if seat is not self.seat and len(humans) > 1:
            # another person's turn at a shared keyboard: cover the table until they are there
            self.seat, self.handover = seat, seat.player
            self.push_screen(TextScreen(f"player {seat.player + 1}'s turn",
                                        Text(f"Pass the keyboard to player {seat.player + 1}, then press Enter.")),
                             lambda _r: self._uncover(seat, decision))
            return
        self.seat = seat
        self._present_after_ends(seat, decision)

    def _uncover(self, seat: TuiSeat, decision) -> None:
        self.handover = None
        self._present_after_ends(seat, decision)

    def _present_after_ends(self, seat: TuiSeat, decision) -> None:
        """A round that ended since the person's last look is shown first, until a key."""
        self._show(seat)
        if not self.round_end_first(seat, lambda: self._present(seat, decision)):
            self._present(seat, decision)

    def _present(self, seat: TuiSeat, decision) -> None:
        p = seat.painter
        self.decision, self.typed, self.bad_digit = decision, "", False
        self._show(seat)
        head = p.parts(decision.prompt_parts) if isinstance(getattr(decision, "prompt_parts", None), list) \
            else Text(str(decision.prompt or "Choose"))
        head.stylize("bold")
        if decision.timed:
            head.append("  (a race: one key answers, the clock is running)", style="bold yellow")
        elif decision.kind == "secret":
            head.append("  (secret until the reveal)", style="dim")
        self.prompt_text = head
        self.query_one("#prompt", Static).update(head)
        cells, cursor = [], 0
        for i, o in enumerate(decision.options):
            cell = Text(f"{i + 1}", style="bold")
            cell.append(" ")
            cell.append_text(p.option(o))
            if o.id == decision.default:
                cell.append("*", style="bold")
                cursor = i
            cells.append(cell)
        self.show_options(decision, head, cells, cursor)     # a race: after its count-in

    def _answer(self, index: int) -> None:
        d, seat = self.decision, self.seat
        if d is None or not 0 <= index < len(d.options):
            return
        rt = None
        if d.timed:
            rt = self.race_time_taken()
            # in the bottom line until the next race: notices would pile up over the table
            self.race_time = f"your time: {rt:.2f} s"
            self._keys()
        self.decision, self.typed = None, ""
        self.prompt_text = Text("…", style="dim")
        self.query_one("#prompt", Static).update(self.prompt_text)
        self.query_one("#options", Options).set([], 0)
        self._layout()
        seat.answers.put(Choice(d.options[index].id, rt))


def run_tui(match, seats: list, title: str = "") -> TableApp:
    """Play ``match`` at the full-screen table (``seats``: its :class:`TuiSeat` seats).  Raises what
    the match raised (``Quit``, ``KeyboardInterrupt``, ``EOFError``, a rules error) once the screen
    is closed; returns the app (its seats hold the final views)."""
    app = TableApp(match, seats, title)
    app.start_match()
    # ``catrules play`` pauses the collector while it starts: then what is alive now (the game,
    # the modules) lives as long as the program and is frozen (never walked again: a full
    # collection in the first frame cost ~20 ms), and the collector is on after the first frame.
    app.collect_after_first_frame = not gc.isenabled()
    if app.collect_after_first_frame:
        gc.freeze()
    try:
        app.run()
    finally:
        # also when the start is interrupted (Ctrl-C before the app has the keyboard): the match
        # thread, started first, is stopped before the caller saves the game
        _stop(app)
    if app.outcome is not None:
        raise app.outcome
    return app


def _stop(app: TableApp) -> None:
    """After the app closed: stop the match thread at its next decision and wait for it."""
    if app.worker is not None and app.worker.is_alive():
        app.stop_with = app.stop_with or EOFError()      # the screen went away: like the end of input
        for s in app.seats:
            s.answers.put(app.stop_with)
        app.worker.join()
