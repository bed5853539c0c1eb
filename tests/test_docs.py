"""The documentation's examples run, and the lexer highlights every game file."""

import random
from pathlib import Path

import pytest
from pygments.token import Error

import catrules
from catrules.authoring.highlight import CatrulesLexer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.cat"))
ALL_FILES = EXAMPLES + sorted((ROOT / "games").glob("*.cat")) + sorted((ROOT / "tests" / "games").glob("*.cat"))


def test_there_are_examples_for_the_reference():
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_docs_example_checks_and_plays_to_the_end(path):
    game = catrules.load_game(path)
    assert not game.warnings, [str(w) for w in game.warnings]
    for players in range(game.min_players, game.max_players + 1):
        st = game.new_state(players=players, seed=players)
        rng = random.Random(players)
        while not st.finished:
            d = st.pending()[0]
            st.apply(d.player, rng.choice(d.options).id, rng.random() if d.timed else None)
        assert len(st.scores()) == players


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_the_lexer_has_no_error_tokens(path):
    tokens = list(CatrulesLexer().get_tokens(path.read_text()))
    assert not [t for t in tokens if t[0] is Error]


def test_the_lexer_knows_exactly_the_language_words_and_builtins():
    from catrules.check.types import BUILTINS
    from catrules.authoring.highlight import BUILTINS as LEXER_BUILTINS, KEYWORDS
    from catrules.lang.parser import keywords
    assert set(KEYWORDS) == set(keywords())
    assert set(BUILTINS) <= set(LEXER_BUILTINS)


def test_long_code_lines_scroll_rather_than_being_cut_off():
    css = (ROOT / "docs" / "_static" / "code.css").read_text()
    assert "overflow-x: auto" in css and "pre" in css
    assert '"code.css"' in (ROOT / "docs" / "conf.py").read_text()


def test_the_new_game_template_points_to_the_published_docs_not_a_source_path():
    from catrules.authoring import new
    text = Path(new.__file__).read_text()
    assert "docs/language.rst" not in text and "catrules documentation" in text
