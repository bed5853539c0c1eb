"""Probe extreme game files (issue "Hostile inputs"): each case is loaded and, if it loads,
played to its end by random bots under the simulation's decision budget, in a child process
with a time and memory cap.  Prints one row per case: its outcome, the message and the time.

    python tools/probe_extreme.py [--timeout 20] [--only NAME]

Outcomes: ``rejected`` (a located GameFileError), ``warned`` (loaded with a warning and played),
``played``, ``rules-error`` (a located RulesError), ``unfinished`` (stopped by the decision budget),
and the failures ``unlocated``, ``traceback``, ``hang``, ``memory``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

BASE = """\
catrules 3
game "Extreme"
players 2 to 4

cards number in deck:
    for each value in 1 to 5:
        card

zone deck: shared, hidden, pile
zone hand: per player, public, pile

counter pot = 0
counter k = 2

"""
FLOW = """\
flow:
    shuffle deck
    for each player p:
        move top(deck, 2) to hand of p
    EXTRA

score:
    points = SCORE
"""


def game(extra="", score="count(hand)", decls="", base=BASE):
    body = FLOW.replace("EXTRA", extra.replace("\n", "\n    ") if extra else "pot = pot").replace("SCORE", score)
    return base + decls + body


def twelve_actions():
    return "".join(f"action a{i}():\n" + "".join(f"    do a{j}()\n" for j in range(12)) + "\n" for i in range(12))


CASES = {
    "brackets 300": game(score="(" * 300 + "2" + ")" * 300),
    "brackets 250 in flow": game(extra="pot = " + "(" * 250 + "2" + ")" * 250),
    "plus 300": game(score=" + ".join(["2"] * 300)),
    "or 300": game(extra="if " + " or ".join(["false"] * 300) + ":\n    pot = 1"),
    "not 300": game(extra="if " + "not " * 300 + "true:\n    pot = 1"),
    "if-else 300": game(score="if true then " * 300 + "2" + " else 0" * 300),
    "lists 300": game(extra="pot = count(" + "[" * 300 + "2" + "]" * 300 + ")"),
    "blocks 200": game(extra="".join("    " * i + "if true:\n" for i in range(200)) + "    " * 200 + "pot = 1"),
    "5000-digit number": game(score="9" * 5000),
    "5000-digit in start": BASE.replace("counter pot = 0", "counter pot = " + "9" * 5000) + game()[len(BASE):],
    "huge range rows": BASE.replace("1 to 5", "1 to 1000000000") + game()[len(BASE):],
    "huge range expr": game(extra="pot = count(range(1, 1000000000))"),
    "huge copies rows": BASE.replace("        card\n", "        1000000000 cards\n") + game()[len(BASE):],
    "huge copies expr": game(extra="pot = count(copies(1, 1000000000))"),
    "grid 100000x100000": game(decls="zone board: shared, public, grid 100000 by 100000\n\n"),
    "list * 10^9": game(extra="pot = count([1, 2] * 1000000000)"),
    "list * big counter": game(extra="pot = 1000000000\npot = count([1, 2] * pot)"),
    "repeated squaring": game(extra="pot = 2\nrepeat 100 times:\n    pot = pot * pot"),
    "doubling a list": game(decls="counter xs = [1]\n\n", extra="repeat 100 times:\n    xs = xs + xs"),
    "define self": game(decls="define f(x) = f(x)\n\n", score="f(1)"),
    "define mutual": game(decls="define f(x) = g(x)\ndefine g(x) = f(x)\n\n", score="f(1)"),
    "action self": game(decls="action again():\n    pot = pot + 1\n    do again()\n\n", extra="do again()"),
    "action mutual": game(decls="action a():\n    do b()\n\naction b():\n    do a()\n\n", extra="do a()"),
    "twelve actions": game(decls=twelve_actions(), extra="do a0()"),
    "ten phases": game(decls="".join(f"phase p{i}:\n" + "".join(f"    play p{j}\n" for j in range(10)) + "\n"
                                     for i in range(10)), extra="play p0"),
    "div 0 in score": game(score="count(hand) / pot"),
    "div 0 in counter start": BASE.replace("counter pot = 0", "counter pot = 1 / 0") + game()[len(BASE):],
    "lowest over none score": game(score="none") + "\nwinner:\n    lowest total\n",
    "lowest none key": game() + "\nwinner:\n    lowest first([])\n",
    "define f(a, a)": game(decls="define f(a, a) = a\n\n", score="f(1, 2)"),
    "action f(a, a)": game(decls="action f(a, a):\n    pot = a\n\n", extra="do f(1, 2)"),
    "pick key = counter": game(score="pick(1, k: 2, else: 3)"),
    "never ends, deciding": game(extra="repeat while true:\n    for each player p:\n"
                                       "        p chooses c from [1, 2]"),
    "never ends, repeat until false": game(extra="repeat until false:\n    for each player p:\n"
                                                 "        p chooses c from [1, 2]"),
    "never ends, no decision": game(extra="repeat while true:\n    pot = pot + 0"),
    "ends by end game": game(extra="repeat while true:\n    for each player p:\n"
                               "        p chooses c from [1, 2]\n        if c == 2:\n            end game"),
}


def _child(src, q):
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))    # 1 GB: running out is an outcome
    from catrules import api
    from catrules.errors import GameFileError, RulesError
    from catrules.lab.simulate import simulate
    try:
        try:
            g = api.load_source(src, "extreme.cat")
        except GameFileError as exc:
            ds = exc.diagnostics
            ok = ds and all(d.line > 0 for d in ds)
            q.put(("rejected" if ok else "unlocated", str(exc).splitlines()[0][:110]))
            return
        warns = [w for w in getattr(g, "warnings", [])]
        try:
            r = simulate(g, players=2, games=3, seed=1)
        except RulesError as exc:
            q.put(("rules-error" if exc.line > 0 else "unlocated", str(exc).splitlines()[0][:110]))
            return
        unf = getattr(r, "unfinished", 0)
        what = "unfinished" if unf else ("warned" if warns else "played")
        msg = (str(warns[0]).splitlines()[0][:80] if warns else "") + (f" [{unf} of 3 unfinished]" if unf else "")
        q.put((what, msg))
    except MemoryError:
        q.put(("memory", "MemoryError"))
    except BaseException as exc:      # the bug this probe hunts
        q.put(("traceback", f"{type(exc).__name__}: {str(exc)[:90]}"))


def probe(src, timeout):
    # spawn, not fork: a fork of a process with threads (a test worker that ran a server or a
    # cluster) may hang on a lock one of them held, which this probe would report as a hang
    ctx = mp.get_context("spawn")
    q = ctx.Queue()
    p = ctx.Process(target=_child, args=(src, q))
    t = time.perf_counter()
    p.start()
    p.join(timeout)
    if p.is_alive():
        p.kill()
        p.join()
        return "hang", f"no end within {timeout} s", time.perf_counter() - t
    out = q.get() if not q.empty() else ("traceback", f"child died (exit {p.exitcode})")
    return out[0], out[1], time.perf_counter() - t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--only", default=None)
    args = ap.parse_args(argv)
    bad = 0
    for name, src in CASES.items():
        if args.only and args.only not in name:
            continue
        what, msg, secs = probe(src, args.timeout)
        bad += what in ("unlocated", "traceback", "hang", "memory")
        print(f"{name:<32} {what:<12} {secs:6.2f}s  {msg}", flush=True)
    print(f"failures: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
