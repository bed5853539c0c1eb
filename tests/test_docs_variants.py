"""Every console example of the "Writing a variant" tutorial (docs/variants.rst) runs and prints what the page shows.

Each ``$ catrules ...`` line of a ``console`` block is run through ``catrules.cli.main``
from the repository root; each line shown under it (``...`` stands for lines left out)
must be a line of what the command printed, in the same order.  A block that shows an
``error:`` must fail; any other must succeed."""

import re
import shlex
from pathlib import Path

import pytest

import catrules
from catrules.cli import main

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "variants.rst"


def examples():
    """(command, shown lines) for each ``$`` line of the page's console blocks."""
    found = []
    for block in re.findall(r"\.\. code-block:: console\n\n((?:   .*\n|\n)+)", PAGE.read_text(encoding="utf-8")):
        for line in block.splitlines():
            line = line[3:]
            if line.startswith("$ "):
                found.append((line[2:], []))
            elif line.strip():
                found[-1][1].append(line.strip())
    return found


EXAMPLES = examples()


def test_the_page_has_the_tutorials_commands():
    commands = [c.split()[1] for c, _ in EXAMPLES]
    assert {"check", "rules", "simulate", "fmt"} <= set(commands)
    assert len(EXAMPLES) >= 8


@pytest.mark.parametrize("command,shown", EXAMPLES, ids=[c for c, _ in EXAMPLES])
def test_each_console_example_prints_what_the_page_shows(command, shown, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    argv = shlex.split(command)
    assert argv[0] == "catrules"
    code = main(argv[1:])
    captured = capsys.readouterr()
    printed = [line.strip() for line in (captured.out + captured.err).splitlines()]
    failing = any("error:" in line for line in shown)
    assert (code != 0) == failing, (code, captured.out, captured.err)
    if not shown:
        assert printed == [], printed           # the page shows that the command prints nothing
    at = 0
    for line in shown:
        if line == "...":
            continue
        assert line in printed[at:], f"{line!r} is not printed (after line {at}):\n" + "\n".join(printed)
        at = printed.index(line, at) + 1


def _play(game, seed):
    st = game.new_state(players=4, seed=seed)
    while not st.finished:                      # the same choices in both: the first option each time
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id, None)
    return st.scores()


def test_the_tutorials_variant_differs_from_its_base_where_it_says():
    short = catrules.load_game(ROOT / "games" / "variants" / "meow-short.cat")
    gentle = catrules.load_game(ROOT / "docs" / "examples" / "meow-gentle.cat")
    vases_seen = fish_seen = False
    for seed in range(1, 9):
        # Same deal and choices, so only the scoring differs: vases halved, a point a fish.
        for s, g in zip(_play(short, seed), _play(gentle, seed)):
            assert (g["food"], g["fishbones_kept"]) == (s["food"], s["fishbones_kept"])
            assert g["vases"] * 2 == s["vases"]
            assert g["total"] == s["total"] - s["vases"] + g["vases"] + g["fish_points"]
            vases_seen |= s["vases"] != 0
            fish_seen |= g["fish_points"] > 0
    assert vases_seen and fish_seen             # the seeds reach both changes
