"""``catrules rules --prose``: the rulebook in English (catrules.authoring.prose).

For the three seed games, every rule of the checklists in ../shared/games/*.md has key
facts (numbers, card names, key words) that must appear in the generated rulebook; the
facts are the checklist's, and they appear because the game file says them (its counts,
texts, comments and rules), phrased by the generator.
"""

import re
from html.parser import HTMLParser
from pathlib import Path

import html

import pytest

import catrules
from catrules.authoring.prose import prose
from catrules.authoring.prose_exprs import Phraser
from catrules.cli import main
from catrules.lang import ast

ROOT = Path(__file__).resolve().parent.parent
ALL = sorted(ROOT.glob("games/**/*.cat")) + sorted((ROOT / "docs" / "examples").glob("**/*.cat")) \
    + sorted((ROOT / "tests" / "games").glob("*.cat"))

# rule id -> facts that must all appear (case-insensitive, spaces normalised)
MEOW = {
    "M01": ["54 cat cards", "green on 18", "blue on 18", "pink on 18", "from 1 to 18", "green is trump"],
    "M02": ["27 award cards", "food on 11", "fish bone on 8", "fish on 4", "vase on 4",
            "Food: 10 points", "A fish bone: -10 points", "A fish bone: -8 points"],
    "M03": ["2 to 6 players", "first player starts as a random player"],
    "M04": ["Shuffle the tokens", "stacks of nine", "Move the top 9 cards of the tokens to the row"],
    "M05": ["Shuffle the deck", "a random player"],
    "M06": ["the row", "won left to right", "the first card of the row"],
    "M07": ["Move the top 9 cards of the deck to p's hand", "only its owner sees its cards"],
    "M08": ["Repeat 9 times", "Set leader to first player", "Set leader to the owner of winning"],
    "M09": ["clockwise from leader", "its colour is lead's colour must be chosen if there is one",
            "otherwise any may be"],
    "M10": ["the highest strength(it)", "colour rank(c)", "if c's colour is green: 2",
            "if c's colour is lead's colour: 1", "c's value is 1", "its value is 18", "then 19",
            "a 1 beats the 18 of its own colour"],
    "M11": ["Move the first card of the row to leader's won", "everyone's played to the discard"],
    "M12": ["Move every card of the discard to the deck", "the player after first player (clockwise)"],
    "M13": ["the round phase, 3 times", "the total value of the cards in their won where its kind is food"],
    "M14": ["fish cancels one of your fish bones", "the smallest of the number of cards in p's won where its "
            "kind is fish and the number of cards in p's won where its kind is fish bone",
            "suggested: the one with the lowest t's value", "one fishbone per fish"],
    "M15": ["is at least 2 then −20, otherwise 0", "-20 in all"],
    "M16": ["the highest total wins", "share the win"],
    "M17": ["fishbones kept", "food", "vases"],
    "M18": ["expert", "remove middle values", "6 for 2; 9 for 3; 12 for 4; 15 for 5; otherwise 18",
            "its value is at most 17 to the box"],
}
CAT_LADY = {
    "C01": ["2 to 4 players", "102 game card cards", "13 stray cards", "6 vp token cards", "A token worth 2 VP",
            "chicken on 20, tuna on 20, milk on 15, wild on 5", "never runs out"],
    "C02": ["its marker is more than the number of players to the box", "If the number of players is less than 4",
            "Move the top 2 cards of the deck to the box", "a grid of 3 by 3",
            "Move the top 3 cards of the stray deck to the strays", "marker: 2 on 66, 3 on 18, 4 on 18"],
    "C03": ["the player before first player", "Place the cat token beside a row or column"],
    "C04": ["the rows and columns of the market where it is not blocked", "Set blocked to l",
            "Fill every empty place of the market from the deck"],
    "C05": ["Repeat, until a step says stop", "before or after the line", "use a spray bottle",
            "offered only if not taken"],
    "C06": ["If c's kind is cat", "Move c to p's cats", "to p's cubes", "Move c to p's hand", "Move c to p's kept",
            "Chicken x2: take 2 chicken cubes", "Wild food: take 1 wild cube"],
    "C07": ["find a stray with 2 lost cats", "take a VP token with 2 lost cats", "lost cats(current) is at least 2",
            "not replaced"],
    "C08": ["Spray: move the cat token beside any row or column"],
    "C09": ["Repeat until last turn", "If the number of cards in the market is less than 9",
            "Set last turn to true", "the game ends after this turn"],
    "C10": ["unfed it costs 2 VP", "−2 × the number of hungry(the player)", "wild", "feeds(the card, the need)",
            "the highest feeding score(p)", "then the lowest leftover(p)"],
    "C11": ["food penalty", "is the largest leftover(it) among the players (0 if there are none) then −2",
            "no penalty when nobody has a cube left"],
    "C12": ["toys", "for 1: 1", "for 2: 3", "for 3: 5", "for 4: 8", "otherwise: 12", "Mouse Toy", "Scratching Post"],
    "C13": ["costumes", "is 0 then −2", "6 ÷ the number of the players where costumes of(it)", "rounded down"],
    "C14": ["for 1: −2", "for 2: the number of well fed(p)", "otherwise: 2 × the number of well fed(p)",
            "extra catnip"],
    "C15": ["vp tokens: 2 × the number of cards in their kept where its kind is token"],
    "C16": ["the highest total wins", "the highest cats fed", "share the win"],
    "C17": ["Alvin", "Dinah", "Luna", "Florence", "LeVar Purrton", "Zoroaster", "Penny", "Macak", "Hemingway",
            "Sweetheart", "Moonbeam", "Waffle", "Cow", "Truffle", "Henriette", "Pablo Picatso",
            "for each orange cat you feed, itself included", "col is in its colours"],
}
FLAP_CAT = {
    "F01": ["73 piece cards", "Shuffle the deck", "to p's pile", "as evenly as possible", "random in round 1",
            "the player after first player (clockwise)"],
    "F02": ["Move the top card of p's pile to the table", "Race", "fastest first",
            "Your card was taken: take one of those left", "is less than (if two players then 10, otherwise 8)"],
    "F03": ["Move every card of everyone's pile to the deck", "central draw pile"],
    "F04": ["all at once and in secret", "Choose a card to reveal"],
    "F05": ["SWAP", "the swappers race", "swaps once", "Do swaps"],
    "F06": ["PAWS IN!", "cancels every SWAP", "the slowest discards", "everyone else discards",
            "If the number of pawing is the number of players"],
    "F07": ["start a new cat", "add it to a cat", "rebuild a head or tail", "Move old to r's covered",
            "Move c to r's beside", "at's start and not has(at's line, head)"],
    "F08": ["Do act(p, p's placed)", "DRAW and DONATE", "clockwise from first player"],
    "F09": ["the top 3 cards of the deck", "Move the top 2 cards of the deck (fewer if it holds fewer) to the bottom of the deck"],
    "F10": ["DONATE: give a card to another player's area", "can give(p, it)", "can take(it, gift)"],
    "F11": ["Whenever a card c enters q's cats from giver's hand", "Do act(q, c)", "chain always ends"],
    "F12": ["Repeat while there is none of the players where there is no card in its hand", "no card to reveal"],
    "F13": ["Move the cards in p's hand where negative(it) to p's beside"],
    "F14": ["star points", "lower(the stars of its before, the stars of its after)", "has(l, head) and has(l, tail)",
            "bonus points", "if pug is in c's features then 1"],
    "F15": ["negative points: 0 − the number of cards in their beside", "-1"],
    "F16": ["the round phase, 3 times", "Tally the score now", "the highest one colour pieces",
            "the fastest wins"],
    "F17": ["two players holds when the number of players is 2", "its icon is PAWS IN! to the box", "10",
            "p's second pile", "Repeat if two players then 2, otherwise 1 times",
            "If the number of the players where shows(it, SWAP) is 1"],
    "F18": ["Longest Meow", "Cat Hoarder", "EpiCalico", "Purebred", "Shoot the Meown", "+4", "+6", "+13",
            "the number of values where it is mine is 1: 4", "otherwise: 2", "only in games where the longest meow option is on or the advanced option is on"],
}
CHECKLISTS = [("meow", MEOW, 18), ("catlady", CAT_LADY, 17), ("flapcat", FLAP_CAT, 18)]


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


