"""The action graph: labels in the language's words, branches that join, loops, jumps, and its SVG."""

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import catrules
from catrules.lang import ast, source_text
from catrules.compile import graph as graphmod
from catrules.cli import main
from catrules.authoring.graph_render import to_svg
from catrules.lang.parser import parse

ROOT = Path(__file__).resolve().parents[1]
GAMES = sorted((ROOT / "games").glob("*.cat"))
ALL_FILES = GAMES + sorted((ROOT / "docs" / "examples").glob("*.cat")) + sorted((ROOT / "tests" / "games").glob("*.cat"))
SVG = "{http://www.w3.org/2000/svg}"

SMALL = """\
catrules 2
game "Small"
players 2 to 3

option quick: "shorter"

cards number in deck:
    for each value in 1 to 9:
        card

zone deck: shared, hidden, pile
zone window: shared, public, grid 2 by 2
zone hand: per player, owner, pile
zone pawing: shared, public, pile
zone shown: per player, public, pile

counter points of each player = 0
counter rounds = 0

action build(p, c, r):
    move c to shown of r

when card c enters shown of q if c.value > 5:
    add 1 to points of q

setup:
    shuffle deck
    fill window from deck
    exchange first(window) with top(deck)

flow:
    repeat 2 times:
        play turn
    repeat until rounds >= 3 or quick:
        rounds = rounds + 1
    repeat while count(deck) > 20:
        for each player p clockwise from first(players):
            move top(deck, 2) to hand of p
    for each c in window:
        move c to pawing
    if count(pawing) > 1:
        announce "many"
    else if count(pawing) == 1:
        tally
    else:
        end game
    play turn

phase turn:
    for each player p in players where points of it < 9:
        openly p chooses 2 cards cs from hand of p default lowest value
        p chooses c from hand of p preferring value > 2 default highest -c.value
        do build(p, c, p)
        points of p = (points of p + 1) * 2
        if p == first(players):
            stop
    secretly each player p chooses c from hand of p:
        move c to shown of p
    race each player p chooses c from pawing:
        move c to hand of p
    for each player q:
        q chooses:
            "pass":
                rounds = rounds + 0
            "draw" if any(deck):
                move top(deck) to hand of q

score:
    pts = points of player
"""


@pytest.fixture(scope="module")
def small():
    return catrules.load_source(SMALL, "small.cat")


def _node(G, line, kind="step"):
    found = [n for n, d in G.nodes(data=True) if d.get("line") == line and d.get("type") == kind]
    assert len(found) == 1, (line, found)
    return found[0]


def _label(G, line):
    return G.nodes[_node(G, line)]["label"]


def _out(G, n, kind):
    return [v for _, v, d in G.out_edges(n, data=True) if d["kind"] == kind]


# ------------------------------------------------------------------ labels

@pytest.mark.parametrize("line, label", [
    (27, "shuffle deck"),
    (28, "fill window from deck"),
    (29, "exchange first(window) with top(deck)"),
    (32, "repeat 2 times"),
    (33, "play turn"),
    (34, "repeat until rounds >= 3 or quick"),
    (35, "rounds = rounds + 1"),
    (36, "repeat while count(deck) > 20"),
    (37, "for each player p clockwise from first(players)"),
    (38, "move top(deck, 2) to hand of p"),
    (39, "for each c in window"),
    (41, "if count(pawing) > 1"),
    (42, 'announce "many"'),
    (44, "tally"),
    (46, "end game"),
    (50, "for each player p in players where points of it < 9"),
    (51, "openly p chooses 2 cards cs from hand of p default lowest value"),
    (52, "p chooses c from hand of p preferring value > 2 default highest -c.value"),
    (53, "do build(p, c, p)"),
    (54, "points of p = (points of p + 1) * 2"),
    (56, "stop"),
    (57, "secretly each player p chooses c from hand of p"),
    (59, "race each player p chooses c from pawing"),
    (61, "for each player q"),
    (62, "q chooses"),
    (24, "add 1 to points of q"),
])
def test_each_step_reads_as_its_line(small, line, label):
    assert _label(small.graph, line) == label


