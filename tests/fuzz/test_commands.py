"""Hostile input for every management command of the project (larp/*/management/commands).

Whatever comes in: exit 0, or exit 2 with exactly one line on stderr that
does not repeat a huge value in full. Never exit 1 (an internal error), never
a traceback. The hostile inputs: a binary file, 100,000 nested brackets, a
4,000-digit number, bytes that are not UTF-8 (Python hands them over as lone
surrogates), a case whose id holds an escaped lone surrogate, and random text
and scenario files (hypothesis).

Most run in this process through Django's own command line (ManagementUtility,
as manage.py does), against the test database; the ones that need real argv
bytes, or that would start servers if they failed (rungame), run as a child
process.
"""
import contextlib
import copy
import io
import json
import os
import pathlib
import signal
import subprocess
import sys
import threading
from unittest import mock

import pytest
import yaml
from django.core.management import ManagementUtility
from django.db import connections as db_connections
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from larp.rules import systems

from .test_adjudicate_cli import ANY_JSON, HUGE, WEIRD_TEXT, _paths

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
COMMANDS = sorted(p.stem for p in ROOT.glob("larp/*/management/commands/*.py") if not p.stem.startswith("_"))
BIG = "9" * 4000
SURROGATE = "\udcff\udcfe"  # what Python makes of the argv bytes b"\xff\xfe"
SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
TINY = yaml.safe_load((ROOT / "larp" / "scenarios" / "tiny.yaml").read_text(encoding="utf-8"))


class ThisThreadOnly(io.TextIOBase):
    """sys.stdout or sys.stderr while a command runs: what this thread writes goes to `mine`, what any other
    thread writes (a live server's thread left from an earlier test, logging) goes where it went before."""

    def __init__(self, mine: io.StringIO, before):
        self.mine, self.before, self.thread = mine, before, threading.get_ident()

    def write(self, text):
        return (self.mine if threading.get_ident() == self.thread else self.before).write(text)

    def flush(self):
        (self.mine if threading.get_ident() == self.thread else self.before).flush()


