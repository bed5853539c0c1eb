"""What a choice ``preferring P`` tells the others (:func:`catrules.runtime.inference.note_choice`)
is worked out over every card at once, or by a printed column's look-up: the same facts and
the same steps counted as card by card, also where the test fails for some cards."""

from __future__ import annotations

from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.errors import RulesError
from catrules.play import autoplay
from catrules.play.match import Match
from catrules.runtime import inference, state as state_mod

ROOT = Path(__file__).resolve().parent.parent


def _card_by_card(st, V, index, player, value):
    """``note_choice`` as it was written before, every card tried one by one."""
    if st.known is None or type(value) is not int:
        return
    prog = st.prog
    prefer, where = prog.prefer_fns[index]
    try:
        if prefer(st, V, value):
            return
    except (RulesError, LookupError, TypeError, AttributeError, ValueError):
        return
    slot = st.loc[value]
    zone = st.layout.slot_zone[slot]
    shown = []
    for x in range(prog.card_count):
        if zone not in prog.zone_types[prog.card_type[x]] or x == value:
            continue
        try:
            if (where is None or where(st, V, x)) and prefer(st, V, x):
                shown.append(x)
        except (RulesError, LookupError, TypeError, AttributeError, ValueError):
            continue
    if shown:
        st.facts = st.facts + ((slot, frozenset(shown), value, player),)


def _calls(monkeypatch, seeds=range(1, 5)) -> list:
    """The ``note_choice`` calls of seeded Meow games (a greedy bot keeps what players know)."""
    calls = []
    real = inference.note_choice

    def spy(st, V, index, player, value):
        calls.append((st.clone(), dict(V), index, player, value))
        real(st, V, index, player, value)
    monkeypatch.setattr(state_mod, "note_choice", spy)
    monkeypatch.setattr(autoplay, "note_choice", spy)
    game = catrules.load_game(str(ROOT / "games" / "meow.cat"))
    for seed in seeds:
        st = game.new_state(4, seed=seed)
        Match(game, st, [make_seat(x) for x in ("greedy", "random", "random", "random")]).run()
    monkeypatch.undo()
    return calls


def _both(st, V, index, player, value):
    a, b = st.clone(), st.clone()
    _card_by_card(a, V, index, player, value)
    inference.note_choice(b, V, index, player, value)
    return (a.facts, a.steps), (b.facts, b.steps)


def test_the_same_facts_as_card_by_card(monkeypatch):
    calls = _calls(monkeypatch)
    told = 0
    for st, V, index, player, value in calls:
        old, new = _both(st, V, index, player, value)
        assert new == old
        told += len(new[0]) > len(st.facts)
    assert told > 10                    # the games did show facts (a player off the colour led)
    # the colour test is read as a column's look-up (the fast way)
    prefer = calls[0][0].prog.prefer_fns[calls[0][2]][0]
    assert inference._column_test(prefer) is not None


def _as_dict(col) -> dict:
    """A column as a dict by card id (the tuple a card's column is read from where the card can
    only be a card id, see :meth:`catrules.compile.codegen.CodeGen.card_column`)."""
    return dict(enumerate(col)) if isinstance(col, tuple) else col


@pytest.mark.parametrize("fails", ["column", "side"])
def test_a_test_that_fails_for_some_cards_leaves_just_those_out(monkeypatch, fails):
    calls = _calls(monkeypatch, seeds=(1, 2))
    checked = 0
    for st, V, index, player, value in calls:
        prefer, where = st.prog.prefer_fns[index]
        col, side = inference._column_test(prefer)
        col = _as_dict(col)
        odd = {x for x in range(st.prog.card_count) if x % 3 == 0 and x != value}

        class Picky(dict):
            def __getitem__(self, x):
                if x in odd:
                    raise KeyError(x)
                return dict.__getitem__(self, x)

        def picky(st_, V_, x, col=Picky(col), side=side):
            return col[x] == side(st_, V_)
        picky.body = prefer.body
        fns = list(st.prog.prefer_fns)
        fns[index] = (picky, where)
        monkeypatch.setattr(st.prog, "prefer_fns", fns)
        if fails == "side":             # the value read fails: every card tells nothing
            monkeypatch.setattr(inference, "_column_test", lambda p: (col, lambda s, v: {}[0]))
        else:
            monkeypatch.setattr(inference, "_column_test", lambda p: (Picky(col), side))
        old, new = _both(st, V, index, player, value)
        assert new == old
        checked += old[0] != st.facts
        monkeypatch.undo()
    assert checked > 5


def test_a_broken_fast_way_is_caught(monkeypatch):
    """The comparison must be against card by card: a column read wrongly gives other facts."""
    calls = _calls(monkeypatch, seeds=(1, 2))
    wrong = 0
    for st, V, index, player, value in calls:
        prefer = st.prog.prefer_fns[index][0]
        col, side = inference._column_test(prefer)
        col = _as_dict(col)
        monkeypatch.setattr(inference, "_column_test", lambda p: ({**col, **{k: "x" for k in list(col)[:9]}}, side))
        old, new = _both(st, V, index, player, value)
        wrong += new != old
        monkeypatch.undo()
    assert wrong > 0
