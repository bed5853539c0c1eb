"""Flap Cat!, rule by rule: construction, actions, round end and scoring (F07-F16, F18).

The checklist is the project's Flap Cat! rules checklist (ids F01-F18, with its deck and
rulings); the game is ``games/flapcat.cat``.  Every test builds a concrete situation at the
first construction step of a game (hands, cats, cards beside, the top of the draw pile, laid
out by hand with :mod:`catrules.testing`), plays the choices it wants and checks what happens
against the rules -- or plays whole games with default choices.  Every expected number was
worked out by hand from the rules (the working is in the comments next to it).

Players are numbered from 0 here; the log and the option ids name them from 1 ("player 2",
``p2``).  Unless a test says otherwise, player 0 is the first player.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

import catrules
from catrules.testing import card, cards, empty, play_until, put, put_line, refresh, zone

GAME_PATH = Path(__file__).resolve().parents[1] / "games" / "flapcat.cat"

MENU = "Place "          # the build menu asks "Place <card> in <whose> area"
NEW = "start a new cat"
ADD = "add it to a cat"
REBUILD = "rebuild a head or tail"
SECRET = "Choose a card to reveal (everyone reveals at once)"
COLOURS = ["orange", "white", "grey", "black"]
ADVANCED = ["longest_meow", "cat_hoarder", "epicalico", "purebred", "shoot_the_meown"]


# ============================================================== fixtures, helpers

@cache
def _load():
    return catrules.load_game(GAME_PATH)


@pytest.fixture(scope="module")
def game():
    return _load()


def head(game, colour, stars):
    return card(game, colour=colour, part="head", stars=stars)


def tail(game, colour, stars):
    return card(game, colour=colour, part="tail", stars=stars)


def middle(game, colour, stars, **attrs):
    """A middle piece; ``middle(g, c, 3)`` is the 3-star middle without an icon (not the SWAP)."""
    if stars == 3 and "icon" not in attrs:
        attrs["icon"] = None
    return card(game, colour=colour, part="middle", stars=stars, **attrs)


def toy1(game, colour):
    return card(game, colour=colour, part="middle", stars=1, features=("toy",))


def poop1(game, colour):
    return card(game, colour=colour, part="middle", stars=1, features=("poop",))


def drawer(game, colour):
    """The colour's DRAW middle (2 stars, a toy)."""
    return card(game, colour=colour, part="middle", icon="draw")


def donor(game, colour):
    """The colour's DONATE middle (4 stars)."""
    return card(game, colour=colour, part="middle", icon="donate")


def pug(game):
    return card(game, name="the Pug")


def labelled(game, label):
    """The one card with this label ("orange head 4", "the Pug")."""
    found = [i for i in range(game.card_count) if game.card(i)["label"] == label]
    assert len(found) == 1, (label, found)
    return found[0]


def rats(game):
    return cards(game, part="rat", icon=None)


def bones(game):
    return cards(game, part="fish_bone", icon=None)


def player(p) -> str:
    """How the log names player ``p`` (0-based here)."""
    return f"player {p + 1}"


def pid(p) -> str:
    """The option id of player ``p``."""
    return f"p{p + 1}"


def one(st):
    ds = st.pending()
    assert len(ds) == 1, ds
    return ds[0]


def do(st, option_id) -> None:
    """Apply an option of the one pending decision."""
    d = one(st)
    assert option_id in [o.id for o in d.options], (option_id, [o.id for o in d.options])
    st.apply(d.player, option_id, 0.5 if d.timed else None)


def do_card(st, c) -> None:
    do(st, f"c{c}")


def card_options(st) -> list:
    return [o.value for o in one(st).options]


def labels(st) -> list:
    return [o.label for o in one(st).options]


def ids(st) -> list:
    return [o.id for o in one(st).options]


def is_secret_step(st) -> bool:
    """A new construction step: the players choose a card in secret (a player holding a
    single card has no choice, so is not asked)."""
    ds = st.pending()
    return bool(ds) and all(d.kind == "secret" and d.prompt == SECRET for d in ds)


def tallies(st) -> list:
    return [e for e in st.log if e["t"] == "tally"]


def moves(st, since=0) -> list:
    return [e for e in st.log[since:] if e["t"] == "move"]


class Table:
    """A game paused at its first construction step, emptied, for laying out a situation.

    Every player's hand, cats, cards beside and covered cards go back to the draw pile; the
    cards a test lays out are checked to be all different (a card put twice would silently
    leave its first place).  ``reveal`` re-computes the pending decision and makes the players'
    secret choices.
    """

    def __init__(self, game, n=3, options=(), seed=1, first=0):
        self.game = game
        self.n = n
        st = self.st = game.new_state(n, seed=seed, log=True, options=list(options))
        play_until(st, lambda s: any(d.kind == "secret" for d in s.pending()))
        for p in range(n):
            for z in ("hand", "front", "cats", "beside", "covered"):
                empty(st, z, p, to="deck")
        empty(st, "discard", to="deck")
        st.c["first_player"] = first
        self.used: set = set()

    def _use(self, ids_) -> list:
        ids_ = list(ids_)
        for c in ids_:
            assert c not in self.used, f"card {c} laid out twice"
            self.used.add(c)
        return ids_

    def cat(self, p, *ids_) -> list:
        put_line(self.st, self._use(ids_), "cats", p)
        return list(ids_)

    def hand(self, p, *ids_) -> None:
        put(self.st, self._use(ids_), "hand", p)

    def beside(self, p, *ids_) -> None:
        put(self.st, self._use(ids_), "beside", p)

    def covered(self, p, *ids_) -> None:
        put(self.st, self._use(ids_), "covered", p)

    def deck_top(self, *ids_) -> None:
        """Put cards on top of the draw pile, the first given on top."""
        put(self.st, self._use(ids_)[::-1], "deck")

    def filler(self, p, quiet=False):
        """Cards for a player who only takes part; returns the one to reveal.

        Plain: three middles of the player's colour (orange, white, grey, black), the 5-star
        one revealed (it starts a new cat).  Quiet: a rat (revealed: it goes beside, the cats
        stay as they are) and a fish bone and a 1-star poop middle kept in hand."""
        g = self.game
        colour = COLOURS[p]
        if quiet:
            revealed, kept = rats(g)[p], [bones(g)[p], poop1(g, colour)]
        else:
            revealed, kept = middle(g, colour, 5), [middle(g, colour, 3), poop1(g, colour)]
        self.hand(p, revealed, *kept)
        return revealed

    def reveal(self, choices: dict, ask=(0,)) -> None:
        """Everyone reveals: ``choices`` maps players to the card they choose (a player with
        a single card has no choice to make).  Players not in ``ask`` who are asked where to
        build start a new cat."""
        st = self.st
        refresh(st)
        for p, c in choices.items():
            if p in [d.player for d in st.pending()]:
                st.apply(p, f"c{c}")
        while True:
            ds = st.pending()
            if len(ds) == 1 and ds[0].prompt.startswith(MENU) and ds[0].player not in ask:
                st.apply(ds[0].player, NEW)
            else:
                return

    def score(self, p) -> dict:
        return self.st.score_now()[p]


