"""The door of every «Ордонанс» act: each field checked, with a message in the user's language."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from larp.campaign.models import Faction

from .models import DeckList
from .words import SYMBOL_NAMES, SYMBOLS

REASON_ERRORS = {"required": _("Say why: the reason goes into the game log.")}


def symbol_choices():
    return [(s, SYMBOL_NAMES[s]) for s in SYMBOLS]


class NewTableForm(forms.Form):
    MODES = [("physical", _("Physical deck: the moderator enters each laid card")),
             ("virtual", _("Virtual deck: the server deals, players play on tablets"))]
    title = forms.CharField(label=_("Title"), max_length=200, error_messages={
        "required": _("Give the contest a title.")})
    mode = forms.ChoiceField(label=_("Deck"), choices=MODES, initial="physical", widget=forms.RadioSelect)
    deck = forms.ModelChoiceField(label=_("Deck list"), queryset=DeckList.objects.none(), required=False,
                                  empty_label=_("Unknown (the rules do not give the deck)"),
                                  error_messages={"invalid_choice": _("No such deck list in this game.")})
    announce = forms.ChoiceField(label=_("Winner announced"), initial="territories", widget=forms.RadioSelect,
                                 choices=[("territories", _("by territories")), ("points", _("by points"))])
    territory_names = forms.CharField(label=_("Territory names (one a line, optional)"), required=False,
                                      widget=forms.Textarea(attrs={"rows": 5}), max_length=1000)

    def __init__(self, *args, game=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields["deck"].queryset = DeckList.objects.filter(game=game)
        factions = [("", _("— no faction —"))] + [(str(f.pk), f.name) for f in Faction.objects.filter(game=game)]
        for i in range(1, 5):
            self.fields[f"player{i}"] = forms.CharField(label=_("Player %(n)s") % {"n": i}, max_length=120,
                                                        required=i <= 2, error_messages={
                                                            "required": _("A contest needs at least two players.")})
            self.fields[f"faction{i}"] = forms.ChoiceField(label=_("Faction"), choices=factions, required=False,
                                                           error_messages={"invalid_choice": _(
                                                               "That faction is not in this game.")})

    def clean_territory_names(self):
        lines = [line.strip()[:60] for line in self.cleaned_data["territory_names"].splitlines() if line.strip()]
        if len(lines) > 5:
            raise forms.ValidationError(_("There are five territories: give at most five names."))
        return lines + [""] * (5 - len(lines)) if lines else None

    def clean(self):
        data = super().clean()
        sides, seen = [], set()
        factions = {str(f.pk): f for f in Faction.objects.filter(game=self.game)}
        for i in range(1, 5):
            name = (data.get(f"player{i}") or "").strip()
            if not name:
                continue
            if name.lower() in seen:
                raise forms.ValidationError(_("Two players have the same name."))
            seen.add(name.lower())
            faction = factions.get(data.get(f"faction{i}") or "")
            sides.append((f"p{i}", name, faction))
        if len(sides) < 2:
            raise forms.ValidationError(_("A contest needs at least two players."))
        data["sides"] = sides
        if data.get("mode") == "virtual" and not data.get("deck"):
            raise forms.ValidationError(_("A virtual deck needs a deck list: enter one first."))
        return data


class LotForm(forms.Form):
    first_player = forms.CharField(required=False, max_length=40)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)

    def clean_first_player(self):
        value = self.cleaned_data["first_player"] or None
        if value is not None and value not in self.players:
            raise forms.ValidationError(_("There is no such player at this table."))
        return value


class PlayForm(forms.Form):
    """One laid card: the player, the territory, and its symbols (a physical table) or its card (a virtual deck)."""
    player = forms.CharField(max_length=40, error_messages={"required": _("Pick the player who lays the card.")})
    territory = forms.IntegerField(min_value=1, max_value=5, error_messages={
        "required": _("Pick the territory (1-5)."), "invalid": _("A territory is a number from 1 to 5."),
        "min_value": _("A territory is a number from 1 to 5."), "max_value": _("A territory is a number from 1 to 5.")})
    symbols = forms.MultipleChoiceField(required=False, choices=symbol_choices, error_messages={
        "invalid_choice": _("Unknown symbol."), "invalid_list": _("Unknown symbol.")})
    card = forms.CharField(required=False, max_length=64)
    correction = forms.CharField(required=False, max_length=500)   # a card out of turn, ruled with this reason

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)

    def clean_player(self):
        value = self.cleaned_data["player"]
        if value not in self.players:
            raise forms.ValidationError(_("There is no such player at this table."))
        return value


class TurnForm(forms.Form):
    to_move = forms.CharField(max_length=40, error_messages={"required": _("Pick the player whose turn it is.")})
    reason = forms.CharField(max_length=500, error_messages=REASON_ERRORS)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.players = list(players)

    def clean_to_move(self):
        value = self.cleaned_data["to_move"]
        if value not in self.players:
            raise forms.ValidationError(_("There is no such player at this table."))
        return value


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=500, error_messages=REASON_ERRORS)


def all_kinds() -> list[tuple[str, ...]]:
    """The 31 different cards C3 allows (one to five distinct symbols), fewer symbols first, then by rank."""
    from itertools import combinations
    return [combo for n in range(1, len(SYMBOLS) + 1) for combo in combinations(SYMBOLS, n)]


class DeckForm(forms.Form):
    """A deck list's name and the number of copies of each of the 31 possible cards (C3), all saved at once:
    0 (or empty) leaves the card out."""
    name = forms.CharField(label=_("Name"), max_length=120, error_messages={"required": _("Give the deck list a name.")})
    made_for_tests = forms.BooleanField(label=_("Made up for tests (not the published deck)"), required=False)

    def __init__(self, *args, existing: list | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        have = {tuple(s for s in SYMBOLS if s in c["symbols"]): c["count"] for c in existing or []}
        self.kinds = all_kinds()
        for kind in self.kinds:
            self.fields[self.key(kind)] = forms.IntegerField(
                required=False, min_value=0, max_value=200, initial=have.get(kind) or None,
                widget=forms.NumberInput(attrs={"min": 0, "max": 200, "inputmode": "numeric", "placeholder": "0"}),
                error_messages={
                    "invalid": _("The number of copies is a whole number from 0 to 200."),
                    "min_value": _("The number of copies is a whole number from 0 to 200."),
                    "max_value": _("The number of copies is a whole number from 0 to 200.")})

    @staticmethod
    def key(kind) -> str:
        return "k_" + "-".join(kind)

    def rows(self):
        """(the card's symbols as a strip, its count field), for every possible card."""
        return [([{"id": s, "name": str(SYMBOL_NAMES[s])} for s in kind], self[self.key(kind)]) for kind in self.kinds]

    def cards(self) -> list[dict]:
        return [{"symbols": list(kind), "count": self.cleaned_data[self.key(kind)]} for kind in self.kinds
                if self.cleaned_data.get(self.key(kind))]


class ImportForm(forms.Form):
    file = forms.FileField(required=False, label=_("YAML file"))
    text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 6}), label=_("or paste YAML"),
                           max_length=200_000)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > 200_000:
                raise forms.ValidationError(_("The file is too large for a deck list."))
            try:
                data["yaml"] = upload.read().decode("utf-8")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file must be text in UTF-8.")) from None
        else:
            data["yaml"] = data.get("text") or ""
        if not data["yaml"].strip():
            raise forms.ValidationError(_("Choose a YAML file or paste one."))
        return data
