"""`manage.py adjudicate SYSTEM.MODE CASE.json` dispatches to a rule system; bare MODE is the military module's."""
import io
import json
import pathlib

import pytest
from django.core.management import call_command

from larp import systems

CONTRACT = pathlib.Path(__file__).resolve().parents[1] / "engine" / "contract"
PISIDIA = CONTRACT / "seed-pisidia-pinned.case.json"
YANINA = CONTRACT / "seed-yanina-autobattle.case.json"


def adjudicate(target, path):
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("adjudicate", target, str(path), stdout=out, stderr=err)
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def seeded_turn(tmp_path):
    case = json.loads(PISIDIA.read_text(encoding="utf-8"))
    case["seed"] = 7
    path = tmp_path / "turn.case.json"
    path.write_text(json.dumps(case, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("mode, path", [("battle", YANINA), ("odds", YANINA), ("movement", PISIDIA),
                                        ("turn", None)])
def test_system_mode_equals_the_bare_mode_of_the_military_module(mode, path, seeded_turn):
    path = path or seeded_turn
    bare = adjudicate(mode, path)
    named = adjudicate(f"military.{mode}", path)
    assert bare[0] == 0 and bare[2] == ""
    assert named == bare
    assert json.loads(named[1])


def test_the_yanina_battle_through_the_named_system():
    code, out, _ = adjudicate("military.battle", YANINA)
    assert code == 0 and json.loads(out)["defender"]["total"] == 35


@pytest.mark.parametrize("target, words", [("chess.turn", "unknown rule system 'chess'"),
                                           ("military.dance", "unknown mode 'dance'"),
                                           ("dance", "unknown mode 'dance'")])
def test_an_unknown_system_or_mode_is_one_line_and_exit_2(target, words):
    code, out, err = adjudicate(target, PISIDIA)
    assert code == 2 and out == ""
    assert words in err and err.strip().count("\n") == 0 and "Traceback" not in err


def test_every_registered_system_has_the_command_line_shape():
    for name in systems.SYSTEMS:
        module = systems.cli(name)
        assert module.MODES and callable(module.main)
    assert "military.turn" in systems.targets()
