"""The ``catrules`` command: play, simulate, check, graph and replay game files.

Every command is a function ``cmd_<name>(args) -> int``; ``play``, with its
save files, is in :mod:`catrules.cli.play`, the others are here with the
helpers they share; every command's options and help texts are in
:mod:`catrules.cli.parser`.  :func:`main` parses the arguments and returns the exit
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

from ..errors import CatrulesError, GameFileError, RulesError

#: Seat specs that put a person at the terminal.
HUMAN_SPECS = ("human", "you", "me", "terminal")
#: Set to 1 to skip the terminal check of ``catrules play`` (for scripted tests of a human seat).
FORCE_TTY_ENV = "CATRULES_FORCE_TTY"
NO_TTY_MESSAGE = ("catrules play needs a terminal for the human seat; "
                  "use --seats random,greedy,... to watch bots")
SEATS_HINT = ("seats are human, random, greedy or bot (= greedy), bots optionally with a reflex: "
              "bot:fast, random:slow, greedy:normal, or the median race time in seconds: greedy:0.8; "
              "ismcts searches (ismcts:2000 iterations or ismcts:1s a decision); cmd:COMMAND seats a program (see docs/protocol.rst)")
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
    from ..api import load_game
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
            from ..errors import suggest
            known = ", ".join(game.options) or "none"
            hint = suggest(o, game.options)
            raise UsageError(f"{game.title} has no option `{o}`" + (f"; {hint}" if hint else ""),
                             f"options of this game: {known}")
    return sorted(set(out))


def _split_specs(text: Optional[str]) -> Optional[list]:
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


def _is_human(spec: str) -> bool:
    return spec.strip().lower() in HUMAN_SPECS


def _check_bot_specs(specs: list, programs: bool = False) -> None:
    """Every spec but a human's makes a seat (``programs``: ``cmd:`` seats too, see bots.make_seat)."""
    from ..bots.basic import make_seat
    for s in specs:
        if _is_human(s):
            continue
        try:
            make_seat(s, programs=programs)
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


def _progress_bar(label: str, total: int) -> tuple:
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


def _run_games(bar, run, failures: tuple):
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
        _err("interrupted")
        return None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    finally:
        gc.unfreeze()
        if bar is not None:
            bar.stop()


def cmd_simulate(args) -> int:
    from ..lab.parallel import ParallelError
    from ..lab.simulate import SimulationError, simulate
    game = _load(args.game)
    players = _players(game, args.players)
    options = _options(game, args.option)
    bots = _split_specs(args.bots) or ["random"]
    for s in bots:
        if _is_human(s):
            raise UsageError("simulations are played by bots only", SEATS_HINT)
    _check_bot_specs(bots, programs=True)
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

    bar, progress = _progress_bar("simulating", args.games) if not args.json else (None, None)

    def run():
        try:
            return simulate(game, players, args.games, args.seed, seats=seats, options=options,
                            log_path=args.log, progress=progress, viewer=_viewer(args, players),
                            max_decisions=args.max_decisions, jobs=args.jobs, cluster=args.cluster)
        except OSError as exc:
            raise Failure(f"cannot write the log {args.log}: {exc.strerror or exc}") from None
    result = _run_games(bar, run, (SimulationError, ParallelError))
    if result is None:
        return 130
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        print(result.format_table())
    return 0


# =================================================================== check

def cmd_check(args) -> int:
    from ..api import load_game
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
    from ..authoring.fmt import format_file
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
    from ..authoring.new import template
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
    from ..compile.graph import to_dot, to_mermaid
    from ..authoring.graph_render import to_svg
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
    from ..authoring.summary import summary
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
    from ..play.logs import LogError, read_log, replay
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


def cmd_lsp(args) -> int:
    try:
        from ..authoring.lsp import serve
    except ImportError:
        raise Failure("catrules lsp needs pygls", "install it with: pip install 'catrules[lsp]'") from None
    serve()
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (its words and help are in :mod:`catrules.cli.parser`)."""
    from .parser import build_parser as build
    return build()


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
