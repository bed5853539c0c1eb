"""Bots: seats that decide on their own, for simulations and empty chairs.

A bot is a :class:`~catrules.play.seats.Seat` like any other.  It sees
only what its player may see (its view and the decision it is asked) and
reaches everything else through the :class:`~catrules.play.seats.Table`
the match hands it: the match's seeded random source (``table.rng``),
reaction times for races (:func:`catrules.play.reflexes.reflex_median`: modelled on people's
measured times), and a one-step look-ahead that deals the cards
the bot cannot see at random.  A bot never touches the game state, so it
cannot cheat, and a game with bots is as deterministic as its seed.

Two bots, both generic (they know no game; the game's own scoring tells
the greedy bot what is good):

* :class:`RandomBot` picks uniformly among the legal options.
* :class:`GreedyBot` tries each option one decision ahead and keeps the one
  that leaves it furthest ahead of the best other player, by the game's
  ``winner:`` block.

:func:`make_seat` turns a seat spec such as ``"random"`` or ``"bot:fast"``
into a bot.
"""

from __future__ import annotations

import math
import random

from ..play.seats import Choice, Seat
from ..runtime.randoms import PLAIN_RANDBELOW
from ..play.lookahead import lead
from ..play.reflexes import REFLEX_RANGE, REFLEXES
from .look import LOOK_BUDGET, close, look_values
from .runaway import check_can_end

#: Bot kinds understood by :func:`make_seat` (``bot`` is the greedy bot).
BOT_KINDS = ("random", "greedy", "bot")

#: How many decisions a game may take before a greedy bot stops looking ahead: past it, the bot
#: takes the decision's default, else an option at random from its own source (:meth:`GreedyBot.tie_source`).
#: A count, not a time, so the game stays as deterministic as its seed, and one that a save
#: keeps (the game's decisions so far).  The seed games take under 400 decisions; a game still
#: going at 2,000 is most likely one that never ends, and then the bots reach the decision
#: budget (:data:`catrules.limits.DECISION_LIMIT`) in seconds, not minutes.
LOOKAHEAD_DECISIONS = 2_000

_LOW, _HIGH = REFLEX_RANGE
#: What a reflex may be, for error messages.
REFLEX_HELP = (f"a reflex is {', '.join(REFLEXES)} or the median race time in seconds, "
               f"from {_LOW:g} to {_HIGH:g} (e.g. bot:0.8)")


def parse_reflex(text):
    """A reflex from a seat spec: a name of ``REFLEXES`` or a number of seconds (``0.8``, ``0.8s``),
    the median race time among four options; raises :class:`ValueError` saying what is allowed."""
    if isinstance(text, (int, float)) and not isinstance(text, bool):
        value = float(text)
    else:
        word = str(text).strip().lower()
        if word in REFLEXES:
            return word
        if not word:
            raise ValueError(f"no reflex after the colon; {REFLEX_HELP}")
        try:
            value = float(word[:-1] if word.endswith("s") else word)
        except ValueError:
            raise ValueError(f"unknown reflex {text!r}; {REFLEX_HELP}") from None
    if not math.isfinite(value) or not _LOW <= value <= _HIGH:
        why = "faster than people answer" if 0 <= value < _LOW else "out of range"
        raise ValueError(f"a reflex of {value:g} s is {why}; {REFLEX_HELP}")
    return value


def _reflex_name(kind: str, reflex) -> str:
    return kind if reflex == "normal" else f"{kind}:{reflex if isinstance(reflex, str) else format(reflex, 'g')}"


