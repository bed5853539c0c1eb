"""The bot fast path: bots answer where a decision arises, inside the running game.

When every seat of a :class:`~catrules.play.match.Match` is a bot and nobody watches
(no log, no person), the match hands the state an :class:`Autoplay` as
:attr:`catrules.runtime.state.State.auto`.  A choice then asks it instead of pausing
the game: no pending decision is kept, no :class:`~catrules.runtime.state.Decision`
or option objects are built, and the game runs on in the same step loop.
The bots are asked the same things, in the same order, with the same random
draws as when the match plays step by step, so the game, its history and its
result are the same (``tests/test_autoplay.py`` compares whole histories).

A seat that has ``pick(state, player, values, kind)`` answers with the index
of its value (and a race time); any other bot is asked through its
``decide(view, decision)`` with a decision built for it.
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from ..errors import RulesError
from ..runtime.inference import note_choice
from ..runtime.option_ids import option_id
from ..runtime.randoms import PLAIN_RANDBELOW
from .reflexes import race_time_of
from .seats import Choice
from .views import LazyView


#: the kinds of value an option id may be of (see :mod:`catrules.runtime.option_ids`)
_KINDS = ("card", "player", "number", "value")


def _uniform_draw(seat):
    """``getrandbits`` of the seat's random source when its ``pick`` is ``randrange(n)`` drawn from
    it (``uniform_pick``, said by the class that writes ``pick``) and a plain :class:`random.Random` draws ``randrange`` so; else None."""
    if not PLAIN_RANDBELOW or "pick" in getattr(seat, "__dict__", {}):
        return None
    # the class that writes ``pick`` says it is uniform (not a subclass with a pick of its own)
    for owner in type(seat).__mro__:
        written = owner.__dict__
        if "pick" in written:
            if written.get("uniform_pick") is not True:
                return None
            break
    else:
        return None
    rng = getattr(getattr(seat, "table", None), "rng", None)
    return rng.getrandbits if type(rng) is random.Random else None


_CARD_ENTRIES: dict = {}


def _card_entries(prog, players: int) -> tuple:
    """Per seat, per card of ``prog``: the history entry ``[seat, option id]`` of that seat choosing
    that card, made once per count of cards and seats and shared by every history (clones share
    their entries already: nothing changes an entry once it is in a history)."""
    n = getattr(prog, "card_count", 0) if prog is not None else 0
    entries = _CARD_ENTRIES.get((n, players))
    if entries is None:
        ids = [option_id("card", c) for c in range(n)]
        entries = _CARD_ENTRIES[(n, players)] = tuple(tuple([who, i] for i in ids) for who in range(players))
    return entries


class SeatFailed(Exception):
    """A seat failed while answering inside the running game: the match raises ``error``."""

    def __init__(self, error: BaseException):
        super().__init__(str(error))
        self.error = error


class Autoplay:
    """Answers decisions for the bots of ``match`` where they arise."""

    def __init__(self, match, after_step: Optional[Callable] = None):
        self.match = match
        self.seats = match.seats
        self.pickers = [getattr(s, "pick", None) for s in match.seats]
        # the match's check after each step runs where the step-by-step game would pause again
        self.after = after_step
        # every seat picks and nothing looks in between: a pending decision's defaults (for a
        # person's timeout, a greedy bot's ties) would never be read, so they are not worked out.
        # A check that reads no more than the count of decisions says so (``looks = False``).
        looks = after_step is not None and getattr(after_step, "looks", True)
        # Nor would a frame's variables or block: the lean blocks run whole phases straight
        # (catrules.compile.straight).
        self.plain = not looks and None not in self.pickers
        # every seat only picks: the game runs the lean blocks (see State.run)
        self.lean = None not in self.pickers
        #: per seat, ``getrandbits`` of its random source when its pick is a uniform draw from it
        #: (``uniform_pick``: ``randrange(n)`` among two or more values, nothing for one), so that
        #: :meth:`choose` draws it in place; else None (the seat's ``pick`` is asked)
        self.draws = [_uniform_draw(s) for s in match.seats]
        #: per seat and card, its history entry (the card's option id: catrules.runtime.option_ids),
        #: made once
        self.card_entries = _card_entries(getattr(getattr(match, "state", None), "prog", None), len(self.seats))

    def choose(self, st, who: int, options: list, kind: str, V=None, prefers=None):
        """One player's choice among ``options`` (a ``chooses`` of one value), for a seat with a
        ``pick`` (``pickers[who]``): the value chosen, answered as the engine would take it.
        ``V`` and ``prefers``: for a choice ``preferring`` (see :mod:`catrules.runtime.inference`).
        A seat whose pick is a uniform draw (:attr:`draws`) is answered here with the same draw;
        a straight run writes that draw out for a card (:meth:`ChoiceStatements._drawn_here
        <catrules.compile.choices.ChoiceStatements._drawn_here>`), so what it does must stay this."""
        st.decisions += 1
        st.actor = who
        n = len(options)
        if n < 2:                   # forced: the engine's own answer (see State.answer_forced)
            v = options[0] if n else None
            if prefers is not None and st.known is not None:
                note_choice(st, V, prefers, who, v)
            return v
        if self.after is not None:
            self.after()
        draw = self.draws[who]
        if draw is not None:        # randrange(n) written out: the seat's own draws
            k = n.bit_length()
            i = draw(k)
            while i >= n:
                i = draw(k)
        else:
            try:
                i = self.pickers[who](st, who, options, "choose")[0]
            except RulesError:
                raise
            except Exception as exc:
                raise SeatFailed(exc) from None
        v = options[i]
        if prefers is not None and st.known is not None:
            note_choice(st, V, prefers, who, v)
        st.steps = st.steps_from
        # a card's entry from those made once (no call, no new list or text per decision)
        if kind == "card" and type(v) is int and 0 <= v < len(mine := self.card_entries[who]):
            st.history.append(mine[v])
        else:
            st.history.append([who, option_id(kind, v)])
        return v

    def answer_pending(self, st, p=None):
        """Answer the state's pending decision (any kind) as :meth:`Match.step` would: every seat
        still to answer is asked, in seat order, before any answer is taken.  None: go on.  The
        engine calls it where a decision arises (``p``, its own record of the decision, is not
        read: the state's public answering methods are)."""
        kind, pickers = st.decision_kind(), self.pickers
        try:
            while True:
                if self.after is not None:
                    self.after()
                answers = []
                for pl in st.choosers():
                    vals = st.values_for(pl)
                    pick = pickers[pl]
                    i, t = pick(st, pl, vals, kind) if pick is not None else self._decide(st, pl)
                    answers.append((pl, vals[i], t))
                for pl, v, t in answers:
                    if st.take(pl, v, t):
                        return None
        except (RulesError, SeatFailed):
            raise
        except Exception as exc:        # a seat's own failure, not the game's
            raise SeatFailed(exc) from None

    __call__ = answer_pending

    def replayer(self, answers: list) -> "Autoplay":
        """An Autoplay that gives ``answers`` (entries of a state's history: ``[player, option id]``
        or with a race time) again, in order, one per seat's pick, and checks nothing between
        steps: to replay on the instrumented blocks what the lean ones ran (see State.run).
        An answer that does not fit, or none left, fails as a seat does."""
        replay = object.__new__(Autoplay)
        replay.match, replay.seats, replay.after = self.match, self.seats, None
        replay.plain, replay.lean = False, False
        replay.draws, replay.card_entries = [None] * len(self.pickers), self.card_entries
        left = iter(answers)

        def pick(st, player, values, kind):
            entry = next(left)
            if entry[0] != player:
                raise ValueError("the replay went another way")
            for okind in _KINDS:        # the values of one choice are of one kind
                ids = [option_id(okind, v) for v in values]
                if entry[1] in ids:
                    return ids.index(entry[1]), (entry[2] if len(entry) > 2 else None)
            raise ValueError("the replay went another way")
        replay.pickers = [pick] * len(self.pickers)
        return replay

    def _decide(self, st, pl: int) -> tuple:
        """A seat's answer through its ``decide``, as (index among the options, race time)."""
        d = st.decision_for(pl)
        seat = self.seats[pl]
        ch = seat.decide(LazyView(st, pl), d)
        if not isinstance(ch, Choice):
            ch = Choice(str(ch))
        o = d.option(ch.option)
        return d.options.index(o), (race_time_of(st, seat, d, ch.reaction_time) if d.timed else None)
