"""The ``catrules play`` command: seats, the table, and saving and resuming a game.

:func:`run` puts a person (the full-screen table, or the line interface
with ``--plain`` or without a terminal) or a bot at each seat, plays the game
to its end, and on Ctrl-C, ``q`` or end of input saves it to a file that
``--resume`` continues exactly.  The save-file helpers are here too: reading a
save and the game file it names, choosing a free save name (another game's
save is never overwritten without asking), and how many decisions each player
has made.  The helpers the commands share are in :mod:`catrules.cli.common`.
"""

from __future__ import annotations

import gc
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..errors import CatrulesError, OverBudget, RulesError, SaveError
from ..limits import NUMBER_LIMIT
from ..play.pace import DEFAULT_LEVEL, LEVELS
from ..play.validate import Int, Invalid, Items, Maybe, Record, Text, check
from .common import (FORMATTER, SEATS_HINT, Failure, UsageError, check_bot_specs, check_budget, chosen_options, err,
                     is_human, load, player_count, split_specs, viewer_index)

#: Set to 1 to skip the terminal check of ``catrules play`` (for scripted tests of a human seat).
FORCE_TTY_ENV = "CATRULES_FORCE_TTY"
NO_TTY_MESSAGE = ("catrules play needs a terminal for the human seat; "
                  "use --seats random,greedy,... to watch bots")
#: The largest --handicap, in seconds (more would let a person win every race without looking).
HANDICAP_MAX = 2.0

DESCRIPTION = """\
Play a game file at this terminal, one seat per player.

A person (seat `human`) sees only what their player may see: their own
cards, the open zones, how many cards the hidden ones hold, the counters,
and what happened.  At a terminal this is a full-screen table (80x24 is
enough): a number or the arrows and Enter choose, Enter alone takes the
default option (marked *), in a race the number alone answers (the time
counts; --handicap SECONDS takes that much off it, a head start against
bots); i inspects a card, h shows the history, r how to play the game, ?
the keys, q saves and quits.  A race starts with a count-in (3-2-1) and its
clock with the options on the screen; h, i, r or ? during a race pause its
clock.  To read how to play before a game: `catrules rules GAME --prose`
(its first section is the game's own "how to play" text).  Bots race
at your own pace (your recent race times), at the --race-level you choose:
easy (you win more than your share), even (your share), hard (less).  --plain (or a screen
that is not a terminal, such as a pipe, or TERM=dumb) gives the line-by-line interface: type
a number and Enter, ? shows the table again.  A human seat needs the keyboard to be a terminal;
a program takes a seat with cmd:COMMAND (docs/protocol.rst).

Ctrl-C or end of input saves the game to <game>-<seed>.save.json in the
current directory (or --save FILE; another save is never overwritten
without asking); --resume continues it exactly, and the save is removed
when the game ends.  Without a human seat the public events of the game
are printed, then the scores.  A human seat needs a terminal (the test
suite sets the environment variable CATRULES_FORCE_TTY=1 to skip that check).
"""

