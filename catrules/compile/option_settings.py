"""The options a game is played with, as the players give them, checked and put in one order.

A game's options are on/off (``short``: named when on) or have values (language 4:
``rounds``, given as ``rounds=4``).  :func:`normal_options` turns what a player
asked for (the command line, the web lobby, a log's or a save's header) into the
one list a state keeps: sorted, each once, an option with values only when it is
not at its default (so a game played with every default has the same options, and
the same logs, as one that never names them).  Anything else is an
:class:`OptionError` that says what the game offers.
"""

from __future__ import annotations

from ..errors import CatrulesError, suggest


class OptionError(CatrulesError):
    """An option a game does not have, or a value it does not offer; ``hint`` says what it offers."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message + (f" ({hint})" if hint else ""))
        self.message = message
        self.hint = hint


def shown_values(default, choices) -> str:
    """``2, 3, 4 (default 3)``, or ``2 to 6 (default 3)`` for a long run of whole numbers."""
    if len(choices) > 4 and all(isinstance(v, int) for v in choices) and \
            choices == list(range(choices[0], choices[-1] + 1)):
        listed = f"{choices[0]} to {choices[-1]}"
    else:
        listed = ", ".join(str(v) for v in choices)
    return f"{listed} (default {default})"


def known_options(texts: dict, values: dict) -> str:
    """Every option of a game, the valued ones with their values: ``short, rounds=2|3|4``."""
    out = []
    for name in texts:
        if name in values:
            default, choices = values[name]
            out.append(f"{name}=" + "|".join(str(v) for v in choices))
        else:
            out.append(name)
    return ", ".join(out) or "none"


def _setting(title: str, texts: dict, values: dict, given) -> tuple:
    """``(name, value)`` of one option as given (``value`` None for an on/off option)."""
    if not isinstance(given, str):
        raise OptionError(f"an option is a name (or NAME=VALUE), not {str(given)[:40]!r}",
                          f"options of this game: {known_options(texts, values)}")
    name, eq, raw = given.partition("=")
    name, raw = name.strip(), raw.strip()
    if name not in texts:
        hint = suggest(name, texts)
        raise OptionError(f"{title} has no option `{name[:60]}`" + (f"; {hint}" if hint else ""),
                          f"options of this game: {known_options(texts, values)}")
    if name not in values:
        if eq:
            raise OptionError(f"option `{name}` is on or off, and takes no value",
                              f"write `{name}` to turn it on, and leave it out to leave it off")
        return name, None
    default, choices = values[name]
    if not eq:
        raise OptionError(f"option `{name}` takes a value: {shown_values(default, choices)}",
                          f"write `{name}={choices[-1] if choices[-1] != default else choices[0]}`")
    by_text = {str(v): v for v in choices}
    if raw not in by_text:
        raise OptionError(f"`{raw[:40]}` is not a value of option `{name}`",
                          f"its values: {shown_values(default, choices)}")
    return name, by_text[raw]


def normal_options(title: str, texts: dict, values: dict, options) -> list:
    """The options ``options`` asks for, checked, sorted, each once, defaults left out."""
    chosen: dict = {}
    for given in options:
        name, value = _setting(title, texts, values, given)
        if name in chosen and chosen[name] != value:
            raise OptionError(f"option `{name}` is given twice, as {name}={chosen[name]} and {name}={value}",
                              "give each option once")
        chosen[name] = value
    out = []
    for name, value in chosen.items():
        if value is None:
            out.append(name)
        elif value != values[name][0]:
            out.append(f"{name}={value}")
    return sorted(out)


def is_setting(texts: dict, values: dict, o) -> bool:
    """Whether ``o`` is one entry of a normal list of options (a save's or a state's)."""
    try:
        return normal_options("", texts, values, [o]) == [o]
    except OptionError:
        return False
