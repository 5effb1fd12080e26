"""Forms at the door of every page of a «Тактические правила» table: nothing reaches a service unchecked."""
from __future__ import annotations

import math
import re

from django import forms
from django.utils.translation import gettext_lazy as _

from larp.tactical import situation as sit
from larp.tactical.labels import (COLUMNS, DIRECTIONS, DISORDER_CAUSES, END_REASONS, STAGES, TEST_KINDS, card_name,
                                  cell_name, name)

SPECIALTY = [("4", _("good (4)")), ("3", _("regular (3)")), ("2", _("poor (2)"))]
STEADINESS = [("4", _("veteran (4)")), ("3", _("regular (3)")), ("2", _("recruit (2)"))]
MELEE = [("2", "2"), ("3", "3"), ("4", "4")]
DICE_RE = re.compile(r"^[1-6](?:[\s,]+[1-6])*$")


def _choices(section: str, with_none: str | None = None) -> list:
    keys = list(sit.RULES[section].keys())
    out = [("", with_none)] if with_none is not None else []
    return out + [(k, name(section, k)) for k in keys]


def parse_dice(text: str) -> list[int]:
    text = (text or "").strip()
    if not text:
        return []
    if not DICE_RE.match(text):
        raise forms.ValidationError(_("Dice are numbers from 1 to 6, separated by spaces."))
    dice = [int(d) for d in re.split(r"[\s,]+", text)]
    if len(dice) > sit.MAX_DICE:
        raise forms.ValidationError(_("Too many dice."))
    return dice


