"""What a compiled expression reads of the table, and a key of exactly that: for the score memo.

A bot that looks ahead scores thousands of imagined tables, most of them alike where the score
looks (an option that changes one player's cards, two deals that differ only in hidden cards),
and a game's end may share cubes among cats the same way twice.  The score block and an
allotment's keys are pure functions of what they read; here that is found in the Python code the
compiler wrote for them (and, through the calls, for the definitions they ask), conservatively:

* a zone read as ``st.z[st.layout.base[K]]`` (a shared zone) or ``st.z[st.layout.base[K] + X]``
  (a zone per player: only player ``V['x']``'s when ``X`` is a variable of the block, else every
  player's), and the zones read by ``_everyone``;
* a counter ``st.c['name']``, the whole of it (every player's, every card's);
* the owner of a card (``_owner``): every zone that belongs to a player;
* a variable of the block ``V['x']``; the number of players and the game's options (fixed per
  scorer) are in every key.

Anything else (another field of the state, a function this module does not know given the
state, a reference that may come from a text) means "reads everything": no key, no memo.  A
reference to a line or place (``"line:3:1"``) read through the state reads the zone it names;
it is allowed only where references can come from the zones read themselves or from counters
and variables, whose values the key checks as it is built (a text with a colon: no key).
Nothing here knows a game.
"""

from __future__ import annotations

import ast
from itertools import chain, compress, repeat
from operator import is_not
from typing import NamedTuple, Optional

#: Helpers that never see the state (pure functions of their arguments).
_PURE = frozenset({"_agg", "_first", "_last", "_best", "_mul", "_add", "_cards_in", "_grid_lines",
                   "_optv", "_big", "_nopick", "_fits"})
#: Helpers given the state that read only references' zones (and the layout), or count steps.
_STATE_OK = frozenset({"_L", "_minmax", "_range", "_copies", "_others", "_top", "_lines", "_places",
                       "_at_start", "_at_end", "_at_before", "_at_after", "_at_line", "_at_new"})
#: Of those, the ones that read the zone a reference names.
_REF_READERS = frozenset({"_L", "_minmax", "_at_start", "_at_end", "_at_before", "_at_after",
                          "_at_line", "_at_new"})
_BUILTINS = frozenset({"len", "sum", "max", "min", "bool", "abs", "list", "range", "isinstance",
                       "int", "float", "_MISS", "_Unhashable"})
#: Fields of the state a key need not hold: the memo of definitions, the options (fixed per
#: scorer), the number of players (in every key) and the layout (a function of it).
_FIELDS_OK = frozenset({"memo", "n", "options", "layout"})


class Reads(NamedTuple):
    """What a group of expressions reads (see the module's docstring)."""
    shared: frozenset       # zone indices of shared zones
    every: frozenset        # zone indices of zones per player, every player's
    own: frozenset          # (zone index, variable name): one player's, named by a variable
    owned: bool             # every zone that belongs to a player (owners of cards)
    counters: frozenset     # counter names
    variables: frozenset    # names of the block's variables
    #: zone indices whose cards are read other than by counting them (``len(st.z[...])``): their
    #: order or identity matters.  A reference read names a zone whose lines were made here
    #: (``_lines``, ``_places``: in it) or comes from a value read, never a text with a colon
    #: in a key, so no other zone is read through references.
    ordered: frozenset = frozenset()
    #: counters read other than by one entry (``st.c['name'][i]``): read whole
    whole: frozenset = frozenset()


class _Unknown(Exception):
    """The code reads something this module cannot put in a key."""


def reads_of(bodies: list, ns: dict, loop_vars: frozenset = frozenset()) -> Optional[Reads]:
    """What the expressions ``bodies`` (Python text, in namespace ``ns``) read, or None when it
    cannot be told.  ``loop_vars``: variables of ``V`` that the caller sets itself (not in the key)."""
    w = _Walker(ns)
    try:
        for body in bodies:
            w.walk(ast.parse(body, mode="eval"))
        if w.ref_readers and w.ref_risk:
            raise _Unknown
    except (_Unknown, SyntaxError, RecursionError):
        return None
    every = w.every | {k for k, v in w.own if v in loop_vars}      # the caller's loop: every player's
    own = {(k, v) for k, v in w.own if v not in loop_vars}
    return Reads(frozenset(w.shared), frozenset(every), frozenset(own), w.owned,
                 frozenset(w.counters), frozenset(w.variables - loop_vars),
                 frozenset(w.ordered), frozenset(w.whole))


