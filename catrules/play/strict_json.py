"""Strict JSON reading, for whatever comes from outside: save files, log files, pages' messages,
programs' answers.

:func:`read_json` refuses invalid UTF-8, ``NaN``/``Infinity``, numbers of thousands of digits
and deep nesting with one exception, :class:`BadJSON`, that says why in a few words; each
caller puts that in its own words.
"""

from __future__ import annotations

import json


class BadJSON(ValueError):
    """Text that is refused; ``why`` says why in a few words (``syntax``: the text is not JSON at
    all, its parser's message, rather than JSON holding something refused)."""

    def __init__(self, why: str, syntax: bool = False):
        super().__init__(why)
        self.why = why
        self.syntax = syntax


def _no_constant(name):
    raise ValueError(f"{name} is not a number")


def read_json(data, constants_as_text: bool = False):
    """The value of JSON ``data`` (text, or bytes that must be UTF-8).  ``constants_as_text``:
    ``NaN``, ``Infinity`` and ``-Infinity`` are read as those strings (for a caller that names
    them in its own refusal) instead of being refused."""
    try:
        text = data.decode("utf-8") if isinstance(data, (bytes, bytearray)) else data
        return json.loads(text, parse_constant=_as_text if constants_as_text else _no_constant)
    except RecursionError:
        raise BadJSON("nested too deeply") from None
    except UnicodeDecodeError:
        raise BadJSON("not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise BadJSON(exc.msg, syntax=True) from None
    except ValueError as exc:           # NaN, Infinity, a number of thousands of digits
        why = str(exc)
        raise BadJSON("a number with too many digits" if "digits" in why else why) from None


def _as_text(name):
    return name
