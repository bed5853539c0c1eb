"""A bot for a catrules seat over JSON lines: it answers every decision with its default.

Seat it with:  catrules play games/meow.cat --seats 'human,cmd:python first_legal.py'
It reads one JSON message per line on its standard input and writes one answer line on
its standard output for each "decide" message (see docs/protocol.rst).  Python only.

    python first_legal.py             the decision's default, else its first option
    python first_legal.py --random 7  a random legal option (seed 7: the same game again)
"""

import json
import random
import sys


def answer(decision, rng) -> None:
    ids = [option["id"] for option in decision["options"]]
    if rng is not None:
        choice = rng.choice(ids)
    else:
        choice = decision["default"] or ids[0]          # the default may be null
    # One line per answer, flushed at once: catrules is waiting for it.  In a race
    # ("timed": true) "reaction_time" may say how fast the answer was; without it,
    # the time is drawn as for catrules's own bots.
    print(json.dumps({"option": choice}), flush=True)


def main() -> None:
    rng = None
    if sys.argv[1:2] == ["--random"]:
        rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    decision = None
    # Line by line, not sys.stdin.read(): each decision must be answered before the next comes.
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "decide":
            decision = message["decision"]
            answer(decision, rng)
        elif kind == "error":
            # The answer was refused (why: message["message"]); the same decision is asked
            # again while tries are left, else its default was taken.  Standard output is for
            # answers only: anything else goes to standard error.
            print(f"first_legal: {message['message']}", file=sys.stderr)
            if message["tries_left"] > 0:
                answer(decision, rng)
        elif kind == "finish":
            break
        # "hello" says who we play and "show" what our player saw happen: not needed here.


if __name__ == "__main__":
    main()
