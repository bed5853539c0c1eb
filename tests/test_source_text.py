"""Lines of a game file as errors show them: split where the parser splits (``\\n`` only), with
invisible characters escaped and the caret under the right character; and the rule on invisible
direction characters (a warning and escaped in texts and comments until language 4 refuses them; refused in code)."""

from pathlib import Path

import pytest

from catrules import api
from catrules.cli import main
from catrules.errors import Diagnostic, GameFileError, RulesError, shown_line, source_lines

HEAD = 'catrules 3\ngame "Lines"\nplayers 2 to 4\n'
BODY = """\
cards number in deck:
    for each value in 1 to 5:
        card

zone deck: shared, hidden, pile
zone hand: per player, public, pile
counter pot = 0

flow:
    shuffle deck
    for each player p:
        move top(deck, 2) to hand of p

score:
    points = count(hand)
"""
BAD = "zone deck: shared, hidden, pile"
BAD_LINE = "zone deck: shared, hidden, pile, bogus"


@pytest.fixture(autouse=True)
def _clean(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("CATRULES_NO_GAME_CACHE", "1")


def check(capsys, tmp_path, text: str, name: str = "g.cat", newline: str = "\n"):
    """(exit code, stdout, stderr) of ``catrules check`` on ``text`` written as it is."""
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    code = main(["check", str(path)])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def quoted(err: str, line: int, column: int) -> tuple:
    """(the quoted line, the caret's offset in it) under the first ``:line:column:`` of ``err``."""
    lines = err.splitlines()
    i = next(k for k, x in enumerate(lines) if f":{line}:{column}: " in x)
    text, caret = lines[i + 1], lines[i + 2]
    assert text.startswith("    ") and caret.strip() == "^"
    return text[4:], caret.index("^") - 4


def bad_after(before: str) -> str:
    """A file with ``before`` added to a comment line above a bad zone property."""
    return HEAD + f"# a comment{before}with more\n" + BODY.replace(BAD, BAD_LINE)


def test_source_lines_split_only_at_line_breaks():
    text = "a\u2028b\x0cc\x1c\x85\u2029d\r\ne\rf\nlast\n"
    assert source_lines(text) == ["a\u2028b\x0cc\x1c\x85\u2029d", "e\rf", "last"]
    assert len(text.splitlines()) > 3          # what the display used before, and got wrong


@pytest.mark.parametrize("odd", ["\u2028", "\u2029"])
def test_an_error_after_a_line_separator_in_a_comment_quotes_its_own_line(capsys, tmp_path, odd):
    code, _, err = check(capsys, tmp_path, bad_after(odd))
    assert code == 1
    line = (HEAD + "#\n" + BODY).splitlines().index(BAD) + 1
    text, caret = quoted(err, line, 34)
    assert text == BAD_LINE and text[caret:].startswith("bogus")


def test_a_form_feed_is_refused_at_its_own_place_and_shown(capsys, tmp_path):
    code, _, err = check(capsys, tmp_path, bad_after("\x0c"))
    assert code == 1 and "a control character (code 12)" in err
    text, caret = quoted(err, 4, 12)
    assert text == "# a comment\\x0cwith more" and text[caret:].startswith("\\x0c")
    assert "bogus" not in err                   # the first error is the form feed's, on line 4


def test_a_form_feed_between_lines_keeps_the_line_count(capsys, tmp_path):
    text = HEAD + "\x0c\n" + BODY
    code, _, err = check(capsys, tmp_path, text)
    assert code == 1 and "g.cat:4:1: error: a control character (code 12)" in err
    assert quoted(err, 4, 1) == ("\\x0c", 0)


def test_crlf_files_count_lines_like_lf_files(capsys, tmp_path):
    code, _, err = check(capsys, tmp_path, bad_after(" "), newline="\r\n")
    assert code == 1
    line = (HEAD + "#\n" + BODY).splitlines().index(BAD) + 1
    text, caret = quoted(err, line, 34)
    assert text == BAD_LINE and text[caret:].startswith("bogus") and "\\x0d" not in text


def test_a_lone_carriage_return_is_refused_where_it_is(capsys, tmp_path):
    code, _, err = check(capsys, tmp_path, HEAD + "# one\rtwo\n" + BODY)
    assert code == 1 and "g.cat:4:6: error: a control character (code 13)" in err
    text, caret = quoted(err, 4, 6)
    assert text == "# one\\x0dtwo" and text[caret:].startswith("\\x0d")


def test_the_caret_counts_tabs_and_wide_characters(capsys, tmp_path):
    code, _, err = check(capsys, tmp_path, HEAD + BODY.replace(BAD, "zone deck:\tshared, hidden, pile, bogus"))
    assert code == 1
    line = (HEAD + BODY).splitlines().index(BAD) + 1
    text, caret = quoted(err, line, 34)
    assert text == "zone deck:  shared, hidden, pile, bogus" and text[caret:].startswith("bogus")
    code, _, err = check(capsys, tmp_path, HEAD.replace('"Lines"', '"猫の札" bogus') + BODY)
    text, caret = quoted(err, 2, 12)
    assert text == 'game "猫の札" bogus'
    assert caret == len('game "') + 2 * 3 + len('" ')       # three wide characters, two cells each


def test_shown_line_puts_the_caret_under_each_character():
    line = "a\tb\u202ec 猫x\u0301y"
    text = "a   b\\u202ec 猫x\u0301y"
    # a, the tab (to the stop at 4), b, the escape (6 cells), c, space, the wide 猫, x, its accent, y
    for col, cell in enumerate([0, 1, 4, 5, 11, 12, 13, 15, 16, 16], 1):
        assert shown_line(line, col) == (text, cell), col
    assert shown_line("ab", 3) == ("ab", 2)         # just after the end: "the line ends too early"


def test_a_runtime_error_quotes_its_own_line_after_a_line_separator():
    src = HEAD + "# before\u2028after\n" + BODY.replace("    shuffle deck\n", "    shuffle deck\n    pot = pot / 0\n")
    game = api.load_source(src, "rt.cat")
    with pytest.raises(RulesError) as info:
        st = game.new_state(2, seed=1)
        for _ in range(50):
            if st.finished:
                break
            d = st.pending()[0]
            st.apply(d.player, d.options[0].id, None)
    exc = info.value
    assert exc.line == (HEAD + "#\n" + BODY).splitlines().index("    shuffle deck") + 2
    assert "(in `pot = pot / 0`" in str(exc)


def test_the_language_server_places_errors_where_the_editor_counts():
    pytest.importorskip("pygls")
    from catrules.authoring.lsp import to_lsp, word_at
    text = "one\r\ntwo\u2028still two 😀bogus\nthree\n"
    d = Diagnostic("p.cat", 2, 16, "m")     # parser line 2, the `b` of bogus
    r = to_lsp(d, text, "p.cat").range
    assert (r.start.line, r.start.character, r.end.character) == (1, 16, 21)   # the emoji is 2 units
    assert to_lsp(d, text, "p.cat", "utf-32").range.start.character == 15
    assert word_at(text, 1, 17) == ("bogus", "b")
    lone = "one\rtwo x\n"                    # an editor ends a line at a lone \r too
    r = to_lsp(Diagnostic("p.cat", 1, 9, "m"), lone, "p.cat").range
    assert (r.start.line, r.start.character) == (1, 4)


# ------------------------------------------------------------ direction characters
# In texts and comments they are refused from language 4 on (bidi.REFUSED_FROM); the
# refusal tests set that threshold to the current version to see the rule at work.

@pytest.fixture
def refusing(monkeypatch):
    from catrules.check import bidi
    monkeypatch.setattr(bidi, "REFUSED_FROM", 3)

def test_a_direction_character_in_the_title_is_refused(capsys, tmp_path, refusing):
    code, _, err = check(capsys, tmp_path, HEAD.replace('"Lines"', '"Lin\u202ees"') + BODY)
    assert code == 1
    assert "g.cat:2:10: error: an invisible direction character (U+202E RIGHT-TO-LEFT OVERRIDE) in a text" in err
    assert "hint: remove the invisible direction character U+202E" in err
    text, caret = quoted(err, 2, 10)
    assert text == 'game "Lin\\u202ees"' and text[caret:].startswith("\\u202e")
    assert "\u202e" not in err


@pytest.mark.parametrize("ch", sorted("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))
def test_every_direction_character_is_refused_in_texts_and_comments(ch, refusing):
    for src in (HEAD + f'option fast: "go{ch}fast"\n' + BODY, HEAD + f"# note {ch}\n" + BODY):
        with pytest.raises(GameFileError) as info:
            api.load_source(src, "d.cat")
        d = info.value.diagnostics[0]
        assert d.line == 4 and "invisible direction character" in d.message
        assert f"U+{ord(ch):04X}" in d.hint


def test_a_direction_character_in_a_name_is_named(capsys, tmp_path):
    code, _, err = check(capsys, tmp_path, HEAD + BODY.replace("counter pot", "counter po\u2066t"))
    assert code == 1 and "an invisible direction character (U+2066 LEFT-TO-RIGHT ISOLATE) here" in err
    assert "remove the invisible direction character U+2066" in err


def test_a_menu_label_or_card_value_with_a_direction_character_is_refused(refusing):
    menu = BODY.replace("    shuffle deck\n", '    shuffle deck\n    first_player chooses:\n'
                        '        "pass\u202e":\n            do nothing\n')
    with pytest.raises(GameFileError, match="invisible direction character"):
        api.load_source(HEAD + menu, "m.cat")


@pytest.mark.parametrize("version", [2, 3])
def test_a_file_of_today_gets_a_warning_and_its_texts_show_the_escape(capsys, tmp_path, version):
    old = HEAD.replace("catrules 3", f"catrules {version}").replace('"Lines"', '"Lin\u202ees"')
    src = old + 'option fast: "go\u2066fast"\n# note \u200f\n' + BODY
    code, out, err = check(capsys, tmp_path, src)
    assert code == 0 and "3 warnings" in out
    assert err.count("warning: an invisible direction character") == 3
    assert "in a text; it is shown as `\\u202e`" in err and "in a comment" in err
    assert "(from language 4 on, it is an error)" in err
    assert "\u202e" not in out + err and "\u2066" not in out + err
    game = api.load_source(src, "old.cat")
    assert game.title == "Lin\\u202ees" and len(game.warnings) == 3
    assert game.options == {"fast": "go\\u2066fast"}
    assert game.new_state(2, seed=1).finished


def test_files_without_direction_characters_are_untouched():
    src = HEAD.replace('"Lines"', '"שלום, 猫"') + BODY
    game = api.load_source(src, "ok.cat")
    assert game.title == "שלום, 猫" and game.warnings == []


def test_the_games_of_the_project_hold_no_direction_characters():
    root = Path(__file__).resolve().parent.parent
    files = list((root / "games").rglob("*.cat")) + list((root / "tests" / "games").rglob("*.cat"))
    assert files
    for f in files:
        text = f.read_text(encoding="utf-8")
        assert not any(c in text for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"), f
