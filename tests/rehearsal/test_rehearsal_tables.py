"""A short rehearsal whose battles go to Red Plains and tactical-rules tables: each table played through its pages
(the players' seats where the table gives them) to its rules' own end, its result confirmed back, and every check
— the tables' replay, not-stuck and fog among them — without a violation."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.worker

SEED = 7   # with it a battle of each system goes to a table within the two turns


def test_red_plains_and_tactical_tables_are_played_to_their_end(live_server, worker_factory, tmp_path):
    worker_factory("rehearsal")
    out, path = io.StringIO(), tmp_path / "night.json"
    try:
        call_command("rehearse", "--url", live_server.url, "--scenario", "latin-east-1204", "--turns", "2",
                     "--fast", "--seed", str(SEED), "--tables", "red-plains,tactical", "--json", str(path),
                     stdout=out)
    except CommandError:
        pytest.fail("the rehearsal found violations:\n" + out.getvalue(), pytrace=False)
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["passed"] and report["violations"] == [], out.getvalue()
    ended = report["tables_ended"]
    assert ended.get("red-plains", 0) >= 1 and ended.get("tactical", 0) >= 1, ended
    kinds = report["latency"]
    assert "bridge confirm (red-plains)" in kinds and "bridge confirm (tactical)" in kinds
    assert "table execute (red-plains)" in kinds and "table confirm (red-plains)" in kinds
    assert "table next step (tactical)" in kinds, sorted(kinds)
    assert {"table clash (tactical)", "table melee (tactical)", "table volley (tactical)"} & set(kinds), sorted(kinds)
    seats = {a["seat"] for a in report["log"] if a["kind"].endswith("(red-plains)")}
    assert seats - {"moderator"}, "no player's seat acted at the Red Plains table"
    for name in ("table_replay", "table_not_stuck", "fog"):
        assert report["checks"][name] >= 2, name
