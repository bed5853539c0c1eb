"""The VS Code extension folder (editors/vscode) fits the rest: its language is `.cat`, its grammar
is the generated one (copied in when packaged), and its default command starts `catrules lsp`."""

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import Client  # noqa: E402

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


# --- packaging with vsce -------------------------------------------------------------------------

SEMVER = re.compile(r"^\d+\.\d+\.\d+$")
LOCK = HERE / "package-lock.json"
NODE_MODULES = HERE / "node_modules"
HAS_VSCE = shutil.which("node") is not None and shutil.which("npx") is not None and \
    (NODE_MODULES / "@vscode" / "vsce").is_dir() and (NODE_MODULES / "vscode-languageclient").is_dir()
needs_vsce = pytest.mark.skipif(not HAS_VSCE, reason="needs Node.js and `npm install` in editors/vscode")
#: What the .vsix must hold (paths inside its extension/ folder), and what it must not.
EXPECTED = ("package.json", "extension.js", "language-configuration.json", "LICENSE", "README.md",
            "syntaxes/catrules.tmLanguage.json", "node_modules/vscode-languageclient/node.js",
            "node_modules/vscode-languageclient/package.json", "node_modules/vscode-jsonrpc/package.json",
            "node_modules/vscode-languageserver-protocol/package.json")
UNWANTED = ("copy-grammar.js", "package-lock.json", "node_modules/@vscode/", "node_modules/.bin/", "tests/",
            ".vsix")


def test_the_manifest_has_what_vsce_demands():
    for field in ("name", "displayName", "description", "publisher", "version", "license", "main"):
        assert isinstance(PACKAGE.get(field), str) and PACKAGE[field], field
    assert PACKAGE["name"] == PACKAGE["name"].lower() and " " not in PACKAGE["name"]
    assert SEMVER.match(PACKAGE["version"]) and PACKAGE["engines"]["vscode"].startswith("^1.")
    # no repository exists to name: vsce is told so instead of asking (an unattended build would stop)
    assert PACKAGE.get("repository") or PACKAGE["vsce"]["allowMissingRepository"] is True
    assert PACKAGE["license"] == "MIT" and "MIT License" in (HERE / "LICENSE").read_text(encoding="utf-8")
    assert not [dep for dep in ("activationEvents",) if "*" in PACKAGE.get(dep, [])]


def test_the_tools_and_the_client_library_are_pinned():
    deps = {**PACKAGE["dependencies"], **PACKAGE["devDependencies"]}
    assert set(deps) == {"vscode-languageclient", "@vscode/vsce"}
    assert all(SEMVER.match(version) for version in deps.values()), deps
    lock = json.loads(LOCK.read_text(encoding="utf-8"))["packages"]
    assert lock[""]["dependencies"] == PACKAGE["dependencies"]
    assert lock[""]["devDependencies"] == PACKAGE["devDependencies"]
    for name, version in deps.items():
        assert lock[f"node_modules/{name}"]["version"] == version
    assert lock["node_modules/@vscode/vsce"]["dev"] is True and not lock["node_modules/vscode-languageclient"].get("dev")


def test_the_main_file_and_the_contributed_files_exist():
    assert (HERE / PACKAGE["main"]).is_file()
    for language in PACKAGE["contributes"]["languages"]:
        assert (HERE / language["configuration"]).is_file()
    for grammar in PACKAGE["contributes"]["grammars"]:    # copied in from editors/ when packaged
        assert (ROOT / "editors" / Path(grammar["path"]).name).is_file()


