"""The run time: what a compiled game does while it is played.

The compiler (:mod:`catrules.compile.compiler`) writes each unit as Python source
(:mod:`catrules.compile.units`); the functions it writes, and the state's
step loop (:mod:`catrules.runtime.state`), call what is here:

* :mod:`~catrules.runtime.frames`: a running unit (its block, its variables);
* :mod:`~catrules.runtime.places`: rows, columns, lines and places as values;
* :mod:`~catrules.runtime.moves`: moving cards, who knows where they are, logging;
* :mod:`~catrules.runtime.triggers`: the effects a card entering a zone sets off;
* :mod:`~catrules.runtime.values`: what expressions call, and the limits' guards;
* :mod:`~catrules.runtime.decisions`: pending decisions, and the decision objects players get;
* :mod:`~catrules.runtime.views`: what one player may see of a game;
* :mod:`~catrules.runtime.blocks`: the few steps of statements that the generated blocks call.

The sharing of resources (``allot``) is on its own: :mod:`catrules.allot.search`
(the search), :mod:`catrules.allot.keys` and :mod:`catrules.allot.integer_program`
(the integer program).
"""

from .frames import Frame, cards_in  # noqa: F401
from .places import (_cards_in, _either, _grid_lines, _lines_rt, _places_rt, _position, _put,  # noqa: F401
                     as_list, describe, parse_ref, place_attr, ref_cards)
from .triggers import _chain_labels, _fire, _trigger_label, _triggered  # noqa: F401
from .moves import (RESUME_EXCHANGE, RESUME_FILL, RESUME_MOVE, _insert, _log_move, _remove, learn,  # noqa: F401
                    log_counter, move_cards, move_one)
from .values import (GUARDS, _add, _agg, _best_rt, _everyone, _first, _fits, _last, _minmax_rt,  # noqa: F401
                     _mul, _nopick, _others_rt, _owner_rt, _random_rt, _top_rt)
from .decisions import (NONE_OPTION, SIT_OUT, TIE_RACE_OPTION, UNANSWERED, Decision, Option, Pending,  # noqa: F401
                        _ask_one, _tie_race_code)
