"""A mutation fuzzer over save files and game logs: ``catrules play --resume`` and ``catrules replay``.

Real saves (games of the repository stopped after a few decisions, saved as
``catrules play`` saves them) and real full logs (games played to their end
with ``--log``) are damaged one way or two: a value of the wrong type
anywhere, a field left out, another game file named, the file cut short,
invalid UTF-8, a 5,000-digit number, NaN, JSON nested 100,000 deep, a header
field changed (seats, title, options, catrules or language version), a log
line dropped, doubled or swapped.  Each mutant is given to the command
(in this process, bot seats only, under an alarm) and ends in one of:

``clean-error``        the command stopped with its own message (exit code 1 or 2)
``played``             a resumed save played on to its end (exit code 0)
``traceback``          an exception escaped the command (the bug this fuzzer hunts)
``hang``               the command ran past the time limit
``tampered-accepted``  ``replay`` said "same game" for a changed log, a save resumed
                       against another game file, or a save chose where a file is written

``--target games`` runs a share of the game-file fuzzer's mutants (``tools/fuzz.py``) through
``catrules play FILE --seats greedy,greedy`` with the default limits (that fuzzer lowers them
and calls the engine directly): a runaway must stop with its message within the time limit,
so a ``hang`` here is a loop or a game that the default limits let run too long.

The same seed gives the same mutants and the same table::

    python tools/fuzz_files.py --target saves --count 1000 --seed 1
    python tools/fuzz_files.py --target logs --count 1000 --seed 1
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:                      # run from a checkout without installing
    sys.path.insert(0, str(ROOT))

from catrules import api, cli  # noqa: E402
from catrules.play.match import Match  # noqa: E402

OUTCOMES = ("clean-error", "played", "traceback", "hang", "tampered-accepted")
BAD = ("traceback", "hang", "tampered-accepted")
TARGETS = ("saves", "logs", "games")
#: Seconds one command may run before it counts as a hang.
TIME_LIMIT = 20
#: The games saves and logs are made of: (game file, players, seats, seed, decisions before the save).
SOURCES = [("games/meow.cat", 2, ["random", "random"], 3, 5),
           ("games/catlady.cat", 3, ["random", "greedy", "random"], 4, 7),
           ("games/flapcat.cat", 2, ["random", "random"], 5, 3),
           ("tests/games/race.cat", 2, ["random", "random:fast"], 6, 1)]


# ------------------------------------------------------------ real files

def make_save(game_file: str, players: int, seats: list, seed: int, steps: int, path: Path) -> None:
    """A save as ``catrules play`` writes it when a game is stopped after ``steps`` decisions."""
    from catrules.cli.play import _decisions_done, _make_seats
    from rich.console import Console
    game = api.load_game(ROOT / game_file)
    state = game.new_state(players, seed=seed, log=True)
    match = Match(game, state, _make_seats(seats, game, Console(file=io.StringIO()), seats))
    for _ in range(steps):
        if state.finished or not match.step():
            break
    extra = {"cli": {"seats": seats, "log": None, "game_abs": str(Path(game.path).resolve()),
                     "players": players, "options": list(state.options), "handicap": 0,
                     "decisions": _decisions_done({}, state)}}
    match.save(path, extra=extra)


def originals(workdir: Path, target: str) -> list:
    """The real files mutants are made of: ``[(name, bytes)]``."""
    workdir.mkdir(parents=True, exist_ok=True)
    out = []
    for game_file, players, seats, seed, steps in SOURCES:
        stem = Path(game_file).stem
        if target == "saves":
            p = workdir / f"{stem}.save.json"
            make_save(game_file, players, seats, seed, steps, p)
        else:
            p = workdir / f"{stem}.jsonl"
            code, _out = run_cli(["play", str(ROOT / game_file), "--seats", ",".join(seats), "--seed", str(seed),
                                  "--quiet", "--log", str(p)])
            assert code == 0, _out
        out.append((p.name, p.read_bytes()))
    return out


# --------------------------------------------------------------- mutation

_VALUES = [None, True, False, 0, -1, 1.5, 10 ** 40, "", "x", "../../evil", [], [None], {}, {"a": 1},
           [[1, 2], [3]], "greedy", 2 ** 31, -(10 ** 6)]


def _paths(obj, path=()):
    yield path
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:40]):
            yield from _paths(v, path + (i,))


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def _set(obj, path, value):
    _get(obj, path[:-1])[path[-1]] = value


def _pick_path(rng, obj, want_parent_dict=False):
    paths = [p for p in _paths(obj) if p]
    if want_parent_dict:
        paths = [p for p in paths if isinstance(_get(obj, p[:-1]), dict)]
    return rng.choice(paths) if paths else None


def _wrong_type(rng, obj):
    p = _pick_path(rng, obj)
    if p is not None:
        old = _get(obj, p)
        _set(obj, p, rng.choice([v for v in _VALUES if type(v) is not type(old)]))


def _missing(rng, obj):
    p = _pick_path(rng, obj, want_parent_dict=True)
    if p is not None:
        del _get(obj, p[:-1])[p[-1]]


def _other_game(rng, obj):
    other = rng.choice([s[0] for s in SOURCES] + ["tests/games/bank.cat", "README.md", "/etc/passwd"])
    if "game" in obj:
        obj["game"] = str(ROOT / other)
    if isinstance(obj.get("cli"), dict):
        obj["cli"]["game_abs"] = str(ROOT / other)


_HEADER = {"seats": lambda v: ["human"] * len(v) if isinstance(v, list) else ["x"],
           "title": lambda v: f"{v} (edited)",
           "options": lambda v: ["advanced"] if not v else [],
           "catrules": lambda v: "9.9.9",
           "language": lambda v: (v + 1) if type(v) is int else 1,
           "version": lambda v: "9.9.9",
           "game_title": lambda v: "Another game",
           "game_digest": lambda v: "0" * 32,
           "players": lambda v: (v + 1) if type(v) is int else 2,
           "seed": lambda v: (v + 1) if type(v) is int else 1,
           "viewer": lambda v: 0}


def _header_field(rng, obj):
    keys = [k for k in _HEADER if k in obj]
    if isinstance(obj.get("cli"), dict):
        keys += ["cli.seats", "cli.log", "cli.options", "cli.handicap"]
    k = rng.choice(keys)
    if k == "cli.log":
        obj["cli"]["log"] = "__LOGPATH__"              # filled with a path in the run's directory
    elif k.startswith("cli."):
        k = k[4:]
        obj["cli"][k] = _HEADER.get(k, lambda v: -5)(obj["cli"].get(k))
    else:
        obj[k] = _HEADER[k](obj[k])


JSON_OPS = [("wrong-type", _wrong_type, 4), ("missing", _missing, 3), ("other-game", _other_game, 1),
            ("header", _header_field, 3)]


def _truncate(rng, raw: bytes) -> bytes:
    return raw[:rng.randrange(len(raw))]


def _bad_utf8(rng, raw: bytes) -> bytes:
    i = rng.randrange(len(raw))
    return raw[:i] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x80\x80"]) + raw[i:]


def _number_at(rng, raw: bytes, new: bytes) -> bytes:
    spots = [i for i in range(1, len(raw)) if raw[i:i + 1].isdigit() and raw[i - 1:i] in b":,["]
    if not spots:
        return raw
    i = rng.choice(spots)
    j = i
    while raw[j:j + 1].isdigit():
        j += 1
    return raw[:i] + new + raw[j:]


def _huge(rng, raw):
    return _number_at(rng, raw, b"9" * 5000)


def _nan(rng, raw):
    return _number_at(rng, raw, rng.choice([b"NaN", b"Infinity", b"-Infinity", b"1e999"]))


def _deep(rng, raw):
    return _number_at(rng, raw, b"[" * 100_000 + b"1" + b"]" * 100_000)


BYTE_OPS = [("truncate", _truncate, 2), ("bad-utf8", _bad_utf8, 1), ("huge-number", _huge, 1),
            ("nan", _nan, 1), ("deep", _deep, 1)]


def _drop_line(rng, lines):
    del lines[rng.randrange(1, len(lines))]


def _dup_line(rng, lines):
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])


def _swap_lines(rng, lines):
    i = rng.randrange(1, len(lines) - 1)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]


LINE_OPS = [("drop-line", _drop_line, 2), ("dup-line", _dup_line, 1), ("swap-lines", _swap_lines, 1)]


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def mutant(seed: int, index: int, files: list, target: str):
    """Mutant ``index`` of a seed: ``(file name, [operators], bytes)``."""
    rng = random.Random(f"{seed}:{index}:{target}")
    name, raw = files[rng.randrange(len(files))]
    ops_table = JSON_OPS + BYTE_OPS + (LINE_OPS if target == "logs" else [])
    ops = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        op, fn, _w = rng.choices(ops_table, weights=[w for _n, _f, w in ops_table])[0]
        ops.append(op)
        if any(op == n for n, _f, _w in BYTE_OPS):
            raw = fn(rng, raw) if raw else raw
            continue
        try:
            if target == "saves":
                obj = json.loads(raw)
                fn(rng, obj)
                raw = json.dumps(obj).encode()
            else:
                lines = [json.loads(x) for x in raw.decode().splitlines() if x.strip()]
                if any(op == n for n, _f, _w in LINE_OPS):
                    fn(rng, lines)
                else:
                    # a header operator works on a header; the others on any line
                    i = 0 if op == "header" else rng.randrange(len(lines))
                    fn(rng, lines[i])
                raw = "".join(_dumps(x) + "\n" for x in lines).encode()
        except (ValueError, UnicodeDecodeError, IndexError, KeyError, TypeError, RecursionError):
            pass                                  # an earlier operator left no JSON to work on
    return name, ops, raw


# --------------------------------------------------------------------- run

class _Hang(Exception):
    pass


def _alarm(_sig, _frame):
    raise _Hang()


def run_cli(argv: list, limit: float = TIME_LIMIT) -> tuple:
    """``catrules ARGV`` in this process: ``(exit code, output)``; ``_Hang`` past ``limit`` seconds."""
    out = io.StringIO()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            code = cli.main(argv)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return code, out.getvalue()


def _semantic(raw: bytes):
    """What a log says, or ``None`` if it is not readable JSON lines (blank lines do not count)."""
    try:
        return [json.loads(x) for x in raw.decode("utf-8").splitlines() if x.strip()]
    except (ValueError, RecursionError):
        return None


def run_one(target: str, name: str, raw: bytes, original: bytes, workdir: Path, limit: float = TIME_LIMIT):
    """Give one mutant to its command: ``(outcome, detail)``."""
    workdir.mkdir(parents=True, exist_ok=True)
    planted = workdir / "planted.txt"
    raw = raw.replace(b"__LOGPATH__", str(planted).encode())
    path = workdir / name
    path.write_bytes(raw)
    if target == "saves":
        argv = ["play", "--resume", str(path), "--quiet", "--seats", "random," * 3]
        data = _semantic(raw)
        seats = None
        if data and isinstance(data[0], dict) and isinstance(data[0].get("state"), dict):
            n = data[0]["state"].get("players")
            seats = ",".join(["random"] * n) if type(n) is int and 0 < n < 20 else None
        argv = ["play", "--resume", str(path), "--quiet"] + (["--seats", seats] if seats else [])
    else:
        argv = ["replay", str(path)]
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)                         # logs name their game file from the repository root
        code, out = run_cli(argv, limit)
    except _Hang:
        return "hang", " ".join(argv)
    except SystemExit as exc:
        code, out = exc.code, ""
    except BaseException as exc:               # noqa: BLE001 - anything escaping the command is the finding
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        os.chdir(cwd)
    if "Traceback (most recent call last)" in out:
        return "traceback", out[-300:]
    if planted.exists():
        planted.unlink()
        return "tampered-accepted", "the save chose where a file is written"
    if code == 0:
        if target == "logs" and _semantic(raw) != _semantic(original):
            return "tampered-accepted", out.strip()[-200:]
        if target == "saves" and _game_changed(raw, original):
            return "tampered-accepted", "resumed against another game file: " + out.strip()[-150:]
        return "played", ""
    return "clean-error", out.strip()[-200:]


def _game_changed(raw: bytes, original: bytes) -> bool:
    new, old = _semantic(raw), _semantic(original)
    if not new or not isinstance(new[0], dict):
        return False
    # the game file is found by name (``game``, or ``cli.game_abs``): only its fingerprint says which it is
    return new[0].get("game_digest") != old[0].get("game_digest")


def run_game(name: str, text: str, workdir: Path, limit: float = TIME_LIMIT) -> tuple:
    """A mutated game file through ``catrules play --seats greedy,greedy`` at the default limits:
    ``(outcome, detail)``; a file that is refused or a game that stops on its rules is a
    ``clean-error``."""
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / Path(name).name
    path.write_text(text, encoding="utf-8")
    try:
        code, out = run_cli(["play", str(path), "--seats", "greedy,greedy", "--seed", "1", "--quiet"], limit)
    except _Hang:
        return "hang", f"more than {limit:g} s"
    except RecursionError as exc:
        return "traceback", f"RecursionError: {exc}"
    except Exception as exc:                       # noqa: BLE001 - the bug this fuzzer hunts
        return "traceback", f"{type(exc).__name__}: {exc}"
    if "Traceback" in out:
        return "traceback", out[-300:]
    return ("played", "") if code == 0 else ("clean-error", out.strip().splitlines()[-1][:200] if out.strip() else "")


def game_campaign(count: int, seed: int, limit: float = TIME_LIMIT, show_bad: bool = True):
    """``count`` mutants of the repository's game files (``tools/fuzz.py``'s), through the command
    line with greedy seats: ``(Counter of outcomes, [bad cases])``."""
    sys.path.insert(0, str(ROOT / "tools"))
    import fuzz
    sources = [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in fuzz.game_files()]
    counts, bad = Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(count):
            name, ops, text = fuzz.mutant(seed, i, sources)
            outcome, detail = run_game(name, text, Path(tmp) / f"m{i}", limit)
            counts[outcome] += 1
            if outcome in BAD:
                bad.append((i, name, ops, outcome, detail))
                if show_bad:
                    print(f"#{i} {name} {'+'.join(ops)}: {outcome}: {detail}", file=sys.stderr)
    return counts, bad


def campaign(target: str, count: int, seed: int, limit: float = TIME_LIMIT, show_bad: bool = True):
    """Make and run ``count`` mutants: ``(Counter of outcomes, [bad cases])``."""
    if target == "games":
        return game_campaign(count, seed, limit, show_bad)
    counts, bad = Counter(), []
    with tempfile.TemporaryDirectory() as tmp:
        files = originals(Path(tmp) / "orig", target)
        by_name = dict(files)
        for i in range(count):
            name, ops, raw = mutant(seed, i, files, target)
            outcome, detail = run_one(target, name, raw, by_name[name], Path(tmp) / f"m{i}", limit)
            counts[outcome] += 1
            if outcome in BAD:
                bad.append((i, name, ops, outcome, detail))
                if show_bad:
                    print(f"#{i} {name} {'+'.join(ops)}: {outcome}: {detail}", file=sys.stderr)
    return counts, bad


def table(target: str, counts: Counter) -> str:
    total = sum(counts.values()) or 1
    rows = [f"{target}: {sum(counts.values())} mutants", f"{'outcome':<20}{'count':>7}{'share':>9}"]
    rows += [f"{o:<20}{counts[o]:>7}{100 * counts[o] / total:>8.1f}%" for o in OUTCOMES]
    rows.append(f"{'total':<20}{sum(counts.values()):>7}")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", choices=TARGETS + ("both",), default="both",
                    help="both: saves and logs; games: game-file mutants through the command line")
    ap.add_argument("--count", type=int, default=500, help="mutants per target")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--limit", type=float, default=TIME_LIMIT, help="seconds before a command counts as a hang")
    a = ap.parse_args(argv)
    worst = 0
    for target in (TARGETS[:2] if a.target == "both" else (a.target,)):
        t0 = time.perf_counter()
        counts, bad = campaign(target, a.count, a.seed, a.limit)
        print(table(target, counts) + f"\n({time.perf_counter() - t0:.1f} s)\n")
        worst = worst or bool(bad)
    return 1 if worst else 0


if __name__ == "__main__":
    sys.exit(main())
