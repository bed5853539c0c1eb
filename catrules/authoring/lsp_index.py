"""What the language server knows of a game file's names: :class:`Index`.

An index maps each declared name (zone, counter, definition, action, phase, option, card
type, score item) to its :class:`Decl`: its kind, file, place and hover text; and it knows
the card attributes, symbols and the names that hold a player.  It is built from a file
that checked (:func:`from_checked`, exact and with the texts printed from the tree) or,
for a file with errors, line by line from the declarations that still read as such
(:func:`scan`), merged with the last index of the file that checked (:func:`merge`), so
that hover, completion, definitions and symbols keep working while a file is broken.
"""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path
from typing import Optional

from ..check import types
from ..lang import ast, source_text
from .lsp_text import WORD, editor_lines

_DECLARATION = re.compile(r"^(?:replace\s+)?(zone|counter|define|action|phase|option|cards)\s+"
                          r"([A-Za-z_][A-Za-z0-9_]*)")
_KINDS = {"zone": "zone", "counter": "counter", "define": "definition", "action": "action",
          "phase": "phase", "option": "option", "cards": "card type"}
_EXTENDS = re.compile(r'^extends\s+"([^"\n]*)"')
_SCORE_ITEM = re.compile(r"^\s+([A-Za-z_][A-Za-z0-9_]*)\s*=")
_ATTRIBUTE = re.compile(r"(?:\bwith\b|,)\s*([A-Za-z_][A-Za-z0-9_]*)\s+[^\s,]")


@dataclasses.dataclass
class Decl:
    """A declared name: its kind, the file and place (editor line, character) of its name,
    and what a hover on it shows."""
    name: str
    kind: str
    path: str
    row: int
    char: int
    hover: str = ""


@dataclasses.dataclass
class Index:
    """The names of one game file (and of the base files it extends)."""
    decls: dict = dataclasses.field(default_factory=dict)          # name -> Decl
    attributes: set = dataclasses.field(default_factory=set)
    symbols: set = dataclasses.field(default_factory=set)
    players: set = dataclasses.field(default_factory=set)          # counters holding a player
    checked: bool = False


def declaration_line(lines: list, row: int) -> str:
    """The line of a declaration, its comment left out."""
    text = lines[row] if 0 <= row < len(lines) else ""
    return text.split("  #", 1)[0].rstrip()


def _place(lines: list, line: int, column: int, name: str) -> tuple:
    """(editor line, character) of ``name`` on the parser's ``line``, at or after ``column``."""
    row = max(line - 1, 0)
    src = lines[row] if row < len(lines) else ""
    for m in WORD.finditer(src):
        if m.group() == name and m.start() >= column - 1:
            return row, m.start()
    at = src.find(name)
    return row, max(at, 0)


def _where(path: str, here: str, line: int) -> str:
    where = f"line {line}" if path == here else f"{Path(path).name}, line {line}"
    return f"\n\n{where}"


def from_checked(c, path: str, text: str) -> Index:
    """The index of a game that checked (``c``: a :class:`catrules.check.checked.Checked`)."""
    game = c.game
    files = {path: editor_lines(text)}
    for p, src in game.sources.items():
        files.setdefault(os.path.normpath(p), editor_lines(src))
    index = Index(attributes=set(c.attributes), symbols=set(c.symbols), checked=True)
    index.players = {n for n, t in c.counter_types.items() if getattr(t, "kind", None) == "player"}

    def add(node, name: str, kind: str, code: Optional[str] = None):
        where = os.path.normpath(game.origins.get(id(node), path))
        lines = files.get(where) or editor_lines(_read(where) or "")
        row, char = _place(lines, node.line, node.column, name)
        shown = code if code is not None else declaration_line(lines, row).strip()
        hover = f"```catrules\n{shown}\n```" + _where(where, path, node.line)
        index.decls[name] = Decl(name, kind, where, row, char, hover)

    for n in game.options:
        add(n, n.name, "option")
    for n in game.cards:
        add(n, n.name, "card type")
    for n in game.zones:
        add(n, n.name, "zone")
    for n in game.counters:
        per = " of each card" if n.per_card else (" of each player" if n.per_player else "")
        add(n, n.name, "counter", f"counter {n.name}{per} = {source_text.expr(n.value)}")
    for n in game.defines:
        params = f"({', '.join(n.params)})" if n.params else ""
        add(n, n.name, "definition", f"define {n.name}{params} = {source_text.expr(n.body)}")
    for n in game.actions:
        add(n, n.name, "action", action_text(n))
    for n in game.phases:
        add(n, n.name, "phase", f"phase {n.name}:")
    for n in game.score:
        if isinstance(n, ast.ScoreItem):
            add(n, n.name, "score item", f"{n.name} = {source_text.expr(n.value)}")
    return index


