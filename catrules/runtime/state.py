"""The interpreter: a game's state, the step loop, scores.

A :class:`State` is plain data (zones as lists of card ids, counters, the
call frames of the running program, the pending decision, the random
sources), so it can be cloned, saved as JSON and resumed exactly where it
paused.  The program itself (:class:`catrules.compile.program.Program`) is built
once per game file; each unit is a list of compiled *blocks*
(:mod:`catrules.compile.units`) that this module's step loop runs until a
player must decide.  Decisions, views and what the blocks call are in the
package :mod:`catrules.runtime`; scores and winners in :mod:`catrules.runtime.scoring`.

Nothing here knows any game: zones, cards and rules all come from the game
file.
"""

from __future__ import annotations

import random
from typing import Iterable, Optional

from ..errors import IllegalChoice, RulesError, SaveError
from ..limits import FRAME_LIMIT, IMAGINED_STEP_LIMIT, STATE_FORMAT, STEP_LIMIT
from .decisions import UNANSWERED, Decision, Option, Pending, reveal_event  # noqa: F401  (Option: imported from here by users)
from .frames import Frame, cards_in  # noqa: F401  (cards_in: imported from here by users)
from .inference import note_choice
from .lean_replay import replayed
from .menu_labels import fill_labels
from .upto import progress, values_left, with_done
from .errors import (_RUNTIME_ERRORS, _STOPS, _quote, _reraise, describe_error, error_line, located,
                     rules_error)
from .randoms import CopyOnWrite
from .saved_state import check_saved
from . import scoring, state_fields



