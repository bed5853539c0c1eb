"""The ``catrules graph`` command: a game's action graph as Graphviz dot, Mermaid or SVG."""

from __future__ import annotations

import sys

from .common import FORMATTER, load, write_output

DESCRIPTION = """\
Export a game's action graph (its phases and steps, and how control moves
between them) as Graphviz dot, as a Mermaid flowchart, or drawn as an SVG
picture (no Graphviz needed).  Each step reads as its line of the game file.
"""

EPILOG = """\
examples:
  catrules graph games/mygame.cat --format svg -o mygame.svg
  catrules graph games/mygame.cat --format mermaid -o mygame.mmd
  catrules graph games/mygame.cat | dot -Tpdf > mygame.pdf
"""


def add_parser(sub) -> None:
    sp = sub.add_parser("graph", help="export the action graph (dot, mermaid or svg)", description=DESCRIPTION,
                        epilog=EPILOG, formatter_class=FORMATTER)
    sp.add_argument("game", metavar="GAME", help="the game file (.cat)")
    sp.add_argument("--format", choices=("dot", "mermaid", "svg"), default="dot",
                    help="output format: Graphviz dot, a Mermaid flowchart or an SVG picture (default: dot)")
    sp.add_argument("-o", "--output", metavar="OUT", help="write to this file (default: standard output)")
    sp.set_defaults(func=run)


def run(args) -> int:
    from ..compile.graph import to_dot, to_mermaid
    from ..authoring.graph_render import to_svg
    game = load(args.game)
    text = {"mermaid": to_mermaid, "svg": to_svg}.get(args.format, to_dot)(game.graph)
    if args.output and args.output != "-":
        write_output(args.output, text)
        g = game.graph
        print(f"wrote {args.output} ({g.number_of_nodes()} nodes, {g.number_of_edges()} edges)", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0
