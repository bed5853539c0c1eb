"""The ``catrules balance`` command: the balance lab's report from the command line.

:func:`run` checks the arguments as ``catrules simulate`` does (players, options,
bots, ``--jobs``), runs :func:`catrules.lab.balance.balance` with a progress bar on a terminal,
writes the JSON and the HTML report (:mod:`catrules.lab.report`) and prints the
verdicts.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Optional

from .common import (FORMATTER, SEATS_HINT, Failure, UsageError, check_bot_specs, check_budget, chosen_options, err,
                     is_human, jobs, load, player_count, progress_bar, run_games, split_specs)


DESCRIPTION = """\
The balance lab: let bots play a game many times and measure how fair,
dramatic and skilful it is.  Writes an HTML report with plots (one file,
the plots inside it) and the same figures as JSON beside it, and prints
the verdicts in words:

  bots       greedy by default where they finish in reasonable time (about
             200,000 decisions of greedy play), else random: the report
             says which; seat specs that differ are played as given and
             rotated (each rotation equally often), with a warning when a
             seat effect vanishes with rotation (the bots explain it)
  fairness   each seat's win rate with its 95% interval (Wilson), a
             chi-square test that every seat wins equally, and the win rate
             of the first player against the fair share (an exact binomial
             test): the first to take a turn in the game's main loop (the
             loop of the flow where most choices are made), as the report
             says; the win rate and turns taken by turn position
  choices    per decision (its source line) and option: how often it is
             taken, the win rate of players who took it and who did not;
             a dominant choice is flagged
  scores     total scores per seat (mean, median, 5-95%) and each item of
             the score block
  length     decisions and choices per game
  drama      lead changes per game (the leader by the winner: block on the
             running score) and how often the leader at each fraction of the
             game wins, 2/3 in the verdict
  skill      --skill-games N more games where one greedy bot plays random
             bots, its seat turning: how often it wins, against its fair share
  --compare  the same games again with OPTION on (or NAME=VALUE for an
             option with values), or of OTHER.cat: every figure's change
             with its 95% interval
  --sweep    OPTION off and on, NAME=VALUE against the value otherwise
             played, NAME (an option with values) at every value, or
             --players 2,3,4: a response table (and a plot with --plot
             FILE.png)

Game i is the game i of `catrules simulate` with the same seed (the same
wins); the same arguments give the same JSON and HTML with any --jobs.
Needs matplotlib for the plots (pip install 'catrules[balance]'); with
--json-only, or without it, only the JSON is written.
"""

EPILOG = """\
examples:
  catrules balance games/mygame.cat --players 4 --games 10000 --jobs auto
  catrules balance games/mygame.cat --games 2000 --compare NAME -o compare.html
  catrules balance games/mygame.cat --compare games/mygame-v2.cat --bots random
  catrules balance games/mygame.cat --players 2,3,4 --json-only --plot sweep.png
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
    sp.add_argument("--players", metavar="N[,N...]", help="number of players (default: 4 if the game "
                                                           "allows it, else the nearest allowed); several: a sweep")
    sp.add_argument("--games", type=int, default=1000, metavar="N",
                    help="number of games (default: 1000; 10000 for intervals of about ±1 point)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the games (default: 1)")
    sp.add_argument("--bots", "--seats", dest="bots", metavar="SPEC[,SPEC...]",
                    help="one bot for every seat, or one per seat, as in `catrules simulate` (default: auto = "
                         "greedy where the run is small enough for it, else random)")
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="turn on a game option, or give one with values a value: rounds=4 (repeat, or "
                         "separate with commas; default: none, and each option's default value)")
    sp.add_argument("--compare", metavar="OPTION|NAME=VALUE|FILE",
                    help="play the same games with OPTION on (or at NAME=VALUE) too, or the same seeds of another game file "
                         "(.cat), and report every figure's change")
    sp.add_argument("--sweep", metavar="OPTION|NAME[=VALUE]",
                    help="play OPTION off and on (an option with values: at VALUE against the value "
                         "otherwise played, or at every value) and report a response table; "
                         "a sweep of player counts is --players 2,3,4")
    sp.add_argument("--plot", metavar="FILE.png", help="with a sweep: draw its response curves (needs matplotlib)")
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


def _players(game, raw) -> list:
    """``--players N`` or ``N,N,...`` (a sweep), each checked against the game."""
    if raw is None:
        return [player_count(game, None)]
    out = []
    for part in str(raw).split(","):
        part = part.strip()
        if not part.isdigit():
            raise UsageError(f"--players takes a number or numbers with commas, not {raw!r}", "e.g. --players 2,3,4")
        n = player_count(game, int(part))
        if n not in out:
            out.append(n)
    return out


