"""simulate --jobs N and --cluster: the same results and log bytes for every N and on a cluster,
worker errors in words, games shipped as text (catrules.lab.parallel)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import catrules
from catrules.lab import parallel
from catrules.cli import main
from catrules.lab.parallel import GameText, ParallelError, map_in_order
from catrules.lab.simulate import SimulationError, simulate

# a pool stopped early must stop cleanly: an exception in its manager thread fails the test
pytestmark = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"

# A game that divides by the value of a chosen card: now and then a bot picks the 0.
SOMETIMES_BAD = '''catrules 1
game "Sometimes Bad"
players 2 to 2
cards c in deck:
    for each value in 0 to 29:
        card
zone deck: shared
zone hand: per player, public, pile
counter x = 0
flow:
    for each player p:
        p chooses c from deck default lowest c.value
        x = 12 / c.value
        move c to hand of p
score:
    points = 0
winner:
    highest total
    ties share
'''


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def summary(result) -> dict:
    d = result.to_dict()
    del d["timing"], d["log"]
    return d


@pytest.mark.parametrize("path, players, games", [
    ("meow.cat", 4, 12), ("catlady.cat", 3, 8), ("flapcat.cat", 2, 5), ("variants/meow-short.cat", 5, 9)])
def test_every_number_of_jobs_gives_the_same_result_and_log(tmp_path, path, players, games):
    game = catrules.load_game(GAMES / path)
    seen = []
    for jobs in (1, 2, 3):
        log = tmp_path / f"{jobs}.jsonl"
        res = simulate(game, players, games, seed=4, log_path=log, jobs=jobs)
        seen.append((summary(res), log.read_bytes()))
    assert seen[0][0]["games"] == games and seen[0][1].count(b'"type":"header"') == games
    assert seen[1] == seen[0] and seen[2] == seen[0]


def test_unfinished_games_are_counted_alike(tmp_path):
    game = catrules.load_game(GAMES / "meow.cat")
    one = simulate(game, 3, 6, seed=2, max_decisions=40, log_path=tmp_path / "a.jsonl")
    two = simulate(game, 3, 6, seed=2, max_decisions=40, log_path=tmp_path / "b.jsonl", jobs=2)
    assert one.unfinished == 6 and summary(one) == summary(two)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_a_failing_game_is_named_alike_for_every_number_of_jobs():
    game = catrules.load_source(SOMETIMES_BAD, "bad.cat")
    messages = []
    for jobs in (1, 2, 3):
        with pytest.raises(SimulationError) as info:
            simulate(game, 2, 40, seed=1, jobs=jobs)
        messages.append((str(info.value), info.value.hint))
    text, hint = messages[0]
    # the first failing game in game order, not the first to fail on some core
    assert text.startswith("simulated game ") and " of 40 (seed 1000" in text and "simulated game 1 " not in text
    assert "bad.cat:13: division by zero" in text and "divisor" in hint
    assert messages[1] == messages[0] and messages[2] == messages[0]


def test_the_command_reports_a_failing_game_in_words(tmp_path, capsys):
    bad = tmp_path / "bad.cat"
    bad.write_text(SOMETIMES_BAD, encoding="utf-8")
    code, out, err = run(capsys, "simulate", bad, "--players", "2", "--games", "40", "--jobs", "2")
    assert code == 1 and "error: simulated game" in err and "division by zero" in err and "hint:" in err


def test_jobs_on_the_command_line(capsys):
    code, out1, _ = run(capsys, "simulate", GAMES / "meow.cat", "--games", "6", "--json")
    code2, out2, _ = run(capsys, "simulate", GAMES / "meow.cat", "--games", "6", "--json", "--jobs", "auto")
    a, b = json.loads(out1), json.loads(out2)
    del a["timing"], b["timing"]
    assert code == code2 == 0 and a == b
    code, _, err = run(capsys, "simulate", GAMES / "meow.cat", "--jobs", "-1")
    assert code == 2 and "--jobs takes a number of processes" in err
    code, _, err = run(capsys, "simulate", GAMES / "meow.cat", "--jobs", "2", "--cluster", "tcp://127.0.0.1:8786")
    assert code == 2 and "not both" in err
    with pytest.raises(ValueError, match="number of jobs"):
        simulate(GAMES / "meow.cat", 4, 1, seed=1, jobs=-2)


def test_a_variant_travels_as_text_and_loads_without_its_files(tmp_path):
    (tmp_path / "base").mkdir()
    (tmp_path / "mine").mkdir()
    (tmp_path / "base" / "meow.cat").write_text((GAMES / "meow.cat").read_text(encoding="utf-8"), encoding="utf-8")
    variant = tmp_path / "mine" / "short.cat"
    variant.write_text((GAMES / "variants" / "meow-short.cat").read_text(encoding="utf-8")
                       .replace("../meow.cat", "../base/meow.cat"), encoding="utf-8")
    game = catrules.load_game(variant)
    text = GameText.of(game)
    assert [rel for rel, _ in text.files] == [str(Path("mine/short.cat")), str(Path("base/meow.cat"))]
    for f in (variant, tmp_path / "base" / "meow.cat"):
        f.unlink()
    parallel._CACHE.clear()
    again = text.load()
    assert again is not game and again.path == str(variant) and again.title == game.title
    assert again is text.load()             # loaded once per process
    assert summary(simulate(again, 3, 4, seed=9)) == summary(simulate(game, 3, 4, seed=9))


def test_map_in_order_keeps_the_order_and_reports_progress():
    done = []
    items = list(range(-30, 30))
    assert list(map_in_order(abs, items, jobs=2, progress=done.append)) == [abs(x) for x in items]
    assert done[-1] == len(items) and done == sorted(done)


def test_cluster_without_dask_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)       # as if it were not installed
    with pytest.raises(ParallelError) as info:
        simulate(GAMES / "meow.cat", 4, 2, seed=1, cluster="tcp://127.0.0.1:8786")
    assert "pip install 'catrules[cluster]'" in info.value.hint
    code, _, err = run(capsys, "simulate", GAMES / "meow.cat", "--games", "2", "--cluster", "tcp://127.0.0.1:8786")
    assert code == 1 and "needs Dask distributed" in err and "pip install" in err


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=40) as c:
        yield c.scheduler_address


def test_a_cluster_gives_the_same_result_as_one_process(cluster, tmp_path, capsys):
    short = GAMES / "variants" / "meow-short.cat"       # a variant: its base file travels too
    args = ["simulate", short, "--players", "3", "--games", "10", "--seed", "3", "--json"]
    code1, out1, _ = run(capsys, *args, "--log", tmp_path / "one.jsonl")
    code2, out2, _ = run(capsys, *args, "--log", tmp_path / "cluster.jsonl", "--cluster", cluster)
    a, b = json.loads(out1), json.loads(out2)
    for d in (a, b):
        del d["timing"], d["log"]
    assert code1 == code2 == 0 and a == b and a["games"] == 10
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "cluster.jsonl").read_bytes()


def test_a_failing_game_on_a_cluster_is_named_as_here(cluster):
    game = catrules.load_source(SOMETIMES_BAD, "bad.cat")
    with pytest.raises(SimulationError) as here:
        simulate(game, 2, 40, seed=1)
    with pytest.raises(SimulationError) as there:
        simulate(game, 2, 40, seed=1, cluster=cluster)
    assert str(there.value) == str(here.value) and there.value.hint == here.value.hint


def test_a_pool_stopped_while_a_worker_was_sending_a_result_does_not_hang():
    """A worker ended in the middle of sending its result leaves half a message in the pool's
    pipe: stopping the pool must not wait for the rest for ever (it did, once in a while, when
    a run ended with a copy of a chunk still running)."""
    import multiprocessing
    import os
    import struct
    import threading
    from concurrent.futures import ProcessPoolExecutor
    from catrules.lab.parallel import _stop_pool
    pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
    assert pool.submit(abs, -3).result(timeout=60) == 3        # its worker is up, its thread waits
    writer = pool._result_queue._writer
    os.write(writer.fileno(), struct.pack("!i", 1 << 20) + b"x" * 100)   # half a result
    stopper = threading.Thread(target=_stop_pool, args=(pool,), daemon=True)
    stopper.start()
    stopper.join(30)
    stuck = stopper.is_alive()
    if stuck:                       # let the pool's thread end anyway, so that the tests can
        writer.close()
    assert not stuck
