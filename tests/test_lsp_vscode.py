"""The VS Code extension folder (editors/vscode) fits the rest: its language is `.cat`, its grammar
is the generated one (copied in when packaged), and its default command starts `catrules lsp`."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "editors" / "vscode"
PACKAGE = json.loads((HERE / "package.json").read_text(encoding="utf-8"))


def test_the_extension_declares_the_language_and_the_generated_grammar():
    (language,) = PACKAGE["contributes"]["languages"]
    assert language["id"] == "catrules" and language["extensions"] == [".cat"]
    (grammar,) = PACKAGE["contributes"]["grammars"]
    generated = json.loads((ROOT / "editors" / "catrules.tmLanguage.json").read_text(encoding="utf-8"))
    assert grammar["scopeName"] == generated["scopeName"] and grammar["language"] == "catrules"
    assert grammar["path"] == "./syntaxes/catrules.tmLanguage.json"
    assert "copy-grammar.js" in PACKAGE["scripts"]["vscode:prepublish"]
    assert "../catrules.tmLanguage.json" in (HERE / "copy-grammar.js").read_text(encoding="utf-8").replace(
        '"..", "catrules.tmLanguage.json"', "../catrules.tmLanguage.json")
    assert (HERE / "language-configuration.json").exists() and json.loads(
        (HERE / "language-configuration.json").read_text(encoding="utf-8"))["comments"]["lineComment"] == "#"


def test_the_default_command_is_the_language_server():
    props = PACKAGE["contributes"]["configuration"]["properties"]
    assert [props["catrules.server.command"]["default"]] + props["catrules.server.args"]["default"] == \
        ["catrules", "lsp"]
    assert "vscode-languageclient" in PACKAGE["dependencies"]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js")
def test_the_scripts_are_javascript_and_the_grammar_copies(tmp_path):
    for script in ("extension.js", "copy-grammar.js"):
        assert subprocess.run(["node", "--check", str(HERE / script)], capture_output=True).returncode == 0
    (tmp_path / "vscode").mkdir()
    shutil.copy(HERE / "copy-grammar.js", tmp_path / "vscode")
    shutil.copy(ROOT / "editors" / "catrules.tmLanguage.json", tmp_path)
    subprocess.run(["node", "copy-grammar.js"], cwd=tmp_path / "vscode", check=True, timeout=60)
    copied = tmp_path / "vscode" / "syntaxes" / "catrules.tmLanguage.json"
    assert copied.read_bytes() == (ROOT / "editors" / "catrules.tmLanguage.json").read_bytes()
