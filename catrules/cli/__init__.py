"""The ``catrules`` command: play, simulate, check, graph and replay game files.

Each command is a module here with ``add_parser(sub)`` (its options and help) and
``run(args) -> int``; what they share is in :mod:`catrules.cli.common`.  :func:`main`
parses the arguments and returns the exit code (0 fine, 1 the game or a file is at
fault, 2 a usage error, 130 interrupted).  Mistakes a user can make (a bad game file, a
missing file, an unknown option, a wrong seat spec, a damaged save) print a message and
a hint, never a Python traceback.
"""

from __future__ import annotations

import sys
from typing import Optional

from ..errors import CatrulesError, GameFileError, RulesError, nearest
from . import balance, check, docs, fmt, graph, ladder, lsp, new, play, replay, rules, serve, simulate
from .common import FORMATTER, Failure, Parser, UsageError, err, print_diagnostics

#: The commands, in the order ``catrules --help`` lists them.
COMMANDS = (play, simulate, balance, ladder, check, fmt, new, graph, rules, replay, lsp, serve, docs)

_DESCRIPTION = "Card games written as rules files: play them, simulate them, check them."

_EPILOG = """\
examples:
  catrules play games/mygame.cat                      you against 3 greedy bots
  catrules play games/mygame.cat --seats random,greedy,bot:fast
  catrules simulate games/mygame.cat --players 4 --games 1000 --seed 1
  catrules balance games/mygame.cat --players 4 --games 10000 --jobs auto
  catrules ladder games/mygame.cat --bots random,greedy,ismcts:200 --games 60
  catrules check games/mygame.cat
  catrules new "My Game"                              a small game to start from
  catrules graph games/mygame.cat --format mermaid -o mygame.mmd
  catrules rules games/mygame.cat -o mygame.md
  catrules replay game.jsonl
  catrules docs language                              the language reference

exit codes: 0 ok, 1 a game file, save or log is at fault, 2 usage error,
130 interrupted (Ctrl-C).  `catrules COMMAND --help` tells more.
"""


def build_parser() -> Parser:
    """The command line's parser: ``--version`` and a sub-command from each of :data:`COMMANDS`."""
    from .. import __version__
    from ..lang.parser import LANGUAGE_VERSION
    p = Parser(prog="catrules", formatter_class=FORMATTER, description=_DESCRIPTION, epilog=_EPILOG)
    p.add_argument("--version", action="version",
                   version=f"catrules {__version__} (language version {LANGUAGE_VERSION})")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    for command in COMMANDS:
        command.add_parser(sub)
    return p


def main(argv: Optional[list] = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    if extra:
        return _unknown_arguments(parser, getattr(args, "command", None), extra)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except UsageError as exc:
        err(str(exc), exc.hint)
        return 2
    except Failure as exc:
        err(str(exc), exc.hint)
        return 1
    except GameFileError as exc:
        print_diagnostics(exc)
        return 1
    except RulesError as exc:
        err(f"the game stopped: {exc}", "" if exc.hint else "this is a problem in the game file")
        return 1
    except CatrulesError as exc:
        err(str(exc))
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        err("interrupted")
        return 130
    except BrokenPipeError:
        return 1


#: Options people carry over from another command (``simulate --bots``, ``play --seats``) or tool.
_SAME_AS = {"--bots": ("--seats",), "--seats": ("--bots",), "--num-games": ("--games",), "--n": ("--games",),
            "--workers": ("--jobs",), "--processes": ("--jobs",), "--variant": ("--option",),
            "--options": ("--option",), "--output": ("-o",), "--out": ("-o",)}


def _unknown_arguments(parser: Parser, command, extra: list) -> int:
    """Arguments no option of the command takes: said as argparse says it, with the option
    probably meant (the same option under the name another command gives it, or the nearest)."""
    sub = parser._subparsers._group_actions[0].choices.get(command) if command else None
    target = sub or parser
    options = sorted({o for a in target._actions for o in a.option_strings})
    meant = []
    for word in extra:
        name = word.split("=", 1)[0]
        if not name.startswith("-"):
            continue
        near = next((o for o in _SAME_AS.get(name, ()) if o in options), None) or nearest(name, options)
        if near:
            meant.append(f"`{near}` for `{name}`")
    target.print_usage(sys.stderr)
    hint = f"`{target.prog} --help` explains every option"
    err(f"unrecognized arguments: {' '.join(extra)}",
        (f"did you mean {', '.join(meant)}? " if meant else "") + hint)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
