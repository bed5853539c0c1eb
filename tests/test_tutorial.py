"""The "Write your first game" tutorial (docs/tutorial.rst): five step files that check, play and are formatted.

Each step file checks (``catrules check``, no warning), plays seeded games to the end with random
answers at every player count (and with each of its options), and is in the layout of ``catrules
fmt``; the page shows each file with the lines changed since the step before emphasised.  The
console output on the page is run and compared by tests/test_docs_console.py, which reads every
docs/*.rst: the last test here makes sure it reads this page too.
"""

import difflib
import importlib.util
import random
import re
from pathlib import Path

import pytest

import catrules
from catrules.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "tutorial.rst"
STEPS = [ROOT / "docs" / "tutorial" / f"step{k}.cat" for k in range(1, 6)]


def _includes() -> list:
    """(file, options) for each ``literalinclude`` of the page, in order."""
    found, lines = [], PAGE.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        m = re.match(r"\.\. literalinclude:: (\S+)$", line)
        if m:
            opts = {}
            for more in lines[i + 1:]:
                o = re.match(r"   :([\w-]+):\s*(.*)$", more)
                if not o:
                    break
                opts[o.group(1)] = o.group(2)
            found.append((m.group(1), opts))
    return found


def _ranges(numbers: list) -> str:
    runs = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def _changed_lines(before: Path, after: Path) -> str:
    """The lines of ``after`` (from 1) that are new or changed since ``before``."""
    a, b = before.read_text().splitlines(), after.read_text().splitlines()
    new = []
    for tag, _, _, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            new.extend(range(j1 + 1, j2 + 1))
    return _ranges(new)


def test_the_page_shows_the_five_steps_in_order():
    assert [f for f, _ in _includes()] == [f"tutorial/step{k}.cat" for k in range(1, 6)]
    assert all(p.exists() for p in STEPS)
    assert "   tutorial\n" in (ROOT / "docs" / "index.rst").read_text()


@pytest.mark.parametrize("k", [2, 3, 4])
def test_each_step_emphasises_the_lines_it_changes(k):
    _, opts = _includes()[k - 1]
    changed = _changed_lines(STEPS[k - 2], STEPS[k - 1])
    assert changed, f"step {k} changes nothing"
    assert opts.get("emphasize-lines") == changed


def test_each_step_builds_on_the_one_before():
    texts = [p.read_text() for p in STEPS[:4]]
    for before, after in zip(texts, texts[1:]):
        kept = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
        assert kept.ratio() > 0.5 and len(after) > len(before)
    variant = STEPS[4].read_text()
    assert 'extends "step4.cat"' in variant and "replace " in variant and "option " in variant


@pytest.mark.parametrize("path", STEPS, ids=lambda p: p.name)
def test_a_step_checks(path, capsys):
    assert main(["check", str(path)]) == 0
    assert capsys.readouterr().out.startswith(f"ok: {path}")
    assert not catrules.load_game(path).warnings


@pytest.mark.parametrize("path", STEPS, ids=lambda p: p.name)
def test_a_step_plays_seeded_games_to_the_end_with_random_answers(path):
    game = catrules.load_game(path)
    option_sets = [()] + [(name,) for name in game.options]
    for players in range(game.min_players, game.max_players + 1):
        for options in option_sets:
            for seed in range(3):
                st = game.new_state(players=players, seed=seed, options=options)
                rng = random.Random(seed)
                decisions = 0
                while not st.finished:
                    d = st.pending()[0]
                    st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
                    decisions += 1
                assert len(st.scores()) == players
                assert (decisions > 0) == (path != STEPS[0])      # step 1 has no choice yet


@pytest.mark.parametrize("path", STEPS, ids=lambda p: p.name)
def test_a_step_is_in_the_formatters_layout(path, capsys):
    assert main(["fmt", "--check", str(path)]) == 0
    assert capsys.readouterr().out == ""


def test_the_console_examples_of_the_page_are_run_by_the_docs_console_test():
    spec = importlib.util.spec_from_file_location("docs_console", ROOT / "tests" / "test_docs_console.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert PAGE in mod.DOCS
    commands = [c for page, _, cmds in mod.BLOCKS if page == PAGE.name for c, _ in cmds]
    assert not [c for page, c in mod.SKIP if page == PAGE.name]
    for k in range(1, 6):
        assert f"catrules check docs/tutorial/step{k}.cat" in commands
    assert any(c.startswith("catrules new ") for c in commands)
    assert any(c.startswith("catrules fmt --check") and all(f"step{k}.cat" in c for k in range(1, 6))
               for c in commands)


def test_new_and_getting_started_point_to_the_tutorial(capsys):
    try:
        main(["new", "--help"])
    except SystemExit:
        pass
    assert "Write your first game" in capsys.readouterr().out
    assert ":doc:`tutorial`" in (ROOT / "docs" / "getting-started.rst").read_text()
