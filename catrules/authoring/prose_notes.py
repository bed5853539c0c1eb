"""The comments of a game file, as explanations for the rulebook.

A comment directly above a declaration or statement (no blank line between), and the
comment at the end of its line (of each of its lines, when the line is carried on with ``\\``
or inside brackets, as ``catrules fmt`` wraps long lines), explain it; the comments at the top
of the file, after ``players``, introduce the game.  Comments are found in the file's text by line
(the parser drops them), outside quoted text.
"""

from __future__ import annotations


def trailing(line: str) -> str:
    """The comment at the end of ``line``, without ``#``, or ""."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == "\\":
                continue
            if ch == quote:
                quote = None
        elif ch == '"':
            quote = ch
        elif ch == "#":
            return line[i + 1:].strip()
    return ""


def _continues(line: str, depth: int) -> tuple[bool, int]:
    """Whether the next line carries ``line`` on (a final ``\\`` or brackets still open), and the
    bracket depth after it (``depth`` before it), outside quoted text and the comment."""
    quote = None
    code = line
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch == '"':
            quote = ch
        elif ch == "#":
            code = line[:i]
            break
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
    return code.rstrip().endswith("\\") or depth > 0, depth


def _last_line(lines: list, i: int) -> int:
    """The index of the last line of the logical line that starts at index ``i``."""
    more, depth = _continues(lines[i], 0)
    while more and i + 1 < len(lines):
        i += 1
        more, depth = _continues(lines[i], depth)
    return i


class Notes:
    """The comments of a game and of the files it extends."""

    def __init__(self, g):
        self.g = g
        self._lines = {None: (g.source or "").splitlines()}
        for path, text in (getattr(g, "sources", None) or {}).items():
            self._lines[path] = text.splitlines()
        self.used: set = set()          # (path, line) of comments already given

    def _of(self, node):
        return self._lines.get(self.g.origins.get(id(node)) if self.g.origins else None, self._lines[None]), \
            (self.g.origins.get(id(node)) if self.g.origins else None)

    def about(self, node, line: int | None = None) -> str:
        """The comments above ``node`` and at the end of its line, joined; each given once."""
        lines, path = self._of(node)
        line = line or getattr(node, "line", 0)
        if not 0 < line <= len(lines):
            return ""
        found = []
        i = line - 2
        while i >= 0 and lines[i].strip().startswith("#"):
            found.append(i)
            i -= 1
        found.reverse()
        if not lines[line - 1].strip().startswith("#"):
            last = _last_line(lines, line - 1)
            found.extend(i for i in range(line - 1, last + 1) if trailing(lines[i]))
        return self._join(found, lines, path)

    def inside(self, node, first: int, last: int) -> str:
        """The whole-line comments from line ``first`` to ``last`` (a declaration's body)."""
        lines, path = self._of(node)
        found = [i for i in range(max(first - 1, 0), min(last, len(lines)))
                 if lines[i].strip().startswith("#")]
        return self._join(found, lines, path)

    def header(self) -> str:
        """The comments at the top of the file, before its first declaration."""
        lines = self._lines[None]
        found = []
        for i, text in enumerate(lines):
            s = text.strip()
            if s.startswith("#"):
                found.append(i)
            elif not s and found:
                break
            elif s and not s.startswith(("catrules ", "game ", "players ", "extends ")):
                break
        return self._join(found, lines, None)

    def _join(self, found, lines, path) -> str:
        out = []
        for i in found:
            if (path, i) in self.used:
                continue
            self.used.add((path, i))
            text = lines[i]
            s = text.strip()
            note = s.lstrip("#").strip() if s.startswith("#") else trailing(text)
            out.append(note.strip("-= ").strip())
        out = [x for x in out if x]
        for i in range(len(out) - 1):
            if out[i + 1][:1].isupper() and out[i][-1:] not in ".:;!?)":
                out[i] += "."
        return " ".join(out)
