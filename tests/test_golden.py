"""The golden playthrough: a fixed seed's full log of Meow, replayed exactly.

``tests/golden/meow-4p-seed2026.jsonl`` was written by::

    catrules play games/meow.cat --seats greedy,random,random,greedy:fast --seed 2026 \\
        --log tests/golden/meow-4p-seed2026.jsonl

If a change to the engine or to games/meow.cat alters the game, this test says
where the game first went another way; regenerate the file only when the
change is meant to alter play.
"""

import json
from pathlib import Path

from catrules.logs import replay

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "meow-4p-seed2026.jsonl"


def test_golden_meow_log_replays_exactly(monkeypatch):
    monkeypatch.chdir(ROOT)
    report = replay(GOLDEN)
    assert report.ok, report.format()


def test_golden_result_agrees_with_the_tokens_each_player_won():
    lines = [json.loads(x) for x in GOLDEN.read_text().splitlines()]
    header, result = lines[0], lines[-1]
    assert header["seed"] == 2026 and header["players"] == 4 and result["type"] == "result"
    won = {p: [] for p in range(4)}
    used = {p: [] for p in range(4)}
    for ev in lines[1:-1]:
        if ev.get("event") == "move" and ev["cards"]:
            for p in range(4):
                for zone, bag in (("won", won), ("used", used)):
                    name = f"{zone} of player {p + 1}"
                    if ev["to"] == name:
                        bag[p].extend(ev["cards"])
                    if ev["from"] == name:
                        for c in ev["cards"]:
                            bag[p].remove(c)
    assert sum(len(v) + len(used[p]) for p, v in won.items()) == 27
    for p in range(4):
        food = sum(c["value"] for c in won[p] if c["kind"] == "food")
        bones = sum(c["value"] for c in won[p] if c["kind"] == "fishbone")
        fish = sum(1 for c in won[p] if c["kind"] == "fish")
        vases = sum(1 for c in won[p] if c["kind"] == "vase")
        all_bones = [c for c in won[p] + used[p] if c["kind"] == "fishbone"]
        assert len(used[p]) == min(fish, len(all_bones))           # one fishbone per fish
        total = food + bones + (-20 if vases >= 2 else 0)
        assert result["scores"][p]["total"] == total
    best = max(s["total"] for s in result["scores"])
    assert result["winners"] == [p for p in range(4) if result["scores"][p]["total"] == best]
