"""How a game talks (language 3): texts with values, prompts, card faces, display names,
`do nothing`, `default VALUE`, races one may sit out, titled tallies, score items by option."""

from pathlib import Path

import pytest

import catrules
from catrules.errors import GameFileError
from catrules.play.views import visible_event

ROOT = Path(__file__).resolve().parents[1]
TALK = ROOT / "tests" / "games" / "talk.cat"

HEAD = 'catrules 3\ngame "T"\nplayers 2 to 3\n'
BASE = HEAD + """cards tile in deck:
    for each colour in red, sky_blue:
        for each value in 1 to 3:
            card
zone deck: shared, hidden, pile
zone hand: per player, owner, pile
zone table: shared, public, row
"""


def errors(src):
    with pytest.raises(GameFileError) as exc:
        catrules.load_source(src, "t.cat")
    return exc.value.diagnostics


def play_first(state, pick=lambda d: d.options[0].id):
    """Answer every decision with ``pick`` until the game ends; returns the decisions seen."""
    seen = []
    while not state.over:
        for d in state.pending():
            seen.append(d)
            state.apply(d.player, pick(d), 0.5 if d.timed else None)
            break
    return seen


@pytest.fixture(scope="module")
def talk():
    return catrules.load_game(TALK)


# ------------------------------------------------------------- texts with values

def test_an_announcement_says_players_cards_and_numbers(talk):
    st = talk.new_state(2, seed=3, log=True)
    play_first(st)
    said = [e for e in st.log if e["t"] == "announce"]
    lays = said[0]
    assert lays["parts"][0] == {"player": 0} and lays["parts"][1] == " lays "
    card = lays["parts"][2]["card"]
    assert lays["text"] == f"player 1 lays {talk.program.card_face[card]}"
    grabs = [e for e in said if "grabs" in e["text"]]
    assert grabs and grabs[0]["text"].endswith(": 1 of 2")


def test_a_card_named_in_a_hidden_zone_is_hidden_from_the_others():
    src = BASE + """flow:
    for each player p:
        move top(deck) to hand of p
        announce "{p} drew {top(hand of p)}"
"""
    g = catrules.load_source(src, "t.cat")
    st = g.new_state(2, seed=1, log=True)
    ev = next(e for e in st.log if e["t"] == "announce")
    mine, theirs, nobody = (visible_event(st, ev, p) for p in (0, 1, None))
    assert mine == ev and "hidden" not in mine["text"]
    assert theirs["parts"][2] == {"card": None} and theirs["text"] == "player 1 drew a hidden card"
    assert nobody["text"] == "player 1 drew a hidden card"


def test_a_list_a_symbol_and_none_read_as_words():
    src = BASE + """show sky_blue as "sky blue"
flow:
    announce "colours {[red, sky_blue]}, nobody {none}, {count(deck)} left, {2 > 1}"
"""
    g = catrules.load_source(src, "t.cat")
    st = g.new_state(2, seed=1, log=True)
    ev = next(e for e in st.log if e["t"] == "announce")
    assert ev["text"] == "colours red, sky blue, nobody nothing, 6 left, yes"


def test_braces_are_written_twice_and_mistakes_are_located():
    g = catrules.load_source(BASE + 'flow:\n    announce "a {{brace}} {count(deck)}"\n', "t.cat")
    ev = next(e for e in g.new_state(2, seed=1, log=True).log if e["t"] == "announce")
    assert ev["text"] == "a {brace} 6"
    line = BASE.count("\n") + 2
    d = errors(BASE + 'flow:\n    announce "left: {count(deck}"\n')[0]
    assert (d.line, d.column) == (line, 32) and "ends too early" in d.message
    d = errors(BASE + 'flow:\n    announce "left: {count(deck)"\n')[0]
    assert d.line == line and "no `}`" in d.message and "{{" in d.hint
    d = errors(BASE + 'flow:\n    announce "left: }"\n')[0]
    assert "closes nothing" in d.message
    d = errors(BASE + 'flow:\n    announce "left: {}"\n')[0]
    assert "empty" in d.message
    d = errors(BASE + 'flow:\n    announce "left: {cout(deck)}"\n')[0]
    assert (d.line, d.column) == (line, 22) and "cout" in d.message


def test_a_text_with_values_is_only_said():
    d = errors(BASE + 'counter memo = none\nflow:\n    memo = "{count(deck)} left"\n')[0]
    assert "can only be said" in d.message
    d = errors(BASE + "flow:\n    announce count(deck)\n")[0]
    assert "`announce` says a text" in d.message


