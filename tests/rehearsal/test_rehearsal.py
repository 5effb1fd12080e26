"""A 2-turn rehearsal of the demo game (the default scenario) with all three table systems: bots through the real
pages, a real worker closing the deadline, one battle in three sent to a table — Red Plains, tactical rules and
«Орда» in turn — played there through its pages (the players' seats where the table gives them) to its rules' own
end and its result confirmed back, an «Ордонанс» contest played after each turn, every check run; any violation
fails the test with the report's lines."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from larp.rehearsal.checks import CHECKS

pytestmark = pytest.mark.worker

SEED = 7   # with it battles of each of the three systems go to tables within the two turns


def test_a_two_turn_rehearsal_of_the_demo_game_with_every_table_system_finds_no_violation(
        live_server, worker_factory, tmp_path):
    from larp.orda.models import DataSet
    from larp.tables.models import Table

    worker_factory("rehearsal")
    out, path = io.StringIO(), tmp_path / "night.json"
    try:
        call_command("rehearse", "--url", live_server.url, "--scenario", "latin-east-1204", "--turns", "2",
                     "--fast", "--seed", str(SEED), "--tables", "red-plains,tactical,orda", "--json", str(path),
                     stdout=out)
    except CommandError:
        pytest.fail("the rehearsal found violations:\n" + out.getvalue(), pytrace=False)
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["passed"] and report["violations"] == [] and report["turns"] == 2, out.getvalue()
    checked = report["checks"]
    assert set(checked) == set(CHECKS)
    for name in CHECKS:
        assert checked[name] >= 1, name
    assert checked["turn_equals_engine"] == 2 and checked["late_refused"] == 2
    for name in ("table_replay", "table_not_stuck", "fog"):
        assert checked[name] >= 3, name
    kinds = report["latency"]
    assert kinds["file order"]["n"] > 20 and "battle confirm (server dice)" in kinds and "regroup apply" in kinds
    assert "file order (resent after going offline)" in kinds and "file order (answer lost)" in kinds
    assert "PASSED" in out.getvalue()
    # The night's figures: a tablet's bytes on the wire; the server's CPU only for a server of its own.
    figures = report["figures"]
    assert 0 < figures["tablet_kb"] and 0 < figures["tablet_kb_per_minute"] < figures["tablet_kb"]
    assert "change_cpu_ms" not in figures and "not measured (a server of its own only" in out.getvalue()

    ended = report["tables_ended"]
    assert all(ended.get(system, 0) >= 1 for system in ("red-plains", "tactical", "orda")), ended
    for system in ("red-plains", "tactical", "orda"):
        assert f"bridge confirm ({system})" in kinds, system
    # Red Plains: the turn's steps, pressed by a player's seat too.
    assert "table execute (red-plains)" in kinds and "table confirm (red-plains)" in kinds
    seats = {a["seat"] for a in report["log"] if a["kind"].endswith("(red-plains)")}
    assert seats - {"moderator"}, "no player's seat acted at the Red Plains table"
    # Tactical rules: combat acts and the turn tracker's steps.
    assert "table next step (tactical)" in kinds, sorted(kinds)
    assert {"table clash (tactical)", "table melee (tactical)", "table volley (tactical)"} & set(kinds), sorted(kinds)
    # «Орда»: the data the war's battles lack entered through its pages; each table ended by the engine's own reason
    # (O22), not by a ruling, with its players pressing at it.
    for kind in ("table turn start (orda)", "table declare (orda)", "table counter (orda)", "table values (orda)",
                 "table page (orda, player)"):
        assert kind in kinds, kind
    game = report["game"]
    orda = Table.objects.filter(game_id=game, system="orda")
    assert orda.exists() and all(t.status == Table.FINISHED for t in orda)
    assert {t.result["ended_by"] for t in orda} <= {"cities_destroyed", "reserves_exhausted"}
    for t in orda:
        assert t.steps.filter(kind="turn_start").filter(user__memberships__role="player").exists()
    (ds,) = DataSet.objects.filter(game_id=game)
    assert ds.title.startswith("Репетиция")
    # «Ордонанс»: one virtual contest after each turn, played by the players' tablets to its end.
    contests = Table.objects.filter(game_id=game, system="ordonnance")
    assert contests.count() == 2 and ended.get("ordonnance", 0) == 2
    for contest in contests:
        assert contest.status == Table.FINISHED and contest.state["game_over"] and contest.setup["mode"] == "virtual"
        assert contest.steps.filter(kind="play").filter(user__memberships__role="player").exists()
    for kind in ("contest deal (ordonnance)", "contest play (ordonnance)", "contest page (ordonnance, player)"):
        assert kind in kinds, kind


def test_the_report_names_a_violation_with_its_seed_and_act():
    from larp.rehearsal.checks import Checks

    checks = Checks(seed=41)
    assert checks.check("fog", True, "fine", 3) and not checks.failed
    assert not checks.check("fog", False, "venice's tablet page shows nicaea-1", 12)
    assert checks.failed and checks.counts["fog"] == 2
    (v,) = checks.violations
    assert (v.check, v.act, v.seed) == ("fog", 12, 41) and "--seed 41" in v.steps() and "act 12" in v.steps()
    with pytest.raises(KeyError):
        checks.check("no such check", True, "", 1)


def test_orders_kept_expects_a_fleet_order_an_army_boarded_away_to_be_gone():
    """R5: an army boarding a fleet withdraws the fleet's order (the answer's fleet card says so), and leaving it
    later does not bring it back (seed 1 with 5 tablets: seat 1 orders nicaea-f1 at act 190, seat 2's nicaea-4
    lands by it at act 195, seat 5's nicaea-4 marches at act 209)."""
    from larp.rehearsal.checks import expected_orders
    from larp.rehearsal.tablets import Filing

    def filed(unit, act, saved=True, withdrawn=(), **picks):
        return Filing(unit, picks, f"key-{act}", act, 200 if saved else 422, saved, withdrawn=withdrawn)

    fleet = filed("nicaea-f1", 190, type="fleet_move", s1="levant_coast")
    boards = filed("nicaea-4", 195, type="landing", s1="levant_coast", s2="x", withdrawn=("nicaea-f1",))
    leaves = filed("nicaea-4", 209, type="march", s1="y")
    other = filed("nicaea-f2", 191, type="fleet_move", s1="z")
    refused = filed("nicaea-3", 196, saved=False, type="sea_attack", s1="z", s2="x", withdrawn=("nicaea-f2",))
    expected = expected_orders([fleet, boards, other, refused, leaves])
    assert expected["nicaea-f1"] == (fleet, boards)  # withdrawn: no order expected
    assert expected["nicaea-4"] == (leaves, None)
    assert expected["nicaea-f2"] == (other, None)  # a refused filing withdrew nothing
    assert "nicaea-3" not in expected
    # An order given to the fleet after it was withdrawn stands.
    again = filed("nicaea-f1", 225, type="fleet_move", s1="levant_coast")
    assert expected_orders([fleet, boards, leaves, again])["nicaea-f1"] == (again, None)


def test_its_own_stack_counts_the_cpu_of_its_processes_and_theirs():
    """The server's CPU over a phase change is read from /proc for the stack's processes and their children
    (gunicorn's workers, Celery's pool): a child busy for a moment shows in it."""
    import subprocess
    import sys
    import time

    from larp.rehearsal.runner import Stack

    busy = "import time\nend = time.process_time() + 0.6\nwhile time.process_time() < end: pass\ntime.sleep(5)"
    parent = subprocess.Popen([sys.executable, "-c", f"import subprocess, sys; subprocess.run([sys.executable, "
                                                     f"'-c', {busy!r}])"])
    try:
        stack = Stack.__new__(Stack)  # its processes only, no server started
        stack.children = [parent]
        end = time.monotonic() + 30  # the grandchild's 0.6 s of CPU, however busy the machine
        while stack.cpu_seconds() < 0.5 and time.monotonic() < end:
            time.sleep(0.2)
        assert stack.cpu_seconds() >= 0.5
    finally:
        parent.kill()
        parent.wait()
