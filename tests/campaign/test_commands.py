import io
import re

from django.contrib.auth import get_user_model
from django.core.management import call_command

from larp.campaign.models import Game, Membership


def test_setup_demo_creates_game_and_logins_once(db, settings, tmp_path):
    settings.VAR_DIR = tmp_path
    out = io.StringIO()
    call_command("setup_demo", stdout=out)
    text = out.getvalue()
    game = Game.objects.get()
    assert game.factions.count() == 11
    assert Membership.objects.filter(game=game, role="player").count() == 11
    assert Membership.objects.filter(game=game, role="moderator").count() == 1
    logins = (tmp_path / "demo-logins.txt").read_text(encoding="utf-8")
    assert "moderator" in text and "latin_empire" in logins and "Венеция" in logins
    # The printed password works.
    rows = [line for line in logins.splitlines()[2:] if line]
    moderator = next(line for line in rows if line.split()[1] == "moderator")
    password = moderator.split()[2]
    # Every row has its columns at the same places, the moderator's too, with the person's name.
    assert moderator.startswith("Модератор") and moderator.endswith("Ирина Соколова")
    starts = {tuple(m.start() for m in re.finditer(r"(?<=  )\S", line))[:3] for line in rows}
    assert len(starts) == 1, rows
    assert get_user_model().objects.get(username="moderator").check_password(password)
    again = io.StringIO()
    call_command("setup_demo", stdout=again)
    assert "exists" in again.getvalue() and Game.objects.count() == 1
