"""Game logs: one JSON object per line, written while a game runs, read back and replayed.

A log holds one or more games (a simulation appends every game to one
file).  Each game is a ``header`` line, one ``event`` line per event of the
engine, and a ``result`` line when the game is over.  Card ids are written
out as the full card (every attribute), so a log reads on its own without
the game file.  The schema is documented in ``docs/logs.rst``.

A log is written either in full (everything that happened, including
hidden cards and every choice) or for one player (``viewer``): then it
holds only what that player may see, filtered exactly as the player's seat
is shown the game (:func:`catrules.play.match.visible_event`).

:func:`catrules.play.replay.replay` plays a full log again and compares it
with what the game does (:mod:`catrules.play.replay`).

Typical use with a :class:`~catrules.play.match.Match`::

    with LogWriter("game.jsonl", game, players=4, options=[], seed=7, seats=seats) as log:
        match = Match(game, game.new_state(4, seed=7, log=True), seats)
        log.attach(match)
        match.run()
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Iterator, Optional

from .. import __version__
from ..runtime.saved_state import TIME_LIMIT
from .strict_json import BadJSON, read_json
from .validate import Int, Invalid, Items, Maybe, Num, Record, Text, check
from .views import visible_event
from ..lang.parser import LANGUAGE_VERSION

#: Line types, in the order they appear for one game.
LINE_TYPES = ("header", "event", "result")
#: Hex digits of the digest a result line keeps of its game's header and event lines.
DIGEST_CHARS = 32
#: The most players a logged game may have (the game's own limit is checked when it is replayed).
PLAYERS_LIMIT = 10_000

#: What each kind of line holds, field by field, where it is there (checked as it is read).
_SHAPES = {
    "header": Record({"game": Text(), "title": Maybe(Text()), "players": Int(1, PLAYERS_LIMIT),
                      "options": Items(Text()), "seed": Maybe(Int()), "seats": Items(Text()),
                      "viewer": Maybe(Int(0, PLAYERS_LIMIT - 1))}),
    "event": Record({"n": Int(1), "event": Text(100)}),
    "result": Record({"decisions": Int(0), "digest": Maybe(Text(64))}),
}
#: What a decision event holds besides: its answer is made again when the log is replayed.
_DECISION = Record({"player": Int(0, PLAYERS_LIMIT - 1), "option": Maybe(Text()), "time": Maybe(Num(0, TIME_LIMIT))})


class LogError(ValueError):
    """A file that is not a catrules log (or is damaged), with the line where it goes wrong."""

    def __init__(self, message: str, path: str = "", line: int = 0):
        self.path = str(path)
        self.line = line
        where = f"{path}:{line}: " if line else (f"{path}: " if path else "")
        super().__init__(where + message)


# ------------------------------------------------------------------ lines

def line_json(obj: dict) -> str:
    """A log line's JSON text (compact, not ASCII-escaped), as every line is written."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _card(game, c) -> dict:
    """A card as logs carry it: its attributes and face, not its long description."""
    d = game.card(c)
    if "text" in d:
        d = {k: v for k, v in d.items() if k != "text"}
    return d


def _card_list(game, ids) -> Optional[list]:
    if ids is None:
        return None
    return [None if c is None else _card(game, c) for c in ids]


def event_line(game, ev: dict, n: int) -> dict:
    """The log line of engine event ``ev`` (the ``n``-th event of its game, from 1).

    The engine's ``t`` becomes ``event``; card ids become card dicts; a move gets its
    ``count``; a decision always has ``time`` (``None`` outside races).
    """
    kind = ev["t"]
    out: dict = {"type": "event", "n": n, "event": kind}
    for k, v in ev.items():
        if k == "t":
            continue
        out[k] = _card_list(game, v) if k == "cards" else v
    if kind == "counter":           # card ids in full: the card a counter belongs to, a value of cards
        if ev.get("card") is not None:
            out["card"] = _card(game, ev["card"])
        if "zones" in ev and ev.get("value") is not None:
            v = ev["value"]
            out["value"] = _card_list(game, v) if isinstance(v, list) else _card(game, v)
    if "parts" in ev:               # a text said: its cards in full (a hidden one stays hidden)
        out["parts"] = [{"card": _card(game, x["card"])} if isinstance(x, dict) and x.get("card") is not None
                        else {"card": {"hidden": True}} if isinstance(x, dict) and "card" in x else x
                        for x in ev["parts"]]
    if kind == "move" and "count" not in out:
        out["count"] = len(ev["cards"]) if ev.get("cards") is not None else 0
    if kind == "decision" and "time" not in out:
        out["time"] = None
    return out


