"""Runtime errors in the language's words.

A Python exception raised while a game runs (``TypeError``, ``KeyError``...)
becomes a :class:`~catrules.errors.RulesError` that names the game-file line,
quotes the expression that failed and says what was wrong without a Python
word ("a value here is none, so it cannot add none and a number").
"""

from __future__ import annotations

import re

from ..errors import RulesError, shown_line, source_line
from ..limits import LIST_LIMIT, NUMBER_LIMIT

_RUNTIME_ERRORS = (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError,
                   OverflowError, RecursionError, MemoryError)

_KINDS = {"int": "a number", "bool": "true or false", "NoneType": "none", "str": "a text or a place",
          "list": "a list", "tuple": "a list", "dict": "a record", "float": "a number", "function": "a rule",
          "range": "a list"}

def _arith(op: str, a: str, b: str) -> str:
    """``add a number and none``... in words, for an operator that failed."""
    op = op.rstrip("=") or op
    if op == "+":
        return f"add {a} and {b}"
    if op == "-":
        return f"subtract {b} from {a}"
    if op == "*":
        return f"multiply {a} by {b}"
    if op in ("/", "//"):
        return f"divide {a} by {b}"
    if op == "%":
        return f"take the remainder of {a} divided by {b}"
    return f"combine {a} and {b}"


def _kind(pyname: str) -> str:
    return _KINDS.get(pyname, "a value of another kind")


def _expr_place(exc: BaseException):
    """(line, column) of the innermost game-file expression running when ``exc`` was raised."""
    tb = exc.__traceback__
    found = None
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        if name.startswith("<catrules "):
            m = re.search(r":(\d+)(?::(\d+))?>$", name)
            if m:
                found = (int(m.group(1)), int(m.group(2) or 0))
        tb = tb.tb_next
    return found


def error_line(exc: BaseException, tables: dict) -> int:
    """The game-file line of the innermost generated unit code ``exc`` passed through (0: none)."""
    line = 0
    tb = exc.__traceback__
    while tb is not None:
        table = tables.get(tb.tb_frame.f_code.co_filename)
        if table is not None and 0 <= tb.tb_lineno < len(table) and table[tb.tb_lineno]:
            line = table[tb.tb_lineno]
        tb = tb.tb_next
    return line


def describe_error(exc: BaseException) -> tuple:
    """(message, hint) in the language's words for a Python error raised by a running game."""
    text = str(exc)
    if isinstance(exc, ZeroDivisionError):
        if "modulo" in text and "division" not in text:
            return "the remainder of a division by zero (`% 0`)", "check that the divisor cannot be 0"
        return "division by zero", "check that the divisor cannot be 0"
    if isinstance(exc, RecursionError):
        return ("definitions use each other too deeply (a definition that uses itself never stops)",
                "a definition cannot use itself; use a loop in an action instead")
    if isinstance(exc, MemoryError):
        return ("the game ran out of memory (a list or a number grew too big)",
                f"numbers are limited to {NUMBER_LIMIT:,} and lists to {LIST_LIMIT:,} items")
    if isinstance(exc, OverflowError):
        return "a number too big", f"numbers are limited to {NUMBER_LIMIT:,}"
    if isinstance(exc, KeyError):
        return _key_error(exc)
    if isinstance(exc, IndexError):
        return ("a position, player or card number out of range",
                "check the number (players are counted from the first one; lists can be empty)")
    if isinstance(exc, TypeError):
        return _type_error(text)
    if isinstance(exc, ValueError):
        if "empty" in text:
            return "an empty list where a value was needed", "check `count(...) > 0` first"
        if "not in list" in text:
            return "a card or value that is not there", "check with `in` first"
        return "a value out of range", "check the numbers used here"
    if isinstance(exc, AttributeError):
        m = re.search(r"'(\w+)' object has no attribute", text)
        k = _kind(m.group(1)) if m else "this value"
        return f"{k} has no such property", "check what kind of value is used here"
    return "the game failed here", ""


