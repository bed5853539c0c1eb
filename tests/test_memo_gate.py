"""The score memos' gate (:mod:`catrules.runtime.memo_gate`): a memo whose look-ups keep missing
(every table new, a game played once through) is passed by for a while, then tried again; one
whose look-ups hit stays in use; the rows are the same either way."""

from __future__ import annotations

from pathlib import Path

import catrules
from catrules.bots.basic import make_seat
from catrules.play.match import Match
from catrules.runtime import memo_gate
from catrules.runtime.memo_gate import Gate
from catrules.runtime.scoring import _item_by_item

ROOT = Path(__file__).resolve().parent.parent


def _finished(n: int) -> list:
    game = catrules.load_game(str(ROOT / "games" / "meow.cat"))
    return [Match.new(game, 4, [make_seat("random") for _ in range(4)], seed=s).run() for s in range(1, n + 1)]


def _gates(rows) -> list:
    """The rows' gate and the per-player groups' gates (in the scorer's namespace)."""
    ns = rows.fresh.__globals__
    return [rows.gate] + [v for k, v in sorted(ns.items()) if k.startswith("_gg")]


def test_a_window_of_misses_rests_the_memo_then_it_is_tried_again():
    sts = _finished(memo_gate.WINDOW + 3)
    rows = sts[0].prog.scorer(sts[0].options)[0]
    gates = _gates(rows)
    assert len(gates) >= 2                      # Meow groups per-player items too
    for g in gates:
        g.asked = g.hits = g.rest = 0
    rows.memo.clear()
    for st in sts[:memo_gate.WINDOW]:           # every table new: every look-up misses
        assert st.score_now() == _item_by_item(st)
    assert gates[0].rest == memo_gate.REST     # the rows' memo: a look-up a table
    assert all(g.rest > 0 for g in gates[1:])   # a group's: one per player, rested sooner
    kept = len(rows.memo)
    st = sts[memo_gate.WINDOW]
    assert st.score_now() == _item_by_item(st)
    assert len(rows.memo) == kept               # resting: not looked up, not kept
    assert rows.gate.rest == memo_gate.REST - 1
    rows.gate.rest = 1
    st.score_now()                              # the last call of the rest
    st = sts[memo_gate.WINDOW + 1]
    assert st.score_now() == _item_by_item(st)
    assert len(rows.memo) == kept + 1           # looked up again, and kept


def test_a_memo_that_hits_stays_in_use():
    sts = _finished(4)
    rows = sts[0].prog.scorer(sts[0].options)[0]
    for g in _gates(rows):
        g.asked = g.hits = g.rest = 0
    for i in range(3 * memo_gate.WINDOW):      # the same few tables again and again
        st = sts[i % len(sts)]
        assert st.score_now() == _item_by_item(st)
    assert all(g.rest == 0 for g in _gates(rows))
    assert rows.gate.hits > 0


def test_the_gate_judges_at_the_end_of_a_window():
    g = Gate()
    for _ in range(memo_gate.WINDOW - 1):
        g.judge()
    assert g.rest == 0
    g.judge()
    assert g.rest == memo_gate.REST and g.asked == g.hits == 0
    g = Gate()
    g.hits = memo_gate.WINDOW // memo_gate.RARE
    g.asked = g.hits
    for _ in range(memo_gate.WINDOW - g.hits):
        g.judge()
    assert g.rest == 0                          # one in RARE hit: worth asking