def result_line(state) -> dict:
    """The ``result`` line of a finished game."""
    scores = state.scores()
    return {"type": "result", "scores": scores, "winners": state.winners(scores), "decisions": state.decisions}


def _seat_name(s) -> str:
    return s if isinstance(s, str) else str(getattr(s, "name", type(s).__name__))


# ----------------------------------------------------------------- writer

class LogWriter:
    """Writes one game as JSON lines: a header, every event, the result.

    ``path_or_file`` is a path (the file is created, or appended to with
    ``append=True``) or an open text file (left open; several writers can share
    one file, one game after another).  ``seats`` are seat names or seats.
    ``viewer=p`` writes only what player ``p`` (from 0) may see; ``None`` writes
    everything.  ``withhold_seed=True`` writes the header's ``seed`` as ``null``: for a log
    handed out while its game still runs (the seed decides every hidden card).

    :meth:`attach` connects the writer to a :class:`~catrules.play.match.Match`:
    every event the match produces is written, and the result when the game
    ends.  Without a match, call :meth:`attach` with the state and feed the
    events to :meth:`event` yourself.  :meth:`close` (or leaving a ``with``
    block) writes the result if the game is over and it is not written yet.
    """

    def __init__(self, path_or_file: str | Path | IO[str], game, players: int, options=(), seed=None,
                 seats=(), viewer: Optional[int] = None, *, append: bool = False, withhold_seed: bool = False):
        if viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < players):
            raise ValueError(f"viewer must be a player from 0 to {players - 1}, or None; not {viewer!r}")
        if isinstance(path_or_file, (str, Path)):
            self._file = open(path_or_file, "a" if append else "w", encoding="utf-8")
            self._own = True
        else:
            self._file = path_or_file
            self._own = False
        self.game = game
        self.players = players
        self.options = sorted(set(options))
        self.seed = seed
        self.seats = [_seat_name(s) for s in seats]
        self.viewer = viewer
        self.withhold_seed = withhold_seed
        self.state = None
        self.n = 0                     # events seen so far (written or not)
        self.lines = 0                 # lines written by this writer
        self._header_done = False
        self._result_done = False
        self._digest = hashlib.sha256()     # of this game's header and event lines, kept in its result
        self._closed = False

    # -------------------------------------------------------------- setup
    def header(self) -> dict:
        """The header line of this game."""
        return {"type": "header", "catrules": __version__, "language": LANGUAGE_VERSION,
                "game": str(self.game.path), "title": self.game.title, "players": self.players,
                "options": list(self.options), "seed": None if self.withhold_seed else self.seed,
                "seats": list(self.seats),
                "viewer": self.viewer}

    def attach(self, match_or_state) -> "LogWriter":
        """Follow a match (its events are written as they happen) or just know a state."""
        match = match_or_state if hasattr(match_or_state, "state") and hasattr(match_or_state, "seats") else None
        state = match.state if match is not None else match_or_state
        if state.n != self.players:
            raise ValueError(f"the log is for {self.players} players, the game has {state.n}")
        if self.seed is None:
            self.seed = state.seed
        elif self.seed != state.seed:
            raise ValueError(f"the log is for seed {self.seed}, the game was started with seed {state.seed}")
        self.state = state
        if match is not None:
            if state.log is None:
                raise ValueError("start the game with log=True (game.new_state(..., log=True)) so that "
                                 "the log sees what happens before the first decision")
            if not self.seats:
                self.seats = [_seat_name(s) for s in match.seats]
            previous = match.on_event
            if previous is None:
                match.on_event = self.event
            else:
                def both(ev, _prev=previous, _mine=self.event):
                    _prev(ev)
                    _mine(ev)
                match.on_event = both
        self._write_header()
        return self

    def _write(self, obj: dict) -> None:
        if self._closed:
            raise ValueError("this log writer is closed")
        text = line_json(obj) + "\n"
        if obj["type"] == "result":
            obj = {**obj, "digest": self._digest.hexdigest()[:DIGEST_CHARS]}
            text = line_json(obj) + "\n"
        else:
            self._digest.update(text.encode("utf-8"))
        self._file.write(text)
        self.lines += 1

    def _write_header(self) -> None:
        if not self._header_done:
            self._header_done = True
            self._write(self.header())

    # ------------------------------------------------------------ writing
    def event(self, ev: dict) -> None:
        """Write one engine event (filtered for the viewer); the result follows the game's end."""
        self._write_header()
        self.n += 1
        if self.viewer is not None:
            if self.state is None:
                raise ValueError("a log for one viewer needs the game state: call attach() first")
            ev = visible_event(self.state, ev, self.viewer)
            if ev is None:
                return
        self._write(event_line(self.game, ev, self.n))
        if ev["t"] == "end" and self.state is not None and self.state.finished:
            self.write_result()

    def write_as_shown(self, ev: dict, n: int) -> None:
        """Write event number ``n`` as it is, filtered already when it happened (as a seat was
        shown it), not filtered again with the state as it is now; after the header."""
        self._write_header()
        self._write(event_line(self.game, ev, n))

    def write_result(self, state=None) -> None:
        """Write the result line now (once; the game must be over)."""
        state = state if state is not None else self.state
        if self._result_done:
            return
        if state is None or not state.finished:
            raise ValueError("the game is not over: there is no result to write yet")
        self._write_header()
        self._result_done = True
        self._write(result_line(state))

    def close(self) -> None:
        """Write what is missing (header; result if the game is over) and close an own file."""
        if self._closed:
            return
        self._write_header()
        if not self._result_done and self.state is not None and self.state.finished:
            self.write_result()
        self._file.flush()
        if self._own:
            self._file.close()
        self._closed = True

    def __enter__(self) -> "LogWriter":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