def manage(*argv: str) -> tuple[int, str, str]:
    """`manage.py ARGV...` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = 0
    # A command closes the database connections when it ends, as a process would; here they are the test's. And
    # it sets Django up, as a new process needs: here that would configure logging again, binding the log's
    # handler to this call's stderr for the rest of the run (a live server's later warnings then went to a
    # closed file: «Logging error»). This process is set up already.
    with contextlib.redirect_stdout(ThisThreadOnly(out, sys.stdout)), \
            contextlib.redirect_stderr(ThisThreadOnly(err, sys.stderr)), \
            mock.patch.object(db_connections, "close_all"), mock.patch("django.setup"):
        try:
            ManagementUtility(["manage.py", *argv]).execute()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
    return code, out.getvalue(), err.getvalue()


def assert_refused(code: int, out: str, err: str) -> None:
    """Exit 2 and one clear line: no traceback, no value repeated in full."""
    assert code == 2, f"exit {code}: {err[-2000:]!r}"
    assert "Traceback" not in err and "Traceback" not in out
    assert err.endswith("\n") and err.count("\n") == 1, repr(err[-2000:])
    line = err.strip()
    assert line and "internal error" not in line
    assert "9" * 100 not in line and len(line) < 2500, line[:300]


def assert_contract(code: int, out: str, err: str) -> None:
    assert code in (0, 2), f"exit {code}: {err[-2000:]!r}"
    if code == 2:
        assert_refused(code, out, err)


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    files = {
        "binary.yaml": b"\xff\xfe\x00\x01\x89PNG\r\n\x1a\n" + bytes(range(256)),
        "nested.yaml": b"[" * 100_000,
        "nested.json": b"[" * 100_000,
        "big.yaml": f"scenario: {{id: x, name_ru: X}}\nrules: {{max_army_men: {BIG}}}\n".encode(),
        "bigger.yaml": f"n: {'9' * 5000}\n".encode(),
        "surrogate.yaml": b'scenario: {id: x, name_ru: "\\ud800"}\n',
        "empty.yaml": b"",
        "broken.zip": b"PK\x03\x04" + bytes(range(256)),
        "binary.json": b"\xff\xfe\x00\x01" + bytes(range(256)),
        "big.json": f'{{"format": {BIG}, "objects": [[[{BIG}]]]}}'.encode(),
    }
    for name, content in files.items():
        (folder / name).write_bytes(content)
    return folder


def hostile_argvs(files: pathlib.Path) -> dict[str, list[list[str]]]:
    """For each command, argument lists that must be refused (exit 2, one line)."""
    pdf = str(files / "out.pdf")
    return {
        "adjudicate": [["turn", str(files / "binary.json")], ["turn", str(files / "nested.json")],
                       ["battle", str(files / "missing.json")], [BIG, str(files / "nested.json")],
                       ["orda." + BIG, "-"], [SURROGATE, "-"], ["turn", str(files) + SURROGATE]],
        "load_scenario": [[str(files / "binary.yaml"), "--game", "B"], [str(files / "nested.yaml"), "--game", "N"],
                          [str(files / "big.yaml"), "--game", "Big"], [str(files / "bigger.yaml"), "--game", "B2"],
                          [str(files / "surrogate.yaml"), "--game", "S"], [str(files / "empty.yaml"), "--game", "E"],
                          [str(files / "broken.zip"), "--game", "Z"], [str(files / "binary.yaml"), "--game", "C", "--check"],
                          [str(files), "--game", "D"], [BIG, "--game", "X"], ["tiny", "--game", BIG],
                          ["tiny", "--game", SURROGATE], ["tiny", "--game", "Seed", "--seed", BIG],
                          ["tiny", "--game", "Seed", "--seed", "-1"], ["tiny", "--game", " "], ["tiny"], []],
        "verify_dice": [[BIG], ["²"], ["٣"], [SURROGATE], ["-1"], [""], []],
        "print_sheets": [[BIG, "--kind", "battle-sheets", "-o", pdf], ["²", "--kind", "protocols", "-o", pdf],
                         [SURROGATE, "--kind", "protocols", "-o", pdf],
                         ["Fuzz", "--kind", "protocols", "--turn", BIG, "-o", pdf],
                         ["Fuzz", "--kind", "protocols", "--turn", "1", "--battle", BIG, "-o", pdf],
                         ["Fuzz", "--kind", "battle-sheets", "--faction", BIG, "-o", pdf],
                         ["Fuzz", "--kind", "battle-sheets", "--faction", SURROGATE, "-o", pdf],
                         ["Fuzz", "--kind", BIG, "-o", pdf], ["Fuzz", "--kind", "order-forms", "--language", BIG,
                                                               "-o", pdf],
                         ["Fuzz", "--kind", "order-forms", "-o", str(files / "no-such-folder" / "x.pdf")],
                         ["Fuzz", "--kind", "order-forms", "-o", str(files)]],
        "setup_demo": [["--title", BIG], ["--title", SURROGATE], ["--title", ""], ["--title"]],
        "export_game": [[BIG, "-o", str(files / "g.json")], ["²", "-o", str(files / "g.json")],
                        [SURROGATE, "-o", str(files / "g.json")], ["Fuzz", "-o", str(files / "no-such-folder" / "g")],
                        ["Fuzz", "-o", str(files)], ["Fuzz"]],
        "import_game": [[str(files / "binary.json")], [str(files / "nested.json")], [str(files / "big.json")],
                        [str(files / "empty.yaml")], [str(files / "missing.json")], [str(files)], [BIG], [SURROGATE],
                        [str(files / "binary.json"), "--title", BIG]],
        "export_scenario": [[BIG, "-o", str(files / "s.yaml")], ["²", "-o", str(files / "s.yaml")],
                            [SURROGATE, "-o", str(files / "s.yaml")], ["Fuzz", "-o", str(files / "s.txt")],
                            ["Fuzz", "-o", str(files / "no-such-folder" / "s.yaml")], ["Fuzz", "-o", str(files)]],
        # rehearse starts servers and plays a night when it accepts its arguments: only refusals here.
        "rehearse": [["--turns", BIG], ["--turns", "0"], ["--tablets", "9"], ["--tables", "bogus"],
                     ["--tables", SURROGATE], ["--game", "no such game"], ["--game", SURROGATE],
                     ["--scenario", "no-such-scenario"], ["--seed", BIG], ["--seed", "-1"], ["--url", "ftp://x"],
                     ["--scenario", "tiny", "--game", "Fuzz"], ["--bogus"]],
        # rungame starts servers when it accepts its arguments: child processes, below.
        "rungame": [["--port", BIG], ["--port", "0"], ["--port", "65536"], ["--port", "²"], ["--web-workers", "0"],
                    ["--web-workers", BIG], ["--host", BIG], ["--host", SURROGATE], ["--host", "192.0.2.1"],
                    ["--bogus"]],
    }


def test_every_command_has_hostile_cases(hostile_files):
    assert COMMANDS == sorted(hostile_argvs(hostile_files)), "a new command needs its hostile inputs here"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "rungame"])
def test_hostile_arguments_and_files_exit_2_with_one_line(db, hostile_files, command):
    from larp.scenarios.loader import load_scenario

    load_scenario("tiny", title="Fuzz", seed=5)
    for argv in hostile_argvs(hostile_files)[command]:
        code, out, err = manage(command, *argv)
        assert_refused(code, out, err)


def _surrogate_id_cases():
    """(SYSTEM.MODE, case text) for every mode: a valid case of its system whose first id ends in an escaped
    lone surrogate ("\\ud800" is valid JSON, but not Unicode: it cannot be printed)."""
    found = []
    examples = {"military": sorted((ROOT / "tests" / "engine" / "contract").glob("*.case.json"))}
    for system in ("orda", "ordonnance", "red-plains", "tactical"):
        examples[system] = sorted((ROOT / "tests" / "rules" / "cases" / system).glob("**/*.case.json"))
    for system, module in systems.available().items():
        for mode in module.MODES:
            for path in examples[system][:3]:
                text = path.read_text(encoding="utf-8")
                ids = [v for d, k in _paths(json.loads(text)) if k in ("id", "unit", "player", "card")
                       and isinstance(v := d[k], str)]
                if ids:
                    found.append((f"{system}.{mode}", text.replace(json.dumps(ids[0]), json.dumps(ids[0])[:-1]
                                                                   + '\\ud800"')))
    return found


def test_an_id_with_a_lone_surrogate_is_refused_in_every_mode(tmp_path):
    cases = _surrogate_id_cases()
    assert {mode for mode, _ in cases} == {f"{s}.{m}" for s, mod in systems.available().items() for m in mod.MODES}
    for n, (mode, text) in enumerate(cases):
        path = tmp_path / f"{n}.json"
        path.write_text(text, encoding="utf-8")
        code, out, err = manage("adjudicate", mode, str(path))
        assert_refused(code, out, err)
        assert "surrogate" in err, (mode, err)


@SETTINGS
@given(command=st.sampled_from([c for c in COMMANDS if c not in ("rungame", "setup_demo", "rehearse")]),
       words=st.lists(st.one_of(WEIRD_TEXT, st.sampled_from(["--game", "--kind", "--turn", "--title", "--seed",
                                                                 "-o", "--faction", BIG, SURROGATE, "-"])),
                      max_size=5))
def test_random_arguments(db, command, words):
    """rungame and rehearse would start servers (and rehearse play a night: arguments it accepts, say none, are
    not a refusal), setup_demo writes the demo's logins under var/: their cases are above."""
    words = [w.replace("\x00", "") for w in words]
    assert_contract(*manage(command, *words))


