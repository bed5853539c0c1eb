"""The fields of a game's state, each listed once: how a copy, a save and a new game treat it.

A :class:`~catrules.runtime.state.State` is plain data.  :data:`FIELDS` names each of its
fields with how :meth:`State.clone` copies it, the key a save keeps it under (the keys of
:meth:`State.to_dict` come in the table's order; none: not saved, worked out again on load),
how it is saved and loaded where that is not the value itself, and the value a new game
starts with where that does not come from :meth:`State.new`'s arguments.  The state's
``__slots__``, its clone, its save and its load are all made from this one table.

A bot that searches clones states thousands of times a second, so the clone is written out
as Python source from the table, once, and runs as fast as one written by hand.
"""

from __future__ import annotations

import copy
from typing import Any, Callable, NamedTuple, Optional

from .decisions import Pending
from .frames import Frame, cards_in
from .randoms import rng_in, rng_out

#: ``start`` of a field that :meth:`State.new` sets from its arguments
FROM_NEW = object()


class Field(NamedTuple):
    name: str                          # the attribute
    copy: str                          # how a clone takes it: a key of _COPIES
    key: Optional[str] = None          # its key in a save; None: not saved
    start: Any = FROM_NEW              # its value in a new game (copied: a new list each time)
    save: Optional[Callable] = None    # f(state) -> what a save keeps (None: the value itself)
    load: Optional[Callable] = None    # f(saved, state, prog) -> the value (None: saved[key], else start)
    optional: bool = False             # left out of a save while what it saves is empty (saves from before it was kept)


def _locations(d, st, prog) -> list:
    loc = [0] * prog.card_count
    for s, zone in enumerate(st.z):
        for c in cards_in(zone):
            loc[c] = s
    return loc


def _known(d, st, prog) -> list:
    known = d.get("known")          # saves from before it was kept: everyone knows
    return list(known) if known is not None else [(1 << st.n) - 1] * prog.card_count


def _saw(d, st, prog) -> list:
    saw = d.get("saw")              # saves from before it was kept: nobody saw any card move
    return list(saw) if saw is not None else [0] * prog.card_count


FIELDS = (
    Field("prog", "same", load=lambda d, st, prog: prog),
    Field("n", "same", "players"),
    Field("options", "same", "options", save=lambda st: list(st.options),
          load=lambda d, st, prog: list(d["options"])),
    Field("seed", "same", "seed"),
    Field("layout", "same", load=lambda d, st, prog: prog.layout(st.n)),
    Field("z", "zones", "zones"),
    Field("loc", "list", load=_locations),
    Field("c", "counters", "counters", start={}),
    Field("frames", "frames", "frames", start=[],
          save=lambda st: [[f.key, f.pc, f.vars, f.depth] for f in st.frames],
          load=lambda d, st, prog: [Frame(k, pc, v, depth) for k, pc, v, depth in d["frames"]]),
    Field("pending_", "pending", "pending", start=None,
          save=lambda st: st.pending_.to_dict() if st.pending_ is not None else None,
          load=lambda d, st, prog: Pending.from_dict(d["pending"]) if d["pending"] is not None else None),
    # the game's random source (shuffles, draws) and the one of bots' race times
    Field("rng", "random", "rng", save=lambda st: rng_out(type(st).rng.state(st)),
          load=lambda d, st, prog: rng_in(d["rng"])),
    Field("trng", "random", "trng", save=lambda st: rng_out(type(st).trng.state(st)),
          load=lambda d, st, prog: rng_in(d["trng"])),
    Field("over", "same", "over", start=False),
    Field("decisions", "same", "decisions", start=0),
    Field("history", "list", "history", start=[]),
    Field("steps", "same", "steps", start=0, load=lambda d, st, prog: d.get("steps", 0)),
    # where ``steps`` starts again after each decision: 0, or nearer the limit in an imagined game
    Field("steps_from", "same", start=0),
    # the line of the loop with no way out that the game last entered (None: none yet)
    Field("no_way_out", "same", start=None),
    # past the loop guard's limit: how often each loop went round (see runtime.blocks._loop_guard)
    Field("loops_seen", "start", start=None),
    Field("actor", "same", "actor", start=None, load=lambda d, st, prog: d.get("actor")),
    Field("ask_forced", "same", "ask_forced", load=lambda d, st, prog: bool(d.get("ask_forced", False))),
    Field("known", "list or none", "known", save=lambda st: st.known_now(), load=_known),
    # per card, the players who saw its last move (a bitmask: it was visible to them where it came
    # from or where it went; bit n: it came from or went to a public zone, for who watches the
    # table); a text names the card to them (catrules.runtime.said)
    Field("saw", "list", "saw", save=lambda st: st.saw if any(st.saw) else None, load=_saw, optional=True),
    # what choices showed (catrules.runtime.inference), as a tuple: a copy shares it
    Field("facts", "same", "facts", start=(), optional=True,
          save=lambda st: [[s, sorted(cards), c, pl] for s, cards, c, pl in st.facts],
          load=lambda d, st, prog: tuple((s, frozenset(cards), c, pl) for s, cards, c, pl in d.get("facts", ()))),
    Field("log", "list or none", load=lambda d, st, prog: None),
    Field("auto", "start", start=None),    # a copy is played by whoever holds it
    Field("memo", "start", start=None),
    # what a lint of many games counts while it runs (see runtime.values.note_short); None: nothing
    Field("stats", "start", start=None),
    # (players, options, seed, ask_forced) of State.new while :attr:`history` holds every answer
    # since (not saved: a restored or imagined game has none); the fast path replays an error
    # from there (State.run)
    Field("origin", "same", start=None),
)


