"""``catrules lsp`` through the protocol: a real server process, spoken to in JSON-RPC on its pipes."""

import sys
from pathlib import Path

import pytest

pytest.importorskip("pygls")

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lsp_client import ROOT, Client  # noqa: E402

MEOW = ROOT / "games" / "meow.cat"
URI = MEOW.as_uri()
TEXT = MEOW.read_text(encoding="utf-8")
LINES = TEXT.splitlines()


@pytest.fixture(scope="module")
def server():
    client = Client()
    result = client.request("initialize", {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}})
    client.notify("initialized", {})
    client.capabilities = result["capabilities"]
    client.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "catrules",
                                                            "version": 1, "text": TEXT}})
    client.opened = client.diagnostics(1)
    yield client
    client.close()
    assert client.proc.returncode == 0


def _at(word, line_hint=""):
    """(line, character) of the first ``word`` in meow.cat, on a line containing ``line_hint``."""
    for i, line in enumerate(LINES):
        if line_hint in line and word in line:
            return i, line.index(word)
    raise AssertionError(word)


def change(server, version, text):
    server.notify("textDocument/didChange", {"textDocument": {"uri": URI, "version": version},
                                             "contentChanges": [{"text": text}]})
    return server.diagnostics(version)


def test_initialize_announces_the_features(server):
    caps = server.capabilities
    assert caps["hoverProvider"] and "completionProvider" in caps
    sync = caps["textDocumentSync"]
    assert (sync if isinstance(sync, int) else sync["change"]) == 1     # the whole text on each change


def test_a_good_file_has_no_diagnostics(server):
    assert server.opened == []


def test_completion_offers_the_games_names_and_keywords(server):
    line, col = _at("colour_rank(c) * 100")
    items = server.request("textDocument/completion", {"textDocument": {"uri": URI},
                                                       "position": {"line": line, "character": col + 3}})
    labels = {i["label"]: i["detail"] for i in items["items"]}
    assert labels["colour_rank"] == "definition" and labels["colour_note"] == "definition"
    assert labels["colour"] == "attribute"
    assert all(name.startswith("col") for name in labels)
    # at the start of an empty prefix: zones, counters, phases, keywords
    everything = server.request("textDocument/completion", {"textDocument": {"uri": URI},
                                                            "position": {"line": len(LINES) + 5, "character": 0}})
    kinds = {i["label"]: i["detail"] for i in everything["items"]}
    assert kinds["lead"] == "counter" and kinds["strength"] == "definition"
    assert "zone" in kinds.values() and "phase" in kinds.values()
    assert kinds["move"] == "keyword" and kinds["shuffle"] == "keyword"


def test_hover_on_a_definition_shows_its_text(server):
    line, col = _at("strength(it)")
    hover = server.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                  "position": {"line": line, "character": col + 2}})
    value = hover["contents"]["value"]
    assert "define strength(c) = colour_rank(c) * 100 + (if one_beats_eighteen(c) then 19 else c.value)" in value
    assert "definition" in value
    nothing = server.request("textDocument/hover", {"textDocument": {"uri": URI},
                                                    "position": {"line": len(LINES) + 5, "character": 0}})
    assert nothing is None


def test_errors_and_warnings_come_as_you_type(server):
    line, col = _at("strength(it)")
    broken = LINES[:line] + [LINES[line].replace("strength(it)", "strenght(it)")] + LINES[line + 1:]
    found = change(server, 2, "\n".join(broken) + "\n")
    assert len(found) == 1
    d = found[0]
    assert d["severity"] == 1 and d["source"] == "catrules"
    assert "strenght" in d["message"] and "hint: did you mean `strength`?" in d["message"]
    assert d["range"] == {"start": {"line": line, "character": col},
                          "end": {"line": line, "character": col + len("strenght")}}
    # the names of the last version that checked still complete while the file is broken
    items = server.request("textDocument/completion", {"textDocument": {"uri": URI},
                                                       "position": {"line": line, "character": col + 3}})
    assert "strength" in {i["label"] for i in items["items"]}

    syntax = change(server, 3, TEXT + "\nzone oops shared hidden\n")
    assert len(syntax) == 1 and syntax[0]["severity"] == 1
    assert syntax[0]["range"]["start"] == {"line": len(LINES) + 1, "character": 10}
    assert "unexpected `shared`" in syntax[0]["message"] and "hint:" in syntax[0]["message"]

    warned = change(server, 4, TEXT + "\naction never_done():\n    end game\n")
    assert [w["severity"] for w in warned] == [2]
    assert "never_done" in warned[0]["message"] and warned[0]["range"]["start"]["line"] == len(LINES) + 1

    assert change(server, 5, TEXT) == []
