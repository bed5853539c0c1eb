"""The ``catrules rules`` command: a game's rules from its file, as a summary (Markdown) or,
with ``--prose``, as a rulebook in English (text, Markdown or HTML)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

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


# ---------------------------------------------------------------- the docs page
#: The games docs/rulebook.rst shows, in order.
PAGE_GAMES = ("games/meow.cat", "games/catlady.cat", "games/flapcat.cat")

PAGE_INTRO = """\
Rulebooks
=========

``catrules rules GAME --prose`` writes a rulebook in English from a game
file, for playtesters: the components (each card type with its counts, its
attributes and the cards' own descriptions; the zones and who sees them;
what the game keeps track of), the setup, the order of play and each phase,
the actions and what happens by itself, every choice with its conditions
(who chooses, among what, what must be chosen if possible, what is
suggested, the question asked), the definitions that decide things (how a
trick or a race is won), the end of the game, the scoring item by item, the
winner with its tie-breakers, and the options and variants.

It is generated, not written: nothing in the program knows a game. The
words are the game's own where the file has some (its title, the option
texts, the prompts, the cards' ``describe`` and ``show`` texts, and the
comments above a declaration or at the end of a step's line, given in
parentheses as explanations); the rest is phrased from the rules
themselves. An expression it has no words for is quoted as written, in
code, followed by "(as written)", and listed in the last section, "Quoted
as written". ``--format markdown`` writes Markdown with headings and
``--format html`` a web page (every text of the game escaped);
``--players N`` and ``--option NAME`` give the rulebook of one game, with
what they decide worked out (options not named are off). Without
``--prose``, ``catrules rules`` prints the outline summary
(:doc:`summaries`).

This page is generated by ``python -m catrules.cli.rules > docs/rulebook.rst``
from the three games below; a test checks that it is current.

"""


def _literal(text: str) -> str:
    return "\n".join(("   " + line) if line else "" for line in text.splitlines())


def docs_page(root) -> str:
    """The reST text of docs/rulebook.rst: ``catrules rules --help`` and the rulebooks of
    :data:`PAGE_GAMES` (in the repository at ``root``) as the command prints them."""
    from ..api import load_game
    from ..authoring.prose import prose
    from . import build_parser
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = "80"
    try:
        sub = build_parser()._subparsers._group_actions[0].choices["rules"]
        helptext = sub.format_help()
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old
    out = [PAGE_INTRO, "The command\n-----------\n\n::\n\n", _literal(helptext), "\n\n"]
    for rel in PAGE_GAMES:
        game = load_game(Path(root) / rel)
        title = f"{game.title}: ``catrules rules {rel} --prose``"
        out += [f"{title}\n{'-' * len(title)}\n\n::\n\n", _literal(prose(game, "text")), "\n\n"]
    return "".join(out).rstrip() + "\n"


if __name__ == "__main__":      # pragma: no cover - run by hand: writes docs/rulebook.rst's text
    sys.stdout.write(docs_page(Path(__file__).resolve().parents[2]))
