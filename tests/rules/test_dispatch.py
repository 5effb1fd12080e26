"""`adjudicate SYSTEM.MODE`: one command line for every rule system (larp.rules.systems)."""
import json
import pathlib
import subprocess
import sys

from larp.rules import systems

ROOT = pathlib.Path(__file__).resolve().parents[2]
PISIDIA = ROOT / "tests" / "engine" / "contract" / "seed-pisidia-pinned.case.json"


def adjudicate(*args, stdin=None):
    return subprocess.run([sys.executable, "manage.py", "adjudicate", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, encoding="utf-8", timeout=120)


def test_split_names_the_system_and_the_mode():
    assert systems.split("orda.attack") == ("orda", "attack")
    assert systems.split("red-plains.turn") == ("red-plains", "turn")
    assert systems.split("turn") == ("military", "turn")


def test_every_built_system_keeps_the_contract_interface():
    built = systems.available()
    assert "military" in built
    for name, module in built.items():
        assert module.MODES and callable(module.main), name


def test_bare_mode_and_military_dot_mode_give_the_same_bytes():
    bare, dotted = adjudicate("movement", str(PISIDIA)), adjudicate("military.movement", str(PISIDIA))
    assert bare.returncode == dotted.returncode == 0
    assert bare.stdout == dotted.stdout
    assert json.loads(bare.stdout)["pinned"] == ["rum-2"]


def test_an_unknown_system_or_mode_is_refused_with_the_list_of_choices():
    proc = adjudicate("chess.mate", str(PISIDIA))
    assert proc.returncode == 2 and "invalid choice" in proc.stderr and "military.turn" in proc.stderr


def test_a_malformed_case_is_one_line_exit_2_through_any_name():
    proc = adjudicate("military.turn", "-", stdin="[]")
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
