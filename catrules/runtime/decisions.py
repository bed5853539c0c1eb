"""Decisions: what a player is asked, as the :class:`Pending` decision kept in the state (saved
with it as plain data), and as the :class:`Decision` and :class:`Option` objects a person or a
program is given.
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


class _Unanswered:
    """The type of :data:`UNANSWERED` (one object, kept one through copies and pickles)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNANSWERED"

    def __reduce__(self):
        return "UNANSWERED"


#: A player's answer to a pending decision while it is awaited (saved as "?").
UNANSWERED = _Unanswered()

#: The fields of a pending decision that every save holds, in their saved order.
_FIELDS = ("kind", "players", "options", "default", "chosen", "times", "okind", "var", "slot", "line",
           "prompt")
#: Those a save holds only when they are set, in their saved order (then ``auto`` and
#: ``answers``, in the order they arose).
_OPTIONAL = ("public", "need", "picks", "ask", "prefers", "optional", "upto")


class Pending:
    """A decision the game waits for: per-player lists (indexed by seat) of options, defaults,
    answers (:data:`UNANSWERED` while awaited) and race times.

    ``kind`` is "choose", "secret" or "race"; ``okind`` the kind of the options; the answer goes
    to the frame variable ``var`` (choose) or, as ``[player, answer, position]`` items, to
    ``slot`` (secret, race).  ``need`` (per player) is set for a choice of several cards: each
    pick is one decision, the picks so far are kept in ``picks``; with ``upto`` (``chooses up to N
    cards``, ``any number``) ``need`` is the most, and ``none`` ("done") ends the picks at any
    time (see :mod:`catrules.runtime.upto`).  ``public`` marks a choice
    everyone sees (``openly``); ``optional`` a race one may sit out (``may choose``).  ``ask``
    (``[i, var]``) names the prompt said with values, ``prog.prompt_fns[i]``, worked out when a
    player reads it (``var``, if any, is then that player); ``prompt`` is the text without its
    values.  ``prefers`` indexes ``prog.prefer_fns`` (what an answer tells the others).  While a
    secret choice is open, ``auto`` lists the players whose forced answer the engine gave (to the
    others they are still choosing), ``answers`` the decision events kept for the reveal.

    Saved as a record (:meth:`to_dict`, :meth:`from_dict`) with the keys and key order of the
    plain dictionary it once was, "?" for an awaited answer."""
    __slots__ = _FIELDS + _OPTIONAL + ("auto", "answers", "auto_first")

    def __init__(self, kind, players, options, default, chosen, okind, var, slot, line, prompt,
                 public=False, need=None, ask=None):
        self.kind = kind
        self.players = players
        self.options = options
        self.default = default
        self.chosen = chosen
        self.times = [None] * len(chosen)
        self.okind = okind
        self.var = var
        self.slot = slot
        self.line = line
        self.prompt = prompt
        self.public = True if public else None
        self.need = need
        self.picks = None if need is None else [[] if x is not None else None for x in need]
        self.ask = ask
        self.prefers = None
        self.optional = None
        self.upto = None
        self.auto = None
        self.answers = None
        self.auto_first = False     # both kept: ``auto`` arose first (their order in a save)

    def __repr__(self) -> str:
        return f"Pending({self.kind!r}, players={self.players})"

    def awaits(self, player: int) -> bool:
        """Whether ``player``'s answer is still awaited."""
        return self.chosen[player] is UNANSWERED

    def add_auto(self, player: int) -> None:
        """Mark a forced answer the engine gave ``player`` in a secret choice (see ``auto``)."""
        if self.auto is None:
            self.auto, self.auto_first = [], self.answers is None
        self.auto.append(player)

    def add_answer(self, ev: dict) -> None:
        """Keep the event of a secret answer for the reveal (see ``answers``)."""
        if self.answers is None:
            self.answers = []
        self.answers.append(ev)

    def copy(self) -> "Pending":
        """A copy whose answers change apart from this one's (the options are shared)."""
        q = Pending.__new__(Pending)
        q.kind, q.players, q.options, q.okind = self.kind, self.players, self.options, self.okind
        q.var, q.slot, q.line, q.prompt = self.var, self.slot, self.line, self.prompt
        q.public, q.need, q.ask, q.prefers, q.optional = self.public, self.need, self.ask, self.prefers, self.optional
        q.upto = self.upto
        q.chosen, q.times, q.default = list(self.chosen), list(self.times), list(self.default)
        picks = self.picks
        q.picks = [list(x) if x is not None else None for x in picks] if picks is not None else None
        q.answers = list(self.answers) if self.answers is not None else None
        q.auto = list(self.auto) if self.auto is not None else None
        q.auto_first = self.auto_first
        return q

    def to_dict(self) -> dict:
        """The decision as saved: "?" for an awaited answer, the optional keys only when set."""
        d = {}
        for k in _FIELDS:
            d[k] = getattr(self, k)
        d["chosen"] = ["?" if c is UNANSWERED else c for c in self.chosen]
        for k in _OPTIONAL:
            v = getattr(self, k)
            if v is not None:
                d[k] = v
        if self.auto is not None and self.auto_first:
            d["auto"] = self.auto
        if self.answers is not None:
            d["answers"] = self.answers
        if self.auto is not None and not self.auto_first:
            d["auto"] = self.auto
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Pending":
        """A decision from :meth:`to_dict` (as :mod:`catrules.runtime.saved_state` checked it)."""
        p = cls.__new__(cls)
        for k in _FIELDS + _OPTIONAL + ("auto", "answers"):
            setattr(p, k, d.get(k))
        p.chosen = [UNANSWERED if c == "?" else c for c in d["chosen"]]
        keys = list(d)
        p.auto_first = "auto" in d and ("answers" not in d or keys.index("auto") < keys.index("answers"))
        return p

    def __getitem__(self, key: str):
        """The field ``key`` as saved (read only: "?" for an awaited answer), for code that reads
        a pending decision as the record it is saved as."""
        if key == "chosen":
            return ["?" if c is UNANSWERED else c for c in self.chosen]
        if key in _FIELDS or key in _OPTIONAL or key in ("auto", "answers"):
            return getattr(self, key)
        raise KeyError(key)


