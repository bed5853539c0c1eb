"""The messages between a page and the server: what a seat is sent, and checking what it sends.

A page sends JSON objects (``type``: ``hello`` with its token, and ``"pings": true`` if it
answers pings; ``choose`` with the decision it answers (``ask``) and the option; ``log``;
``pong`` with the number of the ``ping`` it answers; ``continue`` once it has read a round's end,
with the ``ask`` it was sent, :mod:`catrules.web.pauses`); :func:`read_message` refuses anything
else with a message in plain words.  A ``choose`` may still carry the ``time`` older pages
measured: it is read (a number, or refused) but never believed, as a race's time is measured
by the server (:class:`catrules.web.links.Clock`).  The server sends ``state`` (the seat's
view and the events it may see, already filtered), ``log``, ``error`` and ``ping``.  Nothing here touches a game's state: :mod:`catrules.web.tables` builds a
message's content from its player's view and filtered events only.

What a page may be sent is an allow-list (:data:`SENT`, completed with the game's own names by
:func:`allowed`): every key of every object in a message, and what its value may hold.  A message
with anything else (a new field nobody listed, an object where plain data belongs) is refused by
:func:`check`, so a future field cannot carry a secret out by accident.
"""

from __future__ import annotations

import math
from typing import Optional

from ..frontends.endings import last_ending
from ..frontends.painter import Painter
from ..frontends.tables import tally_title
from ..play.strict_json import BadJSON, read_json

#: The largest message a page may send, in characters.
MESSAGE_LIMIT = 4096
#: The bounds of a race time as the server measured it, in seconds: as for bots, none is under
#: 0.1 s (faster than a person reacts); slower than a minute is counted as a minute.
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
        if not isinstance(msg.get("pings", False), bool):
            raise Refused("\"pings\" is true (this page answers pings) or false")
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
    elif kind == "continue":
        if "ask" in msg and not _int(msg["ask"]):
            raise Refused("\"ask\" is the number of the decision the table waits to ask")
    elif kind == "pong":
        if not _int(msg.get("n")):
            raise Refused("pong needs \"n\": the number of the ping it answers")
    elif kind not in ("log",):
        raise Refused(f"unknown message type {str(kind)[:40]!r}: hello, choose, continue, log or pong")
    return msg


def race_time(t) -> Optional[float]:
    """A race time the server measured, bounded as bots' are (:data:`TIME_RANGE`)."""
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


def state_message(table_info: dict, view: dict, items: list, allow: dict, ending: Optional[dict] = None) -> dict:
    """The ``state`` message of a seat: who it is, its view, its new events, and how the latest
    round's or the game's scores came about (``ending``, if any); checked against the
    allow-list ``allow`` (raises :class:`Unlisted`)."""
    msg = {"type": "state", **table_info, "view": view, "events": items}
    if ending is not None:
        msg["ending"] = ending
    return check(msg, "state", allow)


def ending_of(p: Painter, numbered: list) -> Optional[dict]:
    """How the latest round's or the game's scores came about, as the page shows it: the events
    of :func:`catrules.frontends.endings.last_ending` as items, and a title."""
    ending = last_ending(numbered, game=p.game)
    if ending is None:
        return None
    title = "How the game ended" if ending["kind"] == "end" else tally_title(ending["tally"])
    items = [x for x in (event_item(p, n, ev) for n, ev in ending["events"]) if x is not None]
    return {"kind": ending["kind"], "title": title, "items": items}


def error(message: str) -> dict:
    return check({"type": "error", "message": message}, "error", SENT)


def ping(n: int) -> dict:
    """The server's ping number ``n``: a page that asked for pings answers ``{"type": "pong", "n": n}``."""
    return check({"type": "ping", "n": n}, "ping", SENT)


# ------------------------------------------------------------ the allow-list

class Unlisted(RuntimeError):
    """A message for a page holds something that is not on the allow-list: it is not sent."""


#: The keys an engine event may have (as :mod:`catrules.play.views` filters it), and what they hold.
_EVENT = {"t": None, "actor": None, "line": None, "position": None, "count": None, "name": None,
          "owner": None, "zone": None, "zones": None, "from": None, "to": None, "player": None,
          "kind": None, "option": None, "time": None, "public": None, "times": None, "number": None,
          "title": None, "text": None, "cards": "value", "card": "value", "value": "value",
          "choices": "choice", "parts": "part", "scores": "score", "totals": "score",
          "from_top": "value", "to_top": "value",     # a `public top` pile's top card after a move
          "hidden": None}                             # a value the player may not see (a secret counter)

