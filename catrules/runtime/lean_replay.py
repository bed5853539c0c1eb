"""The replay of an error met on the bot fast path's lean blocks, on the instrumented ones.

The lean compilation (:meth:`catrules.compile.program.Program.lean_codes`) leaves out the
bookkeeping that names game-file lines; games are deterministic, so the same answers played
again on the instrumented blocks meet the same error with its own words and line
(:meth:`catrules.runtime.state.State.run` raises that one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from ..errors import RulesError

if TYPE_CHECKING:
    from .state import State


def replayed(st: State, auto, start, answered: int) -> Optional[RulesError]:
    """The error the instrumented blocks raise replaying what the lean blocks ran (see
    ``State.run``): from ``start`` (a clone as the run began, with ``answered`` answers), or
    from a new game as ``st.origin`` says.  None if the replay goes another way."""
    if start is None and st.origin is None:
        return None                 # an imagined game: the lean error stands
    try:
        if start is None:
            players, options, seed, ask_forced = st.origin
            start = type(st).new(st.prog, players, options, seed, ask_forced=ask_forced)
            start.auto = auto.replayer(st.history)
            if start.pending_ is not None:
                start.auto(start)
        else:
            start.auto = auto.replayer(st.history[answered:])
        if start.pending_ is None:
            start._run(start.prog.codes)
    except RulesError as again:     # the instrumented path's own words and line
        if start is not None and start.history == st.history:
            return again
    except Exception:               # the replay went another way: the lean error stands
        pass
    return None