def reveal_event(st, p: Pending, order: list) -> dict:
    """The event of a secret choice's reveal or a race's result.

    A chosen card is named with the zone it lies in (``from``), so that each player's
    filtered log shows it only if that player can see that zone: cards chosen in secret
    become visible only as far as the zones they go to are visible.
    """
    prog = st.prog
    okind = p.okind
    choices = []
    for pl in order:
        v = p.chosen[pl]
        if okind == "card":
            if isinstance(v, list):
                ch = {"player": pl, "option": [prog.option_id(okind, c) for c in v],
                      "from": [st.layout.slot_name[st.loc[c]] for c in v]}
            elif v is None:
                ch = {"player": pl, "option": prog.option_id(okind, v), "from": None}
            else:
                ch = {"player": pl, "option": prog.option_id(okind, v),
                      "from": st.layout.slot_name[st.loc[v]]}
        else:
            ch = {"player": pl, "option": prog.option_id(okind, v)}
        choices.append(ch)
    ev = {"t": "reveal" if p.kind == "secret" else "race", "line": p.line, "choices": choices}
    if p.kind == "race":
        ev["times"] = [p.times[pl] for pl in order]
    return ev


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
            opts[pl], chosen[pl] = [TIE_RACE_OPTION], UNANSWERED
        st.pending_ = Pending("race", tied, opts, [None] * n, chosen, "value", "x", "order", line,
                              "a tie: race to break it (the fastest wins)")
        return True

    def done(st, fr):
        st.c["#tiebreak"] = [x[0] for x in fr.vars["order"]]
    return [start, done]


def _ask_one(st, V, who, options, default, kind, var, line, prompt, public=False, need=None, ask=None,
             prefers=None, upto=False):
    """Pause for one player's choice among ``options``.

    A choice with one legal option, or none (then the one option is ``none``), is a decision
    like any other: the engine answers it itself unless ``st.ask_forced``, and logs it the same
    way, so that a forced choice looks to everyone else exactly like a free one.  ``need`` is the number
    of cards of a ``chooses N cards`` choice (with ``upto``, the most of ``chooses up to N cards``).
    """
    n = st.n
    chosen, opts, dflt = [None] * n, [None] * n, [None] * n
    if need is not None and need <= 0:
        V[var] = []
        return None
    chosen[who], opts[who], dflt[who] = UNANSWERED, (options or [None]), default
    p = Pending("choose", [who], opts, dflt, chosen, kind, var, None, line, prompt, public,
                None if need is None else [need if pl == who else None for pl in range(n)], ask)
    p.prefers = prefers                 # prog.prefer_fns: what an answer tells the others
    if upto:
        p.upto = True                   # `up to`: "none" (done) may end the picks
    if st.answer_forced(p, who):
        return None
    st.pending_ = p
    if st.auto is not None:
        return st.auto(st, p)
    return True


#: The one option of a choice with nothing to choose from: the player is still asked.
NONE_OPTION = Option(NONE, "nothing to choose", None, "none")
#: The option of a race that a player may sit out (``may choose``): not racing.
SIT_OUT = Option(NONE, "not me", None, "none")