# ============================================================== F07 construction

def _building(game, piece):
    """Player 0 holds ``piece`` with three cats: A = middle-tail (no head), B = head-middle
    (no tail), C = a lone middle; the others reveal plain middles into empty areas."""
    t = Table(game)
    a = t.cat(0, middle(game, "orange", 5), tail(game, "orange", 3))
    b = t.cat(0, head(game, "grey", 4), middle(game, "black", 3))
    c = t.cat(0, middle(game, "black", 5))
    t.hand(0, piece, poop1(game, "orange"))
    f1, f2 = t.filler(1), t.filler(2)
    t.reveal({0: piece, 1: f1, 2: f2})
    return t, a, b, c


def test_F07_head_goes_only_at_the_start_of_a_cat_without_a_head(game):
    h = head(game, "white", 5)
    t, a, b, c = _building(game, h)
    st = t.st
    assert one(st).player == 0 and one(st).prompt.startswith(MENU)
    assert ids(st) == [NEW, ADD, REBUILD]            # B's head can be rebuilt
    do(st, ADD)
    # at the start of A and of C; never into B (it has a head), never after a piece
    assert labels(st) == ["cats 1: at the start, before orange middle 5",
                          "cats 3: at the start, before black middle 5"]
    do(st, ids(st)[0])
    assert zone(st, "cats", 0) == [[h] + a, b, c]


def test_F07_tail_goes_only_at_the_end_of_a_cat_without_a_tail(game):
    tl = tail(game, "white", 4)
    t, a, b, c = _building(game, tl)
    st = t.st
    assert ids(st) == [NEW, ADD, REBUILD]            # A's tail can be rebuilt
    do(st, ADD)
    assert labels(st) == ["cats 2: at the end, after black middle 3",
                          "cats 3: at the end, after black middle 5"]
    do(st, ids(st)[0])
    assert zone(st, "cats", 0) == [a, b + [tl], c]


def test_F07_middle_goes_between_any_two_pieces_or_at_an_open_end(game):
    m = middle(game, "orange", 3)
    t, a, b, c = _building(game, m)
    st = t.st
    assert ids(st) == [NEW, ADD]                     # a middle never rebuilds
    do(st, ADD)
    # not before a head, not after a tail; everywhere else, wedges included
    assert labels(st) == ["cats 1: at the start, before orange middle 5",
                          "cats 1: between orange middle 5 and orange tail 3",
                          "cats 2: between grey head 4 and black middle 3",
                          "cats 2: at the end, after black middle 3",
                          "cats 3: at the start, before black middle 5",
                          "cats 3: at the end, after black middle 5"]
    do(st, ids(st)[2])                               # wedge head and middle of B apart
    assert zone(st, "cats", 0) == [a, [b[0], m, b[1]], c]


