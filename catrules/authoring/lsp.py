"""A language server for game files (``catrules lsp``): diagnostics, completion, hover.

It speaks the Language Server Protocol on standard input and output, with
pygls (``pip install catrules[lsp]``).  As a file is opened or changed it is
parsed, checked and compiled as ``catrules check`` does, and every error and
warning goes back to the editor with its place.  Completion offers the
names of the game (zones, counters, card attributes, symbols, definitions,
actions, phases, options) from the last version of the file that checked,
and the language's keywords.  Hover on a name shows what it is, and for a
definition or an action its text, printed from the tree by
:mod:`catrules.lang.source_text`.
"""

from __future__ import annotations

import re
from typing import Optional

import dataclasses

from .. import __version__
from ..lang import ast, parser, source_text
from ..check import checker
from ..compile import compiler
from ..errors import Diagnostic, GameFileError, source_lines

try:                                    # pygls 2 moved the server class
    from pygls.lsp.server import LanguageServer
except ImportError:                     # pragma: no cover - pygls 1.x
    from pygls.server import LanguageServer
from lsprotocol import types as lsp

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KIND = {
    "zone": lsp.CompletionItemKind.Module, "counter": lsp.CompletionItemKind.Variable,
    "attribute": lsp.CompletionItemKind.Field, "symbol": lsp.CompletionItemKind.EnumMember,
    "definition": lsp.CompletionItemKind.Function, "action": lsp.CompletionItemKind.Method,
    "phase": lsp.CompletionItemKind.Class, "option": lsp.CompletionItemKind.Constant,
    "card type": lsp.CompletionItemKind.Struct, "keyword": lsp.CompletionItemKind.Keyword,
}


@dataclasses.dataclass
class Names:
    """What a checked game calls things: name -> (kind, hover text)."""
    table: dict = dataclasses.field(default_factory=dict)


def analyse(text: str, path: str) -> tuple[list, Optional[Names]]:
    """The diagnostics of ``text`` (errors and warnings) and its names if it checked."""
    try:
        checked = checker.check(parser.parse(text, path))
        compiler.compile_game(checked)
    except GameFileError as exc:
        return list(exc.diagnostics), None
    except RecursionError:
        return [Diagnostic(path, 1, 1, "the file is nested too deeply to check",
                           "split long expressions with definitions")], None
    warnings = [w for w in checked.warnings if isinstance(w, Diagnostic)]
    return warnings, _names(checked)


def _names(c: checker.Checked) -> Names:
    t: dict = {}
    for name in c.zones:
        t[name] = ("zone", f"zone `{name}`")
    for name in c.attributes:
        t.setdefault(name, ("attribute", f"card attribute `{name}`"))
    for name in c.symbols:
        t.setdefault(name, ("symbol", f"symbol `{name}`"))
    for name, node in c.counters.items():
        per = " of each card" if node.per_card else (" of each player" if node.per_player else "")
        t[name] = ("counter", f"```catrules\ncounter {name}{per} = {source_text.expr(node.value)}\n```")
    for name in c.options:
        t[name] = ("option", f"option `{name}`")
    for name in c.card_types:
        t.setdefault(name, ("card type", f"cards `{name}`"))
    for name, node in c.defines.items():
        params = f"({', '.join(node.params)})" if node.params else ""
        t[name] = ("definition", f"```catrules\ndefine {name}{params} = {source_text.expr(node.body)}\n```"
                                 + _where(node))
    for name, node in c.actions.items():
        t[name] = ("action", f"```catrules\n{_action_text(node)}\n```" + _where(node))
    for name, node in c.phases.items():
        t[name] = ("phase", f"```catrules\nphase {name}:\n```" + _where(node))
    return Names(t)


def _action_text(a: ast.Action) -> str:
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
            for label, cond, inner in s.branches:
                out.append(f"{pad}    {source_text.menu_branch(label, cond)}:")
                out += _block(inner, depth + 2)
        elif isinstance(getattr(s, "body", None), list):
            out.append(pad + source_text.stmt(s) + ":")
            out += _block(s.body, depth + 1)
        else:
            out.append(pad + source_text.stmt(s))
    return out


def _where(node) -> str:
    return f"\n\nline {node.line}" if getattr(node, "line", 0) else ""


