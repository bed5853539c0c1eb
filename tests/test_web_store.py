"""The web server's store: a failed write is undone, told and recovered from with nothing lost; one
server per data directory; tables leave memory and come back identical; old finished tables
expire; a damaged row or file is reported in words (``catrules serve`` run as a program for the
startup cases)."""

from __future__ import annotations

import gc
import os
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import weakref
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web extra (starlette) is not installed")
pytest.importorskip("httpx", reason="httpx (for Starlette's TestClient) is not installed")

from catrules.web import store as web_store
from catrules.web.store import Store, StoreDamaged, StoreError, StoreLocked
from catrules.web.tables import DAMAGED
from test_web_protocol import GAMES, Page, make_client, new_table, play

ROOT = Path(__file__).resolve().parent.parent
DB = "tables.sqlite3"


@pytest.fixture
def quick(monkeypatch):
    """A store that gives up on a busy database within about half a second."""
    monkeypatch.setattr(web_store, "BUSY_TIMEOUT", 0.1)
    monkeypatch.setattr(web_store, "TRIES", 3)
    monkeypatch.setattr(web_store, "RETRY_PAUSE", 0.05)


def held(path: Path) -> sqlite3.Connection:
    """Another program's connection holding the database (no one else may write) until rolled back."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("begin exclusive")
    return other


def answer(page, ask=None) -> dict:
    d = page.last["view"]["decisions"][0]
    msg = {"type": "choose", "ask": page.last["ask"] if ask is None else ask,
           "option": d["default"] or d["options"][0]["id"], "time": 0.45}
    page.send(msg)
    return msg


def mover(pages):
    return next(p for p in pages if p.seat is not None and p.last["view"]["decisions"])


def test_a_failed_save_is_undone_told_and_recovered_from_losing_nothing(tmp_path, quick):
    with make_client(tmp_path) as client:
        tid, tokens = new_table(client, "meow", seed=3)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        play(pages, stop=lambda n: n >= 3)
        me = mover(pages)
        stored = client.app.state.store.table(tid)["snapshot"]
        other = held(tmp_path / DB)
        try:
            msg = answer(me)
            m = me.receive()
            assert m["type"] == "error" and "could not save" in m["message"] and "try again" in m["message"], m
        finally:
            other.execute("rollback")
            other.close()
        # nothing was taken: the table in memory is the one stored, and the same answer is taken now
        table = client.app.state.registry.table(tid)
        assert table.ask == me.last["ask"] and client.app.state.store.table(tid)["snapshot"] == stored
        me.send(msg)
        for p in pages:
            assert p.receive()["type"] == "state"
        play(pages, stop=lambda n: n >= 4)             # and every later save works
        told = [(p.last["ask"], p.last["view"]) for p in pages]
        for p in pages:
            p.close()
    with make_client(tmp_path) as client:              # a restart: what the pages were told, exactly
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        assert [(p.last["ask"], p.last["view"]) for p in pages] == told
        assert client.app.state.registry.table(tid).state.decisions == told[0][0]


def test_a_busy_database_is_waited_for_and_the_write_tried_again(tmp_path, quick):
    store = Store(tmp_path / DB, tries=10)
    store.add_table({"id": "t", "created": 1.0, "game_path": "g", "game_text": "", "players": 2,
                     "options": [], "seed": 1, "seats": ["human", "human"]}, {})
    other = held(tmp_path / DB)
    threading.Timer(0.6, lambda: (other.execute("rollback"), other.close())).start()
    store.save("t", {"x": 1}, [(0, 1, {"t": "e"})], False)    # waits, tries again, is saved
    assert store.table("t")["snapshot"] == {"x": 1} and store.events("t", 0) == [(1, {"t": "e"})]
    store.tries = 2                                           # held for longer than two tries: refused
    other = held(tmp_path / DB)
    with pytest.raises(StoreError, match="could not save .*busy.*nothing was changed: try again"):
        store.save("t", {"x": 2}, [(0, 2, {"t": "e"})], False)
    other.execute("rollback")
    other.close()
    store.save("t", {"x": 3}, [(0, 3, {"t": "e"})], False)    # no transaction was left open
    assert store.table("t")["snapshot"] == {"x": 3} and [n for n, _ in store.events("t", 0)] == [1, 3]
    store.close()


class Flaky:
    """A connection whose statements starting with ``sql`` fail ``times`` times, as a locked database does."""

    def __init__(self, db, sql: str, times: int = 1):
        self.db, self.sql, self.left = db, sql, times

    def execute(self, sql, *args):
        if sql.startswith(self.sql) and self.left:
            self.left -= 1
            raise sqlite3.OperationalError("database is locked")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def played(data: Path, failing=None) -> tuple:
    """Four answers at a table (the last two with ``failing`` statements failing once), a
    restart; what the pages were told and, after the restart, shown, and the events stored."""
    with make_client(data) as client:
        tid, tokens = new_table(client, "meow", seed=4)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        play(pages, stop=lambda n: n >= 2)
        store = client.app.state.store
        if failing:
            store._db = Flaky(store._db, failing)
        play(pages, stop=lambda n: n >= 2)              # no page is told of the failure
        if failing:
            assert store._db.left == 0
        told = [(p.last["ask"], p.last["view"]) for p in pages]
        for p in pages:
            p.close()
    with make_client(data) as client:
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        shown = [(p.last["ask"], p.last["view"]) for p in pages]
        stored = [client.app.state.store.events(tid, s) for s in (0, 1, None)]
    return told, shown, stored


@pytest.mark.parametrize("failing", ["update tables", "commit"])
def test_a_write_failing_once_is_rolled_back_and_retried_unseen(tmp_path, quick, failing):
    told, shown, stored = played(tmp_path / "flaky", failing)
    assert shown == told
    assert (told, shown, stored) == played(tmp_path / "straight")     # each event stored once, none lost


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def serve(data: Path, *more: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """``catrules serve`` as a program, expected to stop at once (refusing to start)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "catrules", "serve", str(GAMES["meow"]), "--data", str(data),
                           "--port", str(free_port()), *more], cwd=ROOT, env=env, capture_output=True, check=False,
                          text=True, timeout=timeout)


