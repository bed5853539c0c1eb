"""Errors and diagnostics, each pointing at a place in a game file.

A :class:`Diagnostic` prints as ``file:line:col: message``, then the source
line, a caret under the column and a hint.  :class:`GameFileError` carries
one or more of them; the command line prints them and never a traceback.
"""

from __future__ import annotations

import difflib
from typing import Iterable

import dataclasses


@dataclasses.dataclass
class Diagnostic:
    path: str
    line: int
    column: int
    message: str
    hint: str = ""
    severity: str = "error"         # "error" | "warning"
    source_line: str = ""

    def format(self, color: bool = False) -> str:
        sev = self.severity
        if color:
            red, yel, bold, dim, end = "\x1b[31;1m", "\x1b[33;1m", "\x1b[1m", "\x1b[2m", "\x1b[0m"
            sev = (red if sev == "error" else yel) + sev + end
        else:
            bold = dim = end = ""
        where = f"{self.path}:{self.line}:{self.column}:" if self.line else f"{self.path}:"
        out = [f"{bold}{where}{end} {sev}: {self.message}"]
        if self.source_line:
            text = self.source_line.rstrip("\n").expandtabs(4)
            out.append("    " + text)
            out.append("    " + " " * max(self.column - 1, 0) + "^")
        if self.hint:
            out.append(f"    {dim}hint:{end} {self.hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


class CatrulesError(Exception):
    """Base of every error catrules raises on purpose."""


class GameFileError(CatrulesError):
    """A game file that cannot be used: one or more diagnostics."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("\n".join(d.format() for d in self.diagnostics))


class RulesError(CatrulesError):
    """A game that went wrong while running (a runaway chain, a bad move...).

    It names the place in the game file when it knows it.
    """

    def __init__(self, message: str, line: int = 0, path: str = "", hint: str = ""):
        self.message = message
        self.line = line
        self.path = path
        self.hint = hint
        where = f"{path}:{line}: " if path and line else (f"line {line}: " if line else "")
        text = where + message + (f"\n    hint: {hint}" if hint else "")
        super().__init__(text)


class SaveError(CatrulesError, ValueError):
    """A save file (or saved state) that is damaged, of another game, or not a save at all."""


class IllegalChoice(CatrulesError):
    """A choice that is not among the legal options of a pending decision."""


def suggest(word: str, candidates: Iterable[str]) -> str:
    """A "did you mean" hint, or an empty string."""
    cands = sorted(set(candidates))
    close = difflib.get_close_matches(word, cands, n=1, cutoff=0.6)
    if close:
        return f"did you mean `{close[0]}`?"
    return ""


class Reporter:
    """Collects diagnostics for one source text.

    A variant's game holds nodes of its base files too: ``origins`` (id of a node -> path)
    and ``sources`` (path -> text) let an error on such a node point into its own file.
    """

    def __init__(self, path: str, source: str, origins: dict | None = None, sources: dict | None = None):
        self.path = path
        self.lines = source.splitlines()
        self.items: list[Diagnostic] = []
        self.origins = origins or {}
        self.sources = {p: t.splitlines() for p, t in (sources or {}).items()}

    def _line(self, line: int, lines: list | None = None) -> str:
        lines = self.lines if lines is None else lines
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return ""

    def error(self, node_or_pos, message: str, hint: str = "", severity: str = "error") -> None:
        line, col = _pos(node_or_pos)
        path = self.origins.get(id(node_or_pos), self.path)
        lines = self.sources.get(path) if path != self.path else None
        self.items.append(Diagnostic(path, line, col, message, hint, severity, self._line(line, lines)))

    def warning(self, node_or_pos, message: str, hint: str = "") -> None:
        self.error(node_or_pos, message, hint, severity="warning")

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def raise_if_errors(self) -> None:
        if self.errors:
            self.items.sort(key=lambda d: (d.path != self.path, d.path, d.line, d.column))
            raise GameFileError(self.errors)


def _pos(node_or_pos) -> tuple[int, int]:
    if isinstance(node_or_pos, tuple):
        return node_or_pos
    return (getattr(node_or_pos, "line", 0) or 0, getattr(node_or_pos, "column", 0) or 0)


class OverBudget(Exception):
    """A game asked for more decisions than its budget (see :func:`catrules.lab.simulate.decision_budget`)."""

    def __init__(self, limit: int):
        super().__init__(f"the game asked for more than {limit:,} decisions without ending")
        self.limit = limit
