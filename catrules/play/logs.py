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

:func:`replay` plays a full log again from its header (game file, players,
options, seed) and the decisions it records, and compares every event and
the result with the logged ones; the first difference is reported with its
line number.  A player's log cannot be replayed: it lacks what the player
did not see.

Typical use with a :class:`~catrules.play.match.Match`::

    with LogWriter("game.jsonl", game, players=4, options=[], seed=7, seats=seats) as log:
        match = Match(game, game.new_state(4, seed=7, log=True), seats)
        log.attach(match)
        match.run()
    print(replay("game.jsonl").format())
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Iterator, Optional

from .. import __version__
from ..errors import CatrulesError, IllegalChoice
from .strict_json import BadJSON, read_json
from .views import visible_event
from ..lang.parser import LANGUAGE_VERSION

#: Line types, in the order they appear for one game.
LINE_TYPES = ("header", "event", "result")
#: Hex digits of the digest a result line keeps of its game's header and event lines.
DIGEST_CHARS = 32


class LogError(ValueError):
    """A file that is not a catrules log (or is damaged), with the line where it goes wrong."""

    def __init__(self, message: str, path: str = "", line: int = 0):
        self.path = str(path)
        self.line = line
        where = f"{path}:{line}: " if line else (f"{path}: " if path else "")
        super().__init__(where + message)


# ------------------------------------------------------------------ lines

