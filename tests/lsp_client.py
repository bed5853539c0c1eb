"""A minimal Language Server Protocol client for the tests: ``catrules lsp`` in a real process,
spoken to in JSON-RPC (Content-Length framed) on its pipes, a thread reading its answers."""

import json
import queue
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIT = 20          # seconds before a missing answer fails the test (a hang, not a speed check)


class Client:
    """Frames JSON-RPC messages with Content-Length headers; a thread reads the answers."""

    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, "-m", "catrules", "lsp"], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.inbox: queue.Queue = queue.Queue()
        self.next_id = 0
        self.capabilities = {}
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

    def answer(self, method, params):
        """The whole answer to a request (``result`` or ``error``)."""
        ident = self.send(method, params)
        return self.wait(lambda m: m.get("id") == ident and "method" not in m)

    def request(self, method, params):
        return self.answer(method, params)["result"]

    def notify(self, method, params):
        self.send(method, params, request=False)

    def wait(self, match):
        while True:
            msg = self.inbox.get(timeout=WAIT)
            if match(msg):
                return msg

    def diagnostics(self, version, uri=None):
        msg = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"].get("version") == version
                        and (uri is None or m["params"]["uri"] == uri))
        return msg["params"]["diagnostics"]

    def start(self):
        """Initialize the server; its capabilities are kept in ``capabilities``."""
        result = self.request("initialize", {"processId": None, "rootUri": ROOT.as_uri(), "capabilities": {}})
        self.notify("initialized", {})
        self.capabilities = result["capabilities"]
        return self

    def open(self, uri, text, version=1):
        """Open a document; its first diagnostics."""
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "catrules",
                                                              "version": version, "text": text}})
        return self.diagnostics(version, uri)

    def change(self, uri, version, text):
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": [{"text": text}]})
        return self.diagnostics(version, uri)

    def at(self, method, uri, line, character, **extra):
        """A request about one place of a document."""
        return self.request(method, {"textDocument": {"uri": uri},
                                     "position": {"line": line, "character": character}, **extra})

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=WAIT)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
