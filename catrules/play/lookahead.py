"""Look-ahead: how a choice plays out, as far as the player who makes it can tell.

A bot's :meth:`~catrules.play.seats.Table.lookahead` makes its choice in imagined games
(:meth:`~catrules.runtime.state.State.sample_for`) and :func:`follow` plays each on a
little: the other answers of the same decision are their defaults, the player's own next
single choices the best ones by the game's ranking (:func:`lead`).
"""

from __future__ import annotations

from ..errors import RulesError
from ..runtime.scoring import outcome
from ..runtime.state import UNANSWERED, State

#: the values a player may choose in a pending decision (:meth:`State.values_for`, without the lookup)
_values_of = State._values

#: How many of its own follow-up choices a look-ahead makes (a menu, then a place...).
LOOKAHEAD_FOLLOW = 2

#: How many answers a look-ahead gives for others (their defaults in secret choices and races
#: they alone take part in, forced choices) before it judges the game where it stands: a count
#: of work, so that one look-ahead is bounded even where the others decide for ever without the
#: player (the seed games give a few at most).
FOLLOW_ANSWERS = 500


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
    others = ranks[:me] + ranks[me + 1:]
    if not others:
        return tuple(_num(x) for x in mine)
    best = max(others)
    if len(mine) == 1 and len(best) >= 1:
        # one component (``highest total``, the common key): the same difference, without the
        # generator below (a look-ahead takes thousands of leads)
        a, b = mine[0], best[0]
        ta, tb = type(a), type(b)
        if (ta is int or ta is float) and (tb is int or tb is float):
            return (a - b,)
    # numbers (the common key) subtract as they are; anything else as _num reads it
    return tuple((a if type(a) in _PLAIN else _num(a)) - (b if type(b) in _PLAIN else _num(b))
                 for a, b in zip(mine, best))


#: the types of a ranking key's component that :func:`_num` gives back unchanged (not bool)
_PLAIN = frozenset((int, float))


def _num(v):
    if isinstance(v, bool) or v is None:
        return int(bool(v))
    return v if isinstance(v, (int, float)) else 0


def _outcome(st: State) -> Outcome:
    return Outcome(*outcome(st))


def outcomes(state: State, player: int, options: list, samples: int, rng, timed) -> tuple:
    """``(per option, its :class:`Outcome` in each of ``samples`` imagined games; how many
    imagined games stopped with a rules error)``: the work of
    :meth:`catrules.play.match.Match.lookahead_options`.

    Each sample is drawn once from ``rng`` (:meth:`State.samples_for`) and copied for each
    option (the last option plays on in the sample itself), so the options are compared on the
    same imagined deals and the same imagined future.  Nobody deals an imagined game from these
    ones, so none keeps what each player knows of where cards are (``known``): the sample drops
    it before the first answer, not after it (:func:`follow`), which is the same game."""
    n = len(options)
    out: list = [[] for _ in options]
    errors = 0
    last = n - 1
    # all drawn first: nothing else draws from ``rng`` in between (an imagined game has sources
    # of its own), so these are the samples drawn one by one, their deal worked out once
    for base in state.samples_for(player, rng, max(1, samples)):
        base.known = None
        for i in range(n):
            st = base._fork() if i < last else base     # a clone sharing the frames until run
            try:
                st.apply(player, options[i], timed)
                out[i].append(follow(st, player, LOOKAHEAD_FOLLOW))
            except RulesError:
                errors += 1
    return out, errors


def follow(st: State, me: int, depth: int) -> Outcome:
    """Every player's scores once the decision just made has played out, as far as ``me`` can tell.

    The other players' answers still missing from the same simultaneous decision are their
    defaults (or first options; in a race, an average reaction time).  When the next decision is
    ``me``'s own single choice (a menu that leads to a choice of place, say), up to ``depth`` of
    them are made too, each the best way for ``me`` by the game's ranking (:func:`lead`), so that
    a choice is judged by where it leads.  Past :data:`FOLLOW_ANSWERS` answers given for the
    others, the game is judged where it stands.

    It answers with the values of the decision (:meth:`State.values_for`, :meth:`State.take`),
    not with option objects: the same answers as :meth:`State.apply` with the options' ids
    (:func:`_answer`), without the labels and prompts nobody reads in an imagined game.  Nor
    does it keep what each player knows of where cards are (``known``, read only to deal
    imagined games, and nobody deals one from this one).
    """
    st.known = None
    answers = 0
    while True:
        if answers > FOLLOW_ANSWERS:
            return _outcome(st)             # the others go on without ``me``: judged as it stands
        answers += 1
        p = st.pending_                     # read in place: the loop turns once per answer
        if p is None:
            return _outcome(st)
        kind = p.kind
        if kind == "choose":
            chosen = p.chosen
            pl = me
            for q in p.players:             # the first still to answer (the only one, mostly)
                if chosen[q] is UNANSWERED:
                    pl = q
                    break
            vals = _values_of(p, pl)
            if pl != me and len(vals) > 1:
                return _outcome(st)         # another player's choice: as far as one can tell
            _check_values(st, vals)
            if len(vals) == 1:
                _answer(st, pl, vals[0])    # a forced choice: it plays itself
                continue
            if pl != me:
                return _outcome(st)         # no option at all: nothing more to see
            break
        players = st.choosers()
        if me in players:
            break
        for pl in players:              # a secret choice or a race without ``me``: the defaults
            vals = st.values_for(pl)
            _check_values(st, vals)
            if st.take(pl, _default(st, pl, vals), 0.6 if kind == "race" else None):
                st.run()
    if depth <= 0 or kind != "choose":
        return _outcome(st)
    best, best_lead = None, None
    last = len(vals) - 1
    for i, v in enumerate(vals):
        value = _canonical(st, vals, v)
        s2 = st._fork() if i < last else st        # the last option plays on in ``st`` itself
        s2.log = None
        _answer(s2, me, value)
        out = follow(s2, me, depth - 1)
        ld = lead(out.ranks, me)
        if best_lead is None or ld > best_lead:
            best, best_lead = out, ld
    return best


def _answer(st: State, pl: int, value) -> None:
    """``pl``'s answer ``value`` to a choice (not a race), then run on: :meth:`State.apply`."""
    if st.take(pl, value):
        st.run()


def _default(st: State, pl: int, vals: list):
    """``pl``'s default answer to the pending decision (its first option when it has none), as
    :meth:`State.apply` takes the default option's id."""
    default = st.pending_.default[pl]
    if default is None or default not in vals or not st.prog.option_id(st.pending_.okind, default):
        default = vals[0]
    return _canonical(st, vals, default)


def _canonical(st: State, vals: list, v):
    """The value :meth:`State.apply` takes for ``v``'s option id: the first value with that id
    (two values may share an id, as ``1`` and ``"1"`` do)."""
    prog, okind = st.prog, st.pending_.okind
    if okind in ("card", "player"):
        return v
    return prog.option_value(okind, vals, prog.option_id(okind, v))


def _check_values(st: State, vals: list) -> None:
    """Raise, as :meth:`State.pending` would, when a choice among cards or players offers values
    that are not cards or players (an imagined game with it is then left out)."""
    okind = st.pending_.okind
    if okind in ("card", "player"):
        try:
            st.prog.options_for(okind, vals, st)
        except Exception:       # noqa: BLE001 - the same failure as the option objects' own
            st.pending()
