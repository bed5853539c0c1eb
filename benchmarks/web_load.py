"""Load on a web server as people make it: many tables, each person thinking before answering.

Starts ``catrules serve`` as its own process (so its processor time and memory are its own),
then plays with WebSocket clients (the ``websockets`` package) as pages would. Each table has
one person's seat, which waits a think time (uniform between half and one and a half times
``--think``) before answering with its default, bots in the other seats, and optionally a
spectator page. When a table's game ends, a new table takes its place, until ``--seconds``
have passed after the ramp-up.

Reported, over the measured window (after ramp-up):

* **latency** of a person's choice: from sending it to receiving the first state that shows it
  taken (p50/p90/p99/max), and the **turn** time: from sending it to the person's next decision
  (the bots' turns in between included);
* the server's **processor time per choice** (the person's choices and the bots' decisions,
  counted from the decision numbers the states carry) and in all, from ``/proc``;
* the machine's **load average** at the start and end of the window: on a shared machine the
  other programs' load slows the server as much as its own work does;
* the server's **memory**: resident size at start, after ramp-up and at the end, per table held,
  and its growth per finished game in the second half of the window (the store lets finished
  tables go from memory, so this should be about zero).

Run: ``python benchmarks/web_load.py`` (``--tables 200 --think 1 --seconds 60 --game games/meow.cat
--players 4 --bots greedy --spectators``). ``--server-arg=--max-bot-seconds=1`` passes options on.
Ctrl-C stops it and the server.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import psutil
import websockets

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_server(games: list, data: str, port: int, extra: list) -> subprocess.Popen:
    """``catrules serve`` in its own process; returns once it answers."""
    # every table here comes from one address: the limit on new tables per client is lifted
    # (a --server-arg given later wins)
    cmd = [sys.executable, "-m", "catrules", "serve", *games, "--port", str(port), "--data", data,
           "--tables-per-minute", "100000", *extra]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {proc.stderr.read().decode()[-800:]}")
        try:
            httpx.get(f"http://127.0.0.1:{port}/api/games", timeout=1)
            return proc
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start within 60 s")


class Figures:
    """What the clients saw, and the window it counts in."""

    def __init__(self):
        self.measuring = False
        self.latency: list = []     # seconds from sending a choice to the state showing it
        self.turn: list = []        # seconds from sending a choice to the person's next decision
        self.choices = 0            # the persons' choices in the window
        self.decisions = 0          # every decision taken in the window (persons' and bots')
        self.finished = 0           # games finished in the window
        self.tables = 0             # tables made in all
        self.errors: list = []


async def play_table(http, port: int, spec: dict, think: float, rng: random.Random, fig: Figures,
                     spectate: bool, stop: asyncio.Event) -> None:
    """Make one table and play its person's seat to the end (or until ``stop``)."""
    r = await http.post("/api/tables", json=spec)
    for _ in range(20):                 # a polite client waits as told when too many tables start at once
        if r.status_code != 429 or stop.is_set():
            break
        await asyncio.sleep(float(r.headers.get("retry-after", 1)) * (0.5 + rng.random()))
        r = await http.post("/api/tables", json=spec)
    if r.status_code != 200:
        fig.errors.append(f"making a table: {r.status_code} {r.text[:200]}")
        await asyncio.sleep(1)
        return
    made = r.json()
    fig.tables += 1
    token = made["links"][0]["link"].split("#", 1)[1]
    watcher = asyncio.create_task(spectator(port, made["spectator"].split("#", 1)[1], stop)) if spectate else None
    try:
        async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=2 ** 22) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            await person(ws, think, rng, fig, stop)
    finally:
        if watcher is not None:
            watcher.cancel()


