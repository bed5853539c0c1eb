"""A language server for game files (``catrules lsp``), on standard input and output.

It speaks the Language Server Protocol with pygls (``pip install catrules[lsp]``).  As a
file is opened or changed it is parsed, checked and compiled as ``catrules check`` does, and
every error and warning goes back to the editor with its place.  What it knows of the file's
names (:mod:`catrules.authoring.lsp_index`) comes from the last version that checked, brought
up to date line by line while the file has errors, so that the features of
:mod:`catrules.authoring.lsp_features` (completion by context, hover, go to definition,
references, rename across ``extends``, document symbols, formatting with ``catrules fmt``)
keep working on a broken file.  No file stops the server: whatever goes wrong on one file is
reported on that file, and the server goes on.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Optional

from .. import __version__
from ..check import checker
from ..compile import compiler
from ..errors import Diagnostic, GameFileError
from ..lang import parser
from . import lsp_features as features
from .lsp_handlers import register
from .lsp_index import Index, base_of, from_checked, merge, scan
from .lsp_text import WORD, position, units, word_at  # noqa: F401  (word_at: part of this module's API)

try:                                    # pygls 2 moved the server class
    from pygls.lsp.server import LanguageServer
except ImportError:                     # pragma: no cover - pygls 1.x
    from pygls.server import LanguageServer
from lsprotocol import types as lsp

_UNEXPECTED = ("catrules could not check this file: an internal error (please report it, with the file); "
               "the editor's other features go on")


def analyse(text: str, path: str) -> tuple[list, Optional[checker.Checked]]:
    """The diagnostics of ``text`` (errors and warnings), and the checked game if it checked."""
    try:
        checked = checker.check(parser.parse(text, path))
        compiler.compile_game(checked)
    except GameFileError as exc:
        return list(exc.diagnostics) + list(exc.warnings), None
    except RecursionError:
        return [Diagnostic(path, 1, 1, "the file is nested too deeply to check",
                           "split long expressions with definitions")], None
    except Exception:                   # a bug of catrules must not stop the editor's server
        return [Diagnostic(path, 1, 1, _UNEXPECTED)], None
    warnings = [w for w in checked.warnings if isinstance(w, Diagnostic)]
    return warnings, checked


def to_lsp(d: Diagnostic, text: str, path: str, encoding: str = "utf-16") -> lsp.Diagnostic:
    """A catrules diagnostic as the protocol's: the range covers the word at its column."""
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    line, col = d.line, d.column
    if d.path != path:                  # an error in a variant's base file: show it at the top
        message = f"{d.path}:{d.line}: {message}"
        line = col = 1
    row, start, rest = position(text, line, col, encoding)
    m = WORD.match(rest)
    end = start + (units(m.group(), encoding) if m else (units(rest[0], encoding) if rest else 1))
    severity = lsp.DiagnosticSeverity.Warning if d.severity == "warning" else lsp.DiagnosticSeverity.Error
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(row, start), lsp.Position(row, end)),
                          message=message, severity=severity, source="catrules")


class CatrulesServer(LanguageServer):
    """The server, with the index of each open document and of its last version that checked."""

    def __init__(self):
        super().__init__("catrules", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.good: dict = {}            # uri -> Index of the last version that checked
        self.index: dict = {}           # uri -> Index of the current version

    def refresh(self, uri: str) -> None:
        doc = self.workspace.get_text_document(uri)
        path = doc.path or uri
        found, checked = analyse(doc.source, path)
        try:
            if checked is not None:
                self.good[uri] = self.index[uri] = from_checked(checked, path, doc.source)
            else:
                self.index[uri] = merge(scan(doc.source, path), self.good.get(uri))
        except Exception:               # a bug here: the names its lines declare, at least
            self.index[uri] = merge(scan(doc.source, path), self.good.get(uri))
        diagnostics = [to_lsp(d, doc.source, path, self.encoding()) for d in found]
        params = lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=doc.version)
        if hasattr(self, "text_document_publish_diagnostics"):
            self.text_document_publish_diagnostics(params)
        else:                           # pragma: no cover - pygls 1.x
            self.publish_diagnostics(uri, diagnostics)

    def forget(self, uri: str) -> None:
        self.good.pop(uri, None)
        self.index.pop(uri, None)

    def encoding(self) -> str:
        """The position encoding agreed with the editor (UTF-16 unless it offered another)."""
        enc = getattr(self.workspace, "position_encoding", None)
        return str(getattr(enc, "value", enc) or "utf-16")

    def doc(self, uri: str) -> features.Doc:
        """A document as :mod:`~catrules.authoring.lsp_features` sees it, with its related files:
        the base files it extends (open or on disk) and the open files that extend it."""
        document = self.workspace.get_text_document(uri)
        path = document.path or uri
        opened = {d.path or u: d.source for u, d in self.workspace.text_documents.items()}
        related, text, here = {}, document.source, path
        for _ in range(8):
            base = base_of(text, here)
            if not base or base in related or base == path:
                break
            text = opened.get(base) if base in opened else _read(base)
            if text is None:
                break
            related[base], here = text, base
        for other, source in opened.items():
            if other != path and base_of(source, other) == os.path.normpath(os.path.abspath(path)):
                related[other] = source
        return features.Doc(document.source, path, self.index.get(uri) or Index(), self.encoding(), related)


def _read(path: str) -> Optional[str]:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def make_server() -> CatrulesServer:
    """A server with its handlers registered (:mod:`catrules.authoring.lsp_handlers`)."""
    server = CatrulesServer()
    register(server)
    return server


def serve() -> None:
    """Serve one editor on standard input and output until it says exit."""
    make_server().start_io()
