"""A bounded sample of the mutation fuzzer (tools/fuzz.py): every mutant of the repository's game
files must end in a located error or in played games, never a traceback or a runaway.

Work is bounded by steps (the fuzzer's loop-round limit and decision budget), not by time.
The full campaign is ``python tools/fuzz.py --count 10000 --seed 1 --jobs 2``.
"""

import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import fuzz  # noqa: E402

SAMPLE = 300
SEED = 20261123


@pytest.fixture(scope="module")
def sources():
    return [(str(f.relative_to(ROOT)), f.read_text(encoding="utf-8")) for f in fuzz.game_files()]


def test_the_fuzzer_covers_every_game_file_of_the_repository(sources):
    names = {n for n, _ in sources}
    assert {"games/meow.cat", "games/flapcat.cat", "games/catlady.cat"} <= names
    assert any(n.startswith("docs/examples/") for n in names) and any(n.startswith("tests/games/") for n in names)


def test_the_same_seed_gives_the_same_mutants(sources):
    a = [fuzz.mutant(SEED, i, sources) for i in range(50)]
    b = [fuzz.mutant(SEED, i, sources) for i in range(50)]
    assert a == b
    assert a != [fuzz.mutant(SEED + 1, i, sources) for i in range(50)]
    ops = {op for _n, o, _t in (fuzz.mutant(SEED, i, sources) for i in range(400)) for op in o}
    assert ops == {name for name, _f, _w in fuzz.MUTATIONS}


def test_a_sample_of_mutants_ends_cleanly(sources):
    counts = Counter()
    bad = []
    for i in range(SAMPLE):
        name, ops, text = fuzz.mutant(SEED, i, sources)
        outcome, detail = fuzz.run_one(name, text, SEED + i, games=1)
        counts[outcome] += 1
        if outcome in fuzz.BAD:
            bad.append((i, name, ops, outcome, detail))
    assert not bad, "\n".join(map(str, bad))
    # the sample exercises both sides: rejected files and games that run
    assert counts["rejected"] > SAMPLE // 3 and counts["played"] + counts["rules-error"] > SAMPLE // 10, counts


def test_the_outcome_table_lists_every_outcome():
    text = fuzz.table(Counter({"rejected": 3, "played": 1}))
    for o in fuzz.OUTCOMES:
        assert o in text
    assert "total" in text and "75.0%" in text
