"""The SQLite store of a web server: tables, their seats' tokens, their events and snapshots.

Everything a table needs to resume exactly is kept here (the game file's text, players,
options, seed, seat kinds, and after every change a snapshot: the engine state, the bots'
random source and the answers collected for the decision under way), so a server that
stops and starts again on the same file loses nothing.  Tokens are kept only as hashes.
Events are kept as each seat saw them (filtered when they happened), for the page's list
of recent events and the seat's log.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Optional

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


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Store:
    """One SQLite file; safe to use from the server's threads (one connection, one lock)."""

    def __init__(self, path: str | Path):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("pragma journal_mode=wal")
        self._db.execute("pragma synchronous=normal")
        self._lock = threading.Lock()
        with self._lock:
            self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------- tables
    def add_table(self, row: dict, tokens: dict) -> None:
        """A new table (``row``: the columns of ``tables``) and its tokens (token -> seat or None)."""
        with self._lock:
            db = self._db
            db.execute("begin")
            db.execute("insert into tables (id, created, game_path, game_text, players, options, seed, seats, "
                       "snapshot, finished) values (?,?,?,?,?,?,?,?,?,0)",
                       (row["id"], row["created"], row["game_path"], row["game_text"], row["players"],
                        json.dumps(row["options"]), row["seed"], json.dumps(row["seats"]), None))
            db.executemany("insert into tokens (hash, table_id, seat) values (?,?,?)",
                           [(token_hash(t), row["id"], SPECTATOR if s is None else s) for t, s in tokens.items()])
            db.execute("commit")

    def delete_table(self, table_id: str) -> None:
        with self._lock:
            db = self._db
            db.execute("begin")
            for sql in ("delete from tables where id = ?", "delete from tokens where table_id = ?",
                        "delete from events where table_id = ?"):
                db.execute(sql, (table_id,))
            db.execute("commit")

    def table(self, table_id: str) -> Optional[dict]:
        with self._lock:
            r = self._db.execute("select id, created, game_path, game_text, players, options, seed, seats, snapshot, "
                                 "finished from tables where id = ?", (table_id,)).fetchone()
        if r is None:
            return None
        return {"id": r[0], "created": r[1], "game_path": r[2], "game_text": r[3], "players": r[4],
                "options": json.loads(r[5]), "seed": r[6], "seats": json.loads(r[7]),
                "snapshot": json.loads(r[8]) if r[8] else None, "finished": bool(r[9])}

    def seat_of(self, token: str) -> Optional[tuple]:
        """``(table id, seat)`` of a token (seat ``None``: a spectator), or ``None``."""
        with self._lock:
            r = self._db.execute("select table_id, seat from tokens where hash = ?", (token_hash(token),)).fetchone()
        if r is None:
            return None
        return r[0], (None if r[1] == SPECTATOR else r[1])

    def save(self, table_id: str, snapshot: dict, events: list, finished: bool) -> None:
        """One change of a table, at once: its new snapshot and the events it produced
        (``(viewer, n, event)`` triples)."""
        with self._lock:
            db = self._db
            db.execute("begin")
            db.execute("update tables set snapshot = ?, finished = ? where id = ?",
                       (json.dumps(snapshot, separators=(",", ":")), int(finished), table_id))
            if events:
                db.executemany("insert into events (table_id, viewer, n, data) values (?,?,?,?)",
                               [(table_id, SPECTATOR if v is None else v, n, json.dumps(ev, separators=(",", ":")))
                                for v, n, ev in events])
            db.execute("commit")

    def events(self, table_id: str, viewer: Optional[int], last: Optional[int] = None) -> list:
        """``(n, event)`` pairs a viewer saw, oldest first (only the ``last`` ones if given)."""
        v = SPECTATOR if viewer is None else viewer
        with self._lock:
            if last is None:
                rows = self._db.execute("select n, data from events where table_id = ? and viewer = ? order by n",
                                        (table_id, v)).fetchall()
            else:
                rows = self._db.execute("select n, data from events where table_id = ? and viewer = ? "
                                        "order by n desc limit ?", (table_id, v, last)).fetchall()[::-1]
        return [(n, json.loads(d)) for n, d in rows]

    def count_tables(self) -> int:
        with self._lock:
            return self._db.execute("select count(*) from tables").fetchone()[0]
