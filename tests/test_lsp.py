"""``catrules lsp`` through the protocol: a real server process, spoken to in JSON-RPC on its pipes."""

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest

pytest.importorskip("pygls")

ROOT = Path(__file__).resolve().parent.parent
MEOW = ROOT / "games" / "meow.cat"
URI = MEOW.as_uri()
TEXT = MEOW.read_text(encoding="utf-8")
LINES = TEXT.splitlines()
WAIT = 20          # seconds before a missing answer fails the test (a hang, not a speed check)


class Client:
    """Frames JSON-RPC messages with Content-Length headers; a thread reads the answers."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "catrules", "lsp"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    return
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.inbox.put(json.loads(out.read(length)))

    def send(self, method, params, request=True):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return msg.get("id")

    def request(self, method, params):
        ident = self.send(method, params)
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)["result"]

    def notify(self, method, params):
        self.send(method, params, request=False)

    def wait(self, match):
        while True:
            msg = self.inbox.get(timeout=WAIT)
            if match(msg):
                return msg

    def diagnostics(self, version):
        msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"].get("version") == version)
        return msg["params"]["diagnostics"]

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()


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
