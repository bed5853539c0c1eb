// Copies the TextMate grammar made by tools/make_tmlanguage.py (editors/catrules.tmLanguage.json)
// into this extension before it is packaged: the repository keeps one grammar, not a copy.
const fs = require("fs");
const path = require("path");
fs.mkdirSync(path.join(__dirname, "syntaxes"), { recursive: true });
fs.copyFileSync(path.join(__dirname, "..", "catrules.tmLanguage.json"),
                path.join(__dirname, "syntaxes", "catrules.tmLanguage.json"));