async def person(ws, think: float, rng: random.Random, fig: Figures, stop: asyncio.Event) -> None:
    """Answer each of the seat's decisions after a think time, timing what comes back."""
    sent_at, sent_ask, shown, last_ask = None, None, False, None
    while not stop.is_set():
        msg = json.loads(await ws.recv())
        kind = msg.get("type")
        if kind == "ping":
            await ws.send(json.dumps({"type": "pong", "n": msg.get("n")}))
            continue
        if kind != "state":
            fig.errors.append(str(msg)[:200])
            if kind == "error":
                continue
            return
        ask = msg.get("ask")
        if fig.measuring and last_ask is not None and isinstance(ask, int):
            fig.decisions += max(0, ask - last_ask)
        last_ask = ask
        now = time.perf_counter()
        if sent_at is not None and not shown and ask != sent_ask:
            shown = True
            if fig.measuring:
                fig.latency.append(now - sent_at)
        view = msg["view"]
        if view.get("finished"):
            if fig.measuring:
                fig.finished += 1
            return
        mine = [d for d in view.get("decisions", []) if d.get("player", 0) == 0]
        if not mine or ask == sent_ask:
            continue
        if sent_at is not None and fig.measuring:
            fig.turn.append(now - sent_at)
        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        d = mine[0]
        sent_at, sent_ask, shown = time.perf_counter(), ask, False
        await ws.send(json.dumps({"type": "choose", "ask": ask, "option": d["default"] or d["options"][0]["id"]}))
        if fig.measuring:
            fig.choices += 1


