"""Checking a saved state before it is trusted: every field of the right kind and size.

:meth:`catrules.runtime.state.State.from_dict` calls :func:`check_saved` so that a
damaged or hand-edited save gives one clear :class:`~catrules.errors.SaveError`
instead of failing somewhere inside the rules.
"""

from __future__ import annotations

from ..errors import SaveError
from ..limits import CHAIN_LIMIT, FRAME_LIMIT, LIST_LIMIT, NUMBER_LIMIT, SAVED_NUMBER_LIMIT

#: The longest reaction time (seconds) a save or a log may hold: a race answered a week later.
TIME_LIMIT = 7 * 24 * 3600


def is_time(t) -> bool:
    """A reaction time: a finite number of seconds from 0 to :data:`TIME_LIMIT` (not true/false)."""
    return type(t) in (int, float) and 0 <= t <= TIME_LIMIT      # NaN fails the comparison


def check_saved(prog, d: dict) -> None:
    """Raise :class:`SaveError` naming the first part of saved state ``d`` that cannot be ``prog``'s."""
    _check_fields(prog, d)
    n = d["players"]
    _check_zones(prog, d["zones"], n)
    _check_counters(prog, d["counters"], n)
    _check_frames(prog, d["frames"])
    if not d["over"] and not d["frames"]:
        raise _bad("a game that is not over has no running block (`frames` is empty)")
    p = d.get("pending")
    if p is not None:
        _check_pending(prog, p, n)
    _check_record(prog, d, n)
    _check_randoms(d)


def _bad(what: str) -> SaveError:
    """The error for a part of a save that cannot be this game's."""
    return SaveError(f"the saved state does not fit this game: {what}")


def _is_int(v) -> bool:
    return type(v) is int and -NUMBER_LIMIT <= v <= NUMBER_LIMIT


def _check_fields(prog, d: dict) -> None:
    """Every field there, of its kind; players and options the game's."""
    for key, kind in (("players", int), ("options", list), ("seed", int), ("zones", list), ("counters", dict),
                      ("frames", list), ("rng", list), ("trng", list), ("over", bool), ("decisions", int),
                      ("history", list)):
        if key not in d:
            raise _bad(f"`{key}` is missing")
        if type(d[key]) is not kind:
            raise _bad(f"`{key}` is not a {kind.__name__}")
    n = d["players"]
    if not prog.min_players <= n <= prog.max_players:
        raise _bad(f"{n} players (the game is for {prog.min_players} to {prog.max_players})")
    for o in d["options"]:
        if not prog.is_option_setting(o):
            raise _bad(f"unknown option {str(o)[:40]!r}")


def _check_zones(prog, zones: list, n: int) -> None:
    """One zone per slot of the layout, of its shape; every card in exactly one place."""
    lay = prog.layout(n)
    if len(zones) != len(lay.slot_spec):
        raise _bad(f"{len(zones)} zones, not {len(lay.slot_spec)}")
    seen = [False] * prog.card_count

    def card(c, where: str) -> None:
        if type(c) is not int or not 0 <= c < prog.card_count:
            raise _bad(f"{where} holds {str(c)[:20]!r}, which is not a card")
        if seen[c]:
            raise _bad(f"card {c} is in two places")
        seen[c] = True

    for slot, zone in enumerate(zones):
        name, spec = lay.slot_name[slot], lay.slot_spec[slot]
        if type(zone) is not list:
            raise _bad(f"{name} is not a list")
        if spec.shape == "grid":
            if len(zone) != spec.rows * spec.cols:
                raise _bad(f"{name} has {len(zone)} cells, not {spec.rows * spec.cols}")
            for c in zone:
                if c is not None:
                    card(c, name)
        elif spec.shape == "lines":
            for line in zone:
                if type(line) is not list:
                    raise _bad(f"a line of {name} is not a list of cards")
                for c in line:
                    card(c, name)
        else:
            for c in zone:
                card(c, name)
    if not all(seen):
        raise _bad(f"card {seen.index(False)} is nowhere")


def _check_counters(prog, counters: dict, n: int) -> None:
    """Every counter of the game there, one value per player or card when it is kept so."""
    for name, per, _init in prog.counters:
        if name not in counters:
            raise _bad(f"counter `{name}` is missing")
        v = counters[name]
        if per is not None:
            size = n if per == "player" else prog.card_count
            if type(v) is not list or len(v) != size:
                raise _bad(f"counter `{name}` does not hold one value per {per}")
        kind = prog.counter_kind.get(name)
        for x in (v if per is not None else [v]):
            if not _of_kind(prog, kind, x, n):
                raise _bad(f"counter `{name}` holds a value that is not a {kind}")
    _check_values(counters, "a counter")