class RandomBot(Seat):
    """Picks uniformly among the legal options, with the match's seeded random source.

    ``reflex`` (``"fast"``, ``"normal"``, ``"slow"``, or the median time in seconds of a race
    among four options) sets how quickly it reacts in races.
    """

    wants_events = False

    def __init__(self, reflex="normal"):
        self.reflex = reflex if reflex == "normal" else parse_reflex(reflex)    # the default as it is
        self.name = _reflex_name("random", self.reflex)

    #: Answers inside the running game when every seat can (see :meth:`catrules.play.match.Match.run`).
    inline = True
    #: Reads its table only while the game runs: the match hands it a weak reference (a finished
    #: simulation then leaves no reference cycle to collect, see :class:`catrules.play.match.Match`).
    weak_table = True
    #: :meth:`pick` of a choice is ``table.rng.randrange(n)`` (no draw for one value): the fast
    #: path may draw it itself (see :class:`catrules.play.autoplay.Autoplay`).
    uniform_pick = True

    def pick(self, st, player: int, values: list, kind: str) -> tuple:
        """The fast path's :meth:`decide` (see :mod:`catrules.play.autoplay`): the same draws, on the
        values themselves; ``kind`` is ``choose``, ``secret`` or ``race``."""
        n = len(values)
        if n == 1:
            i = 0
        else:
            rng = self.table.rng
            if type(rng) is random.Random and PLAIN_RANDBELOW:
                # randrange(n) written out: CPython's own draws, three calls fewer per choice
                k = n.bit_length()
                i = rng.getrandbits(k)
                while i >= n:
                    i = rng.getrandbits(k)
            else:
                i = rng.randrange(n)
        return i, (self.table.reaction_time(self.reflex, n) if kind == "race" else None)

    def decide(self, view, decision) -> Choice:
        options = decision.options
        option = options[0] if len(options) == 1 else options[self.table.rng.randrange(len(options))]
        if decision.timed:
            return Choice(option.id, self.table.reaction_time(self.reflex, len(options)))
        return Choice(option.id)