def test_a_second_server_on_the_same_data_refuses_to_start(tmp_path):
    with make_client(tmp_path) as client:
        _, tokens = new_table(client, "meow")
        with pytest.raises(StoreLocked, match=f"in use by another catrules server \\(process {os.getpid()}\\)"):
            Store(tmp_path / DB)
        run = serve(tmp_path)
        assert run.returncode == 1, run
        assert f"the tables in {tmp_path} are in use by another catrules server" in run.stderr
        assert "hint:" in run.stderr and "--data" in run.stderr and "Traceback" not in run.stderr
        assert "http://" not in run.stdout
        Page(client, tokens[0], 0)                       # the first server serves on
    Store(tmp_path / DB).close()                         # released when the server stops


def test_tables_leave_memory_and_come_back_identical(tmp_path):
    with make_client(tmp_path) as client:
        registry = client.app.state.registry
        tid, tokens = new_table(client, "flapcat", seed=6)
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        play(pages, stop=lambda n: n >= 12)
        for p in pages:
            p.close()
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]       # what a page opened now is sent
        before = [p.last for p in pages]
        old = registry.table(tid)
        state = old.state.to_dict()
        gone = weakref.ref(old)
        del old
        for p in pages:
            p.close()
        registry.idle = 0
        registry.tidy()
        assert tid not in registry.tables
        deadline = time.monotonic() + 5
        while gone() is not None and time.monotonic() < deadline:     # the pages' connections end
            time.sleep(0.05)
            gc.collect()
        assert gone() is None, "the table is still held in memory"
        registry.idle = 600
        pages = [Page(client, tokens[s], s) for s in (0, 1, None)]
        assert [p.last for p in pages] == before
        assert registry.table(tid).state.to_dict() == state
        play(pages)                                      # and it plays on to the end
        # a bounded number of tables in memory; finished ones leave it
        registry.keep = 2
        made = [new_table(client, "meow", seed=s)[0] for s in range(4)]
        assert list(registry.tables) == made[-2:]
        assert tid not in registry.tables
        done, _ = new_table(client, "meow", seats=("bot", "bot", "bot"))
        finished(client, done)                           # its bots play in the background
        registry.tidy()
        assert done not in registry.tables and registry.table(done).state.finished


