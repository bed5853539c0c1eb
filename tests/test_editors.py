"""The TextMate grammar for editors (editors/catrules.tmLanguage.json) is the generated one and works."""

import importlib.util
import json
import re
from pathlib import Path

import pytest

from catrules.authoring.highlight import BUILTINS, CONSTANTS, DECLARATIONS, KEYWORDS

ROOT = Path(__file__).resolve().parents[1]
FILE = ROOT / "editors" / "catrules.tmLanguage.json"


def _maker():
    spec = importlib.util.spec_from_file_location("make_tmlanguage", ROOT / "tools" / "make_tmlanguage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GRAMMAR = json.loads(FILE.read_text(encoding="utf-8"))
REPO = GRAMMAR["repository"]


def _regexes(node):
    """Every regex of the grammar (match, begin, end), wherever it sits."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("match", "begin", "end"):
                yield value
            else:
                yield from _regexes(value)
    elif isinstance(node, list):
        for item in node:
            yield from _regexes(item)


def _flatten(patterns):
    """The rules a list of patterns stands for, includes followed (in order)."""
    out = []
    for p in patterns:
        if "include" in p:
            rule = REPO[p["include"][1:]]
            out += _flatten(rule["patterns"]) if "patterns" in rule and "begin" not in rule else [rule]
        else:
            out.append(p)
    return out


def scopes(line):
    """A small TextMate scanner for one line: [(text, scope)] for the text the grammar names.

    As in TextMate, the rule whose match starts first wins, and the earlier rule on a tie;
    a begin/end rule scans its own patterns until its end matches."""
    found = []

    def scan(pos, rules, end=None):
        while pos <= len(line):
            best = None
            stop = re.compile(end).search(line, pos) if end else None
            for rule in rules:
                m = re.compile(rule.get("match") or rule["begin"]).search(line, pos)
                if m and (best is None or m.start() < best[1].start()):
                    best = (rule, m)
            if stop and (best is None or stop.start() <= best[1].start()):
                return stop.end()
            if best is None or best[1].end() == best[1].start() and "begin" not in best[0]:
                return len(line)
            rule, m = best
            if "begin" in rule:
                after = scan(m.end(), _flatten(rule.get("patterns", [])), rule["end"])
                found.append((line[m.start():after], rule["name"]))
                pos = max(after, m.end() + 1)
            else:
                if "name" in rule:
                    found.append((m.group(0), rule["name"]))
                for group, cap in rule.get("captures", {}).items():
                    found.append((m.group(int(group)), cap["name"]))
                pos = m.end()
        return pos

    scan(0, _flatten(GRAMMAR["patterns"]))
    return found


def test_the_committed_grammar_is_the_generated_one():
    assert FILE.read_text(encoding="utf-8") == _maker().render(), \
        "editors/catrules.tmLanguage.json is stale: run python tools/make_tmlanguage.py"


def test_the_grammar_names_the_language_and_its_files():
    assert GRAMMAR["scopeName"] == "source.catrules"
    assert GRAMMAR["fileTypes"] == ["cat"]


def test_every_regex_compiles():
    regexes = list(_regexes(GRAMMAR))
    assert len(regexes) >= 12
    for regex in regexes:
        re.compile(regex)


@pytest.mark.parametrize("word", sorted(set(KEYWORDS)))
def test_every_keyword_is_a_keyword_and_only_as_a_whole_word(word):
    rules = [REPO["declaration"], REPO["constant"], REPO["keyword"]]
    assert any(re.fullmatch(r["match"], word) for r in rules)
    assert not any(re.fullmatch(r["match"], word + "x") or re.fullmatch(r["match"], "x" + word) for r in rules)
    expected = ("storage.type" if word in DECLARATIONS else
                "constant.language" if word in CONSTANTS else "keyword.control")
    assert scopes(word) == [(word, expected + ".catrules")]


@pytest.mark.parametrize("word", BUILTINS)
def test_a_builtin_is_coloured_when_called_and_a_name_like_it_is_not(word):
    assert (word, "support.function.builtin.catrules") in scopes(f"x = {word}(row)")
    assert not [s for t, s in scopes(f"x = {word} + 1") if t == word]


def test_a_line_of_a_game_is_coloured_piece_by_piece():
    got = scopes('    announce "A new round: {leader} leads, {count(row)} awards" # M05')
    assert ("announce", "keyword.control.catrules") in got
    assert ('"A new round: {leader} leads, {count(row)} awards"', "string.quoted.double.catrules") in got
    assert ("{leader}", "meta.interpolation.catrules") in got
    assert ("count", "support.function.builtin.catrules") in got
    assert ("# M05", "comment.line.number-sign.catrules") in got
    got = scopes("define strength(c) = c.value + 100   # trumps")
    assert ("define", "storage.type.catrules") in got and ("strength", "entity.name.function.catrules") in got
    assert ("value", "variable.other.member.catrules") in got and ("100", "constant.numeric.integer.catrules") in got
    assert ("+", "keyword.operator.catrules") in got


def test_a_hash_or_keyword_inside_a_text_is_text_and_an_unclosed_quote_ends_at_the_line():
    got = scopes('note "# of cards: 3 and more"')
    assert got == [("note", "keyword.control.catrules"), ('"# of cards: 3 and more"', "string.quoted.double.catrules")]
    assert scopes('announce "oops') == [("announce", "keyword.control.catrules"), ('"oops', "string.quoted.double.catrules")]


def test_every_shipped_game_line_is_scanned_without_losing_a_comment():
    # Each line that has a comment outside a text gets exactly that comment scoped as one.
    for path in sorted((ROOT / "games").rglob("*.cat")):
        for line in path.read_text(encoding="utf-8").splitlines():
            got = scopes(line)
            code = re.sub(r'"[^"\n]*"', lambda m: "_" * len(m.group(0)), line)
            if "#" in code:
                assert (line[code.index("#"):], "comment.line.number-sign.catrules") in got, (path.name, line)
