"""Figures for web tables: the round trip of a choice on localhost, and many tables at once.

Starts a real server (uvicorn, in this process's thread) on a free port, then plays with
WebSocket clients (the ``websockets`` package) as pages would: each table has one person's
seat, answered at once with its default, and bots in the other seats.

* round trip: from sending a choice to receiving the next view, over whole games;
* load: ``--tables`` tables (20 by default) played at once to the end, counting errors.

The round trip includes the bots' turns between two of the person's choices (a greedy bot
looks ahead; ``--bots random`` shows the server's own share).

Run: ``python benchmarks/web_load.py`` (``--tables 20 --game games/meow.cat --players 4 --bots bot``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import uvicorn
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from catrules.web.app import create_app  # noqa: E402


def start_server(games, data):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    server = uvicorn.Server(uvicorn.Config(create_app(games, data), host="127.0.0.1", port=port,
                                           log_level="warning", ws="websockets-sansio"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    while not server.started:
        time.sleep(0.01)
    return server, th, port


async def one_table(port: int, game: str, players: int, seed: int, times: list, errors: list, bots: str) -> int:
    """Make a table (seat 1 a person, the others bots) and play it to the end; the answers given."""
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http:
        r = await http.post("/api/tables", json={"game": game, "players": players, "seed": seed,
                                                 "seats": ["human"] + [bots] * (players - 1)})
        made = r.json()
    token = made["links"][0]["link"].split("#", 1)[1]
    answers = 0
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        msg = json.loads(await ws.recv())
        while not msg["view"]["finished"]:
            d = msg["view"]["decisions"][0]
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "choose", "ask": msg["ask"], "time": 0.5,
                                      "option": d["default"] or d["options"][0]["id"]}))
            msg = json.loads(await ws.recv())
            times.append(time.perf_counter() - t0)
            answers += 1
            if msg["type"] != "state":
                errors.append(msg)
                break
    return answers


async def run(port, game, players, tables, seed, bots) -> tuple:
    times, errors = [], []
    t0 = time.perf_counter()
    done = await asyncio.gather(*(one_table(port, game, players, seed + i, times, errors, bots) for i in range(tables)),
                                return_exceptions=True)
    wall = time.perf_counter() - t0
    errors += [d for d in done if isinstance(d, BaseException)]
    return times, errors, wall, sum(d for d in done if isinstance(d, int))


def ms(x: float) -> str:
    return f"{x * 1000:.1f} ms"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default=str(ROOT / "games" / "meow.cat"))
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--tables", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="bot", help="the bots' kind (bot = greedy, random...)")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as data:
        server, th, port = start_server([a.game], data)
        game = Path(a.game).stem
        try:
            times, errors, wall, n = asyncio.run(run(port, game, a.players, 1, a.seed, a.bots))
            q = statistics.quantiles(times, n=20)
            print(f"round trip, one table ({game}, {a.players} players, {a.bots} bots, {n} choices): "
                  f"median {ms(statistics.median(times))}, 95th percentile {ms(q[18])}, max {ms(max(times))}")
            times, errors, wall, n = asyncio.run(run(port, game, a.players, a.tables, a.seed + 100, a.bots))
            q = statistics.quantiles(times, n=20)
            print(f"{a.tables} tables at once: {n} choices in {wall:.1f} s, errors: {len(errors)}; round trip "
                  f"median {ms(statistics.median(times))}, 95th percentile {ms(q[18])}, max {ms(max(times))}")
            for e in errors[:3]:
                print("  error:", e)
        finally:
            server.should_exit = True
            th.join(10)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
