"""A game's "how to play" text (`how to play:`): parsed, checked, kept, and shown by `r` in the full
screen, the web page and `catrules rules --prose`."""

import asyncio
import sys
from pathlib import Path

import pytest

import catrules
from catrules.bots.basic import make_seat
from catrules.errors import GameFileError
from catrules.frontends.race_clock import RaceClock
from catrules.frontends.tui import TableApp, TextScreen, TuiSeat
from catrules.lang import howto, parser
from catrules.play.match import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from tui_screen import screen_text, until  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ["games/meow.cat", "games/catlady.cat", "games/flapcat.cat", "games/variants/meow-short.cat",
         "games/variants/catlady-4x4.cat", "games/variants/flapcat-donate-two.cat"]

HEAD = 'catrules {v}\ngame "T"\nplayers 2 to 2\n\nzone deck: shared, hidden\n\ncards c in deck:\n' \
       '    4 cards with value 1\n\nflow:\n    end game\n'


def parse(tail: str, version: int = 3):
    return parser.parse(HEAD.format(v=version) + tail, "t.cat")


def error_of(tail: str, version: int = 3):
    with pytest.raises(GameFileError) as e:
        parse(tail, version)
    return e.value.diagnostics[0]


# ------------------------------------------------------------------ the language

def test_the_block_parses_into_paragraphs_and_items():
    g = parse('\nhow to play:\n    "Goal: win."\n    "Each turn, {draw} a card."\n    ""\n    "- one"\n'
              '    "  more of one"\n    "- two"\n    "After the list."\n')
    assert g.how_to_play.line == 13
    assert howto.paragraphs(g.how_to_play.lines) == [
        ("p", "Goal: win. Each turn, {draw} a card."), ("item", "one more of one"), ("item", "two After the list.")]


def test_how_stays_a_name_and_old_files_without_the_block_still_load():
    g = parser.parse(HEAD.format(v=3).replace("flow:", "counter how = 1\n\nflow:") + "    how = 2\n", "t.cat")
    assert g.how_to_play is None and "how" not in parser.keywords()
    assert catrules.load_game(ROOT / "tests" / "games" / "old" / sorted(
        p.name for p in (ROOT / "tests" / "games" / "old").glob("*.cat"))[0]).how_to_play == []


@pytest.mark.parametrize("tail, line, col, message, hint", [
    ('\nhow to play:\n    ""\n', 13, 1, "the `how to play` text is empty", "write what a person needs"),
    ('\nhow to play:\n    "a"\n\nhow to play:\n    "b"\n', 16, 1, "a second `how to play` block", "line 13"),
    ('\nhow to play:\n', 13, 13, "the file ends too early", "an indented block"),
    ('\nhow to play:\n    Goal: win\n', 14, 5, "unexpected `Goal`", 'a quoted text ("...")'),
    ('\nhow to play\n    "a"\n', 13, 12, "the line ends too early", "`:`"),
])
def test_mistakes_get_a_place_a_message_and_a_hint(tail, line, col, message, hint):
    d = error_of(tail)
    assert (d.line, d.column) == (line, col) and message in d.message and hint in d.hint, d
    text = str(d)
    assert text.startswith(f"t.cat:{line}:{col}: ") and "^" in text and "Traceback" not in text


def test_the_block_is_language_3():
    d = error_of('\nhow to play:\n    "a"\n', version=2)
    assert "`how to play` is language 3, and this file says `catrules 2`" in d.message
    assert "catrules 3" in d.hint


def test_a_variant_replaces_the_text_and_cannot_add_a_second(tmp_path):
    (tmp_path / "base.cat").write_text(HEAD.format(v=3) + '\nhow to play:\n    "Base text."\n')
    (tmp_path / "v.cat").write_text(HEAD.format(v=3).split("\n\nzone")[0] + '\nextends "base.cat"\n\n'
                                    'replace how to play:\n    "Variant text."\n')
    assert catrules.load_game(tmp_path / "v.cat").how_to_play == [("p", "Variant text.")]
    (tmp_path / "w.cat").write_text(HEAD.format(v=3).split("\n\nzone")[0] + '\nextends "base.cat"\n\n'
                                    'how to play:\n    "Another."\n')
    with pytest.raises(GameFileError, match="a second `how to play` text: the base game has one"):
        catrules.load_game(tmp_path / "w.cat")