def test_units_read_as_their_headers(small):
    G = small.graph
    assert G.nodes["action:build"]["label"] == "action build(p, c, r)"
    assert G.nodes["trigger:0"]["label"] == "when card c enters shown of q if c.value > 5"
    assert G.nodes["phase:turn"]["label"] == "phase turn" and G.nodes["phase:turn"]["line"] == 49
    # branch conditions and menu texts are on the edges into the branches
    labels = {d.get("label") for _, _, d in G.edges(data=True)}
    assert {"then", "else if count(pawing) == 1", "else", '"pass"', '"draw" if any(deck)'} <= labels


def test_dot_and_mermaid_say_what_each_step_does_with_its_line(small):
    dot, mer = graphmod.to_dot(small.graph), graphmod.to_mermaid(small.graph)
    assert '"move top(deck, 2) to hand of p (line 38)"' in dot
    assert 'label="else if count(pawing) == 1"' in dot
    assert "announce #quot;many#quot; (line 42)" in mer and '-->|"else"|' in mer


def test_a_catlady_allot_and_a_flapcat_trigger_read_as_written():
    cat = catrules.load_game(ROOT / "games" / "catlady.cat").graph
    assert any(d.get("label") == "allot cubes of p to cats of p into eaten of p" for _, d in cat.nodes(data=True))
    flap = catrules.load_game(ROOT / "games" / "flapcat.cat").graph
    assert flap.nodes["trigger:0"]["label"] == "when card c enters cats of q from hand of giver if giver != q"


def _shape(n):
    """A tree without its positions (and without the bodies the test wraps around a header)."""
    if isinstance(n, ast.Node):
        skip = {"line", "column", "body", "clause_pos"}
        return (type(n).__name__,) + tuple(_shape(getattr(n, f)) for f in ast.fields(type(n))
                                           if f not in skip)
    if isinstance(n, (list, tuple)):
        return tuple(_shape(x) for x in n)
    return n


def _reparsed(st, version=2):
    line = source_text.stmt(st)
    if isinstance(st, (ast.If, ast.RepeatTimes, ast.RepeatUntil, ast.ForPlayers, ast.ForEach, ast.Together)):
        line += ":\n        tally"
    elif isinstance(st, ast.Allot):
        line += ":\n        maximal"
    src = f'catrules {version}\ngame "x"\nplayers 2 to 2\nsetup:\n    {line}\n'
    return parse(src).setup[0]


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_printed_statements_parse_back_to_the_same_tree(path):
    game = parse(path.read_text(), str(path))
    stmts = [n for n in ast.walk(game) if isinstance(n, ast.Stmt) and not isinstance(n, ast.Menu)]
    assert stmts
    for st in stmts:
        back = _reparsed(st, game.version)
        if isinstance(st, ast.If):          # the header shows the first condition only
            assert _shape(back.branches[0][0]) == _shape(st.branches[0][0]), source_text.stmt(st)
        elif isinstance(st, ast.Allot):
            assert _shape([back.source, back.targets, back.into]) == _shape([st.source, st.targets, st.into])
        else:
            assert _shape(back) == _shape(st), source_text.stmt(st)
    for d in game.defines:                  # every definition's expression too
        src = f'catrules {game.version}\ngame "x"\nplayers 2 to 2\ndefine f = {source_text.expr(d.body)}\n'
        assert _shape(parse(src).defines[0].body) == _shape(d.body), source_text.expr(d.body)


def test_an_unknown_node_still_prints():
    assert source_text.expr(ast.Expr()) == "expr"
    assert source_text.stmt(ast.Stmt()) == "stmt"


# ------------------------------------------------------------------ structure

