"""Helpers for tests that build a concrete situation in a running game.

A test starts a game, then arranges cards and counters by hand while the
game is paused at a decision, and calls :func:`refresh` so the pending
decision is worked out again from the new situation::

    st = game.new_state(players=3, seed=1)
    put(st, cards(game, colour="blue", value=8), "hand", owner=st.pending()[0].player)
    refresh(st)

Also :class:`ScriptedSeat`, a seat that plays a list of choices.
"""

from __future__ import annotations

from typing import Iterable, Optional

from .runtime import _insert, _remove
from .runtime.frames import cards_in
from .play.seats import Choice, Seat


def cards(game, **attrs) -> list:
    """Ids of the cards whose attributes match every ``attr=value`` given."""
    prog = game.program
    return [i for i, a in enumerate(prog.card_attrs) if all(a.get(k) == v for k, v in attrs.items())]


def card(game, **attrs) -> int:
    """The id of the one card matching ``attrs`` (the first if several)."""
    found = cards(game, **attrs)
    if not found:
        raise KeyError(f"no card with {attrs}")
    return found[0]


def slot(state, zone: str, owner: Optional[int] = None) -> int:
    spec = state.prog.zone_by_name[zone]
    return state.layout.base[spec.index] + (owner if spec.per_player else 0)


def put(state, card_ids: Iterable[int] | int, zone: str, owner: Optional[int] = None) -> None:
    """Move cards into a zone (without triggers or log), for setting up a situation."""
    if isinstance(card_ids, int):
        card_ids = [card_ids]
    s = slot(state, zone, owner)
    for c in card_ids:
        _remove(state, c)
        _insert(state, c, s, None)


def put_line(state, card_ids: Iterable[int], zone: str, owner: Optional[int] = None) -> None:
    """Lay cards, in order, as a new line of a ``lines`` zone (a cat, a snake...)."""
    s = slot(state, zone, owner)
    if state.layout.slot_shape[s] != "lines":
        raise ValueError(f"{zone} is not a lines zone")
    line = []
    for c in card_ids:
        _remove(state, c)
        line.append(c)
        state.loc[c] = s
    state.z[s].append(line)


def zone(state, zone: str, owner: Optional[int] = None) -> list:
    """The card ids in a zone (a copy; lines zones give a list of lines)."""
    z = state.z[slot(state, zone, owner)]
    return [list(x) for x in z] if z and type(z[0]) is list else list(z)


def empty(state, zone_name: str, owner: Optional[int] = None, to: str = None, to_owner: Optional[int] = None) -> None:
    """Move every card of a zone to another zone (default: the first zone of its cards' type)."""
    for c in cards_in(state.z[slot(state, zone_name, owner)]):
        dest = to or state.prog.zones[state.prog.initial_zone[c]].name
        put(state, c, dest, to_owner)


def refresh(state) -> None:
    """Work out the pending decision again after arranging the situation by hand."""
    if state.pending_ is None:
        return
    fr = state.frames[-1]
    state.pending_ = None
    fr.pc -= 1
    state.run()


def play_until(state, stop=None, policy=None, limit: int = 5000):
    """Answer each pending decision until ``stop(state)`` holds (without ``stop``: to the end).

    An answer is ``policy(state, decision)`` if given, else the decision's default (or its
    first option); a race answers in 0.5 s.  Fails if the game ends first or never gets there.
    """
    for _ in range(limit):
        if stop is None and state.finished:
            return state
        if stop is not None and stop(state):
            return state
        assert not state.finished, "the game ended before the situation was reached"
        d = state.pending()[0]
        option = policy(state, d) if policy else (d.default or d.options[0].id)
        state.apply(d.player, option, 0.5 if d.timed else None)
    raise AssertionError("the situation was never reached")


def choose(state, player: int, **attrs) -> None:
    """Apply the pending option of ``player`` whose card matches ``attrs``."""
    prog = state.prog
    for d in state.pending():
        if d.player == player:
            for o in d.options:
                if o.kind == "card" and all(prog.card_attrs[o.value].get(k) == v for k, v in attrs.items()):
                    state.apply(player, o.id, 0.5 if d.timed else None)
                    return
            raise AssertionError(f"player {player} has no option matching {attrs}: {[o.label for o in d.options]}")
    raise AssertionError(f"player {player} has nothing to decide")


class ScriptedSeat(Seat):
    """Plays the given option ids (or labels) in order; for tests and demos."""

    name = "scripted"

    def __init__(self, choices: Iterable, reaction_times: Iterable[float] = ()):
        self.choices = list(choices)
        self.times = list(reaction_times)

    def decide(self, view, decision) -> Choice:
        if not self.choices:
            raise AssertionError(f"the script for player {decision.player} ran out at: {decision.prompt}")
        want = self.choices.pop(0)
        for o in decision.options:
            if want in (o.id, o.label):
                t = self.times.pop(0) if (decision.timed and self.times) else (0.5 if decision.timed else None)
                return Choice(o.id, t)
        raise AssertionError(f"scripted choice {want!r} is not legal: {[o.label for o in decision.options]}")
