"""The match loop, written once: answers in, decisions applied, events out.

A :class:`Referee` holds the answers to the pending decision that are in but not yet applied.
:meth:`Referee.answer` takes one seat's answer (checked; a race time as the seat gives it,
less its handicap); :meth:`Referee.advance` asks every seat that answers when asked (a bot,
or a person at a terminal, whose ``decide`` waits for them), applies a decision once all its
answers are in, and goes on until someone must still answer (a web page, whose answer comes
as a message) or the game is over.  Every answer is in before any is applied, so nobody's
choice leaks to another seat.  The events of the game go out as they happen to a
``listener``, with the part each viewer may see (:func:`~catrules.play.views.visible_event`).

:class:`~catrules.play.match.Match` drives it with seats that all answer when asked;
:class:`~catrules.web.tables.WebTable` pushes each page's answer into it.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..errors import RulesError
from ..limits import DECISION_LIMIT
from .reflexes import race_time_of
from .seats import Choice
from .views import LazyView, visible_event


class Referee:
    """Asks ``seats`` for ``state``'s decisions and applies them.

    ``viewers`` (players, ``None`` for a spectator) are given the part of each event they may
    see: ``listener(events, shown)`` is called with the new events and, per viewer, the list of
    ``(number, event as they see it)`` (events are numbered from 1 in the order they happen).
    ``keep_log``: whether the events stay in ``state.log`` once given out.
    """

    def __init__(self, state, seats: list, viewers=(), listener: Optional[Callable] = None,
                 keep_log: bool = True):
        self.state = state
        self.seats = seats
        self.viewers = list(viewers)
        self.listener = listener
        self.keep_log = keep_log
        #: Answers to the pending decision not applied yet: player -> [option id, race time or None].
        self.answers: dict = {}
        #: The people's pace in races (:class:`~catrules.play.pace.Pace`, set by the match), told
        #: each person's race time as measured once every answer of the race is in.
        self.pace = None
        self._measured: dict = {}
        #: Events given out so far.
        self.count = 0
        self._shown = 0
        #: Whether a person plays: a person could time another player's answer, so forced
        #: choices are asked as well.
        self.interactive = any(getattr(s, "interactive", False) for s in seats)
        if self.interactive:
            state.ask_forced = True

    # ------------------------------------------------------------ answers
    def decisions(self) -> list:
        """The pending decisions, one per player still to answer (empty once the game is over)."""
        st = self.state
        return [] if st.finished else st.pending()

    def answer(self, player: int, choice, decision=None) -> None:
        """Take ``player``'s answer (a :class:`Choice`, or an option id) to the pending decision,
        their part of which is ``decision`` if known; raises
        :class:`~catrules.errors.IllegalChoice` for an option they do not have."""
        if not isinstance(choice, Choice):
            choice = Choice(str(choice))
        d = decision if decision is not None else self.state.decision_for(player)
        d.option(choice.option)             # raises IllegalChoice for a bad answer
        t = choice.reaction_time
        if d.timed:
            if t is not None and getattr(self.seats[player], "interactive", False):
                self._measured[player] = (d, float(t))
            t = race_time_of(self.state, self.seats[player], d, t)
        self.answers[player] = [choice.option, t]

    def collect(self, decisions: list) -> bool:
        """Ask every seat of ``decisions`` that has not answered and answers when asked, in seat
        order; True once every answer is in."""
        st, answers, seats = self.state, self.answers, self.seats
        for d in decisions:
            seat = seats[d.player]
            if d.player not in answers and getattr(seat, "asked", True):
                self.answer(d.player, seat.decide(LazyView(st, d.player), d), d)
        return all(d.player in answers for d in decisions)

    def settle(self, decisions: list) -> None:
        """Apply every answer of ``decisions`` (all in), in seat order, and run on."""
        answers, self.answers = self.answers, {}
        measured, self._measured = self._measured, {}
        if self.pace is not None:
            for p in sorted(measured):
                if p in answers:
                    self.pace.note(*measured[p])
        for d in decisions:
            option, t = answers[d.player]
            self.state.apply(d.player, option, t)

    def advance(self) -> None:
        """Ask, apply and give out the events until someone must still answer or the game is over.
        Seats that answer when asked (bots) may take :data:`~catrules.limits.DECISION_LIMIT`
        decisions in a row at most: past it the game never ends, and a :class:`RulesError` says so."""
        self.flush()
        st = self.state
        start = st.decisions
        while True:
            ds = self.decisions()
            if not ds or not self.collect(ds):
                return
            self.settle(ds)
            self.flush()
            if st.decisions - start > DECISION_LIMIT:
                raise bots_over_budget()
            if st.no_way_out is not None and not self.interactive:
                raise RulesError("the bots entered a loop that has no way out: the game can never end, "
                                 "so it was stopped", st.no_way_out, st.prog.path,
                                 "add `stop` or `end game` where the game should end (`catrules check` warns of it)")

    # ------------------------------------------------------------- events
    def flush(self) -> None:
        """Give out the events that happened since the last time (nothing if nobody keeps a log)."""
        st = self.state
        log = st.log
        if log is None:
            return
        new = log[self._shown:]
        if not new:
            return
        if self.keep_log:
            self._shown = len(log)
        else:
            log.clear()
        first = self.count + 1
        self.count += len(new)
        shown = {}
        for v in self.viewers:
            seen = (visible_event(st, ev, v) for ev in new)
            shown[v] = [(n, ev) for n, ev in enumerate(seen, first) if ev is not None]
        if self.listener is not None:
            self.listener(new, shown)


def bots_over_budget() -> RulesError:
    """The error of bots that took more than :data:`~catrules.limits.DECISION_LIMIT` decisions in a
    row (no person answering between them) without the game ending."""
    return RulesError(f"the bots took more than {DECISION_LIMIT:,} decisions in a row without "
                      "the game ending: it was stopped (a game that never ends?)",
                      hint="see how the game ends (`catrules check` warns of a loop with no way out)")