def slot_names(fields=FIELDS) -> tuple:
    """The ``__slots__`` of the fields: a random source keeps two (see
    :class:`catrules.runtime.randoms.CopyOnWrite`: its own and a frozen one)."""
    out = []
    for f in fields:
        out += [f"_{f.name}", f"_{f.name}_frozen"] if f.copy == "random" else [f.name]
    return tuple(out)


#: Per way of copying, the clone's line for field ``{f}``.
_COPIES = {
    "same": "st.{f} = self.{f}",
    "list": "st.{f} = list(self.{f})",
    "list or none": "st.{f} = list(self.{f}) if self.{f} is not None else None",
    # a slot's cards, or a zone of lines' lines (see copy_zones)
    "zones": "st.{f} = state_fields.copy_zones(self.{f}, self.layout)",
    # the dictionary copied whole, then its lists (per player or card) replaced by copies
    "counters": ("c = self.{f}.copy()\n    for k, v in c.items():\n        if type(v) is list:\n"
                 "            c[k] = v[:]\n    st.{f} = c"),
    "frames": "st.{f} = [f.copy() for f in self.{f}]",
    "pending": "st.{f} = self.{f}.copy() if self.{f} is not None else None",
    # CopyOnWrite.share written out: the source frozen (if drawn from) and shared with the clone
    "random": ("r = self._{f}\n    if r is None:\n        r = self._{f}_frozen\n    else:\n"
               "        self._{f}, self._{f}_frozen = None, r\n    st._{f}, st._{f}_frozen = None, r"),
    "start": "st.{f} = {start!r}",
}


#: What an imagined game (:meth:`State.sample_for`) starts without: the answers and events so far
#: grow with the game, so copying them would make each look-ahead dearer the longer the game.
IMAGINED_FRESH = {"history": "st.history = []", "log": "st.log = None", "origin": "st.origin = None"}

#: What a fork of an imagined game (``State._fork``) takes otherwise than a clone: the frames,
#: shared (:func:`share_frames`).
FORK_FRESH = {"frames": "st.frames = state_fields.share_frames(self.frames)"}


def share_frames(frames: list) -> list:
    """A copy of the list ``frames`` holding the same frames, each marked ``shared``: the state
    that runs one copies it first (``State._run``, ``State._resolve``), so neither sees the other's
    changes, and a fork pays only for the frames it runs (an imagined game's play-on seldom
    leaves its top frame)."""
    for f in frames:
        f.shared = True
    return frames[:]