def test_a_table_held_by_a_page_stays_one_object(tmp_path):
    with make_client(tmp_path) as client:
        registry = client.app.state.registry
        tid, tokens = new_table(client, "meow", seed=2)
        a = Page(client, tokens[0], 0)
        registry.idle = 0
        registry.tidy()
        assert tid not in registry.tables
        b = Page(client, tokens[1], 1)                   # the same table as a's, not a copy
        play([a, b], stop=lambda n: n >= 3)
        assert a.last["view"] == registry.table(tid).view(0)


def finished(client, tid: str, timeout: float = 120) -> None:
    """Wait for an all-bot table's game, played on the server's bot pool, to be over and stored."""
    deadline = time.monotonic() + timeout
    while not client.app.state.store.table(tid)["finished"]:
        assert time.monotonic() < deadline, "the bots' game did not end"
        time.sleep(0.05)


def age(data: Path, tids: list, days: float) -> None:
    db = sqlite3.connect(data / DB)
    db.executemany("update tables set changed = ? where id = ?", [(time.time() - days * 86400, t) for t in tids])
    db.commit()
    db.close()


def test_old_finished_tables_expire(tmp_path):
    with make_client(tmp_path) as client:
        old_done, old_tokens = new_table(client, "meow", seats=("bot", "bot", "bot"), seed=1)
        new_done, _ = new_table(client, "meow", seats=("bot", "bot", "bot"), seed=2)
        old_open, open_tokens = new_table(client, "meow", seed=3)
        finished(client, old_done), finished(client, new_done)
    age(tmp_path, [old_done, old_open], 31)
    with make_client(tmp_path) as client:                # deleted at the start
        store = client.app.state.store
        assert store.table(old_done) is None and store.events(old_done, None) == []
        assert store.table(new_done) and store.table(old_open)      # recent, or not finished
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": old_tokens[None]})
            assert "not valid" in ws.receive_json()["message"]
        Page(client, open_tokens[0], 0)
    age(tmp_path, [new_done], 8)
    from test_web_protocol import Client, create_app
    with Client(create_app(list(GAMES.values()), tmp_path, expire_days=0)) as client:     # 0: never
        assert client.app.state.store.table(new_done)
    with Client(create_app(list(GAMES.values()), tmp_path, expire_days=7)) as client:
        registry = client.app.state.registry
        assert client.app.state.store.table(new_done) is None
        # and while the server runs, every hour or so
        again, _ = new_table(client, "meow", seats=("bot", "bot", "bot"), seed=4)
        finished(client, again)
        age(tmp_path, [again], 8)
        registry.tidy()
        assert client.app.state.store.table(again)                 # not yet an hour since the last time
        registry.tidy(now=time.monotonic() + 3601)
        assert client.app.state.store.table(again) is None


DAMAGE = {
    "snapshot not JSON": "update tables set snapshot = '{\"state\": [1, 2' where id = ?",
    "snapshot of nothing": "update tables set snapshot = '{\"state\": {}, \"answers\": 3}' where id = ?",
    "game text": "update tables set game_text = 'this is not a game' where id = ?",
    "seats": "update tables set seats = 'human' where id = ?",
    "events": "update events set data = 'x' where table_id = ?",
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_row_is_reported_and_the_others_served(tmp_path, damage):
    with make_client(tmp_path) as client:
        bad, bad_tokens = new_table(client, "meow", seed=1)
        _, good_tokens = new_table(client, "meow", seed=2)
        play([Page(client, bad_tokens[s], s) for s in (0, 1)], stop=lambda n: n >= 2)
    db = sqlite3.connect(tmp_path / DB)
    db.execute(DAMAGE[damage], (bad,))
    db.commit()
    db.close()
    with make_client(tmp_path) as client:
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "hello", "token": bad_tokens[0]})
            assert ws.receive_json() == {"type": "error", "message": DAMAGED}
            ws.send_json({"type": "hello", "token": good_tokens[0]})     # the connection is still served
            assert ws.receive_json()["type"] == "state"
        pages = [Page(client, good_tokens[s], s) for s in (0, 1)]
        play(pages, stop=lambda n: n >= 2)
        assert new_table(client, "meow")


