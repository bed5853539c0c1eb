"""The ``catrules simulate`` command: bots play a game many times, and the sums of the games."""

from __future__ import annotations


from .common import (FORMATTER, SEATS_HINT, Failure, UsageError, check_bot_specs, check_budget, chosen_options,
                     is_human, jobs, load, player_count, print_result, progress_bar, run_games, split_specs,
                     viewer_index)

DESCRIPTION = """\
Let bots play a game many times and sum up the results: wins per seat
(a shared win counts for each winner), mean/min/max total score per seat,
decisions per game and games per second.  Game i uses the seed
SEED * 1000003 + i: the same arguments always give the same results (only
the timing lines differ), with --jobs N processes or on a --cluster too.
A progress bar goes to stderr when it is a terminal.
"""

EPILOG = """\
examples:
  catrules simulate games/mygame.cat --players 4 --games 1000 --seed 1
  catrules simulate games/mygame.cat --bots greedy,random,random,random
  catrules simulate games/mygame.cat --bots ismcts:500,greedy,greedy,greedy --games 20
  catrules simulate games/mygame.cat --bots greedy:look,greedy,random,random --rotate --games 400
  catrules simulate games/mygame.cat --option NAME --json > result.json
  catrules simulate games/mygame.cat --games 10 --log games.jsonl
  catrules simulate games/mygame.cat --games 10000 --jobs auto
  catrules simulate games/mygame.cat --games 10000 --cluster tcp://127.0.0.1:8786
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("simulate", help="let bots play many games and sum up", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--players", type=int, metavar="N", help="number of players (default: 4 if the game "
                                                             "allows it, else the nearest allowed)")
    sp.add_argument("--games", type=int, default=100, metavar="N", help="number of games (default: 100)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the simulation (default: 1)")
    sp.add_argument("--bots", "--seats", dest="bots", metavar="SPEC[,SPEC...]",
                    help="one bot for every seat, or one per seat: random, greedy, bot, bot:fast, greedy:0.8, "
                         "ismcts:500 (searching, 500 iterations a decision)... "
                         "(default: random; --seats, as in `catrules play`, is the same)")
    sp.add_argument("--rotate", action="store_true",
                    help="turn the seats one place each game, so that each bot of --bots plays each seat "
                         "equally often, and sum up per bot with 95%% intervals (give a multiple of the "
                         "players as --games for exactly equal seats)")
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="turn on a game option, or give one with values a value: rounds=4 (repeat, or separate "
                         "with commas; default: none, and each option's default value)")
    sp.add_argument("--json", action="store_true", help="print the result as JSON on stdout (no progress bar)")
    sp.add_argument("--log", metavar="FILE", help="write every game to one JSON Lines log (default: none)")
    sp.add_argument("--viewer", type=int, metavar="P",
                    help="with --log: write only what player P (from 1) may see in each game")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="stop a game that has not ended after N decisions and count it as unfinished "
                         "(default: 100,000)")
    sp.add_argument("--jobs", type=jobs, default=1, metavar="N",
                    help="play the games on N processes; 0 or auto = every core (default: 1); "
                         "the result is the same for every N")
    sp.add_argument("--cluster", metavar="ADDRESS",
                    help="play the games on the workers of a Dask scheduler, e.g. tcp://127.0.0.1:8786 "
                         "(needs pip install 'catrules[cluster]')")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..lab.parallel import ParallelError
    from ..lab.simulate import SimulationError, simulate
    game = load(args.game)
    players = player_count(game, args.players)
    options = chosen_options(game, args.option)
    bots = split_specs(args.bots) or ["random"]
    for s in bots:
        if is_human(s):
            raise UsageError("simulations are played by bots only", SEATS_HINT)
    check_bot_specs(bots, programs=True)
    if len(bots) == 1:
        seats = bots[0]
    elif len(bots) == players:
        seats = bots
    else:
        raise UsageError(f"{len(bots)} bots for {players} players", "give one bot for everyone or one per player")
    if args.games < 0:
        raise UsageError("--games must be 0 or more")
    if args.cluster is not None and args.jobs != 1:
        raise UsageError("give --jobs or --cluster, not both", "a cluster's workers are its own processes")
    check_budget(args)
    if args.rotate and len(set(bots)) < 2:
        raise UsageError("--rotate needs different bots to turn round the seats",
                         "give one bot per player, e.g. --bots greedy,random,random,random")

    bar, progress = progress_bar("simulating", args.games) if not args.json else (None, None)

    def play_games():
        try:
            return simulate(game, players, args.games, args.seed, seats=seats, options=options,
                            log_path=args.log, progress=progress, viewer=viewer_index(args, players),
                            max_decisions=args.max_decisions, jobs=args.jobs, cluster=args.cluster,
                            rotate=args.rotate)
        except OSError as exc:
            raise Failure(f"cannot write the log {args.log}: {exc.strerror or exc}") from None
    return print_result(run_games(bar, play_games, (SimulationError, ParallelError)), args.json)
