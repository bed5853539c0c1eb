"""Choosing a variable number of cards (language 4): ``p chooses up to 3 cards c from hand``,
``up to (n) cards``, ``any number of cards``.

The parser's rules for these give an :class:`UpTo` in place of the plain count of
``chooses 3 cards``; :func:`counted` splits what a choice was given into the count and the
``up_to`` mode kept on :class:`~catrules.lang.ast.Choose` and :class:`~catrules.lang.ast.Together`.
"""

from __future__ import annotations

from typing import Optional

from . import ast


class UpTo:
    """A count said with ``up to`` (``mode`` "up to", ``count`` the most) or ``any number``
    (``mode`` "any", no count)."""
    __slots__ = ("count", "mode")

    def __init__(self, count, mode: str):
        self.count = count
        self.mode = mode


def up_to(count, mode: str = "up to") -> UpTo:
    return UpTo(count, mode)


def counted(count) -> tuple:
    """``(count, up_to)`` of a choice: ``up_to`` is None for a fixed count (or one card)."""
    if isinstance(count, UpTo):
        return count.count, count.mode
    return count, None


def several(s) -> bool:
    """Does choice ``s`` (a Choose or a secret Together) choose a list of cards?"""
    return s.count is not None or getattr(s, "up_to", None) is not None


def count_words(count, mode: Optional[str], expr) -> str:
    """The count as the file says it, followed by a space (``up to 3 cards ``); ``expr`` writes a
    value as text.  Empty for a choice of one."""
    if mode == "any":
        return "any number of cards "
    if count is None:
        return ""
    if isinstance(count, ast.Const):
        many = f"{count.value} card{'s' if count.value != 1 else ''} "
    else:
        many = f"({expr(count)}) cards "
    return f"up to {many}" if mode == "up to" else many

