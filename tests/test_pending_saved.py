"""A pending decision is saved as the record it always was: the same keys in the same order, "?"
for an awaited answer, the optional keys only when set, ``auto`` and ``answers`` in the order
they arose; and a save reads back to the same record."""

import json
import pickle

from catrules.runtime.decisions import UNANSWERED, Pending

BASE = ["kind", "players", "options", "default", "chosen", "times", "okind", "var", "slot", "line", "prompt"]


def secret():
    return Pending("secret", [0, 1, 2], [[1], [2], [3]], [None] * 3, [UNANSWERED] * 3, "card", "c", "s", 5,
                   "Pick")


def round_trip(p: Pending) -> dict:
    d = json.loads(json.dumps(p.to_dict()))
    assert json.dumps(Pending.from_dict(d).to_dict()) == json.dumps(d)
    return d


def test_a_choice_is_saved_as_before():
    p = Pending("choose", [1], [None, [4, 5], None], [None, 5, None], [None, UNANSWERED, None], "card", "x",
                None, 7, "Choose a card", True, [None, 2, None], [0, None])
    p.prefers = 3
    assert round_trip(p) == {
        "kind": "choose", "players": [1], "options": [None, [4, 5], None], "default": [None, 5, None],
        "chosen": [None, "?", None], "times": [None, None, None], "okind": "card", "var": "x", "slot": None,
        "line": 7, "prompt": "Choose a card", "public": True, "need": [None, 2, None], "picks": [None, [], None],
        "ask": [0, None], "prefers": 3}
    assert list(round_trip(p)) == BASE + ["public", "need", "picks", "ask", "prefers"]


def test_forced_and_kept_answers_keep_their_order():
    p = secret()
    p.add_answer({"player": 1})
    p.add_auto(0)
    assert list(round_trip(p)) == BASE + ["answers", "auto"]
    q = secret()
    q.add_auto(0)
    q.add_answer({"player": 0})
    assert list(round_trip(q)) == BASE + ["auto", "answers"]
    assert list(round_trip(secret())) == BASE


def test_awaited_answers_stay_awaited_through_copies():
    p = secret()
    p.chosen[1] = 2
    for q in (Pending.from_dict(round_trip(p)), p.copy(), pickle.loads(pickle.dumps(p))):
        assert [q.awaits(pl) for pl in range(3)] == [True, False, True]
        assert q["chosen"] == ["?", 2, "?"]
