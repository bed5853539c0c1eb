"""What a game says to people: texts with values (``"{p} wins the trick"``).

A text of a game file (``announce``, ``asking``, a tally's title, a card's face)
is worked out when it is said into *parts*, plain data that events, saves and
logs carry: strings, ``{"player": i}`` and ``{"card": id, "zone": slot}``.  A
card part keeps the zone the card lay in when it was said, so that each player
sees it only if they can see the card there (:func:`mask`), or saw it move: then
the part also has ``"seen"``, the bitmask of the players who saw its last move
(``State.saw``: it was visible to them where it came from or where it went; bit
``n`` for who watches the table, when it came from or went to a public zone), when
that names someone who cannot see the zone.  So "{p} takes {c}" said right after a
card went from a public row into a hand names it to everyone, and a card drawn from
a hidden deck stays hidden to the others.  Everything else in a text is public, as
if said aloud.  Front ends render parts their own way (``you``, seat names, card
faces); :func:`plain` gives plain text.

Values are shown as people read them: a player as "player 3", a card by its
face, a symbol by its display name (``show sky_blue as "sky blue"``, else
with spaces for underscores), a list as its items separated by commas (cards by
" · "), none as "nothing".
"""

from __future__ import annotations

from typing import Callable, Optional

from .places import describe


class Said(tuple):
    """A text worked out into its parts (a tuple, so that it stays plain data)."""
    __slots__ = ()


def symbol_text(value: str, names: dict) -> str:
    """A symbol as people read it: its display name, else its words."""
    shown = names.get(value)
    return shown if shown is not None else value.replace("_", " ")


def say(st, items: tuple) -> Said:
    """The parts of a text: ``items`` are strings and ``(kind, value)`` pairs, where kind is
    what the checker knows of the value: ``player``, ``card``, ``players``, ``cards`` or
    ``value`` (a number, symbol, text, place or list of those)."""
    out: list = []
    for it in items:
        if isinstance(it, str):
            _text(out, it)
        else:
            _value(st, out, it[0], it[1])
    return Said(out)


def _text(out: list, s: str) -> None:
    if out and isinstance(out[-1], str):
        out[-1] += s
    elif s:
        out.append(s)


def _value(st, out: list, kind: str, v) -> None:
    if v is None:
        _text(out, "nothing")
    elif isinstance(v, Said):
        for p in v:
            _text(out, p) if isinstance(p, str) else out.append(p)
    elif isinstance(v, (list, tuple)):
        each = {"players": "player", "cards": "card"}.get(kind, "value")
        if not v:
            _text(out, "nothing")
        sep = " · " if each == "card" else ", "     # card faces may hold commas themselves
        for i, x in enumerate(v):
            if i:
                _text(out, sep)
            _value(st, out, each, x)
    elif isinstance(v, bool):
        _text(out, "yes" if v else "no")
    elif kind == "player" and isinstance(v, int):
        out.append({"player": v})
    elif kind == "card" and isinstance(v, int) and 0 <= v < st.prog.card_count:
        if st.loc is None:                  # a card's face: no table, no zone
            _text(out, st.prog.card_face[v])
        else:
            slot = st.loc[v]
            part = {"card": v, "zone": st.layout.slot_name[slot]}
            saw = st.saw[v]
            if saw & ~st.layout.watchers[slot]:     # some saw it move who cannot see it there: named to them too
                part["seen"] = saw
            out.append(part)
    elif isinstance(v, str):
        if v[:4] in ("row:", "col:", "line", "plac"):
            _text(out, describe(st, v))
        else:
            _text(out, symbol_text(v, st.prog.display_names))
    else:
        _text(out, str(v))


def plain(parts, card_name: Callable[[int], str], player_name: Optional[Callable[[int], str]] = None) -> str:
    """``parts`` as plain text; a hidden card reads "a hidden card"."""
    pn = player_name or (lambda p: f"player {p + 1}")
    out = []
    for p in parts:
        if isinstance(p, str):
            out.append(p)
        elif "player" in p:
            out.append(pn(p["player"]))
        elif p.get("card") is None:
            out.append("a hidden card")
        else:
            out.append(card_name(p["card"]))
    return "".join(out)


def seen_parts(st, parts, player) -> tuple:
    """``parts`` as ``player`` may see them in state ``st``: ``(parts, changed)``."""
    idx, lay = st.prog.slot_index(st.layout), st.layout
    bit = st.n if player is None else player      # bit n: who watches the table (public zones)

    def sees(p: dict) -> bool:
        z = p.get("zone")
        return bool(p.get("seen", 0) >> bit & 1) or (z in idx and lay.visible(idx[z], player))
    return mask(parts, sees)


def words(st, parts) -> str:
    """``parts`` as plain words, cards by their faces in the game of state ``st``."""
    return plain(parts, st.prog.card_face.__getitem__)


def seen_text(st, value, player=None) -> str:
    """A text as ``player`` may read it (a card they cannot see is "a hidden card")."""
    if not isinstance(value, (list, tuple)):
        return str(value)
    return words(st, seen_parts(st, value, player)[0])


def mask(parts, sees: Callable[[dict], bool]) -> tuple:
    """``parts`` as one player sees them: a card part they may not see (``sees(part)`` false:
    they cannot see it where it lay, nor saw it move there) is hidden; who saw it move is
    left out of what they get.  Returns ``(parts, changed)``."""
    out, changed = [], False
    for p in parts:
        if isinstance(p, dict) and p.get("card") is not None:
            if not sees(p):
                out.append({"card": None})
                changed = True
                continue
            if "seen" in p:
                p = {k: v for k, v in p.items() if k != "seen"}
                changed = True
        out.append(p)
    return out, changed
