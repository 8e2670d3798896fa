"""Issue 21 item 3: «No import circles, the `TYPE_CHECKING`-only ones included: a test walks the import
graph of `engine/` and `sheets_bridge/` (ast over the sources) and fails on any loop.»

Every import statement counts, wherever it stands (top level, inside a function, under TYPE_CHECKING).
`from package import name` is an edge to the submodule when `name` is one, else to the package."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "sheets_bridge", "tests/fake_google")


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)   # tests/fake_google -> tests.fake_google
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules `name` imports."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            wanted = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in modules]
            wanted = subs + ([module] if len(subs) < len(node.names) else [])
        else:
            continue
        for target in wanted:
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                targets.add(target)
    return targets


def import_graph() -> nx.DiGraph:
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        graph.add_edges_from((name, target) for target in _imports(name, path, modules))
    return graph


def test_the_graph_sees_the_imports_it_must():
    """The walk is not vacuous: known edges of the tree are found."""
    graph = import_graph()
    assert graph.has_edge("sheets_bridge.stage", "sheets_bridge.opening")
    assert graph.has_edge("sheets_bridge.cli", "sheets_bridge.stage")    # a function-level import
    assert graph.number_of_nodes() > 150


def test_engine_and_bridge_have_no_import_circle():
    loops = sorted((" → ".join([*c, c[0]]) for c in nx.simple_cycles(import_graph())), key=len)
    assert not loops, f"{len(loops)} import circles, the shortest first:\n" + "\n".join(loops[:20])


def test_the_engine_never_imports_the_bridge():
    graph = import_graph()
    leaks = [(a, b) for a, b in graph.edges if a.startswith("engine") and b.startswith("sheets_bridge")]
    assert not leaks