def _key_error(exc: KeyError) -> tuple:
    """(message, hint) for a missing key: an unset local, or a value where a card was expected."""
    key = exc.args[0] if exc.args else None
    if key in ("position", "racers"):
        return (f"`{key}` has no value here", "`position` and `racers` are set in a race's block "
                "(`race each player p chooses ...:`), for the racer it runs for: use them there")
    if isinstance(key, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
        return (f"`{key}` has no value here", "it is set only on some paths (in a branch or a loop "
                "that did not run); set it before using it")
    if key is None:
        return "none is not a card", "check for none first (`if x != none`)"
    if isinstance(key, bool):
        return "true or false is not a card", "a card was expected here"
    if isinstance(key, int):
        return f"the number {key} is not a card", "a card was expected here"
    return f"{_kind(type(key).__name__)} is not a card", "a card was expected here"


def _type_error(text: str) -> tuple:
    """(message, hint) for a value of the wrong kind, from the text of Python's TypeError."""
    m = re.search(r"unsupported operand type\(s\) for ([^:]+): '(\w+)' and '(\w+)'", text)
    m2 = re.search(r'can only concatenate (\w+) \(not "(\w+)"\) to', text)
    if m or m2:
        op, a, b = m.groups() if m else ("+", m2.group(1), m2.group(2))
        what = _arith(op.strip(), _kind(a), _kind(b))
        if "none" in (_kind(a), _kind(b)):
            return (f"a value here is none, so it cannot {what}",
                    "check for none first (`if x != none`), or give the counter a start value")
        return f"cannot {what}", "both sides must be numbers"
    m = re.search(r"'([<>=]+)' not supported between instances of '(\w+)' and '(\w+)'", text)
    if m:
        _op, a, b = m.groups()
        if a == b == "NoneType":
            return ("two values here are none, so they cannot be compared",
                    "check for none first (`if x != none`)")
        if "NoneType" in (a, b):
            other = _kind(b if a == "NoneType" else a)
            return (f"a value here is none, so it cannot be compared with {other}",
                    "check for none first (`if x != none`)")
        return f"cannot compare {_kind(a)} with {_kind(b)}", "only numbers (or texts with texts) can be compared"
    m = re.search(r"bad operand type for unary -: '(\w+)'", text)
    if m:
        return f"cannot negate {_kind(m.group(1))}", "`-` needs a number"
    m = re.search(r"'(\w+)' object is not (iterable|subscriptable)", text)
    if m:
        k = _kind(m.group(1))
        if k == "none":
            return ("a value here is none where a list or a zone was expected",
                    "check for none first (`if x != none`)")
        return f"{k} where a list or a zone was expected", "use a zone, a list or `where`"
    m = re.search(r"object of type '(\w+)' has no len\(\)", text)
    if m:
        return f"{_kind(m.group(1))} where a list or a zone was expected", "`count` needs a list or a zone"
    m = re.search(r"unhashable type: '(\w+)'", text)
    if m:
        return f"{_kind(m.group(1))} where a single card was expected", "a single card was expected here"
    m = re.search(r"argument of type '(\w+)' is not iterable", text)
    if m:
        return (f"`in` needs a list or a zone after it, not {_kind(m.group(1))}",
                "write `x in zone` or `x in [a, b]`")
    m = re.search(r"'(\w+)' object cannot be interpreted as an integer", text)
    if m:
        return f"{_kind(m.group(1))} where a whole number was expected", "use a number here"
    m = re.search(r"list indices must be integers or slices, not (\w+)", text)
    if m:
        k = _kind(m.group(1))
        if k == "none":
            return "a value here is none where a player was expected", "check for none first"
        return f"{k} where a player was expected", "a player was expected here"
    return "a value of the wrong kind here", "a card, a player, a number or a list was expected"


def short_deal(zone: str, asked: int, got: int) -> RulesError:
    """The error of ``top(zone, n)`` (language 4) when the zone holds fewer than ``n`` cards; the
    running state adds the line and quotes it."""
    cards = "card" if asked == 1 else "cards"
    return RulesError(f"the rules take {asked} {cards} from the top of {zone}, which holds only {got} "
                      f"(a short deal)", 0, "",
                      f"write `top({zone}, up to {asked})` where a short deal is intended; else deal fewer "
                      f"cards, add cards or allow fewer players")


def rules_error(exc: BaseException, prog, line: int = 0, what: str = "") -> RulesError:
    """A :class:`RulesError` in the language's words, at the game-file expression that failed."""
    message, hint = describe_error(exc)
    place = _expr_place(exc)
    col = 0
    if place is not None and place[0]:
        line, col = place
    return RulesError(message + _quote(prog, line, col, what), line, getattr(prog, "path", ""), hint)


_STOPS = _RUNTIME_ERRORS + (RulesError,)


def _reraise(exc: BaseException, prog, fn, what: str):
    """Raise ``exc`` again as a RulesError located at the expression ``fn`` (for `what`)."""
    line = _fn_line(fn)
    if isinstance(exc, RulesError):
        if exc.line or not line:
            raise exc
        raise located(exc, prog, line, what) from None
    raise rules_error(exc, prog, line, what) from None


def located(exc: RulesError, prog, line: int, what: str = "") -> RulesError:
    """A RulesError raised without a line (by a helper), placed at the expression that raised it."""
    place = _expr_place(exc)
    col = 0
    if place is not None and place[0]:
        line, col = place
    return RulesError(exc.message + _quote(prog, line, col, what), line, prog.path, exc.hint)


def _quote(prog, line: int, col: int, what: str = "") -> str:
    """`` in WHAT (in `source line`, column C)`` for a message."""
    src = shown_line(source_line(getattr(prog, "source", "") or "", line).strip())[0]
    if len(src) > 80:
        src = src[:77] + "..."
    where = f" in {what}" if what else ""
    return where + (f" (in `{src}`" + (f", column {col}" if col else "") + ")" if src else "")


def _fn_line(fn) -> int:
    code = getattr(fn, "__code__", None)
    if code is None:
        return 0
    m = re.search(r":(\d+)(?::\d+)?>$", code.co_filename)
    return int(m.group(1)) if m else 0
