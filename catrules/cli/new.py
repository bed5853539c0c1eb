"""The ``catrules new`` command: a small working game to start from, written to a new file."""

from __future__ import annotations

from pathlib import Path

from ..authoring.new import template
from .common import FORMATTER, Failure


def add_parser(sub) -> None:
    sp = sub.add_parser("new", help="start a new game from a small working template",
                        description="Write NAME.cat (in the current folder, or --dir): a small complete "
                                    "game that checks and plays, to change into your own.  An existing "
                                    "file is never overwritten.  The tutorial \"Write your first game\" "
                                    "of the catrules documentation (`catrules docs tutorial`) goes from "
                                    "this file to a game of your own, in five steps; `catrules docs "
                                    "language` is the language reference.", formatter_class=FORMATTER)
    sp.add_argument("name", metavar="NAME", help="the game's name (the file is named after it); a file "
                                                 "name such as mygame.cat or games/mygame.cat is taken as it is")
    sp.add_argument("--dir", default=".", metavar="DIR", help="the folder to write it in (default: here)")
    sp.set_defaults(func=run)


def _target(name: str, folder: Path) -> tuple[Path, str]:
    """Where the new game goes and its text: a NAME ending in ``.cat`` is the file itself (with any
    folder it names, under ``folder``), its stem the game's name; any other NAME is a title."""
    given = Path(name)
    if given.suffix.lower() == ".cat":
        _, text = template(given.stem)
        return folder / given, text
    stem, text = template(name)
    return folder / f"{stem}.cat", text


def run(args) -> int:
    path, text = _target(args.name, Path(args.dir))
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