def _of_kind(prog, kind, x, n: int) -> bool:
    """A counter's saved value fits its kind (a player, a card or cards, a number, true/false)."""
    if x is None or kind not in ("player", "card", "number", "bool"):
        return True
    if kind == "player":
        return type(x) is int and 0 <= x < n
    if kind == "card":
        return all(type(c) is int and 0 <= c < prog.card_count for c in (x if type(x) is list else [x]))
    if kind == "number":
        return type(x) in (int, float)
    return type(x) is bool


def _check_frames(prog, frames: list) -> None:
    """The running blocks: blocks of the game, at a position inside them, with saved values."""
    if len(frames) > FRAME_LIMIT:
        raise _bad(f"{len(frames)} running blocks (at most {FRAME_LIMIT})")
    for f in frames:
        if type(f) is not list or len(f) != 4:
            raise _bad("a running block is not [key, position, variables, depth]")
        key, pc, vars_, depth = f
        if type(key) is not str or key not in prog.codes:
            raise _bad(f"unknown block {str(key)[:40]!r}")
        if type(pc) is not int or not 0 <= pc <= len(prog.codes[key]):
            raise _bad(f"position {str(pc)[:20]} is outside block {key!r}")
        if type(vars_) is not dict or not all(type(k) is str for k in vars_):
            raise _bad(f"the variables of block {key!r} are not a record")
        if type(depth) is not int or not 0 <= depth <= CHAIN_LIMIT:
            raise _bad(f"the chain depth of block {key!r} is {str(depth)[:20]}")
        _check_values(vars_, "a variable")


def _check_record(prog, d: dict, n: int) -> None:
    """What the game has recorded: the counts, the last actor, the history, what choices showed."""
    for key in ("decisions", "steps"):
        v = d.get(key, 0)
        if type(v) is not int or not 0 <= v <= NUMBER_LIMIT:
            raise _bad(f"`{key}` is {str(v)[:20]}")
    if d.get("actor") is not None and not (type(d["actor"]) is int and 0 <= d["actor"] < n):
        raise _bad("`actor` is not a player")
    for rec in d["history"]:
        if (type(rec) is not list or len(rec) not in (2, 3) or type(rec[0]) is not int or
                not 0 <= rec[0] < n or type(rec[1]) is not str or
                (len(rec) == 3 and not is_time(rec[2]))):
            raise _bad("a decision in the history is not [player, option (, time)] (a time is a number "
                       f"of seconds from 0 to {TIME_LIMIT})")
    known = d.get("known")
    if known is not None and not (type(known) is list and len(known) == prog.card_count and all(
            type(k) is int and 0 <= k < 1 << n for k in known)):
        raise _bad("who knows where each card is (`known`) is damaged")
    saw = d.get("saw")
    if saw is not None and not (type(saw) is list and len(saw) == prog.card_count and all(
            type(k) is int and 0 <= k < 1 << (n + 1) for k in saw)):
        raise _bad("who saw each card's last move (`saw`) is damaged")
    facts = d.get("facts", [])
    if type(facts) is not list or not all(
            type(f) is list and len(f) == 4 and type(f[0]) is int and 0 <= f[0] < len(d["zones"])
            and type(f[1]) is list and all(type(c) is int and 0 <= c < prog.card_count for c in f[1])
            and type(f[2]) is int and 0 <= f[2] < prog.card_count and type(f[3]) is int and 0 <= f[3] < n
            for f in facts):
        raise _bad("what the choices so far showed (`facts`) is damaged")


def _check_randoms(d: dict) -> None:
    """The two random sources: Mersenne Twister states."""
    for key in ("rng", "trng"):
        r = d[key]
        if (len(r) != 3 or type(r[0]) is not int or type(r[1]) is not list or len(r[1]) != 625 or
                not all(type(x) is int and 0 <= x < 2 ** 32 for x in r[1]) or
                not (r[2] is None or type(r[2]) is float)):
            raise _bad(f"the random source `{key}` is damaged")


def _check_values(values: dict, what: str) -> None:
    """Saved values are numbers within the limit, texts, true/false, none, lists and records of them."""
    stack = [(v, 1) for v in values.values()]
    count = 0
    while stack:
        v, depth = stack.pop()
        count += 1
        if depth > 50 or count > LIST_LIMIT:
            raise _bad(f"{what} is nested too deeply or too big")
        t = type(v)
        if t is int:
            if not -SAVED_NUMBER_LIMIT <= v <= SAVED_NUMBER_LIMIT:
                raise _bad(f"{what} holds a number of more than 30 digits")
        elif t is float:
            if v != v or v in (float("inf"), float("-inf")):
                raise _bad(f"{what} holds a number that is not a number")
        elif t is list:
            stack.extend((x, depth + 1) for x in v)
        elif t is dict:
            stack.extend((x, depth + 1) for x in v.values())
        elif v is not None and t not in (str, bool):
            raise _bad(f"{what} holds a value of an unknown kind")