@pytest.fixture(scope="module")
def books():
    return {name: _norm(prose(catrules.load_game(ROOT / "games" / f"{name}.cat")))
            for name, _facts, _n in CHECKLISTS}


@pytest.mark.parametrize("name,facts,n", CHECKLISTS, ids=[c[0] for c in CHECKLISTS])
def test_every_checklist_rule_has_facts(name, facts, n):
    prefix = next(iter(facts))[0]
    assert sorted(facts) == [f"{prefix}{i:02d}" for i in range(1, n + 1)]


@pytest.mark.parametrize("rule,name,fact", [(r, name, f) for name, facts, _n in CHECKLISTS
                                            for r, fs in facts.items() for f in fs])
def test_checklist_fact_is_in_the_rulebook(books, rule, name, fact):
    assert _norm(fact) in books[name], f"{rule}: {fact!r} is not in the rulebook of {name}"


@pytest.mark.parametrize("path", ALL, ids=[str(p.relative_to(ROOT)) for p in ALL])
def test_every_game_has_a_rulebook_in_every_format(path):
    try:
        game = catrules.load_game(path)
    except catrules.GameFileError:
        pytest.skip("does not load on its own (a fragment)")
    for fmt in ("text", "markdown", "html"):
        text = prose(game, fmt)
        shown = html.unescape(text) if fmt == "html" else text     # the title's ' is &#x27; there
        assert game.title.split()[0] in shown and "Scoring" in shown
        assert "\x01" not in text and "\x03" not in text and "\x05" not in text
    _well_formed(prose(game, "html"))