class GreedyBot(Seat):
    """Looks one decision ahead and keeps the option that leaves it furthest ahead.

    The table draws ``samples`` states consistent with the bot's view (cards it cannot see
    dealt at random), plays every option in each of them (the same states for every option,
    so that the options are compared on the same deals) and runs the game to the next
    decision (see :func:`catrules.play.match.follow`: others still answering the same
    simultaneous decision take their defaults, and the bot's own follow-up choices are
    made the best way); the option's value is the mean, over the samples, of the bot's lead
    by the game's ``winner:`` block (:meth:`value`): where the lowest total wins it keeps its
    total low, and it honours the tie-breakers.  Ties go to the decision's default option
    when it is among the best, else to one of them at random, drawn from the bot's own
    source (:meth:`tie_source`: seeded from the game's seed, the seat and the number of
    decisions so far, so no seat is everyone's first choice, and the game stays as
    deterministic as its seed).  A decision with one option costs nothing.

    The look-ahead's work is bounded: per decision, ``samples`` imagined games per option, each
    played on for at most :data:`catrules.play.lookahead.FOLLOW_ANSWERS` answers and
    :data:`catrules.limits.IMAGINED_STEP_LIMIT` loop rounds without a decision; per game, once
    the game has taken :data:`LOOKAHEAD_DECISIONS` decisions the bot no longer looks ahead (it
    takes the default, else an option at random from :meth:`tie_source`).

    With ``look`` (a budget of work, :data:`catrules.bots.look.LOOK_BUDGET` for ``greedy:look``)
    each option is instead played on past its immediate cost by :mod:`catrules.bots.look`; as
    the searching bot does, it first checks that a game of bots alone can still end within its
    decision budget (:func:`catrules.bots.runaway.check_can_end`), since its play-ons never reach
    an end to tell.
    """

    wants_events = False
    #: Answers inside the running game (through :meth:`decide`) when every seat can.
    inline = True

    def __init__(self, reflex="normal", samples: int = 2, look: int = 0):
        self.reflex = parse_reflex(reflex)
        if not isinstance(samples, int) or samples < 1:
            raise ValueError(f"samples must be a whole number of at least 1, not {samples!r}")
        if not isinstance(look, int) or isinstance(look, bool) or look < 0:
            raise ValueError(f"the look-ahead budget must be a whole number of at least 0, not {look!r}")
        self.samples = samples
        self.look = look
        name = _reflex_name("greedy", self.reflex)
        if look:
            name = name.replace("greedy", "greedy:look" + ("" if look == LOOK_BUDGET else f":{look}"), 1)
        self.name = name

    def tie_source(self) -> random.Random:
        """The bot's own random source for this decision: seeded from the game's seed, the seat and
        the number of decisions taken so far (what every player knows), never drawing from the
        match's source, so a game resumed from a save breaks its ties the same way."""
        table = self.table
        count = getattr(table, "decisions", 0)
        return random.Random(f"greedy ties {getattr(table, 'seed', 0)} {self.player} {count}")

    def _probe_source(self) -> random.Random:
        """The source of ``greedy:look``'s probes that the game can end (apart from
        :meth:`tie_source`, so the probes change none of the bot's choices)."""
        table = self.table
        return random.Random(f"greedy probe {getattr(table, 'seed', 0)} {self.player} {getattr(table, 'decisions', 0)}")

    def value(self, option_id: str) -> tuple:
        """The mean lead after choosing ``option_id``: by the game's ``winner:`` block, how far
        the bot's ranking key is ahead of the best other player's, component by component
        (:func:`catrules.play.lookahead.lead`: where the lowest total wins, a lower total is a bigger
        lead; the later components are the tie-breakers).  Compared as tuples.  Samples whose
        imagined game failed are left out; an option with no usable sample is worth least."""
        return self._mean_lead(self.table.lookahead(self.player, option_id, self.samples))

    def _mean_lead(self, outcomes: list) -> tuple:
        me = self.player
        leads = []
        for scores in outcomes:
            ranks = getattr(scores, "ranks", None)
            if ranks is None:          # a table that gives scores only: the totals, highest wins
                ranks = [(s["total"],) for s in scores]
            leads.append(lead(ranks, me))
        if not leads:
            return (float("-inf"),)
        n = len(leads)
        width = min(map(len, leads))
        if width == 1:                  # one component (the common key): the same sum, no generators
            return (sum([x[0] for x in leads]) / n,)
        return tuple(sum([x[k] for x in leads]) / n for k in range(width))

    def _past_budget(self) -> bool:
        """Has the game taken :data:`LOOKAHEAD_DECISIONS` decisions (by a table that imagines the
        games itself, the match: it says how many)?  Then the bot no longer looks ahead."""
        return getattr(self.table, "decisions", 0) >= LOOKAHEAD_DECISIONS

    def _values(self, options: list, timed: bool) -> list:
        """Each option's value, or None past :data:`LOOKAHEAD_DECISIONS` (see :meth:`_past_budget`)."""
        ids = [o.id for o in options]
        if self.look and getattr(self.table, "sample", None) is not None:
            if self._past_budget():
                return None
            # a play-on stops at checkpoints, never at the end: probe first that the game can end
            check_can_end(self.table, self.player, self._probe_source())
            return look_values(self.table, self.player, ids, self.samples, self.look,
                               0.0 if timed else None, self.tie_source())
        both = getattr(self.table, "lookahead_options", None)
        if both is not None:        # every option in the same imagined states
            if self._past_budget():
                return None
            return [self._mean_lead(outs) for outs in both(self.player, ids, self.samples)]
        return [self.value(i) for i in ids]

    def decide(self, view, decision) -> Choice:
        options = decision.options
        if len(options) == 1:
            option = options[0]
        else:
            values = self._values(options, decision.timed)
            if values is None:          # past LOOKAHEAD_DECISIONS: every option looks the same
                values = [(0,)] * len(options)
            best = max(values)
            tied = [o for o, v in zip(options, values) if close(v, best)]
            option = next((o for o in tied if o.id == decision.default), None)
            if option is None:
                option = tied[0] if len(tied) == 1 else tied[self.tie_source().randrange(len(tied))]
        if decision.timed:
            return Choice(option.id, self.table.reaction_time(self.reflex, len(options)))
        return Choice(option.id)


#: What a seat spec may be, for error messages (made once: a simulation makes seats for every game).
_VALID_SPECS = ("valid seat specs: random, greedy, bot (= greedy), each optionally with a reflex "
                f"after a colon ({', '.join(REFLEXES)}, or seconds), e.g. bot:fast, random:slow or greedy:0.8; "
                "greedy:look, the greedy bot playing each option on (greedy:look:500 units of work, "
                "greedy:look:fast); "
                "ismcts, optionally with a budget per decision (ismcts:2000 iterations, ismcts:1s); "
                "or cmd:COMMAND, a program (docs/protocol.rst)")


