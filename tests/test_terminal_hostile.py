"""Hostile input at the terminal: odd answers at a prompt, markup and escape sequences in game
data, logs and seat names, and a grammar cache someone else planted."""

import asyncio
import io
import json
import os
import pickle
import stat
import tempfile
from pathlib import Path

import pytest
from lark import Lark
from rich.console import Console

import catrules
from catrules.lang import grammar_cache, parser
from catrules.bots.basic import make_seat
from catrules.play.seats import Choice, Seat
from catrules.frontends.terminal import Spectator, TerminalSeat
from catrules.frontends.tui import TableApp, TuiSeat
from catrules.play.logs import LogWriter
from catrules.play.replay import replay
from catrules.play.match import Match
from catrules.play.views import visible_event

TESTS = Path(__file__).resolve().parent
MARKUP = TESTS / "games" / "markup.cat"
MARKUPS = ("[bold red]x[/]", "[link=http://x]y[/link]")


@pytest.fixture(scope="module")
def game():
    return catrules.load_game(MARKUP)


def console():
    return Console(file=io.StringIO(), width=100, highlight=False, record=True, color_system="truecolor")


def feeder(answers):
    it = iter(answers)
    return lambda prompt="": next(it)


class First(Seat):
    def decide(self, view, decision):
        return Choice(decision.options[0].id)


# ------------------------------------------------------------------ the prompt

def test_odd_answers_at_the_line_prompt_ask_again(game):
    st = game.new_state(2, seed=1)
    d = st.pending()[0]
    con = console()
    odd = ["²", "7" * 5000, "٣", "0", "00", "-1", "1e3", "\x1b[2J", "3"]
    seat = TerminalSeat(console=con, input=feeder(odd + ["2"]), game=game)
    seat.start(None, d.player)
    ch = seat.decide(st.view(d.player), d)
    assert ch.option == d.options[1].id
    out = con.export_text()
    assert out.count("is not one of the options") + out.count("is not an option") == len(odd)
    assert "\x1b[2J" not in con.file.getvalue()        # the typed escape is written out, not obeyed


def test_a_superscript_digit_in_the_full_screen_table_is_ignored(game):
    st = game.new_state(2, seed=1, log=True, ask_forced=True)
    seat = TuiSeat(game=game, names=["you", "random"])
    match = Match(game, st, [seat, make_seat("random")])
    app = TableApp(match, [seat], "")
    got = {}

    async def main():
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await pilot.pause(0.02)
                if app.decision is not None:
                    break
            d = app.decision
            await pilot.press("²", "2")
            assert app.decision is d and app.typed == "2"
            await pilot.press("enter")
            for _ in range(200):
                await pilot.pause(0.02)
                if match.state.history:
                    break
            got["choice"] = match.state.history[0][1]
            got["want"] = d.options[1].id
            await pilot.press("q")
            for _ in range(200):
                await pilot.pause(0.02)
                if not app.worker.is_alive():
                    break
    asyncio.run(main())
    assert got["choice"] == got["want"]


# ------------------------------------------------------------------ markup and escapes

def test_markup_in_names_options_and_announcements_shows_as_written(game):
    con = console()
    seat = TerminalSeat(console=con, input=feeder(["1"] * 10), game=game, names=["you", "first"])
    match = Match(game, game.new_state(2, seed=1, options=["loud"], log=True), [seat, First()])
    match.run()
    out = con.export_text()
    for m in MARKUPS:
        assert m in out                                    # the title, a card name, an option, a line
    assert "[bold]Lay[/bold] a tile" in out and "[b]go[/b]" in out
    assert "\x1b]8;" not in con.file.getvalue()           # no hyperlink was written


def test_the_spectator_writes_out_escape_sequences_from_a_log(game):
    con = console()
    sp = Spectator(con, game, ["\x1b]0;owned\x07[bold]ann[/bold]", "bob"])
    state = game.new_state(2, seed=1, log=True)
    match = Match(game, state, [First(), First()])
    match.on_event = lambda ev: sp.event(visible_event(match.state, ev, None))
    match.run()
    sp.event({"t": "announce", "text": "\x1b[2J\x9b31m[link=http://x]y[/link]"})
    sp.finish(state.scores(), state.winners())
    raw, out = con.file.getvalue(), con.export_text()
    assert "\x1b[2J" not in raw and "\x9b" not in raw and "\x1b]0;" not in raw and "\x07" not in raw
    assert "\\x1b[2J\\x9b31m[link=http://x]y[/link]" in out
    assert "\\x1b]0;owned\\x07[bold]ann[/bold]" in out      # the seat name from a save, written out
    assert "[bold red]x[/]" in out


