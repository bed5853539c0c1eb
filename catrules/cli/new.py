"""The ``catrules new`` command: a small working game to start from, written to a new file."""

from __future__ import annotations

from pathlib import Path

from .common import FORMATTER, Failure


def add_parser(sub) -> None:
    sp = sub.add_parser("new", help="start a new game from a small working template",
                        description="Write NAME.cat (in the current folder, or --dir): a small complete "
                                    "game that checks and plays, to change into your own.  An existing "
                                    "file is never overwritten.  The tutorial \"Write your first game\" "
                                    "of the catrules documentation (`catrules docs tutorial`) goes from "
                                    "this file to a game of your own, in five steps; `catrules docs "
                                    "language` is the language reference.", formatter_class=FORMATTER)
    sp.add_argument("name", metavar="NAME", help="the game's name (the file is named after it)")
    sp.add_argument("--dir", default=".", metavar="DIR", help="the folder to write it in (default: here)")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..authoring.new import template
    stem, text = template(args.name)
    path = Path(args.dir) / f"{stem}.cat"
    if path.exists():
        raise Failure(f"{path} already exists; it is left as it is",
                      "choose another name, or another folder with --dir")
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Failure(f"cannot write {path}: {exc.strerror or exc}",
                      "give a folder you can write to with --dir") from None
    print(f"wrote {path}: a small game that checks and plays; try `catrules play {path}`")
    return 0
