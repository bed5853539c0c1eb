"""The labels of a menu's options said with values (language 4: ``"take {c}":``).

An option's id stays the name as written (logs, saves, scripted seats, ``default`` and bots use
it); its label, what the deciding player reads, is the name with its values as they are now and
as that player may see them (a card they cannot see is "a hidden card").  The compiler keeps each
such name's function in ``prog.menu_labels``, keyed by the menu's answer variable and the name.
"""

from __future__ import annotations

from .errors import _RUNTIME_ERRORS
from .said import seen_text


def fill_labels(st, p, pl: int, options: list) -> None:
    """Give the options of menu decision ``p`` for player ``pl`` their labels with values."""
    fns = st.prog.menu_labels
    V = st.frames[-1].vars if st.frames else {}
    for o in options:
        fn = fns.get((p.var, o.value))
        if fn is None:
            continue
        try:
            o.label = seen_text(st, fn(st, V), pl)
        except _RUNTIME_ERRORS:
            pass                    # the name as written: what the choice is, without its values
