"""Replaying a log: play a full log's games again and compare them with the log.

:func:`replay` plays a full log again from its header (game file, players,
options, seed) and the decisions it records, and compares every event and
the result with the logged ones; the first difference is reported with its
line number.  A player's log cannot be replayed: it lacks what the player
did not see.  Logs are written and read by :mod:`catrules.play.logs`::

    print(replay("game.jsonl").format())
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Optional

from .. import __version__
from ..errors import CatrulesError, IllegalChoice
from ..lang.parser import LANGUAGE_VERSION
from .game_paths import GamePathRefused, load_named_game, named_game_path
from .logs import LogError, LoggedGame, event_line, iter_games, line_json, result_line
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
    s = _printable(obj if isinstance(obj, str) else line_json(obj))
    return s if len(s) <= limit else s[:limit - 3] + "..."


def _printable(s: str) -> str:
    """Control characters of a (perhaps tampered) log written out, never sent to the terminal."""
    return re.sub(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]", lambda m: f"\\x{ord(m.group()):02x}", s)


def _roundtrip(obj: dict) -> dict:
    return json.loads(line_json(obj))


class _Differs(Exception):
    def __init__(self, line, message, expected=None, got=None):
        super().__init__(message)
        self.line, self.message, self.expected, self.got = line, message, expected, got


def replay(path: str | Path, game: str | Path | None = None) -> ReplayReport:
    """Play every game of a full log again and compare it, event by event, with the log.

    The game file is the one each header names, read only where a log may name one
    (:mod:`catrules.play.game_paths`), unless ``game`` names it: then that file is played."""
    path = Path(path)
    report = ReplayReport(str(path))
    loaded: dict = {}
    for index, lg in enumerate(iter_games(path), 1):
        gr = GameReplay(index, lg.header_line, complete=lg.result is not None)
        report.games.append(gr)
        try:
            _replay_game(lg, gr, path, loaded, game)
        except _Differs as d:
            gr.ok = False
            gr.line, gr.message, gr.expected, gr.got = d.line, d.message, d.expected, d.got
    if not report.games:
        raise LogError("no game in this file (no header line)", path)
    return report


def _replay_game(lg: LoggedGame, gr: GameReplay, log: Path, loaded: dict, named) -> None:
    """Play one logged game again and compare it (raises :class:`_Differs` at the first difference)."""
    _check_header(lg.header, lg.header_line, gr, named is None)
    game, gp = _logged_game(lg.header, lg.header_line, log, loaded, named)
    st = _start(game, gp, lg.header, lg.header_line, named is not None)
    replayer = _Replayer(game, st, gr)
    replayer.events(lg.events)
    replayer.end(lg)


def _check_header(h: dict, hl: int, gr: GameReplay, its_game: bool = True) -> None:
    """A header a game can be played from again (``its_game``: with the game file it names); a
    note when another version wrote it."""
    if h.get("viewer") is not None:
        v = h["viewer"]
        raise _Differs(hl, f"this log was written for player {v + 1}'s view only (index {v}): it leaves out "
                           "hidden cards and other players' choices, so it cannot be replayed; "
                           "replay a full log (written without a viewer)")
    for key in ("game", "players", "seed"):
        if key not in h:
            raise _Differs(hl, f"the header has no {key!r}: cannot replay")
    if its_game and (not isinstance(h["game"], str) or not h["game"].endswith(".cat")):
        raise _Differs(hl, f"the header names {_short(h['game'], 80)} as the game file, which is not a .cat "
                           "game file: cannot replay")
    if type(h["players"]) is not int or type(h["seed"]) is not int:
        raise _Differs(hl, "the header's players and seed must be whole numbers: cannot replay")
    opts = h.get("options", [])
    if not isinstance(opts, list) or not all(isinstance(o, str) for o in opts):
        raise _Differs(hl, "the header's options must be a list of texts (names, or NAME=VALUE): cannot replay")
    if h.get("language") != LANGUAGE_VERSION:
        gr.notes.append(f"the log was written for language version {_short(str(h.get('language')), 40)}, "
                        f"this is {LANGUAGE_VERSION}")
    if h.get("catrules") != __version__:
        gr.notes.append(f"the log was written by catrules {_short(str(h.get('catrules')), 40)}, "
                        f"this is {__version__}")


def _logged_game(h: dict, hl: int, log: Path, loaded: dict, named):
    """(the game, its file): ``named`` (a file the person names), else the one the header names if a
    log may name it (:mod:`catrules.play.game_paths`); loaded once per replay."""
    from ..api import load_game
    what = f"the log {log}"
    if named is not None:
        gp = Path(named)
    else:
        try:
            gp = named_game_path(h["game"], log.parent, what)
        except GamePathRefused as exc:
            raise _Differs(hl, f"{exc}, so it is not read; name the game file yourself: catrules replay {log} "
                               "--game GAME.cat") from None
        except FileNotFoundError:
            raise _Differs(hl, f"game file {_short(h['game'], 120)} not found (looked in the current directory "
                               f"and in {log.parent}); name it: catrules replay {log} --game GAME.cat") from None
    key = str(gp.resolve())
    if key not in loaded:
        try:
            loaded[key] = load_game(gp) if named is not None else load_named_game(gp, what)
        except CatrulesError as exc:
            raise _Differs(hl, f"the game file {gp} does not load: {exc}") from None
        except ValueError as exc:          # a file the log names: where its problem is, never its text
            raise _Differs(hl, str(exc)) from None
    return loaded[key], gp


def _start(game, gp: Path, h: dict, hl: int, named: bool = False):
    """The game of the header's title started with its players, seed and options (``named``: the
    person named the game file, so its title may be shown)."""
    if h.get("title") != game.title:
        is_ = f"is {game.title!r}" if named else "has another title"
        raise _Differs(hl, f"the log names the game {_short(h.get('title'), 80)}, but the game file {gp} {is_}"
                           ": another game, or the header was edited", h, None)
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
