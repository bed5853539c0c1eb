"""The SQLite store of a web server: tables, their seats' tokens, their events and snapshots.

Everything a table needs to resume exactly is kept here (the game file's text, players,
options, seed, seat kinds, and after every change a snapshot: the engine state, the bots'
random source and the answers collected for the decision under way), so a server that
stops and starts again on the same file loses nothing.  Tokens are kept only as hashes.
Events are kept as each seat saw them (filtered when they happened), for the page's list
of recent events and the seat's log.

Every write is one transaction, rolled back whole when anything in it fails.  Tables'
changes (:meth:`Store.save`) that come while another is being written wait and are then
written together, in one transaction (group commit): each caller returns only once its own
change is committed, so nothing is acknowledged before it is stored, and a group that fails
for another reason than a busy database is written again one change at a time, so that only
the change at fault fails.  SQLite's journal is a write-ahead log flushed to the disk at each
commit (``synchronous=full``): a power cut loses no committed change.  A database
another program holds is waited for (``busy_timeout``) and tried again a few times, then
the write fails with a :class:`StoreError` in words (the caller tells the page, which was
told nothing yet).  The data directory is locked for the store's life (an OS lock on a file
beside the database), so a second server on it refuses to start.  A file SQLite cannot read
is refused when the store opens (:class:`StoreDamaged`), as is a row that cannot be decoded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

try:
    import fcntl
except ImportError:                 # pragma: no cover - not on POSIX: the data directory is not locked
    fcntl = None

SCHEMA = """
create table if not exists tables (
    id text primary key, created real, game_path text, game_text text, players integer,
    options text, seed integer, seats text, snapshot text, finished integer default 0);
create table if not exists tokens (hash text primary key, table_id text, seat integer);
create table if not exists events (table_id text, viewer integer, n integer, data text);
create index if not exists events_by_viewer on events (table_id, viewer, n);
"""

#: The ``viewer`` of a spectator's events (seats are 0, 1, ...).
SPECTATOR = -1
#: Seconds SQLite waits for a database another connection holds, at each try of a write.
BUSY_TIMEOUT = 5.0
#: How many times a write is tried when the database is busy, and the pause between tries
#: (times the try's number).
TRIES = 3
RETRY_PAUSE = 0.2

DAMAGED_HINT = ("restore it from a backup, or move it away (the server then starts with no tables); "
                "`sqlite3 FILE .recover` may save what can be read")

# SQLite's primary result codes this module tells apart
_BUSY, _LOCKED, _CORRUPT, _CANTOPEN, _NOTADB = 5, 6, 11, 14, 26


class StoreError(Exception):
    """The store could not do what was asked: the message says what and why, the hint what to do."""

    #: Whether it failed because another program held the database (trying again may work).
    busy = False

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.hint = hint


class StoreLocked(StoreError):
    """Another server (or store) holds the data directory."""


class StoreDamaged(StoreError):
    """The database file, or one table's row in it, cannot be read."""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _code(exc: sqlite3.Error) -> Optional[int]:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return _BUSY
    if "malformed" in text or "not a database" in text:
        return _CORRUPT
    return None


def _busy(exc: sqlite3.Error) -> bool:
    return _code(exc) in (_BUSY, _LOCKED)


class DataLock:
    """An exclusive OS lock (``flock``) on ``path``, held until :meth:`release` (or the process
    ends); the file holds the holder's process id, for the message of the one refused."""

    def __init__(self, path: Path):
        self.path = path
        self.fd: Optional[int] = None
        if fcntl is None:           # pragma: no cover
            return
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot keep tables in {path.parent}: {exc.strerror or exc}",
                             "give a directory you may write to (--data DIR)") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise StoreLocked(f"the tables in {path.parent} are in use by another catrules server{who}",
                              "stop that server first, or give this one a data directory of its own "
                              "(--data DIR)") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            os.close(self.fd)       # closing the file releases its lock
            self.fd = None


