"""The door of the tablet's posts: the order form, a new player, a spy report. Each field is checked for shape
here, with a message in the user's language; whether an order is legal is the engine's to say, whether a
login is free the service's."""
from django import forms
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction, Game

PICK = {"max_length": _("No such choice: choose from the list."),
        "null_characters_not_allowed": _("No such choice: choose from the list.")}


class LooseText(forms.Field):
    """Text passed on as sent: the confirmation key, which only matches nothing when it is not one."""

    def to_python(self, value):
        return value if isinstance(value, str) else ""


class OrderPicksForm(forms.Form):
    """What the tablet's order form picked: a type, up to three steps in order, a fleet; and its key."""
    type = forms.CharField(max_length=20, required=False, strip=False, error_messages={
        "max_length": _("Choose an order type."), "null_characters_not_allowed": _("Choose an order type.")})
    s1 = forms.CharField(max_length=60, required=False, strip=False, error_messages=PICK)
    s2 = forms.CharField(max_length=60, required=False, strip=False, error_messages=PICK)
    s3 = forms.CharField(max_length=60, required=False, strip=False, error_messages=PICK)
    fleet = forms.CharField(max_length=60, required=False, strip=False, error_messages=PICK)
    key = LooseText(required=False)

    def picks(self) -> dict:
        d = self.cleaned_data
        path = []
        for name in ("s1", "s2", "s3"):
            if not d.get(name):
                break
            path.append(d[name])
        return {"type": d.get("type", ""), "path": path, "fleet": d.get("fleet") or None}

    def error_text(self) -> str:
        return " ".join(str(m) for errors in self.errors.values() for m in errors)


class _GameFactionForm(forms.Form):
    """A form naming one faction of `game` by its code."""
    faction_field = "faction"
    faction_message = _("Choose a faction of this game.")

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game

    def _faction(self, code: str) -> Faction:
        faction = Faction.objects.filter(game=self.game, code=code).first()
        if faction is None:
            raise forms.ValidationError(self.faction_message, code="invalid_choice")
        return faction

    def error_text(self) -> str:
        return " ".join(str(m) for errors in self.errors.values() for m in errors)


def _code_field(message) -> forms.CharField:
    return forms.CharField(max_length=60, error_messages={
        "required": message, "max_length": message, "null_characters_not_allowed": message})


class AddPlayerForm(_GameFactionForm):
    faction = _code_field(_("Choose a faction of this game."))
    name = forms.CharField(max_length=150, error_messages={
        "required": _("Give the player's name: it is how moderators and other players see them."),
        "max_length": _("The name is too long: at most 150 characters."),
        "null_characters_not_allowed": _("The name has a character that cannot be saved: type it again.")})
    username = forms.CharField(max_length=150, error_messages={
        "required": _("Give the player a login."),
        "max_length": _("The login is too long: at most 150 characters."),
        "null_characters_not_allowed": _("A login may contain letters, digits and @/./+/-/_ only.")})

    def clean_faction(self):
        return self._faction(self.cleaned_data["faction"])


class SpyReportForm(_GameFactionForm):
    faction_message = _("Choose the faction that gets the report.")
    to_faction = _code_field(_("Choose the faction that gets the report."))
    stack = forms.CharField(max_length=80, error_messages={
        "required": _("Choose a stack on the map."), "max_length": _("Choose a stack on the map."),
        "null_characters_not_allowed": _("Choose a stack on the map.")})

    def clean_to_faction(self):
        return self._faction(self.cleaned_data["to_faction"])
