"""Where the parser keeps its built grammar: a private directory of the user, or nowhere.

Lark can pickle the parse tables it builds and load them on the next run.  Its own default
(``cache=True``) is a predictable name in the shared temporary directory, where another
local user could plant a pickle that runs their code in our process.  So the cache lives in
the user's cache directory (``$XDG_CACHE_HOME/catrules``, else ``~/.cache/catrules``),
created with mode 0o700 and used only while it is a real directory owned by this user that
nobody else may write; when any of that fails the grammar is simply built without a cache
(a few hundred milliseconds, never an error).
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from pathlib import Path
from typing import Optional, Union


def cache_dir() -> Path:
    """The directory the cache belongs in (it may not exist yet)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "catrules"


def _private(st: os.stat_result, kind) -> bool:
    """Owned by us, of the expected kind, and neither group nor others may write it."""
    owner_ok = not hasattr(os, "getuid") or st.st_uid == os.getuid()
    return owner_ok and kind(st.st_mode) and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


def private_dir(path: Optional[Path] = None) -> Optional[Path]:
    """The cache directory, created private if missing; ``None`` when it is not safe to use."""
    path = path or cache_dir()
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True, mode=0o700)
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            pass
        st = os.lstat(path)           # lstat: a symlink planted in its place is refused
    except (OSError, RuntimeError):   # RuntimeError: Path.home() without a home
        return None
    return path if _private(st, stat.S_ISDIR) else None


def cache_file(grammar: str, start: str) -> Union[str, bool]:
    """What to pass as Lark's ``cache`` for this grammar and start rule: a path, or False."""
    where = private_dir()
    if where is None:
        return False
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    path = where / f"grammar-{start}-{digest}-py{sys.version_info[0]}{sys.version_info[1]}.lark"
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return str(path)
    except OSError:
        return False
    return str(path) if _private(st, stat.S_ISREG) else False


def seal(path: Union[str, bool]) -> None:
    """After Lark wrote the cache file: make it readable and writable by us alone."""
    if isinstance(path, str):
        try:
            os.chmod(path, 0o600)
        except OSError:
            pass