def key_code(r: Reads) -> str:
    """Python text of a tuple holding the values of what ``r`` names, in a fixed order (``st``
    and ``V`` in scope; the helpers of :data:`KEY_HELPERS`)."""
    parts = ["st.n"]
    parts += [f"_zk_slot(st.z[st.layout.base[{k}]])" for k in sorted(r.shared)]
    if r.owned:                 # every zone of a player: those read among them too
        parts.append("_zk_owned(st)")
    else:
        parts += [f"_zk_zone(st, {k})" for k in sorted(r.every)]
        parts += [f"_zk_slot(st.z[st.layout.base[{k}] + V[{v!r}]])" for k, v in sorted(r.own)]
    parts += [f"_zk_value(st.c.get({c!r}))" for c in sorted(r.counters)]
    parts += [f"_zk_value(V.get({v!r}))" for v in sorted(r.variables)]
    return "(" + ", ".join(parts) + ",)"


class NoKey(Exception):
    """A value in a key could be a reference to a zone not in the key: no memo this time."""


def _zk_slot(s):
    return tuple(s) if not s or type(s[0]) is not list else tuple(map(tuple, s))


def _zk_zone(st, k):
    lay = st.layout
    b = lay.base[k]
    if lay.slot_shape[b] == "lines":
        return tuple(_zk_slot(s) for s in st.z[b:b + st.n])
    return tuple(map(tuple, st.z[b:b + st.n]))


#: per layout: (the layout, its slots that belong to a player and hold cards, those that hold lines)
_OWNED: dict = {}


def _zk_owned(st):
    layout = st.layout
    kept = _OWNED.get(id(layout))
    if kept is None or kept[0] is not layout:
        owner, spec = layout.slot_owner, layout.slot_spec
        kept = _OWNED[id(layout)] = (
            layout, [i for i in range(len(owner)) if owner[i] >= 0 and spec[i].shape != "lines"],
            [i for i in range(len(owner)) if owner[i] >= 0 and spec[i].shape == "lines"])
    z = st.z
    return tuple(map(tuple, [z[i] for i in kept[1]])), tuple(_zk_slot(z[i]) for i in kept[2])


_INTS = frozenset({int})
_SEQS = frozenset({list, tuple})
_EXACT = frozenset({int, str})


class _KindCodes(dict):
    """A type as it goes in a key: itself when built in, else a number of its own (kept for
    as long as the process runs, so never reused).  A key holding a class defined in Python
    (a symbol is a text of its own type) would be followed by the garbage collector for as long
    as the memo keeps it (such a class, and its instances, are); numbers and built-in types are
    not, and a key of them is dropped from its rounds.  Equal keys stay equal, unequal unequal."""

    def __missing__(self, t):
        code = self[t] = t if not t.__flags__ & _HEAP_TYPE else len(self)
        return code


_HEAP_TYPE = 1 << 9                     # Py_TPFLAGS_HEAPTYPE: a class defined in Python
_KIND = _KindCodes()


def _kinds(items) -> tuple:
    """The types of ``items`` as a key holds them (see :class:`_KindCodes`)."""
    return tuple(map(_KIND.__getitem__, map(type, items)))


class _PlainTuples(dict):
    """A tuple of whole numbers and texts -> an equal one whose texts are plain (see
    :func:`_texts`), kept (the same few meals come again and again): a look-up in C."""

    def __missing__(self, items):
        to_str = str.__str__
        plain = tuple([x if type(x) is int else to_str(x) for x in items])
        if len(self) >= 4096:
            self.clear()
        self[plain] = plain             # found again by any equal tuple, symbols or not
        return plain


_PLAIN_TUPLES = _PlainTuples()


def _texts(items, kinds: set) -> tuple:
    """``items`` (whole numbers and texts of the types ``kinds``) with each text of a type of its
    own (a symbol) as a plain text equal to it: the same key, that the collector need not follow."""
    if kinds <= _EXACT:
        return tuple(items)
    return _PLAIN_TUPLES[tuple(items)]


def _zk_value(v):
    """``v`` as it goes in a key: whole numbers and none as they are, a list as tuples (with the
    kind of each item, so that ``True`` and ``1``, ``1.0`` and ``1``, a symbol and a text stay
    apart).  The common lists (a counter of each card: mostly none, numbers, lists of symbols)
    are looked at in C, not item by item."""
    t = type(v)
    if t is int or v is None:
        return v
    if t is list or t is tuple:
        nones = v.count(None)
        if nones == len(v):
            return (t is list, nones)
        at = None
        if nones:                       # where the others are, and what
            at, v = _others(v, nones)
        kinds = set(map(type, v))
        if kinds <= _INTS:
            return (t is list, at, tuple(v))
        if kinds <= _SEQS:              # lists of lists: one level down, in one go
            flat = list(chain.from_iterable(v))
            flat_kinds = set(map(type, flat))
            if _plain(flat_kinds, flat):
                inner = tuple(map(tuple, v))
                if not flat_kinds <= _EXACT:
                    inner = tuple(map(_PLAIN_TUPLES.__getitem__, inner))
                return (t is list, at, tuple(map(type, v)), inner, _kinds(flat))
        elif _plain(kinds, v):
            return (t is list, at, _kinds(v), _texts(v, kinds))
        return (t is list, at, tuple([_zk_value(x) for x in v]))
    if isinstance(v, str):
        if ":" in v:
            raise NoKey
        return v if t is str else (_KIND[t], str.__str__(v))
    if t is float or t is bool:
        return (t, v)
    raise NoKey                         # a dictionary, an object...: not worth a key


