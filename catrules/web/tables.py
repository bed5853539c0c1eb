"""Web tables: one game each, with people's seats answering from pages and bots deciding here.

A :class:`WebTable` plays through a :class:`catrules.play.match.Match` (the bots' table) and
its :class:`~catrules.play.core.Referee`: every answer of a decision is collected before any is
applied, bots decide from their own view, events are filtered per seat as they happen.  People
answer whenever their message comes: the table pushes it into the referee, which then lets
the bots answer and applies what it can.  After every change the table is saved
(:mod:`catrules.web.store`), so a server restarted on the same data resumes every table exactly.  :class:`Registry` holds
the games offered, creates tables and finds a table by a seat's token.

Nothing that decides hidden cards leaves the table while the game runs: a seat's log has no
seed before the end, the bots' random source is never sent, and every message is checked
against :mod:`catrules.web.protocol`'s allow-list before it goes.  A table whose creator chose
the seed says so to every page (``seed_chosen``): its creator can know every card.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from pathlib import Path
from typing import Optional

from ..api import load_source
from ..bots.basic import make_seat
from ..errors import CatrulesError, IllegalChoice, RulesError
from ..play.match import Match
from ..play.seats import Choice, Seat
from ..runtime.randoms import rng_out
from . import protocol
from .store import Store

#: Most players a web table takes (bots included), and most tables a server keeps in memory.
MAX_PLAYERS = 12
HUMAN = "human"
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


class WebTable:
    """One game at a web server.  Thread-safe: every change holds :attr:`lock`."""

    def __init__(self, store: Store, row: dict):
        self.store = store
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
        snap = row.get("snapshot")
        # whether the creator chose the seed: kept in the table's snapshot (older tables: not known, False)
        self.seed_chosen = bool((snap or row).get("seed_chosen", False))
        self.seen = {v: [] for v in [*range(self.n), None]}     # viewer -> [(n, event)]
        if snap is None:
            st = self.game.new_state(self.n, seed=self.seed, options=self.options, log=True, ask_forced=True)
            self.match = Match(self.game, st, seats)
        else:
            st = self.game.restore(snap["state"])
            st.log = []
            self.match = Match.resume(self.game, snap, seats, state=st)
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
        self.painters = {v: protocol.painter(self.game, v, self.names) for v in self.seen}
        self._rows: list = []
        #: Why the game cannot go on (its rules failed), or None.
        self.broken: Optional[str] = None
        if snap is None:
            with self.lock:
                core.advance()
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

    def answer(self, seat: Optional[int], msg: dict) -> Optional[str]:
        """A page's ``choose`` message: ``None`` once taken, or why it is refused (nothing changes)."""
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
                t = protocol.race_time(msg.get("time"))
                if t is None:
                    return "a race needs your reaction time (\"time\", in seconds)"
            self.core.answer(seat, Choice(msg["option"], t), d)
            try:
                self.core.advance()
            except RulesError as exc:
                # the game file's rules failed (a bot's turn, a trigger): said in the language's words
                self.broken = f"the game stopped: {exc}"
            self._save()
            return None

    def _file(self, _new: list, shown: dict) -> None:
        """File the new events as each viewer may see them (filtered as they happen, as a match shows them)."""
        for v, mine in shown.items():
            seen = self.seen[v]
            seen.extend(mine)
            self._rows.extend((v, n, ev) for n, ev in mine)
            if len(seen) > 2 * protocol.RECENT:
                del seen[:-protocol.RECENT]

    def _save(self) -> None:
        snap = {"state": self.state.to_dict(), "bot_rng": rng_out(self.match.rng.getstate()),
                "answers": {str(k): v for k, v in self.answers.items()}, "events": self.core.count,
                "seed_chosen": self.seed_chosen}
        self.store.save(self.id, snap, self._rows, self.state.finished)
        self._rows = []

    # ------------------------------------------------------------ messages
    def message(self, seat: Optional[int], since: int) -> tuple:
        """``(message, last event number)``: what ``seat`` is sent, its events after ``since``."""
        with self.lock:
            view = self.view(seat)
            p = self.painters[seat]
            items = [x for x in (protocol.event_item(p, n, ev) for n, ev in self.seen[seat] if n > since)
                     if x is not None][-protocol.RECENT:]
            info = {"table": self.id, "seat": seat, "names": self.names, "kinds": self.kinds, "broken": self.broken,
                    "title": self.game.title, "ask": self.ask, "seed_chosen": self.seed_chosen,
                    "score_items": [[name, counted] for name, counted in self.game.score_items]}
            last = self.seen[seat][-1][0] if self.seen[seat] else since
            try:
                return protocol.state_message(info, view, items, self.allow), max(last, since)
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