class Store:
    """One SQLite file; safe to use from the server's threads (one connection, one lock)."""

    def __init__(self, path: str | Path, busy_timeout: Optional[float] = None, tries: Optional[int] = None):
        self.path = str(path)
        self.busy_timeout = BUSY_TIMEOUT if busy_timeout is None else busy_timeout
        self.tries = TRIES if tries is None else max(1, tries)
        self._lock = threading.Lock()
        self._pending: list = []                # changes waiting for the next group commit
        self._pending_lock = threading.Lock()
        self._dir_lock: Optional[DataLock] = None
        if self.path != ":memory:":
            p = Path(self.path)
            p.parent.mkdir(parents=True, exist_ok=True)
            self._dir_lock = DataLock(p.with_name(p.name + ".lock"))
        try:
            self._db = self._open()
        except BaseException:
            if self._dir_lock is not None:
                self._dir_lock.release()
            raise

    def _open(self) -> sqlite3.Connection:
        """The connection, once the file is known to be a sound SQLite database (a damaged or
        foreign file is refused here, in words, before any table is served)."""
        db = None
        try:
            db = sqlite3.connect(self.path, timeout=self.busy_timeout, check_same_thread=False,
                                 isolation_level=None)
            db.execute("pragma journal_mode=wal")
            # every commit is on the disk before it returns (a power cut loses no change a page
            # was told of); group commit makes that one flush for all the changes that waited
            db.execute("pragma synchronous=full")
            problems = [r[0] for r in db.execute("pragma quick_check").fetchall()]
            if problems != ["ok"]:
                raise sqlite3.DatabaseError(f"database disk image is malformed ({problems[0]})")
            db.executescript(SCHEMA)
            columns = {r[1] for r in db.execute("pragma table_info(tables)")}
            if "changed" not in columns:        # older stores: the time of each table's last change
                db.execute("alter table tables add column changed real")
            return db
        except sqlite3.Error as exc:
            if db is not None:
                db.close()
            if _code(exc) in (_CORRUPT, _NOTADB):
                raise StoreDamaged(f"{self.path} cannot be read as a table store: {exc} "
                                   f"(the file is damaged, cut short, or not one of catrules' stores)",
                                   DAMAGED_HINT) from None
            if _busy(exc):
                raise StoreError(f"{self.path} is held by another program ({exc})",
                                 "stop the program that holds it, then start again") from None
            raise StoreError(f"cannot keep tables in {self.path}: {exc}",
                             "give a directory you may write to (--data DIR)") from None

    def close(self) -> None:
        with self._lock:
            self._db.close()
            if self._dir_lock is not None:
                self._dir_lock.release()

    # ------------------------------------------------------- transactions
    @contextlib.contextmanager
    def _transaction(self):
        """``begin immediate`` ... ``commit``; anything failing inside (or the commit) rolls back."""
        db = self._db
        if db.in_transaction:           # never left so, but a failed rollback must not poison every write
            db.execute("rollback")
        db.execute("begin immediate")
        try:
            yield db
            db.execute("commit")
        except BaseException:
            if db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("rollback")
            raise

    def _write(self, what: str, work) -> None:
        """``work(db)`` in one transaction, tried again while the database is busy."""
        with self._lock:
            self._attempt(what, work)

    def _grouped(self, what: str, work) -> None:
        """``work(db)`` in a transaction shared with the changes that came meanwhile (group
        commit); returns once it is committed, or raises :class:`StoreError` (nothing stored)."""
        job = [work, False, None]               # work, done, its error
        with self._pending_lock:
            self._pending.append(job)
        with self._lock:
            if not job[1]:                      # not written by the group of an earlier caller
                with self._pending_lock:
                    group, self._pending = self._pending, []
                self._commit_group(what, group)
        if job[2] is not None:
            raise job[2]

    def _commit_group(self, what: str, group: list) -> None:
        """The ``group``'s works in one transaction; if that fails but not for a busy database,
        each one alone (only the one at fault fails).  Marks each done, with its error."""
        try:
            self._attempt(what, lambda db: [job[0](db) for job in group])
            failed = None
        except StoreError as exc:
            failed = exc
        for job in group:
            if failed is not None and len(group) > 1 and not failed.busy:
                try:
                    self._attempt(what, job[0])
                except StoreError as exc:
                    job[2] = exc
            elif failed is not None:            # each caller raises an exception of its own
                job[2] = type(failed)(str(failed), failed.hint)
                job[2].busy = failed.busy
            job[1] = True

    def _attempt(self, what: str, work) -> None:
        """``work(db)`` in one transaction (the caller holds the lock), tried again while the
        database is busy."""
        for attempt in range(1, self.tries + 1):
            try:
                with self._transaction() as db:
                    work(db)
                return
            except sqlite3.Error as exc:
                if _busy(exc) and attempt < self.tries:
                    time.sleep(RETRY_PAUSE * attempt)
                    continue
                raise self._failure(f"the server could not save {what}", exc) from None

    def _read(self, work):
        """``work(db)``'s result, tried again while the database is busy."""
        for attempt in range(1, self.tries + 1):
            try:
                with self._lock:
                    return work(self._db)
            except sqlite3.Error as exc:
                if _busy(exc) and attempt < self.tries:
                    time.sleep(RETRY_PAUSE * attempt)
                    continue
                raise self._failure("the server could not read its tables", exc) from None

    def _failure(self, what: str, exc: sqlite3.Error) -> StoreError:
        if _busy(exc):
            busy = StoreError(f"{what}: its store is busy (another program holds {Path(self.path).name}); "
                              f"nothing was changed: try again")
            busy.busy = True
            return busy
        if _code(exc) in (_CORRUPT, _NOTADB):
            return StoreDamaged(f"{what}: its store is damaged ({exc})", DAMAGED_HINT)
        return StoreError(f"{what} ({exc}); nothing was changed: try again")

    # ------------------------------------------------------------- tables
    def add_table(self, row: dict, tokens: dict) -> None:
        """A new table (``row``: the columns of ``tables``) and its tokens (token -> seat or None)."""
        def work(db):
            db.execute("insert into tables (id, created, game_path, game_text, players, options, seed, seats, "
                       "snapshot, finished, changed) values (?,?,?,?,?,?,?,?,?,0,?)",
                       (row["id"], row["created"], row["game_path"], row["game_text"], row["players"],
                        json.dumps(row["options"]), row["seed"], json.dumps(row["seats"]), None, row["created"]))
            db.executemany("insert into tokens (hash, table_id, seat) values (?,?,?)",
                           [(token_hash(t), row["id"], SPECTATOR if s is None else s) for t, s in tokens.items()])
        self._write("the new table", work)

    def delete_table(self, table_id: str) -> None:
        self._write("the deletion of a table", lambda db: _delete(db, [table_id]))

    def expire(self, age: float, now: Optional[float] = None) -> list:
        """Delete the finished tables whose last change is more than ``age`` seconds old; their ids."""
        cutoff = (time.time() if now is None else now) - age
        gone: list = []

        def work(db):
            gone[:] = [r[0] for r in db.execute("select id from tables where finished = 1 "
                                                "and coalesce(changed, created) < ?", (cutoff,))]
            _delete(db, gone)
        self._write("the deletion of old tables", work)
        return gone

    def table(self, table_id: str) -> Optional[dict]:
        """A table's row, decoded (``None``: no such table); :class:`StoreDamaged` if it cannot be."""
        r = self._read(lambda db: db.execute(
            "select id, created, game_path, game_text, players, options, seed, seats, snapshot, finished "
            "from tables where id = ?", (table_id,)).fetchone())
        if r is None:
            return None
        try:
            return {"id": r[0], "created": r[1], "game_path": r[2], "game_text": r[3], "players": r[4],
                    "options": json.loads(r[5]), "seed": r[6], "seats": json.loads(r[7]),
                    "snapshot": json.loads(r[8]) if r[8] else None, "finished": bool(r[9])}
        except (TypeError, ValueError) as exc:
            raise StoreDamaged(f"table {table_id}'s saved data is damaged ({exc})") from None

    def seat_of(self, token: str) -> Optional[tuple]:
        """``(table id, seat)`` of a token (seat ``None``: a spectator), or ``None``."""
        r = self._read(lambda db: db.execute("select table_id, seat from tokens where hash = ?",
                                             (token_hash(token),)).fetchone())
        if r is None:
            return None
        return r[0], (None if r[1] == SPECTATOR else r[1])

    def save(self, table_id: str, snapshot: dict, events: list, finished: bool) -> None:
        """One change of a table, at once: its new snapshot and the events it produced
        (``(viewer, n, event)`` triples); all of it is stored, or (:class:`StoreError`) none."""
        data = json.dumps(snapshot, separators=(",", ":"))
        texts: dict = {}        # an event each viewer saw whole is one object: written out once
        rows = [(table_id, SPECTATOR if v is None else v, n, texts.get(id(ev)) or
                 texts.setdefault(id(ev), json.dumps(ev, separators=(",", ":"))))
                for v, n, ev in events]

        def work(db):
            db.execute("update tables set snapshot = ?, finished = ?, changed = ? where id = ?",
                       (data, int(finished), time.time(), table_id))
            if rows:
                db.executemany("insert into events (table_id, viewer, n, data) values (?,?,?,?)", rows)
        self._grouped("this table's change", work)

    def events(self, table_id: str, viewer: Optional[int], last: Optional[int] = None) -> list:
        """``(n, event)`` pairs a viewer saw, oldest first (only the ``last`` ones if given)."""
        v = SPECTATOR if viewer is None else viewer
        if last is None:
            rows = self._read(lambda db: db.execute(
                "select n, data from events where table_id = ? and viewer = ? order by n", (table_id, v)).fetchall())
        else:
            rows = self._read(lambda db: db.execute(
                "select n, data from events where table_id = ? and viewer = ? order by n desc limit ?",
                (table_id, v, last)).fetchall())[::-1]
        try:
            return [(n, json.loads(d)) for n, d in rows]
        except (TypeError, ValueError) as exc:
            raise StoreDamaged(f"table {table_id}'s saved events are damaged ({exc})") from None

    def count_tables(self) -> int:
        return self._read(lambda db: db.execute("select count(*) from tables").fetchone()[0])


def _delete(db, table_ids: list) -> None:
    for sql in ("delete from tables where id = ?", "delete from tokens where table_id = ?",
                "delete from events where table_id = ?"):
        db.executemany(sql, [(t,) for t in table_ids])
