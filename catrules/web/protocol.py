"""The messages between a page and the server: what a seat is sent, and checking what it sends.

A page sends JSON objects (``type``: ``hello`` with its token, ``choose`` with the decision
it answers (``ask``), the option and for a race the reaction time it measured, ``log``);
:func:`read_message` refuses anything else with a message in plain words.  The server
sends ``state`` (the seat's view and the events it may see, already filtered), ``log``
and ``error``.  Nothing here touches a game's state: :mod:`catrules.web.tables` builds a
message's content from its player's view and filtered events only.
"""

from __future__ import annotations

import math
from typing import Optional

from ..frontends.painter import Painter
from ..play.strict_json import BadJSON, read_json

#: The largest message a page may send, in characters.
MESSAGE_LIMIT = 4096
#: Reaction times a page may report for a race, in seconds: faster than 0.1 s a person
#: anticipates rather than reacts; slower than a minute is counted as a minute.
TIME_RANGE = (0.1, 60.0)
#: How many recent events a page gets when it (re)connects.
RECENT = 80


class Refused(ValueError):
    """A message from a page that is refused (it changes nothing); the text says why."""


def read_message(text) -> dict:
    """A page's message, checked: raises :class:`Refused` for anything malformed."""
    if not isinstance(text, str):
        raise Refused("messages are JSON text")
    if len(text) > MESSAGE_LIMIT:
        raise Refused(f"the message is too long (more than {MESSAGE_LIMIT} characters)")
    try:
        msg = read_json(text)
    except BadJSON:
        raise Refused("the message is not valid JSON") from None
    if not isinstance(msg, dict):
        raise Refused("a message is a JSON object with a \"type\"")
    kind = msg.get("type")
    if kind == "hello":
        if not isinstance(msg.get("token"), str) or not 0 < len(msg["token"]) <= 100:
            raise Refused("hello needs the token of your link")
    elif kind == "choose":
        if not _int(msg.get("ask")):
            raise Refused("choose needs \"ask\": the number of the decision you answer")
        if not isinstance(msg.get("option"), str) or not 0 < len(msg["option"]) <= 200:
            raise Refused("choose needs \"option\": the id of one of your options")
        if "player" in msg and not _int(msg["player"]):
            raise Refused("\"player\" is the number of a player")
        t = msg.get("time")
        if t is not None and (not isinstance(t, (int, float)) or isinstance(t, bool) or not math.isfinite(t)):
            raise Refused("\"time\" is your reaction time in seconds")
    elif kind not in ("log",):
        raise Refused(f"unknown message type {str(kind)[:40]!r}: hello, choose or log")
    return msg


def race_time(t) -> Optional[float]:
    """A page's reaction time, bounded (a page cannot claim to be faster than people are)."""
    if t is None:
        return None
    low, high = TIME_RANGE
    return round(min(high, max(low, float(t))), 4)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -1 < v < 1 << 40


def painter(game, seat: Optional[int], names: list) -> Painter:
    """How events are put in words for ``seat`` (one line per event, a tally on one line)."""
    p = Painter(game, me=seat, names=names)
    p.short_tally = True
    return p


def event_item(p: Painter, n: int, ev: dict) -> Optional[dict]:
    """An event (already filtered for the viewer) as the page shows it, or ``None``."""
    line = p.event(ev)
    if line is None:
        return None
    return {"n": n, "t": ev.get("t"), "text": line.plain, "ev": ev}


def state_message(table_info: dict, view: dict, items: list) -> dict:
    """The ``state`` message of a seat: who it is, its view, its new events."""
    return {"type": "state", **table_info, "view": view, "events": items}


def error(message: str) -> dict:
    return {"type": "error", "message": message}
