"""A seat played by another program, over JSON lines on its standard input and output.

The seat spec ``cmd:python mybot.py`` (or ``cmd:2.5:python mybot.py``, with the seconds the
program has for each answer) starts the program once per game, without a shell, in the
current directory, its standard error passing through.  The program reads one JSON object
per line: ``hello`` (who it plays), ``show`` (its player's view and the events that player
may see), ``decide`` (a decision: the view, the prompt, the options and the default) and
``finish`` (the scores and the winners), and answers each ``decide`` with one line, an option
id or ``{"option": ID, "reaction_time": SECONDS}``.  The whole protocol is in
``docs/protocol.rst``.

The program sees exactly what its player may see: the views and the filtered events that
the :class:`~catrules.play.match.Match` hands the seat, never the state or the seed.  It cannot
stop the game: a bad answer is explained (an ``error`` message) and asked again, and after
:data:`TRIES` tries the decision's default is taken, with a warning; a program that does not
answer in time, ends, or cannot be started is given up on with one warning, and the seat
takes the default of every later decision.  The seat draws nothing at random, so the same
seed and the same answers give the same game.

Reading and writing go through a thread each: a program that stops reading its input cannot
block the game (the pipe would fill), and an answer is awaited with a timeout, the same way
on every platform.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import shlex
import shutil
import subprocess
import sys
import threading
import weakref
from collections.abc import Mapping
from typing import Callable, Optional

from .seats import Choice, Seat
from .strict_json import BadJSON, read_json

#: The protocol's version, sent in ``hello``.
PROTOCOL = 1
#: Seconds a program has for each answer, unless the spec says (``cmd:SECONDS:COMMAND``).
DEFAULT_TIMEOUT = 10.0
#: The timeouts a spec may give, in seconds.
TIMEOUT_RANGE = (0.05, 3600.0)
#: Answers a program may give to one decision before its default is taken.
TRIES = 3
#: The longest answer line read, in bytes (an answer is a few dozen).
MAX_LINE = 1 << 16
#: Seconds a program has to exit once the game is over and its input is closed.
EXIT_GRACE = 2.0
#: No race time is faster than this (as for bots: faster than people react).
FASTEST = 0.1

SPEC_HELP = ("a program seat is cmd:COMMAND or cmd:SECONDS:COMMAND (the seconds it has for each "
             "answer, default 10), e.g. cmd:python mybot.py or cmd:2.5:python mybot.py; "
             "see docs/protocol.rst")
_NEW_SESSION = ({"start_new_session": True} if os.name == "posix"
                else {"creationflags": getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)})
_TIMEOUT = re.compile(r"(\d+(?:\.\d*)?)s?:(.*)\Z", re.S)


def is_program_spec(spec) -> bool:
    """True for a seat spec that names a program (``cmd:...``, in any case)."""
    return isinstance(spec, str) and spec.strip()[:4].lower() == "cmd:"


def parse_spec(spec: str) -> tuple:
    """``(argv, timeout)`` of a ``cmd:`` seat spec; raises :class:`ValueError` saying how to fix it.

    The command keeps its case and is split into words as a POSIX shell would (quotes keep a
    word with spaces or commas together) but is not run by a shell."""
    rest = spec.strip()[4:]
    timeout = DEFAULT_TIMEOUT
    m = _TIMEOUT.match(rest)
    if m:
        timeout, rest = float(m.group(1)), m.group(2)
        low, high = TIMEOUT_RANGE
        if not low <= timeout <= high:
            raise ValueError(f"seat spec {spec!r}: a timeout of {timeout:g} s is out of range "
                             f"({low:g} to {high:g} s); {SPEC_HELP}")
    try:
        argv = shlex.split(rest)
    except ValueError as exc:
        raise ValueError(f"seat spec {spec!r}: the command cannot be split into words ({exc}): "
                         f"close its quotes; {SPEC_HELP}") from None
    if not argv:
        raise ValueError(f"seat spec {spec!r}: no command after the colon; {SPEC_HELP}")
    exe = argv[0]
    if os.path.dirname(exe):            # a path, from the current directory
        if not os.path.isfile(exe):
            raise ValueError(f"seat spec {spec!r}: no program file {exe!r}; check the path "
                             f"(it is relative to the current directory)")
        if not os.access(exe, os.X_OK):
            raise ValueError(f"seat spec {spec!r}: {exe!r} is not executable; run it with its "
                             f"interpreter (cmd:python {exe}) or make it executable")
    elif shutil.which(exe) is None:
        raise ValueError(f"seat spec {spec!r}: no program {exe!r} on the PATH; give its path, "
                         f"or the interpreter that runs it (cmd:python mybot.py)")
    return argv, timeout


def program_seat(spec: str) -> "ProgramSeat":
    """The seat of a ``cmd:`` spec (:func:`catrules.bots.basic.make_seat` calls it); starts nothing yet."""
    argv, timeout = parse_spec(spec)
    return ProgramSeat(argv, timeout, name=spec.strip())


def print_warning(message: str) -> None:
    """Warnings go to standard error, as the command line's errors do."""
    print(f"catrules: warning: {message}", file=sys.stderr, flush=True)


