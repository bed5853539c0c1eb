"""The ``catrules check`` command: every problem of game files, and their warnings."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import GameFileError
from .common import FORMATTER, NO_FILE_HINT, color_stderr, err, print_diagnostics

DESCRIPTION = """\
Check game files: read each one, report every problem found (file:line:col,
the line, a caret under the place and a hint) and the warnings.  Prints
`ok: FILE (title, N cards, players A-B)` for a good file.  Exit code 1 if any
file has errors; warnings alone do not fail.
"""

EPILOG = """\
examples:
  catrules check games/mygame.cat
  catrules check games/*.cat
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("check", help="check game files and report every problem", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("files", nargs="+", metavar="FILE", help="game files to check")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..api import load_game
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
