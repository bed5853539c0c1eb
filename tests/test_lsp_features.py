"""The language server's features through a real client on its pipes: definition, references,
rename (across ``extends``), formatting, document symbols, hover (builtins from the docs, zones
with their declaration), completion by context; on Flap Cat! and on files with errors."""

import re
import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import ROOT, Client  # noqa: E402
from catrules.authoring.builtin_docs import BUILTIN_DOCS  # noqa: E402

FLAP = ROOT / "games" / "flapcat.cat"
URI = FLAP.as_uri()
TEXT = FLAP.read_text(encoding="utf-8")
LINES = TEXT.split("\n")
VARIANT = ROOT / "games" / "variants" / "flapcat-donate-two.cat"


def _at(word, hint="", after=0):
    """(line, character) of ``word`` on the first line from ``after`` that holds ``hint`` too."""
    for i, line in enumerate(LINES):
        if i >= after and hint in line and word in line:
            return i, line.index(word, line.index(hint) if hint and word in line[line.index(hint):] else 0)
    raise AssertionError(word)


def _decl(kind_word, name):
    return LINES.index(next(line for line in LINES if line.startswith(f"{kind_word} {name}")))


@pytest.fixture(scope="module")
def client():
    c = Client().start()
    c.flap = c.open(URI, TEXT)
    yield c
    c.close()
    assert c.proc.returncode == 0


def test_flapcat_opens_with_no_errors_and_every_feature_announced(client):
    assert client.flap == []
    caps = client.capabilities
    for feature in ("definitionProvider", "referencesProvider", "renameProvider",
                    "documentFormattingProvider", "documentSymbolProvider", "hoverProvider"):
        assert caps.get(feature), feature


def test_definition_of_a_zone_a_definition_and_an_action(client):
    line, col = _at("hand of p", "move c to hand of p")
    loc = client.at("textDocument/definition", URI, line, col + 1)
    row = _decl("zone", "hand")
    assert loc["uri"] == URI and loc["range"]["start"] == {"line": row, "character": 5}
    line, col = _at("worth(c)", "default highest worth(c)")
    loc = client.at("textDocument/definition", URI, line, col)
    assert loc["range"]["start"]["line"] == _decl("define", "worth")
    assert client.at("textDocument/definition", URI, line, col - 3) is None     # `highest`: a keyword


def test_references_find_every_use_and_not_comments_or_texts(client):
    row = _decl("define", "worth")
    refs = client.at("textDocument/references", URI, row, 8, context={"includeDeclaration": True})
    want = [(i, c) for i, line in enumerate(LINES) for c in _words(_code(line), "worth")]
    assert sorted((r["range"]["start"]["line"], r["range"]["start"]["character"]) for r in refs) == want
    assert {r["uri"] for r in refs} == {URI}
    without = client.at("textDocument/references", URI, row, 8, context={"includeDeclaration": False})
    assert len(without) == len(refs) - 1


def _code(line):
    """The line without its comment, its quoted texts blanked (same length)."""
    return re.sub(r'"[^"]*"', lambda m: " " * len(m.group()), line).split("#")[0]


def _words(code, word):
    return [m.start() for m in re.finditer(r"(?<![\w.])" + word + r"(?!\w)", code)]


def test_rename_edits_the_declaration_and_its_uses_in_the_variant_too(client):
    client.open(VARIANT.as_uri(), VARIANT.read_text(encoding="utf-8"))
    row = _decl("define", "can_give")
    edit = client.at("textDocument/rename", URI, row, 8, newName="may_give")
    changes = edit["changes"]
    assert {e["range"]["start"]["line"] for e in changes[URI]} >= {row}
    assert all(e["newText"] == "may_give" for edits in changes.values() for e in edits)
    vtext = VARIANT.read_text(encoding="utf-8").split("\n")
    assert [e["range"]["start"]["line"] for e in changes[VARIANT.as_uri()]] == \
        [i for i, line in enumerate(vtext) if "can_give" in line]
    # from the variant, the base's declaration is found too (across `extends`)
    vrow = next(i for i, line in enumerate(vtext) if "can_give(" in line)
    loc = client.at("textDocument/definition", VARIANT.as_uri(), vrow, vtext[vrow].index("can_give"))
    assert loc["uri"] == URI and loc["range"]["start"]["line"] == row
    refused = client.answer("textDocument/rename", {"textDocument": {"uri": URI}, "position": {"line": row,
                                                    "character": 8}, "newName": "move"})
    assert "error" in refused and "word of the language" in refused["error"]["message"]
    assert "Refused" not in refused["error"]["message"]    # words, not an exception name
    client.notify("textDocument/didClose", {"textDocument": {"uri": VARIANT.as_uri()}})


