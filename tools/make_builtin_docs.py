"""Write ``catrules/authoring/builtin_docs.py``, the help on builtin functions, from the docs.

The language reference (``docs/language.rst``, section "Builtin functions") is the one place
where the builtins are explained; the language server shows that text when the cursor is on a
builtin (see :mod:`catrules.authoring.lsp`), and an installed catrules has no docs folder,
so this tool copies the section's entries into a module.  Run it after the section changes::

    python tools/make_builtin_docs.py            # rewrite the module
    python tools/make_builtin_docs.py --check    # exit 1 if the module is stale

tests/test_lsp_builtins.py checks that the module is what this prints and that it explains
exactly the builtins the checker knows (``catrules.check.types.BUILTINS``).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "docs" / "language.rst"
TARGET = ROOT / "catrules" / "authoring" / "builtin_docs.py"


def entries(rst: str) -> dict:
    """name -> (the entry's forms as written, its text) of the "Builtin functions" section."""
    section = rst.split("\nBuiltin functions\n-----------------\n", 1)[1]
    section = re.split(r"\n\S[^\n]*\n-{3,}\n", section, maxsplit=1)[0]
    out: dict = {}
    term, body = None, []

    def flush():
        if term is not None and body:
            text = " ".join(" ".join(body).split())
            text = re.sub(r"`([^`]+)`_", r"\1 (in the language reference)", text)
            for name in re.findall(r"``([a-z_]+)\(", term):
                form, said = term.replace("``", "`"), text.replace("``", "`")
                if name in out:             # a second entry, as `top(PILE, n)` after `top(PILE)`
                    form, said = f"{out[name][0]}\n{form}", f"{out[name][1]}\n\n{form}: {said}"
                out[name] = (form, said)

    for line in section.split("\n"):
        if line.startswith("``") and "(" in line:
            flush()
            term, body = line.strip(), []
        elif term is not None and line.startswith("   ") and not line.startswith("   :"):
            body.append(line.strip())
        elif line.strip() and not line.startswith(" "):
            flush()
            term, body = None, []
    flush()
    return out


def module_text() -> str:
    found = entries(SOURCE.read_text(encoding="utf-8"))
    rows = "".join(f"    {name!r}: (\n        {form!r},\n        {text!r}),\n"
                   for name, (form, text) in sorted(found.items()))
    return ('"""The builtin functions as the language reference explains them (docs/language.rst,\n'
            '"Builtin functions"): name -> (its forms, the text).  Written by tools/make_builtin_docs.py:\n'
            'do not edit, change the docs and run the tool."""\n\n'
            "# flake8: noqa: E501\n"
            "BUILTIN_DOCS = {\n" + rows + "}\n")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 if the module is not up to date")
    args = ap.parse_args(argv)
    text = module_text()
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is stale: run python tools/make_builtin_docs.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
