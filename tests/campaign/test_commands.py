import io

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
    password = next(line.split()[-1] for line in logins.splitlines() if line.startswith("moderator"))
    assert get_user_model().objects.get(username="moderator").check_password(password)
    again = io.StringIO()
    call_command("setup_demo", stdout=again)
    assert "exists" in again.getvalue() and Game.objects.count() == 1
