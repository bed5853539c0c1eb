"""The end-to-end RL example (docs/examples/rl_train_meow.py) runs at a tiny size and prints its report.

Whether the agent wins is measured in docs/environments.rst, not here: a few episodes learn nothing.
It needs the ``rl`` extra; without it the test is skipped.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "docs" / "examples" / "rl_train_meow.py"
SHARE = r"(\d+\.\d)% of (\d+) games \(95% interval (\d+\.\d)% to (\d+\.\d)%\)"


def _run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_the_training_example_runs_and_reports_both_agents():
    done = _run("--episodes", "6", "--batch", "2", "--eval-games", "5", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("Meow, 4 players, seat 1 against 3 random bots")
    assert re.fullmatch(r"training: 6 games in \d+ s", lines[1])
    for line, name in zip(lines[2:4], ("trained agent", "random agent")):
        m = re.fullmatch(rf"{name} +wins +{SHARE}", line)
        assert m, line
        share, games, lo, hi = float(m[1]), int(m[2]), float(m[3]), float(m[4])
        assert games == 5 and 0 <= lo <= share <= hi <= 100
    assert re.fullmatch(r"total time: \d+ s", lines[4]) and len(lines) == 5


def test_the_random_baseline_plays_the_same_games_whatever_was_learnt():
    """The baseline's games depend on the seeds only: two runs with different training agree on it."""
    a = _run("--episodes", "2", "--batch", "1", "--eval-games", "6", "--seed", "5").stdout.splitlines()
    b = _run("--episodes", "4", "--batch", "2", "--eval-games", "6", "--seed", "5").stdout.splitlines()
    assert a[3] == b[3] and a[3].startswith("random agent")


def test_bad_arguments_get_an_answer_in_words():
    done = _run("--episodes", "many")
    assert done.returncode == 2 and "invalid int value" in done.stderr and "Traceback" not in done.stderr
