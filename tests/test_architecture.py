"""The apps' imports point one way: no import cycle between apps (docs/architecture.md).

Every module under larp/ is parsed with ast, function-local imports included
(a local import hides a cycle from Python, not from this test). Management
commands are entry points like urls.py: nothing imports them, so they cannot
close a cycle and are left out. There is no allowance: any cycle fails.
"""
import ast
import pathlib
from collections import defaultdict

ROOT = pathlib.Path(__file__).resolve().parents[1]
LARP = ROOT / "larp"
APPS = sorted(p.name for p in LARP.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def _module_of(path: pathlib.Path) -> list[str]:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return parts[:-1] if parts[-1] == "__init__" else parts


def imported_modules(path: pathlib.Path) -> list[tuple[str, int]]:
    """Every larp module a file imports, anywhere in it (top level or inside functions), with its line."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = _module_of(path) if path.name == "__init__.py" else _module_of(path)[:-1]
                anchor = package[:len(package) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.append((base, node.lineno))
            found += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]  # from larp import x
    return [(name, line) for name, line in found if name.startswith("larp.")]


def app_edges() -> dict[tuple[str, str], set[str]]:
    """(app, imported app) -> the files that make that edge."""
    edges = defaultdict(set)
    for path in LARP.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        parts = path.relative_to(LARP).parts
        if len(parts) < 2 or "migrations" in parts or "management" in parts:
            continue
        app = parts[0]
        for name, _line in imported_modules(path):
            target = name.split(".")[1]
            if target in APPS and target != app:
                edges[(app, target)].add(rel)
    return edges


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph as a list of apps, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_no_import_cycle_between_apps():
    graph = defaultdict(set)
    for app, target in app_edges():
        graph[app].add(target)
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle between apps: " + " -> ".join(cycle) + "; files: " + "; ".join(
        f"{a} -> {b}: {sorted(app_edges()[(a, b)])}" for a, b in zip(cycle, cycle[1:]))


def documented_graph() -> tuple[dict[str, set[str]], set[str]]:
    """The app graph drawn in docs/architecture.md: app -> the apps after its arrow (a pure engine: none).

    The line "PKG" stands for every further system (an app with its own engine/): those apps may import
    any of the apps after its arrow, so they are returned apart, to be checked as a bound, not an equality.
    """
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Layers and the app graph", 1)[1].split("```", 2)[1]
    systems = {app for app in APPS if app != "engine" and (LARP / app / "engine").is_dir()}
    graph, names = {}, []
    for line in block.strip().splitlines():
        if not line.startswith(" "):  # a new entry: its apps, then what they are
            names = []
            for n in line.split("  ", 1)[0].split(", "):
                if n == "PKG/engine":
                    continue          # a system's pure engine is a package of the system's app, drawn as PKG
                names += sorted(systems) if n.split(" ")[0] == "PKG" else [n]
            for name in names:
                graph[name] = set()
        if "→" in line:
            for name in names:
                graph[name] = {a.strip() for a in line.split("→", 1)[1].split(",")}
    return graph, systems


def test_the_documented_app_graph_is_the_real_one():
    documented, systems = documented_graph()
    real = defaultdict(set)
    for app, target in app_edges():
        real[app].add(target)
    assert sorted(documented) == APPS, "every app is drawn once in docs/architecture.md"
    for app in APPS:
        allowed = documented[app] or {"rules"}  # a pure engine may import the command-line contract
        exact = app not in systems
        assert real[app] <= allowed and (not exact or not documented[app] or real[app] == documented[app]), (
            f"{app}: imports {sorted(real[app])}, docs/architecture.md draws {sorted(documented[app])}")
