"""The ``catrules play`` command: seats, the table, and saving and resuming a game.

:func:`cmd_play` puts a person (the full-screen table, or the line interface
with ``--plain`` or without a terminal) or a bot at each seat, plays the game
to its end, and on Ctrl-C, ``q`` or end of input saves it to a file that
``--resume`` continues exactly.  The save-file helpers are here too: reading a
save and the game file it names, choosing a free save name (another game's
save is never overwritten without asking), and how many decisions each player
has made.  The shared helpers, the errors and the argument parser (with the
``play --help`` texts) are in :mod:`catrules.cli`.
"""

from __future__ import annotations

import gc
import os
import random
import sys
from pathlib import Path
from typing import Optional

from . import (FORCE_TTY_ENV, _check_budget, HANDICAP_MAX, NO_TTY_MESSAGE, SEATS_HINT, Failure, UsageError, _check_bot_specs, _err, _is_human, _load, _options, _players, _split_specs, _viewer)
from ..errors import CatrulesError, OverBudget, RulesError, SaveError


# ==================================================================== play

def cmd_play(args) -> int:
    # A start allocates much and frees little (modules, the game): the collector's passes then
    # are wasted time before the first prompt; it runs again once the game is being played.
    was = gc.isenabled()
    gc.disable()
    try:
        return _play(args)
    finally:
        if was:
            gc.enable()


