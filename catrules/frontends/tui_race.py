"""The full-screen table's races: the count-in, the clock, and pages that pause it.

:class:`RaceMixin` is part of :class:`catrules.frontends.tui.TableApp`.  A race's options come
after a count-in (``race in 3… 2… 1…``, :data:`~.race_clock.COUNT_IN` seconds): meanwhile the
table is on the screen, the options are not, and the keys answer nothing (the app's ``decision``
is set once the options are shown).  The race's clock
(:class:`~.race_clock.RaceClock`) starts once the options are drawn.  A page opened over the
table during the race (``h``, ``i``, ``?``) pauses the clock until it is closed; opened during
the count-in, the count-in starts again when it is closed.
"""

from __future__ import annotations

from typing import Optional

from rich.text import Text

from .race_clock import COUNT_IN, RaceClock, count_in_steps


class RaceMixin:
    """Races at the full-screen table (mixed into the app, which has ``decision``,
    ``prompt_text``, ``query_one``, ``_layout`` and the screen stack)."""

    #: Seconds of the count-in (a constant; a test may shorten it).
    count_in: float = COUNT_IN

    def race_init(self) -> None:
        self.race = RaceClock()
        self.waiting_options: Optional[tuple] = None     # (decision, head, cells, cursor) during a count-in
        self._count_timer = None

    def show_options(self, decision, head: Text, cells: list, cursor: int) -> None:
        """Show the decision's options: in a race after the count-in, then start its clock."""
        self.race.stop()
        if decision.timed and self.count_in > 0:
            self.waiting_options = (decision, head, cells, cursor)
            self.decision = None
            self._count(decision, 0)
        else:
            self._put_options(head, cells, cursor, decision.timed)

    def _count(self, decision, step: int) -> None:
        if self.waiting_options is None or self.waiting_options[0] is not decision:
            return                  # another decision meanwhile
        steps = count_in_steps(self.count_in)
        head = self.waiting_options[1]
        if self.stop_with is not None:          # q or Ctrl-C during the count-in
            self.waiting_options = None
            self.seat.answers.put(self.stop_with)
            return
        if step >= len(steps) - 1:
            _d, head, cells, cursor = self.waiting_options
            self.waiting_options = None
            self.decision = decision
            self._put_options(head, cells, cursor, True)
            return
        text, wait = steps[step]
        shown = Text("race in ", style="bold yellow")
        shown.append(" ".join(s for s, _w in steps[:step + 1]) + "…", style="bold yellow")
        shown.append("  ")
        shown.append_text(head)
        self._set_prompt(shown)
        self.query_one("#options").set([], 0)
        self._layout()
        self._count_timer = self.set_timer(wait, lambda: self._count(decision, step + 1))

    def _set_prompt(self, text: Text) -> None:
        self.prompt_text = text
        self.query_one("#prompt").update(text)

    def _put_options(self, head: Text, cells: list, cursor: int, timed: bool) -> None:
        self._set_prompt(head)
        self.query_one("#options").set(cells, cursor)
        self._layout()
        if timed:
            self.call_after_refresh(self._race_start)

    def _race_start(self) -> None:
        # the options are on the screen: the race's clock starts now (paused if a page is open)
        self.race.start()
        if len(self.screen_stack) > 1:
            self.race.pause()

    def race_time_taken(self) -> float:
        """The time counted for the race just answered (and its clock stopped)."""
        t = self.race.elapsed()
        self.race.stop()
        return t

    def counting_in(self) -> bool:
        return self.waiting_options is not None

    def open_over(self, screen) -> None:
        """Open a page over the table; during a race its clock stops while the page is open."""
        counting = self.waiting_options is not None
        decision = self.waiting_options[0] if counting else None
        if counting and self._count_timer is not None:
            self._count_timer.stop()
        self.race.pause()

        def back(_result) -> None:
            self.race.resume()
            if counting:
                self._count(decision, 0)
        self.push_screen(screen, back)
