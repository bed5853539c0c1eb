"""Web tables: one game each, with people's seats answering from pages and bots deciding here.

A :class:`WebTable` plays through a :class:`catrules.play.match.Match` (the bots' table) and
its :class:`~catrules.play.core.Referee`: every answer of a decision is collected before any is
applied, bots decide from their own view, events are filtered per seat as they happen.  People
answer whenever their message comes: the table pushes it into the referee, which applies
what it can.  Bots are never asked inside a page's request: :meth:`WebTable.play_bots` asks
them one decision at a time, off the request path, on the server's bounded pool
(:mod:`catrules.web.workers`), each search capped at ``max_bot_seconds`` and stopped when its
table is gone.  After every change the table is saved
(:mod:`catrules.web.store`), so a server restarted on the same data resumes every table exactly.
:class:`catrules.web.registry.Registry` holds the games offered and the tables.

Nothing that decides hidden cards leaves the table while the game runs: a seat's log has no
seed before the end, the bots' random source is never sent, and every message is checked
against :mod:`catrules.web.protocol`'s allow-list before it goes.  A table whose creator chose
the seed says so to every page (``seed_chosen``): its creator can know every card.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from typing import Optional

from ..api import load_source
from ..bots.basic import make_seat
from ..errors import IllegalChoice, OverBudget, RulesError
from ..play.match import Match
from ..play.pace import DEFAULT_LEVEL
from ..play.seats import Choice, Seat
from ..play.views import LazyView
from ..runtime.randoms import rng_out
from . import protocol
from .budget import BotBudget
from .pauses import ROUND_PAUSE, Pause, Pausing, paused_view
from .store import Store, StoreError

#: Most players a web table takes (bots included).
MAX_PLAYERS = 12
HUMAN = "human"
#: The most seconds one bot decision may search for (``catrules serve --max-bot-seconds``).
MAX_BOT_SECONDS = 2.0
#: Cheap bot decisions are made together for up to this many seconds before the table is saved
#: and shown (an expensive one is made alone).
BOT_SLICE = 0.05
#: What a page is told of a table whose saved data cannot be read.
DAMAGED = "this table cannot be opened (its saved data is damaged)"

log = logging.getLogger("catrules.web")


#: Games built so far, by file name and text: tables of one game share it (and the parser
#: is not safe to run in several threads at once).
_GAMES: dict = {}
_GAMES_LOCK = threading.Lock()


def game_of(path: str, text: str):
    """The game of a file's ``text`` (its name ``path``), built once."""
    key = (path, hashlib.sha256(text.encode("utf-8")).hexdigest())
    with _GAMES_LOCK:
        game = _GAMES.get(key)
        if game is None:
            game = _GAMES[key] = load_source(text, path)
        return game


class WebError(ValueError):
    """A request the server refuses (a table that cannot be made, an unknown link)."""


class PageSeat(Seat):
    """A person's seat at a web table: answers come from the page, never through ``decide``."""

    name = "person"
    interactive = True          # forced choices are asked too: timing tells nothing
    wants_events = False        # the table filters events for the page itself
    asked = False               # the table waits for the page's message (see Referee.collect)

    def decide(self, view, decision):      # pragma: no cover - the table never asks it
        raise RuntimeError("a page's answers come through WebTable.answer")