def test_both_branches_of_an_if_meet_at_one_join_that_goes_on(small):
    G = small.graph
    if_node = _node(G, 41)
    join = G.nodes[if_node]["join"]
    assert G.nodes[join]["type"] == "join"
    # then: announce -> join; else if: tally -> join; else: end game goes to the end instead
    assert _out(G, _node(G, 42), "join") == [join]
    assert _out(G, _node(G, 44), "join") == [join]
    assert _out(G, _node(G, 46), "end") == [graphmod.END] and not _out(G, _node(G, 46), "join")
    assert _out(G, join, "next") == [_node(G, 47)]
    assert not _out(G, if_node, "next")      # the if itself goes on only through its join


def test_an_if_without_else_skips_to_its_join_and_a_menu_joins_too(small):
    G = small.graph
    if_node = _node(G, 55)
    join = G.nodes[if_node]["join"]
    assert _out(G, if_node, "skip") == [join]
    menu = _node(G, 62)
    mjoin = G.nodes[menu]["join"]
    assert _out(G, _node(G, 64), "join") == [mjoin] and _out(G, _node(G, 66), "join") == [mjoin]
    assert _out(G, mjoin, "loop") == [_node(G, 61)]
    assert _out(G, _node(G, 61), "return") == ["phase:turn:end"]


def test_loops_go_back_and_stop_goes_where_the_loop_ends(small):
    G = small.graph
    loop = _node(G, 50)
    # the body's last step is the if's join: it goes back to the loop
    assert _out(G, G.nodes[_node(G, 55)]["join"], "loop") == [loop]
    assert _out(G, _node(G, 56), "stop") == [_node(G, 57)] == _out(G, loop, "next")
    inner = _node(G, 37)
    assert _out(G, _node(G, 38), "loop") == [inner] and _out(G, inner, "loop") == [_node(G, 36)]
    assert _out(G, _node(G, 57), "body") == [_node(G, 58)] and _out(G, _node(G, 58), "loop") == [_node(G, 57)]


def test_calls_and_triggers_link_units(small):
    G = small.graph
    assert _out(G, _node(G, 33), "play") == ["phase:turn"]
    assert _out(G, _node(G, 53), "call") == ["action:build"]
    assert _out(G, _node(G, 58), "trigger") == ["trigger:0"]
    assert _out(G, "flow", "start") == [_node(G, 32)]


def test_steps_after_a_stop_are_kept_but_marked_never_reached():
    src = SMALL.replace("            stop\n", "            stop\n            rounds = 9\n")
    G = catrules.load_source(src, "dead.cat").graph
    edge = G.edges[_node(G, 56), _node(G, 57)]
    assert edge["kind"] == "next" and edge["dead"] and graphmod.edge_text(G, None, None, edge) == "never reached"


@pytest.mark.parametrize("path", ALL_FILES, ids=lambda p: p.name)
def test_the_graph_holds_every_block_exactly(path):
    # what the compiler reads back from the graph is each block of the file, in order
    try:
        game = catrules.load_game(path)
    except catrules.GameFileError:
        pytest.skip("a file with mistakes, for the checker's tests")
    G, g = game.graph, game.program.checked.game
    units = [("setup", g.setup), ("flow", g.flow)] + [(f"phase:{p.name}", p.body) for p in g.phases]
    units += [(f"action:{a.name}", a.body) for a in g.actions]
    units += [(f"trigger:{i}", t.body) for i, t in enumerate(g.triggers)]
    node = {id(d["stmt"]): n for n, d in G.nodes(data=True) if "stmt" in d}
    for key, body in units:
        assert graphmod.steps(G, key) == body
    for st in (n for n in ast.walk(g) if isinstance(n, ast.Stmt)):
        if isinstance(st, (ast.If, ast.Menu)):
            bodies = [b[1] if isinstance(st, ast.If) else b[2] for b in st.branches]
            for i, b in enumerate(bodies):
                assert graphmod.steps(G, node[id(st)], "then", branch=i) == b
            if isinstance(st, ast.If) and st.otherwise:
                assert graphmod.steps(G, node[id(st)], "else") == st.otherwise
        elif hasattr(st, "body"):
            assert graphmod.steps(G, node[id(st)], "body") == st.body
    # every step and join is reached from its unit's start
    for n, d in G.nodes(data=True):
        if d.get("type") in ("step", "join") and not _dead_only(G, n):
            assert any(G.nodes[a].get("unit") == d["unit"] for a in G.predecessors(n)), n


