"""The keys of the full-screen table (:class:`~catrules.frontends.tui.TableApp`): a number, the
arrows and Enter choose an option; ``q`` and Ctrl-C save and quit, ``?`` shows the keys, ``r``
how to play, ``h`` every event so far and ``i`` inspects the cards in view.

:class:`KeysMixin` is mixed into the app, which has the seat, the decision, ``_answer`` and
``open_over``.  Nothing here knows a game.
"""

from __future__ import annotations

from typing import Optional

from rich.text import Text

from .pieces import bullets
from .terminal import Quit
from .tui_widgets import HELP, InspectScreen, Options, TextScreen, how_to_play


class KeysMixin:
    """What the table's keys do (see the module's documentation)."""

    def on_key(self, event) -> None:
        if self.decision is None or len(self.screen_stack) > 1:
            return
        n = len(self.decision.options)
        key = event.key
        opts = self.query_one("#options", Options)
        if len(key) == 1 and key in "0123456789":      # not "²", a digit to str.isdigit only
            event.stop()
            self.typed = (self.typed + key).lstrip("0")
            if not self.typed:
                return
            k = int(self.typed)
            if not 1 <= k <= n:
                self.typed = key if 1 <= int(key) <= n else ""
                k = int(self.typed) if self.typed else 0
            self.bad_digit = not k          # then Enter plays nothing, not the highlighted option
            if not k:
                self.notify(f"There is no option {key}: type a number from 1 to {n}.", severity="warning")
            if k:
                opts.cursor = k - 1
                opts.refresh()
            # in a race a key answers at once when no longer number starts with it
            if k and self.decision.timed and k * 10 > n:
                self._answer(k - 1)
        elif key in ("left", "right", "up", "down"):
            event.stop()
            self.typed, self.bad_digit = "", False
            opts.move(key)
        elif key == "enter":
            event.stop()
            if self.bad_digit:
                self.bad_digit = False
                self.notify(f"Nothing played: type a number from 1 to {n}, or Enter again for the highlighted option.")
                return
            self._answer(opts.cursor)

    def action_stop(self, why: str) -> None:
        exc = KeyboardInterrupt() if why == "interrupt" else Quit()
        if self.seat is not None and self.seat.final is not None or self.outcome is not None:
            self.exit()
            return
        self.stop_with = exc
        if self.decision is not None:
            self.decision = None
            self.seat.answers.put(exc)
        else:
            self.notify("saving at your next decision…")

    def action_help(self) -> None:
        self.open_over(TextScreen("keys", Text(HELP)))

    def action_how_to_play(self) -> None:
        game = getattr(self.match, "game", None)
        self.open_over(TextScreen(f"how to play {getattr(game, 'title', '')} (↑↓ PgUp PgDn to scroll)",
                                  how_to_play(getattr(game, "how_to_play", [])), top=True))

    def action_history(self) -> None:
        seat = self.seat
        if seat is None or seat.painter is None:
            return
        p = seat.painter
        lines, done = [], 0
        for at, k in seat.marks + [(len(seat.events), None)]:
            lines.extend(p.events(seat.events[done:at]))
            if k is not None:
                lines.append(Text(f"— your decision {k} —", style="bold cyan"))
            done = at
        self.open_over(TextScreen("everything so far (↑↓ PgUp PgDn to scroll)",
                                    bullets(lines) if lines else Text("nothing yet", style="dim")))

    def action_inspect(self) -> None:
        seat = self.seat
        if seat is None or seat.painter is None:
            return
        p, view = seat.painter, seat.view
        cards, seen = [], set()

        def add(where, c):
            # alike cards in one place (60 cubes of a supply) are listed once
            key = (where, tuple((k, str(v)) for k, v in c.items() if k != "id")) if isinstance(c, dict) else None
            if key and not c.get("hidden") and c.get("id") not in seen and key not in seen:
                seen.update((c.get("id"), key))
                cards.append((where, c))
        start = 0
        if self.decision is not None:
            opts = self.decision.options
            cur = self.query_one("#options", Options).cursor
            for i, o in enumerate(opts):
                if o.kind == "card" and isinstance(o.value, int):
                    if i == cur:
                        start = len(cards)
                    add(f"option {i + 1}", p.card_dict(o.value))
        for z in sorted(view.get("zones", []), key=lambda z: (z.get("owner") != p.me, z.get("owner") is not None)):
            where = p.sym(z["zone"]) if z.get("owner") is None else \
                f"{p.seat_name(z['owner'], True)}: {p.sym(z['zone'])}"
            for c in _cards(z) or []:
                add(where, c)
        self.open_over(InspectScreen(p, cards, start))


def _cards(z: dict) -> Optional[list]:
    """The cards of a zone of a view, whatever its shape (``None``: the player cannot see them)."""
    if z.get("cells") is not None:
        return [c for c in z["cells"] if c is not None]
    if z.get("lines") is not None:
        return [c for line in z["lines"] for c in line]
    return z.get("cards")
