"""Write a full log again from its own decisions, with the game file as it is now.

For a game file whose statements moved to other lines (``catrules fmt``) and whose play did
not change: the header's game is started again (players, seed, options), every logged decision
is made in the logged order, and the log is written anew with the same header fields (seats
included); only the "line" fields may change, which ``tools/same_but_lines.py`` then proves.
The bots are not run again (a bot that changed would play another game), so a log made by an
older bot is rewritten exactly.  Run from the directory the log's game path is relative to::

    python tools/relog.py tests/golden/meow-4p-seed2026.jsonl OUT.jsonl
    python tools/same_but_lines.py tests/golden/meow-4p-seed2026.jsonl OUT.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from catrules.api import load_game                      # noqa: E402
from catrules.play.logs import LogWriter, iter_games    # noqa: E402


def relog(old: str, new: str) -> None:
    """Write the first game of the full log ``old`` again into ``new`` (see the module's text)."""
    lg = next(iter_games(old))
    h = lg.header
    if h.get("viewer") is not None:
        raise SystemExit(f"{old}: a player's log cannot be played again (it lacks others' choices)")
    game = load_game(h["game"])
    st = game.new_state(h["players"], h["seed"], h.get("options", []), log=True, ask_forced=True)
    with open(new, "w", encoding="utf-8") as out:
        writer = LogWriter(out, game, h["players"], h.get("options", []), h["seed"], seats=h["seats"])
        writer.attach(st)
        written = 0
        for _, ev in lg.events:
            if ev.get("event") == "decision":
                st.apply(ev["player"], ev["option"], ev.get("time"))
            while written < len(st.log):
                writer.event(st.log[written])
                written += 1
        writer.close()
    if not st.finished:
        raise SystemExit(f"{new}: the game did not end with the logged decisions")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.strip().splitlines()[-2].strip())
    relog(sys.argv[1], sys.argv[2])
