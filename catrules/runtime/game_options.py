"""The value of a game option with values (language 4) in a state: what ``rounds`` reads.

A state keeps its options as a sorted list of texts (``short``, ``rounds=4``); an
option with values is there only when it is not at its default
(:mod:`catrules.compile.option_settings` puts the list in that form).
"""

from __future__ import annotations


def _optv(options, prefix: str, default):
    """The value after ``prefix`` (``"rounds="``) in ``options``, else ``default``; a whole
    number when the default is one, a symbol (text) otherwise."""
    for o in options:
        if o.startswith(prefix):
            raw = o[len(prefix):]
            return int(raw) if isinstance(default, int) else raw
    return default


def option_value_in(options, name: str, default):
    """The value of option ``name`` among ``options`` (``rounds=4``), else ``default``."""
    return _optv(options, name + "=", default)
