"""What the commands of ``catrules`` share: their errors, messages, and the checks of their arguments.

A command raises :class:`UsageError` (exit code 2) or :class:`Failure` (exit code 1);
:func:`catrules.cli.main` prints either with :func:`err`, a message and a hint, never a
traceback.  Here too: loading a game file (:func:`load`), the checks of ``--players``,
``--option``, ``--seats``/``--bots``, ``--viewer``, ``--max-decisions`` and ``--jobs``, and
running many games behind a progress bar (:func:`progress_bar`, :func:`run_games`).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional

from ..errors import CatrulesError, GameFileError

#: Seat specs that put a person at the terminal.
HUMAN_SPECS = ("human", "you", "me", "terminal")
SEATS_HINT = ("seats are human, random, greedy or bot (= greedy), bots optionally with a reflex: "
              "bot:fast, random:slow, greedy:normal, or the median race time in seconds: greedy:0.8; "
              "ismcts searches (ismcts:2000 iterations or ismcts:1s a decision); "
              "cmd:COMMAND seats a program (see docs/protocol.rst)")
#: The hint after a game file that is not there.
NO_FILE_HINT = "check the path (game files end in .cat)"
#: The help texts are laid out by hand (examples, tables): argparse keeps their lines.
FORMATTER = argparse.RawDescriptionHelpFormatter


class UsageError(Exception):
    """A mistake in the command line: exit code 2."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class Failure(Exception):
    """Something the user must fix outside the command line (a file...): exit code 1."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class Parser(argparse.ArgumentParser):
    """argparse, with a hint line after a usage error."""

    def error(self, message: str):  # pragma: no cover - exercised through main()
        self.print_usage(sys.stderr)
        err(message, f"`{self.prog} --help` explains every option")
        raise SystemExit(2)


# ================================================================ messages

def err(message: str, hint: str = "") -> None:
    """``catrules: error: MESSAGE`` on stderr, and the hint below it."""
    print(f"catrules: error: {message}", file=sys.stderr)
    if hint:
        print(f"  hint: {hint}", file=sys.stderr)


def color_stderr() -> bool:
    return sys.stderr.isatty() and not os.environ.get("NO_COLOR")


def print_diagnostics(exc: GameFileError) -> None:
    """The errors of a game file, with its warnings among them in the order of the file (a
    warning on the same line often says why the error is one)."""
    color = color_stderr()
    first = exc.diagnostics[0].path if exc.diagnostics else ""
    for d in sorted(exc.diagnostics + exc.warnings, key=lambda d: (d.path != first, d.path, d.line, d.column)):
        print(d.format(color=color), file=sys.stderr)


def write_output(path: str, text: str) -> None:
    """``text`` into the file ``-o``/``--output`` names; a file that cannot be written fails."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}") from None


# ============================================================ game, seats

def load(path: str):
    """Load a game file; bad files print their diagnostics and fail with exit code 1."""
    from ..api import load_game
    if not Path(path).exists():
        raise Failure(f"no such game file: {path}", NO_FILE_HINT)
    try:
        return load_game(path)
    except GameFileError as exc:
        print_diagnostics(exc)
        raise Failure(f"{path}: the game file has {len(exc.diagnostics)} problem"
                      f"{'s' if len(exc.diagnostics) != 1 else ''}",
                      "fix them, then `catrules check " + path + "`") from None


def default_players(game) -> int:
    """Four players when the game allows it, else the nearest count it allows."""
    return min(max(4, game.min_players), game.max_players)


def player_count(game, requested: Optional[int]) -> int:
    """``--players`` (default :func:`default_players`), checked against the game."""
    n = default_players(game) if requested is None else requested
    if not game.min_players <= n <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players} to {game.max_players} players, not {n}",
                         f"use --players {game.min_players} to {game.max_players}")
    return n