@st.composite
def scenario_files(draw):
    doc = copy.deepcopy(TINY)
    for _ in range(draw(st.integers(1, 4))):
        spots = list(_paths(doc))
        if not spots:
            break
        container, key = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(["replace", "delete", "huge"]))
        if action == "replace":
            container[key] = draw(ANY_JSON)
        elif action == "delete":
            container.pop(key)
        else:
            container[key] = draw(HUGE)
    return yaml.safe_dump(doc, allow_unicode=True)


@SETTINGS
@given(text=scenario_files())
def test_random_scenario_files(db, tmp_path_factory, text):
    path = tmp_path_factory.mktemp("scenario") / "fuzz.yaml"
    path.write_text(text, encoding="utf-8")
    assert_contract(*manage("load_scenario", str(path), "--game", "Fuzzed"))


def run_child(*argv, timeout=60):
    """`manage.py ARGV...` as its own process (argv items may be bytes); its process group is ended after.
    DEBUG=1: rungame then gets past its SECRET_KEY check to the address checks."""
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="larp.settings_test", PYTHONIOENCODING="utf-8", DEBUG="1")
    proc = subprocess.Popen([sys.executable, "manage.py", *argv], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the group this test started, by its id
        proc.communicate()
        raise AssertionError(f"manage.py {argv!r} still running after {timeout} s")
    return proc.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def test_rungame_refuses_what_it_could_never_serve(hostile_files):
    for argv in hostile_argvs(hostile_files)["rungame"]:
        argv = [a.encode("utf-8", "surrogateescape") for a in argv]
        assert_refused(*run_child("rungame", *argv, timeout=30))


def test_from_the_shell(hostile_files):
    """The real thing: bytes that are not UTF-8 in argv, a binary file, deep nesting; exit 2, one line."""
    for argv in (["load_scenario", str(hostile_files / "binary.yaml"), "--game", "B"],
                 ["load_scenario", str(hostile_files / "nested.yaml"), "--game", "N"],
                 ["verify_dice", b"\xff\xfe"], ["adjudicate", b"turn\xff", "-"],
                 ["adjudicate", "turn", str(hostile_files / "binary.json")]):
        assert_refused(*run_child(*argv))


def test_what_another_thread_writes_meanwhile_is_not_the_commands_answer(capfd):
    """A live server's thread from an earlier test may log while a command runs here: its line is not the
    command's (it once made the one-line check above fail at random)."""
    started, wrote = threading.Event(), threading.Event()

    def other():
        started.wait(10)
        sys.stderr.write("another thread's warning\n")
        wrote.set()

    thread = threading.Thread(target=other)
    thread.start()
    split = systems.split

    def meanwhile(mode):
        started.set()
        wrote.wait(10)
        return split(mode)

    with mock.patch.object(systems, "split", side_effect=meanwhile):
        code, out, err = manage("adjudicate", "no-such.mode", "-")
    thread.join(10)
    assert wrote.is_set()
    assert_refused(code, out, err)
    assert "another thread" not in err
    assert "another thread" in capfd.readouterr().err
