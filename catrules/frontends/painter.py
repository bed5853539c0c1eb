"""Painting for text front ends: cards, players, counters and events as rich text.

:class:`Painter` turns what a view or an event holds into :class:`rich.text.Text` for one
viewer (``me``; ``None`` for a spectator): ``you`` for the viewer, a seat's name for the
others, a zone named from the viewer's side (``your hand``).  It knows no game: each card is
coloured after the symbol value of its first attribute; a value that names a colour (``red``,
``orange``, ``purple``...) gets that colour, any other value one from a fixed palette.
The line UI (:mod:`.terminal`) and the full-screen UI (:mod:`.tui`) both draw with it.
"""

from __future__ import annotations

import re
from typing import Iterable, Optional

from rich.color import Color, ColorParseError
from rich.text import Text

from ..runtime.option_ids import NONE, card_of, number_of, player_of
from .pieces import Flow, clean, face, flow_text, nice, ordinal, plain
from .tables import score_notes, tally_table, tally_title

#: Symbol values that name a colour, and the rich colour drawn for them (when the
#: colour's own name is not a good terminal colour, or not a rich name at all).
#: Any other colour name rich knows (``red``, ``blue``, ``yellow``, ``purple``...) is used as it is.
NAMED_COLOURS = {
    "white": "bright_white", "black": "black on grey70", "orange": "dark_orange", "pink": "hot_pink",
    "grey": "grey62", "gray": "grey62", "brown": "orange4", "gold": "gold1", "silver": "grey82",
}
#: Colours for symbol values that are not colour names, in order of first appearance.
PALETTE = ["cyan", "magenta", "yellow", "turquoise2", "orchid", "medium_purple1", "light_salmon1",
           "aquamarine1", "khaki1", "plum1", "wheat1", "light_goldenrod1"]

_CARD_META = ("id", "type", "label", "face", "text")     # not attributes of the card


# ---------------------------------------------------------------- painting

