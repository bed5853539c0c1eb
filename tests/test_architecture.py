"""The house's shape: no import circles, imports only down the documented order, few top-level modules.

The import graph of ``catrules/`` is read with :mod:`ast`, without importing anything: every
``import`` and ``from ... import`` of every module, those inside functions too, but not those
under ``if TYPE_CHECKING:`` (they never run).  A package's ``__init__`` importing its own
children at module level is left out: re-exporting them makes no circle (an import of a
child inside one of its functions counts).  The order of packages is read from
the table in ``docs/architecture.rst`` ("Who may import whom"), so the page and this test
cannot say different things.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "catrules"
DOC = ROOT / "docs" / "architecture.rst"
MAX_TOP_LEVEL = 12


# --- the import graph ---------------------------------------------------------------------


def module_files():
    """Every module of catrules/ by dotted name (a package by its own name, for its __init__)."""
    mods = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


def _under_type_checking(tree):
    """The ids of the nodes inside ``if TYPE_CHECKING:`` blocks (imports for type hints only)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
                    (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
                skip.update(id(sub) for sub in ast.walk(node))
    return skip


def _inside_functions(tree):
    """The ids of the nodes inside function bodies: imports there run late, but they run."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            inside.update(id(sub) for sub in ast.walk(node) if sub is not node)
    return inside


def _imported(module, is_package, node, mods):
    """The modules of catrules an import statement brings in, relative imports resolved.

    ``from pkg import name`` imports ``pkg.name`` when that is a module, else ``pkg``.
    """
    if isinstance(node, ast.Import):
        return {_known(alias.name, mods) for alias in node.names}
    base = node.module or ""
    if node.level:
        parts = module.split(".") if is_package else module.split(".")[:-1]
        parts = parts[: len(parts) - (node.level - 1)]
        base = ".".join(parts + ([base] if base else []))
    return {base + "." + alias.name if base + "." + alias.name in mods else _known(base, mods)
            for alias in node.names}


def _known(name, mods):
    """The longest prefix of a dotted name that is a module of catrules, or None."""
    while name and name not in mods:
        name = name.rpartition(".")[0]
    return name or None


def import_graph():
    """Module -> {imported module: [the import lines, as "path:line: text"]}."""
    mods = module_files()
    graph = {m: {} for m in mods}
    for module, path in mods.items():
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text, filename=str(path))
        skip = _under_type_checking(tree)
        is_package = path.name == "__init__.py"
        deferred = _inside_functions(tree)
        for node in ast.walk(tree):
            if id(node) in skip or not isinstance(node, (ast.Import, ast.ImportFrom)):
                continue
            targets = _imported(module, is_package, node, mods)
            where = f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}"
            for target in targets:
                if target is None or target == module:
                    continue
                if is_package and target.startswith(module + ".") and id(node) not in deferred:
                    continue                        # a package re-exporting its own children
                graph[module].setdefault(target, []).append(where)
    return graph


def circles(graph):
    """The strongly connected components of more than one module (Tarjan, without recursion)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


# --- the documented order -----------------------------------------------------------------


def documented_floors():
    """Floor number -> the packages on it, from the import-order table of docs/architecture.rst.

    The table is the reST simple table after the comment ``.. import-order``: its first column
    is the floor, its second the packages on it, each between double backquotes.
    """
    lines = DOC.read_text(encoding="utf-8").splitlines()
    assert ".. import-order" in lines, \
        "docs/architecture.rst lost the comment `.. import-order` before its table: put it back"
    start = lines.index(".. import-order")
    rules = [i for i in range(start, len(lines)) if re.fullmatch(r"=+( +=+)*", lines[i])][:3]
    assert len(rules) == 3, "docs/architecture.rst: the table after `.. import-order` is not a simple table"
    columns = [m.span() for m in re.finditer(r"=+", lines[rules[0]])]
    floors, floor = {}, None
    for line in lines[rules[1] + 1: rules[2]]:
        first = line[: columns[0][1]].strip()
        if first:
            floor = int(first)
            floors[floor] = []
        packages = line[columns[1][0]: columns[1][1]] if len(columns) > 2 else line[columns[1][0]:]
        floors[floor] += re.findall(r"``([\w.]+)``", packages)
    return floors


def package_of(module):
    """The package a module belongs to, as the table names it: ``catrules.play.match`` -> ``play``."""
    parts = module.split(".")
    return "catrules" if len(parts) == 1 else parts[1]


# --- the tests ----------------------------------------------------------------------------


def test_the_import_order_is_documented():
    floors = documented_floors()
    named = [p for packages in floors.values() for p in packages]
    assert len(floors) >= 10 and len(named) == len(set(named)), floors
    assert floors[min(floors)] == ["errors", "limits"], floors


def test_no_import_circles():
    graph = import_graph()
    found = circles(graph)
    report = []
    for component in found:
        report.append("circle: " + " <-> ".join(component))
        members = set(component)
        for module in component:
            for target, wheres in sorted(graph[module].items()):
                if target in members:
                    report += [f"    {module} -> {target}  ({w})" for w in wheres]
    assert not found, (
        "Modules of catrules/ import each other (imports inside functions count).  Break each "
        "circle: move what both need into a module lower in the order (docs/architecture.rst), or "
        "pass it in as an argument, so that the imports go one way only.\n" + "\n".join(report))


def test_imports_follow_the_documented_order():
    floors = documented_floors()
    floor_of = {package: floor for floor, packages in floors.items() for package in packages}
    graph = import_graph()
    unplaced = sorted({package_of(m) for m in graph} - set(floor_of))
    assert not unplaced, (
        f"docs/architecture.rst does not place {unplaced} in its import-order table: add a row "
        "(or the name to a row) saying which floor each one is on.")
    wrong = []
    for module, targets in sorted(graph.items()):
        mine = package_of(module)
        for target, wheres in sorted(targets.items()):
            theirs = package_of(target)
            if theirs != mine and floor_of[theirs] >= floor_of[mine]:
                wrong += [f"    {mine} (floor {floor_of[mine]}) imports {theirs} (floor {floor_of[theirs]}): "
                          f"{w}" for w in wheres]
    assert not wrong, (
        "A package may import only itself and the packages on lower floors of the table in "
        "docs/architecture.rst.  Move the code that is needed lower, or have the lower package "
        "take it as an argument (or a plain fact on Program) instead of importing it; change the "
        "table only if the design changes.\n" + "\n".join(wrong))


def test_few_modules_at_the_top_level():
    top = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(top) <= MAX_TOP_LEVEL, (
        f"catrules/ holds {len(top)} modules besides __init__ and __main__ (at most {MAX_TOP_LEVEL}): "
        f"{top}.  Put a new module in the package of its step of the pipeline "
        "(see docs/architecture.rst).")
