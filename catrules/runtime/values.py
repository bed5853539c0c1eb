"""What the generated expressions call while a game runs: lists, aggregates, players, random picks,
and the guards that keep numbers and lists within the limits (see "Limits" in docs/language.rst).
"""

from __future__ import annotations

import sys

from .. import limits
from ..errors import RulesError
from ..limits import LIST_LIMIT, NUMBER_LIMIT
from .errors import short_deal
from .frames import cards_in
from .places import as_list


def _everyone(st, zi, shape):
    b = st.layout.base[zi]
    z = st.z
    out = []
    if shape in ("pile", "row"):
        for s in range(b, b + st.n):
            out += z[s]
        return out
    for s in range(b, b + st.n):
        out += cards_in(z[s])
    return out


def _agg(fn, vals):
    return fn(vals) if vals else 0


def _minmax_rt(fn, st, a, f):
    if isinstance(a, (int, float)) and not isinstance(a, bool):
        return fn(a, f(None))
    vals = [f(x) for x in as_list(st, a)]
    return fn(vals) if vals else 0


def _best_rt(items, f, highest):
    top = topk = None
    for x in items:
        k = f(x)
        if top is None or (k > topk if highest else k < topk):
            top, topk = x, k
    return top


def _first(x):
    return x[0] if x else None


def _last(x):
    return x[-1] if x else None


def _top_rt(x, n, st=None, zone=None):
    """The top ``n`` cards of ``x``, top first.  ``zone`` (the rules' words for the zone, language 4
    without ``up to``): fewer cards than ``n`` stop the game (:func:`~catrules.runtime.errors.short_deal`)."""
    if n > len(x):
        if zone is not None:
            raise short_deal(zone, n, len(x))
        if st is not None and st.stats is not None:
            note_short(st, n, len(x))
    return x[::-1][:n] if n > 0 else []


def note_short(st, asked: int, got: int) -> None:
    """Note in ``st.stats`` (a dictionary only a caller that asks for it sets, see
    :mod:`catrules.lab.lint`; None otherwise, and then nothing is looked at) that ``top(zone, n)``
    asked for ``asked`` cards of a zone that held ``got``: ``stats["short"]`` gets
    ``(line, asked, got)``, the line of the statement that asked (the outermost generated code
    running, found from the program's line tables as errors are)."""
    tables = st.prog.line_tables
    line = 0
    f = sys._getframe(1)
    while f is not None:
        table = tables.get(f.f_code.co_filename)
        if table is not None and 0 <= f.f_lineno < len(table) and table[f.f_lineno]:
            line = table[f.f_lineno]
        f = f.f_back
    st.stats.setdefault("short", []).append((line, asked, got))


def _owner_rt(st, c):
    if c is None:
        return None
    o = st.layout.slot_owner[st.loc[c]]
    return o if o >= 0 else None


def _others_rt(st, p):
    n = st.n
    return [(p + i) % n for i in range(1, n)]


def _random_rt(st, x):
    return x[st.rng.randrange(len(x))] if x else None


def _nopick(k, line):
    raise RulesError(f"pick: no case for {k!r} and no `else:`", line)


# ------------------------------------------------------------------ guards
# Helpers the generated code calls where a value could outgrow the limits (see "Limits" in
# docs/language.rst).  Each does the plain operation first and checks only the result's size.

def _too_big(r) -> RulesError:
    if type(r) is int:
        return RulesError(f"a number beyond the limit of {NUMBER_LIMIT:,}",
                          hint="numbers in a game stay within {:,}".format(NUMBER_LIMIT))
    return RulesError(f"a list of more than {LIST_LIMIT:,} items", hint="lists in a game stay within "
                      f"{LIST_LIMIT:,} items")


def _fits(r):
    t = type(r)
    if t is int:
        if -NUMBER_LIMIT <= r <= NUMBER_LIMIT:
            return r
        raise _too_big(r)
    if (t is list or t is str or t is tuple) and len(r) > LIST_LIMIT:
        raise _too_big(r)
    return r


def _add(a, b):
    r = a + b
    if type(r) is int and -NUMBER_LIMIT <= r <= NUMBER_LIMIT:
        return r
    return _fits(r)


def _mul(a, b):
    if type(a) is int and type(b) is int:
        # numbers stay within the limit (every `*` is checked here, `+` and `-` grow a value by
        # at most its own size), so their product is small enough to work out first
        r = a * b
        if -NUMBER_LIMIT <= r <= NUMBER_LIMIT:
            return r
        raise _too_big(r)
    ta, tb = type(a), type(b)
    if ta in (list, str, tuple) or tb in (list, str, tuple):
        seq, n = (a, b) if ta in (list, str, tuple) else (b, a)
        if type(n) is int and len(seq) * max(n, 0) > LIST_LIMIT:
            raise _too_big(seq)
    elif ta is int and tb is int and (a.bit_length() + b.bit_length() > 126):
        raise _too_big(NUMBER_LIMIT + 1)
    r = a * b
    if type(r) is int and -NUMBER_LIMIT <= r <= NUMBER_LIMIT:
        return r
    return _fits(r)


def _charge(st, n: int) -> None:
    """Count the items of a built list as steps (:data:`~catrules.limits.ITEMS_PER_STEP` items a
    step), so that lists built over and over stop too."""
    st.steps += -(-n // limits.ITEMS_PER_STEP)
    if st.steps > limits.STEP_LIMIT:
        raise RulesError(f"the game built lists of more than {limits.STEP_LIMIT * limits.ITEMS_PER_STEP:,} "
                         "items in all without "
                         "anyone deciding anything", hint="use smaller ranges, or build the list once")


def _range(st, a, b):
    if type(a) is int and type(b) is int:
        if b - a >= LIST_LIMIT:
            raise RulesError(f"range({a}, {b}) would hold {b - a + 1:,} numbers (at most {LIST_LIMIT:,})",
                             hint="use a smaller range")
        if b >= a:
            _charge(st, b - a + 1)
    return list(range(a, b + 1))


def _copies(st, x, n):
    if type(n) is int:
        if n > LIST_LIMIT:
            raise RulesError(f"copies(..., {n}) would make a list of {n:,} items (at most {LIST_LIMIT:,})",
                             hint="use a smaller count")
        if n > 0:
            _charge(st, n)
    return [x] * max(0, n)


def _big(r):
    """A product of two numbers past the limit, worked out in the lean blocks: the error ``_mul`` raises."""
    raise _too_big(r)


GUARDS = {"_mul": _mul, "_range": _range, "_copies": _copies, "_big": _big}
