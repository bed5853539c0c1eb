"""Time from starting ``catrules play`` to its first prompt on the screen (a cold start).

    python benchmarks/first_prompt.py [--runs N] [--game FILE] [--json]
                                      [--src DIR --python EXE]

Each command runs under a pseudo-terminal (as a player would start it), and the
time counts until the first prompt's words appear in what it writes: the plain
table's ``Your choice`` line, or, for the full-screen table, the prompt of the
first decision drawn on the screen. The process is then stopped. Every command
runs ``--runs`` times (default 5) and the fastest counts, as the first run may
also pay for a disk cache; ``catrules check`` once first warms the game cache.
``--src DIR --python EXE`` runs the catrules found in DIR (a checkout of
another commit, for a before/after) with that Python instead of this
environment's ``catrules``. Speed is never asserted in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import signal
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CATRULES = str(Path(sys.executable).parent / "catrules")
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")

#: name -> (arguments after `catrules`, the words that show the first prompt)
COMMANDS = {
    "plain": (["play", "{game}", "--plain", "--seed", "1"], b"Your choice"),
    "full-screen": (["play", "{game}", "--seed", "1"], b"Play to the trick"),
}


def time_to_prompt(args: list, marker: bytes, timeout: float = 20.0, src=None, python=None) -> float:
    """Seconds from fork to ``marker`` in the output of ``catrules ARGS`` under a pty."""
    import fcntl
    import pty
    import struct
    import termios

    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:                                   # the child: a 120x40 terminal
        os.environ["TERM"] = "xterm-256color"
        if src:
            os.environ["PYTHONPATH"] = src
            os.execv(python, [python, "-c", "import sys; from catrules.cli import main; sys.exit(main())",
                              *args])
        os.execv(CATRULES, [CATRULES, *args])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    seen = b""
    try:
        while time.perf_counter() - t0 < timeout:
            ready, _, _ = select.select([fd], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(fd, 65536)
            except OSError:
                break
            if not data:
                break
            seen = (seen + ANSI.sub(b"", data))[-20000:]
            if marker in seen or marker in seen.replace(b"\r\n", b" "):
                return time.perf_counter() - t0
        raise RuntimeError(f"no {marker!r} within {timeout} s; last output: {seen[-300:]!r}")
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
        os.close(fd)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--game", default="games/meow.cat")
    ap.add_argument("--only", choices=list(COMMANDS))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--src", help="run the catrules of this directory (with --python)")
    ap.add_argument("--python", default=sys.executable, help="the Python for --src")
    args = ap.parse_args(argv)
    os.chdir(REPO)
    if args.src:
        os.system(f"PYTHONPATH={args.src} {args.python} -c 'import sys; from catrules.cli import main; "
                  f"sys.exit(main())' check {args.game} > /dev/null 2>&1")
    else:
        os.system(f"{CATRULES} check {args.game} > /dev/null 2>&1")     # warm the caches once
    report = {"game": args.game, "runs": args.runs, "seconds": {}}
    for name, (cmd, marker) in COMMANDS.items():
        if args.only and name != args.only:
            continue
        cmd = [a.format(game=args.game) for a in cmd]
        times = [time_to_prompt(cmd, marker, src=args.src, python=args.python) for _ in range(args.runs)]
        report["seconds"][name] = {"best": min(times), "all": times}
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        for name, r in report["seconds"].items():
            print(f"{name:<12} first prompt after {r['best'] * 1000:7.0f} ms (best of {args.runs}; "
                  f"all: {', '.join(f'{t * 1000:.0f}' for t in r['all'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
