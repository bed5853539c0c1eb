"""Compare two game logs (JSON lines) with every "line" field removed, at any depth.

Used when a game file is reformatted: its statements move to other lines, so the logged
"line" fields change, and nothing else may.  A result line's "digest" (of its game's header
and event lines) changes with them: it is left out of the comparison, and each log's digest is
checked against its own lines instead.  Prints each pair's verdict and the first
differing log line if any; the exit code is 1 if any pair differs::

    python tools/same_but_lines.py OLD.jsonl NEW.jsonl [OLD2.jsonl NEW2.jsonl ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from catrules.play.logs import iter_games      # noqa: E402


def without_lines(x):
    """``x`` with every "line" key of every dict removed, at any depth."""
    if isinstance(x, dict):
        return {k: without_lines(v) for k, v in x.items() if k != "line"}
    if isinstance(x, list):
        return [without_lines(v) for v in x]
    return x


def digests_hold(path: str) -> bool:
    """Whether every game of the log has a result whose digest is that of its own lines."""
    return all(g.result is not None and g.result.get("digest") == g.digest for g in iter_games(path))


def _compared(obj: dict) -> dict:
    obj = without_lines(obj)
    return {k: v for k, v in obj.items() if k != "digest"} if obj.get("type") == "result" else obj


def compare(old_path: str, new_path: str) -> tuple[bool, str]:
    """Whether the two logs agree but for their "line" fields, and a one-line verdict."""
    with open(old_path, encoding="utf-8") as f:
        old = [json.loads(s) for s in f.read().splitlines()]
    with open(new_path, encoding="utf-8") as f:
        new = [json.loads(s) for s in f.read().splitlines()]
    moved = sum(a != b for a, b in zip(old, new))
    for n, (a, b) in enumerate(zip(old, new), start=1):
        if _compared(a) != _compared(b):
            return False, f"{new_path}: log line {n} differs beyond its line numbers"
    if len(old) != len(new):
        return False, f"{new_path}: {len(new)} log lines, {len(old)} before"
    for path in (old_path, new_path):
        if not digests_hold(path):
            return False, f"{path}: a result's digest is not that of its game's lines"
    return True, f"{new_path}: the same {len(new)} log lines but for \"line\" fields ({moved} of them changed)"


def main(argv: list[str]) -> int:
    if not argv or len(argv) % 2:
        print(__doc__.strip().splitlines()[-1].strip())
        return 2
    ok = True
    for old, new in zip(argv[0::2], argv[1::2]):
        same, verdict = compare(old, new)
        ok &= same
        print(("same: " if same else "DIFFERENT: ") + verdict)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