#: What a page may be sent: for each kind of object, its keys and what each value holds (``None``:
#: plain data, no object in it; a name: objects of that kind, alone or in lists at any depth).
#: The kinds ``card``, ``score`` and ``counters`` take the game's own names too (:func:`allowed`).
SENT: dict = {
    "state": {"type": None, "table": None, "seat": None, "names": None, "kinds": None, "broken": None,
              "title": None, "ask": None, "score_items": None, "seed_chosen": None, "how_to_play": None,
              "view": "view",
              "events": "item", "ending": "ending", "pause": "pause"},
    # a table waiting after a round's end (catrules.web.pauses): who it waits for, seconds left
    "pause": {"waiting": None, "seconds": None},
    "error": {"type": None, "message": None},
    "ping": {"type": None, "n": None},
    "log": {"type": None, "lines": None},             # the lines are text, each checked as a log line
    "view": {"game": None, "you": None, "players": None, "options": None, "zones": "zone",
             "counters": "counters", "finished": None, "decisions": "decision", "waiting_for": None,
             "last_line": None, "my_choice": None, "answered": None, "scores": "score", "winners": None,
             "running": "score", "running_note": None},
    # how the latest round's or the game's scores came about (catrules.frontends.endings)
    "ending": {"kind": None, "title": None, "items": "item"},
    "zone": {"zone": None, "owner": None, "visibility": None, "shape": None, "count": None,
             "line_lengths": None, "rows": None, "cols": None, "cards": "card", "lines": "card", "cells": "card",
             "top": "card"},
    "decision": {"player": None, "kind": None, "prompt": None, "line": None, "timed": None, "default": None,
                 "options": "option"},
    "option": {"id": None, "kind": None, "label": None},
    "item": {"n": None, "t": None, "text": None, "ev": "event"},
    "event": _EVENT,
    "choice": {"player": None, "option": None, "from": None},
    "part": {"card": "value", "player": None, "zone": None},
    "player": {"player": None},
    "place": {"ref": None, "label": None, "zone": None, "line": None, "index": None},
    "card": {"id": None, "type": None, "label": None, "face": None, "text": None, "hidden": None},
    "score": {"total": None},
    "counters": {},
    # a log's lines (:mod:`catrules.play.logs`)
    "header": {"type": None, "catrules": None, "language": None, "game": None, "title": None, "players": None,
               "options": None, "seed": None, "seats": None, "viewer": None},
    "event line": {**{k: v for k, v in _EVENT.items() if k != "t"}, "type": None, "n": None, "event": None},
    "result": {"type": None, "scores": "score", "winners": None, "decisions": None, "digest": None},
}


def allowed(game) -> dict:
    """The allow-list for the messages of one game: :data:`SENT` with the game's card
    attributes, score items and counters."""
    prog = game.program
    out = dict(SENT)
    out["card"] = {**SENT["card"], **{k: None for d in prog.card_dicts for k in d}}
    out["score"] = {**SENT["score"], **{name: None for name, _counted in game.score_items}}
    out["counters"] = {name: "value" for name, _per, _i in prog.counters}
    return out


def check(obj, kind: Optional[str], allow: dict, where: str = "") -> dict:
    """``obj`` if it holds only what the allow-list ``allow`` lets a page have as a ``kind``;
    else raises :class:`Unlisted` naming the first thing that is not on it."""
    if isinstance(obj, list):
        for i, x in enumerate(obj):
            check(x, kind, allow, f"{where}[{i}]")
        return obj
    if not isinstance(obj, dict):
        return obj
    if kind == "value":
        kind = _value_kind(obj)
    if kind is None:
        raise Unlisted(f"{where or 'the message'}: an object where a page is sent plain data only")
    if kind == "map":                       # a counter of each card: card id -> value
        for k, v in obj.items():
            check(v, "value", allow, f"{where}.{k}")
        return obj
    keys = allow[kind]
    for k, v in obj.items():
        if k not in keys:
            raise Unlisted(f"{where or kind}: {str(k)[:40]!r} is not on the list of what a page may be sent "
                           f"(in a {kind})")
        check(v, keys[k], allow, f"{where}.{k}" if where else k)
    return obj


def _value_kind(obj: dict) -> str:
    """The kind of an object a counter or an event's value holds (as :mod:`catrules.runtime.views` shows it)."""
    if obj and all(isinstance(k, str) and k.isdigit() for k in obj):
        return "map"
    if "ref" in obj:
        return "place"
    if set(obj) == {"player"}:
        return "player"
    return "card"


def check_log_line(line: str, allow: dict) -> str:
    """A log line (JSON text) a page may be sent, checked like a message."""
    obj = read_json(line)
    kind = {"header": "header", "event": "event line", "result": "result"}.get(obj.get("type"))
    if kind is None:
        raise Unlisted(f"a log line of unknown type {str(obj.get('type'))[:40]!r}")
    check(obj, kind, allow, kind)
    return line