def _plain(value):
    """What ``json`` cannot write itself, as plain data (views are dicts, lists and numbers)."""
    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return str(value)


def encode(message: dict) -> bytes:
    """One protocol line."""
    return (json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=_plain) + "\n").encode("utf-8")


class ProgramSeat(Seat):
    """A seat whose decisions another program makes (see the module's docstring).

    ``argv`` is the command; ``timeout`` the seconds it has for each answer; ``stderr`` where
    its standard error goes (``None``: to ours; a file object or ``subprocess.DEVNULL``);
    ``warn`` is called with each warning (default: :func:`print_warning`)."""

    wants_events = True

    def __init__(self, argv: list, timeout: float = DEFAULT_TIMEOUT, *, name: Optional[str] = None,
                 tries: int = TRIES, stderr=None, warn: Optional[Callable[[str], None]] = None):
        self.argv = list(argv)
        self.timeout = float(timeout)
        self.tries = max(1, int(tries))
        self.name = name or "cmd:" + shlex.join(self.argv)
        self.stderr = stderr
        self.warn = warn or print_warning
        self.proc: Optional[subprocess.Popen] = None
        #: Why the program was given up on (``None`` while it plays).
        self.gone: Optional[str] = None
        self._said_hello = False
        self._noted_extra = False
        self._lines: queue.Queue = queue.Queue()        # lines read; None at the end of its output
        self._out: queue.Queue = queue.Queue()          # lines to write; None closes its input
        self._end: Optional[weakref.finalize] = None

    # ------------------------------------------------------------- the process
    def start(self, table, player: int) -> None:
        super().start(table, player)
        try:
            # a session of its own: Ctrl-C at the terminal stops catrules (which saves the game
            # and ends the program), not the program in the middle of an answer
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.stderr, **_NEW_SESSION)
        except OSError as exc:
            self._give_up(f"could not be started ({exc.strerror or exc})")
            return
        # kills the program even if the game never finishes (an error, a stopped simulation)
        self._end = weakref.finalize(self, _end_program, self.proc, self._out, 0.0)
        threading.Thread(target=_read_lines, args=(self.proc.stdout, self._lines),
                         name=f"catrules-seat{player + 1}-read", daemon=True).start()
        threading.Thread(target=_write_lines, args=(self.proc.stdin, self._out),
                         name=f"catrules-seat{player + 1}-write", daemon=True).start()

    def close(self, grace: float = 0.0) -> None:
        """End the program: close its input, give it ``grace`` seconds to exit, then kill it."""
        if self._end is not None and self._end.alive:
            self._end.detach()
            _end_program(self.proc, self._out, grace)

    def _give_up(self, why: str) -> None:
        if self.gone is None:
            self.gone = why
            self.warn(f"player {self.player + 1} ({self.name}) {why}: it is stopped, and every "
                      "later decision of this seat takes the default option")
        self.close()

    def _send(self, message: dict, view=None) -> None:
        if self.gone is not None:
            return
        if not self._said_hello:
            self._said_hello = True
            v = view if view is not None else {}
            self._out.put(encode({"type": "hello", "protocol": PROTOCOL, "game": v.get("game"),
                                  "player": self.player, "players": v.get("players"),
                                  "options": list(v.get("options", [])), "timeout": self.timeout,
                                  "tries": self.tries}))
        self._out.put(encode(message))

    def _next_line(self) -> Optional[bytes]:
        """The program's next line, or ``None`` once it has been given up on (no answer in time, or
        its output ended)."""
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._give_up(f"did not answer within {self.timeout:g} s")
            return None
        if line is None:
            self._give_up(self._ended())
            return None
        return line

    def _ended(self) -> str:
        try:
            code = self.proc.wait(1.0)
        except subprocess.TimeoutExpired:
            return "closed its output"
        if code < 0:
            return f"was killed by signal {-code}"
        return f"ended (exit code {code})"

    def _drop_unasked(self) -> None:
        """Lines the program wrote when nobody asked are not answers to what comes next."""
        dropped = 0
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._give_up(self._ended())
                return
            dropped += 1
        if dropped and not self._noted_extra:
            self._noted_extra = True
            self.warn(f"player {self.player + 1} ({self.name}) wrote {dropped} line(s) nobody asked for "
                      "(ignored): it should write only answers to its standard output, anything else "
                      "to its standard error")

    # ------------------------------------------------------------ the seat
    def show(self, view, events: list) -> None:
        self._send({"type": "show", "view": dict(view), "events": events}, view)

    def decide(self, view, decision) -> Choice:
        legal = [o.id for o in decision.options]
        fallback = decision.default if decision.default in legal else legal[0]
        if self.gone is not None:
            return Choice(fallback)
        self._drop_unasked()            # before asking: a quick answer is not dropped with them
        view = dict(view)
        self._send({"type": "decide", "view": view, "decision": {
            "player": decision.player, "kind": decision.kind, "prompt": decision.prompt,
            "options": [{"id": o.id, "label": o.label, "kind": o.kind} for o in decision.options],
            "default": decision.default, "timed": decision.timed}}, view)
        problem = ""
        for attempt in range(self.tries):
            line = self._next_line() if self.gone is None else None
            if line is None:
                return Choice(fallback)
            choice, problem = _parse_answer(line, legal, decision.timed)
            if choice is not None:
                return choice
            left = self.tries - attempt - 1
            self._send({"type": "error", "message": problem, "legal": legal, "default": decision.default,
                        "tries_left": left, **({} if left else {"taken": fallback})})
        self.warn(f"player {self.player + 1} ({self.name}) gave no legal answer in {self.tries} tries "
                  f"(the last: {problem}); the option {fallback} was taken")
        return Choice(fallback)

    def finish(self, view) -> None:
        view = dict(view)
        self._send({"type": "finish", "view": view, "scores": view.get("scores"),
                    "winners": view.get("winners")}, view)
        # the program may end on its own once its input closes; a short grace, then it is killed
        self.close(EXIT_GRACE)


