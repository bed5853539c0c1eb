"""What the language server answers, given a document and its :class:`~.lsp_index.Index`:
completion by context, hover, definition, references, rename, document symbols, formatting.

Each function takes a :class:`Doc` (the text, its path, its index, the position encoding and
the other files that matter: the base files it extends and the open files that extend it) and
returns the protocol's objects (:mod:`lsprotocol.types`).  Uses of a name are found in the
text (words in code, not in comments; in quoted text only inside ``{...}``), so they are found
in a file with errors too.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Optional

from lsprotocol import types as lsp

from ..lang import parser
from .builtin_docs import BUILTIN_DOCS
from .lsp_index import PLACE_ATTRIBUTES, Index
from .lsp_text import before_cursor, block_end, char_index, editor_lines, occurrences, units, word_at

_ITEM_KIND = {
    "zone": lsp.CompletionItemKind.Module, "counter": lsp.CompletionItemKind.Variable,
    "attribute": lsp.CompletionItemKind.Field, "symbol": lsp.CompletionItemKind.EnumMember,
    "definition": lsp.CompletionItemKind.Function, "action": lsp.CompletionItemKind.Method,
    "phase": lsp.CompletionItemKind.Class, "option": lsp.CompletionItemKind.Constant,
    "card type": lsp.CompletionItemKind.Struct, "keyword": lsp.CompletionItemKind.Keyword,
    "score item": lsp.CompletionItemKind.Property, "builtin": lsp.CompletionItemKind.Function,
    "player": lsp.CompletionItemKind.Variable, "place attribute": lsp.CompletionItemKind.Field,
}
_SYMBOL_KIND = {
    "zone": lsp.SymbolKind.Module, "counter": lsp.SymbolKind.Variable, "definition": lsp.SymbolKind.Function,
    "action": lsp.SymbolKind.Method, "phase": lsp.SymbolKind.Class, "option": lsp.SymbolKind.Constant,
    "card type": lsp.SymbolKind.Struct, "score item": lsp.SymbolKind.Field,
}
_ZONE_WORDS = ("to", "from", "into", "in")
_PLAYER_CALLS = ("next", "previous", "others", "tallied")
_HEADER = re.compile(r"^(?:replace\s+)?(?:action|define)\s+[A-Za-z_]\w*\s*\(([^)]*)\)")
_EACH_PLAYER = re.compile(r"\bfor\s+each\s+([A-Za-z_]\w*)\s+in\s+(?:players|others|everyone)\b"
                          r"|\beach\s+player\s+([A-Za-z_]\w*)")
_CHOOSER = re.compile(r"^\s*(?:openly\s+)?([A-Za-z_]\w*)\s+chooses\b")


@dataclasses.dataclass
class Doc:
    """One document as the features see it."""
    text: str
    path: str
    index: Index
    encoding: str = "utf-16"
    related: dict = dataclasses.field(default_factory=dict)     # other path -> text (bases, variants)

    @property
    def lines(self) -> list:
        return editor_lines(self.text)

    def lines_of(self, path: str) -> list:
        return self.lines if path == self.path else editor_lines(self.related.get(path, ""))


def _range(lines: list, row: int, char: int, length: int, encoding: str) -> lsp.Range:
    src = lines[row] if 0 <= row < len(lines) else ""
    start = units(src[:char], encoding)
    return lsp.Range(lsp.Position(row, start), lsp.Position(row, start + units(src[char:char + length], encoding)))


def _uri(path: str) -> str:
    return Path(path).as_uri() if Path(path).is_absolute() else path


# ---- completion ---------------------------------------------------------------

def completion(doc: Doc, line: int, character: int) -> list:
    """The names that fit where the cursor is: zones after ``to``/``from``/``in``, card and
    place attributes after ``.``, players after ``of`` and in ``next(``..., all else otherwise."""
    lines = doc.lines
    _, prefix = word_at(doc.text, line, character, doc.encoding)
    at = char_index(lines[line], character, doc.encoding) if 0 <= line < len(lines) else 0
    before = before_cursor(lines, line, at).split("#", 1)[0].rstrip()
    last = re.search(r"([A-Za-z_]\w*)\s*$", before)
    last_word = last.group(1) if last else ""
    if before.endswith("."):
        offered = _attributes(doc.index)
    elif last_word in _ZONE_WORDS:
        offered = _of_kind(doc.index, "zone")
    elif last_word == "of":
        offered = _players(doc, line) + _of_kind(doc.index, "zone") + _of_kind(doc.index, "card type")
    elif re.search(r"\b(?:" + "|".join(_PLAYER_CALLS) + r")\(\s*$", before):
        offered = _players(doc, line)
    else:
        offered = _everything(doc.index)
    seen, items = set(), []
    for order, (label, kind) in enumerate(offered):
        if label.startswith(prefix) and label not in seen:
            seen.add(label)
            items.append(lsp.CompletionItem(label=label, kind=_ITEM_KIND[kind], detail=kind,
                                            sort_text=f"{order:05d}"))
    return items


def _of_kind(index: Index, kind: str) -> list:
    return [(n, kind) for n, d in sorted(index.decls.items()) if d.kind == kind]


def _attributes(index: Index) -> list:
    return [(a, "attribute") for a in sorted(index.attributes)] + \
           [(a, "place attribute") for a in PLACE_ATTRIBUTES]


def _players(doc: Doc, line: int) -> list:
    """Who may stand where a player goes: ``everyone``, the parameters of the enclosing action or
    definition, variables of a ``for each`` over players, choosers, counters holding a player."""
    found = ["everyone"]
    for row in range(min(line, len(doc.lines) - 1), -1, -1):
        src = doc.lines[row]
        found += [a or b for a, b in _EACH_PLAYER.findall(src)] + _CHOOSER.findall(src)
        m = _HEADER.match(src)
        if m:
            found += [p.strip() for p in m.group(1).split(",") if p.strip()]
        if src[:1].isalpha():
            break                       # the start of the enclosing declaration
    found += sorted(doc.index.players)
    return [(p, "player") for p in found]


def _everything(index: Index) -> list:
    names = [(n, d.kind) for n, d in sorted(index.decls.items())]
    names += [(a, "attribute") for a in sorted(index.attributes)]
    names += [(s, "symbol") for s in sorted(index.symbols)]
    names += [(b, "builtin") for b in sorted(BUILTIN_DOCS)]
    return names + [(w, "keyword") for w in sorted(parser.keywords() | parser.NAMES_TOO)]


# ---- hover, definition -----------------------------------------------------------

def hover(doc: Doc, line: int, character: int) -> Optional[str]:
    """What the word under the cursor is, in Markdown (None on nothing)."""
    word, _ = word_at(doc.text, line, character, doc.encoding)
    if not word:
        return None
    decl = doc.index.decls.get(word)
    src = doc.lines[line] if 0 <= line < len(doc.lines) else ""
    called = re.search(r"\b" + re.escape(word) + r"\s*\(", src) is not None
    if word in BUILTIN_DOCS and (called or decl is None):
        forms, text = BUILTIN_DOCS[word]
        return f"*builtin function*\n\n{forms}\n\n{text}"
    if decl is not None:
        return f"*{decl.kind}*\n\n{decl.hover}"
    if word in doc.index.attributes:
        return f"*card attribute* `{word}`"
    if word in doc.index.symbols:
        return f"*symbol* `{word}`"
    if word in parser.keywords():
        return f"keyword `{word}`"
    return None


def definition(doc: Doc, line: int, character: int) -> Optional[lsp.Location]:
    """Where the name under the cursor is declared (in this file or a base file)."""
    word, _ = word_at(doc.text, line, character, doc.encoding)
    decl = doc.index.decls.get(word)
    if decl is None:
        return None
    lines = doc.lines_of(decl.path)
    return lsp.Location(uri=_uri(decl.path), range=_range(lines, decl.row, decl.char, len(word), doc.encoding))


# ---- references, rename -----------------------------------------------------------

def _uses(doc: Doc, word: str) -> dict:
    """path -> [(row, character)] of the uses of ``word`` in this file and the related ones."""
    attribute = word in doc.index.attributes and word not in doc.index.decls
    out = {}
    for path in [doc.path] + sorted(doc.related):
        places = [(r, c) for r, c, dotted in occurrences(doc.lines_of(path), word) if attribute or not dotted]
        if places:
            out[path] = places
    return out


def _renamable(doc: Doc, word: str) -> bool:
    return bool(word) and (word in doc.index.decls or word in doc.index.attributes or word in doc.index.symbols)


def references(doc: Doc, line: int, character: int, include_declaration: bool = True) -> list:
    """Every use of the name under the cursor, across the files of the game."""
    word, _ = word_at(doc.text, line, character, doc.encoding)
    if not _renamable(doc, word):
        return []
    decl = doc.index.decls.get(word)
    out = []
    for path, places in _uses(doc, word).items():
        for row, char in places:
            if not include_declaration and decl and (decl.path, decl.row, decl.char) == (path, row, char):
                continue
            out.append(lsp.Location(uri=_uri(path),
                                    range=_range(doc.lines_of(path), row, char, len(word), doc.encoding)))
    return out


class RenameRefused(Exception):
    """A rename the server will not do; the message says why, in words."""


def rename(doc: Doc, line: int, character: int, new_name: str) -> Optional[lsp.WorkspaceEdit]:
    """The edits that rename the name under the cursor everywhere in the game's files."""
    word, _ = word_at(doc.text, line, character, doc.encoding)
    if not _renamable(doc, word):
        return None
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", new_name or ""):
        raise RenameRefused(f"`{new_name}` is not a name: use letters, digits and _, not starting with a digit")
    if new_name in parser.keywords() or new_name in BUILTIN_DOCS:
        raise RenameRefused(f"`{new_name}` is a word of the language: choose another name")
    if new_name != word and (new_name in doc.index.decls or new_name in doc.index.attributes):
        raise RenameRefused(f"the game already has a name `{new_name}`: choose another name")
    changes = {}
    for path, places in _uses(doc, word).items():
        lines = doc.lines_of(path)
        changes[_uri(path)] = [lsp.TextEdit(range=_range(lines, r, c, len(word), doc.encoding), new_text=new_name)
                               for r, c in places]
    return lsp.WorkspaceEdit(changes=changes)


# ---- symbols, formatting ---------------------------------------------------------------

def symbols(doc: Doc) -> list:
    """The declarations of this file, in file order: phases, actions, zones, counters..."""
    lines, out = doc.lines, []
    for decl in sorted(doc.index.decls.values(), key=lambda d: (d.row, d.char)):
        if decl.path != doc.path or decl.row >= len(lines):
            continue
        end = block_end(lines, decl.row) if decl.kind in ("phase", "action", "card type") else decl.row
        full = lsp.Range(lsp.Position(decl.row, 0), lsp.Position(end, units(lines[end], doc.encoding)))
        out.append(lsp.DocumentSymbol(name=decl.name, detail=decl.kind, kind=_SYMBOL_KIND[decl.kind], range=full,
                                      selection_range=_range(lines, decl.row, decl.char, len(decl.name),
                                                             doc.encoding)))
    return out


def formatting(doc: Doc) -> list:
    """One edit that puts the whole file in ``catrules fmt``'s layout; none if it does not parse."""
    from . import fmt
    try:
        new = fmt.format_text(doc.text, doc.path)
    except Exception:                   # a file that does not parse (or would change): no edits
        return []
    if new == doc.text:
        return []
    lines = doc.lines
    end = lsp.Position(len(lines) - 1, units(lines[-1], doc.encoding))
    return [lsp.TextEdit(range=lsp.Range(lsp.Position(0, 0), end), new_text=new)]