def test_a_definition_may_give_a_text():
    src = BASE + """define left = "{count(deck)} left"
flow:
    announce "now {left}"
"""
    g = catrules.load_source(src, "t.cat")
    ev = next(e for e in g.new_state(2, seed=1, log=True).log if e["t"] == "announce")
    assert ev["text"] == "now 6 left"


# ------------------------------------------------------------------------ prompts

def test_every_kind_of_choice_asks_with_its_own_words(talk):
    st = talk.new_state(2, seed=3, ask_forced=True)
    prompts = {(d.kind, d.prompt) for d in play_first(st)}
    assert ("choose", "Lay a tile, player 1") in prompts
    assert ("choose", "Lay a tile, player 2") in prompts
    assert ("choose", "player 1, go on?") in prompts
    assert ("race", "Grab a tile, player 2!") in prompts     # each racer reads their own


def test_a_secret_prompt_names_only_what_its_player_may_see():
    src = BASE + """flow:
    for each player p:
        move top(deck) to hand of p
    secretly each player p chooses c from hand of p asking "Keep {first(hand of p)} or {first(hand of next(p))}?":
        move c to table
"""
    g = catrules.load_source(src, "t.cat")
    st = g.new_state(2, seed=1, ask_forced=True)
    ds = st.pending()
    assert len(ds) == 2
    for d in ds:
        own = g.program.card_face[st.z[st.layout.base[g.program.zone_by_name["hand"].index] + d.player][0]]
        assert d.prompt == f"Keep {own} or a hidden card?"


def test_a_default_names_an_option_and_a_menu_default_names_a_branch(talk):
    st = talk.new_state(2, seed=3, ask_forced=True)
    d = st.pending()[0]
    hand = st.z[st.layout.base[talk.program.zone_by_name["hand"].index]]
    assert d.default == f"c{hand[0]}"
    st.apply(0, d.default)
    d = st.pending()[0]
    assert d.prompt == "player 1, go on?" and d.default == "go on"


def test_a_default_that_is_not_an_option_leaves_no_default():
    src = BASE + """flow:
    for each player p:
        move top(deck, 2) to hand of p
    p = first(players)
    p chooses c from hand of p default top(deck)
"""
    g = catrules.load_source(src, "t.cat")
    assert g.new_state(2, seed=1).pending()[0].default is None


def test_a_menu_default_must_name_one_of_its_choices():
    src = BASE + """flow:
    p = first(players)
    p chooses default "stpo":
        "go":
            do nothing
        "stop":
            end game
"""
    d = errors(src)[0]
    assert 'no choice "stpo"' in d.message and "stop" in d.hint


def test_do_nothing_is_a_statement():
    src = BASE + """flow:
    if count(deck) > 100:
        end game
    else:
        do nothing
"""
    g = catrules.load_source(src, "t.cat")
    assert g.new_state(2, seed=1).over


# ------------------------------------------------------------------ card faces

def test_faces_descriptions_and_display_names(talk):
    p = talk.program
    c = next(i for i, d in enumerate(p.card_dicts) if d["colour"] == "sky_blue" and d["value"] == 1)
    assert p.card_dicts[c]["face"] == "sky blue 1"
    assert p.card_dicts[c]["text"] == "A sky blue tile worth 1 point."
    c3 = next(i for i, d in enumerate(p.card_dicts) if d["colour"] == "red" and d["value"] == 3)
    assert p.card_dicts[c3]["text"] == "A red tile worth 3 points."
    st = talk.new_state(2, seed=3)
    labels = {o.label for o in st.pending()[0].options}
    assert labels <= {p.card_face[i] for i in range(p.card_count)}


def test_a_symbol_without_a_display_name_reads_with_spaces():
    src = BASE + 'flow:\n    announce "{[sky_blue]}"\n'
    g = catrules.load_source(src, "t.cat")
    assert next(e for e in g.new_state(2, seed=1, log=True).log if e["t"] == "announce")["text"] == "sky blue"


def test_a_face_shows_the_card_alone():
    d = errors(BASE + 'show card c of tile as "{c.value} of {count(deck)}"\nflow:\n    do nothing\n')[0]
    assert "shows the card alone" in d.message and d.column == 45     # at `deck`
    d = errors(BASE + 'show card c of tiles as "{c.value}"\nflow:\n    do nothing\n')[0]
    assert "unknown card type `tiles`" in d.message and "tile" in d.hint
    d = errors(BASE + 'show sky_bleu as "sky blue"\nflow:\n    do nothing\n')[0]
    assert "not a value of any card" in d.message and "sky_blue" in d.hint


# ------------------------------------------------------- a race one may sit out

