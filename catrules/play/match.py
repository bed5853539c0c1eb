"""Run one game with a seat per player: the loop every command uses.

:class:`Match` owns the :class:`~catrules.runtime.state.State` and talks to the
seats (:mod:`catrules.play.seats`) only through views and decisions.  It
filters the event log per player (a seat sees only what its player may
see), asks every seat of a simultaneous decision before applying any of
their choices, and can save the game at any pause so that it resumes
exactly (:meth:`save` / :meth:`Match.resume`).
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
import random
from pathlib import Path
from typing import Callable, Optional

from .. import __version__
from ..runtime.said import seen_parts, words
from .autoplay import Autoplay, SeatFailed
from ..runtime.state import State
from ..errors import RulesError, SaveError
from ..runtime.randoms import rng_in, rng_out
from .seats import Choice

SAVE_FORMAT = 1
#: The largest save file read (a save of a 10,000-card game is far smaller).
SAVE_SIZE_LIMIT = 64 << 20


def game_digest(game) -> str:
    """A fingerprint of a game file's text, kept in saves so that they resume only with that game."""
    source = getattr(game.program.checked.game, "source", "") or ""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()[:32]


def _no_constant(name):
    raise ValueError(f"{name} is not a number")


def read_json(raw: bytes, what: str):
    """JSON from bytes, refusing invalid UTF-8, NaN/Infinity, huge numbers and deep nesting."""
    try:
        text = raw.decode("utf-8")
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise SaveError(f"{what} (nested too deeply)") from None
    except UnicodeDecodeError:
        raise SaveError(f"{what} (not UTF-8 text)") from None
    except ValueError as exc:                 # JSONDecodeError, NaN, a number of thousands of digits
        why = getattr(exc, "msg", None) or str(exc)
        raise SaveError(f"{what} (" + ("a number with too many digits" if "digits" in why else why) + ")") from None


class LazyView(Mapping):
    """A player's view, worked out only if the seat looks at it (bots often do not)."""

    __slots__ = ("_state", "_player", "_view")

    def __init__(self, state: State, player: Optional[int]):
        self._state, self._player, self._view = state, player, None

    def _get(self) -> dict:
        if self._view is None:
            self._view = self._state.view(self._player)
        return self._view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self):
        return len(self._get())


def visible_event(state: State, ev: dict, player: Optional[int]) -> Optional[dict]:
    """The part of ``ev`` that ``player`` may see (``None``: nothing of it)."""
    t = ev["t"]
    if t == "move":
        idx = state.prog.slot_index(state.layout)
        src, dst = idx.get(ev["from"]), idx.get(ev["to"])
        lay = state.layout
        if (src is not None and lay.visible(src, player)) or (dst is not None and lay.visible(dst, player)):
            return ev
        return {**ev, "cards": None, "count": len(ev["cards"])}
    if t == "decision":
        # The chooser sees their choice; others learn that a choice was made, and see what it
        # did through the events that follow (a reveal, cards that move into view), unless
        # the choice is made openly (said aloud at the table).
        # Which rule asked (the line) can tell which way the rules went on a hidden card: it
        # is left out too.
        return ev if ev["player"] == player or ev.get("public") else {**ev, "option": None, "line": None}
    if t in ("reveal", "race"):
        # A chosen card shows only to who can see the zone it lies in (its `from`): cards
        # chosen in secret are seen as far as the zones they go to are visible.
        if all("from" not in ch or ch["player"] == player for ch in ev["choices"]):
            return ev
        idx = state.prog.slot_index(state.layout)
        lay = state.layout
        choices = []
        for ch in ev["choices"]:
            if "from" in ch and ch["player"] != player:
                src = ch["from"]
                srcs = src if isinstance(src, list) else [src]
                seen = [s is not None and lay.visible(idx[s], player) for s in srcs]
                if not any(seen):
                    # nothing of it shows: not the card, nor where it was, nor how many
                    ch = {"player": ch["player"], "option": None}
                elif isinstance(src, list):
                    ch = {**ch, "option": [o if ok else None for o, ok in zip(ch["option"], seen)],
                          "from": [s if ok else None for s, ok in zip(src, seen)]}
            choices.append(ch)
        return {**ev, "choices": choices}
    if t == "announce" and "parts" in ev:
        # said aloud, but a card named in it shows only to who could see it where it lay
        parts, changed = seen_parts(state, ev["parts"], player)
        if not changed:
            return ev
        return {**ev, "parts": parts, "text": words(state, parts)}
    if t == "exchange":
        # both cards pass through both zones: whoever sees either zone sees both cards
        idx = state.prog.slot_index(state.layout)
        if any(state.layout.visible(idx[z], player) for z in ev["zones"]):
            return ev
        return {**ev, "cards": None}
    if t == "counter":
        # counters are public, but a card's own counter shows only while the card does, and
        # a value that is a card only to whoever can see that card (as in views)
        idx = state.prog.slot_index(state.layout)
        vis = state.layout.visible
        if "card" in ev and not vis(idx[ev["zone"]], player):
            return None
        zones = ev.get("zones")
        if zones is not None and not all(vis(idx[z], player) for z in zones):
            out = {k: v for k, v in ev.items() if k != "zones"}
            out["value"] = None
            out["hidden"] = True
            return out
        return ev
    return ev


