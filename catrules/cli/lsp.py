"""The ``catrules lsp`` command: the language server for editors, on stdin and stdout."""

from __future__ import annotations

from .common import Failure


def add_parser(sub) -> None:
    sp = sub.add_parser("lsp", help="a language server for editors (on stdin and stdout)",
                        description="Serve the Language Server Protocol on standard input and output: "
                                    "diagnostics as you type, completion by context, hover (builtins explained), "
                                    "go to definition, references, rename, document symbols, formatting.")
    sp.set_defaults(func=run)


def run(args) -> int:
    try:
        from ..authoring.lsp import serve
    except ImportError:
        raise Failure("catrules lsp needs pygls", "install it with: pip install 'catrules[lsp]'") from None
    serve()
    return 0