def _compare(args, game, options) -> tuple:
    """``(option, other game)`` of ``--compare``: a game file when it names one (.cat or a file here)."""
    if args.compare is None:
        return None, None
    target = args.compare
    if target.endswith(".cat") or Path(target).is_file():
        return None, load(target)
    if target.partition("=")[0] in game.option_values:     # an option with values: rounds=4
        chosen_options(game, [target])                      # a value it offers, or the error in words
        return _valued(game, options, target, "--compare"), None
    named = chosen_options(game, [target])
    if len(named) != 1:
        raise UsageError("--compare takes one option or one game file", "compare one thing at a time")
    if named[0] in options:
        raise UsageError(f"--compare {named[0]} is also given with --option",
                         "the games are played without it and with it: leave it out of --option")
    return named[0], None


def _valued(game, options, target: str, flag: str) -> str:
    """``target`` (``rounds`` or ``rounds=4``), if the lab can compare or sweep it; else the error."""
    from ..lab.option_conditions import option_settings
    try:
        option_settings(game, options, target)
    except ValueError as exc:
        raise UsageError(f"{flag} {target}: {exc}", "compare or sweep a value the games are not played at") from None
    return target


def _sweep(args, game, options, counts: list) -> Optional[str]:
    if args.sweep is None:
        return None
    name = args.sweep.partition("=")[0]
    if name in game.option_values:          # an option with values: rounds (every value) or rounds=4
        if "=" in args.sweep:
            chosen_options(game, [args.sweep])
        return _valued(game, options, args.sweep, "--sweep")
    if "=" in args.sweep:
        raise UsageError(f"--sweep {args.sweep}: the options of a game are on or off, they take no values",
                         "give --sweep OPTION to play it off and on, or --players 2,3,4 for player counts")
    named = chosen_options(game, [args.sweep])
    if len(named) != 1 or named[0] in options:
        raise UsageError(f"--sweep takes one option that is not already on, not {args.sweep!r}",
                         "the games are played without it and with it")
    return named[0]


def run(args) -> int:
    from ..lab.balance import BalanceError, balance
    from ..lab.parallel import ParallelError
    game = load(args.game)
    counts = _players(game, args.players)
    players = counts[0]
    options = chosen_options(game, args.option)
    compare, other = _compare(args, game, options)
    sweep = _sweep(args, game, options, counts)
    if sum(x is not None for x in (compare, other, sweep)) + (len(counts) > 1) > 1:
        raise UsageError("compare or sweep one thing at a time",
                         "give one of --compare, --sweep and several --players")
    if args.plot and sweep is None and len(counts) < 2:
        raise UsageError("--plot draws a sweep", "give --sweep OPTION or --players 2,3,4 with it")
    bots = split_specs(args.bots) or ["auto"]
    if any(is_human(s) for s in bots):
        raise UsageError("the balance lab is played by bots only", SEATS_HINT)
    if bots != ["auto"]:
        check_bot_specs(bots)
    if len(bots) not in (1, players) or (len(bots) > 1 and len(counts) > 1):
        raise UsageError(f"{len(bots)} bots for {players} players", "give one bot for everyone or one per player")
    if args.games < 1:
        raise UsageError("--games must be 1 or more", "10,000 games give intervals of about ±1 point")
    if args.skill_games < 0:
        raise UsageError("--skill-games must be 0 or more", "0 leaves out the skill games")
    check_budget(args)
    html_path, json_path = _outputs(args, game)

    conditions = 2 if (compare or other or sweep or len(set(bots)) > 1) else len(counts)
    total = (args.games + args.skill_games) * conditions
    bar, progress = progress_bar("balance", total)
    result = run_games(bar, lambda: balance(
        game, players, args.games, args.seed, bots=bots[0] if len(bots) == 1 else bots, options=options,
        compare_option=compare, skill_games=args.skill_games, max_decisions=args.max_decisions,
        jobs=args.jobs, progress=progress, compare_game=other, sweep_option=sweep,
        sweep_players=counts if len(counts) > 1 else ()), (BalanceError, ParallelError))
    if result is None:
        return 130
    data = result.to_dict()
    data["path"] = args.game                # as the user named it: the report's command line
    print(_summary(data))
    if args.plot:
        from ..lab.report import ReportError, plot_sweep
        try:
            plot_sweep(data, args.plot)
            print(f"wrote {args.plot}")
        except ReportError as exc:
            err(f"{exc.message}: no plot written", exc.hint)
    return _write(args, data, html_path, json_path, result.elapsed)


def _summary(data: dict) -> str:
    bots = ", ".join(sorted(set(data["bots"])))
    opts = ", ".join(data["options"]) or "none"
    head = (f"{data['game']}: {data['games']:,} games, {data['players']} players, {bots} bots, "
            f"seed {data['seed']}, options: {opts}")
    if data["compare"]:
        head += f", compared with {data['compare']}"
    lines = textwrap.wrap(head, 80)
    if data.get("bots_note"):
        lines += textwrap.wrap("bots: " + data["bots_note"], 80)
    for v in data["verdicts"]:
        lines += textwrap.wrap(v, 80, initial_indent="- ", subsequent_indent="  ")
    if data.get("sweep"):
        from ..lab.report import sweep_text
        lines += ["", sweep_text(data)]
    if data.get("choices") and data["choices"][0]:
        from ..lab.report import choices_text
        lines += ["", choices_text(data["choices"][0])]
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