#: per layout (by id, the layout kept to check): the slots whose cards lie in lines
_NESTED: dict = {}


def copy_zones(z: list, lay) -> list:
    """A copy of the zones ``z``: each slot's list copied, and a level deeper where the cards lie
    in lines (a slot of shape ``lines``, a list of lists); the shapes are the layout's, so the
    slots are copied in one go, not looked at one by one."""
    got = _NESTED.get(id(lay))
    if got is None or got[0] is not lay:
        got = _NESTED[id(lay)] = (lay, tuple(s for s, shape in enumerate(lay.slot_shape) if shape == "lines"))
    out = list(map(list.copy, z))
    for s in got[1]:
        out[s] = [x[:] for x in z[s]]
    return out


def clone_function(namespace: dict, fields=FIELDS, fresh: Optional[dict] = None):
    """``State.clone`` written out from the table; ``namespace``: the globals it runs in (the
    state module's, where ``State`` is).  ``fresh``: per field, a line that replaces its copy
    (:data:`IMAGINED_FRESH` for an imagined game)."""
    fresh = fresh or {}
    lines = ["def clone(self):", "    st = State.__new__(State)"]
    lines += ["    " + fresh.get(f.name) if f.name in fresh else
              "    " + _COPIES[f.copy].format(f=f.name, start=f.start) for f in fields]
    lines.append("    return st")
    code = compile("\n".join(lines) + "\n", "<State.clone>", "exec")
    local: dict = {}
    exec(code, namespace, local)
    fn = local["clone"]
    fn.__doc__ = "A copy of the state to play on, sharing what neither changes (see state_fields)."
    return fn


def _start_function():
    """:func:`start` written out once as Python source: a new empty list or dictionary, an
    unchanging value as it is, anything else copied."""
    lines, ns = ["def start(st):", '    """Set the fields every new game starts the same way."""'], {"copy": copy}
    for i, f in enumerate(FIELDS):
        v = f.start
        if v is FROM_NEW:
            continue
        if type(v) in (list, dict) and not v:
            lines.append(f"    st.{f.name} = {'[]' if type(v) is list else '{}'}")
        else:
            ns[f"_v{i}"] = v
            fixed = v is None or type(v) in (bool, int, float, str) or v == () and type(v) is tuple
            lines.append(f"    st.{f.name} = {f'_v{i}' if fixed else f'copy.copy(_v{i})'}")
    exec(compile("\n".join(lines) + "\n", "<State start>", "exec"), ns)
    return ns["start"]


#: Set the fields every new game starts the same way (each field's ``start``, copied).
start = _start_function()


def start_cards(st, prog) -> None:
    """Put every card where the game file says it starts (``st.z``, ``st.loc``): a copy of the
    start worked out once per layout (``Layout.start``)."""
    lay = st.layout
    if not lay.start:
        z = [[None] * (sp.rows * sp.cols) if sp.shape == "grid" else [] for sp in lay.slot_spec]
        loc = [0] * prog.card_count
        for cid, zid in enumerate(prog.initial_zone):
            slot = lay.base[zid]
            z[slot].append(cid)
            loc[cid] = slot
        lay.start = (z, loc)
    z, loc = lay.start
    st.z = [s[:] for s in z]
    st.loc = loc[:]


def save(st, fmt: int) -> dict:
    """The saved fields of ``st`` as plain data, format ``fmt`` first."""
    d = {"format": fmt}
    for f in FIELDS:
        if f.key is None:
            continue
        v = f.save(st) if f.save is not None else getattr(st, f.name)
        if f.optional and not v:
            continue
        d[f.key] = v
    return d


def load(st, prog, d: dict) -> None:
    """Set every field of the new ``st`` from ``d`` (a save of a game of ``prog``), in the
    table's order (a field may use those before it)."""
    for f in FIELDS:
        if f.load is not None:
            v = f.load(d, st, prog)
        elif f.key is not None:
            v = d[f.key]
        else:
            v = copy.copy(f.start)
        setattr(st, f.name, v)
