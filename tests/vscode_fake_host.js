// A stand-in for VS Code that runs the packaged extension for tests/test_lsp_vscode.py.
//
//   node vscode_fake_host.js EXTENSION_DIR SETTINGS_JSON GAME_FILE
//
// `require("vscode")` answers with a fake API (settings from SETTINGS_JSON, every other call a
// harmless stand-in); the extension's own extension.js and its packaged vscode-languageclient are
// the real ones, so activate() starts the server the settings name, over stdio, as VS Code would.
// Then the client opens GAME_FILE and asks for its symbols, stops, and one JSON line is printed:
// the server command started, the server's capabilities, the providers the client registered
// with the editor, and the raw documentSymbol answer.
const Module = require("module");
const path = require("path");
const fs = require("fs");

const [extensionDir, settingsJson, gameFile] = process.argv.slice(2);
const settings = JSON.parse(settingsJson);
const registered = [];
let started = null;

const fixed = {
  "vscode.version": "1.90.0",
  "vscode.workspace.workspaceFolders": undefined,
  "vscode.workspace.textDocuments": [],
  "vscode.env.appName": "fake host",
  "vscode.env.language": "en",
};
const calls = {
  "vscode.workspace.getConfiguration": ([section]) => ({
    get: (key, dflt) => {
      const full = section ? `${section}.${key}` : key;
      return full in settings ? settings[full] : dflt;
    },
  }),
  "vscode.window.createOutputChannel().append": ([text]) => process.stderr.write(String(text)),
  "vscode.window.createOutputChannel().appendLine": ([text]) => process.stderr.write(`${text}\n`),
  "vscode.window.showErrorMessage": ([text]) => {
    process.stderr.write(`error shown: ${text}\n`);
    return Promise.resolve(undefined);
  },
};

function fake(name) {
  return new Proxy(function () {}, {
    get(_target, key) {
      const sub = `${name}.${String(key)}`;
      if (sub in fixed) return fixed[sub];
      if (key === "then") return undefined;             // not a promise
      if (key === Symbol.toPrimitive) return () => "";
      if (key === Symbol.iterator) return function* () {};
      if (key === "prototype") return {};
      return fake(sub);
    },
    construct: () => fake(`${name}()`),
    apply(_target, _this, args) {
      const last = name.split(".").pop();
      if (name.startsWith("vscode.languages.") && last.startsWith("register")) registered.push(last);
      if (name in calls) return calls[name](args);
      return fake(`${name}()`);
    },
  });
}

const load = Module._load;
Module._load = function (request) {
  if (request === "vscode") return fake("vscode");
  return load.apply(this, arguments);
};
const spawn = require("child_process").spawn;
require("child_process").spawn = function (command, args) {
  started = [command, ...(args || [])];
  return spawn.apply(this, arguments);
};

async function main() {
  const extension = require(path.resolve(extensionDir, "extension.js"));
  const context = { subscriptions: [] };
  await extension.activate(context);
  const client = context.subscriptions[0];
  const uri = `file://${path.resolve(gameFile)}`;
  client.sendNotification("textDocument/didOpen", {
    textDocument: { uri, languageId: "catrules", version: 1, text: fs.readFileSync(gameFile, "utf8") },
  });
  const symbols = await client.sendRequest("textDocument/documentSymbol", { textDocument: { uri } });
  const capabilities = client.initializeResult.capabilities;
  await extension.deactivate();
  process.stdout.write(JSON.stringify({ started, capabilities, registered, symbols }) + "\n");
}

main().then(() => process.exit(0), (e) => {
  process.stderr.write(`fake host: ${(e && e.stack) || e}\n`);
  process.exit(1);
});
