"""Run one game with a seat per player: the loop every command uses.

:class:`Match` owns the :class:`~catrules.runtime.state.State` and talks to the
seats (:mod:`catrules.play.seats`) only through views and decisions.  Its
:class:`~catrules.play.core.Referee` asks the seats, every seat of a simultaneous decision
before applying any of their choices, and shows each seat only what its player may see
(:mod:`catrules.play.views`).  The match is also the seats' table: race times
(:mod:`catrules.play.reflexes`), look-ahead (:mod:`catrules.play.lookahead`) and imagined
games for bots.  It can save the game at any pause so that it resumes exactly
(:meth:`save` / :meth:`Match.resume`, :mod:`catrules.play.saves`).
"""

from __future__ import annotations

import random
import weakref
from pathlib import Path
from typing import Callable, Optional

from . import saves
from .autoplay import Autoplay, SeatFailed
from .core import Referee
from .lookahead import LOOKAHEAD_FOLLOW, follow, outcomes
from .pace import DEFAULT_LEVEL, Pace, words
from .reflexes import REFLEX_OPTIONS, reaction_time
from .views import LazyView, visible_event  # noqa: F401  (visible_event: imported from here by the command line)
from ..errors import RulesError
from ..runtime.state import State


def _shower(match: "Match") -> Callable:
    """``match._show``, reached through a weak reference (see :meth:`Match.__init__`)."""
    ref = weakref.ref(match)

    def show(new: list, shown: dict) -> None:
        m = ref()
        if m is not None:               # a referee kept after its match: nobody left to show
            m._show(new, shown)
    return show


