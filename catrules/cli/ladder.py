"""The ``catrules ladder`` command: bots play a game in rotated seatings, rated by Bradley–Terry."""

from __future__ import annotations


from .common import (FORMATTER, SEATS_HINT, UsageError, check_budget, chosen_options, is_human, jobs,
                     load, player_count, print_result, progress_bar, run_games, split_specs)

DESCRIPTION = """\
Rate bots on a game: the bots play it in rotated seatings (each deal is
played once per bot, every bot in every seat once; with more seats than bots
a bot takes several seats), and every game's final ranking gives pairwise
results between the seats of different bots (a tie counts 1/2).  The table
gives each bot's win share, its pairwise share, its Bradley-Terry rating
(log-strength, mean 0), the same in Elo points (x 400/ln 10) and a 95%
interval from 200 bootstrap resamples of the games, then each bot's rating
over the next one down with its own interval (a gap whose interval stays
above 0 says the order holds).  Deal d uses the seed
SEED * 1000003 + d: the same arguments give the same table for every
--jobs (the searching bot's seconds, ismcts:0.2s, are seconds of work: counted,
not timed).  A progress bar goes to
stderr when it is a terminal.
"""

EPILOG = """\
examples:
  catrules ladder games/mygame.cat --bots random,greedy --games 200
  catrules ladder games/mygame.cat --bots random,greedy,ismcts:100,ismcts:400 --games 40
  catrules ladder games/mygame.cat --bots random,greedy,ismcts:0.2s,ismcts:1s --jobs auto
  catrules ladder games/mygame.cat --bots random,greedy --json > ladder.json
"""

BOTS_HINT = ("give two bots or more, separated by commas: random, greedy, bot:fast, ismcts:200 "
             "(iterations a decision), ismcts:1s (seconds a decision)...")


def add_parser(sub) -> None:
    sp = sub.add_parser("ladder", help="rate bots on a game: Bradley-Terry/Elo ratings", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--bots", "--seats", dest="bots", metavar="SPEC,SPEC[,...]", default="random,greedy",
                    help="the bots to rate, each once, as seat specs of `simulate` (default: random,greedy)")
    sp.add_argument("--players", type=int, metavar="N", help="number of players (default: 4 if the game "
                                                             "allows it, else the nearest allowed)")
    sp.add_argument("--games", type=int, default=100, metavar="N",
                    help="number of games (default: 100; a multiple of the number of bots keeps the seats "
                         "in balance)")
    sp.add_argument("--seed", type=int, default=1, metavar="N", help="seed of the ladder (default: 1)")
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="turn on a game option, or give one with values a value: rounds=4 (repeat, or separate "
                         "with commas; default: none, and each option's default value)")
    sp.add_argument("--json", action="store_true", help="print the result as JSON on stdout (no progress bar)")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="stop a game that has not ended after N decisions and leave it out (default: 100,000)")
    sp.add_argument("--jobs", type=jobs, default=1, metavar="N",
                    help="play the games on N processes; 0 or auto = every core (default: 1); "
                         "the result is the same for every N")
    sp.set_defaults(func=run)


def bot_specs(text: str) -> list:
    """``--bots`` as a list of bot specs, checked (a :class:`UsageError` saying which is wrong)."""
    from ..errors import CatrulesError
    from ..lab.ladder import check_specs
    specs = split_specs(text)
    for s in specs:
        if is_human(s):
            raise UsageError(f"the ladder rates bots: {s!r} is a human seat", BOTS_HINT)
    try:
        return check_specs(specs)
    except (ValueError, CatrulesError) as exc:
        message = str(exc).split("; valid")[0]
        raise UsageError(message, SEATS_HINT if "seat spec" in message else BOTS_HINT) from None


def run(args) -> int:
    from ..lab.ladder import LadderError, ladder
    from ..lab.parallel import ParallelError
    game = load(args.game)
    players = player_count(game, args.players)
    options = chosen_options(game, args.option)
    specs = bot_specs(args.bots)
    if args.games < 1:
        raise UsageError("--games must be 1 or more", f"a multiple of {len(specs)} keeps the seats in balance")
    check_budget(args)
    bar, progress = progress_bar("ladder games", args.games) if not args.json else (None, None)

    def play_games():
        return ladder(game, players, specs, args.games, args.seed, options=options,
                      max_decisions=args.max_decisions, jobs=args.jobs, progress=progress)
    return print_result(run_games(bar, play_games, (LadderError, ParallelError)), args.json)
