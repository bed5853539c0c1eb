"""The ``catrules fmt`` command: game files rewritten in the canonical layout (or checked, for CI)."""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import GameFileError
from .common import FORMATTER, NO_FILE_HINT, err, print_diagnostics

DESCRIPTION = """\
Rewrite game files in the canonical layout: blocks indented by 4 spaces,
spaces around operators and after commas, at most one blank line in a row and
one around each top-level block, lines over 100 characters wrapped inside
brackets or with a `\\` continuation.  Comments are kept; the meaning never
changes (the new text must parse to the same game, or the file is left alone).
With --check nothing is written: the files that would change are named and
the exit code is 1 if there are any (for CI).
"""

EPILOG = """\
examples:
  catrules fmt games/mygame.cat
  catrules fmt --check games/*.cat
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("fmt", help="rewrite game files in the canonical layout", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("files", nargs="+", metavar="FILE", help="game files to format")
    sp.add_argument("--check", action="store_true", help="write nothing; exit 1 if a file would change")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..authoring.fmt import format_file
    failed = changed = 0
    for path in args.files:
        if not Path(path).exists():
            failed += 1
            err(f"no such game file: {path}", NO_FILE_HINT)
            continue
        try:
            old, new = format_file(path)
        except GameFileError as exc:
            failed += 1
            print_diagnostics(exc)
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
