"""Every rule system's engine stays pure: no Django, no clock, no global random state (source scan).

Covers the military module (larp/engine), the shared contract (larp/rules) and
each further system's engine package (larp/<system>/engine/).
"""
import ast
import pathlib

import larp

LARP = pathlib.Path(larp.__file__).parent
FORBIDDEN = {"django", "random", "time", "datetime", "uuid", "secrets", "os", "threading", "celery"}
PURE_DIRS = [LARP / "engine", LARP / "rules", *sorted(LARP.glob("*/engine"))]


def _imports(path: pathlib.Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module or ""


def test_no_forbidden_imports_in_any_engine():
    offenders = []
    for folder in PURE_DIRS:
        for path in sorted(folder.rglob("*.py")):
            for name in _imports(path):
                top = name.split(".")[0]
                project = name.startswith("larp.") and not any(
                    name.startswith(f"larp.{p.relative_to(LARP).as_posix().replace('/', '.')}") for p in PURE_DIRS)
                if top in FORBIDDEN or project:
                    offenders.append(f"{path.relative_to(LARP)}: {name}")
    assert offenders == []


def test_engine_modules_stay_reasonably_small():
    sizes = {str(p.relative_to(LARP)): len(p.read_text(encoding="utf-8").splitlines())
             for folder in PURE_DIRS for p in folder.rglob("*.py")}
    assert max(sizes.values()) < 600, {k: v for k, v in sizes.items() if v >= 600}
