"""The option settings a balance run compares or sweeps, each with its label.

``--compare short`` / ``--sweep short`` (an on/off option): the games without it and
with it.  An option with values (language 4): ``--compare rounds=4`` or ``--sweep
rounds=4`` plays the games at the value they have otherwise (the default, or the
one ``--option`` gives) and at 4; ``--sweep rounds`` plays them at every value.
Each setting is the whole list of options, in the form a game keeps them
(:meth:`catrules.api.Game.normal_options`).
"""

from __future__ import annotations


def _without(options: list, name: str) -> list:
    return [o for o in options if o.partition("=")[0] != name]


def option_settings(game, options: list, option: str) -> list:
    """``[(options, label), ...]``: the conditions of comparing or sweeping ``option``;
    :class:`ValueError` in words for one that cannot be."""
    name, eq, _raw = option.partition("=")
    valued = game.option_values.get(name)
    if valued is None:
        if option in options:
            raise ValueError(f"--compare {option} is already one of the options: the games are played "
                             "without it and with it")
        return [(list(options), f"without {option}"), (sorted(options + [option]), f"with {option}")]
    now = next((o for o in options if o.partition("=")[0] == name), f"{name}={valued['default']}")
    if not eq:
        if now != f"{name}={valued['default']}":
            raise ValueError(f"a sweep of `{name}` plays every value of it, and the options give "
                             f"{now}: leave it out of them")
        settings = [f"{name}={v}" for v in valued["values"]]
    else:
        settings = [now, option]
    out = []
    for s in settings:
        normal = game.normal_options(_without(options, name) + [s])
        at_default = not game.normal_options([s])
        out.append((normal, f"{s} (default)" if at_default else s))
    if len(out) == 2 and out[0][0] == out[1][0]:
        raise ValueError(f"the games are played at {option} already: compare another value")
    return out