# ------------------------------------------------------------ bot reflexes
# Bots' race times are modelled on people's measured choice reaction times (sources in
# docs/bots.rst, "Reflexes"): the Hick-Hyman law, time = a + b * log2(options + 1), with
# a = 0.273 s, the median of Human Benchmark's online simple reaction test (a click or a key on
# a visual signal), and b = 0.15 s per bit, the usual slope of the law.  For four options it
# gives 0.62 s, which is about what a person needs to pick a card and press a key.

#: Seconds: the median simple reaction time at a computer (Human Benchmark, about 0.273 s).
SIMPLE_REACTION = 0.273
#: Seconds per bit (a doubling of the options): the Hick-Hyman slope, about 0.15 s.
HICK_SLOPE = 0.15
#: A reflex is the median time of a race among this many options (the four-choice task).
REFLEX_OPTIONS = 4
#: Standard deviation of the logarithm of a time: Human Benchmark's mean (0.284 s) over its
#: median (0.273 s) is exp(spread**2 / 2) for a log-normal distribution.
REFLEX_SPREAD = 0.28
#: Seconds: no bot answers faster (faster than about 0.1 s a person anticipates, not reacts).
FASTEST = 0.1
#: Reflex settings for bots: the median reaction time in seconds of a race among four options.
REFLEXES = {"fast": 0.45, "normal": 0.6, "slow": 0.8}
#: The medians a seat may ask for, in seconds (``bot:0.8``).
REFLEX_RANGE = (0.15, 5.0)


def hick_time(options: int) -> float:
    """The Hick-Hyman law: a person's median time to answer a choice among ``options`` (at least 1)."""
    return SIMPLE_REACTION + HICK_SLOPE * math.log2(max(1, options) + 1)


def reflex_median(reflex="normal", options: int = REFLEX_OPTIONS) -> float:
    """The median race time of a bot with ``reflex`` (a name of :data:`REFLEXES` or seconds) in a
    race among ``options``: the reflex's median for four options, scaled by the Hick-Hyman law
    (a quick bot is quick at every number of options)."""
    median = REFLEXES[reflex] if isinstance(reflex, str) else float(reflex)
    return median * hick_time(options) / hick_time(REFLEX_OPTIONS)


