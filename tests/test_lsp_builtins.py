"""The help on builtins that the language server shows is the language reference's text:
catrules/authoring/builtin_docs.py is what tools/make_builtin_docs.py makes of docs/language.rst,
and it explains exactly the builtins the checker knows."""

import importlib.util
from pathlib import Path

from catrules.authoring.builtin_docs import BUILTIN_DOCS
from catrules.check.types import BUILTINS

ROOT = Path(__file__).resolve().parents[1]


def _maker():
    spec = importlib.util.spec_from_file_location("make_builtin_docs", ROOT / "tools" / "make_builtin_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_module_is_what_the_tool_makes_of_the_docs():
    maker = _maker()
    assert (ROOT / "catrules" / "authoring" / "builtin_docs.py").read_text(encoding="utf-8") == maker.module_text()
    assert maker.main(["--check"]) == 0


def test_every_builtin_of_the_checker_is_explained_and_no_other():
    assert set(BUILTIN_DOCS) == set(BUILTINS)
    for name, (forms, text) in BUILTIN_DOCS.items():
        assert f"`{name}(" in forms and len(text) > 10, name
        assert "``" not in text and "`_" not in text        # reStructuredText made plain


def test_the_entries_read_the_docs_text():
    rst = (ROOT / "docs" / "language.rst").read_text(encoding="utf-8")
    assert "How many elements ``L`` has" in rst and BUILTIN_DOCS["count"][1].startswith("How many elements `L` has")
    assert "top(PILE, n)" in BUILTIN_DOCS["top"][0] and "top one first" in BUILTIN_DOCS["top"][1]
    fake = "Builtin functions\n-----------------\n\n``wobble(x)``\n   Wobbles ``x``.\n\nNext\n----\n"
    assert _maker().entries("intro\n" + fake) == {"wobble": ("`wobble(x)`", "Wobbles `x`.")}
