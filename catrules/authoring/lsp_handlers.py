"""The language server's handlers: each protocol method of ``catrules lsp`` wired to
:mod:`catrules.authoring.lsp_features`.  A request that fails on a file answers nothing
(an empty answer) rather than stop the server: the editor's other features go on."""

from __future__ import annotations

import functools

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from . import lsp_features as features


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


def register(server) -> None:
    """Register the handlers on ``server`` (a :class:`catrules.authoring.lsp.CatrulesServer`)."""
    at = lambda p: (p.position.line, p.position.character)      # noqa: E731

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: lsp.DidOpenTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: lsp.DidChangeTextDocumentParams):
        ls.refresh(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: lsp.DidCloseTextDocumentParams):
        ls.forget(params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_COMPLETION, lsp.CompletionOptions(trigger_characters=["."]))
    @_safe(lsp.CompletionList(is_incomplete=False, items=[]))
    def completion(ls, params: lsp.CompletionParams):
        items = features.completion(ls.doc(params.text_document.uri), *at(params))
        return lsp.CompletionList(is_incomplete=False, items=items)

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    @_safe(None)
    def hover(ls, params: lsp.HoverParams):
        text = features.hover(ls.doc(params.text_document.uri), *at(params))
        if text is None:
            return None
        return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value=text))

    @server.feature(lsp.TEXT_DOCUMENT_DEFINITION)
    @_safe(None)
    def definition(ls, params: lsp.DefinitionParams):
        return features.definition(ls.doc(params.text_document.uri), *at(params))

    @server.feature(lsp.TEXT_DOCUMENT_REFERENCES)
    @_safe([])
    def references(ls, params: lsp.ReferenceParams):
        return features.references(ls.doc(params.text_document.uri), *at(params),
                                   include_declaration=params.context.include_declaration)

    @server.feature(lsp.TEXT_DOCUMENT_RENAME)
    @_safe(None)
    def rename(ls, params: lsp.RenameParams):
        try:
            return features.rename(ls.doc(params.text_document.uri), *at(params), params.new_name)
        except features.RenameRefused as exc:       # the editor shows the message, in words
            raise JsonRpcException(message=str(exc), code=lsp.LSPErrorCodes.RequestFailed) from None

    @server.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    @_safe([])
    def symbols(ls, params: lsp.DocumentSymbolParams):
        return features.symbols(ls.doc(params.text_document.uri))

    @server.feature(lsp.TEXT_DOCUMENT_FORMATTING)
    @_safe([])
    def formatting(ls, params: lsp.DocumentFormattingParams):
        return features.formatting(ls.doc(params.text_document.uri))

