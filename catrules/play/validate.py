"""Data read from files checked against a small description of its shape, field by field.

A save file or a log line is JSON that anyone can edit.  Before any of it is used, it is
checked against a *spec*: :class:`Int`, :class:`Num`, :class:`Text`, :class:`Flag`,
:class:`Maybe`, :class:`Items`, :class:`Row`, :class:`Record`, :class:`Const` and :class:`Anything` say what a field must be
(its kind, its range, its size).  :func:`check` raises :class:`Invalid` for the first field
that does not fit, naming the field (``cli.seats[2]``) and saying in words what it should
be and what it is; the value itself is never echoed, only its kind.  Each reader puts
that in its own error (naming its file)::

    HEADER = Record({"players": Int(1, 1000), "viewer": Maybe(Int(0, 999))}, required=("players",))
    check(header, HEADER)           # Invalid("`viewer` should be ... not a text")
"""

from __future__ import annotations

import math
from typing import Optional

#: The longest text of a field (a file name, a title, a seat) read from a save or a log.
TEXT_LIMIT = 4096
#: The most items of a list of names (seats, options) read from a save or a log.
NAMES_LIMIT = 10_000


class Invalid(ValueError):
    """A field that does not fit its spec: ``field`` names it (``""``: the whole value),
    ``why`` says what it should be and what it is."""

    def __init__(self, field: str, why: str):
        self.field, self.why = field, why
        super().__init__(f"`{field}` {why}" if field else why)


def kind_of(v) -> str:
    """What a JSON value is, in words, without its content."""
    if v is None:
        return "null"
    if type(v) is bool:
        return "true" if v else "false"
    if type(v) is int:
        return "a whole number" if abs(v) < 10 ** 30 else "a whole number of many digits"
    if type(v) is float:
        return "a number" if math.isfinite(v) else "a number that is not finite"
    if type(v) is str:
        return "a text" if len(v) <= TEXT_LIMIT else f"a text of {len(v)} characters"
    if type(v) is list:
        return f"a list of {len(v)} item{'s' if len(v) != 1 else ''}"
    if type(v) is dict:
        return "a record"
    return "a value of an unknown kind"


class Spec:
    """What a field must be; ``what`` says it in words (``a whole number from 1 to 9``)."""
    what = "a value"

    def errors(self, v, field: str) -> Optional[Invalid]:    # pragma: no cover - every spec has its own
        raise NotImplementedError

    def _no(self, v, field: str) -> Invalid:
        return Invalid(field, f"should be {self.what}, not {kind_of(v)}")


def _range(lo, hi) -> str:
    if lo is not None and hi is not None:
        return f" from {lo:g} to {hi:g}" if isinstance(lo, float) or isinstance(hi, float) else f" from {lo} to {hi}"
    if lo is not None:
        return f" of at least {lo}"
    return f" of at most {hi}" if hi is not None else ""


class Int(Spec):
    """A whole number (not true/false) from ``lo`` to ``hi``."""

    def __init__(self, lo: Optional[int] = None, hi: Optional[int] = None):
        self.lo, self.hi = lo, hi
        self.what = "a whole number" + _range(lo, hi)

    def errors(self, v, field):
        if type(v) is not int or (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            return self._no(v, field)
        return None


class Num(Spec):
    """A finite number (whole or not) from ``lo`` to ``hi``."""

    def __init__(self, lo: float, hi: float):
        self.lo, self.hi = lo, hi
        self.what = "a number" + _range(lo, hi)

    def errors(self, v, field):
        if type(v) not in (int, float):
            return self._no(v, field)
        if type(v) is float and not math.isfinite(v):
            return self._no(v, field)
        if not self.lo <= v <= self.hi:
            return Invalid(field, f"should be {self.what}, not a number outside that range")
        return None


class Text(Spec):
    """A text of at most ``limit`` characters (and at least ``least``)."""

    def __init__(self, limit: int = TEXT_LIMIT, least: int = 0):
        self.limit, self.least = limit, least
        self.what = "a text" if not least else "a text that is not empty"

    def errors(self, v, field):
        if type(v) is not str or len(v) < self.least:
            return self._no(v, field)
        if len(v) > self.limit:
            return Invalid(field, f"is a text of {len(v)} characters (at most {self.limit})")
        return None


class Flag(Spec):
    """True or false."""
    what = "true or false"

    def errors(self, v, field):
        return None if type(v) is bool else self._no(v, field)


class Const(Spec):
    """Exactly ``value`` (a format number)."""

    def __init__(self, value, what: str):
        self.value, self.what = value, what

    def errors(self, v, field):
        return None if type(v) is type(self.value) and v == self.value else self._no(v, field)


class Maybe(Spec):
    """Null, or what ``spec`` says."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.what = f"{spec.what}, or null"

    def errors(self, v, field):
        return None if v is None else self.spec.errors(v, field)


class Items(Spec):
    """A list of ``least`` to ``limit`` items, each what ``item`` says."""

    def __init__(self, item: Spec, limit: int = NAMES_LIMIT, least: int = 0, what: str = ""):
        self.item, self.limit, self.least = item, limit, least
        self.what = what or f"a list, each item {item.what}"

    def errors(self, v, field):
        if type(v) is not list:
            return self._no(v, field)
        if len(v) < self.least:
            return Invalid(field, f"is an empty list (it needs at least {self.least} item"
                                  f"{'s' if self.least != 1 else ''})" if not v else
                           f"has {len(v)} items (it needs at least {self.least})")
        if len(v) > self.limit:
            return Invalid(field, f"has {len(v)} items (at most {self.limit})")
        for i, x in enumerate(v):
            bad = self.item.errors(x, f"{field}[{i}]")
            if bad is not None:
                return bad
        return None


class Row(Spec):
    """A list of fixed length: one item per spec of ``specs``, in order (``[key, position, ...]``)."""

    def __init__(self, specs, what: str):
        self.specs, self.what = tuple(specs), what

    def errors(self, v, field):
        if type(v) is not list or len(v) != len(self.specs):
            return self._no(v, field)
        for i, (x, spec) in enumerate(zip(v, self.specs)):
            bad = spec.errors(x, f"{field}[{i}]")
            if bad is not None:
                return bad
        return None


class Anything(Spec):
    """Any JSON value (one that a later, deeper check looks at)."""

    def errors(self, v, field):
        return None


class Record(Spec):
    """A record whose ``fields`` (name -> spec) fit their specs where present; ``required``
    ones must be present.  Other keys are left alone (a front end may keep its own)."""
    what = "a record"

    def __init__(self, fields: dict, required=()):
        self.fields, self.required = fields, tuple(required)

    def errors(self, v, field):
        if type(v) is not dict:
            return self._no(v, field)
        for key in self.required:
            if key not in v:
                return Invalid(f"{field}.{key}" if field else key, "is missing")
        for key, spec in self.fields.items():
            if key in v:
                bad = spec.errors(v[key], f"{field}.{key}" if field else key)
                if bad is not None:
                    return bad
        return None


def check(value, spec: Spec, field: str = "") -> None:
    """Raise :class:`Invalid` for the first part of ``value`` that does not fit ``spec``."""
    bad = spec.errors(value, field)
    if bad is not None:
        raise bad
