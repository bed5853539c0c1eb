"""Decisions: what a player is asked, as a pending decision kept in the state (plain data), and
as the :class:`Decision` and :class:`Option` objects a person or a program is given.
"""

from __future__ import annotations

from typing import Any

from ..errors import IllegalChoice
from .option_ids import NONE


class Option:
    """One legal option of a decision: a stable ``id``, a ``label`` and the value."""
    __slots__ = ("id", "label", "value", "kind")

    def __init__(self, id: str, label: str, value: Any, kind: str):
        self.id = id
        self.label = label
        self.value = value
        self.kind = kind

    def __repr__(self) -> str:
        return f"Option({self.id!r}, {self.label!r})"

    def to_dict(self) -> dict:
        return {"id": self.id, "label": self.label, "kind": self.kind}


class Decision:
    """What one player must decide now.

    ``prompt`` may be given as a function: in a game nobody watches (no log, no person at the
    table: :attr:`State.ask_forced` off), a prompt said with values is worked out only when
    somebody reads it, from the state as it is then (bots never read it, and pay nothing);
    read it before the game moves on.  Otherwise it is worked out when the decision is made."""
    __slots__ = ("player", "kind", "_prompt", "options", "default", "line", "timed")

    def __init__(self, player, kind, prompt, options, default, line, timed):
        self.player = player
        self.kind = kind           # "choose" | "secret" | "race"
        self._prompt = prompt
        self.options = options     # list[Option]
        self.default = default     # option id or None
        self.line = line
        self.timed = timed         # True for a race: report a reaction time

    @property
    def prompt(self) -> str:
        if callable(self._prompt):
            self._prompt = self._prompt()
        return self._prompt

    def __repr__(self) -> str:
        return f"Decision(player={self.player}, kind={self.kind!r}, options={len(self.options)})"

    def option(self, oid: str) -> Option:
        for o in self.options:
            if o.id == oid:
                return o
        raise IllegalChoice(f"{oid!r} is not a legal option here; legal: {', '.join(o.id for o in self.options)}")

    def to_dict(self) -> dict:
        return {"player": self.player, "kind": self.kind, "prompt": self.prompt, "line": self.line,
                "timed": self.timed, "default": self.default, "options": [o.to_dict() for o in self.options]}


#: The one option of the race that `ties race` runs among tied players.
TIE_RACE_OPTION = "slap"


def _tie_race_code(line: int) -> list:
    """The `tiebreak` unit: players still tied after the ranking race; the order is kept for
    :meth:`State.winners` (the fastest wins)."""
    def start(st, fr):
        sc = st.scores(final=True)
        keys = st.rank_keys(sc)
        best = max(keys)
        tied = [pl for pl in range(st.n) if keys[pl] == best]
        if len(tied) < 2:
            fr.pc = 2           # past `done`: no tie, no race
            return False
        n = st.n
        opts, chosen = [None] * n, [None] * n
        for pl in tied:
            opts[pl], chosen[pl] = [TIE_RACE_OPTION], "?"
        st.pending_ = _pending("race", tied, opts, [None] * n, chosen, "value", "x", "order", line,
                               "a tie: race to break it (the fastest wins)")
        return True

    def done(st, fr):
        st.c["#tiebreak"] = [x[0] for x in fr.vars["order"]]
    return [start, done]


def _ask_one(st, V, who, options, default, kind, var, line, prompt, public=False, need=None, ask=None,
             prefers=None):
    """Pause for one player's choice among ``options``.

    A choice with one legal option, or none (then the one option is ``none``), is a decision
    like any other: the engine answers it itself unless ``st.ask_forced``, and logs it the same
    way, so that a forced choice looks to everyone else exactly like a free one.  ``need`` is the number of cards of a ``chooses N cards`` choice.
    """
    n = st.n
    chosen, opts, dflt = [None] * n, [None] * n, [None] * n
    if need is not None and need <= 0:
        V[var] = []
        return None
    chosen[who], opts[who], dflt[who] = "?", (options or [None]), default
    p = _pending("choose", [who], opts, dflt, chosen, kind, var, None, line, prompt, public,
                 None if need is None else [need if pl == who else None for pl in range(n)], ask)
    if prefers is not None:
        p["prefers"] = prefers          # prog.prefer_fns: what an answer tells the others
    if st.answer_forced(p, who):
        return None
    st.pending_ = p
    if st.auto is not None:
        return st.auto(st, p)
    return True


def _pending(kind, players, options, default, chosen, okind, var, slot, line, prompt, public=False,
             need=None, ask=None) -> dict:
    """A pending decision as the state keeps it (plain data, saved with the game): per-player
    lists of options, defaults, answers ("?" while awaited) and race times, indexed by seat.

    ``need`` (per player) is set for a choice of several cards: each pick is one decision, the
    picks so far are kept in ``picks``.  ``public`` marks a choice everyone sees (``openly``).
    ``ask`` (``[i, var]``) names the prompt said with values, ``prog.prompt_fns[i]``, worked out
    when a player reads it (``var``, if any, is then that player); ``prompt`` is the text
    without its values.
    """
    p = {"kind": kind, "players": players, "options": options, "default": default, "chosen": chosen,
         "times": [None] * len(chosen), "okind": okind, "var": var, "slot": slot, "line": line,
         "prompt": prompt}
    if public:
        p["public"] = True
    if need is not None:
        p["need"] = need
        p["picks"] = [[] if x is not None else None for x in need]
    if ask is not None:
        p["ask"] = ask
    return p


#: The one option of a choice with nothing to choose from: the player is still asked.
NONE_OPTION = Option(NONE, "nothing to choose", None, "none")
#: The option of a race that a player may sit out (``may choose``): not racing.
SIT_OUT = Option(NONE, "not me", None, "none")
