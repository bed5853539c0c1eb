"""References to rows, columns, lines and places (``row:SLOT:I``, ``place:SLOT:L:P``...).

A line of a grid or of a zone of lines, or a place in such a zone, is a value of
the game like a card or a player: a short text that names its slot and
position, parsed once and remembered.  Here: what such a reference holds, how
it reads, its attributes (``.cards``, ``.index``...), and where a card lies in
its zone.
"""

from __future__ import annotations

from ..errors import RulesError
from .frames import cards_in


#: the parsed references seen so far: a game uses few, but would parse each again on every use
_REFS: dict = {}


_REFS_KEPT = 50_000          # more than any game uses; past it the memory starts again


def parse_ref(v: str) -> tuple:
    """A reference's kind and numbers: ``"place:3:1:0"`` is ``("place", (3, 1, 0))``.

    References stay texts (they are option ids, log entries and saved values as they are);
    each is parsed once."""
    r = _REFS.get(v)
    if r is None:
        parts = v.split(":")
        r = (parts[0], tuple(int(x) for x in parts[1:]))
        if len(_REFS) >= _REFS_KEPT:
            _REFS.clear()
        _REFS[v] = r
    return r


def ref_cards(st, v) -> list:
    kind, nums = parse_ref(v)
    zone = st.z[nums[0]]
    if kind == "line":                          # the most read, in a game's inner loops
        return list(zone[nums[1]]) if nums[1] < len(zone) else []
    if kind == "row":
        spec = st.layout.slot_spec[nums[0]]
        cells = zone[nums[1] * spec.cols:(nums[1] + 1) * spec.cols]
        return [c for c in cells if c is not None]
    if kind == "col":
        spec = st.layout.slot_spec[nums[0]]
        return [zone[r * spec.cols + nums[1]] for r in range(spec.rows) if zone[r * spec.cols + nums[1]] is not None]
    if kind == "place":
        return []
    raise RulesError(f"`{v}` is not a collection of cards")


def describe(st, v: str) -> str:
    kind, nums = parse_ref(v)
    prog = st.prog
    if kind == "row":
        return f"row {nums[1] + 1}"
    if kind == "col":
        return f"column {nums[1] + 1}"
    zname = st.layout.slot_spec[nums[0]].name
    if kind == "line":
        cards = ref_cards(st, v)
        return f"{zname} {nums[1] + 1} ({', '.join(prog.card_label[c] for c in cards)})"
    if kind == "place":
        i, pos = nums[1], nums[2]
        if i < 0:
            return f"a new line in {zname}"
        line = st.z[nums[0]][i]
        if pos == 0:
            return f"{zname} {i + 1}: at the start, before {prog.card_label[line[0]]}"
        if pos >= len(line):
            return f"{zname} {i + 1}: at the end, after {prog.card_label[line[-1]]}"
        return f"{zname} {i + 1}: between {prog.card_label[line[pos - 1]]} and {prog.card_label[line[pos]]}"
    return v


def place_attr(st, v, name):
    """An attribute of a place, a line, a row or a column (values that are strings)."""
    if v is None:
        return None
    kind, nums = parse_ref(v)
    if kind != "place":
        if name == "index":
            return nums[1] + 1
        if name == "cards":
            return ref_cards(st, v)
        if name == "new":
            return False
        raise RulesError(f"a {kind} has no `{name}`")
    i, pos = nums[1], nums[2]
    if name == "new":
        return i < 0
    if name == "position":
        return pos + 1
    if i < 0:                                   # a new line: nothing before, after or in it
        return {"start": False, "end": False, "index": 0, "cards": []}.get(name)
    line = st.z[nums[0]][i]
    if name == "start":
        return pos == 0
    if name == "end":
        return pos >= len(line)
    if name == "before":
        return line[pos - 1] if pos > 0 else None
    if name == "after":
        return line[pos] if pos < len(line) else None
    if name == "line":
        return f"line:{nums[0]}:{i}"
    if name == "index":
        return i + 1
    return list(line)                           # cards


