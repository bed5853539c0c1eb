"""A private cache of checked games: a second start skips parsing and checking.

``catrules play``, ``simulate`` and the rest load a game file at every start;
parsing it (and importing the parser) is most of that. So the checked game
(its AST and name tables, :class:`catrules.check.checker.Checked`) is pickled into
the same private per-user directory as the grammar (see
:mod:`catrules.lang.grammar_cache`: created 0o700, used only while it is ours and
nobody else may write it; each file is written 0o600 under a new name, then
renamed into place, and read only while it is a regular file of ours that
nobody else may write). A pickle that is not ours could run code in our
process, hence these checks; a file that is missing, unreadable, foreign or
corrupt is simply rebuilt, never an error.

The key is a hash of the file's text and path (errors name the path), the
Python version and the catrules code itself (the size and time of every
module and of the grammar), so an edited game or a changed interpreter is
parsed again. A variant (a file with ``extends``) is not cached: its base
files would have to be part of the key. The checker's tables keyed by
``id(node)`` are stored against the nodes themselves and re-keyed on load.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import stat
import sys
from pathlib import Path
from typing import Optional

from ..lang.grammar_cache import _private, private_dir

_EXTENDS = re.compile(rb"^\s*extends\b", re.M)
_CODE_KEY: list = []
#: Set (to anything but "0") to turn the cache off.
ENV_OFF = "CATRULES_NO_GAME_CACHE"


def _code_key() -> str:
    """What identifies this catrules: every module's and the grammar's size and mtime."""
    if not _CODE_KEY:
        here = Path(__file__).resolve().parent.parent          # the catrules package
        parts = [sys.version]
        files = sorted(here.glob("*.py")) + sorted(here.glob("*/*.py")) + sorted(here.glob("lang/*.lark"))
        for f in files:
            try:
                st = f.stat()
            except OSError:
                continue
            parts.append(f"{f.relative_to(here)}:{st.st_size}:{st.st_mtime_ns}")
        _CODE_KEY.append(hashlib.sha256("\n".join(parts).encode()).hexdigest())
    return _CODE_KEY[0]


def _where(data: bytes, path: str) -> Optional[Path]:
    if os.environ.get(ENV_OFF, "") not in ("", "0") or _EXTENDS.search(data):
        return None
    folder = private_dir()
    if folder is None:
        return None
    key = hashlib.sha256(f"{_code_key()}\n{path}\n".encode() + data).hexdigest()[:32]
    return folder / f"game-{key}.pickle"


def _nodes(root) -> dict:
    """id -> node for every AST node reachable from ``root``."""
    from ..lang import ast
    seen: dict = {}
    todo = [root]
    while todo:
        x = todo.pop()
        if isinstance(x, ast.Node):
            if id(x) in seen:
                continue
            seen[id(x)] = x
            todo.extend(getattr(x, a) for a in ast.fields(type(x)))
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
        elif isinstance(x, dict):
            todo.extend(x.values())
            todo.extend(k for k in x if isinstance(k, tuple))
    return seen


def load(data: bytes, path: str):
    """The checked game cached for this file's bytes, or None."""
    where = _where(data, path)
    if where is None:
        return None
    try:
        fd = os.open(where, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        if not _private(os.fstat(fd), stat.S_ISREG):
            return None
        with os.fdopen(fd, "rb") as f:
            fd = None
            checked, names, types, endless = pickle.load(f)
        checked.names = {id(n): v for n, v in names}
        checked.types = {id(n): v for n, v in types}
        checked.no_way_out = {id(n) for n in endless}
        return checked
    except Exception:          # noqa: BLE001 - a corrupt or stale cache file is rebuilt
        return None
    finally:
        if fd is not None:
            os.close(fd)


def store(data: bytes, path: str, checked) -> None:
    """Keep ``checked`` for the next start (silently nothing when it cannot be)."""
    where = _where(data, path)
    if where is None:
        return
    nodes = _nodes(checked.game)
    names = [(nodes[i], v) for i, v in checked.names.items() if i in nodes]
    types = [(nodes[i], v) for i, v in checked.types.items() if i in nodes]
    endless = [nodes[i] for i in checked.no_way_out if i in nodes]
    if len(names) != len(checked.names) or len(types) != len(checked.types) \
            or len(endless) != len(checked.no_way_out):
        return                 # a table names a node outside the game: not safe to re-key
    saved_names, saved_types, saved_endless = checked.names, checked.types, checked.no_way_out
    tmp = where.with_name(f"{where.name}.{os.getpid()}.tmp")
    try:
        checked.names, checked.types, checked.no_way_out = {}, {}, set()
        data = pickle.dumps((checked, names, types, endless), protocol=pickle.HIGHEST_PROTOCOL)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, where)
    except Exception:          # noqa: BLE001 - no cache is never an error
        try:
            os.unlink(tmp)
        except OSError:
            pass
    finally:
        checked.names, checked.types, checked.no_way_out = saved_names, saved_types, saved_endless