def _others(v, nones: int) -> tuple:
    """``(where, what)``: the places of the items of ``v`` that are not none, and those items.
    Found by C loops (``filter``, ``index``) when they are all true, as in a counter of each card."""
    vals = list(filter(None, v))
    if len(vals) != len(v) - nones:     # a 0, an empty list...: item by item
        at = tuple(compress(range(len(v)), map(is_not, v, repeat(None))))
        return at, [v[i] for i in at]
    at = []
    i = -1
    for x in vals:                      # between two of them there are only nones
        i = v.index(x, i + 1)
        at.append(i)
    return tuple(at), vals


def _plain(kinds: set, items: list) -> bool:
    """Are ``items`` (of the types ``kinds``) whole numbers and texts (none that reads as a
    reference: then :class:`NoKey`)?"""
    texts = False
    for k in kinds:
        if k is not int:
            if not issubclass(k, str):
                return False
            texts = True
    if texts and ":" in "\n".join([x for x in items if type(x) is not int]):
        raise NoKey                     # may be a reference to a zone not in the key
    return True


#: A value (a counter's, a variable's) as it goes in a key; raises :class:`NoKey` if it cannot.
value_key = _zk_value

#: The functions :func:`key_code`'s text asks for.
KEY_HELPERS = {"_zk_slot": _zk_slot, "_zk_zone": _zk_zone, "_zk_owned": _zk_owned, "_zk_value": _zk_value}