class WebTable(Pausing, BotBudget):
    """One game at a web server.  Thread-safe: every change holds :attr:`lock`.  After a round's
    end it pauses for its people (:mod:`catrules.web.pauses`, ``round_pause`` seconds at most)."""

    def __init__(self, store: Store, row: dict, max_bot_seconds: float = MAX_BOT_SECONDS,
                 round_pause: float = ROUND_PAUSE):
        self.store = store
        self.max_bot_seconds, self.round_pause = max_bot_seconds, round_pause
        self.id = row["id"]
        self.game = game_of(row["game_path"], row["game_text"])
        self.kinds = list(row["seats"])
        self.n = row["players"]
        self.options = list(row["options"])
        self.seed = row["seed"]
        self.allow = protocol.allowed(self.game)
        self.lock = threading.RLock()
        self.names = [_seat_name(k) for k in self.kinds]
        seats = [PageSeat() if k == HUMAN else make_seat(k) for k in self.kinds]
        for s in seats:
            if not isinstance(s, PageSeat):
                s.asked = False         # the referee never asks a bot: play_bots does, one decision at a time
                if hasattr(s, "max_seconds"):
                    s.max_seconds = max_bot_seconds
        self.seats = seats
        snap = row.get("snapshot")
        # whether the creator chose the seed: kept in the table's snapshot (older tables: not known, False)
        self.seed_chosen = bool((snap or row).get("seed_chosen", False))
        self.seen = {v: [] for v in [*range(self.n), None]}     # viewer -> [(n, event)]
        level = (snap or row).get("race_level", DEFAULT_LEVEL)      # bots' pace in races (play.pace)
        if snap is None:
            st = self.game.new_state(self.n, seed=self.seed, options=self.options, log=True, ask_forced=True)
            self.match = Match(self.game, st, seats, race_level=level)
        else:
            st = self.game.restore(snap["state"])
            st.log = []
            self.match = Match.resume(self.game, snap, seats, state=st, race_level=level)
            for v in self.seen:
                self.seen[v] = store.events(self.id, v, protocol.RECENT)
        self.state = self.match.state
        # the match's referee asks the bots and takes the pages' answers; its events are filed
        # here for every viewer (pages are sent them, and the store keeps them), not kept in the state
        self.core = core = self.match.core
        core.viewers, core.listener, core.keep_log = list(self.seen), self._file, False
        if snap is not None:
            core.answers = {int(k): v for k, v in snap["answers"].items()}
            core.count = snap["events"]
            self.pause = Pause.from_dict(snap.get("pause"), self.n)     # its time up: play goes on
        self.painters = {v: protocol.painter(self.game, v, self.names) for v in self.seen}
        self._rows: list = []
        #: Why the game cannot go on (its rules failed), or None.
        self.broken: Optional[str] = None
        self.budget_start()
        if snap is None:
            with self.lock:
                self._advance()
                self._save()

    @property
    def answers(self) -> dict:
        """The answers to the decision under way that are in but not applied yet: player ->
        ``[option id, race time or None]``."""
        return self.core.answers

    # --------------------------------------------------------------- play
    @property
    def ask(self) -> int:
        """The number of the decision under way: a page's answer names it (an old one is refused)."""
        return self.state.decisions

    def answer(self, seat: Optional[int], msg: dict, measured: Optional[float] = None) -> Optional[str]:
        """A page's ``choose`` message: ``None`` once taken, or why it is refused (nothing changes).
        In a race its time is ``measured`` by the server (the page's ``"time"`` is never believed)."""
        with self.lock:
            st = self.state
            if seat is None:
                return "a spectator's link cannot choose"
            who = msg.get("player", seat)
            if who != seat:
                return f"this link is player {seat + 1}'s: it cannot act for player {who + 1}"
            if self.broken:
                return self.broken
            if st.finished:
                return "the game is over"
            if self.pause is not None:
                return "the table is waiting for everyone to continue after the round's end"
            if msg["ask"] != self.ask:
                return "that decision is over (an old or repeated message): nothing was changed"
            mine = [d for d in st.pending() if d.player == seat]
            if not mine or seat in self.answers:
                if seat in self.answers:
                    return "you have already answered this decision"
                return "it is not your turn"
            d = mine[0]
            try:
                d.option(msg["option"])
            except IllegalChoice:
                return f"{msg['option'][:60]!r} is not one of your options now"
            t = None
            if d.timed:
                t = protocol.race_time(measured)
                if t is None:
                    return "this race has not been sent to this page yet: answer once it shows"
            self.core.answer(seat, Choice(msg["option"], t), d)
            self.person_answered()
            try:
                self._advance()
            except RulesError as exc:
                # the game file's rules failed (a bot's turn, a trigger): said in the language's words
                self.broken = f"the game stopped: {exc}"
            self._save()
            return None

    # ----------------------------------------------------------------- bots
    def bot_due(self) -> Optional[int]:
        """The first bot (in seat order) still to answer the decision under way, or ``None``."""
        with self.lock:
            if self.broken or self.state.finished or self.pause is not None:
                return None
            for d in self.core.decisions():
                if not isinstance(self.seats[d.player], PageSeat) and d.player not in self.answers:
                    return d.player
            return None

    #: Changes saved (counted from when the table was loaded), and those whose showing to the
    #: pages is over (set by the server): bots decide only once every change has been shown, so
    #: pages see each change in order and a bot never moves before a person's answer is shown.
    changes = 0
    shown = 0

    @property
    def version(self) -> tuple:
        """What the pages may be sent of the table, as a value that changes with it: its saved
        changes, and why it stopped (call holding :attr:`lock`).  A page is sent each version once."""
        return self.changes, self.broken

    def play_bots(self, stop: threading.Event, slice_: float = BOT_SLICE) -> tuple:
        """Let the bots decide, one decision at a time, for about ``slice_`` seconds at most (at
        least one decision), then save: ``(decisions made, whether a bot is still due)``.  Called
        on the pool, holding :attr:`lock` (pages wait for the decision under way, not for the
        next).  Nothing is done while a change is still being shown (:attr:`shown`: the showing
        lets the bots play on when it is over).  ``stop`` set ends a bot's search at once; a
        decision made after it is set is not kept (the table goes back to what the store holds)
        and nothing is saved."""
        with self.lock:
            if self.shown != self.changes:
                return 0, False
            start, made = time.monotonic(), 0
            while not stop.is_set():
                p = self.bot_due()
                if p is None:
                    break
                self._bot_decides(p, stop)
                made += 1
                if time.monotonic() - start >= slice_:
                    break
            if stop.is_set():
                if made:
                    self._revert()
                return 0, False
            if made:
                self._save()
            return made, self.bot_due() is not None

    def _bot_decides(self, player: int, stop: threading.Event) -> None:
        """Ask bot ``player`` for its answer and hand it to the referee, which applies what it can
        (no other bot is asked: :meth:`play_bots` asks the next)."""
        seat, st = self.seats[player], self.state
        if hasattr(seat, "stop"):
            seat.stop = stop.is_set
        d = next(d for d in self.core.decisions() if d.player == player)
        try:
            self.core.answer(player, seat.decide(LazyView(st, player), d), d)
            self._advance()
            self.budget_check()
        except (RulesError, OverBudget) as exc:     # OverBudget: a searching bot found it cannot end
            self.broken = f"the game stopped: {exc}"

    def _file(self, _new: list, shown: dict) -> None:
        """File the new events as each viewer may see them (filtered as they happen, as a match shows them)."""
        self._note_tally(shown)
        for v, mine in shown.items():
            seen = self.seen[v]
            seen.extend(mine)
            self._rows.extend((v, n, ev) for n, ev in mine)
            if len(seen) > 2 * protocol.RECENT:
                del seen[:-protocol.RECENT]

    def _save(self) -> None:
        """Store the change just made; if it cannot be, the table goes back to what the store
        holds and :class:`StoreError` tells the caller (so no page is told of an unsaved change)."""
        snap = {"state": self.state.to_dict(), "bot_rng": rng_out(self.match.rng.getstate()),
                "answers": {str(k): v for k, v in self.answers.items()}, "events": self.core.count,
                "seed_chosen": self.seed_chosen}
        if self.pause is not None:
            snap["pause"] = self.pause.to_dict()
        if self.match.pace is not None:
            snap.update(race_level=self.match.pace.level, pace=self.match.pace.record())
        rows, self._rows = self._rows, []
        try:
            self.store.save(self.id, snap, rows, self.state.finished)
        except StoreError:
            self._revert()
            raise
        self.changes += 1

    #: Set when a change could not be saved nor the table reloaded: the registry loads it again.
    unsaved = False

    def _revert(self) -> None:
        """Back to the table as the store holds it: this object takes on the attributes of the
        table loaded afresh (shared, as that table's referee files its events through them)."""
        try:
            row = self.store.table(self.id)
            fresh = WebTable(self.store, row, self.max_bot_seconds, self.round_pause) if row and row["snapshot"] else None
        except Exception:       # the store cannot be read either: this copy is not to be used
            fresh = None
        if fresh is None:
            self.unsaved = True
            self.broken = "the server could not save this table: reload the page in a moment"
            return
        lock, counts = self.lock, (self.changes, self.shown)
        self.__dict__ = fresh.__dict__
        self.lock = lock
        self.changes, self.shown = counts       # what was undone was never counted: nor shown

    # ------------------------------------------------------------ messages
    def message(self, seat: Optional[int], since: int) -> tuple:
        """``(message, last event number)``: what ``seat`` is sent, its events after ``since``."""
        with self.lock:
            view, pause = self.view(seat), self.pause
            upto = pause.upto if pause is not None else float("inf")   # paused: nothing of the next round
            p = self.painters[seat]
            items = [x for x in (protocol.event_item(p, n, ev) for n, ev in self.seen[seat] if since < n <= upto)
                     if x is not None][-protocol.RECENT:]
            info = {"table": self.id, "seat": seat, "names": self.names, "kinds": self.kinds, "broken": self.broken,
                    "title": self.game.title, "ask": self.ask, "seed_chosen": self.seed_chosen,
                    "score_items": [[name, counted] for name, counted in self.game.score_items]}
            if since == 0:                # a page's first message: the game's "how to play" text
                info["how_to_play"] = [[kind, text] for kind, text in self.game.how_to_play]
            last = max([n for n, _ev in self.seen[seat] if n <= upto] or [since])
            if pause is not None:
                info["pause"] = pause.message()
                view = dict(paused_view(view), waiting_for=pause.waiting)
            try:
                ending = protocol.ending_of(p, self.seen[seat])
                return protocol.state_message(info, view, items, self.allow, ending), max(last, since)
            except protocol.Unlisted as exc:
                log.error("table %s: a message for a page was withheld: %s", self.id, exc)
                return protocol.error("the server withheld a message it may not send (a fault of the "
                                      "server, reported in its log)"), since

    def view(self, seat: Optional[int]) -> dict:
        """``seat``'s view, with who is still to answer as everyone sees it."""
        return view_for(self.state, seat, self.answers)

    def log_lines(self, seat: Optional[int]) -> list:
        """The seat's log of the game (JSON Lines, :mod:`catrules.play.logs`): only what it saw,
        and the seed only once the game is over (it decides every hidden card).  Each line is
        checked against the allow-list (raises :class:`protocol.Unlisted`)."""
        import io
        from ..play.logs import LogWriter
        buf = io.StringIO()
        with self.lock:
            w = LogWriter(buf, self.game, self.n, self.options, self.seed, self.names, viewer=seat,
                          withhold_seed=not self.state.finished)
            # the events were filtered when they happened (as the seat was shown them): they are
            # written as they are, not filtered again with the state as it is now
            w.state = self.state
            for n, ev in self.store.events(self.id, seat):
                w.write_as_shown(ev, n)
            if self.state.finished:
                w.write_result()
        return [protocol.check_log_line(x, self.allow) for x in buf.getvalue().splitlines()]


def view_for(state, seat: Optional[int], answers: dict) -> dict:
    """``seat``'s view while ``answers`` (player -> answer) are in but not yet applied: those
    players are no longer waited for, and a seat that answered has nothing left to decide."""
    view = dict(state.view(seat))
    view["waiting_for"] = [p for p in view.get("waiting_for", []) if p not in answers]
    if seat is not None and seat in answers:
        view["decisions"] = []
        view["answered"] = True
    return view


def _seat_name(kind: str) -> str:
    return "" if kind == HUMAN else f"{kind.split(':')[0].replace('bot', 'greedy')} bot"