def test_who_sits_out_a_race_is_not_ranked(talk):
    # player 1 sits out ("not me"), player 2 races slower than player 1 would have
    st = talk.new_state(2, seed=3, log=True)
    while st.pending_["kind"] != "race":
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    ds = {d.player: d for d in st.pending()}
    assert ds[0].options[-1].label == "not me" and ds[0].options[-1].id == "none"
    st.apply(0, "none", 0.1)
    st.apply(1, ds[1].options[0].id, 0.9)
    grabs = [e["text"] for e in st.log if e["t"] == "announce" and "grabs" in e["text"]]
    assert len(grabs) == 1 and grabs[0].startswith("player 2 grabs") and grabs[0].endswith("1 of 1")


def test_may_choose_is_for_races():
    src = BASE + "flow:\n    secretly each player p may choose c from table:\n        do nothing\n"
    with pytest.raises(GameFileError):
        catrules.load_source(src, "t.cat")


# ---------------------------------------------------------- tallies and options

def test_a_tally_has_a_title_and_an_item_exists_only_with_its_option(talk):
    st = talk.new_state(2, seed=3, log=True)
    play_first(st)
    tally = next(e for e in st.log if e["t"] == "tally")
    assert tally["title"] == "after the race"
    assert "bonus_point" not in tally["scores"][0] and "bonus_point" not in st.scores()[0]
    st = talk.new_state(2, seed=3, log=True, options=["bonus"])
    play_first(st)
    assert st.scores()[0]["bonus_point"] == 1
    assert st.scores()[0]["total"] == st.scores()[0]["points"] + 1


def test_a_score_items_if_names_options_only():
    d = errors(BASE + "flow:\n    do nothing\nscore:\n    points = 1 if count(deck) > 1\n")[0]
    assert "names the game's options only" in d.message


# ----------------------------------------------------------------- versions

def test_language_3_words_are_refused_in_older_files_but_stay_names_there():
    old = BASE.replace("catrules 3", "catrules 2")
    g = catrules.load_source(old + 'flow:\n    announce "{count(deck)}"\n', "t.cat")
    ev = next(e for e in g.new_state(2, seed=1, log=True).log if e["t"] == "announce")
    assert ev["text"] == "{count(deck)}"      # braces are plain text in language 2
    d = errors(old + "flow:\n    do nothing\n")[0]
    assert "language 3" in d.message and "catrules 3" in d.hint
    g = catrules.load_source(old + "counter show = 1\nflow:\n    show = 2\n", "t.cat")
    assert g.new_state(2, seed=1).over


# ------------------------------------------------------------ the running score

def test_a_running_score_is_shown_only_when_the_score_reads_public_things(talk):
    meow = catrules.load_game(ROOT / "games" / "meow.cat")
    assert meow.program.score_public            # won and used are public zones
    st = meow.new_state(3, seed=1)
    view = st.view(0)
    assert view["running"] == st.scores() and "scores" not in view
    assert not talk.program.score_public        # talk scores its hands, which only owners see
    assert "running" not in talk.new_state(2, seed=3).view(0)


def test_extreme_values_in_a_text_are_located_errors():
    line = BASE.count("\n") + 2
    for inner, what in (("(" * 300 + "1" + ")" * 300, "nested too deeply"),
                        ("+".join(["1"] * 400), "nested too deeply"),
                        ("9" * 30, "a number larger than"),
                        (" {x} ", "unexpected character")):
        d = errors(BASE + 'flow:\n    announce "a {' + inner + '}"\n')[0]
        assert d.line == line and what in d.message, (inner[:20], d)


def test_a_prompt_nobody_watches_is_worked_out_when_read_and_says_the_same(talk):
    quiet, logged = talk.new_state(2, seed=3), talk.new_state(2, seed=3, log=True)
    while not quiet.over:
        a, b = quiet.pending(), logged.pending()
        assert callable(a[0]._prompt) and not callable(b[0]._prompt)    # lazy only when unwatched
        assert [d.prompt for d in a] == [d.prompt for d in b]
        for st, d in ((quiet, a[0]), (logged, b[0])):
            st.apply(d.player, d.options[0].id, 0.5 if d.timed else None)


def test_a_saved_game_asks_with_the_same_words(talk):
    st = talk.new_state(2, seed=3, log=True)
    while st.pending_["kind"] != "race":
        d = st.pending()[0]
        st.apply(d.player, d.options[0].id)
    back = talk.restore(st.to_dict())
    assert [d.prompt for d in back.pending()] == [d.prompt for d in st.pending()] == \
        ["Grab a tile, player 1!", "Grab a tile, player 2!"]