def test_document_symbols_list_the_declarations(client):
    found = client.request("textDocument/documentSymbol", {"textDocument": {"uri": URI}})
    by = {(s["name"], s["detail"]): s for s in found}
    for name, kind in (("round", "phase"), ("build", "action"), ("hand", "zone"), ("round_number", "counter"),
                       ("worth", "definition"), ("advanced", "option"), ("piece", "card type")):
        assert (name, kind) in by, (name, kind)
    build = by[("build", "action")]
    assert build["range"]["start"]["line"] == _decl("action", "build") < build["range"]["end"]["line"]
    assert any(kind == "score item" for _, kind in by)


def test_hover_on_a_builtin_shows_the_docs_text_and_on_a_zone_its_declaration(client):
    line, col = _at("others(", "can_give")
    value = client.at("textDocument/hover", URI, line, col + 1)["contents"]["value"]
    assert BUILTIN_DOCS["others"][1] in value and "builtin" in value
    line, col = _at("hand of p", "move c to hand of p")
    value = client.at("textDocument/hover", URI, line, col)["contents"]["value"]
    assert "zone hand: per player, owner, pile" in value and f"line {_decl('zone', 'hand') + 1}" in value


def _labels(client, uri, line, col):
    return {i["label"]: i["detail"] for i in client.at("textDocument/completion", uri, line, col)["items"]}


def test_completion_by_context(client):
    line, col = _at("hand of p", "move c to hand of p")
    zones = _labels(client, URI, line, col)              # just after `to `
    assert zones["hand"] == "zone" and zones["deck"] == "zone" and set(zones.values()) == {"zone"}
    line, col = _at("stars", "c.stars")
    attrs = _labels(client, URI, line, col)              # just after `c.`
    assert attrs["stars"] == "attribute" and attrs["colour"] == "attribute" and "hand" not in attrs
    line, col = _at("hand of p", "move c to hand of p")
    who = _labels(client, URI, line, col + len("hand of "))
    assert who["p"] == "player" and who["everyone"] == "player" and "worth" not in who
    keywords = _labels(client, URI, len(LINES) + 3, 0)
    assert keywords["move"] == "keyword" and keywords["round"] == "phase" and keywords["others"] == "builtin"


def test_formatting_goes_through_fmt_and_a_broken_file_gets_no_edits(client):
    from catrules.authoring.fmt import format_text
    messy = TEXT.replace("define two_players = count(players) == 2", "define two_players=count( players )==2")
    client.change(URI, 2, messy)
    edits = client.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                                      "options": {"tabSize": 4, "insertSpaces": True}})
    assert len(edits) == 1 and edits[0]["newText"] == format_text(messy, str(FLAP))
    assert "define two_players = count(players) == 2" in edits[0]["newText"]
    assert client.change(URI, 3, TEXT + "\nzone oops shared hidden\n")
    assert client.request("textDocument/formatting", {"textDocument": {"uri": URI},
                                                     "options": {"tabSize": 4, "insertSpaces": True}}) == []
    client.change(URI, 4, TEXT)


BROKEN = """catrules 3
game "Half written"
players 2 to 4
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
counter lead = random(players)
define twice(x) = x * 2
phase turn:
    move top(deck) to hand of lead
    lead chooses c from hand of lead
    if count(hand of lead) >
action play(p, c):
    move c to 
"""


def test_a_new_broken_file_still_has_symbols_hover_definition_and_completion(client):
    uri = (ROOT / "games" / "half-written.cat").as_uri()
    errors = client.open(uri, BROKEN)
    assert errors and errors[0]["severity"] == 1
    lines = BROKEN.split("\n")
    names = {s["name"] for s in client.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}})}
    assert names == {"deck", "hand", "lead", "twice", "turn", "play"}
    row = lines.index("    move top(deck) to hand of lead")
    assert "zone hand: per player, owner, pile" in \
        client.at("textDocument/hover", uri, row, lines[row].index("hand"))["contents"]["value"]
    assert client.at("textDocument/definition", uri, row, lines[row].index("deck"))["range"]["start"]["line"] == 3
    zones = _labels(client, uri, len(lines) - 2, len(lines[-2]))     # after `move c to `
    assert set(zones) == {"deck", "hand"}
    who = _labels(client, uri, len(lines) - 2, 0)
    assert "twice" in who and "turn" in who


def test_a_file_that_breaks_keeps_the_names_of_its_last_good_version(client):
    line, col = _at("worth(c)", "default highest worth(c)")
    broken = LINES[:line] + [LINES[line] + " oops ("] + LINES[line + 1:]
    assert client.change(URI, 10, "\n".join(broken))
    value = client.at("textDocument/hover", URI, line, col)["contents"]["value"]
    assert "define worth(c) = if negative(c) then -1 else c.stars" in value      # printed from the last tree
    attrs = _labels(client, URI, *_at("stars", "c.stars"))
    assert "features" in attrs and "icon" in attrs                   # attributes of the last good version
    client.change(URI, 11, TEXT)
