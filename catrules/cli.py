"""The ``catrules`` command: play, simulate, check, graph and replay game files.

Every command is a function ``cmd_<name>(args) -> int``; ``play``, with its
save files, is in :mod:`catrules.cli_play`, the others are here with the
helpers they share.  :func:`main` parses the arguments and returns the exit
code (0 fine, 1 the game or a file is at fault, 2 a usage error, 130
interrupted).  Mistakes a user can make (a bad game file, a missing file, an
unknown option, a wrong seat spec, a damaged save) print a message and a
hint, never a Python traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Optional

from . import __version__
from .errors import CatrulesError, GameFileError, RulesError

#: Seat specs that put a person at the terminal.
HUMAN_SPECS = ("human", "you", "me", "terminal")
#: Set to 1 to skip the terminal check of ``catrules play`` (for scripted tests of a human seat).
FORCE_TTY_ENV = "CATRULES_FORCE_TTY"
NO_TTY_MESSAGE = ("catrules play needs a terminal for the human seat; "
                  "use --seats random,greedy,... to watch bots")
SEATS_HINT = ("seats are human, random, greedy or bot (= greedy), bots optionally with a reflex: "
              "bot:fast, random:slow, greedy:normal, or the median race time in seconds: greedy:0.8")
#: The largest --handicap, in seconds (more would let a person win every race without looking).
HANDICAP_MAX = 2.0


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


# ================================================================= helpers

def _err(message: str, hint: str = "") -> None:
    print(f"catrules: error: {message}", file=sys.stderr)
    if hint:
        print(f"  hint: {hint}", file=sys.stderr)


def _color_stderr() -> bool:
    return sys.stderr.isatty() and not os.environ.get("NO_COLOR")


def _print_diagnostics(exc: GameFileError) -> None:
    color = _color_stderr()
    for d in exc.diagnostics:
        print(d.format(color=color), file=sys.stderr)


def _load(path: str):
    """Load a game file; bad files print their diagnostics and fail with exit code 1."""
    from .api import load_game
    if not Path(path).exists():
        raise Failure(f"no such game file: {path}", "check the path (game files end in .cat)")
    try:
        return load_game(path)
    except GameFileError as exc:
        _print_diagnostics(exc)
        raise Failure(f"{path}: the game file has {len(exc.diagnostics)} problem"
                      f"{'s' if len(exc.diagnostics) != 1 else ''}",
                      "fix them, then `catrules check " + path + "`") from None


def default_players(game) -> int:
    """Four players when the game allows it, else the nearest count it allows."""
    return min(max(4, game.min_players), game.max_players)


def _players(game, requested: Optional[int]) -> int:
    n = default_players(game) if requested is None else requested
    if not game.min_players <= n <= game.max_players:
        raise UsageError(f"{game.title} is for {game.min_players} to {game.max_players} players, not {n}",
                         f"use --players {game.min_players} to {game.max_players}")
    return n


def _options(game, names) -> list:
    out = []
    for raw in names or []:
        for o in raw.split(","):
            o = o.strip()
            if o:
                out.append(o)
    for o in out:
        if o not in game.options:
            from .errors import suggest
            known = ", ".join(game.options) or "none"
            hint = suggest(o, game.options)
            raise UsageError(f"{game.title} has no option `{o}`" + (f"; {hint}" if hint else ""),
                             f"options of this game: {known}")
    return sorted(set(out))


def _split_specs(text: Optional[str]) -> Optional[list]:
    if text is None:
        return None
    specs = [s.strip() for s in text.split(",")]
    if not all(specs):
        raise UsageError(f"--seats {text!r} has an empty seat", SEATS_HINT)
    return specs


def _is_human(spec: str) -> bool:
    return spec.strip().lower() in HUMAN_SPECS


def _check_bot_specs(specs: list) -> None:
    from .bots import make_seat
    for s in specs:
        if _is_human(s):
            continue
        try:
            make_seat(s)
        except (ValueError, CatrulesError) as exc:
            raise UsageError(str(exc).split("; valid")[0], SEATS_HINT) from None


def _viewer(args, players: int):
    """``--viewer P`` (a player from 1) as a player index, checked; None without it."""
    v = getattr(args, "viewer", None)
    if v is None:
        return None
    if not args.log:
        raise UsageError("--viewer says whose view the log holds", "add --log FILE")
    if not 1 <= v <= players:
        raise UsageError(f"--viewer {v}: there are players 1 to {players}")
    return v - 1


class Parser(argparse.ArgumentParser):
    """argparse, with a hint line after a usage error."""

    def error(self, message: str):  # pragma: no cover - exercised through main()
        self.print_usage(sys.stderr)
        _err(message, f"`{self.prog} --help` explains every option")
        raise SystemExit(2)


# ================================================================ simulate

def _check_budget(args) -> None:
    if args.max_decisions is not None and args.max_decisions < 1:
        raise UsageError("--max-decisions must be 1 or more", "it stops a game of bots that has not ended by then")


def _jobs(text: str) -> int:
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


def cmd_simulate(args) -> int:
    from .parallel import ParallelError
    from .simulate import SimulationError, simulate
    game = _load(args.game)
    players = _players(game, args.players)
    options = _options(game, args.option)
    bots = _split_specs(args.bots) or ["random"]
    for s in bots:
        if _is_human(s):
            raise UsageError("simulations are played by bots only", SEATS_HINT)
    _check_bot_specs(bots)
    if len(bots) == 1:
        seats = bots[0]
    elif len(bots) == players:
        seats = bots
    else:
        raise UsageError(f"{len(bots)} bots for {players} players", "give one bot for everyone or one per player")
    if args.games < 0:
        raise UsageError("--games must be 0 or more")
    if args.cluster is not None and args.jobs != 1:
        raise UsageError("give --jobs or --cluster, not both", "a cluster's workers are its own processes")
    _check_budget(args)

    progress = None
    bar = None
    if not args.json and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        bar = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                       console=Console(stderr=True), transient=True)
        task = bar.add_task("games", total=args.games)

        def progress(done, total):
            bar.update(task, completed=done)
    try:
        if bar is not None:
            bar.start()
        result = simulate(game, players, args.games, args.seed, seats=seats, options=options,
                          log_path=args.log, progress=progress, viewer=_viewer(args, players),
                          max_decisions=args.max_decisions, jobs=args.jobs, cluster=args.cluster)
    except (SimulationError, ParallelError) as exc:
        raise Failure(str(exc), exc.hint) from None
    except KeyboardInterrupt:
        if bar is not None:
            bar.stop()
        _err("interrupted")
        return 130
    except OSError as exc:
        raise Failure(f"cannot write the log {args.log}: {exc.strerror or exc}") from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        if bar is not None:
            bar.stop()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.format_table())
    return 0


# =================================================================== check

def cmd_check(args) -> int:
    from .api import load_game
    color = _color_stderr()
    failed = 0
    for path in args.files:
        if not Path(path).exists():
            failed += 1
            _err(f"no such game file: {path}", "check the path (game files end in .cat)")
            continue
        try:
            game = load_game(path)
        except GameFileError as exc:
            failed += 1
            for d in exc.diagnostics:
                print(d.format(color=color), file=sys.stderr)
            n = len(exc.diagnostics)
            print(f"failed: {path} ({n} error{'s' if n != 1 else ''})", file=sys.stderr)
            continue
        warnings = [w for w in game.warnings if getattr(w, "severity", "warning") == "warning"]
        for w in warnings:
            print(w.format(color=color) if hasattr(w, "format") else str(w), file=sys.stderr)
        extra = f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""
        print(f"ok: {path} ({game.title}, {game.card_count} cards, "
              f"players {game.min_players}-{game.max_players}{extra})")
    return 1 if failed else 0


def cmd_fmt(args) -> int:
    from .fmt import format_file
    failed = changed = 0
    for path in args.files:
        if not Path(path).exists():
            failed += 1
            _err(f"no such game file: {path}", "check the path (game files end in .cat)")
            continue
        try:
            old, new = format_file(path)
        except GameFileError as exc:
            failed += 1
            _print_diagnostics(exc)
            continue
        if old == new:
            continue
        changed += 1
        if args.check:
            print(f"would reformat: {path}")
        else:
            Path(path).write_text(new, encoding="utf-8")
            print(f"formatted: {path}")
    if args.check and changed:
        print(f"{changed} file{'s' if changed != 1 else ''} would change; run catrules fmt to format",
              file=sys.stderr)
    return 1 if failed or (args.check and changed) else 0


# ===================================================================== new

def cmd_new(args) -> int:
    from .new_game import template
    stem, text = template(args.name)
    path = Path(args.dir) / f"{stem}.cat"
    if path.exists():
        raise Failure(f"{path} already exists; it is left as it is",
                      "choose another name, or another folder with --dir")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}", "give a folder you can write to with --dir") from None
    print(f"wrote {path}: a small game that checks and plays; try `catrules play {path}`")
    return 0


# =================================================================== graph

def cmd_graph(args) -> int:
    from .graph import to_dot, to_mermaid
    from .graph_render import to_svg
    game = _load(args.game)
    text = {"mermaid": to_mermaid, "svg": to_svg}.get(args.format, to_dot)(game.graph)
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise Failure(f"cannot write {args.output}: {exc.strerror or exc}") from None
        g = game.graph
        print(f"wrote {args.output} ({g.number_of_nodes()} nodes, {g.number_of_edges()} edges)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# =================================================================== rules

def cmd_rules(args) -> int:
    from .summary import summary
    text = summary(_load(args.game))
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            raise Failure(f"cannot write {args.output}: {exc.strerror or exc}") from None
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


# ================================================================== replay

def cmd_replay(args) -> int:
    from .logs import LogError, read_log, replay
    try:
        games = read_log(args.log)
        report = replay(args.log)
    except FileNotFoundError:
        raise Failure(f"no log file {args.log}", "logs are written by --log FILE of play or simulate") from None
    except OSError as exc:
        raise Failure(f"cannot read {args.log}: {exc.strerror or exc}") from None
    except LogError as exc:
        raise Failure(str(exc), "give a log written by catrules play/simulate --log") from None
    if report.ok and not report.complete:
        print(report.format())
        return 1
    if report.ok:
        decisions = sum(1 for g in games for _, e in g.events if e.get("event") == "decision")
        ng = len(games)
        print(f"replayed {decisions} decisions" + (f" in {ng} games" if ng != 1 else "") +
              (": same games" if ng != 1 else ": same game"))
        for g in report.games:
            for note in g.notes:
                print(f"  note: {note}")
        return 0
    print(report.format())
    return 1


# ================================================================== parser

_MAIN_EPILOG = """\
examples:
  catrules play games/mygame.cat                      you against 3 greedy bots
  catrules play games/mygame.cat --seats random,greedy,bot:fast
  catrules simulate games/mygame.cat --players 4 --games 1000 --seed 1
  catrules check games/mygame.cat
  catrules new "My Game"                              a small game to start from
  catrules graph games/mygame.cat --format mermaid -o mygame.mmd
  catrules rules games/mygame.cat -o mygame.md
  catrules replay game.jsonl

