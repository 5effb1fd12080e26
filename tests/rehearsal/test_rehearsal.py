"""A 2-turn rehearsal of the demo game (the default scenario): bots through the real pages, a real worker
closing the deadline, one battle in three sent to a tactical-rules table and its result confirmed back, every
check run; any violation fails the test with the report's lines."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from larp.rehearsal.checks import CHECKS

pytestmark = pytest.mark.worker


def test_a_two_turn_rehearsal_of_the_demo_game_finds_no_violation(live_server, worker_factory, tmp_path):
    worker_factory("rehearsal")
    out, path = io.StringIO(), tmp_path / "night.json"
    try:
        call_command("rehearse", "--url", live_server.url, "--scenario", "latin-east-1204", "--turns", "2",
                     "--fast", "--seed", "7", "--tables", "tactical", "--json", str(path), stdout=out)
    except CommandError:
        pytest.fail("the rehearsal found violations:\n" + out.getvalue(), pytrace=False)
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["passed"] and report["violations"] == [] and report["turns"] == 2
    checked = report["checks"]
    assert set(checked) == set(CHECKS)
    for name in CHECKS:
        assert checked[name] >= 1, name
    assert checked["turn_equals_engine"] == 2 and checked["late_refused"] == 2
    kinds = report["latency"]
    assert kinds["file order"]["n"] > 20 and "battle confirm (server dice)" in kinds and "regroup apply" in kinds
    assert report["tables_ended"].get("tactical", 0) >= 1 and "bridge confirm (tactical)" in kinds
    assert "PASSED" in out.getvalue()


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