def _dumps(obj: dict) -> str:
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
    everything.

    :meth:`attach` connects the writer to a :class:`~catrules.play.match.Match`:
    every event the match produces is written, and the result when the game
    ends.  Without a match, call :meth:`attach` with the state and feed the
    events to :meth:`event` yourself.  :meth:`close` (or leaving a ``with``
    block) writes the result if the game is over and it is not written yet.
    """

    def __init__(self, path_or_file: str | Path | IO[str], game, players: int, options=(), seed=None,
                 seats=(), viewer: Optional[int] = None, *, append: bool = False):
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
                "options": list(self.options), "seed": self.seed, "seats": list(self.seats),
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
        text = _dumps(obj) + "\n"
        if obj["type"] == "result":
            obj = {**obj, "digest": self._digest.hexdigest()[:DIGEST_CHARS]}
            text = _dumps(obj) + "\n"
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
            # what a line says counts, not how it is spaced: the digest is of the line as written
            line_bytes = (_dumps(obj) + "\n").encode("utf-8")
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


def read_log(path: str | Path) -> list:
    """Every game of a log file, as :class:`LoggedGame` objects."""
    games = list(iter_games(path))
    if not games:
        raise LogError("no game in this file (no header line)", path)
    return games


# ------------------------------------------------------------------ replay

#: Said of a game whose log has no result line.
INCOMPLETE = ("the log has no result line for this game: it was cut off, or the game was stopped before "
              "its end, so the log cannot vouch for a whole game")


@dataclass
class GameReplay:
    """The outcome of replaying one game of a log."""
    index: int                       # 1 for the first game of the file
    header_line: int
    ok: bool = True
    line: Optional[int] = None       # line of the log where the first difference is
    expected: Any = None             # what the log says there
    got: Any = None                  # what the replay gave
    message: str = ""
    events: int = 0                  # events compared
    finished: bool = False           # the replayed game reached its end
    complete: bool = True            # the log has the game's result line (a cut-off log has not)
    notes: list = field(default_factory=list)

    def format(self) -> str:
        head = f"game {self.index} (line {self.header_line})"
        if self.ok:
            text = f"{head}: ok, {self.events} events" + (" and the result match" if self.finished
                                                             else " match (the game was not finished)")
            if not self.complete:
                text += f"\n  {INCOMPLETE}"
        else:
            text = f"{head}: line {self.line}: {_printable(self.message)}"
            if self.expected is not None:
                text += f"\n  expected: {_short(self.expected)}"
            if self.got is not None:
                text += f"\n  got:      {_short(self.got)}"
        for n in self.notes:
            text += f"\n  note: {n}"
        return text


@dataclass
class ReplayReport:
    """The outcome of :func:`replay`: ``ok``, or the first difference of the first game that differs."""
    path: str
    games: list = field(default_factory=list)    # [GameReplay]

    @property
    def ok(self) -> bool:
        return bool(self.games) and all(g.ok for g in self.games)

    @property
    def complete(self) -> bool:
        """Every game of the log ends in its result line: nothing is cut off."""
        return all(g.complete for g in self.games)

    @property
    def first_failure(self) -> Optional[GameReplay]:
        return next((g for g in self.games if not g.ok), None)

    @property
    def line(self) -> Optional[int]:
        f = self.first_failure
        return f.line if f else None

    @property
    def expected(self):
        f = self.first_failure
        return f.expected if f else None

    @property
    def got(self):
        f = self.first_failure
        return f.got if f else None

    @property
    def message(self) -> str:
        f = self.first_failure
        if f:
            return f"line {f.line}: {f.message}"
        return f"ok: {len(self.games)} game{'s' if len(self.games) != 1 else ''} replayed exactly"

    def format(self) -> str:
        lines = [f"{self.path}: {'ok' if self.ok else 'DIFFERS'} "
                 f"({sum(g.ok for g in self.games)} of {len(self.games)} games replay exactly)"]
        lines += [g.format() for g in self.games]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _short(obj, limit: int = 300) -> str:
    s = _printable(obj if isinstance(obj, str) else _dumps(obj))
    return s if len(s) <= limit else s[:limit - 3] + "..."


def _printable(s: str) -> str:
    """Control characters of a (perhaps tampered) log written out, never sent to the terminal."""
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", s)


def _roundtrip(obj: dict) -> dict:
    return json.loads(_dumps(obj))


class _Differs(Exception):
    def __init__(self, line, message, expected=None, got=None):
        super().__init__(message)
        self.line, self.message, self.expected, self.got = line, message, expected, got


def _find_game_file(name: str, log_dir: Path) -> Path:
    p = Path(name)
    if p.is_file():
        return p
    if not p.is_absolute() and (log_dir / p).is_file():
        return log_dir / p
    raise FileNotFoundError(name)


def replay(path: str | Path) -> ReplayReport:
    """Play every game of a full log again and compare it, event by event, with the log."""
    from ..api import load_game
    path = Path(path)
    report = ReplayReport(str(path))
    loaded: dict = {}
    for index, lg in enumerate(iter_games(path), 1):
        gr = GameReplay(index, lg.header_line, complete=lg.result is not None)
        report.games.append(gr)
        try:
            _replay_game(lg, gr, path.parent, loaded, load_game)
        except _Differs as d:
            gr.ok = False
            gr.line, gr.message, gr.expected, gr.got = d.line, d.message, d.expected, d.got
    if not report.games:
        raise LogError("no game in this file (no header line)", path)
    return report


def _replay_game(lg: LoggedGame, gr: GameReplay, log_dir: Path, loaded: dict, load_game) -> None:
    """Play one logged game again and compare it (raises :class:`_Differs` at the first difference)."""
    _check_header(lg.header, lg.header_line, gr)
    game, gp = _logged_game(lg.header, lg.header_line, log_dir, loaded, load_game)
    st = _start(game, gp, lg.header, lg.header_line)
    replayer = _Replayer(game, st, gr)
    replayer.events(lg.events)
    replayer.end(lg)


def _check_header(h: dict, hl: int, gr: GameReplay) -> None:
    """A header a game can be played from again; a note when another version wrote it."""
    if h.get("viewer") is not None:
        v = h["viewer"]
        raise _Differs(hl, f"this log was written for player {v + 1}'s view only (index {v}): it leaves out "
                           "hidden cards and other players' choices, so it cannot be replayed; "
                           "replay a full log (written without a viewer)")
    for key in ("game", "players", "seed"):
        if key not in h:
            raise _Differs(hl, f"the header has no {key!r}: cannot replay")
    if not isinstance(h["game"], str) or not h["game"].endswith(".cat"):
        raise _Differs(hl, f"the header names {_short(h['game'], 80)} as the game file, which is not a .cat "
                           "game file: cannot replay")
    if type(h["players"]) is not int or type(h["seed"]) is not int:
        raise _Differs(hl, "the header's players and seed must be whole numbers: cannot replay")
    opts = h.get("options", [])
    if not isinstance(opts, list) or not all(isinstance(o, str) for o in opts):
        raise _Differs(hl, "the header's options must be a list of names: cannot replay")
    if h.get("language") != LANGUAGE_VERSION:
        gr.notes.append(f"the log was written for language version {_printable(str(h.get('language')))}, "
                        f"this is {LANGUAGE_VERSION}")
    if h.get("catrules") != __version__:
        gr.notes.append(f"the log was written by catrules {_printable(str(h.get('catrules')))}, "
                        f"this is {__version__}")


def _logged_game(h: dict, hl: int, log_dir: Path, loaded: dict, load_game):
    """(the game the header names, its file): found beside the log or here, loaded once per replay."""
    try:
        gp = _find_game_file(str(h["game"]), log_dir)
    except FileNotFoundError:
        raise _Differs(hl, f"game file {h['game']!r} not found (looked in the current directory and in "
                           f"{log_dir})") from None
    key = str(gp.resolve())
    if key not in loaded:
        try:
            loaded[key] = load_game(gp)
        except CatrulesError as exc:
            raise _Differs(hl, f"the game file {gp} does not load: {exc}") from None
    return loaded[key], gp


def _start(game, gp: Path, h: dict, hl: int):
    """The game of the header's title started with its players, seed and options."""
    if h.get("title") != game.title:
        raise _Differs(hl, f"the log names the game {_short(h.get('title'), 80)}, but the game file {gp} is "
                           f"{game.title!r}: another game, or the header was edited", h, None)
    try:
        # every answer, forced ones too, comes from the log: the replay asks for each
        return game.new_state(h["players"], h["seed"], h.get("options", []), log=True, ask_forced=True)
    except CatrulesError as exc:
        raise _Differs(hl, f"the game does not start: {exc}") from None