class Match:
    """A game between seats.  ``run()`` plays it to the end or to an interruption."""

    def __init__(self, game, state: State, seats: list, *, seed: Optional[int] = None,
                 on_event: Optional[Callable] = None):
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
        self._shown = 0
        #: How many imagined games of a look-ahead stopped with a rules error (left out).
        self.lookahead_errors = 0
        self._interactive = any(getattr(s, "interactive", False) for s in seats)
        if self._interactive:
            # a person could time another player's answer: forced choices are asked as well
            state.ask_forced = True
        for i, s in enumerate(seats):
            s.start(self, i)

    # ----------------------------------------------------------- the table
    def reaction_time(self, reflex="normal", options: int = REFLEX_OPTIONS) -> float:
        """See :meth:`catrules.play.seats.Table.reaction_time`."""
        return self.state.reaction_time(reflex_median(reflex, options), REFLEX_SPREAD, FASTEST)

    def lookahead(self, player: int, option: str, samples: int = 1) -> list:
        """See :meth:`catrules.play.seats.Table.lookahead`.  Each item is an :class:`Outcome`.

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
        :class:`Outcome` in each of ``samples`` states, the same states for every option.

        Each sample is drawn once and copied for each option (a copy costs a few microseconds,
        a sample a hundred), so the options are compared on the same imagined deals and the
        same imagined future, as in :meth:`lookahead` otherwise."""
        out: list = [[] for _ in options]
        timed = 0.0 if self._is_race() else None
        for _ in range(max(1, samples)):
            base = self.state.sample_for(player, self.rng)
            for i, option in enumerate(options):
                st = base.clone() if i < len(options) - 1 else base
                try:
                    st.apply(player, option, timed)
                    out[i].append(follow(st, player, LOOKAHEAD_FOLLOW))
                except RulesError:
                    self.lookahead_errors += 1
        return out

    def sample(self, player: int, rng: Optional[random.Random] = None) -> State:
        """See :meth:`catrules.play.seats.Table.sample`: an imagined game for ``player``'s
        search, consistent with what they have seen (:meth:`State.sample_for`), drawn with
        ``rng`` (the match's bot source if None); nobody watches it."""
        st = self.state.sample_for(player, self.rng if rng is None else rng)
        st.ask_forced = False
        return st

    def _is_race(self) -> bool:
        p = self.state.pending_
        return bool(p and p.kind == "race")

    # ------------------------------------------------------------- running
    def flush_events(self) -> None:
        log = self.state.log
        if log is None:             # nobody listens: bots only, no log file
            return
        new = log[self._shown:]
        self._shown = len(log)
        if not new:
            return
        if self.on_event:
            for ev in new:
                self.on_event(ev)
        for i, seat in enumerate(self.seats):
            if not getattr(seat, "wants_events", True):
                continue
            mine = [e for e in (visible_event(self.state, ev, i) for ev in new) if e is not None]
            if mine:
                seat.show(self.state.view(i), mine)

    def step(self) -> bool:
        """Ask the seats for the pending decision(s) and apply them; False when the game is over."""
        st = self.state
        self.flush_events()
        if st.finished:
            return False
        decisions = st.pending()
        if not decisions:
            return False
        # A person may interrupt (Ctrl-C) after bots of the same simultaneous decision have
        # already drawn from the random sources: put them back, so a save resumes exactly.
        snap = (st.trng.getstate(), self.rng.getstate()) if self._interactive else None
        answers = []
        try:
            for d in decisions:
                seat = self.seats[d.player]
                ch = seat.decide(LazyView(st, d.player), d)
                if not isinstance(ch, Choice):
                    ch = Choice(str(ch))
                d.option(ch.option)  # raises IllegalChoice for a bad answer
                if d.timed:
                    ch.reaction_time = self.race_time_of(seat, d, ch.reaction_time)
                answers.append((d.player, ch))
        except BaseException:
            if snap is not None:
                st.trng.setstate(snap[0])
                self.rng.setstate(snap[1])
            raise
        # every answer is in before any is applied: nobody's choice leaks to another seat
        for player, ch in answers:
            st.apply(player, ch.option, ch.reaction_time)
        return True

    def race_time_of(self, seat, decision, time: Optional[float]) -> float:
        """The race time recorded for a seat's answer: a seat that gives none gets a normal
        bot's; a seat's ``handicap`` comes off the time it gave, never below zero."""
        if time is None:
            return self.reaction_time("normal", len(decision.options))
        handicap = getattr(seat, "handicap", 0.0)
        return round(max(0.0, float(time) - handicap), 4) if handicap else time

    def run(self, after_step: Optional[Callable] = None) -> State:
        """Play to the end (or until a seat raises, e.g. a person's Ctrl-C).

        The fast path: when every seat is a bot that can answer where a decision arises
        (``inline``) and nobody watches (no log), the bots answer inside the running game
        (:mod:`catrules.play.autoplay`), without pausing it and building decision and option objects.
        They are asked the same things in the same order, so the game is the same as step by step.
        ``after_step`` is called after each step (a check that may stop the game).  While every
        seat only picks, what each player knows of card places is not kept (a sample or a save
        meanwhile gets what each player sees then: :meth:`State.known_now`).
        """
        st = self.state
        fast = (st.log is None and self.on_event is None and not self._interactive
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
        data = {"catrules_save": SAVE_FORMAT, "version": __version__, "game": str(self.game.path),
                "game_title": self.game.title, "game_digest": game_digest(self.game),
                "state": self.state.to_dict(), "bot_rng": rng_out(self.rng.getstate()), **(extra or {})}
        tmp = Path(str(path) + ".tmp")
        tmp.write_text(json.dumps(data), encoding="utf-8")
        tmp.replace(path)

    @staticmethod
    def read_save(path: str | Path) -> dict:
        """The data of a save file; raises :class:`~catrules.errors.SaveError` (a ``ValueError``) for a
        file that is not a save or is damaged, and ``OSError`` for one that cannot be read."""
        p = Path(path)
        with open(p, "rb") as f:
            raw = f.read(SAVE_SIZE_LIMIT + 1)
        if len(raw) > SAVE_SIZE_LIMIT:
            raise SaveError(f"{path} is not a catrules save file (larger than {SAVE_SIZE_LIMIT >> 20} MB)")
        data = read_json(raw, f"{path} is not a catrules save file")
        if not isinstance(data, dict) or data.get("catrules_save") != SAVE_FORMAT:
            raise SaveError(f"{path} is not a catrules save file")
        if not isinstance(data.get("state"), dict):
            raise SaveError(f"{path} is damaged: it holds no saved game")
        if not isinstance(data.get("game", ""), str):
            raise SaveError(f"{path} is damaged: the game file's name is not a text")
        return data

    @staticmethod
    def check_save_game(game, data: dict) -> None:
        """Raise :class:`SaveError` if ``data`` (from :meth:`read_save`) saves a game of another game file
        (its fingerprint differs, or is missing or damaged)."""
        digest = data.get("game_digest")
        if type(digest) is not str:
            raise SaveError("the save file is damaged: it holds no fingerprint of its game file")
        if digest != game_digest(game):
            title = data.get("game_title")
            named = f"of {title!r} " if isinstance(title, str) and title != game.title else ""
            raise SaveError(f"this save is of another game file {named}(or of an older version of "
                            f"{game.path}): it cannot be resumed with {game.path}")

    @classmethod
    def resume(cls, game, data: dict, seats: list, on_event=None, state: Optional[State] = None) -> "Match":
        """Continue a saved game (``state``: the saved state, if already restored)."""
        if state is None:
            cls.check_save_game(game, data)
            state = game.restore(data["state"])
        if state.log is None:
            state.log = []          # what came before the save was shown already
        m = cls(game, state, seats, on_event=on_event)
        try:
            m.rng = rng_in(data["bot_rng"])
        except (KeyError, IndexError, TypeError, ValueError, OverflowError):
            raise SaveError("the save file is damaged: the bots' random source") from None
        return m


#: How many of its own follow-up choices a look-ahead makes (a menu, then a place...).
LOOKAHEAD_FOLLOW = 2


class Outcome(list):
    """Every player's score dict once a look-ahead has played out, plus ``ranks``: each
    player's ranking key by the game's ``winner:`` block (:meth:`State.rank_keys`; a tuple,
    higher is better), worked out on the imagined state itself."""

    __slots__ = ("ranks",)

    def __init__(self, scores: list, ranks: list):
        super().__init__(scores)
        self.ranks = ranks


def lead(ranks: list, me: int) -> tuple:
    """How far ``me`` is ahead of the best other player: the difference of the ranking keys,
    component by component (the first is what the winner block ranks by first, the others are
    its tie-breakers); against nobody, ``me``'s own key."""
    mine = ranks[me]
    others = [k for i, k in enumerate(ranks) if i != me]
    if not others:
        return tuple(_num(x) for x in mine)
    best = max(others)
    return tuple(_num(a) - _num(b) for a, b in zip(mine, best))


def _num(v):
    if isinstance(v, bool) or v is None:
        return int(bool(v))
    return v if isinstance(v, (int, float)) else 0


def _outcome(st: State) -> Outcome:
    sc = st.scores()
    return Outcome(sc, st.rank_keys(sc))


def follow(st: State, me: int, depth: int) -> Outcome:
    """Every player's scores once the decision just made has played out, as far as ``me`` can tell.

    The other players' answers still missing from the same simultaneous decision are their
    defaults (or first options; in a race, an average reaction time).  When the next decision is
    ``me``'s own single choice (a menu that leads to a choice of place, say), up to ``depth`` of
    them are made too, each the best way for ``me`` by the game's ranking (:func:`lead`), so that
    a choice is judged by where it leads.
    """
    while True:
        p = st.pending_
        if p is None:
            return _outcome(st)
        if p.kind == "choose":
            pl = next((q for q in p.players if p.awaits(q)), me)
            if pl != me and len(st._values(p, pl)) > 1:
                return _outcome(st)         # another player's choice: as far as one can tell
        ds = st.pending()
        if p.kind != "choose" and me not in [d.player for d in ds]:
            for d in ds:
                st.apply(d.player, d.default or d.options[0].id, 0.6 if d.timed else None)
            continue
        if p.kind == "choose" and len(ds[0].options) == 1:
            st.apply(ds[0].player, ds[0].options[0].id)      # a forced choice: it plays itself
            continue
        break
    if depth <= 0 or p.kind != "choose" or ds[0].player != me:
        return _outcome(st)
    best, best_lead = None, None
    for o in ds[0].options:
        s2 = st.clone()
        s2.log = None
        s2.apply(me, o.id)
        out = follow(s2, me, depth - 1)
        ld = lead(out.ranks, me)
        if best_lead is None or ld > best_lead:
            best, best_lead = out, ld
    return best
