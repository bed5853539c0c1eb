"""``catrules serve``: the command that starts a web server for game files."""

from __future__ import annotations

import glob
from pathlib import Path

from .common import NO_FILE_HINT, Failure, UsageError

DESCRIPTION = ("Start a web server where people play from their browsers: the lobby at the address "
               "printed lets you pick a game, the players, its options and seats (people or bots), "
               "then gives each person a link of their own and a link for spectators.  Tables are "
               "kept in DIR/tables.sqlite3: a restarted server resumes every table where it was; one "
               "server at a time may use DIR.  Bots think off the request path, a few decisions at a "
               "time (--bot-workers), each within --max-bot-seconds; a table nobody holds any more "
               "stops its bots.  "
               "Without GAME_FILES, the game files in ./games.")


def add_parser(sub) -> None:
    sp = sub.add_parser("serve", help="play in a browser: a web server with a lobby and links per seat",
                        description=DESCRIPTION)
    sp.add_argument("files", nargs="*", metavar="GAME_FILES", help="game files to offer (default: games/*.cat)")
    sp.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default 127.0.0.1: this computer only; 0.0.0.0 for the network)")
    sp.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sp.add_argument("--data", default=".catrules-web", metavar="DIR",
                    help="where tables are kept (default .catrules-web); one server at a time uses it")
    sp.add_argument("--expire-days", type=float, default=30.0, metavar="DAYS",
                    help="delete finished tables this many days after their last move (default 30; 0: never)")
    sp.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                    help="a name this server is reached by, beyond localhost and IP addresses (repeatable; "
                         "requests naming another host are refused, against DNS rebinding)")
    sp.add_argument("--sockets-per-seat", type=int, default=8, metavar="N",
                    help="pages open at once on one seat's link (default 8; the spectators' link 4 times as many)")
    sp.add_argument("--messages-per-second", type=float, default=20.0, metavar="R",
                    help="messages a page may send a second (default 20, bursts of twice that; answers the "
                         "table takes are not counted); a page sending more is closed")
    sp.add_argument("--send-timeout", type=float, default=10.0, metavar="SECONDS",
                    help="how long one message may wait for a page to read it before the page is dropped "
                         "(default 10; a dropped page reconnects and gets the current state)")
    sp.add_argument("--max-bot-seconds", type=float, default=2.0, metavar="SECONDS",
                    help="the most a bot may think for one decision (default 2); the lobby refuses a seat "
                         "asking for more (ismcts:3600s), and an iteration budget (ismcts:100000) is cut there too")
    sp.add_argument("--bot-workers", type=int, default=2, metavar="N",
                    help="bot decisions made at once, over all tables (default 2); tables take turns, "
                         "one decision each")
    sp.add_argument("--tables-per-minute", type=float, default=10.0, metavar="N",
                    help="tables one client address may make a minute (default 10, 5 at once); more are "
                         "refused (429, with Retry-After)")
    sp.add_argument("--round-pause", type=float, default=60.0, metavar="SECONDS",
                    help="after a round's end, a table waits until each person at it has pressed Continue, "
                         "or this many seconds (default 60; 0: it goes straight on); bots and races wait too")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..api import load_game
    files = list(args.files) or sorted(glob.glob("games/*.cat"))
    if not files:
        raise UsageError("no game files to serve",
                         "name them: catrules serve FILE.cat ..., or run it where a games/ folder holds them")
    for f in files:
        if not Path(f).is_file():
            raise UsageError(f"no such game file: {f}", NO_FILE_HINT)
        load_game(f)            # a broken file is reported in the language's words, before serving
    if not 0 < args.port < 65536:
        raise UsageError(f"--port {args.port} is not a port", "use a number from 1 to 65535")
    if not 0 <= args.expire_days < 1e6:         # NaN too
        raise UsageError(f"--expire-days {args.expire_days} is not a number of days",
                         "give 0 or more days (0: finished tables are never deleted)")
    for name, value in (("--sockets-per-seat", args.sockets_per_seat), ("--messages-per-second",
                        args.messages_per_second), ("--send-timeout", args.send_timeout)):
        if not 0 < value < 1e6:
            raise UsageError(f"{name} {value:g} is out of range", f"give a positive number for {name}")
    if not 0 < args.max_bot_seconds <= 3600:          # NaN too
        raise UsageError(f"--max-bot-seconds {args.max_bot_seconds:g} is out of range",
                         "give the seconds a bot may think for one decision: more than 0, at most 3600 "
                         "(e.g. --max-bot-seconds 2)")
    if not 1 <= args.bot_workers <= 64:
        raise UsageError(f"--bot-workers {args.bot_workers} is out of range",
                         "give how many bot decisions may run at once: 1 to 64 (e.g. --bot-workers 2)")
    if not 0 < args.tables_per_minute < 1e6:
        raise UsageError(f"--tables-per-minute {args.tables_per_minute:g} is out of range",
                         "give a positive number of tables a client may make a minute (e.g. 10)")
    if not 0 <= args.round_pause <= 3600:           # NaN too
        raise UsageError(f"--round-pause {args.round_pause:g} is out of range",
                         "give the seconds a round's end waits for the people to continue: 0 to 3600 "
                         "(e.g. --round-pause 60; 0: no pause)")
    try:
        from ..web.app import serve
        from ..web.guard import Limits
        from ..web.store import StoreError
    except ImportError:
        raise Failure("catrules serve needs Starlette and uvicorn",
                      "install them with: pip install 'catrules[web]'") from None
    import sqlite3
    try:
        Path(args.data).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Failure(f"cannot keep tables in {args.data}: {exc.strerror or exc}",
                      "give a directory you may write to (--data DIR)") from None
    try:
        limits = Limits(rate=args.messages_per_second, burst=max(1, int(2 * args.messages_per_second)),
                        sockets_per_seat=args.sockets_per_seat, send_timeout=args.send_timeout,
                        hosts=tuple(h.strip().lower() for h in args.allow_host))
        serve(files, host=args.host, port=args.port, data_dir=args.data, limits=limits,
              expire_days=args.expire_days, max_bot_seconds=args.max_bot_seconds,
              bot_workers=args.bot_workers, tables_per_minute=args.tables_per_minute,
              round_pause=args.round_pause)
    except StoreError as exc:       # another server on --data, a damaged file, a directory not writable
        raise Failure(str(exc), exc.hint) from None
    except sqlite3.Error as exc:
        raise Failure(f"cannot keep tables in {args.data}: {exc}",
                      "give a directory you may write to (--data DIR)") from None
    except OSError as exc:
        raise Failure(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}",
                      "is another server using that port? try --port 8001") from None
    return 0