# The attributes of a place the generated code names: one small function each, so that a
# game's inner loops (where may this card go?) skip place_attr's chain of tests.

#: place references parsed further: (slot, line index, position, the line's own reference)
_PLACES: dict = {}


def _placed(v):
    """A place reference as (slot, line, position, line reference), remembered; None for others."""
    if type(v) is not str:
        return None
    kind, nums = parse_ref(v)
    if kind != "place":
        return None
    if len(_PLACES) >= _REFS_KEPT:
        _PLACES.clear()
    r = _PLACES[v] = (nums[0], nums[1], nums[2], f"line:{nums[0]}:{nums[1]}")
    return r


def _at_start(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "start")
    return r[1] >= 0 and r[2] == 0


def _at_end(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "end")
    return r[1] >= 0 and r[2] >= len(st.z[r[0]][r[1]])


def _at_before(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "before")
    pos = r[2]
    return st.z[r[0]][r[1]][pos - 1] if r[1] >= 0 and pos > 0 else None


def _at_after(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "after")
    if r[1] < 0:
        return None
    line = st.z[r[0]][r[1]]
    return line[r[2]] if r[2] < len(line) else None


def _at_line(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "line")
    return r[3] if r[1] >= 0 else None


def _at_new(st, v):
    r = _PLACES.get(v) or _placed(v)
    if r is None:
        return place_attr(st, v, "new")
    return r[1] < 0


#: the attributes with a function of their own, by the name the generated code calls it
PLACE_GETTERS = {"start": ("_at_start", _at_start), "end": ("_at_end", _at_end),
                 "before": ("_at_before", _at_before), "after": ("_at_after", _at_after),
                 "line": ("_at_line", _at_line), "new": ("_at_new", _at_new)}


def as_list(st, v) -> list:
    t = type(v)
    if t is list:
        return v
    if v is None:
        return []
    if t is str and ":" in v:
        return ref_cards(st, v)
    if t is tuple:
        return list(v)
    return [v]


def _grid_lines(slot, kind, k):
    key = (slot, kind, k)
    r = _GRID_LINES.get(key)
    if r is None:
        if len(_GRID_LINES) >= _REFS_KEPT:
            _GRID_LINES.clear()
        r = _GRID_LINES[key] = [f"{kind}:{slot}:{i}" for i in range(k)]
    return list(r)          # a fresh list: the caller may change it


#: the references of a grid's rows or columns, by (slot, kind, count): formatted once
_GRID_LINES: dict = {}


#: the references of a slot's lines and places, by (slot, line, length): built once, not per use
_NAMES: dict = {}


def _names(key):
    if len(_NAMES) >= _REFS_KEPT:
        _NAMES.clear()
    s, i, n = key
    if i is None:
        r = [f"line:{s}:{k}" for k in range(n)]
    elif i < 0:
        r = [f"place:{s}:-1:0"]
    else:
        r = [f"place:{s}:{i}:{k}" for k in range(n + 1)]
    _NAMES[key] = r
    return r


def _lines_rt(st, slot):
    key = (slot, None, len(st.z[slot]))
    return list(_NAMES.get(key) or _names(key))


def _places_rt(st, s):
    key = (s, -1, 0)
    out = list(_NAMES.get(key) or _names(key))
    for i, line in enumerate(st.z[s]):
        key = (s, i, len(line))
        out += _NAMES.get(key) or _names(key)
    return out


def _cards_in(zone, shape):
    """A zone's cards: the live list of a pile or row, a new list for grids and lines."""
    return zone if shape in ("pile", "row") else cards_in(zone)


def _position(st, c):
    zone = st.z[st.loc[c]]
    if zone and type(zone[0]) is list:
        for i, line in enumerate(zone):
            if c in line:
                return (i, line.index(c))
    return zone.index(c)


def _put(st, slot, pos, c):
    zone = st.z[slot]
    if isinstance(pos, tuple):
        zone[pos[0]][pos[1]] = c
    else:
        zone[pos] = c


def _either(st, v, name, col):
    if v is None:
        return None
    return place_attr(st, v, name) if isinstance(v, str) else col[v]