class NewTableForm(forms.Form):
    title = forms.CharField(label=_("Title"), max_length=200)
    side_a = forms.ChoiceField(label=_("First side"))
    side_b = forms.ChoiceField(label=_("Second side"))
    list_a = forms.ChoiceField(label=_("Army list of the first side"))
    list_b = forms.ChoiceField(label=_("Army list of the second side"))
    points_limit = forms.IntegerField(label=_("Agreed points limit"), min_value=50, max_value=5000,
                                      initial=sit.DEFAULT_LIMIT)

    def __init__(self, *args, factions=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.factions = {str(f.pk): f for f in factions}
        choices = [(str(f.pk), f.name) for f in factions]
        self.fields["side_a"].choices = choices
        self.fields["side_b"].choices = choices
        lists = [(a["id"], a.get("name_ru") or a["id"]) for a in sit.army_lists()]
        self.fields["list_a"].choices = lists
        self.fields["list_b"].choices = lists

    def clean(self):
        data = super().clean()
        if data.get("side_a") and data.get("side_a") == data.get("side_b"):
            raise forms.ValidationError(_("The two sides must be different factions."))
        return data


class ArmyListForm(forms.Form):
    army_list = forms.ChoiceField(label=_("Army list (period)"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["army_list"].choices = [(a["id"], a.get("name_ru") or a["id"]) for a in sit.army_lists()]


class UnitForm(forms.Form):
    name = forms.CharField(label=_("Unit name"), max_length=60)
    entry = forms.ChoiceField(label=_("Troop type"))
    specialty = forms.ChoiceField(label=_("Specialty"), choices=SPECIALTY, initial="3")
    steadiness = forms.ChoiceField(label=_("Steadiness"), choices=STEADINESS, initial="3")
    melee = forms.ChoiceField(label=_("Melee"), choices=MELEE, initial="2")
    weapon = forms.ChoiceField(label=_("Weapon"), required=False)
    armour = forms.ChoiceField(label=_("Armour"), required=False)
    shield = forms.ChoiceField(label=_("Shield"), required=False)
    horse_armour = forms.ChoiceField(label=_("Horse armour"), required=False)
    javelin = forms.BooleanField(label=_("Javelins"), required=False)
    formation = forms.ChoiceField(label=_("Formation"))
    count = forms.IntegerField(label=_("Figures"), min_value=1, max_value=150)

    def __init__(self, *args, army_list: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.list_id = army_list
        lst = sit.army_list(army_list) or {"entries": []}
        self.fields["entry"].choices = [(e["id"], e.get("ru") or e["id"]) for e in lst["entries"]]
        weapons = [("", _("sword / none"))] + [(k, name("weapons", k)) for k in sit.RULES["weapons"]
                                              if k != "javelin"]
        self.fields["weapon"].choices = weapons
        prot = list(sit.RULES["protection"].keys())
        self.fields["armour"].choices = [("", _("none"))] + [(k, name("protection", k)) for k in prot
                                                             if k.endswith("armour") and not k.startswith("horse")]
        self.fields["shield"].choices = [("", _("none"))] + [(k, name("protection", k)) for k in prot
                                                             if k.endswith("shield")]
        self.fields["horse_armour"].choices = [("", _("none"))] + [(k, name("protection", k)) for k in prot
                                                                   if k.startswith("horse")]
        self.fields["formation"].choices = _choices("formations")

    def unit(self, uid: str) -> dict:
        d = self.cleaned_data
        entry = sit.entry_of(self.list_id, d["entry"])
        category = sit.RULES["categories"][entry["category"]]
        has_specialty = "specialty" in category["stat_order"]
        front = sit.data.front(sit.RULES, d["formation"], category["mounted"])
        return {"id": uid, "name": d["name"].strip(), "entry": d["entry"],
                "specialty": int(d["specialty"]) if has_specialty else None,
                "melee": int(d["melee"]), "steadiness": int(d["steadiness"]),
                "weapon": d["weapon"] or None, "armour": d["armour"] or None, "shield": d["shield"] or None,
                "horse_armour": d["horse_armour"] or None, "javelin": bool(d["javelin"]),
                "formation": d["formation"], "count": d["count"],
                "bases": max(1, math.ceil(d["count"] / (3 * front)))}


class GeneralForm(forms.Form):
    name = forms.CharField(label=_("General's name"), max_length=60)
    entry = forms.ChoiceField(label=_("Troop type of his qualities"))
    unit = forms.ChoiceField(label=_("Leads the unit"), required=False)
    type = forms.ChoiceField(label=_("General"), choices=[("regular", _("regular")), ("irregular", _("irregular"))])
    c_in_c = forms.BooleanField(label=_("Commander-in-chief"), required=False)
    mercenary = forms.BooleanField(label=_("Mercenary"), required=False)
    method = forms.ChoiceField(label=_("Talents"), choices=[("roll", _("rolled")), ("points", _("bought"))])
    t_steadiness = forms.IntegerField(label=_("Steadiness talent"), min_value=-1, max_value=2, required=False)
    t_melee = forms.IntegerField(label=_("Melee talent"), min_value=-1, max_value=2, required=False)
    t_specialty = forms.IntegerField(label=_("Specialty talent"), min_value=-1, max_value=2, required=False)
    dice = forms.CharField(label=_("Dice rolled at the table"), required=False, max_length=40,
                           help_text=_("Leave empty to let the server roll."))

    def __init__(self, *args, army_list: str, units=(), **kwargs):
        super().__init__(*args, **kwargs)
        lst = sit.army_list(army_list) or {"entries": []}
        self.fields["entry"].choices = [(e["id"], e.get("ru") or e["id"]) for e in lst["entries"]]
        self.fields["unit"].choices = [("", _("none"))] + [(u["id"], u["name"]) for u in units]

    def clean_dice(self):
        return parse_dice(self.cleaned_data.get("dice"))

    def general(self, gid: str) -> dict:
        d = self.cleaned_data
        g = {"id": gid, "name": d["name"].strip(), "type": d["type"], "mercenary": bool(d["mercenary"]),
             "c_in_c": bool(d["c_in_c"]), "entry": d["entry"], "method": d["method"], "dice": [],
             "unit": d["unit"] or None}
        if d["method"] == "points":
            g["talents"] = {"steadiness": d.get("t_steadiness") or 0, "melee": d.get("t_melee") or 0,
                            "specialty": d.get("t_specialty") or 0}
        return g


class RemoveForm(forms.Form):
    item = forms.CharField(max_length=20)


ITEM_RE = re.compile(r"^[A-Za-z0-9_-]{1,20}$")


class UnitEditForm(UnitForm):
    """A unit of the army changed in the builder: the builder's own unit form, one per unit (its prefix names the
    unit, so a refused edit comes back filled on the right unit)."""

    def __init__(self, data=None, *, army_list: str, item: str, **kwargs):
        self.item = item if ITEM_RE.match(item or "") else ""
        super().__init__(data, army_list=army_list, prefix=f"e-{self.item}", **kwargs)

    def clean(self):
        d = super().clean()
        if not self.item:
            raise forms.ValidationError(_("No such unit or general."))
        return d


class SaveRosterForm(forms.Form):
    name = forms.CharField(label=_("Save the army as"), max_length=80)


class LoadRosterForm(forms.Form):
    roster = forms.ChoiceField(label=_("Saved army"), error_messages={
        "invalid_choice": _("No such saved army: choose one from the list.")})

    def __init__(self, *args, rosters=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roster"].choices = [(str(r.pk), r.name) for r in rosters]


class ImportArmyForm(forms.Form):
    file = forms.FileField(label=_("Army file (JSON)"), error_messages={
        "required": _("Choose the army's file."), "empty": _("The file is empty.")})


class ConditionsForm(forms.Form):
    sun_in_face = forms.ChoiceField(label=_("Sun in the face of"), required=False)
    wind = forms.ChoiceField(label=_("Wind"), required=False,
                             choices=[("", _("calm")), ("weak", _("weak wind")), ("strong", _("strong wind"))])
    wind_in_face = forms.ChoiceField(label=_("Wind in the face of"), required=False)
    rain = forms.BooleanField(label=_("Rain"), required=False)
    fog = forms.BooleanField(label=_("Fog"), required=False)
    terrain = forms.MultipleChoiceField(label=_("Terrain pieces on the table"), required=False,
                                        widget=forms.CheckboxSelectMultiple)
    fortified = forms.ChoiceField(label=_("In fortifications (T16.2)"), required=False,
                                  error_messages={"invalid_choice": _("No such side.")})

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = [s.key for s in sides]
        choices = [("", _("nobody"))] + [(s.key, s.name) for s in sides]
        self.fields["sun_in_face"].choices = choices
        self.fields["wind_in_face"].choices = choices
        self.fields["fortified"].choices = choices
        self.fields["terrain"].choices = _choices("terrain_elements")

    def terrain_on_table(self) -> list:
        """The terrain pieces, and the side standing in fortifications (a storm's walls, docs/bridge.md)."""
        d = self.cleaned_data
        return list(d["terrain"]) + ([{"piece": sit.FORTIFICATIONS, "side": d["fortified"]}] if d["fortified"] else [])

    def conditions(self) -> dict:
        d = self.cleaned_data
        out = {"rain": bool(d["rain"]), "fog": bool(d["fog"]),
               "sun_in_face": [d["sun_in_face"]] if d["sun_in_face"] else []}
        if d["wind"] and d["wind_in_face"]:
            back = [k for k in self.sides if k != d["wind_in_face"]]
            out["wind"] = {"strength": d["wind"], "in_face": [d["wind_in_face"]], "at_back": back}
        return out


class UnitSelect(forms.Select):
    """A unit picker whose options say which units are fleeing (`data-fleeing`), so the page offers a steadiness
    test only to units that may take one (static/js/tactical.js); the form refuses it all the same."""

    fleeing: frozenset = frozenset()

    def create_option(self, name, value, label, selected, index, subindex=None, attrs=None):
        option = super().create_option(name, value, label, selected, index, subindex, attrs)
        if value in self.fleeing:
            option["attrs"]["data-fleeing"] = "1"
        return option


class ActionForm(forms.Form):
    KINDS = [("clash", _("Clash")), ("melee", _("Melee")), ("volley", _("Volley")),
             ("exchange", _("Exchange of fire")), ("test", _("Test"))]
    kind = forms.ChoiceField(label=_("Action"), choices=KINDS)
    attacker = forms.ChoiceField(label=_("Attacking unit / shooter / tested unit"), required=False)
    defender = forms.ChoiceField(label=_("Attacked unit / target"), required=False)
    attacked_from = forms.ChoiceField(label=_("Attacked in"), required=False,
                                      choices=[(k, v) for k, v in DIRECTIONS.items()])
    counter = forms.BooleanField(label=_("Counter-attack declared"), required=False)
    melee_units = forms.MultipleChoiceField(label=_("Units in the melee"), required=False,
                                            widget=forms.CheckboxSelectMultiple)
    distance_cm = forms.IntegerField(label=_("Distance, cm"), min_value=0, max_value=500, required=False)
    cover = forms.BooleanField(label=_("Target in cover"), required=False)
    defensive = forms.BooleanField(label=_("Defensive fire"), required=False)
    test_kind = forms.ChoiceField(label=_("Test"), required=False, choices=[(k, v) for k, v in TEST_KINDS.items()])
    cause = forms.ChoiceField(label=_("What disorders it"), required=False,
                              choices=[(k, v) for k, v in DISORDER_CAUSES.items()])
    stage = forms.ChoiceField(label=_("Which move"), required=False, choices=[(k, v) for k, v in STAGES.items()])
    target_1 = forms.ChoiceField(label=_("The nearest enemy unit in sight"), required=False)
    target_2 = forms.ChoiceField(label=_("The second nearest"), required=False)
    target_3 = forms.ChoiceField(label=_("The third nearest"), required=False)
    shoots = forms.BooleanField(label=_("It shoots and an enemy is in range"), required=False)
    advantageous = forms.BooleanField(label=_("Advantageous position (a hill, an obstacle in front, fortifications)"),
                                      required=False)
    shot_with_losses = forms.BooleanField(label=_("Has been shot at with losses in this battle"), required=False)
    killed = forms.IntegerField(label=_("Killed this round"), min_value=0, max_value=200, required=False)
    broken = forms.BooleanField(label=_("Broken through"), required=False)
    in_command = forms.BooleanField(label=_("Within the general's command"), required=False)
    modifier = forms.IntegerField(label=_("Moderator's modifier to the strikes of the first unit"), min_value=-3,
                                  max_value=3, required=False)
    modifier_reason = forms.CharField(label=_("Why"), required=False, max_length=120)
    hand_dice = forms.CharField(label=_("Dice rolled at the table"), required=False, max_length=1200)
    server_rest = forms.BooleanField(label=_("The server rolls the dice not typed in"), required=False)

    def __init__(self, *args, units=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(u["id"], u["label"]) for u in units]
        self.fields["attacker"].choices = choices
        self.fields["attacker"].widget = UnitSelect(choices=choices)
        self.fields["attacker"].widget.fleeing = frozenset(u["id"] for u in units if u.get("fleeing"))
        self.fields["defender"].choices = choices
        for n in ("target_1", "target_2", "target_3"):
            self.fields[n].choices = choices
        self.fields["melee_units"].choices = choices[1:]
        self.units = {u["id"]: u for u in units}

    def clean_hand_dice(self):
        return parse_dice(self.cleaned_data.get("hand_dice"))

    def clean(self):
        d = super().clean()
        if self.errors:
            return d
        kind, a, b = d["kind"], d.get("attacker"), d.get("defender")
        need_two = kind in ("clash", "volley", "exchange")
        if need_two and (not a or not b or a == b):
            raise forms.ValidationError(_("Choose two different units."))
        if need_two and self.units[a]["side"] == self.units[b]["side"]:
            raise forms.ValidationError(_("The two units must be of different sides."))
        if kind in ("volley", "exchange") and d.get("distance_cm") is None:
            raise forms.ValidationError(_("Give the distance between the units."))
        if kind == "melee":
            ids = d.get("melee_units") or []
            if len({self.units[i]["side"] for i in ids}) != 2:
                raise forms.ValidationError(_("Tick the units of both sides in the melee."))
        if kind == "test" and d.get("test_kind") not in ("initiative", None, "") and not a:
            raise forms.ValidationError(_("Choose the unit that tests."))
        if kind == "test" and d.get("test_kind") == "loyalty" and a and not self.units[a].get("mercenary"):
            raise forms.ValidationError(_("Choose a unit led by a mercenary general."))
        if kind == "test" and d.get("test_kind") == "disorderly":
            targets = [d.get(n) for n in ("target_1", "target_2", "target_3") if d.get(n)]
            if len(set(targets)) != len(targets) or any(self.units[t]["side"] == self.units[a]["side"]
                                                           for t in targets):
                raise forms.ValidationError(_("Name different enemy units as the nearest ones, nearest first."))
        if kind == "test" and d.get("test_kind") == "unit" and self.units[a].get("fleeing"):
            raise forms.ValidationError(_("A fleeing unit takes no steadiness test: choose «Rallying fleeing troops»."))
        if d.get("modifier") and not (d.get("modifier_reason") or "").strip():
            raise forms.ValidationError(_("Say why the modifier applies."))
        return d

    def engine_kind(self) -> str:
        return {"volley": "shooting", "exchange": "shooting"}.get(self.cleaned_data["kind"],
                                                                  self.cleaned_data["kind"])

    def payload(self, state: dict) -> dict:
        d = self.cleaned_data
        kind, a, b = d["kind"], d.get("attacker"), d.get("defender")
        mods = []
        first = a or (d.get("melee_units") or [None])[0]
        if d.get("modifier") and first:
            mods.append({"unit": first, "roll": "strike", "value": d["modifier"],
                         "reason": d["modifier_reason"].strip()[:120]})
        if kind == "clash":
            return {"clash": {"attacker": a, "defender": b, "attacked_from": d.get("attacked_from") or "front",
                              "counter": bool(d.get("counter"))}, "modifiers": mods}
        if kind == "melee":
            return {"melee": {"units": list(d["melee_units"]),
                              "attacked_from": ({} if (d.get("attacked_from") or "front") == "front" else
                                                {d["melee_units"][-1]: d["attacked_from"]})}, "modifiers": mods}
        if kind in ("volley", "exchange"):
            volley = {"shooter": a, "target": b, "distance_cm": d["distance_cm"], "cover": bool(d.get("cover")),
                      "defensive": bool(d.get("defensive")), "target_line_first_rank": None}
            volleys = [volley]
            if kind == "exchange":
                volleys.append({**volley, "shooter": b, "target": a, "defensive": False})
            return {"shooting": {"exchange": kind == "exchange", "volleys": volleys}, "modifiers": mods}
        test = sit.test_case(state, d["test_kind"], a, {
            "killed": d.get("killed"), "broken": d.get("broken"), "in_command": d.get("in_command"),
            "attacked_from": d.get("attacked_from"), "cause": d.get("cause"), "stage": d.get("stage"),
            "candidates": [d.get(n) for n in ("target_1", "target_2", "target_3")], "shoots": d.get("shoots"),
            "advantageous": d.get("advantageous"), "shot_with_losses": d.get("shot_with_losses")})
        return {"test": test, "unit": a if d["test_kind"] != "initiative" else None}


class OverrideForm(forms.Form):
    unit = forms.ChoiceField(label=_("Unit"), error_messages={
        "invalid_choice": _("No such unit at this table: choose one from the list.")})
    formation = forms.ChoiceField(label=_("Formation"), required=False, error_messages={
        "invalid_choice": _("No such formation: choose one from the list.")})
    figures = forms.IntegerField(label=_("Figures"), min_value=1, max_value=200, required=False)
    disordered = forms.IntegerField(label=_("Of them disordered"), min_value=0, max_value=200, required=False)
    state = forms.ChoiceField(label=_("State"), required=False, choices=[
        ("", _("unchanged")), ("steady", _("in good order")), ("fleeing", _("fleeing")),
        ("in_melee", _("in melee")), ("destroyed", _("destroyed / off the field")),
        ("back", _("back on the field"))])
    general_lost = forms.BooleanField(label=_("The general is lost"), required=False)
    specialty = forms.IntegerField(label=_("Specialty"), min_value=0, max_value=6, required=False)
    melee = forms.IntegerField(label=_("Melee"), min_value=0, max_value=6, required=False)
    steadiness = forms.IntegerField(label=_("Steadiness"), min_value=0, max_value=6, required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, units=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["unit"].choices = [(u["id"], u["label"]) for u in units]
        self.fields["formation"].choices = [("", _("unchanged"))] + _choices("formations")

    def clean_reason(self):
        reason = (self.cleaned_data.get("reason") or "").strip()
        if not reason:
            raise forms.ValidationError(_("Say why."))
        return reason

    def changes(self) -> dict:
        d = self.cleaned_data
        ch: dict = {}
        if d.get("formation"):
            ch["formation"] = d["formation"]
        if d.get("figures"):
            ch["figures"] = d["figures"]
            ch["disordered"] = min(d.get("disordered") or 0, d["figures"])
        st = d.get("state")
        if st == "steady":
            ch.update(fleeing=False, in_melee=False)
        elif st == "fleeing":
            ch.update(fleeing=True, in_melee=False)
        elif st == "in_melee":
            ch.update(in_melee=True, fleeing=False)
        elif st == "destroyed":
            ch["destroyed"] = True
        elif st == "back":
            ch["destroyed"] = False
        if d.get("general_lost"):
            ch["general_lost"] = True
        stats = {k: d[k] for k in ("specialty", "melee", "steadiness") if d.get(k) is not None}
        if stats:
            ch["stats"] = stats
        if not ch:
            raise forms.ValidationError(_("Nothing to change."))
        return ch


class EditUnitForm(OverrideForm):
    """Before the battle: a unit of the suggested army corrected (figures, formation, its values, its general)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        del self.fields["state"]
        self.fields["general_lost"].label = _("Without its general")


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def clean_reason(self):
        reason = (self.cleaned_data.get("reason") or "").strip()
        if not reason:
            raise forms.ValidationError(_("Say why."))
        return reason


class EndForm(forms.Form):
    winner = forms.ChoiceField(label=_("Winner"), required=False)
    ended_by = forms.ChoiceField(label=_("How it ended"), choices=[(k, v) for k, v in END_REASONS.items()])

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("", _("a draw"))] + [(s.key, s.name) for s in sides]


class ApproveForm(forms.Form):
    side = forms.CharField(max_length=40)
    approve = forms.BooleanField(required=False)


# ------------------------------------------------------------------------------------------ strategic manoeuvring
CELL_RE = re.compile(r"^([A-Ea-eАВСЕаесв])([1-5])(~?)$")
CYRILLIC = {"А": "A", "В": "B", "С": "C", "Е": "E", "а": "A", "в": "B", "с": "C", "е": "E"}


def parse_cell(text: str) -> tuple[list[int], bool]:
    m = CELL_RE.match(text.strip())
    if not m:
        raise forms.ValidationError(_("A card is a letter A–E and a number 1–5, e.g. B3."))
    letter = CYRILLIC.get(m.group(1), m.group(1)).upper()
    return [int(m.group(2)) - 1, COLUMNS.index(letter)], m.group(3) != "~"


class CellForm(forms.Form):
    cell = forms.CharField(label=_("Card place (e.g. B3)"), max_length=3)
    card = forms.ChoiceField(label=_("Card"))
    path = forms.BooleanField(label=_("A Path lies here"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = [("clear", _("clear ground (face down)"))] + [
            (c, card_name(c)) for c in sit.TERRAIN_CARDS]

    def clean_cell(self):
        return parse_cell(self.cleaned_data["cell"])[0]


class WeatherForm(forms.Form):
    weather = forms.MultipleChoiceField(label=_("Weather cards in play"), required=False,
                                        widget=forms.CheckboxSelectMultiple)
    flood = forms.BooleanField(label=_("River flood"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["weather"].choices = [(c, card_name(c)) for c in sit.WEATHER_CARDS]


class CorpsForm(forms.Form):
    name = forms.CharField(label=_("Corps (its general)"), max_length=60)
    side = forms.ChoiceField(label=_("Side"))
    cell = forms.CharField(label=_("On the card (empty: off the map, at its edge)"), max_length=3, required=False)
    mounted = forms.BooleanField(label=_("Wholly mounted"), required=False)

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(s.key, s.name) for s in sides]

    def clean_cell(self):
        text = (self.cleaned_data.get("cell") or "").strip()
        return parse_cell(text)[0] if text else None


class TargetForm(forms.Form):
    """A march target (T31.1): the corps and the cards it enters on its way, in order; Road and Stealth march
    offered only when the side holds them (when hands are dealt)."""
    corps = forms.ChoiceField(label=_("Corps"), error_messages={"invalid_choice": _("No such corps of this side: choose one from the list.")})
    steps = forms.CharField(label=_("Cards entered, in order (e.g. A5 A4 A3)"), max_length=80,
                            help_text=_("Add ~ after a card whose feature the march goes round (counts as clear)."))
    road = forms.BooleanField(label=_("Road card played"), required=False)
    stealth = forms.BooleanField(label=_("Stealth march card played"), required=False)

    def __init__(self, *args, corps=(), hand=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["corps"].choices = [(c["id"], c["name"]) for c in corps]
        if hand is not None:
            for flag, card in sit.MARCH_CARDS.items():
                if card not in hand:
                    del self.fields[flag]

    def clean_steps(self):
        parts = [p for p in re.split(r"[\s,;→]+", self.cleaned_data["steps"].strip()) if p]
        if not parts or len(parts) > 25:
            raise forms.ValidationError(_("Name the cards the march enters."))
        steps = []
        for p in parts:
            cell, crossing = parse_cell(p)
            steps.append({"cell": cell, "crossing": crossing, "crosses_river": False})
        return steps

    def plan(self) -> dict:
        d = self.cleaned_data
        return {"corps": d["corps"], "steps": d["steps"], "road": bool(d.get("road")),
                "stealth": bool(d.get("stealth"))}


class MarchForm(TargetForm):
    """The moderator's march: a target and its dice, typed in at the table or rolled by the server."""
    hand_dice = forms.CharField(label=_("Dice rolled at the table"), required=False, max_length=10)
    server_rest = forms.BooleanField(label=_("The server rolls the dice not typed in"), required=False)

    def clean_hand_dice(self):
        return parse_dice(self.cleaned_data.get("hand_dice"))


class CorpsPickForm(forms.Form):
    corps = forms.ChoiceField(label=_("Corps"), error_messages={"invalid_choice": _("No such corps of this side: choose one from the list.")})

    def __init__(self, *args, corps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["corps"].choices = [(c["id"], c["name"]) for c in corps]


class AnswerForm(forms.Form):
    answer = forms.ChoiceField(label=_("Answer"), choices=[("accept", _("Accept battle")),
                                                           ("refuse", _("Refuse battle"))],
                               error_messages={"invalid_choice": _("Accept battle or refuse it.")})


class LayForm(forms.Form):
    card = forms.ChoiceField(label=_("Terrain card"), error_messages={"invalid_choice": _("This card is not in the hand: choose one from the list.")})
    cell = forms.CharField(label=_("Card place (e.g. B3)"), max_length=3)

    def __init__(self, *args, cards=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = [(c, card_name(c)) for c in dict.fromkeys(cards)]

    def clean_cell(self):
        return parse_cell(self.cleaned_data["cell"])[0]


class PlayForm(forms.Form):
    card = forms.ChoiceField(label=_("Card"), error_messages={"invalid_choice": _("This card is not in the hand: choose one from the list.")})
    cell = forms.CharField(label=_("For a Path: the card it lies on (e.g. C2)"), max_length=3, required=False)

    def __init__(self, *args, cards=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["card"].choices = [(c, card_name(c)) for c in dict.fromkeys(cards)]

    def clean_cell(self):
        text = (self.cleaned_data.get("cell") or "").strip()
        return parse_cell(text)[0] if text else None


class FirstMoveForm(forms.Form):
    side = forms.ChoiceField(label=_("Moves first"), required=False,
                             error_messages={"invalid_choice": _("No such side.")})

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [("", _("the server rolls for both sides"))] + [(s.key, s.name) for s in sides]


class CorpsRuleForm(forms.Form):
    corps = forms.ChoiceField(label=_("Corps"), error_messages={"invalid_choice": _("No such corps.")})
    cell = forms.CharField(label=_("On the card (empty: off the map, at its edge)"), max_length=3, required=False)
    tired = forms.BooleanField(label=_("Tired"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=300)

    def __init__(self, *args, corps=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["corps"].choices = [(c["id"], c["name"]) for c in corps]

    def clean_cell(self):
        text = (self.cleaned_data.get("cell") or "").strip()
        return parse_cell(text)[0] if text else None

    def clean_reason(self):
        reason = (self.cleaned_data.get("reason") or "").strip()
        if not reason:
            raise forms.ValidationError(_("Say why."))
        return reason


class OfferForm(forms.Form):
    side = forms.ChoiceField(label=_("Side offering battle"))

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["side"].choices = [(s.key, s.name) for s in sides]


class FieldForm(forms.Form):
    index = forms.IntegerField(min_value=0, max_value=50)


class TurnForm(forms.Form):
    first = forms.ChoiceField(label=_("Moves first"), required=False)

    def __init__(self, *args, sides=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = [("", "—")] + [(s.key, s.name) for s in sides]