# ---------------------------------------------------------------- registry

class Registry:
    """The games a server offers and its tables (kept in memory once used)."""

    def __init__(self, store: Store, game_files: list):
        self.store = store
        self.games: dict = {}
        for path in game_files:
            p = Path(path)
            text = p.read_text(encoding="utf-8")
            game = game_of(str(p), text)
            key = p.stem
            while key in self.games:
                key += "_"
            self.games[key] = {"path": str(p), "text": text, "game": game}
        self.tables: dict = {}
        self._lock = threading.Lock()

    def game_list(self) -> list:
        from ..bots.basic import BOT_KINDS
        out = []
        for key, g in self.games.items():
            game = g["game"]
            out.append({"id": key, "title": game.title, "min_players": game.min_players,
                        "max_players": min(game.max_players, MAX_PLAYERS), "options": game.options,
                        "seats": [HUMAN, *BOT_KINDS]})
        return out

    def create(self, spec) -> dict:
        """A new table from the lobby's form; its links (one per person, one for spectators)."""
        if not isinstance(spec, dict):
            raise WebError("a table is described by a JSON object")
        g = self.games.get(spec.get("game"))
        if g is None:
            raise WebError(f"unknown game {str(spec.get('game'))[:40]!r}; choose one of: {', '.join(self.games)}")
        game = g["game"]
        n = spec.get("players")
        hi = min(game.max_players, MAX_PLAYERS)
        if not isinstance(n, int) or isinstance(n, bool) or not game.min_players <= n <= hi:
            raise WebError(f"{game.title} is for {game.min_players} to {hi} players")
        options = spec.get("options", [])
        if not isinstance(options, list) or any(o not in game.options for o in options):
            raise WebError(f"unknown option; {game.title}'s options: {', '.join(game.options) or 'none'}")
        seats = spec.get("seats") or [HUMAN] * n
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) for s in seats):
            raise WebError(f"give one seat per player ({n}): human, or a bot (random, greedy, bot:fast...)")
        seats = [s.strip().lower() for s in seats]
        for s in seats:
            if s != HUMAN:
                try:
                    make_seat(s)
                except ValueError as exc:
                    raise WebError(str(exc)) from None
        seed = spec.get("seed")
        chosen = not (seed is None or seed == "")
        if not chosen:
            seed = secrets.randbelow(2 ** 31)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
            raise WebError("the seed is a whole number (or leave it out)")
        tid = secrets.token_hex(6)
        tokens = {secrets.token_urlsafe(18): i for i, s in enumerate(seats) if s == HUMAN}
        spectator = secrets.token_urlsafe(18)
        tokens[spectator] = None
        row = {"id": tid, "created": time.time(), "game_path": g["path"], "game_text": g["text"],
               "players": n, "options": sorted(set(options)), "seed": seed, "seats": seats,
               "seed_chosen": chosen}
        self.store.add_table(row, tokens)
        try:
            table = WebTable(self.store, row)
        except CatrulesError as exc:
            self.store.delete_table(tid)
            raise WebError(f"the game could not start: {exc}") from None
        with self._lock:
            self.tables[tid] = table
        links = [{"seat": s, "name": f"player {s + 1}", "link": f"/play#{t}"} for t, s in tokens.items()
                 if s is not None]
        return {"table": tid, "game": game.title, "seats": seats, "links": sorted(links, key=lambda x: x["seat"]),
                "spectator": f"/play#{spectator}"}

    def table(self, table_id: str) -> WebTable:
        with self._lock:
            t = self.tables.get(table_id)
            if t is None:
                row = self.store.table(table_id)
                if row is None:
                    raise WebError("no such table")
                t = self.tables[table_id] = WebTable(self.store, row)
            return t

    def by_token(self, token: str) -> tuple:
        """``(table, seat)`` of a link's token (seat ``None``: a spectator)."""
        found = self.store.seat_of(token)
        if found is None:
            raise WebError("this link is not valid (no table has this token)")
        return self.table(found[0]), found[1]
