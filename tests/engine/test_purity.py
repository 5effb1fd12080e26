"""The engine package stays pure: no Django, no clock, no global random state (source scan)."""
import ast
import pathlib

import larp.engine

ENGINE = pathlib.Path(larp.engine.__file__).parent
FORBIDDEN = {"django", "random", "time", "datetime", "uuid", "secrets", "os", "threading"}


def test_no_forbidden_imports_in_the_engine():
    offenders = []
    for path in sorted(ENGINE.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in FORBIDDEN]
    assert offenders == []


def test_modules_stay_reasonably_small():
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in ENGINE.glob("*.py")}
    assert max(sizes.values()) < 600, sizes
