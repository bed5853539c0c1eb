"""The games a web server offers and its tables: :class:`Registry` makes tables from the lobby's
form, finds a table by its id or by a seat's token, keeps the tables in use in memory (loading
the others again from the store when asked for) and deletes old finished tables.

A table itself (its game, seats and bots) is a :class:`catrules.web.tables.WebTable`.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
import weakref
from pathlib import Path
from typing import Optional

from ..bots.basic import make_seat
from ..errors import CatrulesError
from ..play.pace import DEFAULT_LEVEL, LEVELS
from .pauses import ROUND_PAUSE
from .store import Store, StoreDamaged, StoreError
from .tables import DAMAGED, HUMAN, MAX_BOT_SECONDS, MAX_PLAYERS, WebError, WebTable, game_of

#: Most tables a server keeps in memory, the seconds a table nobody asked for stays there, the
#: days a finished table is kept in the store, and the seconds between two deletions of old ones.
KEEP_TABLES = 200
IDLE_SECONDS = 600.0
EXPIRE_DAYS = 30.0
#: How often old finished tables are looked for: hourly, or four times per expiry time if shorter.
EXPIRE_EVERY = 3600.0

log = logging.getLogger("catrules.web")


class Registry:
    """The games a server offers and its tables.

    A table is kept in memory while it is used: at most ``keep`` of them, and none finished
    or asked for by no page for ``idle`` seconds (:meth:`tidy`).  A table let go of that a
    page's connection still holds stays the one object for its id (kept in a weak map), so
    two copies of one table never play on; once nothing holds it, it is loaded again from
    the store when asked for.  Finished tables older than ``expire_days`` are deleted from
    the store (:meth:`expire`, at the start and then every hour, or four times per
    ``expire_days`` if that is shorter; 0: never).  Each table
    let go of or deleted is told to :attr:`on_release` (its id), which cancels its bots' work.
    A bot decision may search for ``max_bot_seconds`` at most: a seat asking for more is refused.
    A round's end waits ``round_pause`` seconds at most for a table's people (:mod:`catrules.web.pauses`)."""

    def __init__(self, store: Store, game_files: list, expire_days: float = EXPIRE_DAYS,
                 keep: int = KEEP_TABLES, idle: float = IDLE_SECONDS, max_bot_seconds: float = MAX_BOT_SECONDS,
                 round_pause: float = ROUND_PAUSE):
        self.store = store
        self.round_pause = round_pause     # the most seconds a round's end waits for the people
        self.expire_days, self.keep, self.idle = expire_days, keep, idle
        self.max_bot_seconds = max_bot_seconds
        #: Called with a table's id when it leaves memory or the store (the bot pool's ``cancel``).
        self.on_release = None
        self.games: dict = {}
        for path in game_files:
            p = Path(path)
            text = p.read_text(encoding="utf-8")
            game = game_of(str(p), text)
            key = p.stem
            while key in self.games:
                key += "_"
            self.games[key] = {"path": str(p), "text": text, "game": game}
        #: The tables kept in memory, id -> table, the least recently asked for first.
        self.tables: dict = {}
        self._used: dict = {}                           # id -> when it was last asked for
        self._live = weakref.WeakValueDictionary()      # every table object still held anywhere
        self._lock = threading.Lock()
        self._expired = 0.0
        self.expire()

    def game_list(self) -> list:
        from ..bots.basic import BOT_KINDS
        out = []
        for key, g in self.games.items():
            game = g["game"]
            out.append({"id": key, "title": game.title, "min_players": game.min_players,
                        "max_players": min(game.max_players, MAX_PLAYERS), "options": game.options,
                        "option_values": game.option_values,
                        "seats": [HUMAN, *BOT_KINDS, self.searching_bot()]})
        return out

    def searching_bot(self) -> str:
        """The searching bot's spec the lobby offers: a second a decision, or the cap if less."""
        return f"ismcts:{min(1.0, self.max_bot_seconds):g}s"

    def check_bot(self, spec: str) -> None:
        """Make sure a bot seat can be played here: :class:`WebError` in words if not (an unknown
        kind, a program, a search budget over the server's cap)."""
        try:
            bot = make_seat(spec)
        except ValueError as exc:
            raise WebError(str(exc)) from None
        asked = getattr(bot, "seconds", None)
        cap = self.max_bot_seconds
        if asked is not None and asked > cap:
            raise WebError(f"seat {spec!r} asks for {asked:g} s a decision; this server lets a bot think "
                           f"{cap:g} s a decision at most: choose {self.searching_bot()} or a budget of at "
                           f"most {cap:g} s (an iteration budget is cut at {cap:g} s too)")

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
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise WebError(f"options are a list of names (or NAME=VALUE); {game.title}'s options: "
                           f"{', '.join(game.options) or 'none'}")
        if any(o.partition("=")[0].strip() not in game.options for o in options):
            raise WebError(f"unknown option; {game.title}'s options: {', '.join(game.options) or 'none'}")
        try:
            options = game.normal_options(options)
        except CatrulesError as exc:
            raise WebError(str(exc)) from None
        seats = spec.get("seats") or [HUMAN] * n
        if not isinstance(seats, list) or len(seats) != n or not all(isinstance(s, str) for s in seats):
            raise WebError(f"give one seat per player ({n}): human, or a bot (random, greedy, bot:fast...)")
        seats = [s.strip().lower() for s in seats]
        for s in seats:
            if s != HUMAN:
                self.check_bot(s)
        level = spec.get("race_level", DEFAULT_LEVEL)
        if not isinstance(level, str) or level not in LEVELS:
            raise WebError(f"the bots' race level is one of: {', '.join(LEVELS)}")
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
               "players": n, "options": options, "seed": seed, "seats": seats,
               "seed_chosen": chosen, "race_level": level}
        try:
            self.store.add_table(row, tokens)
        except StoreError as exc:
            raise WebError(str(exc)) from None
        try:
            table = WebTable(self.store, row, self.max_bot_seconds, self.round_pause)
        except (CatrulesError, StoreError) as exc:
            with contextlib.suppress(StoreError):
                self.store.delete_table(tid)
            if isinstance(exc, StoreError):
                raise WebError(str(exc)) from None
            raise WebError(f"the game could not start: {exc}") from None
        with self._lock:
            self._hold(tid, table)
        self.tidy()
        links = [{"seat": s, "name": f"player {s + 1}", "link": f"/play#{t}"} for t, s in tokens.items()
                 if s is not None]
        return {"table": tid, "game": game.title, "seats": seats, "links": sorted(links, key=lambda x: x["seat"]),
                "spectator": f"/play#{spectator}"}

    def table(self, table_id: str) -> WebTable:
        """The table of that id, from memory or loaded from the store; :class:`WebError` in words
        if there is none or its saved data cannot be read (the other tables are not affected)."""
        with self._lock:
            t = self._live.get(table_id)
            if t is None or t.unsaved:
                t = self._load(table_id)
            self._hold(table_id, t)
        self.tidy()
        return t

    def _load(self, table_id: str) -> WebTable:
        try:
            row = self.store.table(table_id)
            if row is None:
                raise WebError("no such table")
            return WebTable(self.store, row, self.max_bot_seconds, self.round_pause)
        except WebError:
            raise
        except StoreDamaged as exc:
            log.error("table %s cannot be opened: %s", table_id, exc)
            raise WebError(DAMAGED) from None
        except StoreError as exc:
            raise WebError(str(exc)) from None
        except Exception:       # a row SQLite reads but the game cannot: its text, its snapshot
            log.exception("table %s cannot be opened", table_id)
            raise WebError(DAMAGED) from None

    def held(self, table_id: str) -> Optional[WebTable]:
        """The table of that id if it is in memory (never loaded from the store), else ``None``."""
        with self._lock:
            return self._live.get(table_id)

    def touch(self, table_id: str) -> None:
        """Count the table as used now (its bots play on): it is not let go of as idle."""
        with self._lock:
            if table_id in self._used:
                self._used[table_id] = time.monotonic()

    def _hold(self, table_id: str, table: WebTable) -> None:
        """Keep ``table`` in memory, as the one most recently asked for."""
        self.tables.pop(table_id, None)
        self.tables[table_id] = self._live[table_id] = table
        self._used[table_id] = time.monotonic()

    def tidy(self, now: Optional[float] = None) -> None:
        """Let go of the finished tables, the idle ones and the oldest beyond :attr:`keep`; and
        delete old finished tables from the store if that was last done an hour ago or more."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for tid, t in list(self.tables.items()):
                if t.state.finished or now - self._used[tid] >= self.idle:
                    self._drop(tid)
            while len(self.tables) > self.keep:
                self._drop(next(iter(self.tables)))
        if now - self._expired >= min(EXPIRE_EVERY, max(1.0, self.expire_days * 86400 / 4)):
            self.expire()

    def _drop(self, table_id: str) -> None:
        self.tables.pop(table_id, None)
        self._used.pop(table_id, None)
        if self.on_release is not None:
            self.on_release(table_id)

    def expire(self) -> list:
        """Delete the finished tables last changed more than :attr:`expire_days` ago; their ids."""
        self._expired = time.monotonic()
        if not self.expire_days:
            return []
        try:
            gone = self.store.expire(self.expire_days * 86400)
        except StoreError as exc:
            log.warning("old tables could not be deleted: %s", exc)
            return []
        with self._lock:
            for tid in gone:
                self._drop(tid)
                self._live.pop(tid, None)
        return gone

    def by_token(self, token: str) -> tuple:
        """``(table, seat)`` of a link's token (seat ``None``: a spectator)."""
        try:
            found = self.store.seat_of(token)
        except StoreError as exc:
            raise WebError(str(exc)) from None
        if found is None:
            raise WebError("this link is not valid (no table has this token)")
        return self.table(found[0]), found[1]
