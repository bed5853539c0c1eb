"""The ``catrules rules`` command: a summary of a game's rules, in Markdown, from its file."""

from __future__ import annotations

import sys

from .common import FORMATTER, load, write_output

DESCRIPTION = """\
Print a summary of a game, generated from its file, as Markdown: the
components (each card type with its counts by attribute, the zones and who
sees them, the counters), the steps of the setup, flow, phases and actions,
every choice with who makes it, its prompt and default, the triggers, the
score items and how the winner is found (tie-breakers included).
"""

EPILOG = """\
examples:
  catrules rules games/mygame.cat
  catrules rules games/mygame.cat -o mygame.md
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("rules", help="print a summary of a game's rules (Markdown)", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("-o", "--output", metavar="OUT", help="write to this file (default: standard output)")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..authoring.summary import summary
    text = summary(load(args.game))
    if args.output and args.output != "-":
        write_output(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
