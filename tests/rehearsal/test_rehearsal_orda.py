"""A 1-turn rehearsal with battles sent to «Орда» tables and an «Ордонанс» contest alongside: the moderator enters the
data set the war's battles lack through its pages, the players' tablets play the tables and the contest to their
end, every check runs; any violation fails the test with the report's lines."""
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

pytestmark = pytest.mark.worker

SEED = 7      # its first turn sends battles to an Orda table (the moderator's rng sends one battle in three)


def test_a_rehearsal_plays_orda_tables_and_an_ordonnance_contest_to_their_end(live_server, worker_factory, tmp_path):
    from larp.orda.models import DataSet
    from larp.tables.models import Table

    worker_factory("rehearsal")
    out, path = io.StringIO(), tmp_path / "night.json"
    try:
        call_command("rehearse", "--url", live_server.url, "--scenario", "latin-east-1204", "--turns", "1",
                     "--fast", "--seed", str(SEED), "--tables", "orda", "--json", str(path), stdout=out)
    except CommandError:
        pytest.fail("the rehearsal found violations:\n" + out.getvalue(), pytrace=False)
    report = json.loads(path.read_text(encoding="utf-8"))
    assert report["passed"] and report["violations"] == [] and report["turns"] == 1
    assert report["tables_ended"].get("orda", 0) >= 1 and report["tables_ended"].get("ordonnance", 0) == 1
    for name in ("table_replay", "table_not_stuck", "fog"):
        assert report["checks"][name] >= 1, name
    kinds = report["latency"]
    for kind in ("table turn start (orda)", "table declare (orda)", "table counter (orda)", "table values (orda)",
                 "bridge confirm (orda)", "contest deal (ordonnance)", "contest play (ordonnance)",
                 "contest page (ordonnance, player)", "table page (orda, player)"):
        assert kind in kinds, kind

    game = report["game"]
    orda = Table.objects.filter(game_id=game, system="orda")
    assert orda.exists() and all(t.status == Table.FINISHED for t in orda)
    # Each ended by the engine's own reason (O22), not by a ruling, and its players pressed at the table.
    assert {t.result["ended_by"] for t in orda} <= {"cities_destroyed", "reserves_exhausted"}
    for t in orda:
        assert t.steps.filter(kind="turn_start").filter(user__memberships__role="player").exists()
    (ds,) = DataSet.objects.filter(game_id=game)          # entered through the data set's pages
    assert ds.title.startswith("Репетиция")
    (contest,) = Table.objects.filter(game_id=game, system="ordonnance")
    assert contest.status == Table.FINISHED and contest.state["game_over"] and contest.setup["mode"] == "virtual"
    assert contest.steps.filter(kind="play").filter(user__memberships__role="player").exists()
