"""The ``catrules replay`` command: a log played again and compared, event by event."""

from __future__ import annotations

from .common import FORMATTER, Failure

DESCRIPTION = """\
Play every game of a full log again (from its game file, players, options,
seed and recorded decisions) and compare it, event by event, with the log.
Prints `replayed N decisions: same game`, or the first difference.  Exit
code 0 when the log replays exactly, 1 otherwise.
"""

EPILOG = """\
examples:
  catrules play games/mygame.cat --seats random,random,random --seed 3 --log game.jsonl
  catrules replay game.jsonl
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("replay", help="replay a log and check it gives the same game",
                        description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("log", metavar="LOG", help="a log written with --log")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..play.logs import LogError, read_log
    from ..play.replay import replay
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