async def spectator(port: int, token: str, stop: asyncio.Event) -> None:
    """A page that watches a table and reads everything it is sent."""
    async with websockets.connect(f"ws://127.0.0.1:{port}/ws", max_size=2 ** 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while not stop.is_set():
            msg = json.loads(await ws.recv())
            if msg.get("type") == "ping":
                await ws.send(json.dumps({"type": "pong", "n": msg.get("n")}))


async def seat_loop(i: int, a, port: int, fig: Figures, stop: asyncio.Event) -> None:
    """One place at the server: a table after another, until ``stop``."""
    rng = random.Random(a.seed * 100003 + i)
    await asyncio.sleep(a.ramp * i / max(1, a.tables))
    spec = {"game": Path(a.game).stem, "players": a.players, "seats": ["human"] + [a.bots] * (a.players - 1)}
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        while not stop.is_set():
            try:
                await play_table(http, port, spec, a.think, rng, fig, a.spectators, stop)
            except (OSError, websockets.WebSocketException, httpx.HTTPError) as exc:
                fig.errors.append(f"{type(exc).__name__}: {exc}"[:200])
                await asyncio.sleep(1)


def cpu_seconds(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system


async def measure(a, port: int, server: psutil.Process) -> dict:
    fig, stop = Figures(), asyncio.Event()
    rss = {"start": server.memory_info().rss}
    tasks = [asyncio.create_task(seat_loop(i, a, port, fig, stop)) for i in range(a.tables)]
    await asyncio.sleep(a.ramp + 2)
    rss["ramped"] = server.memory_info().rss
    fig.measuring, cpu0, t0 = True, cpu_seconds(server), time.perf_counter()
    load = [os.getloadavg()[0]]     # the machine's load (other programs slow the server too)
    half, samples = a.seconds / 2, []
    while time.perf_counter() - t0 < a.seconds:
        await asyncio.sleep(1)
        if time.perf_counter() - t0 >= half:
            samples.append((fig.finished, server.memory_info().rss))
        print(f"\r  {time.perf_counter() - t0:4.0f}/{a.seconds:.0f} s  choices {fig.choices}  "
              f"games finished {fig.finished}  errors {len(fig.errors)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    cpu, wall = cpu_seconds(server) - cpu0, time.perf_counter() - t0
    fig.measuring = False
    rss["end"] = server.memory_info().rss
    load.append(os.getloadavg()[0])
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"fig": fig, "cpu": cpu, "wall": wall, "rss": rss, "growth": growth(samples), "load": load}


def growth(samples: list) -> float:
    """Bytes of resident memory per finished game over the samples (least squares), or NaN."""
    if len(samples) < 3 or samples[-1][0] == samples[0][0]:
        return float("nan")
    xs, ys = [s[0] for s in samples], [s[1] for s in samples]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")


def pct(xs: list, q: float) -> str:
    if not xs:
        return "-"
    s = sorted(xs)
    return f"{s[min(len(s) - 1, int(q * len(s)))] * 1000:.0f}"


def report(a, r: dict) -> None:
    fig, mb = r["fig"], 1 / 2 ** 20
    print(f"{a.tables} tables of {Path(a.game).stem} ({a.players} players: 1 person thinking {a.think:g} s "
          f"± 50%, {a.players - 1} {a.bots} bots{', a spectator' if a.spectators else ''}), "
          f"{r['wall']:.0f} s measured after {a.ramp:g} s of ramp-up")
    print(f"  person's choices: {fig.choices} ({fig.choices / r['wall']:.1f}/s), all decisions: {fig.decisions} "
          f"({fig.decisions / r['wall']:.1f}/s), games finished: {fig.finished}, errors: {len(fig.errors)}")
    print(f"  latency ms  p50 {pct(fig.latency, .5)}  p90 {pct(fig.latency, .9)}  p99 {pct(fig.latency, .99)}  "
          f"max {pct(fig.latency, 1)}   (choice sent -> state showing it)")
    print(f"  turn ms     p50 {pct(fig.turn, .5)}  p90 {pct(fig.turn, .9)}  p99 {pct(fig.turn, .99)}  "
          f"max {pct(fig.turn, 1)}   (choice sent -> the person's next decision)")
    per = r["cpu"] / fig.decisions * 1000 if fig.decisions else float("nan")
    print(f"  server CPU: {r['cpu']:.1f} s in {r['wall']:.0f} s ({100 * r['cpu'] / r['wall']:.0f}% of one core), "
          f"{per:.2f} ms per decision, "
          f"{r['cpu'] / fig.choices * 1000 if fig.choices else float('nan'):.1f} ms per person's choice")
    rss = r["rss"]
    print(f"  server memory: {rss['start'] * mb:.0f} MB at start, {rss['ramped'] * mb:.0f} MB after ramp-up, "
          f"{rss['end'] * mb:.0f} MB at the end ({(rss['ramped'] - rss['start']) / max(1, a.tables) / 1024:.0f} kB "
          f"per table held); growth per finished game in the second half: {r['growth'] / 1024:.1f} kB")
    print(f"  machine load average (1 min): {r['load'][0]:.1f} at the start of the window, {r['load'][1]:.1f} "
          f"at its end, on {os.cpu_count()} cores (the server and these clients included)")
    for e in fig.errors[:5]:
        print("  error:", e)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="games/meow.cat", help="game file (default games/meow.cat)")
    ap.add_argument("--players", type=int, default=4, help="players per table (default 4)")
    ap.add_argument("--tables", type=int, default=200, help="tables at once (default 200)")
    ap.add_argument("--think", type=float, default=1.0, help="a person's mean think time in seconds (default 1)")
    ap.add_argument("--seconds", type=float, default=60, help="length of the measured window (default 60)")
    ap.add_argument("--ramp", type=float, default=20, help="seconds over which the tables arrive (default 20)")
    ap.add_argument("--bots", default="greedy", help="the bots' kind (default greedy)")
    ap.add_argument("--spectators", action="store_true", help="a spectator page at every table")
    ap.add_argument("--seed", type=int, default=1, help="seed of the think times (default 1)")
    ap.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                    help="an option for catrules serve (repeatable), e.g. --server-arg=--max-bot-seconds=1")
    a = ap.parse_args(argv)
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = start_server([str(Path(a.game).resolve())], data, port, a.server_arg)
        try:
            r = asyncio.run(measure(a, port, psutil.Process(proc.pid)))
        finally:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    report(a, r)
    return 1 if r["fig"].errors else 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