def make_seat(spec: str, *, programs: bool = False) -> Seat:
    """A bot from a seat spec: ``random``, ``greedy`` or ``bot`` (the greedy bot), optionally
    followed by a reflex after a colon: a name (``bot:fast``, ``random:slow``, ``greedy:normal``)
    or the median race time in seconds (``greedy:0.8``).  ``greedy:look`` is the greedy bot with
    the longer look-ahead (:mod:`catrules.bots.look`), optionally with its budget and a reflex
    (``greedy:look:500``, ``greedy:look:fast``, ``bot:look:500:0.8``).  With ``programs``, ``cmd:COMMAND`` is
    a seat played by another program over JSON lines (:mod:`catrules.play.program_seat`)."""
    parsed = _PARSED.get(spec) if type(spec) is str else None
    if parsed is not None:              # a spec read before (a simulation makes seats for every game)
        return RandomBot(parsed[1]) if parsed[0] == "random" else GreedyBot(parsed[1], look=parsed[2])
    if isinstance(spec, str) and spec.strip()[:4].lower() == "cmd:":
        # off unless asked for: a spec from elsewhere (a web form) must never run a command here
        if not programs:
            raise ValueError(f"seat spec {spec!r}: a program seat (cmd:) cannot be used here; "
                             "choose a bot: random, greedy, bot (= greedy)")
        from ..play.program_seat import program_seat     # before lower-casing: the command keeps its case
        return program_seat(spec)
    valid = _VALID_SPECS
    if not isinstance(spec, str):
        raise ValueError(f"a seat spec is a string, not {spec!r}; {valid}")
    kind, sep, reflex = spec.strip().lower().partition(":")
    if not sep:
        reflex = "normal"
    if kind == "human":
        raise ValueError(f"seat spec {spec!r}: a human seat needs a front end and is not made here; {valid}")
    if kind == "ismcts":                # the searching bot: its budget after the colon
        from .ismcts import ISMCTSBot, parse_budget, parse_horizon
        if not sep:
            return ISMCTSBot()
        budget, _, horizon = reflex.partition(":")
        try:
            unit, amount = parse_budget(budget)
            horizon = parse_horizon(horizon) if horizon else None
        except ValueError as exc:
            raise ValueError(f"seat spec {spec!r}: {exc}") from None
        return ISMCTSBot(**{unit: amount}, horizon=horizon)
    if kind not in BOT_KINDS:
        raise ValueError(f"unknown seat spec {spec!r}; {valid}")
    look = 0
    if kind != "random" and reflex.split(":")[0] == "look":      # greedy:look[:BUDGET][:REFLEX]
        look, reflex = _parse_look(spec, reflex.split(":")[1:], valid)
    try:
        reflex = parse_reflex(reflex)
    except ValueError as exc:
        raise ValueError(f"seat spec {spec!r}: {exc}; {valid}") from None
    if len(_PARSED) < 64:
        _PARSED[spec] = (kind, reflex, look)
    if kind == "random":
        return RandomBot(reflex)
    return GreedyBot(reflex, look=look)


#: seat specs of the random and greedy bots read so far: (kind, reflex, look-ahead budget)
_PARSED: dict = {}


def _parse_look(spec: str, parts: list, valid: str) -> tuple:
    """(budget, reflex) from what follows ``greedy:look``: an optional budget (a whole number of
    units of work, at least 10), then an optional reflex."""
    look = LOOK_BUDGET
    if parts and parts[0].isdigit():
        look = int(parts.pop(0))
        if look < 10:
            raise ValueError(f"seat spec {spec!r}: a look-ahead budget of {look} is too small "
                             f"(at least 10 units of work; the default is {LOOK_BUDGET}); {valid}")
    if len(parts) > 1:
        raise ValueError(f"seat spec {spec!r}: too many parts after greedy:look; {valid}")
    return look, (parts[0] if parts else "normal")
