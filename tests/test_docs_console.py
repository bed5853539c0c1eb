"""Every console example in the docs (``$ catrules ...`` in a ``console`` block) is run and checked.

Each block runs from a scratch folder with a copy of the repository's ``games`` and its
``docs`` and ``tests`` (so the documented relative paths work and nothing is written into the
repository), its commands in order, with the documented arguments.  The output shown under a
command must be what the command prints (stdout and stderr), and a command shown without
output must succeed; a line ``...`` stands for any
number of lines, and a line ending in ``...`` for any line starting with what comes before.
A failure prints the fresh output, ready to paste.  Commands that need a terminal, a server,
a cluster or a long run are listed in :data:`SKIP` with their reason (docs/web.rst belongs to
the web pages' docs and is left out).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(p for p in (ROOT / "docs").glob("*.rst") if p.name != "web.rst")

_TERMINAL = "needs a terminal (a human seat plays it)"
_LIST = "one of a list of invocations whose output is not shown"
_LONG = "too long a run for the test suite"
#: (page, command) -> why it is not run.
SKIP = {
    ("balance.rst", "catrules balance games/meow.cat --players 4 --games 10000 --jobs 2"): _LONG,
    ("balance.rst", "catrules balance games/meow.cat --players 4 --games 4000 --compare expert --jobs 2"): _LONG,
    ("bots.rst", "catrules simulate games/meow.cat --players 4 --games 1000 --seed 1"): _LIST,
    ("bots.rst", "catrules simulate games/meow.cat --bots greedy,random,random,random"): _LIST,
    ("catlady.rst", "catrules play games/catlady.cat --players 3"): _TERMINAL,
    ("catlady.rst", "catrules simulate games/catlady.cat --players 4 --games 1000 --bots random,greedy,random,greedy"):
        _LONG,
    ("cli.rst", "catrules play games/meow.cat"): _TERMINAL,
    ("cli.rst", "catrules play games/meow.cat --players 3 --seed 7 --option expert"): _TERMINAL,
    ("cli.rst", "catrules play games/meow.cat --seats human,bot:fast,random --log game.jsonl"): _TERMINAL,
    ("cli.rst", "catrules play games/flapcat.cat --seats human,greedy:0.8 --handicap 0.2"): _TERMINAL,
    ("cli.rst", "catrules play games/flapcat.cat --race-level easy"): _TERMINAL,
    ("cli.rst", "catrules play games/meow.cat --seats random,random,random"): _LIST,
    ("cli.rst", "catrules play --resume meow-7.save.json"): _TERMINAL,
    ("cli.rst", "catrules play --resume meow-3.save.json"): _TERMINAL,
    ("cli.rst", "catrules simulate games/meow.cat --bots greedy,random,random,random"): _LIST,
    ("cli.rst", "catrules simulate games/meow.cat --option expert --json > result.json"): _LIST,
    ("cli.rst", "catrules balance games/meow.cat --players 4 --games 10000 --jobs 2"): _LONG,
    ("cli.rst", "catrules balance games/meow.cat --games 4000 --compare expert -o expert.html"): _LONG,
    # three player counts of Cat Lady's default 400 games: over three minutes (the sweep itself is
    # tested in tests/test_balance_turns.py)
    ("cli.rst", "catrules balance games/catlady.cat --players 2,3,4 --bots random --json-only --plot sweep.png"): _LONG,
    ("cli.rst", "catrules ladder games/meow.cat --bots random,greedy,ismcts:25,ismcts:100 --games 40 --jobs 2"): _LONG,
    ("cli.rst", "catrules ladder games/meow.cat --bots random,greedy,ismcts:0.2s,ismcts:1s --jobs auto --json "
                "> ladder.json"): _LONG,
    ("cli.rst", "catrules check broken.cat"): "broken.cat is a file the reader imagines",
    ("cli.rst", "catrules fmt --check games/mygame.cat"): "games/mygame.cat is a file the reader imagines",
    ("cli.rst", "catrules fmt games/mygame.cat"): "games/mygame.cat is a file the reader imagines",
    ("cli.rst", "catrules graph games/meow.cat | dot -Tpdf > meow.pdf"): "needs Graphviz's dot",
    ("flapcat.rst", "catrules play games/flapcat.cat --players 3"): _TERMINAL,
    ("flapcat.rst", "catrules play games/flapcat.cat --seats human,bot:fast,bot:slow"): _TERMINAL,
    ("flapcat.rst", "catrules play games/flapcat.cat --players 3 --option longest_meow --option purebred"): _TERMINAL,
    ("flapcat.rst", "catrules play games/flapcat.cat --players 3 --option advanced"): _TERMINAL,
    ("flapcat.rst", "catrules simulate games/flapcat.cat --players 4 --games 1000 --bots random,greedy,random,random"):
        _LONG,
    ("getting-started.rst", "python -m pip install ."): "installs the package",
    ("getting-started.rst", "catrules play games/meow.cat"): _TERMINAL,
    ("getting-started.rst", "python -m pip install . && catrules play games/meow.cat"): _TERMINAL,
    ("getting-started.rst", "python -m pip install -e '.[test]' && python -m pytest"): "runs the whole test suite",
    ("logs.rst", "catrules play games/meow.cat --log game.jsonl"): _TERMINAL,
    ("parallel.rst", "catrules simulate games/meow.cat --games 10000 --jobs auto"): _LONG,
    ("parallel.rst", "catrules simulate games/meow.cat --games 10000 --cluster tcp://10.0.0.5:8786"): "needs a cluster",
    ("parallel.rst", "pip install 'catrules[cluster]'"): "installs the package",
    ("parallel.rst", "catrules simulate games/meow.cat --games 100000 --cluster tcp://10.0.0.5:8786"): "needs a cluster",
}


def blocks(path: Path) -> list:
    """The console blocks of a page: for each, its line number and its commands with their output."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == ".. code-block:: console":
            start, i = i + 1, i + 1
            body = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith("   ")):
                body.append(lines[i][3:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            found.append((start, _commands(body)))
        else:
            i += 1
    return found


def _commands(body: list) -> list:
    cmds = []
    for line in body:
        if line.startswith("$ "):
            cmds.append([line[2:], []])
        elif cmds and cmds[-1][0].endswith("\\") and not cmds[-1][1]:
            cmds[-1][0] = cmds[-1][0][:-1].rstrip() + " " + line.strip()
        elif cmds:
            cmds[-1][1].append(line)
    for cmd in cmds:
        while cmd[1] and not cmd[1][-1].strip():
            cmd[1].pop()
    return [(c, out) for c, out in cmds]


BLOCKS = [(p.name, n, cmds) for p in DOCS for n, cmds in blocks(p)]


def matches(expected: list, actual: list) -> bool:
    """Whether the output fits the documented lines (``...`` lines and line ends elide; indentation aside)."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head.strip() == "...":
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    if not actual:
        return False
    got, want = actual[0].strip(), head.strip()      # indentation aside: a JSON excerpt keeps its keys
    ok = got.startswith(want[:-3]) if want.endswith("...") else got == want
    return ok and matches(rest, actual[1:])


def run(command: str, cwd: Path) -> list:
    words = shlex.split(command)
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80", NO_COLOR="1")
    done = subprocess.run([sys.executable, "-m", "catrules", *words[1:]], cwd=cwd, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    return done.returncode, done.stdout.splitlines()


def test_the_skipped_commands_are_all_in_the_docs():
    documented = {(page, c) for page, _, cmds in BLOCKS for c, _ in cmds}
    assert set(SKIP) <= documented, set(SKIP) - documented
    assert len(BLOCKS) >= 30


@pytest.mark.parametrize("page, line, cmds", BLOCKS, ids=[f"{p}:{n}" for p, n, _ in BLOCKS])
def test_a_console_example_prints_what_the_docs_show(page, line, cmds, tmp_path):
    shutil.copytree(ROOT / "games", tmp_path / "games")    # a copy: a log may name no file outside its folder
    for name in ("docs", "tests"):
        (tmp_path / name).symlink_to(ROOT / name)
    ran = 0
    for command, expected in cmds:
        if (page, command) in SKIP:
            continue
        assert command.startswith("catrules ") and not set("|><") & set(command), \
            f"docs/{page}:{line}: `{command}` cannot be run by the test: run it, or list it in SKIP with why"
        code, actual = run(command, tmp_path)
        fresh = "\n".join("   " + x for x in [f"$ {command}"] + actual)
        if expected:
            assert matches(expected, actual), f"docs/{page}:{line}: `{command}` now prints:\n{fresh}"
        else:                           # no output shown: the command works
            assert code == 0, f"docs/{page}:{line}: `{command}` fails:\n{fresh}"
        ran += 1
    if not ran:
        pytest.skip("every command of this block is in SKIP")
