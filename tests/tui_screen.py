"""Helpers for the full-screen (Textual) tests: the screen as text, and waiting for a state."""

import io

from rich.console import Console


def screen_text(app) -> str:
    """The screen as plain text, as a person would read it."""
    w, h = app.size
    con = Console(width=w, height=h, file=io.StringIO(), record=True, color_system=None, legacy_windows=False)
    con.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return con.export_text()


async def until(pilot, test, tries=400, press_on=None):
    """Wait until ``test()``, checking every 0.02 s.  ``press_on``: a screen class on which to press
    Enter while waiting (a screen that waits for a key, such as a round's end)."""
    for _ in range(tries):
        await pilot.pause(0.02)
        if test():
            return
        if press_on is not None and isinstance(pilot.app.screen, press_on):
            await pilot.press("enter")
    raise AssertionError("the app never got there")