def chosen_options(game, names) -> list:
    """``--option`` (repeated, or with commas; ``NAME`` or ``NAME=VALUE``): the game's options as it
    keeps them (sorted, each once, a value at its default left out)."""
    out = []
    for raw in names or []:
        for o in raw.split(","):
            o = o.strip()
            if o:
                out.append(o)
    from ..errors import CatrulesError
    try:
        return game.normal_options(out)
    except CatrulesError as e:
        raise UsageError(getattr(e, "message", str(e)), getattr(e, "hint", "")) from None


def split_specs(text: Optional[str]) -> Optional[list]:
    """``--seats``/``--bots`` as a list of seat specs (None without it)."""
    if text is None:
        return None
    # a comma in quotes belongs to a program's command: cmd:python bot.py --weights "1,2",random
    specs, part, quote = [], "", None
    for ch in text:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == ",":
            specs.append(part.strip())
            part = ""
            continue
        part += ch
    specs.append(part.strip())
    if quote:
        raise UsageError(f"--seats {text!r}: a quote ({quote}) is not closed", SEATS_HINT)
    if not all(specs):
        raise UsageError(f"--seats {text!r} has an empty seat", SEATS_HINT)
    return specs


def is_human(spec: str) -> bool:
    return spec.strip().lower() in HUMAN_SPECS


def check_bot_specs(specs: list, programs: bool = False) -> None:
    """Every spec but a human's makes a seat (``programs``: ``cmd:`` seats too, see bots.make_seat)."""
    from ..bots.basic import make_seat
    for s in specs:
        if is_human(s):
            continue
        try:
            make_seat(s, programs=programs)
        except (ValueError, CatrulesError) as exc:
            raise UsageError(str(exc).split("; valid")[0], SEATS_HINT) from None


def viewer_index(args, players: int):
    """``--viewer P`` (a player from 1) as a player index, checked; None without it."""
    v = getattr(args, "viewer", None)
    if v is None:
        return None
    if not args.log:
        raise UsageError("--viewer says whose view the log holds", "add --log FILE")
    if not 1 <= v <= players:
        raise UsageError(f"--viewer {v}: there are players 1 to {players}")
    return v - 1


# ============================================================ many games

def check_budget(args) -> None:
    """``--max-decisions``, when given, is 1 or more."""
    if args.max_decisions is not None and args.max_decisions < 1:
        raise UsageError("--max-decisions must be 1 or more", "it stops a game of bots that has not ended by then")


def jobs(text: str) -> int:
    """``--jobs``: a number of processes, 0 or ``auto`` for every core."""
    if text.strip().lower() == "auto":
        return 0
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n < 0:
        raise argparse.ArgumentTypeError(f"--jobs takes a number of processes (0 or auto = every core), not {text!r}")
    return n


def progress_bar(label: str, total: int) -> tuple:
    """``(bar, advance)``: a progress bar of games on a terminal's stderr and the function that
    moves it (``advance(done, total)``), or ``(None, None)`` when stderr is not a terminal."""
    if not sys.stderr.isatty():
        return None, None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
    bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    task = bar.add_task("games", total=total)

    def advance(done, _total=None):
        bar.update(task, completed=done)
    return bar, advance


def print_result(result, as_json: bool) -> int:
    """Print games' result (its JSON, or its table) and give the exit code: 130 for None
    (interrupted, see :func:`run_games`)."""
    if result is None:
        return 130
    if as_json:
        import json
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.format_table())
    return 0


def run_games(bar, run, failures: tuple):
    """``run()`` (many games) with ``bar`` shown: its result, or None after Ctrl-C (said on stderr).
    ``failures`` become a :class:`Failure` with their hint, a ``ValueError`` a :class:`UsageError`."""
    import gc
    # what is loaded now outlives the games: the collector need not look at it again for each of
    # the games' many short-lived objects (unfrozen after, for a caller of main() in-process)
    gc.freeze()
    try:
        if bar is not None:
            bar.start()
        return run()
    except failures as exc:
        raise Failure(str(exc), exc.hint) from None
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        err("interrupted")
        return None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        gc.unfreeze()
        if bar is not None:
            bar.stop()
