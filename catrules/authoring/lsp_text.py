"""Places in a document as the language server counts them, for :mod:`catrules.authoring.lsp`.

The protocol counts lines ending at ``\\n``, ``\\r\\n`` or ``\\r`` and characters in UTF-16
code units unless the editor agreed on another encoding; the parser counts lines ending at
``\\n`` and characters from 1.  This module converts between the two, finds the word under
the cursor, the words of a name in code (not in comments, and in quoted text only inside
``{...}``), where an indented block ends, and what comes just before the cursor.
"""

from __future__ import annotations

import re

from ..errors import source_lines

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def units(text: str, encoding: str) -> int:
    """The length of ``text`` in the protocol's units: UTF-16 code units unless agreed otherwise."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def editor_lines(text: str) -> list:
    """The lines as an editor counts them (the protocol ends a line at ``\\n``, ``\\r\\n`` or ``\\r``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def char_index(line: str, character: int, encoding: str) -> int:
    """The index in ``line`` of the editor's ``character`` (counted in the agreed units)."""
    at, count = 0, 0
    while at < len(line) and count < character:
        count += units(line[at], encoding)
        at += 1
    return at


def position(text: str, line: int, column: int, encoding: str) -> tuple:
    """(editor line, editor character, the rest of that line) for the parser's ``line`` and
    ``column`` (from 1, in characters, lines ending at ``\\n`` only: see
    :func:`catrules.errors.source_lines`)."""
    lines = source_lines(text)
    if text.startswith("\ufeff") and line == 1:
        column += 1                     # the parser reads the file without its byte-order mark
    src = lines[line - 1] if 1 <= line <= len(lines) else ""
    before = src[:max(column - 1, 0)]
    row = max(line - 1, 0) + sum(x.count("\r") for x in lines[:max(line - 1, 0)]) + before.count("\r")
    head = before.rsplit("\r", 1)[-1]
    rest = src[len(before):].split("\r", 1)[0]
    return row, units(head, encoding), rest


def word_at(text: str, line: int, character: int, encoding: str = "utf-16") -> tuple[str, str]:
    """(the whole word under the cursor, the part of it before the cursor); ``line`` and
    ``character`` are the editor's (see :func:`editor_lines`)."""
    lines = editor_lines(text)
    if not 0 <= line < len(lines):
        return "", ""
    src = lines[line]
    at = char_index(src, character, encoding)
    for m in WORD.finditer(src):
        if m.start() <= at <= m.end():
            return m.group(), src[m.start():at]
    return "", ""


def code_parts(line: str) -> list:
    """(start, text) of the parts of ``line`` that are code: outside comments, and inside quoted
    text only what is between ``{`` and ``}`` (a name shown in the text)."""
    parts, i, start, quoted = [], 0, 0, False
    while i < len(line):
        c = line[i]
        if not quoted and c == "#":
            break
        if c == '"':
            if not quoted:
                parts.append((start, line[start:i]))
            quoted, start = not quoted, i + 1
        elif quoted and c == "{":
            end = line.find("}", i)
            end = len(line) if end < 0 else end
            parts.append((i + 1, line[i + 1:end]))
            i = end
        i += 1
    if not quoted:
        parts.append((start, line[start:i]))
    return parts


def occurrences(lines: list, name: str) -> list:
    """(row, character, after a ``.``) of every use of the word ``name`` in code (see
    :func:`code_parts`); the third says whether it is written as an attribute (``c.name``)."""
    pattern = re.compile(r"(?<![A-Za-z0-9_])" + re.escape(name) + r"(?![A-Za-z0-9_])")
    found = []
    for row, line in enumerate(lines):
        if name not in line:
            continue
        for start, part in code_parts(line):
            for m in pattern.finditer(part):
                found.append((row, start + m.start(), part[:m.start()].rstrip().endswith(".")))
    return found


def block_end(lines: list, row: int) -> int:
    """The last line of the block that the line ``row`` opens (by indentation)."""
    indent = len(lines[row]) - len(lines[row].lstrip())
    last = row
    for r in range(row + 1, len(lines)):
        s = lines[r].strip()
        if not s or s.startswith("#"):
            continue
        if len(lines[r]) - len(lines[r].lstrip()) <= indent:
            break
        last = r
    return last


def before_cursor(lines: list, row: int, char: int) -> str:
    """The code of line ``row`` before the cursor, without the word being typed."""
    if not 0 <= row < len(lines):
        return ""
    head = lines[row][:char]
    m = re.search(r"[A-Za-z0-9_]*$", head)
    return head[:m.start()] if m else head
