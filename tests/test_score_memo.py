"""The score memo: remembered scores and allotments are those worked out afresh, on many states of
every seed game and test game, and a change to what the score reads is never missed."""

from __future__ import annotations

import glob
import random
from pathlib import Path

import pytest

import catrules
from catrules.allot import search
from catrules.runtime import scoring
from catrules.runtime.reads import NoKey, reads_of, value_key

ROOT = Path(__file__).resolve().parent.parent
GAMES = [ROOT / "games" / f"{g}.cat" for g in ("meow", "catlady", "flapcat")] + \
    sorted(Path(p) for p in glob.glob(str(ROOT / "tests" / "games" / "*.cat")))


def _prog(game):
    return getattr(game, "prog", None) or game.program


def _fresh_rows(st):
    """The rows item by item, as the game file says (what the state falls back to), no memo."""
    out = []
    for pl in range(st.n):
        V = {"player": pl}
        row, total = {}, 0
        for name, counted, fn in st.prog.items_for(st.options):
            v = row[name] = fn(st, V)
            if counted:
                total += v if isinstance(v, (int, float)) else 0
        row["total"] = total
        out.append(row)
    return out


def _states(path, games=3, every=3):
    """States along random games of ``path`` (2 and the most players), every ``every`` decisions."""
    g = catrules.load_game(str(path))
    prog = _prog(g)
    for n in sorted({prog.min_players, min(prog.max_players, 4)}):
        for seed in range(1, games + 1):
            try:
                st = g.new_state(n, seed=seed)
            except catrules.CatrulesError:
                continue
            rng = random.Random(seed)
            for step in range(400):
                if st.over or not st.pending():
                    break
                if step % every == 0:
                    yield st
                d = st.pending()[0]
                try:
                    st.apply(d.player, rng.choice(d.options).id, 0.5 if d.timed else None)
                except catrules.CatrulesError:
                    break
            yield st


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_memoised_scores_are_fresh_scores(path):
    """Scored twice (the second from the memo) and without the memo: the same rows, every time."""
    seen = made = 0
    for st in _states(path):
        made += 1
        if not _prog(st).score_items:
            continue
        try:
            fresh = _fresh_rows(st)
        except Exception:           # noqa: BLE001 - a state whose score fails: item by item, not memoised
            continue
        first = st.score_now()
        again = st.clone().score_now()
        assert first == fresh == again
        assert [type(v) for r in again for v in r.values()] == [type(v) for r in fresh for v in r.values()]
        seen += 1
    assert seen > 0 or made == 0        # a game that cannot start (runaway.cat) has no states


def test_the_seed_games_scores_are_memoised():
    """The three seed games' score blocks can be keyed (else the memo would do nothing)."""
    for g in ("meow", "catlady", "flapcat"):
        prog = _prog(catrules.load_game(str(ROOT / "games" / f"{g}.cat")))
        rows = prog.scorer(())[0]
        assert getattr(rows, "reads", None) is not None, g


def _catlady_over(seed=3):
    g = catrules.load_game(str(ROOT / "games" / "catlady.cat"))
    st = g.new_state(3, seed=seed)
    rng = random.Random(seed)
    while not st.over:
        d = st.pending()[0]
        st.apply(d.player, rng.choice(d.options).id)
    return st


def test_a_changed_counter_of_cards_is_not_missed():
    """The score reads each cat's meal (a counter of each card): changing one changes the score."""
    st = _catlady_over()
    before = st.score_now()
    fed = next(c for pl in range(st.n) for c in st.z[st.layout.base[_zone(st, "cats")] + pl]
               if st.c["meal"][c] is not None)
    st.c["meal"] = list(st.c["meal"])
    st.c["meal"][fed] = None                        # that cat goes hungry: fewer points
    after = st.score_now()
    assert after != before
    assert after == _fresh_rows(st)


def test_a_moved_card_is_not_missed():
    """A card moved between zones the score reads: the memo does not answer with the old rows."""
    st = _catlady_over()
    before = st.score_now()
    kept = st.layout.base[_zone(st, "kept")]
    owner = next(pl for pl in range(st.n) if st.z[kept + pl])
    st.z[kept + owner] = st.z[kept + owner][1:]     # one card of theirs is gone
    after = st.score_now()
    assert after == _fresh_rows(st)
    assert [r["total"] for r in after] != [r["total"] for r in before] or after == before


def _zone(st, name):
    return st.prog.zone_by_name[name].index


def test_allotments_from_the_memo_are_fresh_ones(monkeypatch):
    """Every allotment of Cat Lady's feeding, remembered or not, gives the same games."""
    def finals(memo: bool):
        if not memo:
            monkeypatch.setattr(search, "memo_key", lambda st, V, job: None)
        out = []
        for seed in range(1, 6):
            st = _catlady_over(seed)
            out.append((st.score_now(), list(st.c["meal"]), [list(z) for z in st.z]))
        monkeypatch.undo()
        return out
    with_memo = finals(True)
    assert finals(True) == with_memo            # the second time from the memo
    assert finals(False) == with_memo


def test_what_cannot_be_told_is_not_keyed():
    """Code that hands the state on whole, reads another field or a reference from a text: no key."""
    ns = {"_say": lambda *a: None, "_L": lambda st, v: v}
    assert reads_of(["_say(st, ('x',))"], ns) is None
    assert reads_of(["len(st.loc)"], ns) is None
    assert reads_of(["len(st.z)"], ns) is None
    assert reads_of(["len(_L(st, 'line:3:0'))"], ns) is None
    assert reads_of(["len(st.z[st.layout.base[2] + V['player']])"], ns, frozenset({"player"})).every == {2}
    with pytest.raises(NoKey):
        value_key(["line:3:1"])
    assert value_key(True) != value_key(1)
    assert scoring.MEMO_SIZE > 0


def test_a_definition_given_the_player_reads_that_players_zones_only():
    """``f(player)`` reading ``Z of p``: one player's zone in the key; ``f(it)``: every player's."""
    src = "def _d_f(st, _p_p):\n    return len(st.z[st.layout.base[2] + _p_p])\n"
    ns = {}
    exec(src, ns)
    ns["_d_f"].source = src
    mine = reads_of(["_d_f(st, V['player'])"], ns)
    assert mine.own == {(2, "player")} and not mine.every
    anyone = reads_of(["max([_d_f(st, _i0) for _i0 in st.layout.players])"], ns)
    assert anyone.every == {2} and not anyone.own


def test_the_seed_games_remember_items_per_player():
    """Items that read only the scored player's cards are remembered per player (the others'
    values are found again when a bot's option changes one player's cards)."""
    for g, some in (("catlady", "toys"), ("flapcat", "star_points"), ("meow", "food")):
        prog = _prog(catrules.load_game(str(ROOT / "games" / f"{g}.cat")))
        items = prog.items_for(())
        names = {items[i][0] for _code, idx in scoring.player_groups(items, items[0][2].__globals__) for i in idx}
        assert some in names, g


def test_one_players_change_leaves_the_others_remembered():
    """After one player's zone changes, the other players' grouped values come from the memo and
    equal what they were; the changed player's are worked out again."""
    st = _catlady_over(4)
    first = st.score_now()
    kept = st.layout.base[_zone(st, "kept")]
    owner = next(pl for pl in range(st.n) if st.z[kept + pl])
    st.z[kept + owner] = st.z[kept + owner][:-1]
    after = st.score_now()
    assert after == _fresh_rows(st)
    for pl in range(st.n):
        if pl != owner:
            assert after[pl]["toys"] == first[pl]["toys"] and after[pl]["vp_tokens"] == first[pl]["vp_tokens"]
