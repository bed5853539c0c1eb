"""The words of the ``catrules`` command: every sub-command, its options and its help.

:func:`build_parser` builds the :mod:`argparse` parser that :func:`catrules.cli.main` uses;
the commands themselves are in :mod:`catrules.cli` and :mod:`catrules.cli.play` (``play``),
the web server's in :mod:`catrules.cli.serve`.
"""

from __future__ import annotations

import argparse

from .. import __version__
from . import (HANDICAP_MAX, Parser, _jobs, cmd_check, cmd_fmt, cmd_graph, cmd_lsp, cmd_new, cmd_replay, cmd_rules, cmd_simulate)


_MAIN_EPILOG = """\
examples:
  catrules play games/mygame.cat                      you against 3 greedy bots
  catrules play games/mygame.cat --seats random,greedy,bot:fast
  catrules simulate games/mygame.cat --players 4 --games 1000 --seed 1
  catrules balance games/mygame.cat --players 4 --games 10000 --jobs auto
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
  catrules simulate games/mygame.cat --bots ismcts:500,greedy,greedy,greedy --games 20
  catrules simulate games/mygame.cat --option NAME --json > result.json
  catrules simulate games/mygame.cat --games 10 --log games.jsonl
  catrules simulate games/mygame.cat --games 10000 --jobs auto
  catrules simulate games/mygame.cat --games 10000 --cluster tcp://127.0.0.1:8786
"""

_BALANCE_DESC = """\
The balance lab: let bots play a game many times and measure how fair,
dramatic and skilful it is.  Writes an HTML report with plots (one file,
the plots inside it) and the same figures as JSON beside it, and prints
the verdicts in words:

  fairness   each seat's win rate with its 95% interval (Wilson), a
             chi-square test that every seat wins equally, and the win rate
             of the first player (who makes the first choice) against the
             fair share (an exact binomial test)
  scores     total scores per seat (mean, median, 5-95%) and each item of
             the score block
  length     decisions and choices per game
  drama      lead changes per game (the leader by the winner: block on the
             running score) and how often the leader at each fraction of the
             game wins, 2/3 in the verdict
  skill      --skill-games N more games where one greedy bot plays random
             bots, its seat turning: how often it wins, against its fair share
  --compare  the same games again with OPTION on: every figure's change
             with its 95% interval

Game i is the game i of `catrules simulate` with the same seed (the same
wins); the same arguments give the same JSON and HTML with any --jobs.
Needs matplotlib for the plots (pip install 'catrules[balance]'); with
--json-only, or without it, only the JSON is written.
"""

_BALANCE_EPILOG = """\
examples:
  catrules balance games/mygame.cat --players 4 --games 10000 --jobs auto
  catrules balance games/mygame.cat --games 2000 --compare NAME -o compare.html
  catrules balance games/mygame.cat --bots greedy --games 500 --skill-games 0
  catrules balance games/mygame.cat --games 10000 --json-only -o mygame.html
  catrules balance games/mygame.cat --figures plots/    the plots as PNG files too

verdicts: `likely unfair` when a seat's (or the first player's) win rate
differs from the fair share with p < 0.01 by at least a tenth of that share;
`decided early` when the leader at two thirds wins 90% or more; the skill
index is (win rate - fair share) / (1 - fair share): 0 pure luck, 1 the
better bot always wins.  See the documentation, "The balance lab".
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
    from ..lang.parser import LANGUAGE_VERSION
    p.add_argument("--version", action="version",
                   version=f"catrules {__version__} (language version {LANGUAGE_VERSION})")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    from .play import cmd_play     # here, not at the top: cli_play uses this module's helpers

    sp = sub.add_parser("play", help="play a game at this terminal", description=_PLAY_DESC,
                        epilog=_PLAY_EPILOG, formatter_class=fmt)
    sp.add_argument("game", nargs="?", metavar="GAME", help="the game file (.cat); optional with --resume")
    sp.add_argument("--players", type=int, metavar="N",
                    help="number of players (default: the number of --seats, else 4 if the game allows it)")
    sp.add_argument("--seats", metavar="S,S,...",
                    help="who plays each seat, in order: human, random, greedy, bot, bot:fast, random:slow, "
                         "greedy:0.8 (a bot's median race time in seconds), ismcts, ismcts:2000 (a searching "
                         "bot and its iterations per decision), ismcts:1s... "
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
    sp.add_argument("--bots", "--seats", dest="bots", metavar="SPEC[,SPEC...]",
                    help="one bot for every seat, or one per seat: random, greedy, bot, bot:fast, greedy:0.8, "
                         "ismcts:500 (searching, 500 iterations a decision)... "
                         "(default: random; --seats, as in `catrules play`, is the same)")
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

    from .balance import cmd_balance
    sp = sub.add_parser("balance", help="measure fairness, drama and skill; an HTML report with plots",
                        description=_BALANCE_DESC, epilog=_BALANCE_EPILOG, formatter_class=fmt)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--players", type=int, metavar="N", help="number of players (default: 4 if the game "
                                                             "allows it, else the nearest allowed)")
    sp.add_argument("--games", type=int, default=1000, metavar="N",
                    help="number of games (default: 1000; 10000 for intervals of about ±1 point)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the games (default: 1)")
    sp.add_argument("--bots", "--seats", dest="bots", metavar="SPEC[,SPEC...]",
                    help="one bot for every seat, or one per seat, as in `catrules simulate` (default: random)")
    sp.add_argument("--option", action="append", metavar="NAME",
                    help="turn on a game option (repeat, or separate with commas; default: none)")
    sp.add_argument("--compare", metavar="OPTION",
                    help="play the same games with OPTION on too and report every figure's change")
    sp.add_argument("--skill-games", type=int, default=200, metavar="N",
                    help="games of one greedy bot against random bots, its seat turning (default: 200; "
                         "0 = none); greedy bots are slow, tens of times slower than random ones")
    sp.add_argument("-o", "--output", metavar="FILE",
                    help="the HTML report (default: GAME-balance.html here); the JSON goes beside it, .json")
    sp.add_argument("--figures", metavar="DIR", help="write each plot as a PNG file in DIR too")
    sp.add_argument("--json-only", action="store_true", help="write the JSON only (no plots, no matplotlib)")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="stop a game that has not ended after N decisions and leave it out (default: 100,000)")
    sp.add_argument("--jobs", type=_jobs, default=1, metavar="N",
                    help="play the games on N processes; 0 or auto = every core (default: 1); "
                         "the report is the same for every N")
    sp.set_defaults(func=cmd_balance)

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

    from .serve import add_parser as add_serve     # the web server (catrules/web/)
    add_serve(sub)
    return p