class _Walker:
    """Collects the reads of expressions and of the definitions they ask."""

    def __init__(self, ns: dict):
        self.ns = ns
        self.shared, self.every, self.own, self.counters, self.variables = set(), set(), set(), set(), set()
        self.owned = False
        self.ref_readers = False
        self.ref_risk = False       # a text that could be a reference, other than in the key's values
        self.done: set = set()
        self.mine: dict = {}        # in a definition: its parameters given a variable of the block -> that variable
        self.called: set = set()    # the functions called in the code being walked
        self.ordered: set = set()   # zones read other than by their length
        self.whole: set = set()     # counters read other than entry by entry
        self.counted: set = set()   # nodes that are the argument of ``len``

    def walk(self, tree) -> None:
        nodes = list(ast.walk(tree))
        indexed = {id(n.value) for n in nodes if isinstance(n, ast.Subscript)}
        placed = set(indexed)       # nodes of ``st`` and ``V`` in a place this module reads
        for node in nodes:
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "st":
                placed.add(id(node.value))
                if node.attr in ("z", "c") and id(node) not in indexed:
                    raise _Unknown  # `st.z` or `st.c` read other than by an index
            elif isinstance(node, ast.Call):
                placed.update(id(a) for a in node.args if isinstance(a, ast.Name) and a.id == "st")
        for node in nodes:
            if isinstance(node, ast.Name) and node.id in ("st", "V") and id(node) not in placed:
                raise _Unknown      # the state or the variables handed on whole
        saved, self.called = self.called, {id(n.func) for n in nodes if isinstance(n, ast.Call)}
        saved_counted, self.counted = self.counted, {
            id(n.args[0]) for n in nodes if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
            and n.func.id == "len" and len(n.args) == 1}
        for node in nodes:
            if isinstance(node, ast.Subscript) and _is_st(node.value, "c") and id(node) not in indexed:
                self.whole.add(_const(node.slice))
            self.node(node)
        self.called, self.counted = saved, saved_counted

    def node(self, n) -> None:
        if isinstance(n, ast.Name):
            self.name(n)
        elif isinstance(n, ast.Constant) and isinstance(n.value, str) and ":" in n.value:
            self.ref_risk = True
        elif isinstance(n, ast.Subscript):
            self.subscript(n)
        elif isinstance(n, ast.Attribute):
            if isinstance(n.value, ast.Name) and n.value.id == "st":
                if n.attr not in _FIELDS_OK | {"z", "c"}:
                    raise _Unknown
        elif isinstance(n, ast.Call):
            self.call(n)

    def name(self, n: ast.Name) -> None:
        name = n.id
        if name in ("st", "V") or name in _BUILTINS:
            return                  # their uses are checked where they appear
        if name not in self.ns:
            return                  # a local (a comprehension's, a lambda's, a parameter)
        if name.startswith("_d_"):
            if id(n) not in self.called:
                self.define(name, {})   # handed on, not called: its parameters are anyone's
        elif name.startswith(("_a_", "_t_", "_k")):
            if _may_be_ref(self.ns[name]):
                self.ref_risk = True
        elif name in _STATE_OK:
            if name in _REF_READERS:
                self.ref_readers = True
        elif name not in _PURE and name not in ("_everyone", "_owner"):
            raise _Unknown

    def subscript(self, n: ast.Subscript) -> None:
        v = n.value
        if isinstance(v, ast.Name) and v.id == "V":
            key = _const(n.slice)
            if not isinstance(key, str):
                raise _Unknown
            self.variables.add(key)
        elif _is_st(v, "z"):
            self.slot(n.slice, id(n) not in self.counted)
        elif _is_st(v, "c"):
            key = _const(n.slice)
            if not isinstance(key, str):
                raise _Unknown
            self.counters.add(key)
        elif isinstance(v, ast.Attribute) and _is_st(v.value, "layout") and v.attr == "base":
            if not isinstance(_const(n.slice), int):
                raise _Unknown
            # a slot's number reads nothing by itself: where it goes (`st.z`, `_lines`) is checked

    def slot(self, s, ordered: bool = True) -> None:
        """The slot index expression of ``st.z[...]`` (``ordered``: its cards read, not only counted)."""
        if _is_base(s):
            self.shared.add(_const(s.slice))
            if ordered:
                self.ordered.add(_const(s.slice))
            return
        if isinstance(s, ast.BinOp) and isinstance(s.op, ast.Add) and _is_base(s.left):
            k = _const(s.left.slice)
            if ordered:
                self.ordered.add(k)
            var = self.variable(s.right)
            if var is not None:
                self.own.add((k, var))
            else:
                self.every.add(k)
            return
        raise _Unknown

    def call(self, n: ast.Call) -> None:
        f = n.func
        name = f.id if isinstance(f, ast.Name) else None
        uses_st = any(isinstance(a, ast.Name) and a.id == "st" for a in n.args)
        if name == "_everyone":
            k = _const(n.args[1]) if len(n.args) > 1 else None
            if not isinstance(k, int):
                raise _Unknown
            self.every.add(k)
            self.ordered.add(k)
        elif name == "_owner":
            self.owned = True
        elif name in ("_lines", "_places", "_grid_lines"):
            at = 0 if name == "_grid_lines" else 1      # the slot whose lines (references) are made
            if len(n.args) <= at:
                raise _Unknown
            self.slot(n.args[at])
        elif (name or "").startswith("_d_") and name in self.ns:
            fn = self.ns[name]
            code = getattr(fn, "__code__", None)
            if code is None:
                raise _Unknown
            params = code.co_varnames[1:code.co_argcount]
            self.define(name, {p: v for p, a in zip(params, n.args[1:]) if (v := self.variable(a)) is not None})
        elif uses_st and name not in _STATE_OK:
            raise _Unknown

    def variable(self, node) -> Optional[str]:
        """The variable of the block ``node`` is (``V['x']``, or a parameter given it), or None."""
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "V" \
                and isinstance(_const(node.slice), str):
            return _const(node.slice)
        if isinstance(node, ast.Name):
            return self.mine.get(node.id)
        return None

    def define(self, name: str, mine: dict) -> None:
        """The reads of a definition's own code (written by the compiler, kept as ``source``),
        its parameters in ``mine`` standing for those variables of the block."""
        key = (name, frozenset(mine.items()))
        if key in self.done:
            return
        self.done.add(key)
        src = getattr(self.ns[name], "source", None)
        if not isinstance(src, str):
            raise _Unknown
        saved, self.mine = self.mine, mine
        try:
            self.walk(ast.parse(src))
        finally:
            self.mine = saved


def _const(node):
    return node.value if isinstance(node, ast.Constant) else None


def _is_st(node, attr: str) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == attr and \
        isinstance(node.value, ast.Name) and node.value.id == "st"


def _is_base(node) -> bool:
    """``st.layout.base[K]`` with ``K`` a number."""
    return isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and \
        node.value.attr == "base" and _is_st(node.value.value, "layout") and isinstance(_const(node.slice), int)


def _may_be_ref(v, depth: int = 0) -> bool:
    """Could ``v`` (a constant, a column of attributes) hold a text that reads as a reference?"""
    if isinstance(v, str):
        return ":" in v
    if depth > 3:
        return True
    if isinstance(v, dict):
        return any(_may_be_ref(x, depth + 1) for x in v.values())
    if isinstance(v, (list, tuple, set, frozenset)):
        return any(_may_be_ref(x, depth + 1) for x in v)
    return False
