"""The AST's node classes (catrules.lang.ast.node): fields, defaults, positions, pickling."""

import pickle

import pytest

from catrules.lang import ast


def test_fields_come_after_the_bases_and_positions_are_keywords_only():
    assert ast.fields(ast.Const) == ("line", "column", "value")
    n = ast.Const(3, line=2, column=5)
    assert (n.value, n.line, n.column, n.pos) == (3, 2, 5, (2, 5))
    with pytest.raises(TypeError):
        ast.Const(3, 2)                     # a position is never positional
    with pytest.raises(TypeError):
        ast.Const()                         # a field without a default is required


def test_each_class_keeps_its_own_defaults_and_a_factory_makes_a_new_object_each_time():
    a, b = ast.Allot(1, 2, 3), ast.Allot(1, 2, 3)
    assert a.prefer == [] and a.prefer is not b.prefer and a.clause_pos is not b.clause_pos
    assert ast.Choose("p", "c", None, None).public is False and ast.Choose("p", "c", None, None).count is None
    g1, g2 = (ast.GameFile("x.cat", 3, "X", 2, 4) for _ in range(2))
    assert g1.cards == [] and g1.cards is not g2.cards
    # the same field name with another default in another class
    assert g1.source == "" and ast.Trigger("c", "hand", None, None, []).source is None


def test_a_node_class_made_later_works_the_same():
    @ast.node
    class Extra(ast.Expr):
        a: int
        b: list = ast.Factory(list)
    e = Extra(1, line=4)
    assert (e.a, e.b, e.line) == (1, [], 4) and ast.fields(Extra) == ("line", "column", "a", "b")
    assert repr(e) == "Extra(line=4, column=0, a=1, b=[])"


def test_nodes_compare_by_identity_and_survive_pickling():
    x, y = ast.Name("hand"), ast.Name("hand")
    assert x != y and x == x and len({x, y}) == 2
    tree = ast.Binary("+", ast.Const(1, line=1), ast.Name("n", line=1, column=4), line=1)
    back = pickle.loads(pickle.dumps(tree))
    assert repr(back) == repr(tree) and type(back.right) is ast.Name