class Painter:
    """Turns cards, players and events into rich text, for one viewer (``None``: a spectator)."""

    def __init__(self, game=None, me: Optional[int] = None, names: Optional[list] = None):
        self.game = game
        self.me = me
        self.names = [plain(x) if isinstance(x, str) else x for x in names or []]
        self.n = len(self.names)       # number of players, once known
        self.width: Optional[int] = None   # the console's width, to break lines between cards
        self.short_tally = False       # a tally as one line (a narrow area), not a table
        self.cards: dict = {}          # id -> card dict
        self.styles: dict = {}         # symbol value -> style
        self.homes: dict = {}          # a counter -> (its card, the zone it lay in): see fresh()
        self._next = 0
        self.zone_names = _zone_names(game)     # a zone's name in events -> its ZoneName
        if game is not None:
            for i in range(game.card_count):
                self.learn(game.card(i))

    # cards ---------------------------------------------------------------
    def learn(self, card: dict) -> None:
        cid = card.get("id")
        if cid is not None and cid not in self.cards:
            self.cards[cid] = card
        key = self._key(card)
        if key is not None and key not in self.styles:
            self.styles[key] = self._style_for(key)

    def _style_for(self, value: str) -> str:
        low = value.lower()
        if low in NAMED_COLOURS:
            return NAMED_COLOURS[low]
        try:
            Color.parse(low)
            return low
        except ColorParseError:
            pass
        style = PALETTE[self._next % len(PALETTE)]
        self._next += 1
        return style

    @staticmethod
    def _key(card: dict) -> Optional[str]:
        for k, v in card.items():
            if k in _CARD_META:
                continue
            return v if isinstance(v, str) else None
        return None

    def card_dict(self, cid) -> Optional[dict]:
        c = self.cards.get(cid)
        if c is None and self.game is not None:
            try:
                c = self.game.card(cid)
            except (IndexError, KeyError, TypeError):
                return None
            self.learn(c)
        return c

    def card(self, card) -> Text:
        """One card (a card dict or a card id) as coloured text."""
        if isinstance(card, dict):
            if card.get("hidden"):
                return Text("a hidden card", style="dim")
            self.learn(card)
            c = card
        else:
            c = self.card_dict(card)
            if c is None:
                return Text(f"card {card}")
        style = self.styles.get(self._key(c), "") if self._key(c) is not None else ""
        return Text(face(c), style=("bold " + style).strip())

    def card_text(self, card: dict) -> Text:
        """A card in full, for inspection: its ``text`` if the game gives one, else its attributes."""
        out = self.card(card)
        full = card.get("text")
        if full:
            out.append("\n\n")
            out.append(str(full))
            return out
        for k, v in card.items():
            if k in _CARD_META or v is None or v == []:
                continue
            out.append(f"\n{self.sym(k)}: ", style="dim")
            out.append(", ".join(self.sym(x) for x in v) if isinstance(v, list) else self.sym(v))
        return out

    def sym(self, value) -> str:
        """A symbol value (or a zone's or counter's name) as people read it."""
        names = getattr(self.game, "display_names", None) or {}
        if isinstance(value, str):
            return str(names.get(value) or nice(value))
        return str(value)

    def parts(self, parts: list) -> Text:
        """Pieces of a sentence (``announce`` parts, ``prompt_parts``): texts, players and cards."""
        out = Text()
        for piece in parts:
            if isinstance(piece, dict) and "player" in piece:
                # the game's sentences speak of players in the third person ("{p} wins"):
                # the viewer reads "player 2 (you) wins", never "you wins"
                pl = piece["player"]
                out.append(f"player {pl + 1} (you)" if pl == self.me and pl is not None
                           else self.player(pl, short=True))
            elif isinstance(piece, dict) and isinstance(piece.get("card"), (dict, int)):
                out.append_text(self.card(piece["card"]))
            elif isinstance(piece, dict) and "card" in piece:      # a card this player cannot see
                out.append("a hidden card", style="dim")
            else:
                out.append(str(piece))
        return out

    def card_pieces(self, cards: Iterable, limit: Optional[int] = None, compress: bool = False) -> list:
        """Cards as separate pieces of text; ``limit`` keeps the last ones (the top of a pile),
        with a first dim piece saying how many there are; ``compress`` counts the cards of each
        kind (``2× tuna · milk``, in the order each kind first comes)."""
        cards = list(cards)
        items: list = []
        kinds: dict = {}
        for c in cards:
            label = self.card(c)
            if compress and label.plain in kinds:
                kinds[label.plain][1] += 1
            else:
                items.append([label, 1])
                kinds[label.plain] = items[-1]
        head = []
        if limit is not None and len(items) > limit:
            head = [Text(f"{len(cards)} cards, up to the top:", style="dim")]   # the top card last
            items = items[-limit:]
        pieces = []
        for label, n in items:
            piece = Text(f"{n}× " if n > 1 else "")
            piece.append_text(label)
            pieces.append(piece)
        return head + pieces

    def cards_text(self, cards: Iterable, limit: Optional[int] = None, compress: bool = False,
                   width: Optional[int] = None, start: int = 0) -> Text:
        """Cards separated by dots.  With ``width``, lines break between cards (never inside
        one); ``start`` is how much of the first line is already used."""
        return flow_text(self.card_pieces(cards, limit, compress), width, start)

    def cards_flow(self, cards: Iterable, limit: Optional[int] = None, compress: bool = False) -> "Flow":
        """Cards that break between cards at whatever width they are drawn (a table cell)."""
        return Flow(self.card_pieces(cards, limit, compress))

    def option(self, opt) -> Text:
        if getattr(opt, "kind", None) == "card" and isinstance(getattr(opt, "value", None), int):
            return self.card(opt.value)
        if getattr(opt, "kind", None) == "player" and isinstance(getattr(opt, "value", None), int):
            return Text(self.player(opt.value))
        return Text(str(opt.label))

    def option_id(self, oid: str) -> Text:
        """An option id from an event (``c12``, ``p2``, ``n3``, ``yes``...) as text."""
        if oid is None:
            return Text("a hidden choice", style="dim")
        if isinstance(oid, list):               # several cards chosen at once
            out = Text()
            for i, x in enumerate(oid):
                if i:
                    out.append(", ")
                out.append_text(self.option_id(x))
            return out
        if oid == NONE:
            return Text("nothing", style="dim")
        if card_of(oid) is not None:
            return self.card(card_of(oid))
        if player_of(oid) is not None:
            return Text(self.player(player_of(oid)))
        if number_of(oid) is not None:
            return Text(str(number_of(oid)))
        return Text(oid)

    # players and zones ---------------------------------------------------
    def player(self, p, short: bool = False) -> str:
        if p is None:
            return "nobody"
        if p == self.me:
            return "you"
        name = self.names[p] if 0 <= p < len(self.names) and self.names[p] else ""
        if short or not name:
            return f"player {p + 1}"
        return f"player {p + 1} ({name})"

    def seat_name(self, p: int, numbered: bool = False) -> str:
        """A short name for a table row: ``you``, the seat's name, or ``player N``; ``numbered``:
        a seat's name after its number (``3 greedy bot``), for rows that show no number."""
        if p == self.me:
            return "you"
        if 0 <= p < len(self.names) and self.names[p]:
            return f"{p + 1} {self.names[p]}" if numbered else str(self.names[p])
        return f"player {p + 1}"

    def fresh(self, key, value, view: dict) -> bool:
        """Whether a counter's value is news: a counter naming a card (a trick's lead card) is old
        news once the card has moved on from the zone it lay in when the counter took it
        (seen over the views this painter draws).  Any other value is always news."""
        if not isinstance(value, dict) or "id" not in value or value.get("hidden"):
            return True
        where = None
        for slot, z in enumerate(view.get("zones", [])):
            cards = [*(z.get("cards") or []), *(z.get("cells") or []),
                     *(c for line in z.get("lines") or [] for c in line)]
            if any(isinstance(c, dict) and c.get("id") == value["id"] for c in cards):
                where = slot
                break
        old = self.homes.get(key)
        if old is None or old[0] != value["id"]:
            self.homes[key] = (value["id"], where)
            return True
        return old[1] == where

    def slot(self, name: str) -> str:
        """A zone as events name it (``pile of player 2``), from the viewer's side."""
        zn = self._owned(name)
        if zn and self.me is not None and zn.owner == self.me:
            return f"your {nice(zn.zone)}"
        return nice(name or "?")

    def _owned(self, name):
        """The :class:`ZoneName` of a player's zone as events name it; None for a shared zone
        or a name this game does not have."""
        zn = self.zone_names.get(name) if isinstance(name, str) else None
        return zn if zn is not None and zn.owner is not None else None

    def value(self, v) -> Text:
        """A counter's value from a view."""
        if v is None:
            return Text("—", style="dim")
        if isinstance(v, dict):
            if "player" in v and len(v) == 1:
                return Text(self.player(v["player"], short=True))
            if v.get("hidden"):
                return Text("hidden", style="dim")
            if "ref" in v:                          # a line or a place
                return Text(str(v.get("label", v["ref"])))
            if "label" in v:
                return self.card(v)
        if isinstance(v, bool):
            return Text("yes" if v else "no")
        if isinstance(v, list):
            out = Text()
            for i, x in enumerate(v):
                if i:
                    out.append(", ")
                out.append_text(self.value(x))
            return out
        return Text(self.sym(v))

    # events --------------------------------------------------------------
    def events(self, evs: list) -> list:
        """Events as lines; moves of several players' cards of one zone to one place make one line."""
        evs = [clean(ev) for ev in evs]     # events may come from a log someone sent
        out = []
        i = 0
        while i < len(evs):
            ev = evs[i]
            m = self._owned(ev.get("from")) if ev.get("t") == "move" else None
            j = i + 1
            if ev.get("t") == "move":
                while j < len(evs) and evs[j].get("t") == "move" and evs[j].get("from") == ev.get("from") \
                        and evs[j].get("to") == ev.get("to"):
                    j += 1
                if j - i > 1:
                    cards = None if any(e.get("cards") is None for e in evs[i:j]) else \
                        [c for e in evs[i:j] for c in e["cards"]]
                    counts = [len(e["cards"]) if e.get("cards") is not None else e.get("count", 0)
                              for e in evs[i:j]]
                    merged = {**ev, "cards": cards, "count": None if None in counts else sum(counts)}
                    out.append(self.event(merged))
                    i = j
                    continue
            md = self._owned(ev.get("to")) if ev.get("t") == "move" else None
            if md and ev.get("cards") is None:
                # the same number of hidden cards from one place to each of several players
                owners = [md.owner]
                while j < len(evs):
                    e2 = evs[j]
                    m2 = self._owned(e2.get("to")) if e2.get("t") == "move" else None
                    if not (m2 and m2.zone == md.zone and e2.get("from") == ev.get("from")
                            and e2.get("cards") is None and e2.get("count") == ev.get("count")
                            and m2.owner not in owners):
                        break
                    owners.append(m2.owner)
                    j += 1
                if j - i > 1:
                    k = ev.get("count", 0)
                    line = Text(f"{self.slot(ev.get('from', ''))} → {self._players_of(md.zone, owners)}  ")
                    line.append("cards each" if k is None else f"{k} card{'s' if k != 1 else ''} each",
                                style="dim")
                    out.append(line)
                    i = j
                    continue
            if m:
                owners = [m.owner]
                while j < len(evs):
                    e2 = evs[j]
                    m2 = self._owned(e2.get("from")) if e2.get("t") == "move" else None
                    if not (m2 and m2.zone == m.zone and e2.get("to") == ev.get("to")
                            and m2.owner not in owners):
                        break
                    owners.append(m2.owner)
                    j += 1
            if j - i > 1:
                out.append(self._merged(evs[i:j], m.zone, owners))
            else:
                line = self.event(ev)
                if line is not None:
                    out.append(line)
            i = j
        return out

    def _players_of(self, base: str, owners: list) -> str:
        """Zone ``base`` of the players ``owners`` (counted from 0)."""
        if self.n and sorted(owners) == list(range(self.n)):
            return f"{nice(base)} of everyone"
        return f"{nice(base)} of players {', '.join(str(o + 1) for o in owners)}"

    def _merged(self, evs: list, base: str, owners: list) -> Text:
        src = self._players_of(base, owners)
        out = Text(f"{src} → {self.slot(evs[0].get('to', ''))}  ")
        hidden = 0
        shown = []
        for ev in evs:
            if ev.get("cards") is None:
                hidden += ev.get("count") or 0
            else:
                shown.extend(ev["cards"])
        if shown:
            out.append_text(self.cards_text(shown, width=self._ew(), start=len(out.plain)))
        if hidden:
            if shown:
                out.append(" · ", style="dim")
            out.append(f"{hidden} card{'s' if hidden != 1 else ''}", style="dim")
        return out

    def event(self, ev: dict) -> Optional[Text]:
        """One event (already filtered for the viewer) as a line, or ``None`` to leave it out."""
        t = ev.get("t")
        if t == "move":
            return self._move(ev)
        if t == "phase":
            return Text(f"— {nice(ev.get('name', ''))} —", style="dim")
        if t == "shuffle":
            return Text(f"{self.slot(ev.get('zone', ''))} shuffled", style="dim")
        if t in ("reveal", "race"):
            return self._together(ev)
        if t == "exchange":
            a, b = ev.get("zones", ["?", "?"])
            out = Text(f"{self.slot(a)} ⇄ {self.slot(b)}: ")
            if ev.get("cards"):
                out.append_text(self.cards_text(ev["cards"], width=self._ew(), start=len(out.plain)))
                out.append(" swapped")
            else:
                out.append("two cards swapped", style="dim")
            return out
        if t == "announce":
            if isinstance(ev.get("parts"), list):
                line = self.parts(ev["parts"])
                line.stylize("bold")
                return line
            return Text(str(ev.get("text", "")), style="bold")
        if t == "tally" and self.short_tally:
            line = Text(tally_title(ev) + ": ", style="bold")
            line.append(" · ".join(f"{self.seat_name(i, True)} {r.get('total')}"
                                   for i, r in enumerate(ev.get("totals", []))))
            return line
        if t == "tally":
            return tally_table(ev, self, score_notes(self.game) if self.game is not None else ())
        if t in ("end game", "end"):
            return Text("the game is over", style="bold") if t == "end" else None
        if t == "decision":
            return None          # what a choice did shows in the events that follow it
        if t == "counter":
            return self._counter(ev)
        return Text(str(ev), style="dim")

    def _counter(self, ev: dict) -> Text:
        """A counter that changed: ``first player: player 2``, ``score of you: 5``."""
        name = nice(ev.get("name", ""))
        if ev.get("owner") is not None:
            name += f" of {self.player(ev['owner'], short=True)}"
        elif ev.get("card") is not None:
            name += f" of {self.card(ev['card']).plain}"
        out = Text(f"{name}: ", style="dim")
        v = ev.get("value")
        kind = self.game.counter_kind(ev.get("name")) if self.game is not None else None
        if ev.get("hidden") and getattr(self.game, "counter_secret", lambda _n: False)(ev.get("name")):
            out.append("secret", style="dim")
        elif ev.get("hidden"):
            out.append("a card you cannot see", style="dim")
        elif kind == "card" and isinstance(v, int) and not isinstance(v, bool):
            out.append_text(self.card(v))
        elif kind == "player" and isinstance(v, int) and not isinstance(v, bool):
            out.append(self.player(v, short=True))
        elif isinstance(v, str) and re.fullmatch(r"(row|col):\d+:\d+", v):
            what, _slot, i = v.split(":")
            out.append(f"{'row' if what == 'row' else 'column'} {int(i) + 1}")
        else:
            out.append_text(self.value(v))
        return out

    def _move(self, ev: dict) -> Text:
        src, dst = ev.get("from", ""), ev.get("to", "")
        ms, md = self._owned(src), self._owned(dst)
        out = Text()
        if ms and md and ms.owner == md.owner:
            who = self.player(ms.owner, short=True)
            out.append(f"{who}: {nice(ms.zone)} → {nice(md.zone)}")
        else:
            out.append(f"{self.slot(src)} → {self.slot(dst)}")
        out.append("  ")
        if ev.get("cards") is None and ev.get("count", 0) is None:
            out.append("cards (how many is secret)", style="dim")
        elif ev.get("cards") is None:
            n = ev.get("count", 0)
            out.append(f"{n} card{'s' if n != 1 else ''}", style="dim")
            if ev.get("to_top") is not None:        # onto a `public top` pile: face up there
                out.append(", on top: ", style="dim")
                out.append_text(self.card(ev["to_top"]))
        else:
            out.append_text(self.cards_text(ev["cards"], width=self._ew(), start=len(out.plain)))
        return out

    def _ew(self) -> Optional[int]:
        return self.width - 2 if self.width else None       # an event line is indented by a bullet

    def _together(self, ev: dict) -> Optional[Text]:
        race = ev.get("t") == "race"
        out = Text("race: " if race else "reveal: ", style="bold")
        times = ev.get("times") or []
        choices = ev.get("choices", [])
        if not race:            # the choices this viewer cannot see yet show in the moves after it
            choices = [ch for ch in choices if ch.get("option") is not None]
            if not choices:
                return None
        for i, ch in enumerate(choices):
            if i:
                out.append(" · ", style="dim")
            if race:
                out.append(f"{ordinal(i + 1)} ")
            out.append(self.player(ch.get("player"), short=True) + " ")
            out.append_text(self.option_id(ch.get("option")))
            if race and i < len(times):
                out.append(f" {times[i]:.2f}s", style="dim")
        return out


def _zone_names(game) -> dict:
    """A game's zone names as events give them -> their :class:`ZoneName` (the names of the
    largest table hold those of every smaller one); empty without a compiled game."""
    prog = getattr(game, "program", None)
    if prog is None:
        return {}
    lay = prog.layout(prog.max_players)
    return dict(zip(lay.slot_name, lay.slot_zone_name))