def test_F07_middle_wedges_between_a_connected_head_and_tail(game):
    t = Table(game)
    h, tl = t.cat(0, head(game, "grey", 4), tail(game, "grey", 3))
    m = middle(game, "orange", 5)
    t.hand(0, m, poop1(game, "orange"))
    t.reveal({0: m, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    do(st, ADD)                                      # the only place: between (taken at once)
    assert zone(st, "cats", 0) == [[h, m, tl]]
    assert is_secret_step(st)
    # the cat scores min(4,5) + min(5,3) = 7 stars; before the wedge it was min(4,3) = 3
    assert t.score(0)["star_points"] == 7


@pytest.mark.parametrize("part", ["head", "tail"])
def test_F07_head_or_tail_cannot_go_into_a_cat_that_has_one(game, part):
    t = Table(game)
    c1 = t.cat(0, head(game, "grey", 4), toy1(game, "grey"), tail(game, "grey", 4))
    c2 = t.cat(0, head(game, "black", 5), tail(game, "black", 4))
    piece = head(game, "white", 5) if part == "head" else tail(game, "white", 3)
    t.hand(0, piece, poop1(game, "orange"))
    t.reveal({0: piece, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert ids(st) == [NEW, REBUILD]                 # no "add it to a cat"
    do(st, NEW)
    assert zone(st, "cats", 0) == [c1, c2, [piece]]


def test_F07_a_single_legal_choice_is_taken_at_once(game):
    # no cat yet: a middle can only start a new cat, nobody is asked
    t = Table(game)
    m = middle(game, "orange", 5)
    t.hand(0, m, poop1(game, "orange"))
    t.reveal({0: m, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert is_secret_step(st)
    assert [zone(st, "cats", p) for p in range(3)] == [[[m]], [[middle(game, "white", 5)]],
                                                       [[middle(game, "grey", 5)]]]


def test_F07_rebuild_head_takes_the_exact_place_and_the_old_head_is_covered(game):
    t = Table(game)
    old, m, tl = t.cat(0, head(game, "grey", 4), middle(game, "orange", 5), tail(game, "black", 3))
    other = t.cat(0, middle(game, "black", 5))
    new = head(game, "white", 5)
    t.hand(0, new, poop1(game, "orange"))
    t.reveal({0: new, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert t.score(0)["star_points"] == 7            # before: min(4,5) + min(5,3)
    do(st, REBUILD)                                  # the only head: covered at once
    assert zone(st, "cats", 0) == [[new, m, tl], other]
    assert zone(st, "covered", 0) == [old]
    assert zone(st, "front", 0) == []
    # the grey head 4 no longer counts: min(5,5) + min(5,3) = 8
    assert t.score(0)["star_points"] == 8


def test_F07_rebuild_tail_asks_which_tail_and_covers_it(game):
    t = Table(game)
    c1 = t.cat(0, head(game, "grey", 4), toy1(game, "grey"), tail(game, "grey", 4))
    c2 = t.cat(0, head(game, "black", 5), tail(game, "black", 1))
    new = tail(game, "white", 3)
    t.hand(0, new, poop1(game, "orange"))
    t.reveal({0: new, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    do(st, REBUILD)
    assert sorted(card_options(st)) == sorted([c1[2], c2[1]])   # the two tails, no head
    do_card(st, c2[1])
    assert zone(st, "cats", 0) == [c1, [c2[0], new]]
    assert zone(st, "covered", 0) == [c2[1]]
    # c1: min(4,1) + min(1,4) = 2 and a toy; c2: min(5,3) = 3 (the covered nubby tail 1 of
    # black no longer scores its star nor its feature)
    assert (t.score(0)["star_points"], t.score(0)["bonus_points"]) == (5, 1)


@pytest.mark.parametrize("kind", ["rat", "fish_bone"])
def test_F07_rats_and_fish_bones_go_beside_the_cats(game, kind):
    t = Table(game)
    c1 = t.cat(0, head(game, "grey", 4), tail(game, "grey", 4))
    neg = (rats if kind == "rat" else bones)(game)[0]
    t.hand(0, neg, poop1(game, "orange"))
    t.reveal({0: neg, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert is_secret_step(st)                        # nobody was asked where
    assert zone(st, "beside", 0) == [neg]
    assert zone(st, "cats", 0) == [c1]


def test_F07_cards_never_move_between_cats(game):
    # a head-middle cat and a middle-tail cat: a middle laid at the end of the first does not
    # join them into one finished cat
    t = Table(game)
    c1 = t.cat(0, head(game, "grey", 5), middle(game, "black", 3))
    c2 = t.cat(0, middle(game, "black", 5), tail(game, "black", 4))
    m = middle(game, "orange", 5)
    t.hand(0, m, poop1(game, "orange"))
    t.reveal({0: m, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    do(st, ADD)
    end_of_c1 = "cats 1: at the end, after black middle 3"
    assert labels(st) == ["cats 1: between grey head 5 and black middle 3", end_of_c1,
                          "cats 2: at the start, before black middle 5",
                          "cats 2: between black middle 5 and black tail 4"]
    do(st, ids(st)[labels(st).index(end_of_c1)])
    assert zone(st, "cats", 0) == [c1 + [m], c2]
    assert t.score(0)["star_points"] == 0            # neither cat has both ends


# ============================================================== F08 secondary actions

@pytest.mark.parametrize("first", [0, 2])
def test_F08_secondary_actions_after_all_placements_from_the_first_player_clockwise(game, first):
    t = Table(game, first=first)
    draws = {p: drawer(game, COLOURS[p]) for p in range(3)}
    for p in range(3):
        t.hand(p, draws[p], middle(game, COLOURS[p], 5))
    start = len(t.st.log)
    t.reveal(draws)
    st = t.st
    # when the first DRAW is asked, all three cards are already built
    assert [zone(st, "cats", p) for p in range(3)] == [[[draws[p]]] for p in range(3)]
    order = [(first + i) % 3 for i in range(3)]
    built = [(e["from"], e["to"]) for e in moves(st, start) if e["to"].startswith("cats")]
    assert built == [(f"front of {player(p)}", f"cats of {player(p)}") for p in order]
    drew = []
    while not is_secret_step(st):
        d = one(st)
        assert d.prompt.startswith("DRAW: keep one") and d.kind == "choose"
        drew.append(d.player)
        do(st, d.options[0].id)
    assert drew == order


def test_F08_only_players_who_just_placed_an_action_card_act(game):
    # first player 1; players 2 and 0 reveal DRAW, player 1 a plain middle: 2 draws, then 0
    t = Table(game, first=1)
    d0, d2 = drawer(game, "orange"), drawer(game, "grey")
    t.hand(0, d0, middle(game, "orange", 5))
    t.hand(2, d2, middle(game, "grey", 5))
    t.cat(1, drawer(game, "white"))                  # an old DRAW in the area does nothing
    m1 = middle(game, "white", 5)
    t.hand(1, m1, middle(game, "white", 3))
    t.reveal({0: d0, 1: m1, 2: d2})                  # player 1 starts a new cat
    st = t.st
    drew = []
    while not is_secret_step(st):
        drew.append(one(st).player)
        do(st, one(st).options[0].id)
    assert drew == [2, 0]


# ============================================================== F09 DRAW

@pytest.mark.parametrize("keep", [0, 2])
def test_F09_draw_keeps_one_of_the_top_three_and_puts_two_at_the_bottom(game, keep):
    t = Table(game)
    top = [head(game, "black", 5), tail(game, "white", 4), pug(game)]
    fourth = middle(game, "black", 5)
    t.deck_top(*top, fourth)
    d0, m0 = drawer(game, "orange"), middle(game, "orange", 5)
    t.hand(0, d0, m0)
    t.reveal({0: d0, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    size = len(zone(st, "deck"))
    d = one(st)
    assert (d.player, d.prompt[:5]) == (0, "DRAW:")
    assert sorted(card_options(st)) == sorted(top)
    do_card(st, top[keep])
    assert is_secret_step(st)
    assert sorted(zone(st, "hand", 0)) == sorted([m0, top[keep]])
    deck = zone(st, "deck")
    assert len(deck) == size - 1
    assert sorted(deck[:2]) == sorted(c for i, c in enumerate(top) if i != keep)   # the bottom
    assert deck[-1] == fourth                                                    # the new top


def test_F09_a_fish_bone_draw_goes_beside_and_its_owner_draws(game):
    t = Table(game)
    top = [head(game, "black", 5), tail(game, "white", 4), pug(game)]
    t.deck_top(*top)
    fb, m0 = card(game, part="fish_bone", icon="draw"), middle(game, "orange", 5)
    t.hand(0, fb, m0)
    t.reveal({0: fb, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert zone(st, "beside", 0) == [fb]
    assert one(st).player == 0 and sorted(card_options(st)) == sorted(top)
    do_card(st, top[1])
    assert sorted(zone(st, "hand", 0)) == sorted([m0, top[1]])


# ============================================================== F10 DONATE

def _gifts(game) -> dict:
    return {"middle": middle(game, "orange", 5), "head": head(game, "orange", 5),
            "tail": tail(game, "orange", 4), "rat": rats(game)[0], "bone": bones(game)[0]}


@pytest.mark.parametrize("opponent_cats, offered", [
    ([("head", 4), ("tail", 3)], ["middle", "head", "tail", "rat", "bone"]),
    ([("head", 4), ("middle", 1)], ["middle", "head", "rat", "bone"]),   # a tail cannot be added
    ([("middle", 1), ("tail", 3)], ["middle", "tail", "rat", "bone"]),   # a head cannot be added
    ([("middle", 1)], ["middle", "rat", "bone"]),
    ([], ["rat", "bone"]),
])
def test_F10_only_cards_with_a_legal_place_in_an_opponents_area_are_offered(game, opponent_cats, offered):
    t = Table(game)
    piece = {"head": lambda s: head(game, "white", s), "tail": lambda s: tail(game, "white", s),
             "middle": lambda s: toy1(game, "white")}
    if opponent_cats:
        t.cat(1, *[piece[part](s) for part, s in opponent_cats])
    # the donor's own cats (a finished one, and the DONATE card it starts) never count
    t.cat(0, head(game, "black", 4), tail(game, "black", 3))
    gifts = _gifts(game)
    don = donor(game, "orange")
    t.hand(0, don, *gifts.values())
    t.reveal({0: don, 1: t.filler(1, quiet=True), 2: t.filler(2, quiet=True)}, ask=())
    st = t.st
    d = one(st)
    assert (d.player, d.prompt) == (0, "DONATE: give a card to another player's area")
    names = {c: k for k, c in gifts.items()}
    assert sorted(names[c] for c in card_options(st)) == sorted(offered)


def test_F10_a_middle_goes_only_into_an_opponents_cat_a_rat_beside_any_opponent(game):
    t = Table(game)
    c1 = t.cat(1, head(game, "white", 4), toy1(game, "white"), tail(game, "white", 3))
    don, m, r = donor(game, "orange"), middle(game, "orange", 5), rats(game)[0]
    t.hand(0, don, m, r, bones(game)[0])
    t.reveal({0: don, 1: t.filler(1, quiet=True), 2: t.filler(2, quiet=True)})
    st = t.st
    assert zone(st, "cats", 0) == [[don]]
    rat_first = st.clone()
    start = len(st.log)
    do_card(st, m)
    # only player 1 has a cat: no choice of player; no "start a new cat" for a donor; only
    # between the pieces (never before the head or after the tail)
    d = one(st)
    assert (d.player, d.prompt[:9]) == (0, "Where doe")   # adds(...): places in a cat
    assert d.options[0].kind == "place"
    assert labels(st) == ["cats 1: between white head 4 and white middle 1 toy",
                          "cats 1: between white middle 1 toy and white tail 3"]
    do(st, ids(st)[1])
    assert zone(st, "cats", 1) == [[c1[0], c1[1], m, c1[2]]]
    assert [(e["cards"], e["from"], e["to"]) for e in moves(st, start)] == [
        ([m], f"hand of {player(0)}", f"cats of {player(1)}")]
    assert is_secret_step(st)
    # a rat may go beside either opponent, never the donor
    do_card(rat_first, r)
    assert (one(rat_first).prompt[:4], ids(rat_first)) == ("Give", [pid(1), pid(2)])
    assert one(rat_first).prompt.endswith("to whom?")
    do(rat_first, pid(2))
    assert zone(rat_first, "beside", 2) == [rats(game)[2], r]
    assert zone(rat_first, "cats", 2) == []


def test_F10_a_donated_head_is_laid_over_an_opponents_head(game):
    t = Table(game)
    old, tl = t.cat(1, head(game, "white", 4), tail(game, "white", 3))
    don, gift = donor(game, "orange"), head(game, "orange", 2)          # hat and toy
    t.hand(0, don, gift, middle(game, "orange", 5))
    t.reveal({0: don, 1: t.filler(1, quiet=True), 2: t.filler(2, quiet=True)})
    st = t.st
    assert t.score(1)["star_points"] == 3                                # min(4,3)
    do_card(st, gift)                # one receiver, one way (a rebuild), one head: no questions
    assert is_secret_step(st)
    assert zone(st, "cats", 1) == [[gift, tl]]
    assert zone(st, "covered", 1) == [old]
    assert sorted(zone(st, "hand", 0)) == [middle(game, "orange", 5)]
    # min(2,3) = 2 stars, hat and toy 2 bonus, the quiet rat -1
    assert [t.score(1)[k] for k in ("star_points", "bonus_points", "total")] == [2, 2, 3]


def test_F10_with_no_legal_gift_nothing_is_donated(game):
    # nobody else has a cat and the donor holds no rat or fish bone
    t = Table(game)
    don, m, h = donor(game, "orange"), middle(game, "orange", 5), head(game, "orange", 5)
    t.hand(0, don, m, h)
    start = len(t.st.log)
    t.reveal({0: don, 1: t.filler(1, quiet=True), 2: t.filler(2, quiet=True)})
    st = t.st
    assert is_secret_step(st)
    assert sorted(zone(st, "hand", 0)) == sorted([m, h])
    assert [(e["from"], e["to"]) for e in moves(st, start) if e["from"] == f"hand of {player(0)}"] == [
        (f"hand of {player(0)}", f"front of {player(0)}")]


# ============================================================== F11 chains

def test_F11_a_donate_chain_runs_across_the_players_until_it_ends(game):
    t = Table(game)
    t.cat(1, head(game, "white", 4), tail(game, "white", 3))
    t.cat(2, head(game, "grey", 4), tail(game, "grey", 3))
    d_orange, d_white, d_grey = donor(game, "orange"), donor(game, "white"), donor(game, "grey")
    rat_donate = card(game, part="rat", icon="donate")
    m5, m3 = middle(game, "orange", 5), middle(game, "orange", 3)
    t.hand(0, d_orange, d_white, m5, m3, poop1(game, "orange"))
    t.hand(1, rats(game)[1], d_grey, bones(game)[1], poop1(game, "white"))
    t.hand(2, rats(game)[2], rat_donate, toy1(game, "grey"), poop1(game, "grey"))
    t.reveal({0: d_orange, 1: rats(game)[1], 2: rats(game)[2]})
    st = t.st
    start = len(st.log)
    # link 1: player 0 (the revealed DONATE) gives the white DONATE to player 1's cat
    do_card(st, d_white)
    do(st, pid(1))                                   # one place: between head and tail
    # link 2: player 1 must donate at once: the grey DONATE into player 2's cat
    assert one(st).player == 1
    do_card(st, d_grey)
    do(st, pid(2))
    # link 3: player 2 must donate at once: the DONATE rat beside player 0
    assert one(st).player == 2
    do_card(st, rat_donate)
    do(st, pid(0))
    # link 4: player 0 must donate at once: a plain middle, which ends the chain
    assert one(st).player == 0
    do_card(st, m5)
    do(st, pid(2))
    do(st, ids(st)[0])
    gifts = [e for e in moves(st, start) if not e["to"].startswith("front")]   # (the next step's
    assert [(e["cards"], e["from"], e["to"]) for e in gifts] == [                # reveal left out)
        ([d_white], f"hand of {player(0)}", f"cats of {player(1)}"),
        ([d_grey], f"hand of {player(1)}", f"cats of {player(2)}"),
        ([rat_donate], f"hand of {player(2)}", f"beside of {player(0)}"),
        ([m5], f"hand of {player(0)}", f"cats of {player(2)}"),
    ]
    assert is_secret_step(st)
    assert [sorted(zone(st, "hand", p)) for p in range(3)] == [
        sorted([m3, poop1(game, "orange")]), sorted([bones(game)[1], poop1(game, "white")]),
        sorted([toy1(game, "grey"), poop1(game, "grey")])]


@pytest.mark.parametrize("kind", ["middle", "fish_bone"])
def test_F11_a_donated_draw_card_makes_its_receiver_draw_at_once(game, kind):
    # player 0 donates, player 1 revealed a DRAW of their own: player 2, who receives a DRAW
    # card, draws at once, before player 1
    t = Table(game)
    t.cat(2, head(game, "grey", 4), tail(game, "grey", 3))
    top = [head(game, "black", 5), tail(game, "black", 4), middle(game, "black", 5),
           pug(game), head(game, "white", 5), tail(game, "orange", 3)]
    t.deck_top(*top)
    don = donor(game, "orange")
    gift = drawer(game, "grey") if kind == "middle" else card(game, part="fish_bone", icon="draw")
    t.hand(0, don, gift, middle(game, "orange", 5))
    d1 = drawer(game, "white")
    t.hand(1, d1, middle(game, "white", 5), middle(game, "white", 3))
    t.hand(2, rats(game)[2], bones(game)[2], poop1(game, "grey"))
    t.reveal({0: don, 1: d1, 2: rats(game)[2]})
    st = t.st
    do_card(st, gift)
    do(st, pid(2))                                   # player 1's cat could take it too
    d = one(st)
    assert (d.player, d.prompt[:5]) == (2, "DRAW:")
    assert sorted(card_options(st)) == sorted(top[:3])
    do_card(st, top[0])
    d = one(st)                                      # now player 1's own DRAW
    assert (d.player, d.prompt[:5]) == (1, "DRAW:")
    assert sorted(card_options(st)) == sorted(top[3:])
    do_card(st, top[3])
    assert is_secret_step(st)
    assert top[0] in zone(st, "hand", 2) and top[3] in zone(st, "hand", 1)
    if kind == "middle":
        assert zone(st, "cats", 2) == [[head(game, "grey", 4), gift, tail(game, "grey", 3)]]
    else:
        assert zone(st, "beside", 2) == [rats(game)[2], gift]


# ============================================================== F12 end of a round

def _last_card(game, hand0, p1_cat=False):
    """Player 0 holds ``hand0`` (reveals its first card); the others hold three cards."""
    t = Table(game)
    if p1_cat:
        t.cat(1, head(game, "white", 4), tail(game, "white", 3))
    t.hand(0, *hand0)
    t.reveal({0: hand0[0], 1: t.filler(1), 2: t.filler(2)})
    return t


def test_F12_the_round_ends_when_a_player_has_no_card_left(game):
    t = _last_card(game, [middle(game, "orange", 5)])
    st = t.st
    assert [e["number"] for e in tallies(st)] == [1]
    d = st.pending()[0]
    assert d.kind == "race" and d.prompt.startswith("Slap!")   # round 2's slap


def test_F12_a_draw_on_the_last_card_keeps_the_player_in(game):
    t = Table(game)
    kept = head(game, "black", 5)
    t.deck_top(kept, tail(game, "black", 4), pug(game))
    d0 = drawer(game, "orange")
    t.hand(0, d0)
    t.reveal({0: d0, 1: t.filler(1), 2: t.filler(2)})
    st = t.st
    assert one(st).player == 0
    do_card(st, kept)
    assert tallies(st) == []
    assert is_secret_step(st) and sorted(d.player for d in st.pending()) == [1, 2]
    assert zone(st, "hand", 0) == [kept]             # to reveal (its only card: no question)


def test_F12_a_donate_on_the_last_card_donates_nothing(game):
    don = donor(game, "orange")
    t = _last_card(game, [don], p1_cat=True)
    st = t.st
    assert [e["number"] for e in tallies(st)] == [1]
    # the round ended on player 1's finished cat as it was: min(4,3) = 3; the new cat of
    # plain white middle 5 scores nothing
    assert tallies(st)[0]["scores"][1]["star_points"] == 3
    assert [e for e in moves(st) if e["from"] == f"hand of {player(0)}"
            and e["to"] != f"front of {player(0)}"] == []


def test_F12_a_donate_on_the_next_to_last_card_gives_the_last_card_and_ends_the_round(game):
    don, last = donor(game, "orange"), middle(game, "orange", 5)
    t = _last_card(game, [don, last], p1_cat=True)
    st = t.st
    assert tallies(st) == []
    do(st, pid(1))                                   # (player 2's new cat could take it too)
    do(st, ids(st)[labels(st).index("cats 1: between white head 4 and white tail 3")])
    assert [e["number"] for e in tallies(st)] == [1]
    assert [e for e in moves(st) if e["cards"] == [last]][-1]["to"] == f"cats of {player(1)}"
    # player 1: head 4 - middle 5 - tail 3 scores min(4,5) + min(5,3) = 7
    assert tallies(st)[0]["scores"][1]["star_points"] == 7
    assert st.pending()[0].kind == "race"


# ============================================================== F13 negatives left in hand

def test_F13_rats_and_fish_bones_left_in_hand_go_beside_at_round_end(game):
    t = Table(game)
    r, b, m1, keep = rats(game)[1], bones(game)[1], middle(game, "white", 5), middle(game, "white", 3)
    t.hand(0, middle(game, "orange", 5))             # player 0's last card: the round ends
    t.hand(1, m1, r, b, keep)
    t.beside(1, rats(game)[2])
    start = len(t.st.log)
    t.reveal({0: middle(game, "orange", 5), 1: m1, 2: t.filler(2)})
    st = t.st
    to_beside = [e for e in moves(st, start) if e["to"].startswith("beside")]
    assert len(to_beside) == 1
    assert (sorted(to_beside[0]["cards"]), to_beside[0]["from"], to_beside[0]["to"]) == (
        sorted([r, b]), f"hand of {player(1)}", f"beside of {player(1)}")
    # the plain middle left in hand is not a negative card: it stays out of it
    scores = tallies(st)[0]["scores"][1]
    assert (scores["negative_points"], scores["total"]) == (-3, -3)   # 2 from hand, 1 beside


# ============================================================== F14 scoring a cat

def features_bonus(game, ids_) -> int:
    """1 per feature printed on the cards, 2 for the Pug, from the card data."""
    return sum(len(game.card(c)["features"]) + (1 if "pug" in game.card(c)["features"] else 0)
               for c in ids_)


def test_F14_rulebook_example_scores_5(game):
    t = Table(game)
    cat = t.cat(0, head(game, "grey", 3), middle(game, "orange", 3), tail(game, "black", 2))
    s = t.score(0)
    assert s["star_points"] == 5                     # min(3,3) + min(3,2)
    assert features_bonus(game, cat) == 2            # the grey head's hat, the black tail's poop
    assert s["bonus_points"] == 2
    assert s["total"] == 7


def test_F14_second_rulebook_example_nets_4(game):
    # white head 5 - white middle 2 (toy) - white tail 1 (nubby tail), a rat beside
    t = Table(game)
    cat = t.cat(0, head(game, "white", 5), drawer(game, "white"), tail(game, "white", 1))
    t.beside(0, rats(game)[0])
    s = t.score(0)
    assert features_bonus(game, cat) == 2
    assert [s[k] for k in ("star_points", "bonus_points", "negative_points", "total")] == [3, 2, -1, 4]


@pytest.mark.parametrize("missing", ["tail", "head", "both"])
def test_F14_a_cat_without_head_or_tail_scores_nothing(game, missing):
    h, m, tl = head(game, "grey", 2), toy1(game, "orange"), tail(game, "black", 1)   # 4 features
    line = {"tail": [h, m], "head": [m, tl], "both": [m]}[missing]
    t = Table(game)
    t.cat(0, *line)
    t.cat(0, head(game, "white", 4), tail(game, "white", 3))    # a finished cat beside it: 3
    s = t.score(0)
    assert (s["star_points"], s["bonus_points"], s["total"]) == (3, 0, 3)


def test_F14_the_pug_is_worth_2_bonus_points(game):
    t = Table(game)
    t.cat(0, head(game, "white", 4), pug(game), tail(game, "white", 4))
    s = t.score(0)
    assert (s["star_points"], s["bonus_points"], s["total"]) == (6, 2, 8)   # min(4,3) + min(3,4)


def test_F14_a_covered_card_does_not_count(game):
    t = Table(game)
    t.cat(0, head(game, "white", 4), middle(game, "orange", 5), tail(game, "white", 3))
    t.covered(0, head(game, "grey", 2), tail(game, "grey", 1))   # hat, toy, nubby tail
    s = t.score(0)
    assert (s["star_points"], s["bonus_points"], s["total"]) == (7, 0, 7)  # min(4,5) + min(5,3)


def test_F14_the_cats_of_an_area_add_up(game):
    t = Table(game)
    t.cat(0, head(game, "grey", 3), middle(game, "orange", 3), tail(game, "black", 2))    # 5 + 2
    t.cat(0, head(game, "white", 5), drawer(game, "white"), tail(game, "white", 1))      # 3 + 2
    t.cat(0, head(game, "orange", 2), middle(game, "orange", 5))                          # 0
    s = t.score(0)
    assert (s["star_points"], s["bonus_points"], s["total"]) == (8, 4, 12)


# ============================================================== F15 negatives

@pytest.mark.parametrize("n_rats, n_bones", [(1, 0), (2, 3), (6, 6)])
def test_F15_each_rat_or_fish_bone_beside_is_minus_1(game, n_rats, n_bones):
    t = Table(game)
    t.cat(0, head(game, "white", 4), tail(game, "white", 3))                              # 3
    t.beside(0, *cards(game, part="rat")[:n_rats], *cards(game, part="fish_bone")[:n_bones])
    s = t.score(0)
    assert (s["negative_points"], s["total"]) == (-(n_rats + n_bones), 3 - n_rats - n_bones)


# ============================================================== F16 rounds, winner

BASIC = ["star_points", "bonus_points", "negative_points"]
COUNTED = ["star_points", "bonus_points", "negative_points", "longest_meow_points",
           "cat_hoarder_points", "epicalico_points", "purebred_points", "shoot_the_meown_points"]


@pytest.mark.parametrize("n, seed, options", [(3, 1, []), (4, 7, ["advanced"])])
def test_F16_three_rounds_are_tallied_and_add_up(game, n, seed, options):
    st = game.new_state(n, seed=seed, log=True, options=options)
    play_until(st)
    assert st.finished
    tl = tallies(st)
    assert [e["number"] for e in tl] == [1, 2, 3]
    final = st.scores()
    for p in range(n):
        for e in tl:
            # an advanced item exists only in games played with it (F18)
            assert all((k in e["scores"][p]) == (bool(options) or k in BASIC) for k in COUNTED)
            assert e["scores"][p]["total"] == sum(e["scores"][p].get(k, 0) for k in COUNTED)
        for k in COUNTED + ["total"]:
            assert final[p].get(k, 0) == sum(e["scores"][p].get(k, 0) for e in tl), (p, k)
        # the tie-break count is the final round's, not a sum
        assert final[p]["one_colour_pieces"] == tl[2]["scores"][p]["one_colour_pieces"]
    assert final == tl[2]["totals"]


def test_F16_one_colour_pieces_counts_the_most_cards_of_one_colour_in_the_cats(game):
    t = Table(game)
    t.cat(0, head(game, "orange", 4), pug(game), middle(game, "orange", 5), tail(game, "white", 3))
    t.cat(0, toy1(game, "orange"))                    # unfinished cats count too
    t.cat(0, middle(game, "white", 5))
    t.beside(0, rats(game)[0], rats(game)[1], rats(game)[2], rats(game)[3])  # not coloured
    assert t.score(0)["one_colour_pieces"] == 3       # orange 3, white 2, the Pug none


@pytest.mark.parametrize("totals, pieces, race, winners", [
    ([10, 12, 9], [9, 1, 1], None, [1]),              # the total first
    ([10, 10, 9], [3, 5, 7], None, [1]),              # tied: the most of one colour
    ([10, 10, 9], [4, 4, 7], [2, 1, 0], [1]),         # still tied: the fastest of the tied
    ([8, 8, 8], [4, 4, 4], [2, 0, 1], [2]),
])
def test_F16_ties_are_broken_by_one_colour_pieces_then_by_the_race(game, totals, pieces, race, winners):
    st = Table(game).st
    rows = st.score_now()
    for p in range(3):
        rows[p]["total"], rows[p]["one_colour_pieces"] = totals[p], pieces[p]
    if race is not None:
        st.c["#tiebreak"] = race
    assert st.winners(rows) == winners


def _final_round(game, seed=1):
    """A 3-player game at the first step of its final round, emptied, with the totals of the
    first two rounds set to 0 (so that the last round alone decides)."""
    st = game.new_state(3, seed=seed, log=True)
    play_until(st, lambda s: s.c.get("#tallies") == 2 and is_secret_step(s))
    for p in range(3):
        for z in ("hand", "front", "cats", "beside", "covered"):
            empty(st, z, p, to="deck")
    empty(st, "discard", to="deck")
    st.c["#tally"] = [{k: 0 for k in row} for row in st.c["#tally"]]
    return st


@pytest.mark.parametrize("times, winner", [((0.7, 0.3), 2), ((0.4, 0.9), 0)])
def test_F16_a_tie_after_the_last_round_is_raced_and_the_fastest_wins(game, times, winner):
    st = _final_round(game)
    # one card each, so the last round ends after this step: players 0 and 2 build a lone
    # middle (0 points, 1 piece of one colour), player 1 a rat (-1)
    put(st, middle(game, "orange", 5), "hand", 0)
    put(st, rats(game)[1], "hand", 1)
    put(st, middle(game, "white", 5), "hand", 2)
    refresh(st)
    d = st.pending()
    assert [x.player for x in d] == [0, 2] and all(x.kind == "race" and x.timed for x in d)
    assert [e["number"] for e in tallies(st)] == [1, 2, 3]
    st.apply(0, d[0].options[0].id, times[0])
    st.apply(2, d[1].options[0].id, times[1])
    assert st.finished
    assert [r["total"] for r in st.scores()] == [0, -1, 0]
    assert st.c["#tiebreak"] == ([2, 0] if winner == 2 else [0, 2])
    assert st.winners() == [winner]


def test_F16_equal_totals_without_a_race_when_one_colour_pieces_differ(game):
    st = _final_round(game)
    put_line(st, [toy1(game, "orange")], "cats", 0)   # a second orange piece for player 0
    put(st, middle(game, "orange", 5), "hand", 0)
    put(st, rats(game)[1], "hand", 1)
    put(st, middle(game, "white", 5), "hand", 2)
    refresh(st)
    do(st, NEW)                                       # player 0 is asked where to build
    assert st.finished
    assert [(r["total"], r["one_colour_pieces"]) for r in st.scores()] == [(0, 2), (-1, 0), (0, 1)]
    assert not st.c.get("#tiebreak")                  # nobody raced
    assert st.winners() == [0]


# ============================================================== F18 advanced scoring

def _layout(game, t, cats_by_player):
    for p, lines in cats_by_player.items():
        for line in lines:
            t.cat(p, *line)


def _award(game, options, cats_by_player, item):
    t = Table(game, options=options)
    _layout(game, t, cats_by_player)
    rows = t.st.score_now()
    on = item.removesuffix("_points") in options or "advanced" in options
    assert all((item in row) == on for row in rows)      # F18: the item exists only with its option
    return [row.get(item, 0) for row in rows]


def _long_cats(game, tied):
    """Player 0: a finished cat of 4; player 1: a finished cat of 4 (tied) or of 2, and an
    unfinished cat of 5; player 2: nothing."""
    p1 = ([[head(game, "white", 4), middle(game, "white", 5), middle(game, "white", 3), tail(game, "white", 4)]]
          if tied else [[head(game, "white", 4), tail(game, "white", 4)]])
    p1.append([head(game, "grey", 4), middle(game, "grey", 5), middle(game, "grey", 3),
               toy1(game, "grey"), poop1(game, "grey")])
    return {0: [[head(game, "orange", 4), middle(game, "orange", 5), middle(game, "orange", 3),
                 tail(game, "black", 4)]], 1: p1}


@pytest.mark.parametrize("options, tied, award", [
    (["longest_meow"], False, [4, 0, 0]),
    (["longest_meow"], True, [2, 2, 0]),
    (["cat_hoarder", "epicalico", "purebred", "shoot_the_meown"], False, [0, 0, 0]),
])
def test_F18_longest_meow(game, options, tied, award):
    assert _award(game, options, _long_cats(game, tied), "longest_meow_points") == award


def _many_cats(game, tied):
    """Player 0: two finished cats; player 1: one (two if tied) and two unfinished ones;
    player 2: an unfinished cat."""
    p1 = [[head(game, "white", 4), tail(game, "white", 4)],
          [head(game, "white", 5)], [middle(game, "white", 5), middle(game, "white", 3)]]
    if tied:
        p1.append([head(game, "white", 2), tail(game, "white", 3)])
    return {0: [[head(game, "orange", 4), tail(game, "orange", 4)],
                [head(game, "orange", 5), middle(game, "orange", 5), tail(game, "orange", 3)]],
            1: p1, 2: [[head(game, "grey", 4), middle(game, "grey", 5)]]}


@pytest.mark.parametrize("options, tied, award", [
    (["cat_hoarder"], False, [4, 0, 0]),
    (["cat_hoarder"], True, [2, 2, 0]),
    (["longest_meow", "epicalico", "purebred", "shoot_the_meown"], True, [0, 0, 0]),
])
def test_F18_cat_hoarder(game, options, tied, award):
    assert _award(game, options, _many_cats(game, tied), "cat_hoarder_points") == award


@pytest.mark.parametrize("options, line, award", [
    (["epicalico"], ["orange head 4", "white middle 5", "grey middle 5", "black tail 4"], 6),
    (["epicalico"], ["orange head 4", "white middle 5", "grey middle 5", "black middle 5"], 0),  # no tail
    (["epicalico"], ["orange head 4", "white middle 5", "grey middle 5", "orange tail 4"], 0),  # 3 colours
    ([], ["orange head 4", "white middle 5", "grey middle 5", "black tail 4"], 0),
])
def test_F18_epicalico(game, options, line, award):
    ids_ = [labelled(game, lbl) for lbl in line]
    other = [head(game, "black", 5), middle(game, "orange", 5), middle(game, "white", 3),
             middle(game, "grey", 3), tail(game, "white", 4)]     # player 1: 4 colours too
    assert _award(game, options, {0: [ids_], 1: [other]}, "epicalico_points") == [award, 6 if options else 0, 0]


@pytest.mark.parametrize("options, line, award", [
    (["purebred"], ["orange head 4", "orange middle 5", "orange middle 3", "orange tail 4"], 6),
    (["purebred"], ["orange head 4", "orange middle 5", "orange tail 4"], 0),             # 3 cards
    (["purebred"], ["orange head 4", "orange middle 5", "the Pug", "orange middle 3", "orange tail 4"], 0),
    (["purebred"], ["orange head 4", "orange middle 5", "orange middle 3", "orange middle 1 toy"], 0),
    ([], ["orange head 4", "orange middle 5", "orange middle 3", "orange tail 4"], 0),
])
def test_F18_purebred(game, options, line, award):
    ids_ = [labelled(game, lbl) for lbl in line]
    assert _award(game, options, {0: [ids_]}, "purebred_points") == [award, 0, 0]


@pytest.mark.parametrize("options, cat, negatives, award", [
    (["shoot_the_meown"], False, 2, 13),
    (["shoot_the_meown"], False, 0, 0),               # an empty area: no negative card
    (["shoot_the_meown"], True, 2, 0),                # an unfinished cat spoils it
    ([], False, 2, 0),
])
def test_F18_shoot_the_meown(game, options, cat, negatives, award):
    t = Table(game, options=options)
    if cat:
        t.cat(0, middle(game, "orange", 5))
    t.beside(0, *rats(game)[:negatives])
    s = t.score(0)
    assert ("shoot_the_meown_points" in s) == bool(options)      # only in games with it
    assert (s.get("shoot_the_meown_points", 0), s["total"]) == (award, award - negatives)


@pytest.mark.parametrize("options", [["advanced"], ADVANCED, []])
def test_F18_advanced_turns_on_all_five(game, options):
    t = Table(game, options=options)
    # player 0: a purebred cat of 4 and a calico cat of 4; player 1: one cat of 2;
    # player 2: only rats
    t.cat(0, head(game, "orange", 4), middle(game, "orange", 5), middle(game, "orange", 3), tail(game, "orange", 4))
    t.cat(0, head(game, "white", 4), middle(game, "grey", 5), middle(game, "black", 5), tail(game, "orange", 3))
    t.cat(1, head(game, "white", 5), tail(game, "white", 4))
    t.beside(2, rats(game)[0], rats(game)[1])
    on = bool(options)
    items = ["longest_meow_points", "cat_hoarder_points", "epicalico_points", "purebred_points",
             "shoot_the_meown_points"]
    rows = t.st.score_now()
    assert all((k in row) == on for row in rows for k in items)      # only in games with them
    assert [rows[0].get(k, 0) for k in items] == ([4, 4, 6, 6, 0] if on else [0] * 5)
    assert [rows[1].get(k, 0) for k in items] == [0] * 5
    assert [rows[2].get(k, 0) for k in items] == ([0, 0, 0, 0, 13] if on else [0] * 5)