class _Checker(HTMLParser):
    VOID = {"meta", "br"}

    def __init__(self):
        super().__init__()
        self.stack, self.errors = [], []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


def _well_formed(html: str) -> None:
    c = _Checker()
    c.feed(html)
    c.close()
    assert not c.errors and not c.stack, (c.errors, c.stack)


HOSTILE = '''\
catrules 3
game "Tags <b>&amp; it"
players 2 to 3

option loud: "Says <script>alert(1)</script> & more"

# A comment with <i>markup</i> & *stars* and `ticks`
cards chip in bag:
    2 cards with label "<b>x</b>", value 1

describe card c of chip as "A chip <em>{c.value}</em> & *bold*"

zone bag: shared, hidden, pile
zone hand: per player, owner, pile

flow:
    for each player p:
        p chooses c from bag asking "Take <u>one</u> & go"
        move c to hand of p

score:
    chips = count(hand) # <tag> in a comment

winner:
    highest total
'''


def test_html_escapes_the_games_texts():
    game = catrules.load_source(HOSTILE, "hostile.cat")
    html = prose(game, "html")
    _well_formed(html)
    for raw in ("<script>", "<b>", "<em>1</em>", "<u>", "<i>", "<tag>"):
        assert raw not in html.split("<body>")[1]
    for escaped in ("&lt;script&gt;", "&lt;b&gt;x&lt;/b&gt;", "&lt;u&gt;one&lt;/u&gt; &amp; go", "&lt;tag&gt;"):
        assert escaped in html


def test_markdown_has_headings_and_escapes():
    game = catrules.load_source(HOSTILE, "hostile.cat")
    md = prose(game, "markdown")
    for h in ("# Tags", "## Components", "### Cards", "## Setup", "## Order of play", "## Choices",
              "## How things are decided", "## End of the game", "## Scoring", "## Winner",
              "## Variants and options", "## Quoted as written"):
        assert re.search("^" + re.escape(h), md, re.M), h
    assert r"\*stars\*" in md and r"\<i\>" in md


def test_an_expression_without_words_is_quoted_and_listed():
    game = catrules.load_game(ROOT / "games" / "meow.cat")
    ph = Phraser(game.checked)
    odd = ast.Call("nosuch", [ast.Const(1)], line=7)
    text = ph.expr(odd)
    assert "nosuch(1)" in text and "(as written)" in text
    assert ph.unphrased == [(7, "nosuch(1)")]
    assert ph.expr(ast.Binary("+", ast.Const(1), ast.Const(2))) == "1 + 2"


