"""The language server's handlers: each protocol method of ``catrules lsp`` wired to
:mod:`catrules.authoring.lsp_features`.  A request that fails on a file answers nothing
(an empty answer) rather than stop the server: the editor's other features go on."""

from __future__ import annotations

import functools

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from . import lsp_features as features
from .lsp import CatrulesServer


def _safe(empty):
    """A handler that answers ``empty`` if it fails on a document (it is a bug, not the file's fault)."""
    def wrap(fn):
        @functools.wraps(fn)
        def handler(ls, params):
            try:
                return fn(ls, params)
            except JsonRpcException:
                raise
            except Exception:
                return empty
        return handler
    return wrap


def make_server() -> CatrulesServer:
    """A server with its handlers registered."""
    server = CatrulesServer()
    at = lambda p: (p.position.line, p.position.character)      # noqa: E731

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: CatrulesServer, params: lsp.DidOpenTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: CatrulesServer, params: lsp.DidChangeTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: CatrulesServer, params: lsp.DidCloseTextDocumentParams):
        ls.forget(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    @_safe(lsp.CompletionList(is_incomplete=False, items=[]))
    def completion(ls: CatrulesServer, params: lsp.CompletionParams):
        items = features.completion(ls.doc(params.text_document.uri), *at(params))
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_safe(None)
    def hover(ls: CatrulesServer, params: lsp.HoverParams):
        text = features.hover(ls.doc(params.text_document.uri), *at(params))
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_safe(None)
    def definition(ls: CatrulesServer, params: lsp.DefinitionParams):
        return features.definition(ls.doc(params.text_document.uri), *at(params))

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @_safe([])
    def references(ls: CatrulesServer, params: lsp.ReferenceParams):
        return features.references(ls.doc(params.text_document.uri), *at(params),
                                   include_declaration=params.context.include_declaration)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    @_safe(None)
    def rename(ls: CatrulesServer, params: lsp.RenameParams):
        try:
            return features.rename(ls.doc(params.text_document.uri), *at(params), params.new_name)
        except features.RenameRefused as exc:       # the editor shows the message, in words
            raise JsonRpcException(message=str(exc), code=lsp.LSPErrorCodes.RequestFailed) from None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe([])
    def symbols(ls: CatrulesServer, params: lsp.DocumentSymbolParams):
        return features.symbols(ls.doc(params.text_document.uri))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    @_safe([])
    def formatting(ls: CatrulesServer, params: lsp.DocumentFormattingParams):
        return features.formatting(ls.doc(params.text_document.uri))

    return server