class Match:
    """A game between seats.  ``run()`` plays it to the end or to an interruption."""

    def __init__(self, game, state: State, seats: list, *, seed: Optional[int] = None,
                 on_event: Optional[Callable] = None, race_level: str = DEFAULT_LEVEL, pace=None):
        self.game = game
        self.state = state
        self.seats = seats
        self.seed = state.seed if seed is None else seed
        self.rng = random.Random(self.state.seed * 31 + 7)
        self.on_event = on_event          # called with each full event (for a log file)
        needs_log = on_event is not None or any(getattr(s, "wants_events", True) for s in seats)
        if state.log is None and needs_log:
            if state.decisions == 0:
                raise ValueError("start the game with log=True (game.new_state(..., log=True)) so that "
                                 "the seats and logs see what happens before the first decision")
            state.log = []          # a resumed game: what came before was shown already
        #: How many imagined games of a look-ahead stopped with a rules error (left out).
        self.lookahead_errors = 0
        #: Asks the seats and shows them the events (a web table files the events itself).
        self.core = Referee(state, seats, [i for i, s in enumerate(seats) if getattr(s, "wants_events", True)],
                            _shower(self))
        #: The people's pace in races and the bots' level (:mod:`catrules.play.pace`): with a
        #: person at the table, bots race at the people's pace; without, the seeded reflexes.
        self.pace = self.core.pace = Pace(race_level, pace) if self.core.interactive else None
        # A seat that reads its table only while the game runs (``weak_table``: a random bot) is
        # handed a weak reference to the match, as the referee is: then a match of such seats
        # makes no reference cycle and a finished game is freed as soon as nobody holds it, not
        # at the next garbage collection (a simulation of random bots makes no cyclic garbage).
        weak = None
        for i, s in enumerate(seats):
            if getattr(s, "weak_table", False):
                weak = weakref.proxy(self) if weak is None else weak
                s.start(weak, i)
            else:
                s.start(self, i)

    #: a state made by :meth:`new` and not run yet: :meth:`run` starts it with the bots answering
    unstarted = False

    @classmethod
    def new(cls, game, players: int, seats: list, *, seed: int, options=(), log: bool = False) -> "Match":
        """A match of a new game (:meth:`catrules.api.Game.new_state`'s arguments).  When the match
        will take the fast path (every seat a bot answering inline that wants no events, no log),
        the game does not run to its first decision here but in :meth:`run`, its bots answering
        from the start: the same game, with no decision paused for and no one to apply."""
        fast = not log and all(getattr(s, "inline", False) and not getattr(s, "wants_events", True)
                               and not getattr(s, "interactive", False) for s in seats)
        state = State.new(game.program, players, options, seed, log, start=not fast)
        m = cls(game, state, seats)
        m.unstarted = fast
        return m

    def _start(self) -> None:
        """Run a game made by :meth:`new` to its first decision (with :attr:`State.auto` set by
        :meth:`run`, to its end)."""
        if self.unstarted:
            self.unstarted = False
            self.state.run()

    # ----------------------------------------------------------- the table
    @property
    def decisions(self) -> int:
        """How many decisions the game has taken so far (what every player knows: a bot's own
        random source may be seeded from it, see :meth:`catrules.bots.basic.GreedyBot.tie_source`)."""
        return self.state.decisions

    def reaction_time(self, reflex="normal", options: int = REFLEX_OPTIONS) -> float:
        """See :meth:`catrules.play.seats.Table.reaction_time`: with a person at the table, at
        the people's pace (:class:`~catrules.play.pace.Pace`), else the seeded reflexes."""
        if self.pace is None:
            return reaction_time(self.state, reflex, options)
        races = [d for d in self.state.pending() if d.timed]
        mine = next((d for d in races if len(d.options) == options), None)
        n_words = words(o.label for o in mine.options) if mine is not None else None
        bots = sum(not getattr(self.seats[d.player], "interactive", False) for d in races)
        return self.pace.draw(self.state.trng, options, n_words, bots, reflex)

    def lookahead(self, player: int, option: str, samples: int = 1) -> list:
        """See :meth:`catrules.play.seats.Table.lookahead`.  Each item is an
        :class:`~catrules.play.lookahead.Outcome`.

        An imagined game belongs to the bot, not to the game file: should the rules stop with
        an error in one (a sampled state the rules could never reach), that sample is left out,
        so the list may be shorter than ``samples`` (empty if every sample failed).
        """
        out = []
        for _ in range(max(1, samples)):
            st = self.state.sample_for(player, self.rng)
            try:
                st.apply(player, option, 0.0 if self._is_race() else None)
                out.append(follow(st, player, LOOKAHEAD_FOLLOW))
            except RulesError:
                self.lookahead_errors += 1
        return out

    def lookahead_options(self, player: int, options: list, samples: int = 1) -> list:
        """See :meth:`catrules.play.seats.Table.lookahead_options`: per option, its
        :class:`~catrules.play.lookahead.Outcome` in each of ``samples`` states, the same states
        for every option.

        Each sample is drawn once and copied for each option (a copy costs a few microseconds,
        a sample a hundred), so the options are compared on the same imagined deals and the
        same imagined future, as in :meth:`lookahead` otherwise."""
        out, errors = outcomes(self.state, player, options, samples, self.rng, 0.0 if self._is_race() else None)
        self.lookahead_errors += errors
        return out

    def sample(self, player: int, rng: Optional[random.Random] = None) -> State:
        """See :meth:`catrules.play.seats.Table.sample`: an imagined game for ``player``'s
        search, consistent with what they have seen (:meth:`State.sample_for`), drawn with
        ``rng`` (the match's bot source if None); nobody watches it."""
        st = self.state.sample_for(player, self.rng if rng is None else rng)
        st.ask_forced = False
        return st

    def _is_race(self) -> bool:
        return self.state.decision_kind() == "race"

    # ------------------------------------------------------------- running
    def flush_events(self) -> None:
        """Show the seats (and :attr:`on_event`) what happened since the last time."""
        self.core.flush()

    def _show(self, new: list, shown: dict) -> None:
        if self.on_event:
            for ev in new:
                self.on_event(ev)
        for i, mine in shown.items():
            if mine:
                self.seats[i].show(self.state.view(i), [ev for _n, ev in mine])

    def step(self) -> bool:
        """Ask the seats for the pending decision(s) and apply them; False when the game is over
        (or a seat is still to answer that is never asked, see :class:`~catrules.play.core.Referee`)."""
        self._start()
        core, st = self.core, self.state
        core.flush()
        decisions = core.decisions()
        if not decisions:
            return False
        # A person may interrupt (Ctrl-C) after bots of the same simultaneous decision have
        # already drawn from the random sources: put them back, so a save resumes exactly.
        snap = (st.trng.getstate(), self.rng.getstate()) if core.interactive else None
        before = dict(core.answers)
        try:
            if not core.collect(decisions):
                return False
        except BaseException:
            core.answers = before
            if snap is not None:
                st.trng.setstate(snap[0])
                self.rng.setstate(snap[1])
            raise
        core.settle(decisions)
        return True

    def run(self, after_step: Optional[Callable] = None) -> State:
        """Play to the end (or until a seat raises, e.g. a person's Ctrl-C).

        The fast path: when every seat is a bot that can answer where a decision arises
        (``inline``) and nobody watches (no log), the bots answer inside the running game
        (:mod:`catrules.play.autoplay`), without pausing it and building decision and option objects.
        They are asked the same things in the same order, so the game is the same as step by step.
        ``after_step`` is called before the first step and after each (a check that may stop the game).  While every
        seat only picks, what each player knows of card places is not kept (a sample or a save
        meanwhile gets what each player sees then: :meth:`State.known_now`).
        """
        st = self.state
        #: The decision budget of a game of bots alone, when ``after_step`` enforces one (its
        #: ``limit``): a searching bot stops a game that cannot end within it (catrules.bots.runaway).
        self.decision_limit = getattr(after_step, "limit", None)
        fast = (st.log is None and self.on_event is None and not self.core.interactive
                and all(getattr(s, "inline", False) for s in self.seats))
        blind = False
        if fast:
            st.auto = Autoplay(self, after_step)
            # seats that pick among the values given never sample the game, so nobody reads what
            # each player knows of where cards are: it is not kept up to date in this run
            blind = None not in st.auto.pickers and st.known is not None
            if blind:
                st.known = None
        try:
            if after_step is not None:
                after_step()            # the game as it starts (or resumes) may already be stopped
            self._start()
            while self.step():
                if after_step is not None:
                    after_step()
        except SeatFailed as exc:
            raise exc.error from None
        finally:
            st.auto = None
            if blind:
                # afterwards each player knows where the cards are that they see now, no more
                # (less than they could: a sample of this state hides more, never less)
                st.known = st.known_now()
        self.flush_events()
        if self.state.finished:
            # worked out only for a seat that looks (a bot does not): the table with its
            # scores, built for every player, was a tenth of a simulation of bots
            for i, seat in enumerate(self.seats):
                seat.finish(LazyView(self.state, i))
        return self.state

    # ---------------------------------------------------------- save/resume
    def save(self, path: str | Path, extra: Optional[dict] = None) -> None:
        """Write a save file from which :meth:`resume` continues this game exactly."""
        self._start()
        extra = dict(extra or {})
        if self.pace is not None:
            extra.update(race_level=self.pace.level, pace=self.pace.record())
        saves.save(path, self.game, self.state, self.rng, extra)

    #: See :func:`catrules.play.saves.read_save`.
    read_save = staticmethod(saves.read_save)
    #: See :func:`catrules.play.saves.check_save_game`.
    check_save_game = staticmethod(saves.check_save_game)

    @classmethod
    def resume(cls, game, data: dict, seats: list, on_event=None, state: Optional[State] = None,
               race_level: Optional[str] = None) -> "Match":
        """Continue a saved game (``state``: the saved state, if already restored); its race
        level is ``race_level``, else the save's."""
        if state is None:
            saves.check_save_game(game, data)
            state = game.restore(data["state"])
        if state.log is None:
            state.log = []          # what came before the save was shown already
        level = race_level or data.get("race_level") or DEFAULT_LEVEL
        pace = data.get("pace")
        pace = pace if isinstance(pace, list) and all(isinstance(x, (int, float)) for x in pace) else None
        m = cls(game, state, seats, on_event=on_event, race_level=level, pace=pace)
        m.rng = saves.bot_rng(data)
        return m
