"""Which game file a save or a log may make catrules read, and loading it without echoing it.

A save file and a log's header name their game file (``game``), and anyone can edit them.
The file is read only if, after every symbolic link is resolved, it is a regular file whose
own name ends in ``.cat`` and it lies in the save's (or log's) folder or below it, or in
the current folder or below it; a save's game file may lie elsewhere too if its bytes are
exactly those of the game it was saved with (the save's fingerprint of its game file, checked
before anything is parsed).  Anything else is refused with :class:`GamePathRefused`,
which says why; the fix is to name the game file on the command line (a file the person
names is theirs to choose).  A game file named this way that does not load is reported by
where its first problem is, never by its text (:func:`load_named_game`).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import GameFileError


#: The largest game file a save's fingerprint is compared with.
GAME_SIZE_LIMIT = 16 << 20


class GamePathRefused(ValueError):
    """A game file named by a save or a log that is not read; the message says why."""


def _inside(p: Path, roots) -> bool:
    return any(p == r or r in p.parents for r in roots)


def named_game_path(name, beside: Path, what: str = "the file", fingerprint=None) -> Path:
    """The game file that ``name`` (read from ``what``, a save or log in folder ``beside``)
    names, as found (a relative name: in the current folder, else beside ``what``); raises
    :class:`GamePathRefused` unless it may be read (see the module's rule), and
    ``FileNotFoundError`` when there is no such file.  ``fingerprint(data) -> bool``: a save's
    check of a game file's bytes; a file elsewhere whose bytes pass it is read too."""
    if type(name) is not str or not name or "\x00" in name:
        raise GamePathRefused(f"{what} names no game file")
    shown = repr(name[:120])
    if not name.endswith(".cat"):
        raise GamePathRefused(f"{what} names {shown} as its game file, which is not a .cat game file")
    p = Path(name)
    candidates = [p] if p.is_absolute() else [p, beside / p]
    found = next((c for c in candidates if os.path.lexists(c)), None)
    if found is None:
        raise FileNotFoundError(name)
    try:
        real = found.resolve(strict=True)
        mode = os.stat(real).st_mode
        roots = [beside.resolve(), Path.cwd().resolve()]
    except (OSError, RuntimeError):                  # a dangling link, a loop of links, no permission
        raise GamePathRefused(f"{what} names {shown} as its game file, which is a link that leads "
                              "to no readable file") from None
    if not real.name.endswith(".cat"):
        raise GamePathRefused(f"{what} names {shown} as its game file, which is a link to a file whose "
                              "name does not end in .cat: not a .cat game file")
    if not stat.S_ISREG(mode):
        raise GamePathRefused(f"{what} names {shown} as its game file, which is not a regular file")
    if not _inside(real, roots) and not (fingerprint is not None and _passes(real, fingerprint)):
        raise GamePathRefused(f"{what} names {shown} as its game file, which lies outside the folder of "
                              f"{what} and the current folder")
    return found


def _passes(real: Path, fingerprint) -> bool:
    """The bytes of regular file ``real`` (if not too large) pass ``fingerprint``."""
    try:
        with open(real, "rb") as f:
            data = f.read(GAME_SIZE_LIMIT + 1)
    except OSError:
        return False
    return len(data) <= GAME_SIZE_LIMIT and bool(fingerprint(data))


def load_named_game(path: Path, what: str = "the file"):
    """Load game file ``path`` named by ``what`` (a save or a log); raises ``ValueError`` saying
    where its first problem is (never the file's text: it may be any file)."""
    from ..api import load_game
    try:
        return load_game(path)
    except GameFileError as exc:
        first = next((d for d in exc.diagnostics if d.severity == "error"), None) or \
            (exc.diagnostics[0] if exc.diagnostics else None)
        where = f" (the first at line {first.line}, column {first.column})" if first and first.line else ""
        n = len(exc.diagnostics)
        raise ValueError(f"the game file {path} named by {what} does not load: it has {n} problem"
                         f"{'s' if n != 1 else ''}{where}; see them with: catrules check {path}") from None