@pytest.mark.parametrize("path", SEEDS)
def test_every_seed_game_has_one_and_fmt_keeps_it(path):
    from catrules.authoring.fmt import format_text
    game = catrules.load_game(ROOT / path)
    kinds = [k for k, _t in game.how_to_play]
    assert kinds and "item" in kinds and game.how_to_play[0][1].startswith("Goal:")
    text = (ROOT / path).read_text()
    block = text[text.index("how to play:"):]
    assert block in format_text(text, path)          # the formatter leaves the block as written
    assert game.how_to_play_text.startswith("Goal:") and max(map(len, game.how_to_play_text.splitlines())) <= 78


# ------------------------------------------------------------------ where it is shown

def test_rules_prose_puts_it_first():
    from catrules.authoring.prose import prose
    game = catrules.load_game(ROOT / "games" / "catlady.cat")
    text = prose(game, "text")
    assert text.index("How to play") < text.index("The rules in full") < text.index("Components")
    assert "• " not in text and "- the most cubes left over cost 2;" in text
    html = prose(game, "html")
    assert "<h2>How to play</h2>" in html and "<li>the most cubes left over cost 2;</li>" in html
    no_text = prose(catrules.load_game(ROOT / "tests" / "games" / "order.cat"), "text")
    assert "How to play" not in no_text and "The rules in full" not in no_text


def test_play_help_points_to_it(capsys):
    from catrules.cli import main
    try:
        main(["play", "--help"])
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    assert "r how to play the game" in out and "catrules rules GAME --prose" in out


def test_r_opens_it_at_80x24_and_pauses_a_race():
    game = catrules.load_game(ROOT / "games" / "flapcat.cat")
    st = game.new_state(3, seed=3, log=True, ask_forced=True)
    seat = TuiSeat(game=game, names=["you", "greedy", "greedy"])
    match = Match(game, st, [seat, make_seat("greedy"), make_seat("greedy")])
    app = TableApp(match, [seat], game.title)
    now = [50.0]
    app.race = RaceClock(now=lambda: now[0])
    seen = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.decision is not None and app.race.running)
            seen["table"] = screen_text(app)
            now[0] += 0.3
            await pilot.press("r")
            await until(pilot, lambda: isinstance(app.screen, TextScreen))
            await pilot.pause(0.1)
            seen["page"] = screen_text(app)
            now[0] += 7.0                           # reading the rules: not counted
            await pilot.press("r")                  # r closes it again
            await until(pilot, lambda: not isinstance(app.screen, TextScreen))
            now[0] += 0.5
            await pilot.press("1")
            await until(pilot, lambda: any(h[0] == 0 for h in match.state.history))
            seen["rec"] = next(h for h in match.state.history if h[0] == 0)
            await pilot.press("q")
            await until(pilot, lambda: not app.worker.is_alive())
    asyncio.run(main())
    assert "? keys" in seen["table"].splitlines()[-1]
    page = seen["page"]
    assert "how to play Flap Cat!" in page and "Goal: build whole cats" in page and "• SWAP:" in page
    assert all(len(line) <= 80 for line in page.splitlines()) and len(page.splitlines()) <= 24
    assert seen["rec"][2] == pytest.approx(0.8)          # 0.3 + 0.5: the 7 s on the page not counted


def test_the_web_page_gets_it_with_its_first_message_and_shows_it(tmp_path):
    pytest.importorskip("starlette")
    from catrules.web.store import Store
    from catrules.web.registry import Registry
    reg = Registry(Store(tmp_path / "t.db"), [ROOT / "games" / "meow.cat"])
    key = next(iter(reg.games))
    made = reg.create({"game": key, "players": 2, "seats": ["human", "greedy"]})
    table = reg.table(made["table"])
    first, last = table.message(0, 0)
    assert first["how_to_play"][0] == ["p", "Goal: win award tokens in tricks; after three rounds, the most "
                                            "points wins."]
    assert ["item", "food tokens: their value in points;"] in first["how_to_play"]
    if last:
        assert "how_to_play" not in table.message(0, last)[0]
    html = (ROOT / "catrules" / "web" / "static" / "play.html").read_text()
    js = (ROOT / "catrules" / "web" / "static" / "play.js").read_text()
    assert 'id="howto-link"' in html and 'id="howto"' in html and "msg.how_to_play" in js
