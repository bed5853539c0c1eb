"""Print the example messages of docs/protocol.rst, taken from a real game of Meow.

Player 2 of a three-player game (seed 1) is a program that records what it reads and answers
with the default, except for its first "Play" decision, which it first answers with an id
that is not an option (to show an ``error`` message).  The other seats are random bots.
Each example is printed as the literal block that docs/protocol.rst holds (the test
``tests/test_program_seat.py`` checks that they are still there)::

    python tools/protocol_examples.py
"""

from __future__ import annotations

import json
import shlex
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

#: The program: records each line it reads, answers the default, once an id that is no option.
RECORDER = """\
import json, sys
wrong = True
with open(sys.argv[1], "w") as out:
    for line in sys.stdin:
        out.write(line)
        out.flush()
        m = json.loads(line)
        if m["type"] == "decide":
            d = m["decision"]
            if wrong and d["prompt"].startswith("Play"):
                wrong = False
                print(json.dumps({"option": "c99"}), flush=True)
            else:
                print(json.dumps({"option": d["default"] or d["options"][0]["id"]}), flush=True)
        elif m["type"] == "error" and m["tries_left"] > 0:
            print(json.dumps({"option": m["default"] or m["legal"][0]}), flush=True)
"""


def messages() -> list:
    """Every message player 2's program read in the game, in order."""
    import catrules
    from catrules.bots.basic import make_seat
    from catrules.play.program_seat import program_seat
    from catrules.play.match import Match
    with tempfile.TemporaryDirectory() as tmp:
        bot, out = Path(tmp) / "recorder.py", Path(tmp) / "read.jsonl"
        bot.write_text(RECORDER, encoding="utf-8")
        game = catrules.load_game(ROOT / "games" / "meow.cat")
        state = game.new_state(3, seed=1, log=True)
        seat = program_seat("cmd:" + shlex.join([sys.executable, str(bot), str(out)]))
        Match(game, state, [make_seat("random"), seat, make_seat("random")]).run()
        return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


#: Longest line of an example (a zone of a view may be longer: one zone a line).
WIDTH = 100


def _short(value, key=None):
    """``value`` with the cards' ``text`` left out and a zone's cards cut to two and "…"."""
    if isinstance(value, dict):
        if "label" in value and "type" in value:
            value = {k: v for k, v in value.items() if k != "text"}
        return {k: _short(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [_short(v) for v in value]
        return items[:2] + ["…"] if key == "cards" and len(items) > 2 and isinstance(value[0], dict) else items
    return value


def _dump(value) -> str:
    return json.dumps(value, ensure_ascii=False).replace('"…"', "…")


def _pretty(value, indent: str = "", key=None) -> str:
    """JSON indented as far as needed to fit lines in :data:`WIDTH` (a view's zones one a line)."""
    flat = _dump(value)
    if key == "zones":
        inner = f",\n{indent}  ".join(_dump(z) for z in value)
        return f"[\n{indent}  {inner}\n{indent}]"
    if len(indent) + len(flat) + 16 <= WIDTH or not isinstance(value, (dict, list)) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        rows = [f"{inner}{json.dumps(k)}: {_pretty(v, inner, k)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + f"\n{indent}}}"
    rows = [inner + _pretty(v, inner) for v in value]
    return "[\n" + ",\n".join(rows) + f"\n{indent}]"


def block(message: dict, full_view: bool = False) -> str:
    """A message as docs/protocol.rst shows it: indented, its view shown as ``{…}`` (or, with
    ``full_view``, with two cards a zone and no card's ``text``)."""
    if full_view:
        return _pretty(_short(message))
    return _pretty({k: ("@VIEW" if k == "view" else v) for k, v in message.items()}).replace('"@VIEW"', "{…}")


def examples() -> dict:
    """The examples of docs/protocol.rst by name, each the text of a literal block."""
    ms = messages()
    first = {}
    for i, m in enumerate(ms):
        first.setdefault(m["type"], i)
    return {
        "hello": block(ms[0]),
        "show": block(ms[first["show"]]),
        "decide": block(ms[first["decide"]], full_view=True),
        "error": block(ms[first["error"]]),
        "finish": block(ms[-1]),
    }


def literal(text: str) -> str:
    return "\n".join(("   " + line) if line else "" for line in text.splitlines())


if __name__ == "__main__":
    for name, text in examples().items():
        print(f"--- {name}\n\n::\n\n{literal(text)}\n")