exit codes: 0 ok, 1 a game file, save or log is at fault, 2 usage error,
130 interrupted (Ctrl-C).  `catrules COMMAND --help` tells more.
"""

_PLAY_DESC = """\
Play a game file at this terminal, one seat per player.

A person (seat `human`) sees only what their player may see: their own
cards, the open zones, how many cards the hidden ones hold, the counters,
and what happened.  At a terminal this is a full-screen table (80x24 is
enough): a number or the arrows and Enter choose, Enter alone takes the
default option (marked *), in a race the number alone answers (the time
counts; --handicap SECONDS takes that much off it, a head start against
bots); i inspects a card, h shows the history, ? the keys, q saves and
quits.  --plain (or an input or output that is not a terminal) gives the
line-by-line interface: type a number and Enter, ? shows the table again.

Ctrl-C or end of input saves the game to <game>-<seed>.save.json in the
current directory (or --save FILE; another save is never overwritten
without asking); --resume continues it exactly, and the save is removed
when the game ends.  Without a human seat the public events of the game
are printed, then the scores.  A human seat needs a terminal (the test
suite sets the environment variable CATRULES_FORCE_TTY=1 to skip that check).
"""

_PLAY_EPILOG = """\
examples:
  catrules play games/mygame.cat
  catrules play games/mygame.cat --players 3 --seed 7 --option NAME
  catrules play games/mygame.cat --seats human,bot:fast,random --log game.jsonl
  catrules play games/mygame.cat --seats human,greedy:0.8 --handicap 0.2
  catrules play games/mygame.cat --seats random,random,random --quiet
  catrules play --resume mygame-7.save.json