def test_players_and_options_decide_what_they_can():
    game = catrules.load_game(ROOT / "games" / "meow.cat")
    two = _norm(prose(game, players=2, options=["expert"]))
    assert "its value is at least 6 and its value is at most 17 to the box" in two
    assert "a game with 2 players; options on: expert" in two and "(on in this rulebook)" in two
    plain = _norm(prose(game, players=3))
    assert "if the expert option is on" not in plain and "is at least 6" not in plain
    assert "(off in this rulebook)" in plain
    flap = _norm(prose(catrules.load_game(ROOT / "games" / "flapcat.cat"), options=["epicalico"]))
    assert "epicalico points: if" in flap and "purebred points: if" not in flap


def test_the_command(capsys, tmp_path):
    game = str(ROOT / "games" / "meow.cat")
    assert main(["rules", game, "--prose", "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# Meow\n") and "## Scoring" in out
    out_file = tmp_path / "meow.html"
    assert main(["rules", game, "--prose", "--format", "html", "-o", str(out_file)]) == 0
    assert out_file.read_text().startswith("<!DOCTYPE html>")
    assert main(["rules", game]) == 0                   # the summary stays the default
    assert capsys.readouterr().out.startswith("# Meow\n\nA game for 2 to 6 players, generated from")
    assert main(["rules", game, "--format", "html"]) == 2
    assert "go with --prose" in capsys.readouterr().err
    assert main(["rules", game, "--prose", "--option", "nope"]) == 2
    assert "has no option `nope`" in capsys.readouterr().err
    assert main(["rules", game, "--prose", "--players", "9"]) == 2


def test_the_docs_page_is_current():
    import importlib.util
    spec = importlib.util.spec_from_file_location("rulebook_page", ROOT / "tools" / "rulebook_page.py")
    page = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(page)
    docs_page = page.docs_page
    assert (ROOT / "docs" / "rulebook.rst").read_text(encoding="utf-8") == docs_page(ROOT), \
        "docs/rulebook.rst is out of date: python tools/rulebook_page.py > docs/rulebook.rst"
    index = (ROOT / "docs" / "index.rst").read_text(encoding="utf-8")
    assert re.search(r"^   rulebook$", index, re.M)


def test_a_comment_on_a_continuation_line_explains_its_statement():
    # `catrules fmt` wraps a long line with `\` (or inside brackets): the comment at the end of
    # the line it is carried on to explains the statement as it did at the end of one line
    base = catrules.load_game(ROOT / "tests" / "games" / "passing.cat")
    text = base.checked.game.source.replace("        move t to shown",
                                            "        move t \\\n            to shown  # the last card is shown")
    text = text.replace("    bid_value = sum(bid, value)",
                        "    bid_value = sum(bid,  # the bid's cards\n        value)")
    book = prose(catrules.load_source(text, "wrapped.cat"))
    assert "the last card is shown" in book and "the bid's cards" in book


def _small_book(rules: str) -> str:
    """The rulebook (normalised) of a small game of 30 tokens, a deck and hands, and ``rules``."""
    src = ('catrules 4\ngame "T"\nplayers 2 to 4\ncards token in deck:\n    for each value in 1 to 30:\n'
           '        card\nzone deck: shared, hidden\nzone hand: per player, owner\n' + rules)
    return _norm(prose(catrules.load_source(src, "t.cat")))


def test_a_table_inside_a_longer_phrase_is_bracketed():
    # `top(pool, pick(...))`: without brackets the cases ran on into "cards of the pool"
    text = _small_book('define size = pick(count(players), 2: 7, else: 5)\nflow:\n    for each player p:\n'
                       '        move top(deck, pick(count(players), 2: 7, else: 5)) to hand of p\n'
                       '        move top(deck, size) to hand of p\n')
    assert ("move the top (depending on the number of players: 7 for 2; otherwise 5) cards of the deck "
            "to p's hand") in text
    assert text.count("(depending on") == 1 and "size depends on the number of players" in text


def test_a_zone_with_cards_or_without_reads_without_a_verb_to_agree():
    # `any(deck)` read "there is at least one of the deck"; a zone's name may be plural
    # ("the strays"), so no verb agrees with it: "there is a card in ..."
    text = _small_book('zone strays: shared, public\nflow:\n    repeat while any(deck):\n'
                       '        for each player p:\n            move top(deck, up to 1) to hand of p\n'
                       '    if not any(strays):\n        move top(hand of first(players)) to strays\n')
    assert "repeat while there is a card in the deck:" in text
    assert "move the top card of the deck (if it has one) to p's hand" in text
    assert "if there is no card in the strays:" in text