class State:
    """One game in progress.  Use :meth:`pending` and :meth:`apply` to play it.

    ``ask_forced``: whether a player is asked a single choice that has only one legal option
    (or none).  Off (the default, for simulations and tests), the engine answers it itself; on
    (a :class:`~catrules.play.match.Match` turns it on when a person plays), the player is asked, so
    that nobody can tell a forced choice from a free one by the time it takes.  Either way the
    answer is logged as the same ``decision`` event, and secret choices and races always ask.

    ``auto``: who answers decisions where they arise (the bot fast path, see
    :mod:`catrules.play.autoplay`): ``auto(state, pending)`` is called with the decision
    pending as if the game had paused, answers it and returns None to run on, or returns True
    to pause after all.  None (the default): every decision pauses the game.

    ``memo``: while the table cannot change (scoring it, see :mod:`catrules.runtime.scoring`), a dictionary
    where definitions keep what they worked out (see :meth:`catrules.compile.codegen.CodeGen.define`);
    None otherwise.
    """

    #: the fields, each listed once with how it is copied and saved: :data:`state_fields.FIELDS`
    __slots__ = state_fields.slot_names()

    #: the game's random source (shuffles, draws) and the one of bots' race times; a clone
    #: shares them with its original until either draws (:mod:`catrules.runtime.randoms`)
    rng = CopyOnWrite("_rng", "_rng_frozen")
    trng = CopyOnWrite("_trng", "_trng_frozen", lambda st: random.Random(st.seed * 7919 + 17))

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, prog, players: int, options: Iterable[str] = (), seed: Optional[int] = None,
            log: bool = False, ask_forced: bool = False, stats: Optional[dict] = None, start=True) -> "State":
        """A new game run to its first decision (``start`` False: not run; the caller runs it first, see Match.new)."""
        prog.check_start(players, options)
        st = cls()
        state_fields.start(st)              # the fields every game starts the same way
        st.ask_forced = bool(ask_forced)
        st.stats = stats                    # what a lint counts (catrules.lab.lint), from the setup on
        st.origin = (players, tuple(options), seed, bool(ask_forced)) if seed is not None and stats is None else None
        st.prog = prog
        st.n = players
        st.options = prog.normal_options(options)
        st.seed = seed if seed is not None else random.randrange(2 ** 31)
        st.rng = random.Random(st.seed)
        st.trng = None                      # made when first drawn from (see the descriptor)
        st.layout = prog.layout(players)
        state_fields.start_cards(st, prog)  # st.z and st.loc: where the game file says cards start
        # per card, the players who know which slot it is in (a bitmask); the game file
        # says where every card starts, so everyone knows at first
        st.known = [(1 << players) - 1] * prog.card_count
        st.saw = [0] * prog.card_count      # per card, who saw its last move: nobody yet
        st.log = [] if log else None
        for name, per, init in prog.counters:
            try:
                if per == "player":
                    st.c[name] = [init(st, {"player": p}) for p in range(players)]
                elif per == "card":
                    st.c[name] = [init(st, {}) for _ in range(prog.card_count)]
                else:
                    st.c[name] = init(st, {})
            except _STOPS as exc:
                _reraise(exc, prog, init, f"the start value of counter `{name}`")
        if prog.tie_race:
            st.frames.append(Frame("tiebreak", 0, {}))
        st.frames.append(Frame("flow", 0, {}))
        if prog.has_setup:
            st.frames.append(Frame("setup", 0, {}))
        if start:
            st.run()
        return st

    #: a copy to play on: each field copied as :data:`state_fields.FIELDS` says, written out once
    #: as Python source (a searching bot clones thousands of states a second)
    clone = state_fields.clone_function(globals())
    #: a copy for an imagined game: as :meth:`clone`, without the answers and events so far
    #: (they grow with the game; nobody reads them in an imagined game)
    _imagine = state_fields.clone_function(globals(), fresh=state_fields.IMAGINED_FRESH)
    #: a copy of an imagined game to play an option on (the look-ahead's): as :meth:`clone`, but
    #: its frames shared with the original until either runs them (copy on write, see
    #: :func:`state_fields.share_frames`): most play-ons run in the top frame alone
    _fork = state_fields.clone_function(globals(), fresh=state_fields.FORK_FRESH)

    # ------------------------------------------------------------ running
    def run(self) -> None:
        """Run until a decision is needed or the game is over.

        Under the bot fast path (:attr:`auto` with ``lean`` set: every seat only picks, no log),
        the blocks run are those of the lean compilation (:meth:`Program.lean_codes`).  An error
        there is replayed: a copy of the state as the run began runs the instrumented blocks with
        the same answers (``auto.replayer``), and its error, message and game-file line, is the
        one raised.  The copy is a new game from :attr:`origin` when the history holds every
        answer since, else a clone taken as the run begins; an imagined game (``steps_from`` set
        by :meth:`sample_for`), whose errors a bot only counts and never shows, takes none."""
        auto = self.auto
        if auto is None or not auto.lean or self.log is not None:
            self._run(self.prog.codes)
            return
        answered = len(self.history)
        # an imagined game's error is never shown (the bot leaves that game out): no copy to replay
        start = self.clone() if self.origin is None and not self.steps_from else None
        try:
            self._run(self.prog.lean_codes())
        except RulesError as exc:
            raise (replayed(self, auto, start, answered) or exc) from None

    def _run(self, codes: dict) -> None:
        """Run the blocks ``codes`` until a decision is needed or the game is over."""
        frames = self.frames
        try:
            # A block returns True when the loop must look again: it pushed or dropped a
            # frame, or paused the game for a decision; else it has set the next block.
            while frames and self.pending_ is None:
                if len(frames) > FRAME_LIMIT:
                    self._too_deep()
                fr = frames[-1]
                if fr.shared:               # a frame shared with a fork: copied before it changes
                    fr = frames[-1] = fr.copy()
                code = codes[fr.key]
                end = len(code)
                while True:
                    pc = fr.pc
                    if pc >= end:
                        frames.pop()
                        break
                    fr.pc = pc + 1
                    if code[pc](self, fr):
                        break
        except RulesError as exc:
            if exc.line and exc.path:
                raise
            if exc.line:
                raise RulesError(exc.message, exc.line, self.prog.path, exc.hint) from None
            raise located(exc, self.prog, self._error_line(exc)) from None
        except _RUNTIME_ERRORS as exc:
            raise rules_error(exc, self.prog, self._error_line(exc)) from None
        if not frames and not self.over:
            self.over = True
            if self.log is not None:
                self.log.append({"t": "end"})

    def _error_line(self, exc: BaseException) -> int:
        """The game-file line where ``exc`` arose: from the line table of the generated code it
        passed through, else the line of the block the running frame is in."""
        line = error_line(exc, self.prog.line_tables)
        if not line and self.frames:
            fr = self.frames[-1]
            line = self.prog.line_of(fr.key, fr.pc - 1)
        return line

    def _check_options(self, p: Pending, exc: BaseException) -> RulesError:
        """The error for a decision whose options cannot be shown (``exc``): a choice among cards
        (or players) that offers something else, named at its line."""
        kind = p.okind
        top = self.prog.card_count if kind == "card" else self.n
        for pl in p.players:
            if kind not in ("card", "player"):
                break
            for v in p.options[pl] or ():
                if type(v) is not int or not 0 <= v < top:
                    what = "none" if v is None else (f"the number {v}" if type(v) is int else "a value")
                    line = p.line or 0
                    return RulesError(f"a choice among {kind}s offers {what}, which is not a {kind}" +
                                      _quote(self.prog, line, 0), line, self.prog.path,
                                      f"offer only {kind}s here (leave none out with `where it != none`)")
        return rules_error(exc, self.prog, p.line or 0, "the options of this choice")

    def _too_deep(self) -> None:
        fr = self.frames[-2]                 # the block that started the one too many
        chain = []
        for f in self.frames[-8:]:
            if f.key.startswith(("action:", "phase:", "trigger:")) and f.key not in chain:
                chain.append(f.key)
        what = " and ".join("`" + k.replace(":", " ", 1) + "`" for k in chain[:3])
        what = (f" ({what} " + ("keeps starting itself)" if len(chain) == 1 else "keep starting each other)")
                if chain else "")
        raise RulesError(f"blocks ran inside each other more than {FRAME_LIMIT} deep{what}; the game was "
                         "stopped", self.prog.line_of(fr.key, fr.pc - 1), self.prog.path,
                         "an action that does itself needs a condition that stops it")

    @property
    def finished(self) -> bool:
        return self.over

    # ----------------------------------------------------------- decisions
    def pending(self) -> list:
        """The decisions waiting now, one per player who must act (empty when finished)."""
        p = self.pending_
        if p is None:
            return []
        out = []
        for pl in p.players:
            if p.chosen[pl] is UNANSWERED:
                try:
                    out.append(self._decision(p, pl))
                except _RUNTIME_ERRORS as exc:
                    raise self._check_options(p, exc) from None
        return out

    @staticmethod
    def _values(p: Pending, pl: int) -> list:
        """The values ``pl`` may choose now: for a choice of several cards, those not picked yet
        (``none`` once none is left, so that every pick is asked, whatever the hand holds)."""
        vals = p.options[pl]
        picks = p.picks
        if p.upto:                          # `up to N cards`: the cards left, and done
            return values_left(vals, picks[pl])
        if picks is not None and picks[pl]:
            got = picks[pl]
            vals = [v for v in vals if v not in got] or [None]
        return vals

    def _decision(self, p: Pending, pl: int) -> Decision:
        prog = self.prog
        kind = p.okind
        vals = self._values(p, pl)
        opts = prog.options_for(kind, vals, self)
        if prog.menu_labels and kind == "value":
            fill_labels(self, p, pl, opts)      # a menu's names with values, as pl sees them
        if p.upto:
            opts = with_done(opts)
        default = p.default[pl]
        did = prog.option_id(kind, default) if default is not None and default in vals else None
        if did is None and len(opts) == 1:
            did = opts[0].id                # a forced choice: Enter takes the only option
        prompt = p.prompt
        if p.ask is not None:               # said with values
            prompt = self._asked(p, pl)
            if self.ask_forced or self.log is not None:
                prompt = prompt()           # a person may read it later: worked out now
        elif p.upto:
            prompt = f"{prompt} {progress(p.picks[pl], p.need[pl])}"
        elif p.need is not None:
            prompt = f"{prompt} ({len(p.picks[pl]) + 1} of {p.need[pl]})"
        return Decision(pl, p.kind, prompt, opts, did, p.line, p.kind == "race")

    def _asked(self, p: Pending, pl: int):
        """The prompt of ``p`` for ``pl``, said with values (``asking "..."``), as a function: the
        game file's text, with its values as they are now and as ``pl`` may see them."""
        fn_index, var = p.ask
        V = self.frames[-1].vars if self.frames else {}
        need = (len(p.picks[pl]) + 1, p.need[pl]) if p.need is not None else None
        got = list(p.picks[pl]) if p.upto else None      # `up to`: the picks as they are now

        def prompt() -> str:
            from .said import seen_text
            W = V if var is None else {**V, var: pl, "player": pl}
            try:
                text = seen_text(self, self.prog.prompt_fns[fn_index](self, W), pl)
            except _RUNTIME_ERRORS:
                text = p.prompt             # what the choice is about, without its values
            if need is not None and p.upto:
                return f"{text} {progress(got, need[1])}"
            return text if need is None else f"{text} ({need[0]} of {need[1]})"
        return prompt

    def waiting_for(self) -> list:
        """Who has still to answer, as everyone at the table sees it: a forced answer to a secret
        choice that the engine gave itself (``ask_forced`` off) counts as not given yet."""
        p = self.pending_
        if p is None:
            return []
        auto = p.auto or ()
        return [pl for pl in p.players if p.chosen[pl] is UNANSWERED or pl in auto]

    def apply(self, player: int, option_id: str, reaction_time: Optional[float] = None) -> None:
        """Make ``player``'s choice in a pending decision, then run on."""
        p = self.pending_
        if p is None:
            raise IllegalChoice("no decision is pending" + (": the game is over" if self.over else ""))
        if player not in p.players or p.chosen[player] is not UNANSWERED:
            raise IllegalChoice(f"player {player + 1} has nothing to decide now")
        kind = p.okind
        vals = self._values(p, player)
        try:
            value = self.prog.option_value(kind, vals, option_id)
        except LookupError:
            legal = ", ".join(self.prog.option_id(kind, v) for v in vals)
            raise IllegalChoice(f"{option_id!r} is not a legal option for player {player + 1}; legal: {legal}")
        if p.kind == "race" and reaction_time is None:
            raise IllegalChoice("a race needs a reaction time (seconds)")
        if self._take(p, player, value, option_id, reaction_time):
            self.pending_ = None
            self.run()

    # one answer at a time, for who asks the seats (catrules.play): the pending structure stays private
    def decision_kind(self) -> Optional[str]:
        """The kind of the pending decision (``"choose"``, ``"secret"``, ``"race"``); None if none."""
        return None if self.pending_ is None else self.pending_.kind

    def choosers(self) -> list:
        """The players still to answer the pending decision, in seat order."""
        p = self.pending_
        return [] if p is None else [pl for pl in p.players if p.chosen[pl] is UNANSWERED]

    def values_for(self, player: int) -> list:
        """The values ``player`` may choose now in the pending decision."""
        return self._values(self.pending_, player)

    def option_ids_for(self, player: int) -> list:
        """The ids of the options ``player`` may choose now (as :meth:`apply` takes them)."""
        p = self.pending_
        option_id, okind = self.prog.option_id, p.okind
        return [option_id(okind, v) for v in self._values(p, player)]

    def decision_for(self, player: int) -> Decision:
        """``player``'s part of the pending decision, as :meth:`pending` gives it."""
        return self._decision(self.pending_, player)

    def take(self, player: int, value, reaction_time: Optional[float] = None) -> bool:
        """Record ``player``'s answer ``value`` (one of :meth:`values_for`) unchecked, without running on
        (the bot fast path answers inside the running game); True once the decision is resolved."""
        p = self.pending_
        if self._take(p, player, value, self.prog.option_id(p.okind, value), reaction_time):
            self.pending_ = None
            return True
        return False

    def _take(self, p: Pending, player: int, value, option_id: str, reaction_time=None, record: bool = True) -> bool:
        """Record one answer of a pending decision; True once every answer is in and the
        decision is resolved into the running frame.  ``record`` is false for a forced answer the
        engine gives itself (see :attr:`ask_forced`): it is logged like any other answer but
        kept out of :attr:`history`, since a replay makes it again."""
        kind = p.kind
        if kind == "race":
            p.times[player] = float(reaction_time)
        self.decisions += 1
        if record:
            self.steps = self.steps_from    # a forced answer the engine gives itself does not reset the loop guard
            self.history.append([player, option_id] if reaction_time is None
                                else [player, option_id, float(reaction_time)])
        elif kind == "secret":
            # an answer the engine gave: the others still see this player as choosing
            p.add_auto(player)
        self.actor = player
        if self.log is not None:
            ev = {"t": "decision", "player": player, "kind": kind, "option": option_id, "line": p.line}
            if reaction_time is not None:
                ev["time"] = float(reaction_time)
            if p.public:
                ev["public"] = True
            if kind == "secret":
                # shown at the reveal, in seat order: the order of answers says nothing
                p.add_answer(ev)
            else:
                self.log.append(ev)
        if p.prefers is not None and self.known is not None:
            note_choice(self, self.frames[-1].vars, p.prefers, player, value)
        picks = p.picks
        if picks is not None:
            if not (value is None and p.upto and kind != "secret"):    # `up to`: none is done
                picks[player].append(value)
                if len(picks[player]) < p.need[player]:
                    return False                # more cards to pick: the same player is asked again
            value = [v for v in picks[player] if v is not None]
        chosen = p.chosen
        chosen[player] = value
        for pl in p.players:
            if chosen[pl] is UNANSWERED:
                return False
        self._resolve(p)
        return True

    def answer_forced(self, p: Pending, player: int) -> bool:
        """Give ``player``'s forced answers (one legal option, or none) when :attr:`ask_forced`
        is off; True if the decision is then resolved.  Races are always asked: their time counts."""
        if self.ask_forced or p.kind == "race":
            return False
        while p.chosen[player] is UNANSWERED:
            vals = self._values(p, player)
            if len(vals) != 1:
                return False
            if self._take(p, player, vals[0], self.prog.option_id(p.okind, vals[0]), None, record=False):
                return True
        return False

    def _resolve(self, p: Pending) -> None:
        fr = self.frames[-1]
        if fr.shared:                       # shared with a fork (see _fork): copied first
            fr = self.frames[-1] = fr.copy()
        if p.kind == "choose":
            fr.vars[p.var] = p.chosen[p.players[0]]
            return
        order = list(p.players)
        racing = order
        chosen = p.chosen
        if p.kind == "race":
            times = p.times
            order.sort(key=lambda pl: (times[pl], pl))
            if p.optional:                  # `may choose`: who sat out is not in the race
                racing = [pl for pl in order if chosen[pl] is not None]
        fr.vars[p.slot] = [[pl, chosen[pl], i + 1] for i, pl in enumerate(racing)]
        if self.log is not None and order:      # nobody took part: nothing to show
            answers, p.answers = p.answers or [], None
            self.log.extend(sorted(answers, key=lambda ev: ev["player"]))
            self.log.append(reveal_event(self, p, order))

    def reaction_time(self, median: float = 0.6, spread: float = 0.28, least: float = 0.1) -> float:
        """A bot's reaction time in seconds, drawn from the game's seeded source for races.

        Log-normal, as people's times are skewed to the slow side: half the draws are below
        ``median``; ``spread`` is the standard deviation of the time's logarithm; never below
        ``least`` (faster than that a person is guessing, not reacting).  The values bots use
        and where they come from: :mod:`catrules.play.match` (``REFLEXES``)."""
        return round(max(least, median * self.trng.lognormvariate(0.0, spread)), 4)

    def known_now(self) -> list:
        """Per card, the players who know which slot it is in (``known``).  While bots that only
        pick play (``known`` is None, see :meth:`catrules.play.match.Match.run`), what each player
        sees now: less than they could know, so a sample hides more, never less."""
        if self.known is not None:
            return self.known
        seers = self.layout.seers
        return [seers[s] for s in self.loc]

    # ------------------------------------------------------------- results
    def score_now(self) -> list:
        """The score block evaluated on the table as it is now, for every player."""
        return scoring.score_now(self)

    def scores(self, final: Optional[bool] = None) -> list:
        """Each player's score: a dict of the named components plus ``total``; see
        :func:`catrules.runtime.scoring.scores` (games that ``tally``)."""
        return scoring.scores(self, final)

    def tally(self, title: Optional[str] = None) -> list:
        """Score now (the ``tally`` statement): see :func:`catrules.runtime.scoring.tally`."""
        return scoring.tally(self, title)

    def tallied(self, pl, item: str = "total"):
        """Player ``pl``'s running total (or one score item's) over the tallies so far; 0 before the first."""
        return scoring.tallied(self, pl, item)

    def rank_keys(self, scores: list) -> list:
        """Each player's ranking key by the `winner:` block (higher is better)."""
        return scoring.rank_keys(self, scores)

    def winners(self, scores: Optional[list] = None) -> list:
        """The players who win (more than one when tied players share, unless they raced)."""
        return scoring.winners(self, scores)

    def view(self, player: Optional[int]) -> dict:
        """What ``player`` may see (``None``: a spectator who sees only public things)."""
        return self.prog.view(self, player)

    def sample_for(self, player: int, rng: random.Random, keep_future: bool = False) -> "State":
        """A copy consistent with everything ``player`` has seen, the unknown dealt at random.

        * A card ``player`` can see, or whose slot they know (``known``: they saw it go there, or
          it has not moved since the game file put it there), stays in that slot; the order of a
          slot ``player`` cannot see is shuffled (they do not know it).
        * Every other card trades places at random with the other unknown cards that may be in
          the same zones (``Program.zone_types``: where the rules can ever put a card of its type),
          so a token never lands in a hand that only ever holds cards.  Such a trade *renames*
          the cards: whatever referred to the card at a place (a counter of cards, a frame
          variable of a known card kind, a pending decision's options) refers to the new card
          at that place, as the player cannot tell them apart.  A card referred to by a value
          whose kind is unknown (a frame variable that holds cards or numbers) is not moved.
        * No card is dealt where a choice showed ``player`` it is not (a player who did not
          follow a colour has none of it: :mod:`catrules.runtime.inference`).
        * The unknown cards are dealt in order of their number, not of where they lie: the copy
          depends on ``rng`` and on what ``player`` may see, nothing else (a bot that searches
          copies chooses the same whatever the cards it cannot see).
        * Unless ``keep_future``, later shuffles and draws use a fresh random source drawn from
          ``rng``, and other players' answers to a simultaneous decision that are already in are
          forgotten.  With ``keep_future`` both are kept (as in the real game): for testing that
          what ``player`` sees does not depend on what they cannot see.
        * The copy starts with no :attr:`history` and no log: they grow with the game, and a
          look-ahead must cost the same late in a long game as early.
        """
        return self._sample(player, rng, keep_future, None)[0]

    def samples_for(self, player: int, rng: random.Random, count: int) -> list:
        """The copies ``count`` calls of :meth:`sample_for` draw (the same draws, the same copies),
        which cards to deal and where worked out once."""
        out, plan = [], None
        for _ in range(count):
            st, plan = self._sample(player, rng, False, plan)
            out.append(st)
        return out

    def _sample(self, player: int, rng: random.Random, keep_future: bool, plan) -> tuple:
        """(:meth:`sample_for`'s copy, its deal's plan: :func:`catrules.runtime.sampling.redeal`)."""
        from .sampling import redeal, sort_others_options
        st = self._imagine()
        # an imagined game's loops stop sooner: a bot's look-ahead into a loop that never ends is
        # left out after IMAGINED_STEP_LIMIT rounds, not STEP_LIMIT
        st.steps = st.steps_from = STEP_LIMIT - IMAGINED_STEP_LIMIT
        st.known = st.known_now()
        plan = redeal(st, player, rng, plan)
        if not keep_future:
            sort_others_options(st, player)
            # the future is unknown too: later shuffles and draws use a fresh random source
            State.rng.seed_later(st, rng.getrandbits(64))     # made if it draws
            State.trng.seed_later(st, rng.getrandbits(64))
            p = st.pending_
            if p is not None and p.kind != "choose":
                for pl in p.players:
                    if pl != player:
                        p.chosen[pl] = UNANSWERED
                        if p.picks is not None:
                            p.picks[pl] = []
                if p.answers:
                    p.answers = [ev for ev in p.answers if ev["player"] == player]
                mine = [pl for pl in p.auto or () if pl == player]
                if mine:                    # the player's own forced answer: shown as still choosing
                    p.auto = mine
                else:
                    p.auto = None
        return st, plan

    # -------------------------------------------------------- serialisation
    def to_dict(self) -> dict:
        """The state as plain data (JSON), its fields in the order of :data:`state_fields.FIELDS`."""
        return state_fields.save(self, STATE_FORMAT)

    @classmethod
    def from_dict(cls, prog, d: dict) -> "State":
        """A state from :meth:`to_dict`; raises :class:`SaveError` for data that does not fit ``prog``."""
        if not isinstance(d, dict):
            raise SaveError("the saved state is not a record")
        if d.get("format") == 1 and isinstance(d.get("frames"), list):
            d = _from_format_1(prog, d)
        if d.get("format") != STATE_FORMAT:
            raise SaveError("this saved game was written by another version of catrules")
        try:
            check_saved(prog, d)
            return cls._from_dict(prog, d)
        except SaveError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            raise SaveError(f"the saved state is damaged ({describe_error(exc)[0]})") from None

    @classmethod
    def _from_dict(cls, prog, d: dict) -> "State":
        st = cls.__new__(cls)
        state_fields.load(st, prog, d)
        return st


# ------------------------------------------------------------------ helpers

def _from_format_1(prog, d: dict) -> dict:
    """A state saved in format 1, when a frame's pc counted instructions, in today's format: each
    pc becomes the block it resumes in (``prog.old_pcs``, kept by the compiler)."""
    frames = []
    for fr in d["frames"]:
        try:
            key, pc, vars_, depth = fr
            if key != "tiebreak":           # the same two steps in both formats
                pc = prog.old_pcs[key][pc]
        except (KeyError, TypeError, ValueError):
            raise SaveError("this saved game was written by an older catrules and cannot resume here "
                            "(a paused block that is not found)") from None
        frames.append([key, pc, vars_, depth])
    return {**d, "format": STATE_FORMAT, "frames": frames}
