"""``catrules serve``: the command that starts a web server for game files."""

from __future__ import annotations

import glob
from pathlib import Path

from .common import NO_FILE_HINT, Failure, UsageError

DESCRIPTION = ("Start a web server where people play from their browsers: the lobby at the address "
               "printed lets you pick a game, the players, its options and seats (people or bots), "
               "then gives each person a link of their own and a link for spectators.  Tables are "
               "kept in DIR/tables.sqlite3: a restarted server resumes every table where it was; one "
               "server at a time may use DIR.  "
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
              expire_days=args.expire_days)
    except StoreError as exc:       # another server on --data, a damaged file, a directory not writable
        raise Failure(str(exc), exc.hint) from None
    except sqlite3.Error as exc:
        raise Failure(f"cannot keep tables in {args.data}: {exc}",
                      "give a directory you may write to (--data DIR)") from None
    except OSError as exc:
        raise Failure(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}",
                      "is another server using that port? try --port 8001") from None
    return 0