# ----------------------------------------------------------------- reading

@dataclass
class LoggedGame:
    """One game of a log: its header, its event lines and its result, with line numbers (from 1)."""
    header: dict
    header_line: int
    events: list = field(default_factory=list)      # [(line number, event dict)]
    result: Optional[dict] = None
    result_line: Optional[int] = None
    last_line: int = 0
    digest: str = ""            # of the header and event lines as read, to compare with the result's

    @property
    def viewer(self) -> Optional[int]:
        return self.header.get("viewer")


def iter_games(path: str | Path) -> Iterator[LoggedGame]:
    """The games of a log file, one at a time (raises :class:`LogError` for a damaged file)."""
    current: Optional[LoggedGame] = None
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for lineno, raw in enumerate(f, 1):
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise LogError("not UTF-8 text", path, lineno) from None
            if not text.strip():
                continue
            try:
                obj = read_json(text)
            except BadJSON as exc:               # NaN, Infinity, a number of thousands of digits...
                what = f"not a JSON line ({exc.why})" if exc.syntax else f"not a log line ({exc.why[:80]})"
                raise LogError(what, path, lineno) from None
            kind = obj.get("type") if isinstance(obj, dict) else None
            _check_line(obj, kind, path, lineno)
            # what a line says counts, not how it is spaced: the digest is of the line as written
            line_bytes = (line_json(obj) + "\n").encode("utf-8")
            if kind == "header":
                if current is not None:
                    yield current
                current = LoggedGame(obj, lineno, last_line=lineno)
                digest = hashlib.sha256(line_bytes)
                continue
            if kind not in LINE_TYPES:
                raise LogError(f"unknown line type {kind!r} (expected one of: {', '.join(LINE_TYPES)})",
                               path, lineno)
            if current is None:
                raise LogError(f"a {kind} line before any header: not a catrules log", path, lineno)
            if current.result is not None:
                raise LogError(f"a {kind} line after the game's result (a new game starts with a header)",
                               path, lineno)
            if kind == "event":
                current.events.append((lineno, obj))
                digest.update(line_bytes)
            else:
                current.result, current.result_line = obj, lineno
                current.digest = digest.hexdigest()[:DIGEST_CHARS]
            current.last_line = lineno
    if current is not None:
        yield current


def _check_line(obj, kind, path, lineno: int) -> None:
    """Raise :class:`LogError` for a header, event or result line with a field that does not fit."""
    try:
        if type(kind) is not str or kind not in _SHAPES:
            return                      # not a log line at all: said by the reader
        check(obj, _SHAPES[kind])
        if kind == "event" and obj.get("event") == "decision":
            check(obj, _DECISION)
        if kind == "header" and type(obj.get("viewer")) is int and type(obj.get("players")) is int \
                and obj["viewer"] >= obj["players"]:
            raise Invalid("viewer", f"should be a player from 0 to {obj['players'] - 1}, not a number outside "
                                    "that range")
    except Invalid as exc:
        raise LogError(f"this {kind} line is damaged: its field {exc}", path, lineno) from None


def read_log(path: str | Path) -> list:
    """Every game of a log file, as :class:`LoggedGame` objects."""
    games = list(iter_games(path))
    if not games:
        raise LogError("no game in this file (no header line)", path)
    return games
