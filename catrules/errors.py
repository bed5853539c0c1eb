r"""Errors and diagnostics, each pointing at a place in a game file.

A :class:`Diagnostic` prints as ``file:line:col: message``, then the source
line, a caret under the column and a hint.  :class:`GameFileError` carries
one or more of them; the command line prints them and never a traceback.

Every place that shows a line of a game file takes it from :func:`source_lines`,
which splits the text as the parser counts lines (at ``\n`` only, ``\r\n`` being
one break), and shows it with :func:`shown_line`: tabs expanded, invisible and
control characters written as escapes (``\x0c``, ``\u202e``), and the caret's
place counted in terminal cells (a wide character takes two).
"""

from __future__ import annotations

import difflib
import unicodedata
from typing import Iterable, Optional

import dataclasses

#: The invisible characters that change the direction of text: embeddings and overrides
#: (U+202A-U+202E), isolates (U+2066-U+2069) and marks (U+200E, U+200F, U+061C).  They can make
#: a line or a name read differently from what it is ("Trojan Source").
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")

#: The tab stops of a shown line (the parser's indenter counts a tab as 4 too).
TAB = 4


def source_lines(text: str) -> list:
    r"""The lines of a game file's text, as the parser counts them.

    A line ends at ``\n`` only (``\r\n`` counts as one break), so a form feed, a
    U+2028 or a lone ``\r`` stays inside its line, where the parser sees it
    (``str.splitlines`` would cut there and shift every later line).  A final
    line break does not start a line."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def source_line(text_or_lines, line: int) -> str:
    """Line ``line`` (from 1) of a text or of :func:`source_lines`'s list; ``""`` if there is none."""
    lines = source_lines(text_or_lines) if isinstance(text_or_lines, str) else text_or_lines
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def invisible(ch: str) -> bool:
    """A character that shows nothing, or moves the text around, where it stands: control
    characters, format characters (direction controls, zero-width ones) and line separators."""
    return unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")


def escaped(ch: str) -> str:
    r"""A character written as its escape: ``\x0c``, ``\u202e``, ``\U000e0001``."""
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else (f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}")


def char_name(ch: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character by its code and its Unicode name."""
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {name}" if name else "")


def visible(text: str) -> str:
    """``text`` with its invisible characters (see :func:`invisible`) written as escapes."""
    return "".join(escaped(c) if invisible(c) else c for c in text)


def cells(text: str) -> int:
    """How many terminal cells ``text`` takes: a wide character two, a combining one none."""
    n = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return n


def shown_line(line: str, column: int = 0) -> tuple:
    """(the line as shown, the caret's offset in cells) for a caret under character ``column``
    (from 1): tabs expanded to stops of :data:`TAB`, invisible characters escaped.  A column
    past the end of the line puts the caret just after it."""
    out, width, caret = [], 0, None
    for i, c in enumerate(line.rstrip("\n")):
        if i == column - 1:
            caret = width
        piece = " " * (TAB - width % TAB) if c == "\t" else (escaped(c) if invisible(c) else c)
        out.append(piece)
        width += len(piece) if c == "\t" else cells(piece)
    return "".join(out), width if caret is None else caret


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
            text, caret = shown_line(self.source_line, max(self.column, 1))
            out.append("    " + text)
            out.append("    " + " " * caret + "^")
        if self.hint:
            out.append(f"    {dim}hint:{end} {self.hint}")
        return "\n".join(out)

    def __str__(self) -> str:
        return self.format()


class CatrulesError(Exception):
    """Base of every error catrules raises on purpose."""


class GameFileError(CatrulesError):
    """A game file that cannot be used: one or more diagnostics."""

    def __init__(self, diagnostics: Iterable[Diagnostic], warnings: Iterable[Diagnostic] = ()):
        self.diagnostics = list(diagnostics)
        #: the warnings of the same check on the lines of its errors, shown beside them: one there
        #: often says why the error is one (the others are often the errors' consequences)
        self.warnings = list(warnings)
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


def nearest(word: str, candidates: Iterable[str]) -> Optional[str]:
    """The candidate nearest to ``word`` (a misspelling of it), or None."""
    close = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return close[0] if close else None


def suggest(word: str, candidates: Iterable[str]) -> str:
    """A "did you mean" hint, or an empty string."""
    near = nearest(word, candidates)
    return f"did you mean `{near}`?" if near else ""


class Reporter:
    """Collects diagnostics for one source text.

    A variant's game holds nodes of its base files too: ``origins`` (id of a node -> path)
    and ``sources`` (path -> text) let an error on such a node point into its own file.
    """

    def __init__(self, path: str, source: str, origins: dict | None = None, sources: dict | None = None):
        self.path = path
        self.lines = source_lines(source)
        self.items: list[Diagnostic] = []
        self.origins = origins or {}
        self.sources = {p: source_lines(t) for p, t in (sources or {}).items()}

    def _line(self, line: int, lines: list | None = None) -> str:
        return source_line(self.lines if lines is None else lines, line)

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
            lines = {(d.path, d.line) for d in self.errors}
            raise GameFileError(self.errors, [w for w in self.warnings if (w.path, w.line) in lines])


def _pos(node_or_pos) -> tuple[int, int]:
    if isinstance(node_or_pos, tuple):
        return node_or_pos
    return (getattr(node_or_pos, "line", 0) or 0, getattr(node_or_pos, "column", 0) or 0)


class OverBudget(Exception):
    """A game asked for more decisions than its budget (see :func:`catrules.lab.simulate.decision_budget`)."""

    def __init__(self, limit: int, no_way_out: Optional[int] = None):
        if no_way_out is None:
            said = f"the game asked for more than {limit:,} decisions without ending"
        else:
            said = (f"the game entered the loop of line {no_way_out}, which has no way out "
                    "(`catrules check` warns of it): played by bots alone it could never end")
        super().__init__(said)
        self.limit = limit
        self.no_way_out = no_way_out