def _dead_only(G, n):
    return all(d.get("dead") for _, _, d in G.in_edges(n, data=True))


# ------------------------------------------------------------------ SVG

def _boxes(root, cls):
    out = {}
    for g in root.iter(SVG + "g"):
        if g.get("class") == cls:
            shape = g.find(SVG + "rect")
            if shape is None:
                shape = g.find(SVG + "polygon")
            if shape.tag == SVG + "rect":
                x, y, w, h = (float(shape.get(k)) for k in ("x", "y", "width", "height"))
            else:
                pts = [tuple(map(float, p.split(","))) for p in shape.get("points").split()]
                xs, ys = [p[0] for p in pts], [p[1] for p in pts]
                x, y, w, h = min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys)
            out[g.get("id")] = (x, y, x + w, y + h)
    return out


def _overlap(a, b):
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_svg_is_one_box_per_step_none_overlapping(path):
    game = catrules.load_game(path)
    svg = to_svg(game.graph)
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    n_steps = sum(1 for _, d in game.graph.nodes(data=True) if d.get("type") == "step")
    steps = _boxes(root, "step")
    assert len(steps) == n_steps
    heads = _boxes(root, "unit-head")
    assert len(heads) == sum(1 for _, d in game.graph.nodes(data=True) if d.get("type") == "unit" and d["line"])
    boxes = list({**steps, **heads, **_boxes(root, "end")}.values())
    assert not [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:] if _overlap(a, b)]
    units = [tuple(float(r.get(k)) for k in ("x", "y", "width", "height"))
             for g in root.iter(SVG + "g") if g.get("class") == "unit" for r in [g.find(SVG + "rect")]]
    units = [(x, y, x + w, y + h) for x, y, w, h in units]
    assert not [(a, b) for i, a in enumerate(units) for b in units[i + 1:] if _overlap(a, b)]
    width, height = float(root.get("width")), float(root.get("height"))
    assert all(u[2] <= width and u[3] <= height for u in units)
    # each step's text is there, and its line
    assert "move top(deck, 9) to hand of p" in svg or "meow" not in path.name


def test_svg_is_the_same_every_time():
    a = to_svg(catrules.load_game(ROOT / "games" / "flapcat.cat").graph)
    b = to_svg(catrules.load_game(ROOT / "games" / "flapcat.cat").graph)
    assert a == b
    assert len(re.findall(r'class="edge (play|call)"', a)) >= 10


def test_svg_escapes_text(small):
    svg = to_svg(small.graph)
    ET.fromstring(svg)
    assert 'announce "many"' in svg
    assert "points of it &lt; 9" in svg


# ------------------------------------------------------------------ command line and docs

def test_cli_graph_svg(capsys, tmp_path):
    meow = str(ROOT / "games" / "meow.cat")
    target = tmp_path / "meow.svg"
    assert main(["graph", meow, "--format", "svg", "-o", str(target)]) == 0
    assert "wrote" in capsys.readouterr().err
    ET.parse(target)
    assert main(["graph", meow, "--format", "svg"]) == 0
    out = capsys.readouterr().out
    assert out == target.read_text() and out.startswith("<svg")


def test_the_docs_show_every_shipped_game_graph():
    page = (ROOT / "docs" / "graphs.rst").read_text()
    for path in GAMES:
        assert f"_generated/graphs/{path.stem}.svg" in page