class _Replayer:
    """A game played again along its log: each logged decision made, each event compared."""

    def __init__(self, game, st, gr: GameReplay):
        self.game, self.st, self.gr = game, st, gr
        self.log = st.log
        self.k = 0                    # the replayed events compared so far
        self.last_decision = None     # the line of the last decision compared

    def after(self) -> str:
        return (f" (the game went another way after the decision on line {self.last_decision})"
                if self.last_decision else "")

    def events(self, events) -> None:
        """Every logged event line: a decision made when the game waits, each line compared."""
        st, log = self.st, self.log
        deferred: list = []          # answers to a secret choice: logged at its reveal, in seat order
        for lineno, line in events:
            if self.k >= len(log):
                if st.finished:
                    raise _Differs(lineno, "the replayed game is over, but the log goes on", line, None)
                self.decide(lineno, line)
                if self.k >= len(log):
                    deferred.append((lineno, line))
                    continue
            for ln, ln_line in deferred + [(lineno, line)]:
                self.compare(ln, ln_line)
            deferred = []

    def decide(self, lineno: int, line: dict) -> None:
        """Make the decision of this line in the replayed game, which waits for one."""
        st = self.st
        if line.get("event") != "decision":
            waiting = st.waiting_for()
            raise _Differs(lineno, "the replayed game waits here for a decision of "
                                   + ", ".join(f"player {p + 1}" for p in waiting) + self.after(), line,
                           {"waiting_for": waiting})
        player, option, time = line.get("player"), line.get("option"), line.get("time")
        if (type(player) is not int or not isinstance(option, str) or
                (time is not None and type(time) not in (int, float))):
            raise _Differs(lineno, "this decision line is damaged (a player number, an option id and "
                                   "perhaps a time are expected)", line, None)
        try:
            st.apply(player, option, time)
        except IllegalChoice as exc:
            raise _Differs(lineno, f"this decision cannot be made in the replayed game: {exc}" + self.after(),
                           line, {"pending": [d.to_dict() for d in st.pending()]}) from None
        except CatrulesError as exc:
            raise _Differs(lineno, f"the replayed game fails after this decision: {exc}", line, None) from None

    def compare(self, ln: int, ln_line: dict) -> None:
        """The next replayed event must be this logged line."""
        k, log = self.k, self.log
        if k >= len(log):
            raise _Differs(ln, "the replayed game has no event here" + self.after(), ln_line, None)
        got = _roundtrip(event_line(self.game, log[k], k + 1))
        if got != ln_line:
            raise _Differs(ln, "the replayed event differs from the logged one" + self.after(), ln_line, got)
        if ln_line.get("event") == "decision":
            self.last_decision = ln
        self.k = k + 1
        self.gr.events = self.k

    def end(self, lg: LoggedGame) -> None:
        """No replayed event left over; the logged result (and its digest) the replayed one."""
        st, k, log, after = self.st, self.k, self.log, self.after
        end_line = (lg.result_line or lg.last_line + 1)
        if k < len(log):
            got = _roundtrip(event_line(self.game, log[k], k + 1))
            raise _Differs(end_line, "the replayed game has more events than the log" + after(), None, got)
        self.gr.finished = st.finished
        if lg.result is not None:
            if not st.finished:
                raise _Differs(lg.result_line, "the log has a result, but the replayed game is not over (it "
                               "waits for " + ", ".join(f"player {p + 1}" for p in st.waiting_for()) + ")"
                               + after(), lg.result, None)
            got = _roundtrip(result_line(st))
            logged = {k: v for k, v in lg.result.items() if k != "digest"}
            if got != logged:
                raise _Differs(lg.result_line, "the replayed result differs from the logged one" + after(),
                               lg.result, got)
            if lg.result.get("digest") != lg.digest:
                what = "has no digest" if "digest" not in lg.result else "has a digest that does not match the lines"
                raise _Differs(lg.result_line, f"the result line {what} of this game's header and events: the "
                               "log was changed after it was written (its header, most likely: seats, title, "
                               "options or versions), or written by a catrules without digests", lg.result, None)
        elif st.finished:
            raise _Differs(end_line, "the log has no result line, but the replayed game is over", None,
                           _roundtrip(result_line(st)))
