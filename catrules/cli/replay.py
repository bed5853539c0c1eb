"""The ``catrules replay`` command: a log played again and compared, event by event."""

from __future__ import annotations

from pathlib import Path

from .common import FORMATTER, Failure

DESCRIPTION = """\
Play every game of a full log again (from its game file, players, options,
seed and recorded decisions) and compare it, event by event, with the log.
Prints `replayed N decisions: same game`, or the first difference.  Exit
code 0 when the log replays exactly, 1 otherwise.

The game file is the one the log names, read only if (symbolic links
resolved) it is a regular .cat file in the log's folder or below it, or in
the current folder or below it; else name it yourself with --game FILE.
"""

EPILOG = """\
examples:
  catrules play games/mygame.cat --seats random,random,random --seed 3 --log game.jsonl
  catrules replay game.jsonl
  catrules replay game.jsonl --game games/mygame.cat
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("replay", help="replay a log and check it gives the same game",
                        description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("log", metavar="LOG", help="a log written with --log")
    sp.add_argument("--game", metavar="FILE", help="the game file to replay the log with (default: the one "
                                                    "the log names, if it lies beside the log or here)")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..play.logs import LogError, read_log
    from ..play.replay import replay
    if args.game is not None and not Path(args.game).is_file():
        raise Failure(f"no such game file: {args.game}", "give the game file the log was written with")
    try:
        games = read_log(args.log)
        report = replay(args.log, args.game)
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