def test_build_outputs_stay_out_of_git_and_build_files_out_of_the_package():
    ignored = (HERE / ".gitignore").read_text(encoding="utf-8").split()
    assert {"node_modules/", "syntaxes/", "*.vsix"} <= set(ignored)
    left_out = (HERE / ".vscodeignore").read_text(encoding="utf-8").split("\n")
    assert {"copy-grammar.js", "package-lock.json", "*.vsix", "node_modules/.bin/**"} <= set(left_out)
    tracked = subprocess.run(["git", "ls-files", "editors/vscode"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode == 0:
        assert not [f for f in tracked.stdout.split() if "node_modules" in f or f.endswith(".vsix")]


@needs_vsce
def test_vsce_lists_the_files_of_the_package():
    subprocess.run(["node", "copy-grammar.js"], cwd=HERE, check=True, timeout=60)
    listed = subprocess.run(["npx", "--no-install", "vsce", "ls"], cwd=HERE, capture_output=True, text=True,
                            timeout=300, stdin=subprocess.DEVNULL)
    assert listed.returncode == 0, listed.stderr
    files = set(listed.stdout.split())
    assert set(EXPECTED) <= files, set(EXPECTED) - files
    assert not [f for f in files if any(bad in f for bad in UNWANTED)]


@pytest.fixture(scope="module")
def vsix(tmp_path_factory):
    """The extension packaged by ``vsce package`` (prepublish script included), unzipped."""
    if not HAS_VSCE:
        pytest.skip("needs Node.js and `npm install` in editors/vscode")
    out = tmp_path_factory.mktemp("vsix")
    built = subprocess.run(["npx", "--no-install", "vsce", "package", "--out", str(out / "catrules.vsix")],
                           cwd=HERE, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "Do you want to continue" not in built.stdout
    with zipfile.ZipFile(out / "catrules.vsix") as z:
        z.extractall(out / "unzipped")
        names = z.namelist()
    return out / "unzipped" / "extension", names


def test_the_package_holds_the_grammar_the_client_and_its_runtime_dependencies(vsix):
    folder, names = vsix
    inside = {name.removeprefix("extension/") for name in names if name.startswith("extension/")}
    assert {e if e != "LICENSE" else "LICENSE.txt" for e in EXPECTED if e != "README.md"} <= inside
    assert "readme.md" in inside
    assert not [n for n in inside if any(bad in n for bad in UNWANTED)]
    assert (folder / "syntaxes" / "catrules.tmLanguage.json").read_bytes() == \
        (ROOT / "editors" / "catrules.tmLanguage.json").read_bytes()
    # every package the client needs at run time, as npm resolved it, is inside
    lock = json.loads(LOCK.read_text(encoding="utf-8"))["packages"]
    runtime = [path for path, entry in lock.items() if path and not entry.get("dev")]
    assert runtime and all(f"{path}/package.json" in inside for path in runtime), runtime


def _fake_host(folder, settings, game, path):
    env = {**os.environ, "PATH": path}
    done = subprocess.run(["node", str(ROOT / "tests" / "vscode_fake_host.js"), str(folder), json.dumps(settings),
                           str(game)], cwd=ROOT, capture_output=True, text=True, timeout=120, env=env)
    return done


def _shim(folder, name):
    """An executable ``name`` that runs this checkout's ``catrules`` (not whatever is installed)."""
    folder.mkdir(exist_ok=True)
    shim = folder / name
    shim.write_text(f'#!/bin/sh\ncd "{ROOT}" && exec "{sys.executable}" -m catrules "$@"\n', encoding="utf-8")
    shim.chmod(0o755)
    return shim


@pytest.mark.parametrize("game", ["meow.cat", "flapcat.cat"])
def test_the_packaged_client_starts_catrules_lsp_with_its_default_settings(vsix, tmp_path, game):
    pytest.importorskip("pygls")
    folder, _ = vsix
    shim = _shim(tmp_path / "bin", "catrules")
    done = _fake_host(folder, {}, ROOT / "games" / game, f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout)
    assert seen["started"] == ["catrules", "lsp"]
    # the server the extension started is the one the LSP tests speak to: same features, same answers
    client = Client().start()
    try:
        client.open((ROOT / "games" / game).as_uri(), (ROOT / "games" / game).read_text(encoding="utf-8"))
        symbols = client.request("textDocument/documentSymbol",
                                 {"textDocument": {"uri": (ROOT / "games" / game).as_uri()}})
        # (the details of some depend on what the client says it can do; the features do not)
        assert set(seen["capabilities"]) == set(client.capabilities)
    finally:
        client.close()
    assert seen["symbols"] == symbols and len(symbols) > 3
    features = {"hoverProvider": "registerHoverProvider", "completionProvider": "registerCompletionItemProvider",
                "definitionProvider": "registerDefinitionProvider", "referencesProvider": "registerReferenceProvider",
                "renameProvider": "registerRenameProvider", "documentSymbolProvider": "registerDocumentSymbolProvider",
                "documentFormattingProvider": "registerDocumentFormattingEditProvider"}
    for capability, registration in features.items():
        assert capability in seen["capabilities"] and registration in seen["registered"], capability


def test_the_server_command_setting_is_obeyed(vsix, tmp_path):
    pytest.importorskip("pygls")
    folder, _ = vsix
    shim = _shim(tmp_path / "elsewhere", "my-catrules")
    settings = {"catrules.server.command": str(shim), "catrules.server.args": ["lsp"]}
    done = _fake_host(folder, settings, ROOT / "games" / "meow.cat", os.environ["PATH"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["started"] == [str(shim), "lsp"]
    wrong = _fake_host(folder, {"catrules.server.args": ["no-such-command"]}, ROOT / "games" / "meow.cat",
                       f"{shim.parent}{os.pathsep}{os.environ['PATH']}")
    assert wrong.returncode != 0 and "error shown" in wrong.stderr