def test_replay_output_of_a_tampered_log_holds_no_escape(tmp_path, game):
    path = tmp_path / "g.jsonl"
    state = game.new_state(2, seed=1, log=True)
    match = Match(game, state, [make_seat("random"), make_seat("random")])
    with LogWriter(path, game, 2, (), 1, ["random", "random"]) as w:
        w.attach(match)
        match.run()
    objs = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    objs[0]["catrules"] = "\x1b]0;owned\x07"
    ev = next(o for o in objs if o.get("type") == "event" and o.get("event") != "decision")
    ev["text"] = "\x1b[2J\x9b"
    path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs), encoding="utf-8")
    rep = replay(path)
    text = rep.format() + "".join(n for g in rep.games for n in g.notes)
    assert not rep.ok
    assert "\\x1b]0;owned\\x07" in text
    assert not any(c in text for c in "\x1b\x07\x9b")


def test_a_c1_control_character_in_a_game_file_is_refused(tmp_path):
    p = tmp_path / "c1.cat"
    p.write_text(MARKUP.read_text(encoding="utf-8").replace("[bold red]x[/]", "\x9b2J", 1), encoding="utf-8")
    with pytest.raises(catrules.GameFileError, match="control character"):
        catrules.load_game(p)


# ------------------------------------------------------------------ the grammar cache

@pytest.fixture
def fresh_parsers(monkeypatch, tmp_path):
    """The parsers built anew, with the user's cache directory and the shared temp in tmp_path."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    parser._lark.cache_clear()
    parser._lark_expr.cache_clear()
    yield tmp_path
    parser._lark.cache_clear()
    parser._lark_expr.cache_clear()


def test_the_cache_is_private_to_the_user(fresh_parsers):
    parser._lark(), parser._lark_expr()
    where = fresh_parsers / "cache" / "catrules"
    assert stat.S_IMODE(os.stat(where).st_mode) == 0o700
    files = sorted(p.name for p in where.iterdir())
    assert [f.split("-")[1] for f in files] == ["expr", "start"]
    for f in where.iterdir():
        assert stat.S_IMODE(os.stat(f).st_mode) == 0o600 and f.stat().st_uid == os.getuid()
    assert list((fresh_parsers / "shared-tmp").iterdir()) == []      # nothing left in the shared temp
    catrules.load_game(MARKUP)                                        # and the cached parser parses


def test_an_open_or_linked_cache_directory_is_not_used(fresh_parsers):
    where = fresh_parsers / "cache" / "catrules"
    where.mkdir(parents=True)
    os.chmod(where, 0o777)
    assert grammar_cache.cache_file("grammar", "start") is False
    parser._lark()
    assert list(where.iterdir()) == []
    os.rmdir(where)
    elsewhere = fresh_parsers / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    where.symlink_to(elsewhere)
    assert grammar_cache.cache_file("grammar", "start") is False


class _Plant:
    """A pickle that, when loaded, creates the file ``marker``: what an attacker would plant."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_pickle_planted_in_the_shared_temp_is_never_loaded(fresh_parsers):
    shared = fresh_parsers / "shared-tmp"
    marker = fresh_parsers / "owned"
    text = parser.grammar_text()

    def lark_default(start):          # what Lark's own cache=True reads, in the shared temp
        return Lark(text, parser="lalr", postlex=parser._Indenter(), propagate_positions=True,
                    maybe_placeholders=True, start=start, cache=True)
    for start in ("start", "expr"):
        lark_default(start)
    planted = list(shared.iterdir())
    assert len(planted) == 2
    for f in planted:
        sha = f.read_bytes().split(b"\n", 1)[0]
        f.write_bytes(sha + b"\n" + pickle.dumps(_Plant(marker)))
    parser._lark(), parser._lark_expr()
    catrules.load_game(MARKUP)
    assert not marker.exists()
    lark_default("start")             # the plant works: Lark's default would have run it
    assert marker.exists()


def test_emoji_codes_in_game_texts_show_as_written(capsys):
    """Rich would turn ``:cat:`` into a picture: game texts are data, shown as written (and its
    table of emoji codes is not loaded at each start)."""
    from catrules.cli import main
    assert main(["play", str(MARKUP), "--seats", "random,random", "--seed", "1", "--plain"]) == 0
    out = capsys.readouterr().out
    assert "lays" in out and out.count(":cat:") >= 2 and "\N{CAT FACE}" not in out   # the title, a line
