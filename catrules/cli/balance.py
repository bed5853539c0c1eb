"""The ``catrules balance`` command: the balance lab's report from the command line.

:func:`run` checks the arguments as ``catrules simulate`` does (players, options,
bots, ``--jobs``), runs :func:`catrules.lab.balance.balance` with a progress bar on a terminal,
writes the JSON and the HTML report (:mod:`catrules.lab.report`) and prints the
verdicts.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from .common import (FORMATTER, SEATS_HINT, Failure, UsageError, check_bot_specs, check_budget, chosen_options, err,
                     is_human, jobs, load, player_count, progress_bar, run_games, split_specs)


DESCRIPTION = """\
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

EPILOG = """\
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


def add_parser(sub) -> None:
    sp = sub.add_parser("balance", help="measure fairness, drama and skill; an HTML report with plots",
                        description=DESCRIPTION, epilog=EPILOG, formatter_class=FORMATTER)
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
    sp.add_argument("--jobs", type=jobs, default=1, metavar="N",
                    help="play the games on N processes; 0 or auto = every core (default: 1); "
                         "the report is the same for every N")
    sp.set_defaults(func=run)


def _outputs(args, game) -> tuple:
    """``(html, json)`` paths: ``--output`` (default ``<game>-balance.html`` here) and the JSON beside it."""
    html = Path(args.output) if args.output else Path(f"{Path(args.game).stem}-balance.html")
    if html.suffix.lower() == ".json":
        raise UsageError(f"--output {html} names the HTML report", "the JSON is written beside it, with .json")
    return html, html.with_suffix(".json")


def run(args) -> int:
    from ..lab.balance import BalanceError, balance
    from ..lab.parallel import ParallelError
    game = load(args.game)
    players = player_count(game, args.players)
    options = chosen_options(game, args.option)
    compare = None
    if args.compare is not None:
        named = chosen_options(game, [args.compare])
        if len(named) != 1:
            raise UsageError("--compare takes one option", "compare one option at a time")
        compare = named[0]
        if compare in options:
            raise UsageError(f"--compare {compare} is also given with --option",
                             "the games are played without it and with it: leave it out of --option")
    bots = split_specs(args.bots) or ["random"]
    if any(is_human(s) for s in bots):
        raise UsageError("the balance lab is played by bots only", SEATS_HINT)
    check_bot_specs(bots)
    if len(bots) not in (1, players):
        raise UsageError(f"{len(bots)} bots for {players} players", "give one bot for everyone or one per player")
    if args.games < 1:
        raise UsageError("--games must be 1 or more", "10,000 games give intervals of about ±1 point")
    if args.skill_games < 0:
        raise UsageError("--skill-games must be 0 or more", "0 leaves out the skill games")
    check_budget(args)
    html_path, json_path = _outputs(args, game)

    total = (args.games + args.skill_games) * (2 if compare else 1)
    bar, progress = progress_bar("balance", total)
    result = run_games(bar, lambda: balance(
        game, players, args.games, args.seed, bots=bots[0] if len(bots) == 1 else bots, options=options,
        compare_option=compare, skill_games=args.skill_games, max_decisions=args.max_decisions,
        jobs=args.jobs, progress=progress), (BalanceError, ParallelError))
    if result is None:
        return 130
    data = result.to_dict()
    data["path"] = args.game                # as the user named it: the report's command line
    print(_summary(data))
    return _write(args, data, html_path, json_path, result.elapsed)


def _summary(data: dict) -> str:
    bots = ", ".join(sorted(set(data["bots"])))
    opts = ", ".join(data["options"]) or "none"
    head = (f"{data['game']}: {data['games']:,} games, {data['players']} players, {bots} bots, "
            f"seed {data['seed']}, options: {opts}")
    if data["compare"]:
        head += f", compared with {data['compare']}"
    lines = textwrap.wrap(head, 80)
    for v in data["verdicts"]:
        lines += textwrap.wrap(v, 80, initial_indent="- ", subsequent_indent="  ")
    return "\n".join(lines)


def _write(args, data: dict, html_path: Path, json_path: Path, elapsed: float) -> int:
    from ..lab.report import ReportError, to_json, write_report
    try:
        if args.json_only:
            json_path.write_text(to_json(data), encoding="utf-8")
            written = [str(json_path)]
        else:
            written = write_report(data, html_path, json_path, args.figures)
    except ReportError as exc:
        err(f"{exc.message}: wrote {json_path} only", exc.hint + "; or give --json-only")
        return 1
    except OSError as exc:
        raise Failure(f"cannot write {exc.filename or html_path}: {exc.strerror or exc}",
                      "give a file in a folder you can write to with --output") from None
    print("wrote " + ", ".join(written[:2]) + (f" and {len(written) - 2} PNG files" if len(written) > 2 else ""))
    print(f"time: {elapsed:.1f} s")
    return 0