def _check_pending(prog, p, n: int) -> None:
    """The pending decision: its kind, players, and one entry per player of options, defaults,
    answers ("?" while awaited) and reaction times; then its other fields."""
    if type(p) is not dict:
        raise _bad("the pending decision is not a record")
    for key in ("kind", "players", "options", "default", "chosen", "times", "okind"):
        if key not in p:
            raise _bad(f"the pending decision has no `{key}`")
    if p["kind"] not in ("choose", "secret", "race") or type(p["okind"]) is not str:
        raise _bad("the pending decision is of an unknown kind")
    pls = p["players"]
    if type(pls) is not list or not pls or not all(type(x) is int and 0 <= x < n for x in pls):
        raise _bad("the pending decision's players are not players of this game")
    for key in ("options", "default", "chosen", "times"):
        if type(p[key]) is not list or len(p[key]) != n:
            raise _bad(f"the pending decision's `{key}` is not one entry per player")
    if not any(p["chosen"][x] == "?" for x in pls):
        raise _bad("the pending decision waits for nobody")
    for x in pls:
        opts = p["options"][x]
        if type(opts) is not list:
            raise _bad(f"player {x + 1}'s options are not a list")
        if not opts and p["chosen"][x] == "?":
            raise _bad(f"player {x + 1} is asked to choose among no options (`options` is empty)")
        if p["okind"] == "card" and not all(v is None or type(v) is int and 0 <= v < prog.card_count
                                            for v in opts):
            raise _bad(f"player {x + 1}'s options are not cards")
        if p["okind"] == "player" and not all(v is None or type(v) is int and 0 <= v < n for v in opts):
            raise _bad(f"player {x + 1}'s options are not players")
    for t in p["times"]:
        if t is not None and not is_time(t):
            raise _bad(f"a reaction time is not a number of seconds from 0 to {TIME_LIMIT}")
    _check_pending_fields(prog, p, n)


def _check_pending_fields(prog, p: dict, n: int) -> None:
    """The fields of a pending decision past its per-player lists (see :class:`Pending
    <catrules.runtime.decisions.Pending>`), and the values it holds."""
    pls = p["players"]
    # where the answers go: a variable (choose) or a slot of answers (secret, race)
    for key in ("var", "slot"):
        if p.get(key) is not None and type(p[key]) is not str:
            raise _bad(f"the pending decision's `{key}` is not a name")
    if type(p.get("var" if p["kind"] == "choose" else "slot")) is not str:
        raise _bad("the pending decision does not say where its answer goes")
    if p["kind"] == "race" and any(p["chosen"][x] != "?" and not is_time(p["times"][x])
                                   for x in pls):
        raise _bad("a race answer has no reaction time")
    if p.get("optional") not in (None, True, False):
        raise _bad("the pending decision's `optional` is not true or false")
    if p.get("upto") is not None and (p["upto"] is not True or "need" not in p):
        raise _bad("the pending decision's `upto` is not true, or says no most cards")
    if "need" in p or "picks" in p:
        need, picks = p.get("need"), p.get("picks")
        if (type(need) is not list or type(picks) is not list or len(need) != n or len(picks) != n or
                not all((a is None or _is_int(a) and a >= 0) and (b is None or type(b) is list)
                        for a, b in zip(need, picks))):
            raise _bad("the pending decision's cards picked so far do not fit how many are needed")
    answers = p.get("answers")
    if answers is not None and not (type(answers) is list and all(
            type(ev) is dict and type(ev.get("player")) is int and 0 <= ev["player"] < n for ev in answers)):
        raise _bad("the pending decision's answers kept for their reveal are damaged")
    if p.get("line") is not None and type(p["line"]) is not int:
        raise _bad("the pending decision's line is not a number")
    pr = p.get("prompt")
    if pr is not None and type(pr) is not str:
        raise _bad("the pending decision's prompt is not a text")
    pf = p.get("prefers")
    if pf is not None and not (type(pf) is int and 0 <= pf < len(prog.prefer_fns)):
        raise _bad("the pending decision's preference is not one of this game's")
    ask = p.get("ask")
    if ask is not None and not (type(ask) is list and len(ask) == 2 and type(ask[0]) is int
                                and 0 <= ask[0] < len(prog.prompt_fns) and (ask[1] is None or type(ask[1]) is str)):
        raise _bad("the pending decision's prompt is not one of this game's")
    _check_values({"p": [p["options"], p["default"], p["chosen"], p["times"]]}, "the pending decision")