def action_text(a: ast.Action) -> str:
    """An action as text: its header and its statements (for a hover)."""
    return "\n".join([source_text.action(a) + ":"] + _block(a.body, 1))


def _block(body: list, depth: int) -> list:
    """The statements of a block as lines; nested blocks indented (a hover, not a formatter)."""
    pad, out = "    " * depth, []
    for s in body:
        if isinstance(s, ast.If):
            for i, (cond, inner) in enumerate(s.branches):
                out.append(f"{pad}{'if' if i == 0 else 'else if'} {source_text.expr(cond)}:")
                out += _block(inner, depth + 1)
            if s.otherwise:
                out += [f"{pad}else:"] + _block(s.otherwise, depth + 1)
        elif isinstance(s, ast.Menu):
            out.append(pad + source_text.stmt(s) + ":")
            for label, cond, inner, *_ in s.branches:     # (label, condition, body, place)
                out.append(f"{pad}    {source_text.menu_branch(label, cond)}:")
                out += _block(inner, depth + 2)
        elif isinstance(getattr(s, "body", None), list):
            out.append(pad + source_text.stmt(s) + ":")
            out += _block(s.body, depth + 1)
        else:
            out.append(pad + source_text.stmt(s))
    return out


def _read(path: str) -> Optional[str]:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def base_of(text: str, path: str) -> Optional[str]:
    """The path of the file that ``text`` extends, if it says ``extends "..."``."""
    for line in editor_lines(text)[:200]:
        m = _EXTENDS.match(line.lstrip("\ufeff"))
        if m:
            return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), m.group(1))) \
                if m.group(1) else None
    return None


def scan(text: str, path: str, depth: int = 0) -> Index:
    """A best-effort index of a file that does not check: its lines that declare something
    (``zone NAME``, ``define NAME``, score items...), card attributes after ``with``, and
    those of the base file it extends (read from disk)."""
    index = Index()
    base = base_of(text, path)
    if base and depth < 8:
        src = _read(base)
        if src is not None:
            index = scan(src, base, depth + 1)
    lines = editor_lines(text)
    in_score = in_cards = False
    for row, line in enumerate(lines):
        bare = line.lstrip("\ufeff")
        if bare[:1] not in (" ", "\t", "#", ""):
            in_score = bool(re.match(r"^(?:replace\s+)?score\s*:", bare))
            in_cards = bare.startswith("cards ")
        m = _DECLARATION.match(bare)
        if m:
            name, kind = m.group(2), _KINDS[m.group(1)]
            hover = f"```catrules\n{declaration_line(lines, row).strip()}\n```" + _where(path, path, row + 1)
            index.decls[name] = Decl(name, kind, path, row, m.start(2) + len(line) - len(bare), hover)
        elif in_score and (m := _SCORE_ITEM.match(line)):
            hover = f"```catrules\n{line.strip()}\n```" + _where(path, path, row + 1)
            index.decls[m.group(1)] = Decl(m.group(1), "score item", path, row, m.start(1), hover)
        elif in_cards:
            index.attributes.update(a.group(1) for a in _ATTRIBUTE.finditer(line.split("#", 1)[0]))
    return index


def merge(now: Index, last: Optional[Index]) -> Index:
    """The index of a broken file: what its lines declare now, and from the last version that
    checked every name it still declares (with that version's fuller hover text) and its
    attributes, symbols and players."""
    if last is None:
        return now
    out = Index(decls=dict(now.decls), attributes=now.attributes | last.attributes,
                symbols=set(last.symbols), players=set(last.players))
    for name, old in last.decls.items():
        new = out.decls.get(name)
        if new is not None and new.kind == old.kind and old.hover:
            body = old.hover.rsplit("\n\n", 1)[0]
            out.decls[name] = dataclasses.replace(new, hover=body + new.hover[new.hover.rfind("\n\n"):])
    return out


#: Attributes of places and lines (``at.start``, ``at.before``...), from the checker.
PLACE_ATTRIBUTES = tuple(sorted(types.PLACE_ATTR_TYPES))
