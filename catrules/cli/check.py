"""The ``catrules check`` command: every problem of game files, and their warnings."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import GameFileError
from .common import (FORMATTER, NO_FILE_HINT, UsageError, check_budget, chosen_options, color_stderr, err,
                     player_count, print_diagnostics, progress_bar, run_games)

DESCRIPTION = """\
Check game files: read each one, report every problem found (file:line:col,
the line, a caret under the place and a hint) and the warnings.  Prints
`ok: FILE (title, N cards, players A-B)` for a good file.  Exit code 1 if any
file has errors; warnings alone do not fail.

With --play N, random players also play N games of each good file at each
player count (or at --players) and warn of what the text cannot show: short
deals (`top(zone, n)` with fewer cards in the zone), choices that never
arise, menu moves never offered or never taken, a player who never decides,
games that never end and games stopped by a rules error, each with how often
("in 0 of 200 games").  Game i uses the seed SEED * 1000003 + i: the same
arguments give the same warnings.
"""

EPILOG = """\
examples:
  catrules check games/mygame.cat
  catrules check games/*.cat
  catrules check games/mygame.cat --play 200
  catrules check games/mygame.cat --play 100 --players 4 --option expert --seed 2
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("check", help="check game files and report every problem", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("files", nargs="+", metavar="FILE", help="game files to check")
    sp.add_argument("--play", type=int, metavar="N",
                    help="also let random players play N games at each player count and warn of what they "
                         "show (default: none)")
    sp.add_argument("--players", type=int, metavar="N",
                    help="with --play: play at N players only (default: every count the game allows)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="with --play: the seed (default: 1)")
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="with --play: turn on a game option, or give one a value: rounds=4 (repeat, "
                         "or separate with commas)")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="with --play: a game not ended after N decisions may never end (default: 100,000)")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..api import load_game
    _check_play_args(args)
    color = color_stderr()
    failed = 0
    for path in args.files:
        if not Path(path).exists():
            failed += 1
            err(f"no such game file: {path}", NO_FILE_HINT)
            continue
        try:
            game = load_game(path)
        except GameFileError as exc:
            failed += 1
            print_diagnostics(exc)
            n, w = len(exc.diagnostics), len(exc.warnings)
            also = f", {w} warning{'s' if w != 1 else ''}" if w else ""
            print(f"failed: {path} ({n} error{'s' if n != 1 else ''}{also})", file=sys.stderr)
            continue
        warnings = [w for w in game.warnings if getattr(w, "severity", "warning") == "warning"]
        if args.play is not None:
            played = _play(game, args)
            if played is None:
                return 130
            warnings += played
        for w in warnings:
            print(w.format(color=color) if hasattr(w, "format") else str(w), file=sys.stderr)
        extra = f", {len(warnings)} warning{'s' if len(warnings) != 1 else ''}" if warnings else ""
        print(f"ok: {path} ({game.title}, {game.card_count} cards, "
              f"players {game.min_players}-{game.max_players}{extra})")
    return 1 if failed else 0


def _check_play_args(args) -> None:
    """The options of --play, checked before any file is read."""
    if args.play is None:
        for name in ("players", "option", "max_decisions"):
            if getattr(args, name) is not None:
                raise UsageError(f"--{name.replace('_', '-')} goes with --play", "add --play N (games to play)")
        return
    if args.play < 1:
        raise UsageError("--play must be 1 or more", "it is the number of games played at each player count")
    check_budget(args)


def _play(game, args):
    """The warnings of ``--play``: random games of ``game`` (see catrules.lab.lint); None after Ctrl-C."""
    from ..lab.lint import lint_play
    counts = ([player_count(game, args.players)] if args.players is not None
              else list(range(game.min_players, game.max_players + 1)))
    options = chosen_options(game, args.option)
    bar, progress = progress_bar("playing", args.play * len(counts))

    def play():
        return lint_play(game, args.play, args.seed, counts, options, args.max_decisions, progress)
    return run_games(bar, play, ())