@pytest.mark.parametrize("damage", ["cut short", "not a database"])
def test_a_damaged_database_file_is_refused_at_startup_with_a_hint(tmp_path, damage):
    with make_client(tmp_path) as client:
        for seed in range(3):
            new_table(client, "meow", seed=seed)
    path = tmp_path / DB
    if damage == "cut short":
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2])
    else:
        path.write_text("these are not the tables you are looking for\n" * 20)
    for _ in range(2):                                   # refused, and the data directory let go of
        with pytest.raises(StoreDamaged):
            Store(path)
    run = serve(tmp_path)
    assert run.returncode == 1, run
    assert f"{path} cannot be read as a table store" in run.stderr
    assert "hint: restore it from a backup, or move it away" in run.stderr and "Traceback" not in run.stderr


def test_expire_days_is_checked_on_the_command_line(tmp_path):
    run = serve(tmp_path, "--expire-days", "-1")
    assert run.returncode == 2 and "--expire-days -1.0 is not a number of days" in run.stderr


class Counting:
    """A connection that counts its transactions and fails the update of table ``bad``."""

    def __init__(self, db, bad=None):
        self.db, self.bad, self.begun = db, bad, 0

    def execute(self, sql, *args):
        if sql.startswith("begin"):
            self.begun += 1
        if self.bad is not None and sql.startswith("update tables") and args and args[0][-1] == self.bad:
            raise sqlite3.IntegrityError("constraint failed")
        return self.db.execute(sql, *args)

    def __getattr__(self, name):
        return getattr(self.db, name)


def saved_together(store: Store, ids: list) -> dict:
    """Each of ``ids`` saved from a thread of its own while the store is busy writing, so that
    they wait and are written as one group; what each save gave (``None``: stored)."""
    got: dict = {}

    def save(tid):
        try:
            store.save(tid, {"x": tid}, [(0, 1, {"t": tid}), (1, 1, {"t": tid})], False)
            got[tid] = None
        except StoreError as exc:
            got[tid] = exc
    with store._lock:                   # another change being written
        threads = [threading.Thread(target=save, args=(t,)) for t in ids]
        for t in threads:
            t.start()
        deadline = time.monotonic() + 30
        while len(store._pending) < len(ids) and time.monotonic() < deadline:
            time.sleep(0.01)
    for t in threads:
        t.join(30)
    return got


@pytest.mark.parametrize("bad", [None, "b"])
def test_changes_that_wait_are_committed_together_and_a_faulty_one_fails_alone(tmp_path, bad):
    store = Store(tmp_path / DB)
    ids = ["a", "b", "c"]
    for tid in ids:
        store.add_table({"id": tid, "created": 1.0, "game_path": "g", "game_text": "", "players": 2,
                         "options": [], "seed": 1, "seats": ["human", "human"]}, {})
    store._db = Counting(store._db, bad)
    got = saved_together(store, ids)
    assert set(got) == set(ids)
    for tid in ids:
        if tid == bad:
            assert isinstance(got[tid], StoreError) and "could not save" in str(got[tid])
            assert store.table(tid)["snapshot"] is None and store.events(tid, 0) == []
        else:
            assert got[tid] is None
            assert store.table(tid)["snapshot"] == {"x": tid} and store.events(tid, 1) == [(1, {"t": tid})]
    # one transaction for the three; with a faulty one, then one each
    assert store._db.begun == (1 if bad is None else 4)
    store.close()
