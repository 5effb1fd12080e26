"""The command line: one JSON document and exit 0, or one line and exit 2 for any malformed case."""
import json
import pathlib
import subprocess
import sys

import pytest

from .helpers import assert_malformed, card, run, run_case

ROOT = pathlib.Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "rules" / "cases" / "ordonnance"
CONTEST = CASES / "src-11-two-two-tie-later-marker-loses.case.json"
PLAY = CASES / "own-14-play-early-control.case.json"


def test_file_and_stdin_give_byte_identical_output():
    code, out, err = run(["contest", str(CONTEST)])
    assert code == 0 and err == "" and out.endswith("\n")
    assert run(["contest", "-"], CONTEST.read_text(encoding="utf-8")) == (code, out, err)


@pytest.mark.parametrize("path", sorted(CASES.glob("*.case.json")), ids=lambda p: p.name)
def test_every_case_gives_the_same_bytes_twice(path):
    mode = json.loads(path.with_name(path.name.replace(".case.", ".expect.")).read_text())["mode"].split(".")[1]
    assert run([mode, str(path)]) == run([mode, str(path)])


def test_manage_py_adjudicate_runs_the_system():
    done = subprocess.run([sys.executable, "manage.py", "adjudicate", "ordonnance.play", str(PLAY)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["state"]["to_move"] == "anna"


def test_unknown_mode_and_bad_json_are_one_line():
    assert_malformed(*run(["odds", str(CONTEST)]))
    assert_malformed(*run(["army", "-"], "{not json"))
    assert_malformed(*run(["army", "-"], "[" * 200_000))


TWO = ["anna", "boris"]


def _contest(**changes):
    case = {"players": TWO, "deck": None, "plays": [{"player": "anna", "territory": 1, "card": card("flag")}]}
    case.update(changes)
    return case


@pytest.mark.parametrize("mode, case, field", [
    ("army", [], "case"),
    ("army", {"cards": "flag"}, "cards"),
    ("army", {"cards": [{"symbols": "flag"}]}, "cards[0].symbols"),
    ("army", {"cards": [{"symbols": [None]}]}, "cards[0].symbols[0]"),
    ("army", {"cards": [{"symbols": [["flag"]]}]}, "cards[0].symbols[0]"),
    ("army", {"cards": [card("flag")], "extra": 1}, "extra"),
    ("army", {"cards": [{"symbols": ["flag"], "colour": "red"}]}, "cards[0].colour"),
    ("territory", {"armies": [{"player": "anna", "cards": []}], "pool": None}, "armies"),
    ("territory", {"armies": [{"player": "anna", "cards": []}, {"player": "anna", "cards": []}]}, "armies[1].player"),
    ("territory", {"armies": [{"player": "anna", "cards": [card("flag")] * 4, "completed_at": True},
                              {"player": "boris", "cards": []}]}, "armies[0].completed_at"),
    ("territory", {"armies": [{"player": "anna", "cards": [card("flag")] * 4, "completed_at": 10 ** 4000},
                              {"player": "boris", "cards": []}]}, "armies[0].completed_at"),
    ("territory", {"armies": [{"player": "a", "cards": []}, {"player": "b", "cards": []}], "pool": "all"}, "pool"),
    ("contest", _contest(players="anna"), "players"),
    ("contest", _contest(players=["anna", 7]), "players[1]"),
    ("contest", _contest(players=["anna", "x" * 65]), "players[1]"),
    ("contest", _contest(plays={"0": 1}), "plays"),
    ("contest", _contest(plays=[{"player": "anna", "territory": 1.0, "card": card("flag")}]), "plays[0].territory"),
    ("contest", _contest(plays=[{"player": "anna", "territory": True, "card": card("flag")}]), "plays[0].territory"),
    ("contest", _contest(plays=[{"player": "anna", "territory": -(10 ** 30), "card": card("flag")}]), "plays[0].territory"),
    ("contest", _contest(plays=[{"player": "anna", "territory": 1}]), "plays[0].card"),
    ("contest", _contest(plays=[{"player": "anna", "territory": 1, "card": card("flag")}] * 10_001), "plays"),
    ("contest", _contest(deck=[card("flag")] * 1_001), "deck"),
    ("contest", _contest(deck=[{"id": "c1", "symbols": ["flag"]}, {"id": "c1", "symbols": ["bow"]}]), "deck[1].id"),
    ("contest", _contest(deck=[{"id": "c1", "symbols": ["flag"]}],
                         plays=[{"player": "anna", "territory": 1, "card": "c2"}]), "plays[0].card"),
    ("contest", _contest(deck=[{"id": "c1", "symbols": ["flag"]}],
                         plays=[{"player": "anna", "territory": 1, "card": "c1"}] * 2), "plays[1].card"),
    ("deal", {"players": TWO, "deck": None, "order": None, "seed": 1, "first_player": None}, "deck"),
    ("deal", {"players": TWO, "deck": [card("flag")] * 10, "order": None, "seed": 1}, "deck[0].id"),
    ("deal", {"players": TWO, "deck": [{"id": f"c{i}", "symbols": ["flag"]} for i in range(10)],
              "order": None, "seed": 2 ** 63}, "seed"),
    ("deal", {"players": TWO, "deck": [{"id": f"c{i}", "symbols": ["flag"]} for i in range(10)],
              "order": None, "seed": 1, "first_player": "vera"}, "first_player"),
])
def test_hostile_input_is_exit_2_with_one_line_naming_the_field(mode, case, field):
    assert_malformed(*run_case(mode, case), field=field)


def _play(**changes):
    case = json.loads(PLAY.read_text(encoding="utf-8"))
    case.update(changes)
    return case


@pytest.mark.parametrize("changes, field", [
    ({"hands": {"anna": []}}, "hands.boris"),
    ({"hands": {"anna": [], "boris": [], "vera": []}}, "hands.vera"),
    ({"to_move": None}, "to_move"),
    ({"to_move": "vera"}, "to_move"),
    ({"moves": [{"player": "anna", "card": "c99", "territory": 3}]}, "moves[0].card"),
    ({"moves": [{"player": "vera", "card": "c07", "territory": 3}]}, "moves[0].player"),
    ({"moves": [{"player": "anna", "card": "c07", "territory": 0}]}, "moves[0].territory"),
    ({"plays": [{"player": "anna", "territory": 3, "card": {"symbols": ["flag"]}}]}, "plays[0].card"),
    ({"deck": None}, "deck"),
    ({"draw_pile": ["c08", "c18", "c19"]}, "deck"),
])
def test_inconsistent_play_states_are_malformed(changes, field):
    assert_malformed(*run_case("play", _play(**changes)), field=field)


def test_a_refused_play_in_a_virtual_log_is_malformed():
    case = _play()
    # anna's three cards in territory 3 plus c07 there, then c09 as a fifth: the log may hold laid cards only
    case["plays"] += [{"player": "anna", "territory": 3, "card": "c07"}, {"player": "anna", "territory": 3, "card": "c09"}]
    case["hands"]["anna"] = ["c11", "c13", "c15"]
    code, out, err = run_case("play", case)
    assert_malformed(code, out, err, field="plays[7]")
    assert "territory_full" in err


@pytest.mark.parametrize("depth, field", [(500, "cards[0]"), (100_000, "case")])
def test_deeply_nested_json_is_refused_not_crashed(depth, field):
    text = '{"cards": [' + "[" * depth + '{"symbols": ["flag"]}' + "]" * depth + "]}"
    assert_malformed(*run_case("army", text), field=field)
