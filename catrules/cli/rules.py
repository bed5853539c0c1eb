"""The ``catrules rules`` command: a game's rules from its file, as a summary (Markdown) or,
with ``--prose``, as a rulebook in English (text, Markdown or HTML)."""

from __future__ import annotations

import sys

from .common import FORMATTER, UsageError, chosen_options, load, player_count, write_output

DESCRIPTION = """\
Print a game's rules, generated from its file.

Without --prose: a summary as Markdown: the components (each card type with
its counts by attribute, the zones and who sees them, the counters), the
steps of the setup, flow, phases and actions, every choice with who makes
it, its prompt and default, the triggers, the score items and how the
winner is found (tie-breakers included).

With --prose: first the game's own "how to play" text, if its file has
one (a `how to play:` block), then a rulebook in English that a playtester
can read: the components (with the cards' own descriptions), the setup, the order of play
and each phase, every choice with its conditions, the definitions that
decide things (how a trick or a race is won), the end of the game, the
scoring item by item, the winner, the options and variants. It uses the
game's own texts (option texts, prompts, card descriptions, the comments
beside a declaration or a step) and lists, at its end, every expression it
could only quote as written. With --players or --option, the rulebook is
for that game: what the players' number and the options decide is worked
out (the other options are off).
"""

EPILOG = """\
examples:
  catrules rules games/mygame.cat
  catrules rules games/mygame.cat -o mygame.md
  catrules rules games/mygame.cat --prose
  catrules rules games/mygame.cat --prose --format html -o mygame.html
  catrules rules games/mygame.cat --prose --players 2 --option expert
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("rules", help="print a game's rules: a summary, or a rulebook in English (--prose)",
                        description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--prose", action="store_true", help="write a rulebook in English instead of the summary")
    sp.add_argument("--format", choices=("text", "markdown", "html"), default=None,
                    help="the rulebook's format (with --prose; default: text)")
    sp.add_argument("--players", type=int, metavar="N",
                    help="the rulebook of a game with N players (with --prose)")
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="the rulebook of a game with this option on, or at this value: rounds=4 (with "
                         "--prose; repeat, or separate with commas)")
    sp.add_argument("-o", "--output", metavar="OUT", help="write to this file (default: standard output)")
    sp.set_defaults(func=run)


def run(args) -> int:
    if not args.prose and (args.format or args.players is not None or args.option):
        raise UsageError("--format, --players and --option go with --prose",
                         "add --prose for the rulebook in English")
    game = load(args.game)
    if args.prose:
        from ..authoring.prose import prose
        players = player_count(game, args.players) if args.players is not None else None
        options = chosen_options(game, args.option) if args.option else None
        text = prose(game, args.format or "text", players, options)
    else:
        from ..authoring.summary import summary
        text = summary(game)
    if args.output and args.output != "-":
        write_output(args.output, text)
        print(f"wrote {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