def _play(args) -> int:
    from rich.console import Console

    from ..frontends.terminal import Quit
    from ..play.match import Match

    _check_budget(args)
    resume = None
    if args.resume:
        resume = _read_save(args.resume)
        cli = resume.get("cli")
        if not isinstance(cli, dict):
            cli = {}
        game_path = args.game or _saved_game_path(resume, args.resume)
    else:
        if not args.game:
            raise UsageError("which game? give a game file, or --resume a save file",
                             "e.g. catrules play games/mygame.cat")
        cli = {}
        game_path = args.game
    game = _load(game_path)

    # ---------------------------------------------------------------- seats
    if resume is not None:
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
        specs = _split_specs(args.seats) or list(saved_seats)
        if len(specs) != players:
            raise UsageError(f"{len(specs)} seats for the saved game's {players} players", SEATS_HINT)
        options = list(state.options)
        seed = state.seed
        try:
            handicap = _handicap(args.handicap if args.handicap is not None else cli.get("handicap", 0))
        except UsageError:
            if args.handicap is not None:
                raise
            raise Failure(f"{args.resume} is damaged: its handicap is not a number of seconds from 0 to "
                          f"{HANDICAP_MAX:g}", "give one: --handicap SECONDS (0 for none)") from None
    else:
        specs = _split_specs(args.seats)
        if specs is not None and args.players is None:
            players = _players(game, len(specs))
        else:
            players = _players(game, args.players)
        if specs is None:
            specs = ["human"] + ["greedy"] * (players - 1)
        if len(specs) > players:
            raise UsageError(f"{len(specs)} seats for {players} players", "give one seat per player")
        specs = specs + ["greedy"] * (players - len(specs))
        options = _options(game, args.option)
        seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
        state = None
        handicap = _handicap(args.handicap if args.handicap is not None else 0)
    _check_bot_specs(specs, programs=True)
    humans = [i for i, s in enumerate(specs) if _is_human(s)]
    if humans and not _has_tty():
        _err(NO_TTY_MESSAGE)
        return 2

    console = Console(highlight=False, emoji=False)    # game texts are data: no :name: emoji
    names = [("you" if len(humans) == 1 else "human") if _is_human(s) else s for s in specs]
    # the full-screen table needs a real terminal both ways; pipes and --plain get the line UI
    full_screen = bool(humans) and not args.plain and _real_terminal()
    seats = _make_seats(specs, game, console, names, full_screen, _decisions_done(cli, state))
    for i in humans:
        seats[i].handicap = handicap

    # ---------------------------------------------------------------- state
    if state is None:
        try:
            # a person at the table: forced choices are asked too (their timing says nothing)
            state = game.new_state(players, seed=seed, options=options, log=True, ask_forced=bool(humans))
        except RulesError:
            raise
        except CatrulesError as exc:
            raise UsageError(str(exc)) from None

    # A save never chooses where a file is written: a resumed game logs only to a --log given now.
    log_path = args.log
    save_path = args.save or (args.resume if resume is not None else None) or \
        f"{Path(game.path).stem}-{seed}.save.json"

    if resume is not None:
        match = Match.resume(game, resume, seats, state=state)
    else:
        match = Match(game, state, seats)
    state = match.state
    head = (f"{game.title}: {players} players, seed {seed}, options: {', '.join(options) or 'none'}; "
            "seats: " + ", ".join(f"{i + 1} {n}" for i, n in enumerate(names)))
    from ..frontends.pieces import plain
    console.print(plain(("Resumed " if resume is not None else "") + head), style="dim", markup=False)
    if resume is not None and log_path is None and isinstance(cli.get("log"), str):
        console.print(f"(the game was logged to {plain(cli['log'])}; resume with --log FILE to log it again)",
                      style="dim", markup=False)
    spectator = None
    if not humans:
        from ..frontends.terminal import Spectator
        spectator = Spectator(console, game, names, quiet=args.quiet)
        from ..play.match import visible_event
        match.on_event = lambda ev: spectator.event(visible_event(match.state, ev, None))
    writer = None
    if log_path:
        writer = _open_log(log_path, game, state, specs, match, _viewer(args, players))

    extra = {"cli": {"seats": specs, "log": str(Path(log_path).resolve()) if log_path else None,
                     "game_abs": str(Path(game.path).resolve()), "players": players, "options": options,
                     "handicap": handicap}}
    if not full_screen:
        gc.enable()         # (the full-screen table turns it on once its first frame is drawn)
    try:
        if full_screen:
            from ..frontends.tui import run_tui
            run_tui(match, [s for s in seats if getattr(s, "interactive", False)], f"{game.title} · seed {seed}")
        elif humans:
            match.run(spectator.flush if spectator is not None else None)
        else:
            _run_bots(match, spectator, args.max_decisions)
    except OverBudget as exc:
        if writer is not None:
            writer.close()
        raise Failure(f"{exc}: the game was stopped, unfinished (a game that never ends?)",
                      "see how the game ends (`catrules check` warns of a loop with no way out); "
                      "--max-decisions N sets the budget of a game played by bots") from None
    except (KeyboardInterrupt, EOFError, Quit) as exc:
        if writer is not None:
            writer.close()
        # a resumed game's decisions are numbered on from here
        extra["cli"]["decisions"] = _decisions_done({}, state)
        save_path, note = _save_target(save_path, args.resume if resume is not None else None)
        try:
            match.save(save_path, extra=extra)
        except OSError as err:
            print()
            _err(f"the game could not be saved to {save_path}: {err.strerror or err}",
                 "use --save FILE with a place you can write to")
            return 1
        print()
        if note:
            print(note)
        msg = f"Game saved to {save_path}. Resume with: catrules play --resume {save_path}"
        print(msg if len(msg) <= 80 else msg.replace(". Resume with:", ".\nResume with:", 1))
        if isinstance(exc, KeyboardInterrupt):
            return 130
        return 0 if isinstance(exc, Quit) else 1
    if writer is not None:
        writer.close()
    if spectator is not None:
        spectator.finish(state.scores(), state.winners())
    if full_screen and state.finished:
        # the full screen is gone: the final score stays in the terminal
        from ..frontends.terminal import Painter, score_notes, score_table, winners_line
        painter = Painter(game, humans[0], names)
        console.print(score_table(state.scores(), state.winners(), painter, score_notes(game)))
        console.print(winners_line(state.winners(), painter))
    if resume is not None and state.finished:
        try:
            Path(args.resume).unlink()
            console.print(f"The game is over: its save file {args.resume} is removed.", style="dim", markup=False)
        except OSError:
            pass
    if log_path:
        console.print(f"log written to {log_path}", style="dim", markup=False)
    return 0


def _make_seats(specs, game, console, names, full_screen=False, done=None) -> list:
    from ..bots.basic import make_seat
    from ..frontends.terminal import TerminalSeat
    seats = []
    first_human = True
    for i, s in enumerate(specs):
        n = done[i] if done else 0
        if _is_human(s) and full_screen:
            from ..frontends.tui import TuiSeat
            seats.append(TuiSeat(game=game, names=names, decisions=n))
        elif _is_human(s):
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
    return data


def _saved_game_path(data: dict, save_path: str) -> str:
    """The game file a save names; only a `.cat` file is read without being named on the command line."""
    cli = data.get("cli") if isinstance(data.get("cli"), dict) else {}
    named = [p for p in (data.get("game"), cli.get("game_abs")) if isinstance(p, str) and p]
    for p in named:
        if p.endswith(".cat") and Path(p).is_file():
            return p
    if named and not all(p.endswith(".cat") for p in named):
        raise Failure(f"{save_path} names {named[0]!r} as its game file, which is not a .cat game file",
                      f"give the game file: catrules play GAME.cat --resume {save_path}")
    raise Failure(f"the game file of {save_path} ({named[0] if named else 'not named'}) is not found",
                  f"give the game file: catrules play GAME.cat --resume {save_path}")


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
    match.run(after_step)