def _units(text: str, encoding: str) -> int:
    """The length of ``text`` in the protocol's units: UTF-16 code units unless agreed otherwise."""
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    if encoding == "utf-32":
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def _editor_lines(text: str) -> list:
    """The lines as an editor counts them (the protocol ends a line at ``\\n``, ``\\r\\n`` or ``\\r``)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _position(text: str, line: int, column: int, encoding: str) -> tuple:
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
    return row, _units(head, encoding), rest


def to_lsp(d: Diagnostic, text: str, path: str, encoding: str = "utf-16") -> lsp.Diagnostic:
    """A catrules diagnostic as the protocol's: the range covers the word at its column."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    line, col = d.line, d.column
    if d.path != path:                  # an error in a variant's base file: show it at the top
        message = f"{d.path}:{d.line}: {message}"
        line = col = 1
    row, start, rest = _position(text, line, col, encoding)
    m = _WORD.match(rest)
    end = start + (_units(m.group(), encoding) if m else (_units(rest[0], encoding) if rest else 1))
    severity = lsp.DiagnosticSeverity.Warning if d.severity == "warning" else lsp.DiagnosticSeverity.Error
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(row, start), lsp.Position(row, end)),
                          message=message, severity=severity, source="catrules")


def word_at(text: str, line: int, character: int, encoding: str = "utf-16") -> tuple[str, str]:
    """(the whole word under the cursor, the part of it before the cursor); ``line`` and
    ``character`` are the editor's (see :func:`_editor_lines`)."""
    lines = _editor_lines(text)
    if line >= len(lines):
        return "", ""
    src = lines[line]
    at, units = 0, 0                    # the cursor in characters
    while at < len(src) and units < character:
        units += _units(src[at], encoding)
        at += 1
    for m in _WORD.finditer(src):
        if m.start() <= at <= m.end():
            return m.group(), src[m.start():at]
    return "", ""


class CatrulesServer(LanguageServer):
    """The server, with the last names of each document that checked."""

    def __init__(self):
        super().__init__("catrules", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.names: dict = {}           # uri -> Names of the last version that checked

    def refresh(self, uri: str) -> None:
        doc = self.workspace.get_text_document(uri)
        path = doc.path or uri
        found, names = analyse(doc.source, path)
        if names is not None:
            self.names[uri] = names
        diagnostics = [to_lsp(d, doc.source, path, self.encoding()) for d in found]
        params = lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=doc.version)
        if hasattr(self, "text_document_publish_diagnostics"):
            self.text_document_publish_diagnostics(params)
        else:                           # pragma: no cover - pygls 1.x
            self.publish_diagnostics(uri, diagnostics)

    def encoding(self) -> str:
        """The position encoding agreed with the editor (UTF-16 unless it offered another)."""
        enc = getattr(self.workspace, "position_encoding", None)
        return str(getattr(enc, "value", enc) or "utf-16")

    def completions(self, uri: str, line: int, character: int) -> list:
        doc = self.workspace.get_text_document(uri)
        _, prefix = word_at(doc.source, line, character, self.encoding())
        table = self.names.get(uri, Names()).table
        items = [lsp.CompletionItem(label=name, kind=_KIND[kind], detail=kind)
                 for name, (kind, _) in sorted(table.items()) if name.startswith(prefix)]
        items += [lsp.CompletionItem(label=w, kind=lsp.CompletionItemKind.Keyword, detail="keyword")
                  for w in sorted(parser.keywords()) if w.startswith(prefix) and w not in table]
        return items

    def hover_text(self, uri: str, line: int, character: int) -> Optional[str]:
        doc = self.workspace.get_text_document(uri)
        word, _ = word_at(doc.source, line, character, self.encoding())
        entry = self.names.get(uri, Names()).table.get(word)
        if entry is not None:
            return f"*{entry[0]}*\n\n{entry[1]}"
        if word in parser.keywords():
            return f"keyword `{word}`"
        return None


def make_server() -> CatrulesServer:
    """A server with its handlers registered."""
    server = CatrulesServer()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CatrulesServer, params: lsp.DidOpenTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CatrulesServer, params: lsp.DidChangeTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CatrulesServer, params: lsp.DidCloseTextDocumentParams):
        ls.names.pop(params.text_document.uri, None)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION)
    def completion(ls: CatrulesServer, params: lsp.CompletionParams):
        pos = params.position
        return lsp.CompletionList(is_incomplete=False,
                                  items=ls.completions(params.text_document.uri, pos.line, pos.character))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: CatrulesServer, params: lsp.HoverParams):
        pos = params.position
        text = ls.hover_text(params.text_document.uri, pos.line, pos.character)
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    return server


def serve() -> None:
    """Serve one editor on standard input and output until it says exit."""
    make_server().start_io()