EPILOG = """\
examples:
  catrules play games/mygame.cat
  catrules play games/mygame.cat --players 3 --seed 7 --option NAME
  catrules play games/mygame.cat --seats human,bot:fast,random --log game.jsonl
  catrules play games/mygame.cat --seats human,greedy:0.8 --handicap 0.2
  catrules play games/mygame.cat --race-level easy
  catrules play games/mygame.cat --seats random,random,random --quiet
  catrules play --resume mygame-7.save.json

exit codes: 0 game over (or saved with q), 1 end of input (saved) or a bad
file, 2 usage error or no terminal for a human seat, 130 Ctrl-C (saved).
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("play", help="play a game at this terminal", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
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
    sp.add_argument("--option", action="append", metavar="NAME[=VALUE]",
                    help="turn on a game option, or give one with values a value: rounds=4 (repeat, or separate "
                         "with commas; default: none, and each option's default value)")
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
    sp.add_argument("--race-level", choices=list(LEVELS), metavar="LEVEL",
                    help="how quick bots are in races against people, at your own pace: easy (you win "
                         "about 1.5 times your share), even (your share: the default), hard (half "
                         "of it); a resumed game keeps its own")
    sp.add_argument("--max-decisions", type=int, metavar="N",
                    help="with bots only: stop a game that has not ended after N decisions "
                         "(default: 100,000)")
    sp.add_argument("--plain", action="store_true",
                    help="the line-by-line interface (for screen readers; the default when the output "
                         "is not a terminal or TERM=dumb) instead of the full-screen table")
    sp.set_defaults(func=run)


def run(args) -> int:
    # A start allocates much and frees little (modules, the game): the collector's passes then
    # are wasted time before the first prompt; it runs again once the game is being played.
    was = gc.isenabled()
    gc.disable()
    try:
        return _play(args)
    finally:
        if was:
            gc.enable()


@dataclass
class _Setup:
    """The game to play, as the command line says (and the save, for ``--resume``)."""
    game: object
    players: int
    specs: list             # a seat spec per player
    options: list
    seed: int
    handicap: float
    race_level: str = DEFAULT_LEVEL
    state: object = None    # a resumed game's; a new game's is dealt once its seats are made
    resume: Optional[dict] = None       # the save resumed
    save_file: Optional[str] = None     # and its file
    cli: dict = field(default_factory=dict)     # the save's record of its command line


def _play(args) -> int:
    """Seat the players, play the game to its end (or save it when stopped); the exit code."""
    from rich.console import Console

    from ..frontends.terminal import Quit

    check_budget(args)
    setup = _resumed_game(args) if args.resume else _new_game(args)
    check_bot_specs(setup.specs, programs=True)
    humans = [i for i, s in enumerate(setup.specs) if is_human(s)]
    if humans and not _has_tty():
        err(NO_TTY_MESSAGE)
        return 2

    game = setup.game
    console = Console(highlight=False, emoji=False)    # game texts are data: no :name: emoji
    names = [("you" if len(humans) == 1 else "human") if is_human(s) else s for s in setup.specs]
    # the full-screen table needs a real terminal both ways; pipes and --plain get the line UI
    full_screen = bool(humans) and not args.plain and _real_terminal()
    seats = _make_seats(setup.specs, game, console, names, full_screen, _decisions_done(setup.cli, setup.state))
    for i in humans:
        seats[i].handicap = setup.handicap
    match = _start_match(setup, seats, ask_forced=bool(humans))

    # A save never chooses where a file is written: a resumed game logs only to a --log given now.
    log_path = args.log
    save_path = args.save or args.resume or f"{Path(game.path).stem}-{setup.seed}.save.json"
    _say_head(console, setup, names, log_path)
    spectator = None if humans else _spectator(console, game, match, names, args.quiet)
    writer = None
    if log_path:
        writer = _open_log(log_path, game, match.state, setup.specs, match, viewer_index(args, setup.players))

    extra = {"cli": {"seats": setup.specs, "log": str(Path(log_path).resolve()) if log_path else None,
                     "game_abs": str(Path(game.path).resolve()), "players": setup.players,
                     "options": setup.options, "handicap": setup.handicap}}
    if not full_screen:
        gc.enable()         # (the full-screen table turns it on once its first frame is drawn)
    try:
        _run_match(match, seats, full_screen, humans, spectator, args.max_decisions,
                   f"{game.title} · seed {setup.seed}")
    except OverBudget as exc:
        if writer is not None:
            writer.close()
        if exc.no_way_out is not None:
            raise Failure(f"{exc}, so it was stopped at once",
                          "add `stop` or `end game` where the game should end") from None
        raise Failure(f"{exc}: the game was stopped, unfinished (a game that never ends?)",
                      "see how the game ends (`catrules check` warns of a loop with no way out); "
                      "--max-decisions N sets the budget of a game played by bots") from None
    except (KeyboardInterrupt, EOFError, Quit) as exc:
        if writer is not None:
            writer.close()
        return _save(match, save_path, setup.save_file, extra, exc)
    if writer is not None:
        writer.close()
    _finish(console, setup, match, spectator, humans[0] if full_screen else None, names)
    if log_path:
        console.print(f"log written to {log_path}", style="dim", markup=False)
    return 0


def _new_game(args) -> _Setup:
    """A new game: its players, seats, options, seed and handicap from the command line."""
    if not args.game:
        raise UsageError("which game? give a game file, or --resume a save file",
                         "e.g. catrules play games/mygame.cat")
    game = load(args.game)
    specs = split_specs(args.seats)
    if specs is not None and args.players is None:
        players = player_count(game, len(specs))
    else:
        players = player_count(game, args.players)
    if specs is None:
        specs = ["human"] + ["greedy"] * (players - 1)
    if len(specs) > players:
        raise UsageError(f"{len(specs)} seats for {players} players", "give one seat per player")
    specs = specs + ["greedy"] * (players - len(specs))
    options = chosen_options(game, args.option)
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    handicap = _handicap(args.handicap if args.handicap is not None else 0)
    return _Setup(game, players, specs, options, seed, handicap, args.race_level or DEFAULT_LEVEL)


def _resumed_game(args) -> _Setup:
    """A saved game: its game file (checked against the save), state, players, options and seed;
    the seats and handicap are the save's unless the command line gives others."""
    from ..play.match import Match
    resume = _read_save(args.resume)
    cli = resume.get("cli")
    if not isinstance(cli, dict):
        cli = {}
    game = load(args.game) if args.game else _saved_game(resume, args.resume)
    try:
        Match.check_save_game(game, resume)
    except SaveError as exc:
        if not args.force:
            raise Failure(f"cannot resume {args.resume}: {exc}",
                          "resume it with the game file it was saved with; or, if you changed that file "
                          "and know the change fits the saved game, add --force") from None
        print(f"note: {exc}; resumed anyway (--force)", file=sys.stderr)
    try:
        state = game.restore(resume["state"])
    except (CatrulesError, KeyError, TypeError, ValueError, IndexError) as exc:
        raise Failure(f"cannot resume {args.resume}: {exc}",
                      "the save file does not fit this game file (was the game file changed?)") from None
    players = state.n
    if args.players is not None and args.players != players:
        raise UsageError(f"the saved game has {players} players, not {args.players}",
                         "leave out --players when resuming")
    saved_seats = cli.get("seats")
    if not (isinstance(saved_seats, list) and all(isinstance(x, str) for x in saved_seats)):
        saved_seats = []
    specs = split_specs(args.seats) or list(saved_seats)
    if len(specs) != players:
        raise UsageError(f"{len(specs)} seats for the saved game's {players} players", SEATS_HINT)
    level = args.race_level or resume.get("race_level", DEFAULT_LEVEL)
    if not isinstance(level, str) or level not in LEVELS:
        raise Failure(f"{args.resume} is damaged: its race level is not one of {', '.join(LEVELS)}",
                      "give one: --race-level even")
    return _Setup(game, players, specs, list(state.options), state.seed, _resumed_handicap(args, cli),
                  level, state, resume, args.resume, cli)