def _parse_answer(line: bytes, legal: list, timed: bool) -> tuple:
    """``(Choice, "")`` for a legal answer, else ``(None, what is wrong, in words)``."""
    if len(line) > MAX_LINE:
        return None, f"the answer is longer than {MAX_LINE} bytes"
    try:
        text = line.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None, "the answer is not UTF-8 text"
    if not text:
        return None, "an empty line: answer with an option id"
    try:
        # NaN and Infinity are read as text, so that the answer's check names them as sent
        data = read_json(text, constants_as_text=True)
    except BadJSON:
        if text in legal:               # a bare option id, without quotes
            return Choice(text), ""
        shown = repr(text) if len(text) <= 60 else repr(text[:57]) + "..."
        return None, f"{shown} is neither JSON nor an option id of this decision"
    time = None
    if isinstance(data, dict):
        if "option" not in data:
            return None, 'the answer has no "option": send {"option": ID} or the id alone'
        option, time = data["option"], data.get("reaction_time")
    else:
        option = data if isinstance(data, str) else text
    shown = repr(option) if len(repr(option)) <= 60 else repr(option)[:57] + "..."
    if not isinstance(option, str):
        return None, f"the option must be an id in quotes, such as {legal[0]!r}, not {shown}"
    if option not in legal:
        return None, f"{shown} is not an option of this decision"
    if not timed or time is None:
        return Choice(option), ""
    if isinstance(time, bool) or not isinstance(time, (int, float)) or not math.isfinite(time) or time < 0:
        return None, f"the reaction_time must be a number of seconds of at least 0, not {time!r}"
    return Choice(option, max(FASTEST, float(time))), ""


# --------------------------------------------------------------- the threads

def _read_lines(stream, lines: queue.Queue) -> None:
    try:
        while True:
            line = stream.readline(MAX_LINE + 1)
            if not line:
                break
            if len(line) > MAX_LINE and not line.endswith(b"\n"):
                while True:             # the rest of an over-long line is not another answer
                    more = stream.readline(MAX_LINE)
                    if not more or more.endswith(b"\n"):
                        break
            lines.put(line)
    except (OSError, ValueError):       # closed under us: the program is being ended
        pass
    lines.put(None)
    try:
        stream.close()
    except (OSError, ValueError):
        pass


def _write_lines(stream, out: queue.Queue) -> None:
    try:
        while True:
            data = out.get()
            if data is None:
                break
            stream.write(data)
            stream.flush()
    except (OSError, ValueError):       # the program stopped reading, or ended
        pass
    try:
        stream.close()
    except (OSError, ValueError):
        pass


def _end_program(proc: subprocess.Popen, out: queue.Queue, grace: float) -> None:
    """Close the program's input, wait ``grace`` seconds for it to exit, kill it, reap it."""
    out.put(None)
    if grace > 0:
        try:
            proc.wait(grace)
        except subprocess.TimeoutExpired:
            pass
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(5.0)
    except subprocess.TimeoutExpired:   # pragma: no cover - a process that survives SIGKILL
        pass
