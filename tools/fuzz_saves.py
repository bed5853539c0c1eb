"""The save and log part of the fuzzer (``python tools/fuzz.py --saves N``): hostile data, field by field.

Real files are made first (a Meow save, a Meow log, a log of a race game); then each case
damages one field the way an attacker would: the cases that once ended in tracebacks (an
empty ``frames``, a decision with no options, a header ``viewer`` that is a text or a list,
a race time of 400 digits), times that are huge, ``NaN``, infinite or negative, a value of
each wrong kind in each field, nesting 100,000 deep, a list of 200,000 items, and a game
path that is a link to a secret file, a pipe or a folder.  Each mutant goes to its command
(``catrules play --resume SAVE`` or ``catrules replay LOG``, in this process) and ends in:

``clean-error``   exit code 1 or 2 with a message in words that names the file
``loaded``        the command ran to its end (exit code 0): the damage was harmless
``rules-error``   a resumed game stopped with an error in the game's words, located in the game
                  file (a saved variable of the wrong kind: not caught as the save's fault yet)
``unclear``       an error that names no file, is empty, or speaks of Python
``echo``          the output shows a line of the secret file a game path pointed to
``traceback``     an exception escaped the command (the bug this fuzzer hunts)
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUTCOMES = ("clean-error", "loaded", "rules-error", "unclear", "echo", "traceback")
BAD = ("unclear", "echo", "traceback")
SECRET = "fuzz-secret-line-never-shown"
_PYTHON = re.compile(r"\b(Traceback|TypeError|KeyError|IndexError|ValueError|AttributeError|OverflowError|"
                     r"RecursionError|ZeroDivisionError|NoneType|randrange)\b")
_WRONG = [None, True, "x", -1, 1.5, 10 ** 400, [], [[]], {}, {"a": [1]}, "NaN"]
_TIMES = [10 ** 400, "NaN", "Infinity", "-Infinity", -1, -0.001, 1e308, 10 ** 7, "0.5", True, [0.5]]


def _cli(argv: list) -> tuple:
    from catrules import cli
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main([str(a) for a in argv])
    return code, out.getvalue()


def originals(work: Path) -> dict:
    """The real files: {"save": data, "log": [lines], "race": [lines]} (the game files are the repository's)."""
    from catrules import api
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
    work.mkdir(parents=True, exist_ok=True)
    game = api.load_game(ROOT / "games" / "meow.cat")
    st = game.new_state(2, seed=5)
    for _ in range(4):
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    Match(game, st, [make_seat("random"), make_seat("random")]).save(
        work / "o.save.json", extra={"cli": {"seats": ["random", "random"], "decisions": [2, 2]}})
    out = {"save": json.loads((work / "o.save.json").read_text())}
    for key, game_file, seats in (("log", "games/meow.cat", "random,random"),
                                  ("race", "tests/games/race.cat", "random,random:fast")):
        code, text = _cli(["play", ROOT / game_file, "--seats", seats, "--seed", "6", "--quiet",
                           "--log", work / "o.jsonl"])
        assert code == 0, text
        out[key] = [json.loads(x) for x in (work / "o.jsonl").read_text().splitlines()]
    return out


def _paths(obj, path=(), depth=0):
    """Every (path, value) of a JSON value, to depth 4 (long lists: their first three items)."""
    yield path, obj
    if depth >= 4:
        return
    items = obj.items() if isinstance(obj, dict) else enumerate(obj[:3]) if isinstance(obj, list) else ()
    for k, v in items:
        yield from _paths(v, path + (k,), depth + 1)


def _set(obj, path, value):
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value


def _decision(lines, timed: bool = False) -> int:
    return next(i for i, x in enumerate(lines) if x.get("event") == "decision" and (x.get("time") is not None
                                                                                  or not timed))


def _targeted(orig: dict) -> list:
    """The cases every run tries: (name, target, change(data)) with target "save", "log" or "race"."""
    def pending(f):
        return lambda d: f(d["state"]["pending"])
    cases = [("empty-frames", "save", lambda d: d["state"].update(frames=[])),
             ("no-options", "save", pending(lambda p: [p["options"].__setitem__(x, []) for x in p["players"]])),
             ("no-players", "save", pending(lambda p: p.update(players=[]))),
             ("huge-list", "save", lambda d: d["state"].update(history=[["x"]] * 200_000)),
             ("deep", "save", lambda d: _set(d, ("state", "frames", 0, 2), {"v": "DEEP"})),
             ("deep", "log", lambda ls: ls[0].update(seats="DEEP")),
             ("huge-list", "log", lambda ls: ls[0].update(options=["o"] * 200_000))]
    for v in ("1", [1], 10 ** 400, -1, 99, 1.0, True):
        cases.append((f"viewer={str(v)[:8]}", "log", lambda ls, v=v: ls[0].update(viewer=v)))
    for t in _TIMES:
        cases.append((f"race-time={str(t)[:8]}", "race",
                      lambda ls, t=t: ls[_decision(ls, True)].update(time=t)))
        cases.append((f"saved-time={str(t)[:8]}", "save",
                      lambda d, t=t: d["state"]["history"].__setitem__(0, d["state"]["history"][0][:2] + [t])))
    for g in ("LINK", "PIPE", "FOLDER", "/etc/passwd", "../../../../etc/hosts.cat", "x" * 5000 + ".cat"):
        cases.append((f"game={g[:12]}", "save", lambda d, g=g: d.update(game=g)))
        cases.append((f"game={g[:12]}", "log", lambda ls, g=g: ls[0].update(game=g)))
    return cases


def _random_case(rng: random.Random, orig: dict) -> tuple:
    """A value of a wrong kind in a field chosen at random (of a save, a header or a decision line)."""
    target = rng.choice(["save", "save", "log", "race"])
    data = orig[target]
    if target == "save":
        paths = [p for p, _v in _paths(data) if p]
    else:
        i = rng.choice([0, _decision(data), len(data) - 1])
        paths = [(i,) + p for p, _v in _paths(data[i]) if p]
    path, value = rng.choice(paths), rng.choice(_WRONG)
    return f"wrong-type {'.'.join(map(str, path))[:60]}={str(value)[:8]}", target, lambda d: _set(d, path, value)


def _write(target: str, data, path: Path, work: Path) -> None:
    """The mutant as text: NaN and friends as JSON's own spellings, DEEP as nesting 100,000 deep."""
    if target == "save":
        text = json.dumps(data)
    else:
        text = "".join(json.dumps(x) + "\n" for x in data)
    for word in ("NaN", "Infinity", "-Infinity"):
        text = text.replace(f'"{word}"', word)
    text = text.replace('"DEEP"', "[" * 100_000 + "]" * 100_000)
    for name, place in (("LINK", work / "link.cat"), ("PIPE", work / "pipe.cat"), ("FOLDER", work / "folder.cat")):
        text = text.replace(f'"{name}"', json.dumps(str(place)))
    path.write_text(text, encoding="utf-8")


def _prepare(work: Path) -> None:
    """A secret file, a link to it named like a game file, a pipe and a folder named like one."""
    secret = work / "secret.txt"
    secret.write_text(SECRET + "\n")
    for p in (work / "link.cat", work / "pipe.cat", work / "folder.cat"):
        if os.path.lexists(p):
            continue
        if p.name == "link.cat":
            p.symlink_to(secret)
        elif p.name == "pipe.cat":
            os.mkfifo(p)
        else:
            p.mkdir()


def run_case(name: str, target: str, change, orig: dict, work: Path) -> tuple:
    """One mutant through its command: (outcome, detail)."""
    import copy
    data = copy.deepcopy(orig[target])
    try:
        change(data)
    except (IndexError, KeyError, TypeError, AttributeError, StopIteration):
        return "loaded", "the case does not apply to this file"
    path = work / ("m.save.json" if target == "save" else "m.jsonl")
    _write(target, data, path, work)
    argv = (["play", "--resume", path, "--seats", "random,random", "--quiet"] if target == "save"
            else ["replay", path])
    cwd = os.getcwd()
    try:
        os.chdir(ROOT)                       # logs name their game file from the repository root
        code, out = _cli(argv)
    except BaseException as exc:              # noqa: BLE001 - anything escaping the command is the finding
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        os.chdir(cwd)
    if SECRET in out:
        return "echo", out[-300:]
    if code == 0:
        return "loaded", ""
    if target == "save" and "error: the game stopped: " in out and not _PYTHON.search(out):
        return "rules-error", out.strip().splitlines()[-2][:200]
    if not out.strip() or _PYTHON.search(out) or path.name not in out:
        return "unclear", out[-300:]
    return "clean-error", out.strip().splitlines()[0][:200]


def campaign(count: int, seed: int, work: Path) -> dict:
    """Every targeted case, then ``count`` random wrong-type cases: {"counts", "bad", "cases",
    "outcomes": [(case, target, outcome)]}."""
    work = Path(work)
    orig = originals(work)
    _prepare(work)
    rng = random.Random(f"saves:{seed}")
    cases = _targeted(orig) + [_random_case(rng, orig) for _ in range(count)]
    counts, bad, outcomes = Counter(), [], []
    for name, target, change in cases:
        outcome, detail = run_case(name, target, change, orig, work)
        counts[outcome] += 1
        outcomes.append((name, target, outcome))
        if outcome in BAD:
            bad.append((name, target, outcome, detail))
    return {"counts": counts, "bad": bad, "cases": len(cases), "outcomes": outcomes}


def table(counts: Counter) -> str:
    total = sum(counts.values()) or 1
    rows = [f"{'outcome':<14}{'cases':>7}{'share':>9}"]
    rows += [f"{o:<14}{counts.get(o, 0):>7}{counts.get(o, 0) * 100 / total:>8.1f}%" for o in OUTCOMES]
    return "\n".join(rows + [f"{'total':<14}{sum(counts.values()):>7}"])