exit codes: 0 game over (or saved with q), 1 end of input (saved) or a bad
file, 2 usage error or no terminal for a human seat, 130 Ctrl-C (saved).
"""

_SIM_DESC = """\
Let bots play a game many times and sum up the results: wins per seat
(a shared win counts for each winner), mean/min/max total score per seat,
decisions per game and games per second.  Game i uses the seed
SEED * 1000003 + i: the same arguments always give the same results (only
the timing lines differ), with --jobs N processes or on a --cluster too.
A progress bar goes to stderr when it is a terminal.
"""

_SIM_EPILOG = """\
examples:
  catrules simulate games/mygame.cat --players 4 --games 1000 --seed 1
  catrules simulate games/mygame.cat --bots greedy,random,random,random
  catrules simulate games/mygame.cat --option NAME --json > result.json
  catrules simulate games/mygame.cat --games 10 --log games.jsonl
  catrules simulate games/mygame.cat --games 10000 --jobs auto
  catrules simulate games/mygame.cat --games 10000 --cluster tcp://127.0.0.1:8786
"""

_CHECK_DESC = """\
Check game files: read each one, report every problem found (file:line:col,
the line, a caret under the place and a hint) and the warnings.  Prints
`ok: FILE (title, N cards, players A-B)` for a good file.  Exit code 1 if any
file has errors; warnings alone do not fail.
"""

_CHECK_EPILOG = """\
examples:
  catrules check games/mygame.cat
  catrules check games/*.cat
"""

_FMT_DESC = """\
Rewrite game files in the canonical layout: blocks indented by 4 spaces,
spaces around operators and after commas, at most one blank line in a row and
one around each top-level block, lines over 100 characters wrapped inside
brackets or with a `\\` continuation.  Comments are kept; the meaning never
changes (the new text must parse to the same game, or the file is left alone).
With --check nothing is written: the files that would change are named and
the exit code is 1 if there are any (for CI).
"""

_FMT_EPILOG = """\
examples:
  catrules fmt games/mygame.cat
  catrules fmt --check games/*.cat
"""

_GRAPH_DESC = """\
Export a game's action graph (its phases and steps, and how control moves
between them) as Graphviz dot, as a Mermaid flowchart, or drawn as an SVG
picture (no Graphviz needed).  Each step reads as its line of the game file.
"""

_GRAPH_EPILOG = """\
examples:
  catrules graph games/mygame.cat --format svg -o mygame.svg
  catrules graph games/mygame.cat --format mermaid -o mygame.mmd
  catrules graph games/mygame.cat | dot -Tpdf > mygame.pdf
"""

_RULES_DESC = """\
Print a summary of a game, generated from its file, as Markdown: the
components (each card type with its counts by attribute, the zones and who
sees them, the counters), the steps of the setup, flow, phases and actions,
every choice with who makes it, its prompt and default, the triggers, the
score items and how the winner is found (tie-breakers included).
"""

_RULES_EPILOG = """\
examples:
  catrules rules games/mygame.cat
  catrules rules games/mygame.cat -o mygame.md
"""

_REPLAY_DESC = """\
Play every game of a full log again (from its game file, players, options,
seed and recorded decisions) and compare it, event by event, with the log.
Prints `replayed N decisions: same game`, or the first difference.  Exit
code 0 when the log replays exactly, 1 otherwise.
"""

_REPLAY_EPILOG = """\
examples:
  catrules play games/mygame.cat --seats random,random,random --seed 3 --log game.jsonl
  catrules replay game.jsonl
"""


def build_parser() -> argparse.ArgumentParser:
    fmt = argparse.RawDescriptionHelpFormatter
    p = Parser(prog="catrules", formatter_class=fmt,
               description="Card games written as rules files: play them, simulate them, check them.",
               epilog=_MAIN_EPILOG)
    from .parser import LANGUAGE_VERSION
    p.add_argument("--version", action="version",
                   version=f"catrules {__version__} (language version {LANGUAGE_VERSION})")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    from .cli_play import cmd_play     # here, not at the top: cli_play uses this module's helpers

    sp = sub.add_parser("play", help="play a game at this terminal", description=_PLAY_DESC,
                        epilog=_PLAY_EPILOG, formatter_class=fmt)
    sp.add_argument("game", nargs="?", metavar="GAME", help="the game file (.cat); optional with --resume")
    sp.add_argument("--players", type=int, metavar="N",
                    help="number of players (default: the number of --seats, else 4 if the game allows it)")
    sp.add_argument("--seats", metavar="S,S,...",
                    help="who plays each seat, in order: human, random, greedy, bot, bot:fast, random:slow, "
                         "greedy:0.8 (a bot's median race time in seconds)... "
                         "(default: human, then greedy bots; missing seats are greedy bots)")
    sp.add_argument("--seed", type=int, metavar="N", help="random seed: the same seed deals the same game "
                                                          "(default: a random one, printed at the start)")
    sp.add_argument("--option", action="append", metavar="NAME",
                    help="turn on a game option (repeat, or separate with commas; default: none)")
    sp.add_argument("--log", metavar="FILE", help="write a full JSON Lines log of the game (default: none)")
    sp.add_argument("--viewer", type=int, metavar="P",
                    help="with --log: write only what player P (from 1) may see, as P's seat is shown the game")
    sp.add_argument("--save", metavar="FILE",
                    help="where an interrupted game is saved (default: <game>-<seed>.save.json here)")
    sp.add_argument("--resume", metavar="FILE", help="continue a saved game exactly where it stopped")
    sp.add_argument("--force", action="store_true",
                    help="with --resume: resume even if the game file changed since the game was saved "
                         "(the save is still checked against it)")
    sp.add_argument("--quiet", action="store_true",
                    help="without a human seat, print only the final scores (default: every public event)")
    sp.add_argument("--handicap", metavar="SECONDS",
                    help=f"seconds taken off a human seat's time in every race, 0 to {HANDICAP_MAX:g} "
                         "(default: 0; a resumed game keeps its own)")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="with bots only: stop a game that has not ended after N decisions "
                         "(default: 100,000)")
    sp.add_argument("--plain", action="store_true",
                    help="the line-by-line interface (for screen readers; the default when the input "
                         "or output is not a terminal) instead of the full-screen table")
    sp.set_defaults(func=cmd_play)

    sp = sub.add_parser("simulate", help="let bots play many games and sum up", description=_SIM_DESC,
                        epilog=_SIM_EPILOG, formatter_class=fmt)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--players", type=int, metavar="N", help="number of players (default: 4 if the game "
                                                             "allows it, else the nearest allowed)")
    sp.add_argument("--games", type=int, default=100, metavar="N", help="number of games (default: 100)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the simulation (default: 1)")
    sp.add_argument("--bots", metavar="SPEC[,SPEC...]",
                    help="one bot for every seat, or one per seat: random, greedy, bot, bot:fast, greedy:0.8... "
                         "(default: random)")
    sp.add_argument("--option", action="append", metavar="NAME",
                    help="turn on a game option (repeat, or separate with commas; default: none)")
    sp.add_argument("--json", action="store_true", help="print the result as JSON on stdout (no progress bar)")
    sp.add_argument("--log", metavar="FILE", help="write every game to one JSON Lines log (default: none)")
    sp.add_argument("--viewer", type=int, metavar="P",
                    help="with --log: write only what player P (from 1) may see in each game")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="stop a game that has not ended after N decisions and count it as unfinished "
                         "(default: 100,000)")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                    help="play the games on N processes; 0 or auto = every core (default: 1); "
                         "the result is the same for every N")
    sp.add_argument("--cluster", metavar="ADDRESS",
                    help="play the games on the workers of a Dask scheduler, e.g. tcp://127.0.0.1:8786 "
                         "(needs pip install 'catrules[cluster]')")
    sp.set_defaults(func=cmd_simulate)

    sp = sub.add_parser("check", help="check game files and report every problem", description=_CHECK_DESC,
                        epilog=_CHECK_EPILOG, formatter_class=fmt)
    sp.add_argument("files", nargs="+", metavar="FILE", help="game files to check")
    sp.set_defaults(func=cmd_check)

    sp = sub.add_parser("fmt", help="rewrite game files in the canonical layout", description=_FMT_DESC,
                        epilog=_FMT_EPILOG, formatter_class=fmt)
    sp.add_argument("files", nargs="+", metavar="FILE", help="game files to format")
    sp.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    sp.set_defaults(func=cmd_fmt)

    sp = sub.add_parser("new", help="start a new game from a small working template",
                        description="Write NAME.cat (in the current folder, or --dir): a small complete "
                                    "game that checks and plays, to change into your own.  An existing "
                                    "file is never overwritten.", formatter_class=fmt)
    sp.add_argument("name", metavar="NAME", help="the game's name (the file is named after it)")
    sp.add_argument("--dir", default=".", metavar="DIR", help="the folder to write it in (default: here)")
    sp.set_defaults(func=cmd_new)

    sp = sub.add_parser("graph", help="export the action graph (dot, mermaid or svg)", description=_GRAPH_DESC,
                        epilog=_GRAPH_EPILOG, formatter_class=fmt)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--format", choices=("dot", "mermaid", "svg"), default="dot",
                    help="output format: Graphviz dot, a Mermaid flowchart or an SVG picture (default: dot)")
    sp.add_argument("-o", "--output", metavar="OUT", help="write to this file (default: standard output)")
    sp.set_defaults(func=cmd_graph)

    sp = sub.add_parser("rules", help="print a summary of a game's rules (Markdown)", description=_RULES_DESC,
                        epilog=_RULES_EPILOG, formatter_class=fmt)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("-o", "--output", metavar="OUT", help="write to this file (default: standard output)")
    sp.set_defaults(func=cmd_rules)

    sp = sub.add_parser("replay", help="replay a log and check it gives the same game",
                        description=_REPLAY_DESC, epilog=_REPLAY_EPILOG, formatter_class=fmt)
    sp.add_argument("log", metavar="LOG", help="a log written with --log")
    sp.set_defaults(func=cmd_replay)

    sp = sub.add_parser("lsp", help="a language server for editors (on stdin and stdout)",
                        description="Serve the Language Server Protocol on standard input and output: "
                                    "diagnostics as you type, completion of names, hover on definitions.")
    sp.set_defaults(func=cmd_lsp)

    from .web.command import add_parser as add_serve     # the web server (catrules/web/)
    add_serve(sub)
    return p


def cmd_lsp(args) -> int:
    try:
        from .lsp import serve
    except ImportError:
        raise Failure("catrules lsp needs pygls", "install it with: pip install 'catrules[lsp]'") from None
    serve()
    return 0


def main(argv: Optional[list] = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except UsageError as exc:
        _err(str(exc), exc.hint)
        return 2
    except Failure as exc:
        _err(str(exc), exc.hint)
        return 1
    except GameFileError as exc:
        _print_diagnostics(exc)
        return 1
    except RulesError as exc:
        _err(f"the game stopped: {exc}", "" if exc.hint else "this is a problem in the game file")
        return 1
    except CatrulesError as exc:
        _err(str(exc))
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        _err("interrupted")
        return 130
    except BrokenPipeError:
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
