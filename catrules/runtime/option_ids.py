"""Option ids: the short texts that name the options of a decision, written and read here only.

An id is stable across runs and is what logs, saves, the web protocol and action vocabularies
keep: ``c12`` is card 12, ``p2`` player 2 (players count from 1 in ids, from 0 in values),
``n-3`` the number -3, ``yes`` and ``no`` true and false, ``none`` nothing (or sitting a race
out); any other value (a symbol, a text, a reference to a line or a place) is its own id.
"""

from __future__ import annotations

from typing import Optional

NONE = "none"
YES = "yes"
NO = "no"


def card_id(card: int) -> str:
    return f"c{card}"


def player_id(player: int) -> str:
    """The id of player ``player`` (counted from 0): ``p1`` for the first."""
    return f"p{player + 1}"


def number_id(v: int) -> str:
    return f"n{v}"


def option_id(kind: str, v) -> str:
    """The id of value ``v`` of an option of kind ``kind`` (``card``, ``player``, ``number``...)."""
    if v is None:
        return NONE
    if kind == "card":
        return f"c{v}"
    if kind == "player":
        return f"p{v + 1}"
    if kind == "number":
        return f"n{v}"
    if v is True:
        return YES
    if v is False:
        return NO
    return str(v)


def option_value(kind: str, values, oid: str):
    """The value of option ``oid`` among ``values``, or raise ``LookupError``."""
    if oid == NONE and None in values:
        return None
    if kind == "card":
        c = card_of(oid)
        if c is not None:
            if c in values:
                return c
            raise LookupError(oid)
    if kind in ("line", "place") and oid in values:     # a reference is its own id
        return oid
    for v in values:
        if option_id(kind, v) == oid:
            return v
    raise LookupError(oid)


# Reading ids back.  The digits are decimal digits (what ``int`` reads), so an id from a log
# someone wrote that merely looks numbered (``c²``) is no card: it stays a plain id.

def card_of(oid) -> Optional[int]:
    """The card a card id names (``c12``: 12); None for any other id."""
    if isinstance(oid, str) and oid[:1] == "c" and oid[1:].isdecimal():
        return int(oid[1:])
    return None


def player_of(oid) -> Optional[int]:
    """The player (counted from 0) a player id names (``p2``: 1); None for any other id."""
    if isinstance(oid, str) and oid[:1] == "p" and oid[1:].isdecimal():
        return int(oid[1:]) - 1
    return None


def number_of(oid) -> Optional[int]:
    """The number a number id names (``n-3``: -3); None for any other id."""
    if isinstance(oid, str) and oid[:1] == "n":
        digits = oid[2:] if oid[1:2] == "-" else oid[1:]
        if digits.isdecimal():
            return int(oid[1:])
    return None


def is_numbered(oid) -> bool:
    """Is ``oid`` the id of a card, a player or a number (not a name)?"""
    return card_of(oid) is not None or player_of(oid) is not None or number_of(oid) is not None
