"""A mutation fuzzer over every game file in the repository.

Each mutant is a game file with one or two small damages: a token or a line
deleted, duplicated or swapped, a line re-indented, a number made huge,
negative or zero, a name swapped for another of the file, deep nesting, odd
characters (tabs, CRLF, a byte-order mark, no final newline).  A mutant is
loaded (parse, check, compile); if it loads, a few games are played with
random choices under a step and decision budget.  Every mutant ends in one
of these outcomes:

``rejected``            a GameFileError whose every diagnostic has a line
``rejected-unlocated``  a GameFileError with a diagnostic that names no line
``played``              every game ran to its end (or to the decision budget)
``rules-error``         a game stopped with a RulesError that names its line
``rules-unlocated``     a RulesError naming no line, or speaking of Python
``traceback``           any other exception (the bug this fuzzer hunts)
``hang``                the work budget ran out without a clean stop
``injection``           Python written into the game file ran (a marker file appeared)

The same seed gives the same mutants and the same table::

    python tools/fuzz.py --count 10000 --seed 1 --jobs 2

``--saves N`` fuzzes save files and logs instead (:mod:`fuzz_saves`): every targeted case
(empty frames, no options, a header viewer of the wrong kind, huge, NaN or negative times,
deep nesting, huge lists, game paths that are links, pipes or folders) and N values of a
wrong kind in random fields, each through ``catrules play --resume`` or ``catrules replay``::

    python tools/fuzz.py --saves 2000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:                      # run from a checkout without installing
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tools") not in sys.path:            # fuzz_saves, beside this file
    sys.path.insert(0, str(ROOT / "tools"))

from catrules import api, limits
from catrules.errors import CatrulesError, GameFileError, IllegalChoice, RulesError  # noqa: E402

OUTCOMES = ("rejected", "rejected-unlocated", "played", "rules-error", "rules-unlocated", "traceback", "hang",
            "injection")
BAD = ("rejected-unlocated", "rules-unlocated", "traceback", "hang", "injection")

#: Loop rounds without a decision before a fuzzed game is stopped (the engine's own limit is higher).
FUZZ_STEP_LIMIT = 20_000
#: Decisions per fuzzed game before it counts as played to the budget.
DECISION_BUDGET = 400
#: Games played with each mutant that loads.
GAMES = 2
#: One mutant in BOT_EVERY also plays a game with a greedy bot, for BOT_BUDGET decisions at most.
BOT_EVERY = 4
BOT_BUDGET = 60

# Python's own words that a rules error must never show.
_PYTHON_WORDS = re.compile(r"\b(TypeError|KeyError|IndexError|ValueError|AttributeError|ZeroDivisionError|"
                           r"NoneType|OverflowError|RecursionError|MemoryError|Traceback)\b")

_TOKEN = re.compile(r'"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|[0-9]+|#[^\n]*|[^\sA-Za-z0-9_]')
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HUGE = ["0", "-1", "1000000000", "1000000001", "99999999999999999999", "9" * 400, "-99999",
         "4294967296", "2147483648", "100000"]
_ODD = ["\t", "\r", "\ufeff", "\u00a0", "\x00", "é", "\u202e", "\\", "$", "'", "`"]


def game_files(root: Path = ROOT) -> list:
    """Every game file of the repository, in a fixed order."""
    files = []
    for pattern in ("games/*.cat", "docs/examples/*.cat", "tests/games/*.cat"):
        files.extend(sorted(root.glob(pattern)))
    return files


# ------------------------------------------------------------------ mutation

def _tokens(text: str) -> list:
    return [(m.start(), m.end()) for m in _TOKEN.finditer(text) if not m.group().startswith("#")]


def _splice(text: str, a: int, b: int, new: str) -> str:
    return text[:a] + new + text[b:]


def _m_delete_token(rng, text):
    toks = _tokens(text)
    a, b = rng.choice(toks)
    return _splice(text, a, b, "")


def _m_duplicate_token(rng, text):
    toks = _tokens(text)
    a, b = rng.choice(toks)
    return _splice(text, a, a, text[a:b] + " ")


def _m_swap_tokens(rng, text):
    toks = _tokens(text)
    i = rng.randrange(len(toks) - 1)
    j = i + 1 if rng.random() < 0.6 else rng.randrange(len(toks))
    (a, b), (c, d) = sorted([toks[i], toks[j]])
    if b > c:
        return text
    return text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]


def _lines(text):
    return text.split("\n")


def _m_delete_line(rng, text):
    ls = _lines(text)
    del ls[rng.randrange(len(ls))]
    return "\n".join(ls)


def _m_duplicate_line(rng, text):
    ls = _lines(text)
    i = rng.randrange(len(ls))
    ls.insert(i, ls[i])
    return "\n".join(ls)


def _m_swap_lines(rng, text):
    ls = _lines(text)
    i = rng.randrange(len(ls))
    j = min(len(ls) - 1, i + 1) if rng.random() < 0.5 else rng.randrange(len(ls))
    ls[i], ls[j] = ls[j], ls[i]
    return "\n".join(ls)


def _m_reindent(rng, text):
    ls = _lines(text)
    i = rng.randrange(len(ls))
    body = ls[i].lstrip(" ")
    ls[i] = " " * rng.choice([0, 1, 2, 3, 4, 6, 8, 12, 16]) + body
    return "\n".join(ls)


def _m_number(rng, text):
    nums = [m for m in re.finditer(r"(?<![A-Za-z_0-9])[0-9]+", text)]
    new = rng.choice(_HUGE)
    if not nums:
        return _m_delete_token(rng, text)
    m = rng.choice(nums)
    return _splice(text, m.start(), m.end(), new)


def _m_swap_name(rng, text):
    names = [m for m in _NAME.finditer(text)]
    m = rng.choice(names)
    other = rng.choice(names).group()
    return _splice(text, m.start(), m.end(), other)


def _m_nest(rng, text):
    """Deep nesting around a number: brackets, lists, `not`, `-`, `if ... else`."""
    nums = [m for m in re.finditer(r"(?<![A-Za-z_0-9])[0-9]+", text)]
    if not nums:
        return _m_delete_token(rng, text)
    m = rng.choice(nums)
    depth = rng.choice([50, 150, 300, 1200])
    kind = rng.randrange(5)
    x = m.group()
    if kind == 0:
        new = "(" * depth + x + ")" * depth
    elif kind == 1:
        new = "[" * depth + x + "]" * depth
    elif kind == 2:
        new = "not " * depth + x
    elif kind == 3:
        new = " + ".join([x] * depth)
    else:
        new = "if true then " * depth + x + " else 0" * depth
    return _splice(text, m.start(), m.end(), new)


def _m_odd(rng, text):
    kind = rng.randrange(6)
    if kind == 0:
        return text.replace("\n", "\r\n")
    if kind == 1:
        return "\ufeff" + text
    if kind == 2:
        return text.rstrip("\n")
    if kind == 3:
        ls = _lines(text)
        i = rng.randrange(len(ls))
        ls[i] = ls[i].replace("    ", "\t", 1)
        return "\n".join(ls)
    pos = rng.randrange(len(text) + 1)
    return _splice(text, pos, pos, rng.choice(_ODD))


def _m_big_deck(rng, text):
    """A card row or range made huge."""
    rows = [m for m in re.finditer(r"(?m)^(\s+)([0-9]+) (cards?)", text)]
    rngs = [m for m in re.finditer(r"([0-9]+) to ([0-9]+)", text)]
    if rows and (not rngs or rng.random() < 0.5):
        m = rng.choice(rows)
        return _splice(text, m.start(2), m.end(2), rng.choice(["100000", "10001", "99999999999"]))
    if rngs:
        m = rng.choice(rngs)
        return _splice(text, m.start(2), m.end(2), rng.choice(["100000", "1000000000", "99999999999999"]))
    return _m_number(rng, text)


def _m_runtime(rng, text):
    """Replace a number in an expression by something that goes wrong while playing."""
    nums = [m for m in re.finditer(r"(?<![A-Za-z_0-9])[0-9]+(?![0-9]* (cards?|to|by)\b)", text)]
    if not nums:
        return _m_number(rng, text)
    m = rng.choice(nums)
    new = rng.choice(["(1 / 0)", "(5 % 0)", "count(range(1, 1000000000))", "(1000000000 * 1000000000)",
                      "sum(copies(7, 1000000000))", "first([])", "none", '"text"', "max([])", "[1, 2]",
                      "([1] * 1000000000)", "(none + 1)", "players", "top([], 3)"])
    return _splice(text, m.start(), m.end(), new)


def _m_recursion(rng, text):
    """A definition, action or phase that calls itself."""
    kind = rng.randrange(3)
    if kind == 0:
        return text + "\ndefine fuzzloop(x) = fuzzloop(x + 1)\ndefine fuzzuse = fuzzloop(1)\n"
    if kind == 1:
        ls = _lines(text)
        for i, line in enumerate(ls):
            m = re.match(r"\s*action (\w+)\(\):", line)
            if m:
                ind = len(ls[i + 1]) - len(ls[i + 1].lstrip(" ")) if i + 1 < len(ls) else 4
                ls.insert(i + 1, " " * max(ind, 1) + f"do {m.group(1)}()")
                return "\n".join(ls)
        return text
    ls = _lines(text)
    for i, line in enumerate(ls):
        m = re.match(r"phase (\w+):", line)
        if m and i + 1 < len(ls):
            ind = len(ls[i + 1]) - len(ls[i + 1].lstrip(" "))
            ls.insert(i + 1, " " * max(ind, 1) + f"play {m.group(1)}")
            return "\n".join(ls)
    return text


MARKER = Path(tempfile.gettempdir()) / "catrules-fuzz-injected"
_PAYLOADS = [
    "__import__('pathlib').Path({m!r}).touch()",
    "open({m!r}, 'w')",
    "\\x22); open({m!r}, 'w'); (\\x22",
    "'); open({m!r}, 'w'); ('",
    "]; open({m!r}, 'w'); [",
    "__builtins__", "__class__", "__import__", "exec", "eval", "_L", "st", "V", "_it",
]


def _m_inject(rng, text):
    """Python written where names, texts or numbers go: it must stay data (or be refused)."""
    payload = rng.choice(_PAYLOADS).format(m=str(MARKER))
    kind = rng.randrange(3)
    if kind == 0:                                   # inside a quoted text
        strings = list(re.finditer(r'"[^"\n]*"', text))
        if strings:
            m = rng.choice(strings)
            return _splice(text, m.start() + 1, m.end() - 1, payload.replace('"', "'"))
    if kind == 1:                                   # as a name
        names = list(_NAME.finditer(text))
        m = rng.choice(names)
        word = payload if re.fullmatch(r"\w+", payload) else rng.choice(["__import__", "__class__", "_L", "st"])
        return _splice(text, m.start(), m.end(), word)
    toks = _tokens(text)                            # raw, anywhere
    a, _b = rng.choice(toks)
    return _splice(text, a, a, payload + " ")


MUTATIONS = [
    ("delete-token", _m_delete_token, 3), ("duplicate-token", _m_duplicate_token, 2),
    ("swap-tokens", _m_swap_tokens, 2), ("delete-line", _m_delete_line, 2),
    ("duplicate-line", _m_duplicate_line, 2), ("swap-lines", _m_swap_lines, 2), ("reindent", _m_reindent, 2),
    ("number", _m_number, 3), ("swap-name", _m_swap_name, 3), ("nest", _m_nest, 1), ("odd-text", _m_odd, 1),
    ("big-deck", _m_big_deck, 1), ("runtime", _m_runtime, 3), ("recursion", _m_recursion, 1),
    ("inject", _m_inject, 2),
]
_WEIGHTS = [w for _n, _f, w in MUTATIONS]


def mutant(seed: int, index: int, sources: list) -> tuple:
    """Mutant number ``index`` of a campaign with ``seed``: (file name, operators, text)."""
    rng = random.Random(seed * 1_000_003 + index)
    name, text = sources[rng.randrange(len(sources))]
    ops = []
    for _ in range(1 if rng.random() < 0.7 else 2):
        op_name, op, _w = rng.choices(MUTATIONS, _WEIGHTS)[0]
        text = op(rng, text)
        ops.append(op_name)
    return name, ops, text


# ------------------------------------------------------------------- running

@contextmanager
def step_limit(limit: int):
    """Lower the loop-round limit: the engine's, which the compiler also writes into the loops it
    compiles when a game is loaded (so a game must be loaded inside this context)."""
    old = limits.STEP_LIMIT
    limits.STEP_LIMIT = limit
    try:
        yield
    finally:
        limits.STEP_LIMIT = old


def _located_rules(exc: RulesError) -> bool:
    return bool(exc.line) and not _PYTHON_WORDS.search(str(exc))


def play_random(game, players: int, seed: int, budget: int = DECISION_BUDGET) -> None:
    """One game with random choices; stops at the end or after ``budget`` decisions.

    After a few decisions the game is saved as JSON and goes on from the restored copy, so
    that every state a mutant reaches must also pass the checks of a save file.
    """
    rng = random.Random(seed)
    st = game.new_state(players=players, seed=seed)
    for k in range(budget):
        if st.finished:
            break
        if k == 5:
            st = game.restore(json.loads(json.dumps(st.to_dict())))
        if k % 10 == 0:                     # what the seats and the terminal show
            st.view(k % players)
            st.view(None)
        d = st.pending()
        if not d:
            break
        d = d[0]
        if not d.options:
            raise RulesError("a decision with no options")
        o = rng.choice(d.options)
        st.apply(d.player, o.id, round(rng.uniform(0.1, 1.0), 3) if d.timed else None)
    st.scores()
    st.view(None)
    if st.finished:
        st.winners()


def play_bots(game, players: int, seed: int, budget: int = BOT_BUDGET) -> None:
    """One game through a Match with a greedy bot (look-ahead, views, events) and random bots."""
    from catrules.bots.basic import make_seat
    from catrules.play.match import Match
    st = game.new_state(players=players, seed=seed, log=True)
    m = Match(game, st, [make_seat("greedy")] + [make_seat("random") for _ in range(players - 1)])
    for _ in range(budget):
        if not m.step():
            break
    m.state.scores()
    if m.state.finished:
        m.state.winners()


def run_one(name: str, text: str, seed: int, games: int = GAMES) -> tuple:
    """(outcome, detail) for one mutant."""
    outcome, detail = _run_one(name, text, seed, games)
    if MARKER.exists():                     # a payload ran: the worst outcome of all
        MARKER.unlink()
        return "injection", f"{MARKER} was written ({outcome}: {detail})"
    return outcome, detail


def _run_one(name: str, text: str, seed: int, games: int = GAMES) -> tuple:
    try:
        with step_limit(FUZZ_STEP_LIMIT):
            game = api.load_source(text, name)
    except GameFileError as exc:
        if all(d.line > 0 for d in exc.diagnostics) and exc.diagnostics:
            return "rejected", ""
        return "rejected-unlocated", str(exc)[:300]
    except RecursionError as exc:
        return "traceback", f"load: RecursionError: {exc}"
    except MemoryError:
        return "traceback", "load: MemoryError"
    except Exception as exc:               # noqa: BLE001 - the fuzzer's whole point
        return "traceback", f"load: {type(exc).__name__}: {str(exc)[:200]}"
    try:
        with step_limit(FUZZ_STEP_LIMIT):
            for g in range(games):
                players = game.min_players + g % (game.max_players - game.min_players + 1)
                play_random(game, players, seed + g)
            if seed % BOT_EVERY == 0:
                play_bots(game, game.min_players, seed)
    except RulesError as exc:
        if "loop rounds without anyone deciding" in str(exc):
            return ("rules-error" if exc.line else "rules-unlocated"), str(exc)[:300]
        return ("rules-error" if _located_rules(exc) else "rules-unlocated"), str(exc)[:300]
    except (CatrulesError, IllegalChoice) as exc:
        return "rules-unlocated", f"{type(exc).__name__}: {str(exc)[:300]}"
    except Exception as exc:               # noqa: BLE001
        return "traceback", f"play: {type(exc).__name__}: {str(exc)[:200]}"
    return "played", ""


class _Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise _Hang()


def _work(args) -> tuple:
    seed, index, sources, timeout = args
    name, ops, text = mutant(seed, index, sources)
    if timeout:
        # A safety net for the command-line campaign only: the test suite bounds work by steps.
        import signal
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(timeout)
    try:
        outcome, detail = run_one(name, text, seed + index)
    except _Hang:
        outcome, detail = "hang", f"still running after {timeout} s"
    finally:
        if timeout:
            import signal
            signal.alarm(0)
    return index, name, ops, outcome, detail


def campaign(count: int, seed: int, jobs: int = 1, files=None, on_result=None, timeout: int = 0) -> dict:
    """Run ``count`` mutants: {"counts": outcomes, "bad": [(index, file, ops, outcome, detail)],
    "operators": mutants per mutation operator}."""
    files = files if files is not None else game_files()
    sources = [(str(Path(f).relative_to(ROOT)) if Path(f).is_absolute() and ROOT in Path(f).parents else str(f),
                Path(f).read_text(encoding="utf-8")) for f in files]
    counts: Counter = Counter()
    by_op: Counter = Counter()
    bad = []
    work = [(seed, i, sources, timeout) for i in range(count)]
    if jobs > 1:
        import multiprocessing as mp
        with mp.get_context("fork").Pool(jobs) as pool:
            results = pool.imap_unordered(_work, work, chunksize=16)
            results = sorted(results)
    else:
        results = map(_work, work)
    for index, name, ops, outcome, detail in results:
        counts[outcome] += 1
        for op in set(ops):
            by_op[op] += 1
        if outcome in BAD:
            bad.append((index, name, ops, outcome, detail))
        if on_result:
            on_result(index, outcome)
    bad.sort()
    return {"counts": counts, "bad": bad, "operators": by_op}


def table(counts: Counter) -> str:
    total = sum(counts.values()) or 1
    out = [f"{'outcome':<20}{'mutants':>9}{'share':>9}"]
    for o in OUTCOMES:
        out.append(f"{o:<20}{counts.get(o, 0):>9}{counts.get(o, 0) * 100 / total:>8.1f}%")
    out.append(f"{'total':<20}{sum(counts.values()):>9}")
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Mutation fuzzer over the repository's game files.")
    ap.add_argument("--count", type=int, default=1000, help="mutants to try (default 1000)")
    ap.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--show", type=int, default=20, help="bad outcomes to print in full (default 20)")
    ap.add_argument("--timeout", type=int, default=30, help="seconds before a mutant counts as a hang (30)")
    ap.add_argument("--memory", type=int, default=2048, help="memory limit per process in MiB (2048)")
    ap.add_argument("--mutant", type=int, default=None, help="print mutant number N and its outcome")
    ap.add_argument("--saves", type=int, default=None, metavar="N",
                    help="fuzz save files and logs instead: the targeted cases and N random ones")
    a = ap.parse_args(argv)
    if a.saves is not None:
        return _saves_main(a)
    if a.mutant is not None:
        files = game_files()
        sources = [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in files]
        name, ops, text = mutant(a.seed, a.mutant, sources)
        print(f"# {name}, {' + '.join(ops)}")
        print(text)
        print("#", *run_one(name, text, a.seed + a.mutant))
        return 0
    try:                                   # a mutant that eats memory fails instead of the machine
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (a.memory << 20, a.memory << 20))
    except (ImportError, ValueError, OSError):
        pass
    t0 = time.perf_counter()
    res = campaign(a.count, a.seed, a.jobs, timeout=a.timeout)
    dt = time.perf_counter() - t0
    print(f"fuzz: {a.count} mutants of {len(game_files())} game files, seed {a.seed}, {a.jobs} job(s), "
          f"{dt:.1f} s")
    print(table(res["counts"]))
    ops = res["operators"]
    print("mutants per operator: " + ", ".join(f"{name} {ops.get(name, 0)}" for name, _f, _w in MUTATIONS))
    for index, name, ops, outcome, detail in res["bad"][:a.show]:
        print(f"\n[{outcome}] mutant {index} ({name}, {' + '.join(ops)}): {detail}")
    return 1 if res["bad"] else 0


def _saves_main(a) -> int:
    """``--saves N``: the save and log campaign, its table and its bad cases."""
    import fuzz_saves
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as work:
        res = fuzz_saves.campaign(a.saves, a.seed, Path(work))
    print(f"fuzz saves and logs: {res['cases']} cases, seed {a.seed}, {time.perf_counter() - t0:.1f} s")
    print(fuzz_saves.table(res["counts"]))
    for name, target, outcome, detail in res["bad"][:a.show]:
        print(f"\n[{outcome}] {target}: {name}: {detail}")
    return 1 if res["bad"] else 0


if __name__ == "__main__":
    sys.exit(main())
