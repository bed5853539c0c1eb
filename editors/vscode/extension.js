// The catrules extension: starts `catrules lsp` (see the settings catrules.server.*) for .cat files.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const settings = vscode.workspace.getConfiguration("catrules.server");
  const server = { command: settings.get("command", "catrules"), args: settings.get("args", ["lsp"]) };
  client = new LanguageClient("catrules", "catrules", server, {
    documentSelector: [{ scheme: "file", language: "catrules" }, { scheme: "untitled", language: "catrules" }],
  });
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
