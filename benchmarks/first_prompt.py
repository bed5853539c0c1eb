"""Time from starting ``catrules play`` to its first prompt on the screen (a cold start).

    python benchmarks/first_prompt.py [--runs N] [--game FILE] [--only NAME] [--floor]
                                      [--no-bytecode-cache] [--json] [--src DIR --python EXE]

Each command runs under a pseudo-terminal (as a player would start it), and the
time counts until the first prompt's words appear in what it writes: the plain
table's ``Your choice`` line, or, for the full-screen table, the prompt of the
first decision drawn on the screen. The process is then stopped. Every command
runs once to warm the caches (not counted), then ``--runs`` times (default 9),
the commands taking turns; the median and the fastest are reported, with the
load average before and after (the machine may be shared: compare medians
taken together).
``catrules check`` once first warms the game cache.

Python's bytecode: a player's Python keeps the compiled modules (``__pycache__``);
when ``PYTHONDONTWRITEBYTECODE`` is set (as on some build machines) every start
would compile catrules again, so the commands then run with it unset and their
bytecode kept under the temporary directory (``PYTHONPYCACHEPREFIX``).
``--no-bytecode-cache`` measures the other way: every start compiles.

``--floor`` also times what no catrules change can go below: Python printing the
words, and a minimal Textual app (one ``Static``) painting them.
``--src DIR --python EXE`` runs the catrules found in DIR (a checkout of
another commit) with that Python instead of this environment's ``catrules``;
``--src BEFORE --src AFTER`` times both, taking turns, for a before/after.
Speed is never asserted in the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import tempfile
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
#: name -> Python code that shows ``FLOOR_WORDS``: the least any start can take
FLOOR_WORDS = b"Play to the trick"
FLOORS = {
    "python": "print('Play to the trick')",
    "textual": ("from textual.app import App\nfrom textual.widgets import Static\n"
                "class A(App):\n    def compose(self):\n        yield Static('Play to the trick')\nA().run()"),
}


def run_from(src: str) -> str:
    """Python code that runs the command line of the catrules in ``src`` (first on the path: run
    with ``-c``, Python would find the catrules of the current directory first)."""
    return f"import sys; sys.path.insert(0, {str(Path(src).resolve())!r}); from catrules.cli import main; sys.exit(main())"


def time_to_prompt(args: list, marker: bytes, timeout: float = 20.0, src=None, python=None, code=None) -> float:
    """Seconds from fork to ``marker`` in the output of ``catrules ARGS`` (or of ``python -c CODE``)
    under a pty."""
    import fcntl
    import pty
    import struct
    import termios

    t0 = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:                                   # the child: a 120x40 terminal
        os.environ["TERM"] = "xterm-256color"
        if code is not None:
            os.execv(python, [python, "-c", code])
        if src:
            os.execv(python, [python, "-c", run_from(src),
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


def bytecode_env(cache: bool) -> str:
    """Set this process's environment (the commands inherit it) for ``cache``; says which."""
    if not cache:
        os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
        os.environ.pop("PYTHONPYCACHEPREFIX", None)
        return "compiled at every start (--no-bytecode-cache)"
    if os.environ.pop("PYTHONDONTWRITEBYTECODE", None):
        folder = os.path.join(tempfile.gettempdir(), "catrules-first-prompt-pycache")
        os.environ.setdefault("PYTHONPYCACHEPREFIX", folder)
        return f"kept in {os.environ['PYTHONPYCACHEPREFIX']}"
    return "kept as Python keeps it"


def measure(trials: dict, runs: int) -> dict:
    """Each of ``trials`` (name -> a function timing one start) once to warm the caches (not
    counted), then ``runs`` rounds in which they take turns (a shared machine's load then
    weighs on all alike)."""
    for fn in trials.values():
        fn()
    times: dict = {name: [] for name in trials}
    for _ in range(runs):
        for name, fn in trials.items():
            times[name].append(fn())
    return {name: {"median": statistics.median(t), "best": min(t), "all": t} for name, t in times.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--game", default="games/meow.cat")
    ap.add_argument("--only", choices=list(COMMANDS))
    ap.add_argument("--floor", action="store_true", help="also time Python and a minimal Textual app")
    ap.add_argument("--no-bytecode-cache", action="store_true", help="compile the modules at every start")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--src", action="append",
                    help="run the catrules of this directory (with --python); given twice or more, "
                         "the checkouts take turns (e.g. --src ../before --src .)")
    ap.add_argument("--python", default=sys.executable, help="the Python for --src")
    args = ap.parse_args(argv)
    os.chdir(REPO)
    bytecode = bytecode_env(not args.no_bytecode_cache)
    trials = {}
    for src in args.src or [None]:
        if src:
            subprocess.run([args.python, "-c", run_from(src), "check", args.game], capture_output=True)
        else:
            os.system(f"{CATRULES} check {args.game} > /dev/null 2>&1")     # warm the game cache once
        for name, (cmd, marker) in COMMANDS.items():
            if args.only and name != args.only:
                continue
            cmd = [a.format(game=args.game) for a in cmd]
            label = f"{name} [{src}]" if args.src and len(args.src) > 1 else name
            trials[label] = (lambda cmd=cmd, marker=marker, src=src:
                             time_to_prompt(cmd, marker, src=src, python=args.python))
    if args.floor:
        for name, code in FLOORS.items():
            trials[f"floor: {name}"] = lambda code=code: time_to_prompt([], FLOOR_WORDS, python=args.python,
                                                                        code=code)
    report = {"game": args.game, "runs": args.runs, "bytecode": bytecode, "load_before": os.getloadavg()[0]}
    report["seconds"] = measure(trials, args.runs)
    report["load_after"] = os.getloadavg()[0]
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print(f"{args.game}; bytecode {bytecode}; load average {report['load_before']:.2f} before, "
              f"{report['load_after']:.2f} after")
        width = max(len(name) for name in report["seconds"])
        for name, r in report["seconds"].items():
            print(f"{name:<{width}}  first prompt after {r['median'] * 1000:5.0f} ms (median of {args.runs}; "
                  f"fastest {r['best'] * 1000:.0f}; all: {', '.join(f'{t * 1000:.0f}' for t in r['all'])})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
