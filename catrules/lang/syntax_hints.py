"""Hints for syntax errors that come from habits of other languages, or from a bracket left open.

A newcomer writes ``while``, ``elif``, ``print "..."``, ``rank = r`` inside a condition, a call to
an action without ``do``, a tab in the indentation, or forgets a ``)`` at the end of a line (the
line then goes on to the next, where the error shows).  The parser's own message ("unexpected
`sum`") names the symptom; these name the cause, in the language's words, and the form to write.
Each is found from the text around the place where the parser stopped, nothing else.
"""

from __future__ import annotations

import re
from typing import Optional

#: First words of a statement in other languages -> the message's hint: how this language says it.
FOREIGN = {
    "while": "a loop is `repeat while CONDITION:` (or `repeat until CONDITION:`, `repeat N times:`)",
    "elif": "write `else if CONDITION:`",
    "elsif": "write `else if CONDITION:`",
    "elseif": "write `else if CONDITION:`",
    "print": 'a message to every player is `announce "..."`',
    "say": 'a message to every player is `announce "..."`',
    "def": "a value is `define NAME(a) = EXPRESSION`; steps to run by name are `action NAME(a):`",
    "function": "a value is `define NAME(a) = EXPRESSION`; steps to run by name are `action NAME(a):`",
    "call": "`do NAME(...)` runs an action, `play NAME` runs a phase",
    "run": "`do NAME(...)` runs an action, `play NAME` runs a phase",
    "let": "`NAME = VALUE` sets a variable (or a counter)",
    "var": "`NAME = VALUE` sets a variable (or a counter)",
    "set": "`NAME = VALUE` sets a variable (or a counter)",
    "return": "a definition's value is its expression (`define NAME = EXPRESSION`); `stop` leaves a loop",
    "break": "`stop` leaves the innermost `repeat` or `for each`",
    "draw": "cards go from zone to zone with `move`: `move top(deck) to hand of p`",
    "deal": "cards go from zone to zone with `move`: `move top(deck, 5) to hand of p`",
    "give": "cards go from zone to zone with `move`: `move c to hand of q`",
    "put": "cards go from zone to zone with `move`: `move c to discard`",
    "take": "cards go from zone to zone with `move`: `move c to hand of p`",
    "discard": "cards go from zone to zone with `move`: `move c to discard`",
}

_OPEN, _CLOSE = "([", ")]"

#: The start of a line the parser stopped after, as other words would have it -> the hint.
ORDER = (
    (r"\s*each\s+player\b", "everyone choosing at once is `secretly each player p chooses c from ...:` "
                                "(`race each player ...` when speed counts); going round the table is "
                                "`for each player p:`"),
)


def word_order(before: str, token: str, line_text: str) -> Optional[str]:
    """The hint for a line that starts with words of the language in another order (``each player
    p secretly chooses``), or for ``//`` (``/`` divides whole numbers already), else None."""
    if token == "/" and before.rstrip().endswith("/"):
        return "`/` divides whole numbers and rounds down already: write one `/`"
    for pattern, hint in ORDER:
        if re.match(pattern, line_text):
            return hint
    return None


def tab_in_indentation(line_text: str) -> bool:
    """Does the line's indentation hold a tab?"""
    return "\t" in line_text[:len(line_text) - len(line_text.lstrip(" \t"))]


def foreign_start(before: str, source: str) -> Optional[tuple]:
    """``(column, word, hint)`` when the parser stopped right after the first word of a line
    and that word is a habit of another language (:data:`FOREIGN`) that the file does not
    declare as a name of its own (a counter ``draw``), else None."""
    m = re.fullmatch(r"(\s*)([A-Za-z_]\w*)\s*", before)
    if not m or m.group(2) not in FOREIGN:      # `while` is a word, but no statement starts with it
        return None
    word = m.group(2)
    if re.search(rf"\b(counter|zone|define|action|phase|option|each|cards)\s+{word}\b", source):
        return None
    return len(m.group(1)) + 1, word, FOREIGN[word]


def call_without_do(before: str, rest: str, source: str) -> Optional[str]:
    """The hint for ``NAME(...)`` at the start of a statement: ``do NAME(...)`` for an action,
    ``play NAME`` for a phase, else how both are run."""
    m = re.fullmatch(r"\s*([A-Za-z_]\w*)", before)
    if not m or not rest.startswith("("):
        return None
    name = m.group(1)
    args = re.match(r"\(([^()]*)\)", rest)
    args = args.group(1) if args else "..."
    if re.search(rf"^\s*action\s+{name}\s*\(", source, re.M):
        return f"`{name}` is an action: run it with `do {name}({args})`"
    if re.search(rf"^\s*phase\s+{name}\s*:", source, re.M):
        return f"`{name}` is a phase: run it with `play {name}`"
    if re.search(rf"^\s*define\s+{name}\b", source, re.M):
        return f"`{name}` is a definition: it gives a value, to use where a value goes (`x = {name}({args})`)"
    return f"a statement does not start with a call: `do {name}({args})` runs an action"


def compare_with_one_equals(before: str, token: str) -> bool:
    """``=`` where a value goes on (inside brackets, or after ``if``/``where``/``while``/
    ``until``): most often a comparison written with one ``=``."""
    if token != "=":
        return False
    return bool(re.search(r"\b(if|where|while|until|preferring|then)\b", before)) or \
        before.count("(") + before.count("[") > before.count(")") + before.count("]")


def unclosed_bracket(lines: list, line: int, col: int) -> Optional[tuple]:
    """``(line, column, bracket)`` of a bracket opened on an earlier line than ``line`` and not
    closed before ``(line, col)``: the line went on to the next one, and the error showed there.
    The file is scanned from its start (texts and comments skipped): the parser stopped at the
    first place where the brackets go wrong, so every bracket before the statement is closed."""
    stack: list = []
    for no in range(1, line + 1):
        text = lines[no - 1] if no - 1 < len(lines) else ""
        in_text = False
        for i, ch in enumerate(text[:col - 1] if no == line else text):
            if in_text:
                in_text = ch != '"'
            elif ch == '"':
                in_text = True
            elif ch == "#":
                break
            elif ch in _OPEN:
                stack.append((no, i + 1, ch))
            elif ch in _CLOSE and stack:
                stack.pop()
    return stack[-1] if stack and stack[-1][0] < line else None