def _resumed_handicap(args, cli: dict) -> float:
    """``--handicap``, else the save's own (a damaged one fails as the save's fault)."""
    try:
        return _handicap(args.handicap if args.handicap is not None else cli.get("handicap", 0))
    except UsageError:
        if args.handicap is not None:
            raise
        raise Failure(f"{args.resume} is damaged: its handicap is not a number of seconds from 0 to "
                      f"{HANDICAP_MAX:g}", "give one: --handicap SECONDS (0 for none)") from None


def _start_match(setup: _Setup, seats: list, ask_forced: bool):
    """The :class:`~catrules.play.match.Match` of the seats: the saved game resumed, or a new deal."""
    from ..play.match import Match
    if setup.resume is not None:
        return Match.resume(setup.game, setup.resume, seats, state=setup.state, race_level=setup.race_level)
    try:
        # a person at the table: forced choices are asked too (their timing says nothing)
        state = setup.game.new_state(setup.players, seed=setup.seed, options=setup.options, log=True,
                                     ask_forced=ask_forced)
    except RulesError:
        raise
    except CatrulesError as exc:
        raise UsageError(str(exc)) from None
    return Match(setup.game, state, seats, race_level=setup.race_level)


def _say_head(console, setup: _Setup, names: list, log_path: Optional[str]) -> None:
    """The first line: the game, its players, seed, options and seats (and where a resumed game was logged)."""
    from ..frontends.pieces import plain
    head = (f"{setup.game.title}: {setup.players} players, seed {setup.seed}, "
            f"options: {', '.join(setup.options) or 'none'}; "
            "seats: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(names)))
    resumed = setup.resume is not None
    console.print(plain(("Resumed " if resumed else "") + head), style="dim", markup=False)
    if resumed and log_path is None and isinstance(setup.cli.get("log"), str):
        console.print(f"(the game was logged to {plain(setup.cli['log'])}; resume with --log FILE to log it again)",
                      style="dim", markup=False)


def _spectator(console, game, match, names: list, quiet: bool):
    """Without a person at the table, the public events are printed as the bots play."""
    from ..frontends.terminal import Spectator
    from ..play.match import visible_event
    spectator = Spectator(console, game, names, quiet=quiet)
    match.on_event = lambda ev: spectator.event(visible_event(match.state, ev, None))
    return spectator


def _run_match(match, seats: list, full_screen: bool, humans: list, spectator, max_decisions, title: str) -> None:
    """Play the game to its end: at the full-screen table, the line interface, or bots alone."""
    if full_screen:
        from ..frontends.tui import run_tui
        run_tui(match, [s for s in seats if getattr(s, "interactive", False)], title)
    elif humans:
        match.run(spectator.flush if spectator is not None else None)
    else:
        _run_bots(match, spectator, max_decisions)


def _save(match, save_path: str, resumed_from: Optional[str], extra: dict, stop: BaseException) -> int:
    """The game stopped before its end (Ctrl-C, ``q``, end of input): save it; the exit code."""
    from ..frontends.terminal import Quit
    # a resumed game's decisions are numbered on from here
    extra["cli"]["decisions"] = _decisions_done({}, match.state)
    save_path, note = _save_target(save_path, resumed_from)
    try:
        match.save(save_path, extra=extra)
    except OSError as exc:
        print()
        err(f"the game could not be saved to {save_path}: {exc.strerror or exc}",
            "use --save FILE with a place you can write to")
        return 1
    print()
    if note:
        print(note)
    msg = f"Game saved to {save_path}. Resume with: catrules play --resume {save_path}"
    print(msg if len(msg) <= 80 else msg.replace(". Resume with:", ".\nResume with:", 1))
    if isinstance(stop, KeyboardInterrupt):
        return 130
    return 0 if isinstance(stop, Quit) else 1


def _finish(console, setup: _Setup, match, spectator, full_screen_player: Optional[int], names: list) -> None:
    """The game is over: the scores (kept on the terminal after the full screen); a resumed
    game's save file is removed."""
    state = match.state
    if spectator is not None:
        spectator.finish(state.scores(), state.winners())
    if full_screen_player is not None and state.finished:
        # the full screen is gone: the final score stays in the terminal
        from ..frontends.terminal import Painter, score_notes, score_table, winners_line
        painter = Painter(setup.game, full_screen_player, names)
        console.print(score_table(state.scores(), state.winners(), painter, score_notes(setup.game)))
        console.print(winners_line(state.winners(), painter))
    if setup.save_file is not None and state.finished:
        try:
            Path(setup.save_file).unlink()
            console.print(f"The game is over: its save file {setup.save_file} is removed.", style="dim",
                          markup=False)
        except OSError:
            pass


def _make_seats(specs, game, console, names, full_screen=False, done=None) -> list:
    from ..bots.basic import make_seat
    from ..frontends.terminal import TerminalSeat
    seats = []
    first_human = True
    for i, s in enumerate(specs):
        n = done[i] if done else 0
        if is_human(s) and full_screen:
            from ..frontends.tui import TuiSeat
            seats.append(TuiSeat(game=game, names=names, decisions=n))
        elif is_human(s):
            seats.append(TerminalSeat(console=console, game=game, names=names, show_scores=first_human,
                                      decisions=n))
            first_human = False
        else:
            seats.append(make_seat(s, programs=True))
    return seats


def _real_terminal() -> bool:
    """Both the keyboard and the screen are a terminal (not a pipe or a file), and not a dumb one."""
    try:
        return sys.stdin.isatty() and sys.stdout.isatty() and os.environ.get("TERM", "") != "dumb"
    except (AttributeError, ValueError):
        return False


def _has_tty() -> bool:
    if os.environ.get(FORCE_TTY_ENV, "") not in ("", "0"):
        return True
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def _handicap(value) -> float:
    """``--handicap`` (or a save's): seconds from 0 to :data:`HANDICAP_MAX`."""
    try:
        h = float(value)
    except (TypeError, ValueError):
        h = float("nan")
    if isinstance(value, bool) or not 0 <= h <= HANDICAP_MAX:     # also refuses nan
        raise UsageError(f"--handicap {value}: give seconds from 0 to {HANDICAP_MAX:g}",
                         "e.g. --handicap 0.2 takes 0.2 s off your time in every race")
    return h


# =================================================================== saves

def _decisions_done(cli: dict, state) -> list:
    """How many decisions each player has made: kept in a save (``cli.decisions``) so that a
    resumed game numbers its decisions on; else counted from the game's history."""
    saved = cli.get("decisions")
    if state is None:
        return []
    if isinstance(saved, list) and len(saved) == state.n and all(type(x) is int and x >= 0 for x in saved):
        return saved
    done = [0] * state.n
    for rec in state.history:
        if isinstance(rec, list) and rec and type(rec[0]) is int and 0 <= rec[0] < state.n:
            done[rec[0]] += 1
    return done


def _save_target(path: str, resumed_from: Optional[str]) -> tuple:
    """Where to save: ``path``, unless that is another save file (not the one this game was
    resumed from) and the person, asked, does not want it replaced; then the first free name
    like ``mygame-7-2.save.json``.  Returns the path and a note to print (or ``None``)."""
    p = Path(path)
    if not p.exists() or (resumed_from is not None and _same_file(p, Path(resumed_from))):
        return path, None
    if _real_terminal():
        try:
            answer = input(f"{path} already exists (another saved game). Replace it? [y/N] ")
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if answer.strip().lower() in ("y", "yes"):
            return path, None
    fresh = _fresh_name(p)
    return str(fresh), f"{path} already exists: this game is saved under a new name."


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _fresh_name(p: Path) -> Path:
    """``mygame-7.save.json`` -> ``mygame-7-2.save.json`` (then -3...): the first name not taken."""
    name = p.name
    suffix = next((s for s in (".save.json", ".json") if name.endswith(s) and len(name) > len(s)), "")
    stem = name[:len(name) - len(suffix)]
    k = 2
    while (p.with_name(f"{stem}-{k}{suffix}")).exists():
        k += 1
    return p.with_name(f"{stem}-{k}{suffix}")


def _read_save(path: str) -> dict:
    from ..play.match import Match
    try:
        data = Match.read_save(path)
        data["state"]
    except FileNotFoundError:
        raise Failure(f"no save file {path}", "saves are written as <game>-<seed>.save.json in the "
                                              "directory where the game was played") from None
    except OSError as exc:
        raise Failure(f"cannot read {path}: {exc.strerror or exc}") from None
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        why = str(exc) if isinstance(exc, CatrulesError) else ""
        raise Failure(f"{path} is not a catrules save file (or it is damaged)" +
                      (f": {why}" if why and why != f"{path} is not a catrules save file" else ""),
                      "give the file that `catrules play` named when it saved the game") from None
    try:
        check(data.get("cli"), Maybe(_SAVED_CLI), "cli")
    except Invalid as exc:
        raise Failure(f"{path} is not a catrules save file (or it is damaged): its field {exc}",
                      "give the file that `catrules play` named when it saved the game") from None
    return data


#: What `catrules play` keeps of its command line in a save (``cli``); the handicap has its own check.
_SAVED_CLI = Record({"seats": Items(Text(200)), "log": Maybe(Text()), "game_abs": Maybe(Text()),
                     "players": Maybe(Int()), "options": Items(Text()), "decisions": Items(Int(0, NUMBER_LIMIT))})


def _saved_game(data: dict, save_path: str):
    """The game file a save names, loaded: only a file that may be read without being named on the
    command line (:mod:`catrules.play.game_paths`), and never echoed if it does not load."""
    from ..play.game_paths import GamePathRefused, load_named_game, named_game_path
    from ..play.saves import fingerprint_of
    cli = data.get("cli") if isinstance(data.get("cli"), dict) else {}
    named = [p for p in (data.get("game"), cli.get("game_abs")) if isinstance(p, str) and p]
    hint = f"give the game file yourself: catrules play GAME.cat --resume {save_path}"
    refused = None
    for p in named:
        try:
            found = named_game_path(p, Path(save_path).parent, f"the save {save_path}", fingerprint_of(data))
        except GamePathRefused as exc:
            refused = refused or str(exc)
            continue
        except FileNotFoundError:
            continue
        try:
            return load_named_game(found, f"the save {save_path}")
        except ValueError as exc:
            raise Failure(str(exc), hint) from None
    if refused:
        raise Failure(refused + ", so it is not read", hint)
    shown = repr(named[0][:120]) if named else "not named"
    raise Failure(f"the game file of {save_path} ({shown}) is not found", hint)


# ===================================================================== log

def _open_log(path, game, state, specs, match, viewer=None):
    """The game's log (full, or for one viewer); a resumed game's log is written again from the
    start (from its decisions), so that a full log can be replayed."""
    from ..play.logs import LogWriter
    try:
        writer = LogWriter(path, game, state.n, state.options, state.seed, specs, viewer)
    except OSError as exc:
        raise Failure(f"cannot write the log {path}: {exc.strerror or exc}") from None
    writer.attach(match)
    if state.history:
        again = game.new_state(state.n, seed=state.seed, options=state.options, log=True,
                               ask_forced=state.ask_forced)
        for rec in state.history:
            again.apply(rec[0], rec[1], rec[2] if len(rec) > 2 else None)
        for ev in again.log:
            writer.event(ev)
    return writer


def _run_bots(match, spectator, max_decisions) -> None:
    """Bots alone would play a game that never ends forever: they get the simulation's budget."""
    from ..lab.simulate import DECISION_LIMIT, decision_budget
    budget = decision_budget(match.state, max_decisions or DECISION_LIMIT)

    def after_step() -> None:
        spectator.flush()
        budget()
    after_step.limit = budget.limit     # the budget, for the searching bots (see Match.run)
    match.run(after_step)
